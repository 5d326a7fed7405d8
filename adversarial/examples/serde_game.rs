//! A game's serde messages attacked under every format adapter, from the
//! command line of the harness (feature `serde`):
//!
//! `cargo run --release -p gamepacket-adversarial --features serde --example serde_game -- campaign`
//!
//! The types are `adversarial::formats::game`'s: a client's `Input` and the
//! server's `Snapshot` (enums with payloads, a `Vec` of entities, strings,
//! options, a map and a recursive type), each under postcard 1, bincode 1.3
//! and bincode 2 as games call them. Cases run in worker processes, so a
//! reader that aborts on an allocation is a verdict and the campaign goes on.

adversarial::count_allocations!();

fn main() -> std::process::ExitCode {
    adversarial::cli::main(adversarial::formats::game_targets())
}
