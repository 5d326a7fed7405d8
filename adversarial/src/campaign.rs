//! The campaign: every target times every class, tallied, with failing
//! cases shrunk and written to the crash corpus.

use crate::mutate::{self, Case, Class, Owed};
use crate::oracle::{assess, judge, Outcome};
use crate::shrink::shrink_within;
use crate::target::Target;
use crate::worker::{Isolation, Worker};
use arbitrary::Unstructured;
use indicatif::{ProgressBar, ProgressStyle};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::mem::{discriminant, Discriminant};
use std::path::{Path, PathBuf};
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
    /// Wall-clock seconds, split evenly between targets.
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
}

impl Report {
    /// Whether nothing panicked and every verdict was the one owed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.rows.iter().all(|(_, _, t)| t.clean())
    }
}

/// A stable name for an input: FNV-1a, 64 bits.
#[must_use]
pub fn fingerprint(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a(bytes))
}

/// FNV-1a, 64 bits: the hash behind [`fingerprint`], and what a flooded
/// server acknowledges a datagram with.
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn same_failure(a: &Outcome, b: &Outcome) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// Judges a case where the campaign runs them: in `worker` when there is
/// one, else in this process.
fn judge_in(target: &dyn Target, worker: Option<&mut Worker<'_>>, case: &Case) -> Outcome {
    match worker {
        Some(worker) => assess(case, worker.observe(&case.bytes)),
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
/// bytes.
fn minimize(
    target: &dyn Target,
    mut worker: Option<&mut Worker<'_>>,
    case: &Case,
    outcome: &Outcome,
) -> Vec<u8> {
    if matches!(
        outcome,
        Outcome::AsOwed | Outcome::OtherError(_) | Outcome::Accepted
    ) {
        return case.bytes.clone();
    }
    let framing = target.framing();
    shrink_within(&case.bytes, shrink_budget(outcome), |candidate| {
        framing.seal(candidate);
        let probe = Case {
            class: case.class,
            bytes: candidate.clone(),
            owed: Owed::Anything,
            lie: String::new(),
        };
        same_failure(&judge_in(target, worker.as_deref_mut(), &probe), outcome)
    })
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

fn target_seed(seed: u64, name: &str) -> u64 {
    name.bytes().fold(seed, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Runs the campaign.
pub fn run(config: &Config) -> Report {
    let started = Instant::now();
    let mut report = Report {
        seed: config.seed,
        ..Report::default()
    };
    let per_target_seconds = match config.budget {
        Budget::Seconds(s) => s / config.targets.len().max(1) as f64,
        Budget::Cases(_) => f64::INFINITY,
    };
    let (bar_len, style) = match config.budget {
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

    for (target_index, target) in config.targets.iter().enumerate() {
        let target = target.as_ref();
        bar.set_message(target.name());
        let framing = target.framing();
        let mut rng = ChaCha8Rng::seed_from_u64(target_seed(config.seed, target.name()));
        let mut tallies: Vec<Tally> = vec![Tally::default(); config.classes.len()];
        let mut kept: HashMap<(usize, Discriminant<Outcome>), usize> = HashMap::new();
        let target_started = Instant::now();
        let mut cases_run = 0u64;
        let mut samples_run = 0u64;
        let mut entropy = vec![0u8; SAMPLE_ENTROPY_BYTES];
        let mut choices = vec![0u8; 4096];
        let mut worker = config
            .isolation
            .as_ref()
            .map(|isolation| Worker::new(isolation, target.name()));
        loop {
            let done = match config.budget {
                Budget::Seconds(_) => target_started.elapsed().as_secs_f64() >= per_target_seconds,
                // Classes that never apply to this target would loop forever.
                Budget::Cases(n) => {
                    cases_run >= n || (cases_run == 0 && samples_run >= NO_CASE_SAMPLES)
                }
            };
            if done {
                break;
            }
            rng.fill_bytes(&mut entropy);
            let Ok(sample) = target.generate(&mut Unstructured::new(&entropy)) else {
                continue;
            };
            report.samples += 1;
            samples_run += 1;
            for (slot, &class) in config.classes.iter().enumerate() {
                rng.fill_bytes(&mut choices);
                let mut u = Unstructured::new(&choices);
                let cases = mutate::cases(class, &sample, &framing, &mut u);
                let judged_at = Instant::now();
                let outcomes: Vec<Outcome> = match worker.as_mut() {
                    // One batch per sample and class: a worker answers each
                    // case, and a death or hang is pinned on its case.
                    Some(worker) => {
                        let inputs: Vec<&[u8]> = cases.iter().map(|c| c.bytes.as_slice()).collect();
                        let observed = worker.observe_all(&inputs);
                        cases
                            .iter()
                            .zip(observed)
                            .map(|(c, o)| assess(c, o))
                            .collect()
                    }
                    None => cases.iter().map(|c| judge(target, c)).collect(),
                };
                tallies[slot].elapsed += judged_at.elapsed();
                for (case, outcome) in cases.into_iter().zip(outcomes) {
                    tallies[slot].add(&outcome);
                    cases_run += 1;
                    let kept_here = kept.entry((slot, discriminant(&outcome))).or_default();
                    if outcome.is_failure() && *kept_here < KEPT_FAILURES {
                        *kept_here += 1;
                        let bytes = if config.shrink {
                            minimize(target, worker.as_mut(), &case, &outcome)
                        } else {
                            case.bytes.clone()
                        };
                        let file = config
                            .crash_dir
                            .as_deref()
                            .and_then(|dir| write_crash(dir, target.name(), class, &bytes));
                        report.failures.push(Failure {
                            target: target.name(),
                            class,
                            lie: case.lie.clone(),
                            outcome,
                            owed: case.owed.clone(),
                            bytes,
                            file,
                        });
                    }
                }
            }
            match config.budget {
                Budget::Seconds(_) => {
                    let ms = (target_index as f64 * per_target_seconds * 1000.0
                        + target_started.elapsed().as_secs_f64() * 1000.0)
                        as u64;
                    bar.set_position(ms.min(bar_len));
                }
                Budget::Cases(n) => bar.set_position(target_index as u64 * n + cases_run.min(n)),
            }
        }
        for (class, tally) in config.classes.iter().zip(tallies) {
            if tally.cases > 0 {
                report.rows.push((target.name(), *class, tally));
            }
        }
    }
    bar.finish_and_clear();
    report.elapsed = started.elapsed();
    report
}
