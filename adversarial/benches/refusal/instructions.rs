//! `-- --instructions`: instructions per packet to refuse each class's
//! cases and to accept their twins, counted by cachegrind in child runs of
//! this binary. Where a refusal comes at a packet's last field, the two
//! differ by a few instructions, less than the wall clock's noise.

use crate::cachegrind;
use crate::{read_all, sets};
use adversarial::target::Target;

/// The flag of a child run: `RUN target class side rounds`.
pub const RUN: &str = "--run-set";

/// Rounds of a counted child run; a run of none (the sets' making alone)
/// is subtracted.
const ROUNDS: u64 = 20;

/// The child run: makes `target_name`'s sets as the timed benchmark does,
/// then reads the cases (`side` "case") or twins ("twin") of `class`
/// `rounds` times.
pub fn run(target_name: &str, class: &str, side: &str, rounds: u64) {
    let target = target_named(target_name);
    let sets = sets(target.as_ref());
    let set = sets
        .iter()
        .find(|s| s.class.name() == class)
        .unwrap_or_else(|| panic!("no class {class} on {target_name}"));
    let packets = if side == "case" {
        &set.refused
    } else {
        &set.twins
    };
    for _ in 0..rounds {
        read_all(target.as_ref(), packets);
    }
}

fn target_named(name: &str) -> Box<dyn Target> {
    adversarial::targets::all()
        .into_iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| panic!("no target {name}"))
}

/// What a refusal must not exceed: the twin's count, scaled by the
/// refused bytes over the twin's where the refused packets are longer
/// (bytes the reader must take in before it can tell).
fn verdict(refuse: f64, accept: f64, length_ratio: f64) -> &'static str {
    if refuse <= accept * length_ratio.max(1.0) {
        "ok"
    } else {
        "ABOVE"
    }
}

/// Prints instructions per packet, refused and accepted, for every class
/// of every target.
pub fn print() {
    if cachegrind::missing() {
        return;
    }
    println!("\n## Instructions per packet: refusing each class next to accepting its twins");
    println!("(cachegrind, {ROUNDS} rounds of each set less a run of none; ABOVE when the");
    println!(" refusal takes more than the twins, times the refused bytes over the twin's where");
    println!(" those are more)\n");
    println!("| target | class | bytes refused / twin | refuse | accept | ratio | verdict |");
    println!("|---|---|---|---|---|---|---|");
    let mut above = 0;
    for target in adversarial::targets::all() {
        let name = target.name();
        let count = |class: &str, side: &str, rounds: u64| {
            let args = [RUN, name, class, side, &rounds.to_string()];
            cachegrind::instructions(&args.map(String::from))
        };
        let sets = sets(target.as_ref());
        let Some(first) = sets.first() else {
            continue;
        };
        let making = count(first.class.name(), "case", 0);
        for set in &sets {
            let class = set.class.name();
            let n = set.refused.len() as f64;
            let per_packet = |side| {
                count(class, side, ROUNDS).saturating_sub(making) as f64 / (ROUNDS as f64 * n)
            };
            let (refuse, accept) = (per_packet("case"), per_packet("twin"));
            let refused_bytes: usize = set.refused.iter().map(Vec::len).sum();
            let twin_bytes: usize = set.twins.iter().map(Vec::len).sum();
            let length_ratio = refused_bytes as f64 / twin_bytes.max(1) as f64;
            let control = set.class == adversarial::mutate::Class::Valid;
            let verdict = if control {
                "control"
            } else {
                verdict(refuse, accept, length_ratio)
            };
            above += usize::from(verdict == "ABOVE");
            println!(
                "| {name} | {class} | {:.1} / {:.1} | {refuse:.1} | {accept:.1} | {:.4} | {verdict} |",
                refused_bytes as f64 / n,
                twin_bytes as f64 / n,
                refuse / accept.max(1.0),
            );
        }
    }
    println!("\nClasses whose refusal costs more instructions than allowed: {above}.");
}
