//! The scenario campaign's results for people and machines: a table per
//! endpoint target, one line per failing conversation, and JSON.

use super::campaign::{Kept, Report};
use super::Broken;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Short column heads, in [`Broken::ALL`]'s order.
const HEADS: [&str; 13] = [
    "wrong",
    "miscount",
    "corrupt",
    "twice",
    "undeliv",
    "false-ack",
    "unacked",
    "hdr-acks",
    "over-mem",
    "panics",
    "died",
    "oom",
    "hung",
];

/// A table per endpoint target: one row per class, a column per broken
/// promise. Empty when no endpoint ran.
#[must_use]
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    let mut current = "";
    for (target, class, tally) in &report.rows {
        if *target != current {
            current = target;
            let _ = write!(
                out,
                "\n{target} (conversations)\n  {:<34} {:>7} {:>8}",
                "class", "cases", "as owed"
            );
            for head in HEADS {
                let _ = write!(out, " {head:>9}");
            }
            let _ = writeln!(out, " {:>8}", "cases/s");
        }
        let _ = write!(
            out,
            "  {:<34} {:>7} {:>8}",
            class.name(),
            tally.cases,
            tally.as_owed
        );
        for kind in Broken::ALL {
            let _ = write!(out, " {:>9}", tally.broken(kind));
        }
        let rate = tally.cases as f64 / tally.elapsed.as_secs_f64().max(1e-9);
        let _ = writeln!(out, " {rate:>8.0}");
    }
    out.push_str(&families_text(report));
    out
}

/// Per endpoint target, a line per configuration family that ran: its
/// conversations, those that kept every promise, and those that did not.
#[must_use]
pub fn families_text(report: &Report) -> String {
    let mut out = String::new();
    let mut current = "";
    for (target, family, tally) in &report.families {
        if *target != current {
            current = target;
            let _ = writeln!(
                out,
                "\n{target} (configurations drawn per conversation)\n  {:<34} {:>7} {:>8} {:>9}",
                "family", "cases", "as owed", "failing"
            );
        }
        let _ = writeln!(
            out,
            "  {:<34} {:>7} {:>8} {:>9}",
            family.name(),
            tally.cases,
            tally.as_owed,
            tally.cases.saturating_sub(tally.as_owed)
        );
    }
    out
}

/// One line per kept failing conversation.
#[must_use]
pub fn failures_text(report: &Report) -> String {
    let mut out = String::new();
    for kept in &report.failures {
        let _ = writeln!(out, "{}", failure_line(kept));
    }
    out
}

/// A kept failure in one line, with its file.
#[must_use]
pub fn failure_line(kept: &Kept) -> String {
    format!(
        "FAIL {} / {} ({}): {} at datagram {} of {} (case {}){}",
        kept.target,
        kept.failure.class.name(),
        kept.scenario.family.name(),
        kept.failure.what,
        kept.failure.step,
        kept.scenario.datagrams.len(),
        kept.index,
        kept.file
            .as_ref()
            .map(|p| format!(" -> {}", p.display()))
            .unwrap_or_default()
    )
}

/// The results as JSON: rows, failures and when each target was caught.
#[must_use]
pub fn json(report: &Report) -> Value {
    json!({
        "passed": report.passed(),
        "rows": report.rows.iter().map(|(target, class, tally)| {
            let broken: serde_json::Map<String, Value> = Broken::ALL
                .iter()
                .map(|kind| (kind.name().to_string(), json!(tally.broken(*kind))))
                .collect();
            json!({
                "endpoint": target,
                "class": class.name(),
                "cases": tally.cases,
                "as_owed": tally.as_owed,
                "broken": broken,
            })
        }).collect::<Vec<_>>(),
        "families": report.families.iter().map(|(target, family, tally)| json!({
            "endpoint": target,
            "family": family.name(),
            "cases": tally.cases,
            "as_owed": tally.as_owed,
        })).collect::<Vec<_>>(),
        "caught_after": report.caught_after.iter().map(|(target, after)| json!({
            "endpoint": target,
            "cases": after,
        })).collect::<Vec<_>>(),
        "failures": report.failures.iter().map(|kept| json!({
            "endpoint": kept.target,
            "class": kept.failure.class.name(),
            "broken": kept.failure.kind.name(),
            "what": kept.failure.what,
            "step": kept.failure.step,
            "datagrams": kept.scenario.datagrams.len(),
            "family": kept.scenario.family.name(),
            "case": kept.index,
            "file": kept.file.as_ref().map(|p| p.display().to_string()),
        })).collect::<Vec<_>>(),
    })
}
