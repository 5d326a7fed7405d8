//! `cargo run --release --features attack --bin attack -- campaign`

adversarial::count_allocations!();

fn main() -> std::process::ExitCode {
    adversarial::cli::main(my_game::attack::targets())
}
