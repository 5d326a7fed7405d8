//! A game's serde messages attacked under every format adapter, from the
//! command line of the harness (feature `serde`):
//!
//! `cargo run --release -p gamepacket-adversarial --features serde --example serde_game -- campaign`
//!
//! The types are `adversarial::formats::game`'s: a client's `Input` and the
//! server's `Snapshot` (enums with payloads, a `Vec` of entities, strings,
//! options, a map and a recursive type), each under postcard 1, bincode 1.3
//! and bincode 2 as games call them; beside them, the same messages under
//! the same adapters as `PlainCodec` baselines (`plain-...`), attacked
//! without a field map. Cases run in worker processes, so a reader that
//! aborts on an allocation is a verdict and the campaign goes on.
//!
//! Failing inputs go to `corpus/crashes/<target>/` as for any target:
//! give `--crash-dir` elsewhere to keep them out of a repository's corpus.

adversarial::count_allocations!();

fn main() -> std::process::ExitCode {
    use adversarial::formats::{game_baselines, game_targets};
    adversarial::cli::main(game_targets().into_iter().chain(game_baselines()).collect())
}
