//! `cargo run -p game-protocol --features attack --bin attack -- campaign`:
//! the whole `adversarial` command line, on the game's own readers.

adversarial::count_allocations!();

fn main() -> std::process::ExitCode {
    adversarial::cli::main(game_protocol::attack::targets())
}
