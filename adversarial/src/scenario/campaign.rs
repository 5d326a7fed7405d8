//! The scenarios as a campaign: every endpoint target times every class,
//! one conversation per case, on as many threads as asked. Case `i` of a
//! target is of class `i mod classes`, built from its own random stream,
//! so the same seed and case budget give the same table for any number of
//! threads. The first failing case of each kind is shrunk (the randomness
//! it was built from, while the same promise still breaks, to the fewest
//! datagrams) and written as a file that `replay` runs again.

use super::record::{self, EXTENSION};
use super::{run, scenario, Broken, Connection, Failure, Scenario, StateClass};
use crate::alloc::allocated_during;
use crate::digest::fingerprint;
use crate::draw::case_rng;
use crate::panics::{caught, panic_message};
use crate::shrink::shrink_within;
use crate::target::EndpointTarget;
use arbitrary::Unstructured;
use rand::RngCore;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Bytes of randomness behind each conversation.
const ENTROPY_BYTES: usize = 8192;

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
}

/// Counts for one endpoint target and class.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Conversations run.
    pub cases: u64,
    /// Conversations in which every datagram got its owed verdict and
    /// every promise held.
    pub as_owed: u64,
    /// Failing conversations, by the promise they broke first.
    pub broken: BTreeMap<Broken, u64>,
    /// Time spent running them.
    pub elapsed: Duration,
}

impl Tally {
    /// Failing conversations whose first broken promise was `kind`.
    #[must_use]
    pub fn broken(&self, kind: Broken) -> u64 {
        self.broken.get(&kind).copied().unwrap_or(0)
    }

    /// Whether every conversation kept every promise.
    #[must_use]
    pub const fn clean(&self) -> bool {
        self.as_owed == self.cases
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

/// The conversation built from `entropy` for `class`, and what `target`
/// made of it (a panic caught as [`Broken::Panicked`]); `None` when
/// `entropy` builds none.
pub fn attempt(
    target: &dyn EndpointTarget,
    class: StateClass,
    entropy: &[u8],
) -> Option<(Scenario, Result<(), Failure>)> {
    let scenario = scenario(class, &target.config(), &mut Unstructured::new(entropy)).ok()?;
    let outcome = caught(|| {
        let (mut connection, made) = fresh(target);
        run(connection.as_mut(), made, &scenario)
    })
    .unwrap_or_else(|payload| Err(panicked(&scenario, payload.as_ref())));
    Some((scenario, outcome))
}

/// A fresh endpoint of `target`, and the bytes making it allocated, but
/// for the box the harness holds it in: the bound is on the endpoint's own
/// memory.
fn fresh(target: &dyn EndpointTarget) -> (Box<dyn Connection>, usize) {
    let (connection, made) = allocated_during(|| target.make());
    let boxed = std::mem::size_of_val(connection.as_ref());
    (connection, made.bytes.saturating_sub(boxed))
}

/// The failure of an endpoint that panicked in `scenario`.
fn panicked(scenario: &Scenario, payload: &(dyn std::any::Any + Send)) -> Failure {
    Failure {
        class: scenario.class,
        step: scenario.datagrams.len(),
        kind: Broken::Panicked,
        what: format!("panicked: {}", panic_message(payload)),
    }
}

/// The randomness behind case `index` of `target`.
fn entropy(seed: u64, target: &str, index: u64) -> Vec<u8> {
    let mut bytes = vec![0u8; ENTROPY_BYTES];
    case_rng(seed, target, index).fill_bytes(&mut bytes);
    bytes
}

/// One target's results so far.
#[derive(Default)]
struct Merged {
    tallies: BTreeMap<usize, Tally>,
    /// The lowest failing index of each class slot and kind.
    first: BTreeMap<(usize, Broken), u64>,
}

/// Runs the scenarios of `settings.classes` against every target.
#[must_use]
pub fn run_all(targets: &[&dyn EndpointTarget], settings: &Settings<'_>) -> Report {
    let classes = settings.classes.len().max(1) as u64;
    let count = targets.len() as u64;
    let next = AtomicU64::new(0);
    let merged: Vec<Mutex<Merged>> = targets.iter().map(|_| Mutex::default()).collect();
    // A time budget still runs one case of every class for every target.
    let first_round = classes * count;
    let bar = progress_bar(settings, count);
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.max(1) {
            scope.spawn(|| loop {
                let item = next.fetch_add(1, Ordering::Relaxed);
                let (t, index) = ((item % count.max(1)) as usize, item / count.max(1));
                let over = match (settings.cases, settings.until) {
                    (Some(n), _) => index >= n,
                    (None, Some(until)) => item >= first_round && Instant::now() >= until,
                    (None, None) => true,
                };
                let Some(target) = targets.get(t) else { break };
                if over {
                    break;
                }
                let slot = (index % classes) as usize;
                let Some(&class) = settings.classes.get(slot) else {
                    break;
                };
                let started = Instant::now();
                let tried = attempt(
                    *target,
                    class,
                    &entropy(settings.seed, target.name(), index),
                );
                bar.inc(1);
                let Some((_, outcome)) = tried else { continue };
                let Some(cell) = merged.get(t) else { break };
                let mut merged = cell
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let tally = merged.tallies.entry(slot).or_default();
                tally.cases += 1;
                tally.elapsed += started.elapsed();
                match outcome {
                    Ok(()) => tally.as_owed += 1,
                    Err(failure) => {
                        *tally.broken.entry(failure.kind).or_default() += 1;
                        let first = merged.first.entry((slot, failure.kind)).or_insert(index);
                        *first = (*first).min(index);
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut report = Report::default();
    for (target, merged) in targets.iter().zip(merged) {
        let merged = merged
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (slot, tally) in merged.tallies {
            if let Some(&class) = settings.classes.get(slot) {
                report.rows.push((target.name(), class, tally));
            }
        }
        let caught = merged.first.values().min().map(|index| index + 1);
        report.caught_after.push((target.name(), caught));
        for ((slot, kind), index) in merged.first {
            let Some(&class) = settings.classes.get(slot) else {
                continue;
            };
            if let Some(kept) = keep(*target, class, kind, index, settings) {
                report.failures.push(kept);
            }
        }
    }
    report
}

/// Case `index`'s failure of `kind`, shrunk when asked, written when asked.
fn keep(
    target: &dyn EndpointTarget,
    class: StateClass,
    kind: Broken,
    index: u64,
    settings: &Settings<'_>,
) -> Option<Kept> {
    let mut input = entropy(settings.seed, target.name(), index);
    if settings.shrink {
        let mut fewest = usize::MAX;
        input = shrink_within(&input, SHRINK_TRIES, |candidate| {
            match attempt(target, class, candidate) {
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
    let (scenario, Err(failure)) = attempt(target, class, &input)? else {
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
    let outcome = caught(|| {
        let (mut connection, made) = fresh(*target);
        run(connection.as_mut(), made, &scenario)
    })
    .unwrap_or_else(|payload| Err(panicked(&scenario, payload.as_ref())));
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
