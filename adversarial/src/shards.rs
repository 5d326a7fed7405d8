//! A campaign cut across machines: each shard's file, and the merge that
//! gives the report of the whole.
//!
//! `campaign --shard I/N --json FILE` runs the samples and conversations
//! whose number is `I` modulo `N` ([`crate::schedule::Shard`]) and writes
//! its part's report with a `"shard"` object: the settings, every sample
//! it merged (per class: its tally, and each failing case as its place
//! among the sample's cases, its kind and its lie's field), and its
//! conversations' tallies with the
//! first failing case of each kind. `merge` reads the files, merges the
//! samples in order and cuts them where the whole campaign would have
//! (the first sample that meets a case budget), builds the failing cases
//! again from their places, and shrinks and writes them as the whole
//! campaign does: the same table, failures and exit code.

use crate::campaign::{self, Budget, Config, Judged, Merged, Report, Results, ShardRecord, Tally};
use crate::case::Class;
use crate::oracle::Failing;
use crate::scenario::campaign::{self as conversations, Merged as Talks};
use crate::scenario::{Broken, StateClass};
use crate::schedule::Shard;
use crate::worker::Worker;
use serde_json::{json, Value};
use std::time::Duration;

/// What a shard ran: what the merge needs besides the shard's records to
/// run the whole campaign's cases again.
pub struct Plan {
    /// The seed.
    pub seed: u64,
    /// The budget.
    pub budget: Budget,
    /// The packet targets, by name, in order.
    pub targets: Vec<String>,
    /// The endpoint targets, by name, in order.
    pub endpoints: Vec<String>,
    /// The classes, in order.
    pub classes: Vec<Class>,
    /// The lies across packets, in order.
    pub state_classes: Vec<StateClass>,
}

/// The `"shard"` object of a shard's JSON file.
#[must_use]
pub fn shard_json(config: &Config, record: &ShardRecord) -> Value {
    let names = |classes: Vec<&str>| json!(classes);
    json!({
        "index": record.shard.index,
        "count": record.shard.count,
        "seed": config.seed,
        "budget": match config.budget {
            Budget::Cases(n) => json!({ "cases": n }),
            Budget::Seconds(s) => json!({ "seconds": s }),
        },
        "classes": names(config.classes.iter().map(|c| c.name()).collect()),
        "state_classes": names(config.state_classes.iter().map(|c| c.name()).collect()),
        "targets": config.targets.iter().zip(&record.samples).map(|(target, samples)| json!({
            "name": target.name(),
            "samples": samples.iter().map(sample_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "endpoints": config.endpoints.iter().zip(&record.conversations).map(|(endpoint, talks)| json!({
            "name": endpoint.name(),
            "tallies": talks.tallies.iter()
                .map(|(slot, t)| json!([slot, tally_json(t, |k| k.name())]))
                .collect::<Vec<_>>(),
            "first": talks.first.iter().map(|((slot, kind), index)| json!([slot, kind.name(), index]))
                .collect::<Vec<_>>(),
            "families": talks.families.iter()
                .map(|(family, t)| json!([family.name(), tally_json(t, |k| k.name())]))
                .collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn nanos(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX)
}

/// A tally: `[cases, nanoseconds]` when every case got its verdict, else
/// `[cases, as owed, nanoseconds, [[kind, count]...]]`.
fn tally_json<K: Ord + Copy>(
    t: &crate::tally::Tally<K>,
    name: impl Fn(K) -> &'static str,
) -> Value {
    if t.clean() {
        return json!([t.cases, nanos(t.elapsed)]);
    }
    let failing: Vec<Value> = t
        .failing
        .iter()
        .map(|(k, n)| json!([name(*k), n]))
        .collect();
    json!([t.cases, t.as_owed, nanos(t.elapsed), failing])
}

/// The tally [`tally_json`] wrote, its kinds read by `kind`.
fn tally_from<K: Ord + Copy>(
    value: &Value,
    kind: impl Fn(&str) -> Result<K, String>,
) -> Result<crate::tally::Tally<K>, String> {
    let fields = list(value, "a tally")?;
    let mut tally = crate::tally::Tally::default();
    match fields.as_slice() {
        [cases, elapsed] => {
            tally.cases = number(cases, "cases")?;
            tally.as_owed = tally.cases;
            tally.elapsed = Duration::from_nanos(number(elapsed, "nanoseconds")?);
        }
        [cases, as_owed, elapsed, failing] => {
            tally.cases = number(cases, "cases")?;
            tally.as_owed = number(as_owed, "as owed")?;
            tally.elapsed = Duration::from_nanos(number(elapsed, "nanoseconds")?);
            for pair in list(failing, "failing cases")? {
                let [name, n] = list(pair, "a failing kind")?.as_slice() else {
                    return Err(format!("a failing kind is [kind, count], not {pair}"));
                };
                tally
                    .failing
                    .insert(kind(text(name, "kind")?)?, number(n, "count")?);
            }
        }
        _ => return Err(format!("a tally is [cases, nanoseconds] or [cases, as owed, nanoseconds, failing], not {value}")),
    }
    Ok(tally)
}

/// One sample: `[index, [class...], [[slot, place, kind, field]...]]`, each class
/// `[cases, nanoseconds]` when every case got its verdict, else its ten
/// counts then the nanoseconds; a draw that made no sample, `[index]`.
fn sample_json(judged: &Judged<(usize, String)>) -> Value {
    if !judged.generated {
        return json!([judged.index]);
    }
    let classes: Vec<Value> = judged
        .classes
        .iter()
        .map(|(t, _)| tally_json(t, Failing::name))
        .collect();
    let failing: Vec<Value> = judged
        .classes
        .iter()
        .enumerate()
        .flat_map(|(slot, (_, failing))| {
            failing
                .iter()
                .map(move |(kind, (place, field))| json!([slot, place, kind.name(), field]))
        })
        .collect();
    json!([judged.index, classes, failing])
}

fn number(value: &Value, what: &str) -> Result<u64, String> {
    value
        .as_u64()
        .ok_or_else(|| format!("{what}: not a number: {value}"))
}

fn list<'a>(value: &'a Value, what: &str) -> Result<&'a Vec<Value>, String> {
    value
        .as_array()
        .ok_or_else(|| format!("{what}: not a list: {value}"))
}

fn text<'a>(value: &'a Value, what: &str) -> Result<&'a str, String> {
    value
        .as_str()
        .ok_or_else(|| format!("{what}: not a string: {value}"))
}

/// A failing packet case's kind, by its name.
fn failing_kind(name: &str) -> Result<Failing, String> {
    Failing::ALL
        .into_iter()
        .find(|k| k.name() == name)
        .ok_or_else(|| format!("{name:?} is no kind of failure"))
}

/// A kept failing case as a shard's file holds it: its place among its
/// class's cases, and the field its lie was told in.
type Kept = (usize, String);

fn sample_of(value: &Value, wanted: usize) -> Result<Judged<Kept>, String> {
    let (index, tallies, failing) = match list(value, "a sample")?.as_slice() {
        [index, tallies, failing] => (index, tallies, failing),
        [index] => {
            return Ok(Judged {
                index: number(index, "sample index")?,
                generated: false,
                classes: Vec::new(),
            })
        }
        _ => {
            return Err(format!(
                "a sample is [index, classes, failing], or [index] for a draw \
                 that made none, not {value}"
            ))
        }
    };
    let mut classes: Vec<(Tally, Vec<(Failing, Kept)>)> = list(tallies, "classes")?
        .iter()
        .map(|t| Ok((tally_from(t, failing_kind)?, Vec::new())))
        .collect::<Result<_, String>>()?;
    if classes.len() != wanted {
        return Err(format!(
            "a sample has {} classes where the shard has {wanted}",
            classes.len()
        ));
    }
    for f in list(failing, "failing cases")? {
        let (slot, place, kind, field) = match list(f, "a failing case")?.as_slice() {
            [slot, place, kind, field] => (slot, place, kind, text(field, "field")?),
            [slot, place, kind] => (slot, place, kind, ""),
            _ => {
                return Err(format!(
                    "a failing case is [slot, place, kind, field], not {f}"
                ))
            }
        };
        let slot = usize::try_from(number(slot, "slot")?).map_err(|e| e.to_string())?;
        let place = usize::try_from(number(place, "place")?).map_err(|e| e.to_string())?;
        let kind = failing_kind(text(kind, "kind")?)?;
        let (_, failing) = classes
            .get_mut(slot)
            .ok_or_else(|| format!("a failing case names class slot {slot} of {wanted}"))?;
        failing.push((kind, (place, field.to_string())));
    }
    Ok(Judged {
        index: number(index, "sample index")?,
        generated: true,
        classes,
    })
}

fn talks_of(value: &Value) -> Result<Talks, String> {
    let mut talks = Talks::default();
    for row in list(&value["tallies"], "an endpoint's tallies")? {
        let [slot, tally] = list(row, "a tally")?.as_slice() else {
            return Err(format!("an endpoint's tally is [slot, tally], not {row}"));
        };
        let slot = usize::try_from(number(slot, "slot")?).map_err(|e| e.to_string())?;
        talks.tallies.insert(slot, tally_from(tally, broken_kind)?);
    }
    for first in list(&value["first"], "an endpoint's first failures")? {
        let [slot, kind, index] = list(first, "a first failure")?.as_slice() else {
            return Err(format!(
                "a first failure is [slot, kind, index], not {first}"
            ));
        };
        let slot = usize::try_from(number(slot, "slot")?).map_err(|e| e.to_string())?;
        let kind = broken_kind(text(kind, "kind")?)?;
        talks.first.insert((slot, kind), number(index, "index")?);
    }
    // Written before configurations were drawn: none.
    if let Some(families) = value.get("families") {
        for row in list(families, "an endpoint's families")? {
            let [name, tally] = list(row, "a family's tally")?.as_slice() else {
                return Err(format!("a family's tally is [family, tally], not {row}"));
            };
            let name = text(name, "family")?;
            let family = crate::configs::Family::named(name)
                .ok_or_else(|| format!("no configuration family named {name:?}"))?;
            talks
                .families
                .insert(family, tally_from(tally, broken_kind)?);
        }
    }
    Ok(talks)
}

fn broken_kind(name: &str) -> Result<Broken, String> {
    Broken::ALL
        .into_iter()
        .find(|b| b.name() == name)
        .ok_or_else(|| format!("{name:?} is no broken promise"))
}

fn names(value: &Value, what: &str) -> Result<Vec<String>, String> {
    list(value, what)?
        .iter()
        .map(|v| text(v, what).map(ToString::to_string))
        .collect()
}

fn named<T: Copy>(all: &[T], name: impl Fn(T) -> &'static str, wanted: &str) -> Result<T, String> {
    all.iter()
        .copied()
        .find(|x| name(*x) == wanted)
        .ok_or_else(|| format!("{wanted:?}: no such class in this build"))
}

/// One shard's file, read.
pub struct ShardFile {
    /// What it ran.
    pub plan: Plan,
    /// What it found.
    pub record: ShardRecord,
    /// How long it ran.
    pub elapsed: Duration,
}

/// Reads the JSON a shard wrote (`campaign --shard I/N --json FILE`).
///
/// # Errors
///
/// When the document holds no shard, or one this build cannot read.
pub fn read(document: &Value) -> Result<ShardFile, String> {
    let shard = document
        .get("shard")
        .ok_or("it has no \"shard\" object: it is not the --json of `campaign --shard I/N`")?;
    let classes: Vec<Class> = names(&shard["classes"], "classes")?
        .iter()
        .map(|n| named(&Class::ALL, Class::name, n))
        .collect::<Result<_, _>>()?;
    let state_classes: Vec<StateClass> = names(&shard["state_classes"], "state classes")?
        .iter()
        .map(|n| named(&StateClass::ALL, StateClass::name, n))
        .collect::<Result<_, _>>()?;
    let budget = &shard["budget"];
    let budget = match (budget.get("cases"), budget.get("seconds")) {
        (Some(n), _) => Budget::Cases(number(n, "cases")?),
        (None, Some(s)) => Budget::Seconds(s.as_f64().ok_or("seconds: not a number")?),
        (None, None) => return Err(format!("no budget: {budget}")),
    };
    let mut targets = Vec::new();
    let mut samples = Vec::new();
    for target in list(&shard["targets"], "targets")? {
        targets.push(text(&target["name"], "a target's name")?.to_string());
        samples.push(
            list(&target["samples"], "samples")?
                .iter()
                .map(|s| sample_of(s, classes.len()))
                .collect::<Result<Vec<_>, _>>()?,
        );
    }
    let mut endpoints = Vec::new();
    let mut talks = Vec::new();
    for endpoint in list(&shard["endpoints"], "endpoints")? {
        endpoints.push(text(&endpoint["name"], "an endpoint's name")?.to_string());
        talks.push(talks_of(endpoint)?);
    }
    let count = number(&shard["count"], "count")?;
    let index = number(&shard["index"], "index")?;
    if count == 0 || index >= count {
        return Err(format!("shard {index}/{count} is no part of a campaign"));
    }
    Ok(ShardFile {
        plan: Plan {
            seed: number(&shard["seed"], "seed")?,
            budget,
            targets,
            endpoints,
            classes,
            state_classes,
        },
        record: ShardRecord {
            shard: Shard { index, count },
            samples,
            conversations: talks,
        },
        elapsed: Duration::from_secs_f64(document["seconds"].as_f64().unwrap_or(0.0).max(0.0)),
    })
}

/// Whether two shards ran the same campaign.
fn same_campaign(a: &Plan, b: &Plan) -> bool {
    let budget = match (a.budget, b.budget) {
        (Budget::Cases(x), Budget::Cases(y)) => x == y,
        (Budget::Seconds(x), Budget::Seconds(y)) => x.to_bits() == y.to_bits(),
        _ => false,
    };
    budget
        && a.seed == b.seed
        && a.targets == b.targets
        && a.endpoints == b.endpoints
        && a.classes == b.classes
        && a.state_classes == b.state_classes
}

/// Checks that `files` are every shard of one campaign, once each.
///
/// # Errors
///
/// Which shard is missing or twice, or which file ran another campaign.
pub fn check(files: &[ShardFile]) -> Result<(), String> {
    let Some(first) = files.first() else {
        return Err("no shard to merge".into());
    };
    let count = first.record.shard.count;
    let mut seen = vec![false; usize::try_from(count).unwrap_or(usize::MAX).min(1 << 20)];
    for file in files {
        let shard = file.record.shard;
        if shard.count != count {
            return Err(format!(
                "shard {shard} beside shard {}: not one campaign",
                first.record.shard
            ));
        }
        if !same_campaign(&first.plan, &file.plan) {
            return Err(format!(
                "shard {shard} ran another campaign than shard {} (seed, budget, targets or classes)",
                first.record.shard
            ));
        }
        let slot = usize::try_from(shard.index)
            .ok()
            .and_then(|i| seen.get_mut(i))
            .ok_or_else(|| format!("shard {shard}: too many shards to merge"))?;
        if *slot {
            return Err(format!("shard {shard} is given twice"));
        }
        *slot = true;
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, seen)| !**seen)
        .map(|(i, _)| format!("{i}/{count}"))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("missing shards: {}", missing.join(", ")))
    }
}

/// The report of the whole campaign from every shard's file: `config`
/// holds the targets, classes, seed and budget the shards ran (see
/// [`Plan`]), and says where failures go, whether they are shrunk, and
/// whether cases run in worker processes.
///
/// # Errors
///
/// When the files are not every shard of one campaign ([`check`]), or
/// name a case the targets do not make.
pub fn merge(config: &Config, files: &[ShardFile]) -> Result<Report, String> {
    check(files)?;
    let limit = match config.budget {
        Budget::Cases(n) => Some(n),
        Budget::Seconds(_) => None,
    };
    let targets: Vec<&dyn crate::target::Target> =
        config.targets.iter().map(AsRef::as_ref).collect();
    let mut merged_all = Vec::with_capacity(targets.len());
    for (t, target) in targets.iter().enumerate() {
        let mut samples: Vec<Judged<(u64, usize, String)>> = files
            .iter()
            .filter_map(|f| f.record.samples.get(t))
            .flatten()
            .map(|judged| judged.map(|(place, field)| (judged.index, *place, field.clone())))
            .collect();
        samples.sort_by_key(|judged| judged.index);
        let mut merged = Merged::<(u64, usize, String)>::new(config.classes.len(), false);
        for judged in samples {
            merged.absorb(judged, limit);
        }
        let mut worker = config
            .isolation
            .as_ref()
            .map(|isolation| Worker::new(isolation, target.name()));
        let mut kept = Vec::with_capacity(merged.kept.len());
        for (slot, (index, place, _)) in merged.kept {
            let case = campaign::case_at(config, *target, index, slot, place).ok_or_else(|| {
                format!(
                    "{}: sample {index} has no case {place} in class slot {slot}: \
                     the shards ran another build",
                    target.name()
                )
            })?;
            let outcome = campaign::judge_in(*target, worker.as_mut(), &case);
            kept.push((slot, (place, case, outcome)));
        }
        merged_all.push(Results {
            tallies: merged.tallies,
            samples: merged.samples,
            unmade: merged.unmade,
            kept,
        });
    }
    let mut report = campaign::finish_packets(config, &targets, merged_all);
    let endpoints: Vec<&dyn crate::target::EndpointTarget> =
        config.endpoints.iter().map(AsRef::as_ref).collect();
    if !endpoints.is_empty() {
        let mut talks: Vec<Talks> = endpoints.iter().map(|_| Talks::default()).collect();
        for file in files {
            for (mine, theirs) in talks.iter_mut().zip(&file.record.conversations) {
                mine.merge(theirs);
            }
        }
        let settings = campaign::conversation_settings(config, std::time::Instant::now());
        report.conversations = conversations::finish(&endpoints, &settings, &talks);
    }
    report.elapsed = files.iter().map(|f| f.elapsed).max().unwrap_or_default();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A draw that made no sample goes into a shard's file and comes back
    /// as one, so that `merge` counts it (and cuts a case budget) as the
    /// whole campaign did.
    #[test]
    fn a_draw_that_made_no_sample_survives_the_shard_file() {
        let unmade = Judged {
            index: 7,
            generated: false,
            classes: Vec::new(),
        };
        let back = sample_of(&sample_json(&unmade), 3).unwrap();
        assert_eq!(
            (back.index, back.generated, back.classes.len()),
            (7, false, 0)
        );
        let made = Judged {
            index: 8,
            generated: true,
            classes: vec![(Tally::default(), Vec::new()); 3],
        };
        let back = sample_of(&sample_json(&made), 3).unwrap();
        assert_eq!(
            (back.index, back.generated, back.classes.len()),
            (8, true, 3)
        );
        assert!(sample_of(&json!([1, 2]), 3).is_err());
    }
}
