//! The campaign: every target times every class, tallied, with failing
//! cases shrunk and written to the crash corpus.

pub use crate::digest::{fingerprint, fnv1a};
use crate::mutate::{self, Case, Class, Owed};
use crate::oracle::{assess_within, judge, Outcome};
use crate::scenario::campaign::{self as conversations, Settings};
use crate::scenario::StateClass;
use crate::shrink::shrink_within;
use crate::target::{EndpointTarget, Target};
use crate::worker::{Isolation, Worker};
use arbitrary::Unstructured;
use indicatif::{ProgressBar, ProgressStyle};
use rand::RngCore;
use std::collections::{BTreeMap, HashMap};
use std::mem::{discriminant, Discriminant};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Bytes of randomness behind each generated sample.
const SAMPLE_ENTROPY_BYTES: usize = 16 * 1024;

/// Samples after which a case budget gives up on a target that yields no
/// case at all for the chosen classes.
const NO_CASE_SAMPLES: u64 = 1000;

/// Failing cases kept (and shrunk) per target, class and kind of failure
/// (so that a rare abort is kept even where over-allocations came first).
const KEPT_FAILURES: usize = 3;

/// How long a campaign runs.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// Wall-clock seconds, shared by sample between targets: each gets the
    /// same number of samples, whatever a sample costs.
    Seconds(f64),
    /// Cases per target.
    Cases(u64),
}

/// What a campaign runs.
pub struct Config {
    /// The targets attacked.
    pub targets: Vec<Box<dyn Target>>,
    /// The classes applied to every sample.
    pub classes: Vec<Class>,
    /// The endpoints attacked with conversations.
    pub endpoints: Vec<Box<dyn EndpointTarget>>,
    /// The lies told across packets, in turn, to every endpoint.
    pub state_classes: Vec<StateClass>,
    /// The seed of every random choice.
    pub seed: u64,
    /// How long.
    pub budget: Budget,
    /// Where failing cases are written (`<dir>/<target>/`), if anywhere.
    pub crash_dir: Option<PathBuf>,
    /// Whether to draw a progress bar on standard error.
    pub progress: bool,
    /// Whether to shrink failing inputs before keeping them.
    pub shrink: bool,
    /// Run every case in a worker process (see [`crate::worker`]), so that a
    /// reader that aborts, runs out of memory, overflows its stack or
    /// hangs is a verdict and the campaign goes on; `None` runs cases in
    /// this process, under `catch_unwind` only.
    pub isolation: Option<Isolation>,
    /// Threads judging samples (each with its own worker processes).
    pub jobs: usize,
}

/// Counts for one target and class.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Cases run.
    pub cases: u64,
    /// Verdicts as owed.
    pub as_owed: u64,
    /// Refused with another error than owed.
    pub other_error: u64,
    /// Accepted where a refusal was owed.
    pub accepted: u64,
    /// Panics.
    pub panics: u64,
    /// Accepted but re-encoded differently.
    pub non_canonical: u64,
    /// Allocated beyond the bound.
    pub over_allocated: u64,
    /// The process running the read died (abort, stack overflow, signal).
    pub aborted: u64,
    /// The process running the read ran out of memory.
    pub out_of_memory: u64,
    /// No answer within the per-case deadline.
    pub timed_out: u64,
    /// Time spent judging.
    pub elapsed: Duration,
}

impl Tally {
    fn add(&mut self, outcome: &Outcome) {
        self.cases += 1;
        match outcome {
            Outcome::AsOwed => self.as_owed += 1,
            Outcome::OtherError(_) => self.other_error += 1,
            Outcome::Accepted => self.accepted += 1,
            Outcome::Panicked(_) => self.panics += 1,
            Outcome::NonCanonical(_) => self.non_canonical += 1,
            Outcome::OverAllocated { .. } => self.over_allocated += 1,
            Outcome::Aborted(_) => self.aborted += 1,
            Outcome::OutOfMemory(_) => self.out_of_memory += 1,
            Outcome::TimedOut(_) => self.timed_out += 1,
        }
    }

    /// Cases per second.
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.cases as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Whether every case got its owed verdict.
    #[must_use]
    pub const fn clean(&self) -> bool {
        self.as_owed == self.cases
    }
}

/// A case that broke the promise.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The target.
    pub target: &'static str,
    /// The class.
    pub class: Class,
    /// What the mutation did.
    pub lie: String,
    /// What happened.
    pub outcome: Outcome,
    /// The verdict owed.
    pub owed: Owed,
    /// The input (shrunk when the failure does not depend on the lie).
    pub bytes: Vec<u8>,
    /// Where it was written.
    pub file: Option<PathBuf>,
}

/// A campaign's results.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One row per target and class that had cases, in order.
    pub rows: Vec<(&'static str, Class, Tally)>,
    /// Kept failures.
    pub failures: Vec<Failure>,
    /// Samples generated.
    pub samples: u64,
    /// The seed.
    pub seed: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The endpoints' conversations.
    pub conversations: conversations::Report,
    /// For a row with failures whose cause the target knows (a format's
    /// design, a known bug): the target, the class, and its words
    /// ([`Target::known_cause`]).
    pub known_causes: Vec<(&'static str, Class, &'static str)>,
}

impl Report {
    /// Whether nothing panicked and every verdict was the one owed, in
    /// every packet and every conversation.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.rows.iter().all(|(_, _, t)| t.clean()) && self.conversations.passed()
    }

    /// Cases and conversations judged, over every target and endpoint.
    #[must_use]
    pub fn judged(&self) -> u64 {
        self.rows.iter().map(|(_, _, t)| t.cases).sum::<u64>() + self.conversations.cases()
    }
}

/// Why `report`, run from `config`, judged nothing, if it did: a campaign
/// of zero cases would pass whatever the readers do, so every caller
/// refuses it with these words.
#[must_use]
pub fn judged_nothing(config: &Config, report: &Report) -> Option<String> {
    if report.judged() > 0 {
        return None;
    }
    if config.targets.is_empty() && config.endpoints.is_empty() {
        return Some("no case judged: there is no target and no endpoint to attack".into());
    }
    let names = |names: Vec<&str>| names.join(", ");
    let mut why = Vec::new();
    if !config.targets.is_empty() {
        let targets = names(config.targets.iter().map(|t| t.name()).collect());
        why.push(if config.classes.is_empty() {
            format!("no class was chosen for {targets}")
        } else {
            format!(
                "none of the classes chosen ({}) found a field to lie in on {targets} \
                 (duplicate-index needs an index subset, future-version a versioned save, ...)",
                names(config.classes.iter().map(|c| c.name()).collect())
            )
        });
    }
    if !config.endpoints.is_empty() {
        let endpoints = names(config.endpoints.iter().map(|e| e.name()).collect());
        why.push(if config.state_classes.is_empty() {
            format!("no lie across packets was chosen for {endpoints}")
        } else {
            format!("no conversation was built for {endpoints}")
        });
    }
    Some(format!("no case judged: {}", why.join("; ")))
}

fn same_failure(a: &Outcome, b: &Outcome) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// Judges a case where the campaign runs them: in `worker` when there is
/// one, else in this process.
fn judge_in(target: &dyn Target, worker: Option<&mut Worker<'_>>, case: &Case) -> Outcome {
    match worker {
        Some(worker) => {
            let bound = target.allocation_bound(case.bytes.len());
            assess_within(case, worker.observe(&case.bytes), bound)
        }
        None => judge(target, case),
    }
}

/// Candidate inputs a shrink may try: a hang costs a deadline per try, a
/// death a fresh worker.
fn shrink_budget(outcome: &Outcome) -> usize {
    match outcome {
        Outcome::TimedOut(_) => 24,
        Outcome::Aborted(_) | Outcome::OutOfMemory(_) => 400,
        _ => 2000,
    }
}

/// Shrinks a failure that does not depend on the lie (a panic, a death, a
/// hang, a non-canonical accept, an allocation beyond the bound); any
/// other failure is kept as it is, since its owed verdict belongs to those
/// bytes. A shrunk case is described by its own bytes: its outcome is the
/// one the shrunk input got, which `replay` of it gives again, and its lie
/// names no bit of the larger input it came from.
fn minimize(
    target: &dyn Target,
    mut worker: Option<&mut Worker<'_>>,
    case: Case,
    outcome: Outcome,
) -> (Case, Outcome) {
    if matches!(
        outcome,
        Outcome::AsOwed | Outcome::OtherError(_) | Outcome::Accepted
    ) {
        return (case, outcome);
    }
    let framing = target.framing();
    let mut last = None;
    let bytes = shrink_within(&case.bytes, shrink_budget(&outcome), |candidate| {
        framing.seal(candidate);
        let probe = Case {
            class: case.class,
            bytes: candidate.clone(),
            owed: Owed::Anything,
            lie: String::new(),
        };
        let judged = judge_in(target, worker.as_deref_mut(), &probe);
        let same = same_failure(&judged, &outcome);
        if same {
            last = Some(judged);
        }
        same
    });
    match last {
        Some(shrunk_outcome) if bytes != case.bytes => {
            let lie = format!(
                "shrunk to {} bytes from a {}-byte case whose lie was {:?}",
                bytes.len(),
                case.bytes.len(),
                without_positions(&case.lie),
            );
            let shrunk = Case {
                class: case.class,
                bytes,
                owed: Owed::Anything,
                lie,
            };
            (shrunk, shrunk_outcome)
        }
        _ => (case, outcome),
    }
}

/// A lie's words without the places it names ("at bit 93927", "byte 12"):
/// they are places in the input before shrinking, which the shrunk one
/// may lack.
fn without_positions(lie: &str) -> String {
    let words: Vec<&str> = lie.split_whitespace().collect();
    let mut kept: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(word) = words.get(i) {
        let next = |k: usize| words.get(i + k).copied().unwrap_or("");
        let place = |w: &str| matches!(w, "bit" | "byte");
        let number = |w: &str| w.trim_end_matches([',', ';', ':']).parse::<u64>().is_ok();
        let skip = if *word == "at" && place(next(1)) && number(next(2)) {
            3
        } else if place(word) && number(next(1)) {
            2
        } else {
            0
        };
        if skip == 0 {
            kept.push((*word).to_string());
            i += 1;
            continue;
        }
        // The number's punctuation stays, on the word before it.
        let tail = next(skip - 1).trim_start_matches(|c: char| c.is_ascii_digit());
        if let Some(last) = kept.last_mut() {
            last.push_str(tail);
        }
        i += skip;
    }
    kept.join(" ")
}

fn write_crash(dir: &Path, target: &str, class: Class, bytes: &[u8]) -> Option<PathBuf> {
    let dir = dir.join(target);
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(format!(
        "campaign-{}-{}.bin",
        class.name(),
        fingerprint(bytes)
    ));
    std::fs::write(&path, bytes).ok()?;
    Some(path)
}

/// What one sample came to, class by class: the tally and the failing
/// cases (at most [`KEPT_FAILURES`] of a kind per class).
struct Judged {
    generated: bool,
    classes: Vec<(Tally, Vec<(Case, Outcome)>)>,
}

/// Generates sample `index` of `target` and judges every class's cases.
fn judge_sample(
    config: &Config,
    target: &dyn Target,
    index: u64,
    mut worker: Option<&mut Worker<'_>>,
) -> Judged {
    let mut rng = crate::draw::case_rng(config.seed, target.name(), index);
    let mut entropy = vec![0u8; SAMPLE_ENTROPY_BYTES];
    rng.fill_bytes(&mut entropy);
    let Ok(sample) = target.generate(&mut Unstructured::new(&entropy)) else {
        return Judged {
            generated: false,
            classes: Vec::new(),
        };
    };
    let framing = target.framing();
    let mut choices = vec![0u8; 4096];
    let mut classes = Vec::with_capacity(config.classes.len());
    for &class in &config.classes {
        rng.fill_bytes(&mut choices);
        let mut u = Unstructured::new(&choices);
        let cases = mutate::target_cases(target, class, &sample, &framing, &mut u);
        let judged_at = Instant::now();
        let outcomes: Vec<Outcome> = match worker.as_mut() {
            // One batch per sample and class: a worker answers each case,
            // and a death or hang is pinned on its case.
            Some(worker) => {
                let inputs: Vec<&[u8]> = cases.iter().map(|c| c.bytes.as_slice()).collect();
                let observed = worker.observe_all(&inputs);
                cases
                    .iter()
                    .zip(observed)
                    .map(|(c, o)| assess_within(c, o, target.allocation_bound(c.bytes.len())))
                    .collect()
            }
            None => cases.iter().map(|c| judge(target, c)).collect(),
        };
        let mut tally = Tally {
            elapsed: judged_at.elapsed(),
            ..Tally::default()
        };
        let mut failing: Vec<(Case, Outcome)> = Vec::new();
        for (case, outcome) in cases.into_iter().zip(outcomes) {
            tally.add(&outcome);
            let kind = discriminant(&outcome);
            let same = failing
                .iter()
                .filter(|(_, o)| discriminant(o) == kind)
                .count();
            if outcome.is_failure() && same < KEPT_FAILURES {
                failing.push((case, outcome));
            }
        }
        classes.push((tally, failing));
    }
    Judged {
        generated: true,
        classes,
    }
}

impl Tally {
    fn merge(&mut self, other: &Self) {
        self.cases += other.cases;
        self.as_owed += other.as_owed;
        self.other_error += other.other_error;
        self.accepted += other.accepted;
        self.panics += other.panics;
        self.non_canonical += other.non_canonical;
        self.over_allocated += other.over_allocated;
        self.aborted += other.aborted;
        self.out_of_memory += other.out_of_memory;
        self.timed_out += other.timed_out;
        self.elapsed += other.elapsed;
    }
}

/// One target's results, merged sample by sample in index order.
struct Merged {
    tallies: Vec<Tally>,
    /// Kept failures: (class slot, case, outcome).
    kept: Vec<(usize, Case, Outcome)>,
    kept_kinds: HashMap<(usize, Discriminant<Outcome>), usize>,
    cases: u64,
    samples: u64,
    /// Sample indices merged so far: the next one merged is this.
    next: u64,
    /// Results that arrived ahead of their turn.
    waiting: BTreeMap<u64, Judged>,
    /// The case budget is met: later samples are dropped.
    finished: bool,
}

impl Merged {
    fn new(classes: usize) -> Self {
        Self {
            tallies: vec![Tally::default(); classes],
            kept: Vec::new(),
            kept_kinds: HashMap::new(),
            cases: 0,
            samples: 0,
            next: 0,
            waiting: BTreeMap::new(),
            finished: false,
        }
    }

    /// Takes sample `index`'s results, then merges every sample whose turn
    /// has come, up to the budget `limit` (cases), if any.
    fn take(&mut self, index: u64, judged: Judged, limit: Option<u64>) {
        self.waiting.insert(index, judged);
        while let Some(judged) = self.waiting.remove(&self.next) {
            self.next += 1;
            if self.finished || !judged.generated {
                continue;
            }
            self.samples += 1;
            for (slot, (tally, failing)) in judged.classes.into_iter().enumerate() {
                self.cases += tally.cases;
                if let Some(total) = self.tallies.get_mut(slot) {
                    total.merge(&tally);
                }
                for (case, outcome) in failing {
                    let kept = self
                        .kept_kinds
                        .entry((slot, discriminant(&outcome)))
                        .or_default();
                    if *kept < KEPT_FAILURES {
                        *kept += 1;
                        self.kept.push((slot, case, outcome));
                    }
                }
            }
            if let Some(n) = limit {
                // Cut at the first sample that reaches the budget, in index
                // order: the same cases whatever the number of jobs.
                // Classes that never apply to this target would go on
                // forever.
                if self.cases >= n || (self.cases == 0 && self.samples >= NO_CASE_SAMPLES) {
                    self.finished = true;
                }
            }
        }
    }
}

/// Runs the campaign on [`Config::jobs`] threads.
///
/// Work is handed out one sample at a time, round-robin over the targets:
/// sample `i` of target `t` is item `i * targets + t`, so every target gets
/// the same number of samples whatever its cost, and each job takes the
/// next item. Each sample has its own random stream (a ChaCha8 stream from
/// the seed, the target and the index), and
/// the results of each target are merged in sample order, cut at the first
/// sample that meets a case budget: with `Budget::Cases`, the same seed
/// gives the same cases and the same table for any number of jobs. Failing
/// cases are shrunk after the merge, in the same order.
///
/// The endpoints come after, with their conversations: under a budget in
/// cases, that many per endpoint; under a budget in seconds, the time is
/// shared by target, each endpoint counting as one.
#[must_use]
pub fn run(config: &Config) -> Report {
    let started = Instant::now();
    let packets = config.targets.len() as f64;
    let endpoints = config.endpoints.len() as f64;
    let packet_budget = match config.budget {
        Budget::Seconds(s) if endpoints > 0.0 => {
            Budget::Seconds(s * packets / (packets + endpoints))
        }
        budget => budget,
    };
    let mut report = if config.targets.is_empty() {
        Report {
            seed: config.seed,
            ..Report::default()
        }
    } else {
        run_packets(config, packet_budget)
    };
    let endpoints: Vec<&dyn EndpointTarget> = config.endpoints.iter().map(AsRef::as_ref).collect();
    if !endpoints.is_empty() {
        let settings = Settings {
            seed: config.seed,
            classes: &config.state_classes,
            cases: match config.budget {
                Budget::Cases(n) => Some(n),
                Budget::Seconds(_) => None,
            },
            until: match config.budget {
                Budget::Seconds(s) => Some(started + Duration::from_secs_f64(s)),
                Budget::Cases(_) => None,
            },
            jobs: config.jobs,
            crash_dir: config.crash_dir.as_deref(),
            shrink: config.shrink,
            progress: config.progress,
        };
        report.conversations = conversations::run_all(&endpoints, &settings);
    }
    report.elapsed = started.elapsed();
    report
}

/// The packet targets' part of [`run`], within `budget`.
fn run_packets(config: &Config, budget: Budget) -> Report {
    let started = Instant::now();
    let targets: Vec<&dyn Target> = config.targets.iter().map(AsRef::as_ref).collect();
    let count = targets.len().max(1) as u64;
    let limit = match budget {
        Budget::Cases(n) => Some(n),
        Budget::Seconds(_) => None,
    };
    let bar = progress_bar(config, budget);
    let done: Vec<AtomicBool> = targets.iter().map(|_| AtomicBool::new(false)).collect();
    let next_item = AtomicU64::new(0);
    let mut merged: Vec<Merged> = targets
        .iter()
        .map(|_| Merged::new(config.classes.len()))
        .collect();
    let out_of_time = || match budget {
        Budget::Seconds(s) => started.elapsed().as_secs_f64() >= s,
        Budget::Cases(_) => false,
    };

    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel::<(usize, u64, Judged)>();
        for _ in 0..config.jobs.max(1) {
            let send = send.clone();
            let (targets, done, next_item) = (&targets, &done, &next_item);
            let out_of_time = &out_of_time;
            scope.spawn(move || {
                let mut workers: Vec<Option<Worker<'_>>> = targets.iter().map(|_| None).collect();
                loop {
                    let item = next_item.fetch_add(1, Ordering::Relaxed);
                    // The first round always runs: every target gets at
                    // least one sample, however short the time budget.
                    if item >= count
                        && (out_of_time() || done.iter().all(|d| d.load(Ordering::Relaxed)))
                    {
                        break;
                    }
                    let t = (item % count) as usize;
                    let (Some(target), Some(finished)) = (targets.get(t), done.get(t)) else {
                        break;
                    };
                    if finished.load(Ordering::Relaxed) {
                        continue;
                    }
                    let worker = match (&config.isolation, workers.get_mut(t)) {
                        (Some(isolation), Some(slot)) => {
                            Some(slot.get_or_insert_with(|| Worker::new(isolation, target.name())))
                        }
                        _ => None,
                    };
                    let judged = judge_sample(config, *target, item / count, worker);
                    if send.send((t, item / count, judged)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for (t, index, judged) in receive {
            let Some(target) = merged.get_mut(t) else {
                continue;
            };
            target.take(index, judged, limit);
            if target.finished {
                if let Some(d) = done.get(t) {
                    d.store(true, Ordering::Relaxed);
                }
            }
            bar.set_position(match budget {
                Budget::Seconds(_) => started.elapsed().as_millis() as u64,
                Budget::Cases(n) => merged.iter().map(|m| m.cases.min(n)).sum(),
            });
            let failing: u64 = merged
                .iter()
                .flat_map(|m| &m.tallies)
                .map(|t| t.cases - t.as_owed)
                .sum();
            if failing > 0 {
                bar.set_message(format!("{} jobs, {failing} failing", config.jobs.max(1)));
            }
        }
    });
    bar.finish_and_clear();

    let mut report = Report {
        seed: config.seed,
        ..Report::default()
    };
    for (target, merged) in targets.iter().zip(merged) {
        report.samples += merged.samples;
        for (class, tally) in config.classes.iter().zip(merged.tallies) {
            if tally.cases > 0 {
                if let Some(why) = target.known_cause(*class).filter(|_| !tally.clean()) {
                    report.known_causes.push((target.name(), *class, why));
                }
                report.rows.push((target.name(), *class, tally));
            }
        }
        let mut worker = config
            .isolation
            .as_ref()
            .map(|isolation| Worker::new(isolation, target.name()));
        for (slot, case, outcome) in merged.kept {
            let class = config.classes.get(slot).copied().unwrap_or(case.class);
            let (case, outcome) = if config.shrink {
                minimize(*target, worker.as_mut(), case, outcome)
            } else {
                (case, outcome)
            };
            let file = config
                .crash_dir
                .as_deref()
                .and_then(|dir| write_crash(dir, target.name(), class, &case.bytes));
            report.failures.push(Failure {
                target: target.name(),
                class,
                lie: case.lie,
                outcome,
                owed: case.owed,
                bytes: case.bytes,
                file,
            });
        }
    }
    report.elapsed = started.elapsed();
    report
}

/// The cores this process may use: the default number of jobs.
#[must_use]
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

fn progress_bar(config: &Config, budget: Budget) -> ProgressBar {
    let (bar_len, style) = match budget {
        Budget::Seconds(s) => (
            (s * 1000.0) as u64,
            "{msg:>15} [{bar:40}] {elapsed}/{duration} {pos}ms",
        ),
        Budget::Cases(n) => (
            n * config.targets.len() as u64,
            "{msg:>15} [{bar:40}] {pos}/{len} cases",
        ),
    };
    let bar = if config.progress {
        ProgressBar::new(bar_len)
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) = ProgressStyle::with_template(style) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(format!("{} jobs", config.jobs.max(1)));
    bar
}

#[cfg(test)]
mod tests {
    use super::without_positions;

    #[test]
    fn a_shrunk_lie_names_no_place_of_the_larger_input() {
        for (lie, left) in [
            ("sentinel at bit 93927 := 3", "sentinel := 3"),
            ("padding bit 50", "padding"),
            ("cut at the sentinel, bit 40", "cut at the sentinel,"),
            (
                "quaternion at bit 7: every component at its top code",
                "quaternion: every component at its top code",
            ),
            ("string byte 12", "string"),
            ("3 bits flipped", "3 bits flipped"),
            ("cut to 6 bytes", "cut to 6 bytes"),
        ] {
            assert_eq!(without_positions(lie), left, "{lie}");
        }
    }
}
