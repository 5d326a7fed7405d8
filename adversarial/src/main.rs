//! The `adversarial` command: attack the codec's readers with malicious
//! packets and report what they do. The command line itself is
//! `adversarial::cli`, which a user's binary runs on its own targets.

use adversarial::{cli, targets};
use std::process::ExitCode;

adversarial::count_allocations!();

fn main() -> ExitCode {
    cli::main_with(cli::Registry {
        targets: targets::all(),
        fixtures: targets::fixtures(),
        endpoints: targets::endpoints(),
        endpoint_fixtures: targets::endpoint_fixtures(),
    })
}
