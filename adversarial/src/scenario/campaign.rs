//! The scenarios as a campaign: every endpoint target times every class,
//! one conversation per case, on as many threads as asked. Case `i` of a
//! target is of class `i mod classes`, built from its own random stream,
//! so the same seed and case budget give the same table for any number of
//! threads. The first failing case of each kind is shrunk (the randomness
//! it was built from, while the same promise still breaks, to the fewest
//! datagrams) and written as a file that `replay` runs again.

pub use super::attempt::attempt;
use super::attempt::{attempt_in, by_index, by_record, entropy, family_said, judged, outcome};
use super::record::{self, EXTENSION};
use super::{Broken, Failure, Scenario, StateClass};
use crate::configs::Family;
use crate::digest::fingerprint;
use crate::schedule::{self, Plan, Shard};
use crate::shrink::shrink_within;
use crate::target::EndpointTarget;
use crate::worker::{Isolation, Pool, Worker};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Candidate inputs one shrink tries.
const SHRINK_TRIES: usize = 600;

/// What the scenario campaign runs.
pub struct Settings<'a> {
    /// The seed of every random choice.
    pub seed: u64,
    /// The classes, taken in turn.
    pub classes: &'a [StateClass],
    /// Cases per target, when the budget is in cases.
    pub cases: Option<u64>,
    /// When to stop, when the budget is in time (each target gets at least
    /// one case of each class).
    pub until: Option<Instant>,
    /// Threads.
    pub jobs: usize,
    /// Where failing conversations go (`<dir>/<target>/`), if anywhere.
    pub crash_dir: Option<&'a Path>,
    /// Whether to shrink failing conversations before keeping them.
    pub shrink: bool,
    /// Whether to draw a progress bar on standard error.
    pub progress: bool,
    /// Run every conversation in a worker process (see
    /// [`crate::worker`]), so that an endpoint that aborts, runs out of
    /// memory, overflows its stack or hangs fails its conversation and the
    /// campaign goes on; `None` runs them in this process, under
    /// `catch_unwind` only.
    pub isolation: Option<&'a Isolation>,
}

/// Counts for one endpoint target and class: failing conversations by
/// the promise they broke first.
pub type Tally = crate::tally::Tally<Broken>;

impl Tally {
    /// Failing conversations whose first broken promise was `kind`.
    #[must_use]
    pub fn broken(&self, kind: Broken) -> u64 {
        self.count(kind)
    }
}

/// A failing conversation, kept.
#[derive(Clone, Debug)]
pub struct Kept {
    /// The endpoint target.
    pub target: &'static str,
    /// The case's index among the target's cases.
    pub index: u64,
    /// What went wrong (after shrinking).
    pub failure: Failure,
    /// The conversation (after shrinking).
    pub scenario: Scenario,
    /// Where it was written.
    pub file: Option<PathBuf>,
}

/// The scenario campaign's results.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One row per target and class that had cases, in order.
    pub rows: Vec<(&'static str, StateClass, Tally)>,
    /// The first failing conversation of each target, class and kind.
    pub failures: Vec<Kept>,
    /// Per target, the number of cases up to and including its first
    /// failing one, if any failed.
    pub caught_after: Vec<(&'static str, Option<u64>)>,
    /// One row per target and configuration family that had cases, in
    /// order: which configurations ran, and how they fared.
    pub families: Vec<(&'static str, Family, Tally)>,
}

impl Report {
    /// Whether every conversation kept every promise.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.rows.iter().all(|(_, _, t)| t.clean())
    }

    /// Conversations run, over every target.
    #[must_use]
    pub fn cases(&self) -> u64 {
        self.rows.iter().map(|(_, _, t)| t.cases).sum()
    }
}

/// One endpoint target's results: what a shard's file keeps of them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Merged {
    /// Per class slot.
    pub tallies: BTreeMap<usize, Tally>,
    /// The lowest failing index of each class slot and kind.
    pub first: BTreeMap<(usize, Broken), u64>,
    /// Per configuration family.
    pub families: BTreeMap<Family, Tally>,
}

impl Merged {
    /// Adds `other`'s conversations (another shard's) to these.
    pub(crate) fn merge(&mut self, other: &Self) {
        for (slot, tally) in &other.tallies {
            self.tallies.entry(*slot).or_default().merge(tally);
        }
        for (key, index) in &other.first {
            let first = self.first.entry(*key).or_insert(*index);
            *first = (*first).min(*index);
        }
        for (family, tally) in &other.families {
            self.families.entry(*family).or_default().merge(tally);
        }
    }
}

/// Conversations handed from a job to the merge at once: one claim of the
/// shared counter and one message per batch.
const BATCH: u64 = 32;

/// Runs the scenarios of `settings.classes` against every target.
#[must_use]
pub fn run_all(targets: &[&dyn EndpointTarget], settings: &Settings<'_>) -> Report {
    let bar = progress_bar(settings, targets.len() as u64);
    let merged = run_part(targets, settings, Shard::WHOLE, &|judged, _| {
        bar.set_position(judged);
    });
    bar.finish_and_clear();
    finish(targets, settings, &merged)
}

/// Runs part `shard` of the conversations: case `i` of a target is run
/// when `i` is `shard.index` modulo `shard.count`. `progress` hears the
/// conversations judged and failing so far.
pub(crate) fn run_part(
    targets: &[&dyn EndpointTarget],
    settings: &Settings<'_>,
    shard: Shard,
    progress: &dyn Fn(u64, u64),
) -> Vec<Merged> {
    let classes = settings.classes.len().max(1) as u64;
    let mut merged: Vec<Merged> = targets.iter().map(|_| Merged::default()).collect();
    let plan = Plan {
        units: targets.len(),
        jobs: settings.jobs,
        batch: BATCH,
        shard,
        until: settings.until,
        // A time budget still runs one case of every class for every target.
        at_least: classes,
        // Neither a budget in cases nor one in time: nothing to run.
        limit: match (settings.cases, settings.until) {
            (Some(n), _) => Some(n),
            (None, Some(_)) => None,
            (None, None) => Some(0),
        },
    };
    let (mut judged, mut failing) = (0u64, 0u64);
    schedule::run(
        &plan,
        || Pool::new(settings.isolation, targets.len()),
        |workers, t, indices| {
            let Some(&target) = targets.get(t) else {
                return Vec::new();
            };
            let class_of = |index: u64| {
                let slot = (index % classes) as usize;
                settings.classes.get(slot).map(|&class| (slot, class))
            };
            let Some(worker) = workers.get(t, target.name()) else {
                return indices
                    .iter()
                    .map(|&index| {
                        let (slot, class) = class_of(index)?;
                        let started = Instant::now();
                        let entropy = entropy(settings.seed, target.name(), index);
                        let (scenario, outcome) = attempt(target, class, &entropy)?;
                        Some((
                            index,
                            slot,
                            scenario.family,
                            outcome.err().map(|f| f.kind),
                            started.elapsed(),
                        ))
                    })
                    .collect();
            };
            // One batch to the worker; its time shared by its conversations.
            let started = Instant::now();
            let inputs: Vec<Vec<u8>> = indices
                .iter()
                .filter_map(|&index| Some(by_index(class_of(index)?.1, settings.seed, index)))
                .collect();
            let asked: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
            let answers = worker.ask_all(&asked);
            let each = started.elapsed() / u32::try_from(answers.len().max(1)).unwrap_or(1);
            indices
                .iter()
                .filter(|&&index| class_of(index).is_some())
                .zip(answers)
                .map(|(&index, answer)| {
                    let (slot, class) = class_of(index)?;
                    let family = family_said(&answer);
                    let outcome = outcome(answer, class, 0)?;
                    Some((index, slot, family, outcome.err().map(|f| f.kind), each))
                })
                .collect()
        },
        |t, _, result| {
            let (Some((index, slot, family, broken, elapsed)), Some(merged)) =
                (result, merged.get_mut(t))
            else {
                return false;
            };
            let tally = merged.tallies.entry(slot).or_default();
            tally.add(broken);
            tally.elapsed += elapsed;
            let tally = merged.families.entry(family).or_default();
            tally.add(broken);
            tally.elapsed += elapsed;
            judged += 1;
            if let Some(kind) = broken {
                failing += 1;
                let first = merged.first.entry((slot, kind)).or_insert(index);
                *first = (*first).min(index);
            }
            if judged % BATCH == 0 {
                progress(judged, failing);
            }
            false
        },
    );
    progress(judged, failing);
    merged
}

/// The report of every target's merged conversations: the first failing
/// case of each class and kind shrunk, written and kept.
pub(crate) fn finish(
    targets: &[&dyn EndpointTarget],
    settings: &Settings<'_>,
    merged: &[Merged],
) -> Report {
    let mut report = Report::default();
    for (target, merged) in targets.iter().zip(merged) {
        for (slot, tally) in &merged.tallies {
            if let Some(&class) = settings.classes.get(*slot) {
                report.rows.push((target.name(), class, tally.clone()));
            }
        }
        for (family, tally) in &merged.families {
            report
                .families
                .push((target.name(), *family, tally.clone()));
        }
        let caught = merged.first.values().min().map(|index| index + 1);
        report.caught_after.push((target.name(), caught));
        let mut worker = settings
            .isolation
            .map(|isolation| Worker::new(isolation, target.name()));
        for ((slot, kind), index) in &merged.first {
            let Some(&class) = settings.classes.get(*slot) else {
                continue;
            };
            if let Some(kept) = keep(*target, worker.as_mut(), class, *kind, *index, settings) {
                report.failures.push(kept);
            }
        }
    }
    report
}

/// Case `index`'s failure of `kind`, shrunk when asked, written when asked.
fn keep(
    target: &dyn EndpointTarget,
    mut worker: Option<&mut Worker<'_>>,
    class: StateClass,
    kind: Broken,
    index: u64,
    settings: &Settings<'_>,
) -> Option<Kept> {
    let mut input = entropy(settings.seed, target.name(), index);
    if settings.shrink {
        let mut fewest = usize::MAX;
        // A hang costs a deadline per try.
        let tries = if kind == Broken::Hung {
            24
        } else {
            SHRINK_TRIES
        };
        input = shrink_within(&input, tries, |candidate| {
            match attempt_in(target, worker.as_deref_mut(), class, candidate) {
                Some((scenario, Err(failure)))
                    if failure.kind == kind && scenario.datagrams.len() <= fewest =>
                {
                    fewest = scenario.datagrams.len();
                    true
                }
                _ => false,
            }
        });
    }
    let (scenario, Err(failure)) = attempt_in(target, worker, class, &input)? else {
        return None;
    };
    let file = settings
        .crash_dir
        .and_then(|dir| write(dir, target.name(), &scenario, &failure));
    Some(Kept {
        target: target.name(),
        index,
        failure,
        scenario,
        file,
    })
}

/// Writes a failing conversation under `dir/<target>/`.
fn write(dir: &Path, target: &str, scenario: &Scenario, failure: &Failure) -> Option<PathBuf> {
    let document = record::to_json(target, scenario, Some(failure));
    let text = serde_json::to_string_pretty(&document).ok()?;
    let dir = dir.join(target);
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(format!(
        "conversation-{}-{}{EXTENSION}",
        scenario.class.name(),
        fingerprint(text.as_bytes())
    ));
    std::fs::write(&path, text).ok()?;
    Some(path)
}

/// Replays a scenario file against the endpoint target it names (or
/// `named`, when given) among `targets`: `Ok(None)` when every promise
/// holds, `Ok(Some(failure))` when one breaks.
///
/// # Errors
///
/// When the file cannot be read or parsed, or names no target given.
pub fn replay_file(
    path: &Path,
    targets: &[&dyn EndpointTarget],
    named: Option<&str>,
) -> Result<(&'static str, Option<Failure>), String> {
    replay_file_in(path, targets, named, None)
}

/// As [`replay_file`], in a worker process when `isolation` is given: an
/// endpoint that dies or hangs fails the replay and the caller goes on.
///
/// # Errors
///
/// When the file cannot be read or parsed, or names no target given.
pub fn replay_file_in(
    path: &Path,
    targets: &[&dyn EndpointTarget],
    named: Option<&str>,
    isolation: Option<&Isolation>,
) -> Result<(&'static str, Option<Failure>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let document: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let (name, scenario) =
        record::from_json(&document).map_err(|e| format!("{}: {e}", path.display()))?;
    let wanted = named.unwrap_or(&name);
    let target = targets
        .iter()
        .find(|t| t.name() == wanted)
        .ok_or_else(|| format!("{}: no endpoint target named {wanted:?}", path.display()))?;
    let outcome = match isolation {
        None => judged(*target, &scenario),
        Some(isolation) => {
            let mut worker = Worker::new(isolation, target.name());
            let input = by_record(text.as_bytes());
            let answer = worker.ask_all(&[&input]).pop();
            let steps = scenario.datagrams.len();
            answer
                .and_then(|answer| outcome(answer, scenario.class, steps))
                .unwrap_or(Ok(()))
        }
    };
    Ok((target.name(), outcome.err()))
}

/// A bar of cases run, when asked for.
fn progress_bar(settings: &Settings<'_>, targets: u64) -> indicatif::ProgressBar {
    if !settings.progress {
        return indicatif::ProgressBar::hidden();
    }
    let bar = match settings.cases {
        Some(n) => indicatif::ProgressBar::new(n.saturating_mul(targets)),
        None => indicatif::ProgressBar::no_length(),
    };
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg:>15} {spinner} {pos} conversations {elapsed}")
    {
        bar.set_style(style);
    }
    bar.set_message("endpoints");
    bar
}
