//! `cargo run -p game-protocol --features attack --bin attack -- campaign`:
//! the whole `adversarial` command line, on the game's own readers and
//! its connection layer.

adversarial::count_allocations!();

fn main() -> std::process::ExitCode {
    adversarial::cli::main_with(adversarial::cli::Registry {
        targets: game_protocol::attack::targets(),
        endpoints: game_protocol::attack::endpoints(),
        ..adversarial::cli::Registry::default()
    })
}
