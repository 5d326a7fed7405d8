//! Rendering for people and machines: campaign tables, field maps and
//! verdicts, as text or JSON.

use crate::campaign::{Report, Tally};
pub use crate::digest::hex;
use crate::field_map::{Field, FieldMap, Kind};
use crate::oracle::Failing;
use crate::oracle::Outcome;
use crate::replay::{Replayed, Summary};
use crate::target::{Inspection, ListedField, Refusal, Verdict};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Where the failures are printed, relative to the table, for the table's
/// last line to point at them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// Before the table: the command line prints them when the run ends,
    /// shrunk, just above it (its progress bar counts them as they are
    /// found).
    Above,
    /// After the table (a failing test's message).
    Below,
}

/// The campaign's table, one block per target, and a closing line that
/// points at the failures, `listed` above or below it.
#[must_use]
pub fn campaign_table(report: &Report, listed: Listed) -> String {
    let mut out = String::new();
    let mut current = "";
    for (target, class, tally) in &report.rows {
        if *target != current {
            out.push_str(&known_causes_text(report, current));
            current = target;
            let _ = writeln!(out, "\n{target}");
            let _ = writeln!(
                out,
                "  {:<22} {:>8} {:>9} {:>6} {:>8} {:>6} {:>9} {:>9} {:>5} {:>5} {:>10}",
                "class",
                "cases",
                "as owed",
                "other",
                "accepted",
                "panics",
                "non-canon",
                "over-mem",
                "died",
                "hung",
                "cases/s"
            );
        }
        let _ = writeln!(
            out,
            "  {:<22} {:>8} {:>9} {:>6} {:>8} {:>6} {:>9} {:>9} {:>5} {:>5} {:>10.0}",
            class.name(),
            tally.cases,
            tally.as_owed,
            tally.count(Failing::OtherError),
            tally.count(Failing::Accepted),
            tally.count(Failing::Panicked),
            tally.count(Failing::NonCanonical),
            tally.count(Failing::OverAllocated),
            tally.count(Failing::Aborted) + tally.count(Failing::OutOfMemory),
            tally.count(Failing::TimedOut),
            tally.rate()
        );
    }
    out.push_str(&known_causes_text(report, current));
    for unmade in &report.unmade {
        let _ = writeln!(out, "\n{}", unmade.text());
    }
    out.push_str(&crate::scenario::table::text(&report.conversations));
    let total: u64 = report.rows.iter().map(|(_, _, t)| t.cases).sum();
    let conversations = report.conversations.cases();
    let _ = writeln!(
        out,
        "\n{total} cases from {} samples{} in {:.1} s, seed {}: {}",
        report.samples,
        if conversations > 0 {
            format!(" and {conversations} conversations")
        } else {
            String::new()
        },
        report.elapsed.as_secs_f64(),
        report.seed,
        if report.passed() {
            "every verdict as owed, no panic"
        } else {
            match listed {
                Listed::Above => "FAILURES (listed above the table)",
                Listed::Below => "FAILURES (listed below the table)",
            }
        }
    );
    out
}

fn tally_json(tally: &Tally) -> Value {
    json!({
        "cases": tally.cases,
        "as_owed": tally.as_owed,
        "other_error": tally.count(Failing::OtherError),
        "accepted": tally.count(Failing::Accepted),
        "panics": tally.count(Failing::Panicked),
        "non_canonical": tally.count(Failing::NonCanonical),
        "over_allocated": tally.count(Failing::OverAllocated),
        "aborted": tally.count(Failing::Aborted),
        "out_of_memory": tally.count(Failing::OutOfMemory),
        "timed_out": tally.count(Failing::TimedOut),
        "cases_per_second": tally.rate().round(),
    })
}

pub(crate) fn outcome_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::AsOwed => "as owed".into(),
        Outcome::OtherError(r) => format!("refused with another error: {}", r.message),
        Outcome::Accepted => "accepted a packet it owed a refusal".into(),
        Outcome::NonCanonical(why) => format!("accepted, but {why}"),
        Outcome::Panicked(message) => format!("PANIC: {message}"),
        Outcome::OverAllocated { peak, bound } => format!("allocated {peak} bytes, bound {bound}"),
        Outcome::Aborted(how) => format!("ABORTED: {how}"),
        Outcome::OutOfMemory(how) => format!("OUT OF MEMORY: {how}"),
        Outcome::TimedOut(after) => format!("TIMED OUT after {} ms", after.as_millis()),
    }
}

/// The failures of one target, class and kind that a known cause explains
/// listed in full; the rest are counted.
pub const SHOWN_PER_CAUSE: usize = 3;

/// The failures a report lists, the reader's own first, then those a
/// known cause explains, the first [`SHOWN_PER_CAUSE`] of each target,
/// class and kind; and how many of those it leaves out (the same noise in
/// other fields: the JSON has them all).
#[must_use]
pub fn shown_failures(report: &Report) -> (Vec<&crate::campaign::Failure>, usize) {
    let mut shown: Vec<_> = report
        .failures
        .iter()
        .filter(|f| f.cause.is_none())
        .collect();
    let mut counts: std::collections::BTreeMap<_, usize> = std::collections::BTreeMap::new();
    let mut left_out = 0;
    for f in report.failures.iter().filter(|f| f.cause.is_some()) {
        let n = counts
            .entry((f.target, f.class, f.outcome.failing()))
            .or_default();
        *n += 1;
        if *n <= SHOWN_PER_CAUSE {
            shown.push(f);
        } else {
            left_out += 1;
        }
    }
    (shown, left_out)
}

/// One line per failure listed ([`shown_failures`]): the reader's own
/// first, then those a known cause of the format explains, under a line
/// that says so.
#[must_use]
pub fn failures_text(report: &Report) -> String {
    let mut out = String::new();
    let (shown, left_out) = shown_failures(report);
    let mut heading = false;
    for f in shown {
        if f.cause.is_some() && !heading {
            heading = true;
            let known = report.failures.iter().filter(|f| f.cause.is_some()).count();
            let _ = writeln!(
                out,
                "the format's known behaviour ({known} kept; each row's cause is under its table):"
            );
        }
        let _ = writeln!(
            out,
            "FAIL {} / {}: {} (lie: {}; owed {:?}){}{}",
            f.target,
            f.class.name(),
            outcome_text(&f.outcome),
            f.lie,
            f.owed,
            f.read
                .as_ref()
                .map(|read| format!("; read as {read}"))
                .unwrap_or_default(),
            f.file
                .as_ref()
                .map(|p| format!(" -> {}", p.display()))
                .unwrap_or_default()
        );
    }
    if left_out > 0 {
        let _ = writeln!(
            out,
            "  and {left_out} more in other fields, each explained the same way (--json lists them)"
        );
    }
    out.push_str(&crate::scenario::table::failures_text(
        &report.conversations,
    ));
    out
}

/// The lines under `target`'s table that say why its reader lets failing
/// classes through, where that is known, and what refuses them.
fn known_causes_text(report: &Report, target: &str) -> String {
    let mut out = String::new();
    for (_, class, why) in report.known_causes.iter().filter(|(t, _, _)| *t == target) {
        let words = why.split_whitespace().collect::<Vec<_>>().join(" ");
        let _ = writeln!(
            out,
            "  known cause of the {} failures listed under the format's known behaviour: {words}",
            class.name()
        );
    }
    out
}

/// The whole report as JSON.
#[must_use]
pub fn campaign_json(report: &Report) -> Value {
    json!({
        "seed": report.seed,
        "samples": report.samples,
        "unmade": report.unmade.iter().map(|u| json!({
            "target": u.target,
            "draws": u.draws,
            "samples": u.samples,
            "why": u.why,
        })).collect::<Vec<_>>(),
        "seconds": report.elapsed.as_secs_f64(),
        "passed": report.passed(),
        "rows": report.rows.iter().map(|(target, class, tally)| json!({
            "target": target,
            "class": class.name(),
            "tally": tally_json(tally),
        })).collect::<Vec<_>>(),
        "failures": report.failures.iter().map(|f| json!({
            "target": f.target,
            "class": f.class.name(),
            "lie": f.lie,
            "outcome": outcome_text(&f.outcome),
            "known_cause": f.cause.map(|why| why.split_whitespace().collect::<Vec<_>>().join(" ")),
            "read": f.read,
            "file": f.file.as_ref().map(|p| p.display().to_string()),
            "bytes": hex(&f.bytes),
        })).collect::<Vec<_>>(),
        "known_causes": report.known_causes.iter().map(|(target, class, why)| json!({
            "target": target,
            "class": class.name(),
            "why": why.split_whitespace().collect::<Vec<_>>().join(" "),
        })).collect::<Vec<_>>(),
        "conversations": crate::scenario::table::json(&report.conversations),
    })
}

/// A float as JSON: the number (null when not finite) and its bit pattern.
fn float_json(value: f64, bits: String) -> Value {
    json!({ "value": if value.is_finite() { json!(value) } else { Value::Null }, "ieee754": bits })
}

/// One field as JSON, its value spelled by kind.
fn field_json(field: &Field, next: Option<&Field>) -> Value {
    let mut object = json!({
        "name": field.name,
        "offset": field.offset,
        "width": field.width,
        "kind": field.kind.label(),
        "role": field.role.label(),
        "wire": field.value,
    });
    let extra = match field.kind {
        Kind::Ranged { min, .. } => json!({ "value": min.saturating_add(field.value as i64) }),
        Kind::Compressed { format } => {
            let value = format.dequantize(field.value as u32);
            float_json(f64::from(value), format!("0x{:08X}", value.to_bits()))
        }
        Kind::Float => {
            let value = f32::from_bits(field.value as u32);
            float_json(f64::from(value), format!("0x{:08X}", value.to_bits()))
        }
        Kind::Double => match next {
            // The low group carries the whole value's view.
            Some(high) if high.kind == Kind::Double && high.offset == field.end() => {
                let bits = field.value | (high.value << 32);
                float_json(f64::from_bits(bits), format!("0x{bits:016X}"))
            }
            _ => Value::Null,
        },
        Kind::Check { label } => json!({ "label": label }),
        Kind::Bool => json!({ "value": field.value != 0 }),
        _ => Value::Null,
    };
    if let (Value::Object(map), Value::Object(more)) = (&mut object, extra) {
        map.extend(more);
    }
    object
}

/// A field map as JSON.
#[must_use]
pub fn fields_json(map: &FieldMap) -> Value {
    let fields = &map.fields;
    Value::Array(
        fields
            .iter()
            .enumerate()
            .map(|(i, f)| field_json(f, fields.get(i + 1)))
            .collect(),
    )
}

/// The fields of a foreign encoding as JSON: `offset` and `width` in bits,
/// `path`, `role`, `value`.
#[must_use]
pub fn listed_json(listed: &[ListedField]) -> Value {
    Value::Array(
        listed
            .iter()
            .map(|f| {
                json!({
                    "offset": f.offset,
                    "width": f.width,
                    "path": f.path,
                    "role": f.role,
                    "value": f.value,
                })
            })
            .collect(),
    )
}

/// The fields of a foreign encoding as `inspect` prints them.
#[must_use]
pub fn listed_table(listed: &[ListedField]) -> String {
    let mut out = format!(
        "{:>8} {:>6}  {:<32} {:<22} {}\n",
        "offset", "width", "path", "role", "value"
    );
    for f in listed {
        let _ = writeln!(
            out,
            "{:>8} {:>6}  {:<32} {:<22} {}",
            f.offset, f.width, f.path, f.role, f.value
        );
    }
    out
}

/// A refusal as JSON, the one shape every command prints: `cause`,
/// `bit_offset` (a number; `null` only from a foreign decoder that gives
/// none), `field` (`null` when the refusal is not inside a named field) and
/// `message`, the decoder's own words.
#[must_use]
pub fn refusal_json(refusal: &Refusal, failed_in: Option<&str>) -> Value {
    json!({
        "cause": refusal.cause,
        "bit_offset": refusal.at,
        "field": failed_in.filter(|name| !name.is_empty()),
        "message": refusal.message,
    })
}

/// One replayed file as JSON: its path, target and verdict; a refusal in
/// the shape of [`refusal_json`], a failure with its description.
#[must_use]
pub fn replayed_json(file: &std::path::Path, target: &str, replayed: &Replayed) -> Value {
    let (verdict, refusal, failure) = match replayed {
        Replayed::Accepted => ("accepted", Value::Null, Value::Null),
        Replayed::Refused(r) => ("refused", refusal_json(r, None), Value::Null),
        other => ("failed", Value::Null, json!(other.to_string())),
    };
    json!({
        "file": file.display().to_string(),
        "target": target,
        "verdict": verdict,
        "error": refusal,
        "failure": failure,
    })
}

/// A replay's closing summary as JSON.
#[must_use]
pub fn summary_json(summary: &Summary) -> Value {
    json!({
        "summary": {
            "files": summary.files,
            "accepted": summary.accepted,
            "refused": summary.refused,
            "failures": summary.failures,
            "skipped": summary.skipped,
        }
    })
}

/// The verdict's name, the refusal (or null) and whether an accepted value
/// re-encodes (or null), shared by `inspect --json` and `decode --json`.
fn verdict_json(inspection: &Inspection) -> (&'static str, Value, Value) {
    match &inspection.verdict {
        Verdict::Accepted { reencoded } => ("accepted", Value::Null, json!(reencoded.is_ok())),
        Verdict::Refused(r) => (
            "refused",
            refusal_json(r, inspection.failed_in),
            Value::Null,
        ),
    }
}

/// A decode or inspect result as JSON.
#[must_use]
pub fn inspection_json(target: &str, inspection: &Inspection) -> Value {
    let (verdict, error, canonical) = verdict_json(inspection);
    json!({
        "target": target,
        "verdict": verdict,
        "packet_type": inspection.packet_type,
        "fields": if inspection.listed.is_empty() {
            fields_json(&inspection.map)
        } else {
            listed_json(&inspection.listed)
        },
        "error": error,
        "reencodes": canonical,
    })
}

/// A `decode --json` document: the verdict and, when accepted, the value
/// named as its types declare it ([`crate::value`]); when refused, the
/// refusal in the shape of [`refusal_json`].
#[must_use]
pub fn decoded_json(target: &str, inspection: &Inspection, value: Option<Value>) -> Value {
    let (verdict, error, canonical) = verdict_json(inspection);
    json!({
        "target": target,
        "verdict": verdict,
        "packet_type": inspection.packet_type,
        "value": value,
        "reencodes": canonical,
        "error": error,
    })
}

/// A field's value for people: a ranged value with its wire integer, a
/// compressed float with its code, a float with its bits, a check with its
/// label.
#[must_use]
pub fn shown_value(field: &Field) -> String {
    match field.kind {
        Kind::Ranged { min, .. } => format!(
            "{} (wire {})",
            min.saturating_add(field.value as i64),
            field.value
        ),
        Kind::Compressed { format } => {
            format!(
                "{} (code {})",
                format.dequantize(field.value as u32),
                field.value
            )
        }
        Kind::Float => {
            let v = f32::from_bits(field.value as u32);
            format!("{v} (0x{:08X})", v.to_bits())
        }
        Kind::Check { label } => format!("0x{:08X} \"{label}\"", field.value),
        _ => field.value.to_string(),
    }
}

/// A field map as a table, for people.
#[must_use]
pub fn fields_table(map: &FieldMap) -> String {
    let mut out = format!(
        "{:>8} {:>6}  {:<18} {:<15} {:<14} {}\n",
        "offset", "width", "name", "kind", "role", "value"
    );
    for field in &map.fields {
        let shown = shown_value(field);
        let _ = writeln!(
            out,
            "{:>8} {:>6}  {:<18} {:<15} {:<14} {}",
            field.offset,
            field.width,
            field.name,
            field.kind.label(),
            field.role.label(),
            shown
        );
    }
    out
}

/// A verdict line for people: the cause, where, the field, and the
/// decoder's words when they say more than that.
#[must_use]
pub fn verdict_text(inspection: &Inspection) -> String {
    match &inspection.verdict {
        Verdict::Accepted { reencoded: Ok(_) } => "accepted (re-encodes to the same bytes)".into(),
        Verdict::Accepted {
            reencoded: Err(why),
        } => format!("accepted, but does not re-encode: {why}"),
        Verdict::Refused(r) => {
            let at = r.at.map(|a| format!(" at bit {a}")).unwrap_or_default();
            let field = inspection
                .failed_in
                .filter(|name| !name.is_empty())
                .map(|f| format!(", field \"{f}\""))
                .unwrap_or_default();
            let plain = format!("{}{at}", r.cause);
            // A cause that only says "refused" (a serde format's) is not
            // said twice.
            if r.cause == "refused" {
                return format!("refused{at}{field}: {}", r.message);
            }
            let detail = if r.message == plain {
                String::new()
            } else {
                format!(": {}", r.message)
            };
            format!("refused: {plain}{field}{detail}")
        }
    }
}

/// A flood's report, for people.
#[must_use]
pub fn flood_text(report: &crate::flood::FloodReport) -> String {
    let mut out = String::new();
    let seconds = report.elapsed.as_secs_f64().max(1e-9);
    let known = |v: Option<u64>| v.map_or("unknown".to_string(), |d| d.to_string());
    let _ = writeln!(
        out,
        "honest packets: {} sent, {} acknowledged, {} lost ({} ticks sent late)",
        report.honest_sent,
        report.honest_acked,
        report.honest_lost(),
        report.late_ticks
    );
    let _ = writeln!(
        out,
        "  lost before the server read them: {}; refused by the server: {}; accepted, acknowledgement lost: {}",
        report.honest_unseen(),
        report.honest_refused_total(),
        report.honest_ack_lost()
    );
    let _ = writeln!(
        out,
        "  kernel drops: {} at the server's socket, {} at the honest clients' sockets",
        known(report.kernel_drops),
        known(report.client_kernel_drops)
    );
    let ledger = &report.malicious;
    let _ = writeln!(
        out,
        "malicious datagrams: {} sent ({:.0} per second), {} owed a refusal; {} judged as owed, {} judged wrongly, {} never judged (dropped before the server), {} of those owed a refusal acknowledged",
        report.malicious_sent,
        report.malicious_sent as f64 / seconds,
        report.owed_refusal,
        ledger.judged,
        ledger.wrong,
        ledger.unjudged,
        report.wrongly_accepted
    );
    for wrong in &ledger.examples {
        let _ = writeln!(
            out,
            "  WRONG {}: owed {}, got {} (fingerprint {:016x})",
            wrong.class, wrong.owed, wrong.got, wrong.fingerprint
        );
    }
    let causes: Vec<String> = ledger
        .refused
        .iter()
        .map(|(cause, n)| format!("{cause} {n}"))
        .collect();
    let _ = writeln!(out, "  refused by cause: {}", causes.join(", "));
    if let (Some(first), Some(last)) = (report.memory.first(), report.memory.last()) {
        let peak = report.memory.iter().map(|(_, kb)| *kb).max().unwrap_or(0);
        let _ = writeln!(
            out,
            "server resident memory: {} KiB at {:.0} s, {} KiB at {:.0} s, peak {} KiB ({} samples)",
            first.1,
            first.0,
            last.1,
            last.0,
            peak,
            report.memory.len()
        );
    }
    if let (Some(cpu_ms), Some(received)) = (
        report.server_counter("cpu_ms"),
        report.server_counter("received"),
    ) {
        let _ = writeln!(
            out,
            "server CPU: {:.2} us per datagram read ({cpu_ms} ms for {received})",
            cpu_ms as f64 * 1000.0 / received.max(1) as f64,
        );
    }
    match &report.server_stats {
        Some(stats) => {
            let _ = writeln!(out, "server: {stats}");
        }
        None => {
            let _ = writeln!(out, "server: did not answer at the end");
        }
    }
    let _ = write!(
        out,
        "{}",
        if report.passed() {
            "every malicious datagram the server read got its owed verdict; every honest packet that reached the server was accepted and acknowledged"
        } else {
            "FAILED: see the counts above"
        }
    );
    out
}

/// The flood's report as JSON, with the memory samples.
#[must_use]
pub fn flood_json(report: &crate::flood::FloodReport) -> Value {
    let ledger = &report.malicious;
    json!({
        "seconds": report.elapsed.as_secs_f64(),
        "honest": {
            "sent": report.honest_sent,
            "acknowledged": report.honest_acked,
            "lost": report.honest_lost(),
            "lost_before_server": report.honest_unseen(),
            "refused_by_server": report.honest_refused,
            "ack_lost": report.honest_ack_lost(),
            "late_ticks": report.late_ticks,
        },
        "malicious": {
            "sent": report.malicious_sent,
            "owed_refusal": report.owed_refusal,
            "judged_as_owed": ledger.judged,
            "judged_wrongly": ledger.wrong,
            "wrong_examples": ledger.examples.iter().map(|w| json!({
                "class": w.class,
                "owed": w.owed,
                "got": w.got,
                "fingerprint": format!("{:016x}", w.fingerprint),
            })).collect::<Vec<_>>(),
            "never_judged": ledger.unjudged,
            "unmatched_verdicts": ledger.unmatched,
            "refused_by_cause": ledger.refused,
            "owed_refusal_acknowledged": report.wrongly_accepted,
        },
        "kernel_drops": {
            "server_socket": report.kernel_drops,
            "client_sockets": report.client_kernel_drops,
        },
        "server_answered": report.server_answered,
        "server": report
            .server_stats
            .as_deref()
            .and_then(|s| serde_json::from_str::<Value>(s).ok()),
        "memory_kb": report.memory.iter().map(|(t, kb)| json!([t, kb])).collect::<Vec<_>>(),
        "passed": report.passed(),
    })
}
