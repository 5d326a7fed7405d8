//! The campaign: every target times every class, tallied, with failing
//! cases shrunk and written to the crash corpus.

pub use crate::digest::{fingerprint, fnv1a};
use crate::mutate::{self, Case, Class, Owed};
pub use crate::oracle::Failing;
use crate::oracle::{assess_within, judge, Outcome};
use crate::scenario::campaign::{self as conversations, Settings};
use crate::scenario::StateClass;
pub use crate::schedule::Shard;
use crate::schedule::{self, Plan};
use crate::shrink::shrink_within;
use crate::target::{EndpointTarget, Target};
use crate::worker::{Isolation, Pool, Worker};
use arbitrary::Unstructured;
use indicatif::{ProgressBar, ProgressStyle};
use rand::RngCore;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Bytes of randomness behind each generated sample.
const SAMPLE_ENTROPY_BYTES: usize = 16 * 1024;

/// Draws after which a case budget gives up on a target that yields no
/// case at all: none of the chosen classes applies, or its generator makes
/// no sample (every value it draws fails to encode).
const NO_CASE_DRAWS: u64 = 1000;

/// Failing cases kept (and shrunk) per target, class and kind of failure
/// (so that a rare abort is kept even where over-allocations came first),
/// for lies told in no named field; a lie in a field keeps one of each
/// field and kind, so that every distinct (field, verdict) is kept and a
/// reader's own failure is never hidden behind the format's noise in
/// another field.
const KEPT_FAILURES: usize = 3;

/// The field a lie was told in, its indices taken out (`every-value in
/// entities[3].health` is `entities[].health`; `truncate-bytes in tick
/// (inside it)` is `tick`): empty for a lie in no named field.
pub(crate) fn field_of(lie: &str) -> String {
    let Some((_, path)) = lie.split_once(" in ") else {
        return String::new();
    };
    crate::case::shape(path.split(" (").next().unwrap_or(path))
}

/// How many failing cases of one kind in one field are kept.
fn kept_per(field: &str) -> usize {
    if field.is_empty() {
        KEPT_FAILURES
    } else {
        1
    }
}

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

/// Counts for one target and class: failing cases by
/// [`Failing`] kind (other error, accepted, panicked, non-canonical,
/// over-allocated, aborted, out of memory, timed out).
pub type Tally = crate::tally::Tally<Failing>;

/// The columns 0.2's `Tally` held as fields, as methods for one release.
impl Tally {
    /// Cases refused with another error than owed (a field in 0.2).
    #[deprecated(since = "0.3.0", note = "use `count(Failing::OtherError)`")]
    #[must_use]
    pub fn other_error(&self) -> u64 {
        self.count(Failing::OtherError)
    }

    /// Cases accepted where a refusal was owed (a field in 0.2).
    #[deprecated(since = "0.3.0", note = "use `count(Failing::Accepted)`")]
    #[must_use]
    pub fn accepted(&self) -> u64 {
        self.count(Failing::Accepted)
    }

    /// Cases whose read panicked (a field in 0.2).
    #[deprecated(since = "0.3.0", note = "use `count(Failing::Panicked)`")]
    #[must_use]
    pub fn panics(&self) -> u64 {
        self.count(Failing::Panicked)
    }

    /// Cases accepted but re-encoded differently (a field in 0.2).
    #[deprecated(since = "0.3.0", note = "use `count(Failing::NonCanonical)`")]
    #[must_use]
    pub fn non_canonical(&self) -> u64 {
        self.count(Failing::NonCanonical)
    }

    /// Cases whose read allocated beyond the bound (a field in 0.2).
    #[deprecated(since = "0.3.0", note = "use `count(Failing::OverAllocated)`")]
    #[must_use]
    pub fn over_allocated(&self) -> u64 {
        self.count(Failing::OverAllocated)
    }

    /// Cases whose process died (abort, stack overflow, signal) (a field in 0.2).
    #[deprecated(since = "0.3.0", note = "use `count(Failing::Aborted)`")]
    #[must_use]
    pub fn aborted(&self) -> u64 {
        self.count(Failing::Aborted)
    }

    /// Cases whose process ran out of memory (a field in 0.2).
    #[deprecated(since = "0.3.0", note = "use `count(Failing::OutOfMemory)`")]
    #[must_use]
    pub fn out_of_memory(&self) -> u64 {
        self.count(Failing::OutOfMemory)
    }

    /// Cases with no answer within the per-case deadline (a field in 0.2).
    #[deprecated(since = "0.3.0", note = "use `count(Failing::TimedOut)`")]
    #[must_use]
    pub fn timed_out(&self) -> u64 {
        self.count(Failing::TimedOut)
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
    /// The input (shrunk when the failure does not depend on the lie, for
    /// the first three of its class and kind).
    pub bytes: Vec<u8>,
    /// Where it was written.
    pub file: Option<PathBuf>,
    /// The format's known behaviour that explains it, if one does
    /// ([`Target::explains`]): none for the reader's own failures.
    pub cause: Option<&'static str>,
    /// What the reader returned, for an accept: the value as JSON
    /// ([`Target::decode_value`]), cut to [`READ_SHOWN`] characters.
    pub read: Option<String>,
}

/// A refusal's words as the target's `inspect` gives them, which may say
/// more than the judged read did (a serde type's own error words, and
/// where its read stopped, where the format drops them).
fn with_own_words(target: &dyn Target, bytes: &[u8], outcome: Outcome) -> Outcome {
    let Outcome::OtherError(refusal) = outcome else {
        return outcome;
    };
    match crate::panics::caught(|| target.inspect(bytes)).map(|i| i.verdict) {
        Ok(crate::target::Verdict::Refused(inspected)) if inspected.cause == refusal.cause => {
            Outcome::OtherError(crate::target::Refusal {
                message: inspected.message,
                ..refusal
            })
        }
        _ => Outcome::OtherError(refusal),
    }
}

/// The most characters of an accepted value a failure shows.
pub const READ_SHOWN: usize = 240;

/// The value `target` reads from `bytes`, as compact JSON cut to
/// [`READ_SHOWN`] characters, when it has one to show.
fn read_shown(target: &dyn Target, bytes: &[u8]) -> Option<String> {
    let value = crate::panics::caught(|| target.decode_value(bytes)).ok()??;
    let text = value.to_string();
    Some(if text.chars().count() > READ_SHOWN {
        let cut: String = text.chars().take(READ_SHOWN).collect();
        format!("{cut}...")
    } else {
        text
    })
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
    /// Per target whose generator drew values that did not encode (so
    /// made no sample of them): the target, those draws, and its samples.
    pub unmade: Vec<Unmade>,
    /// The seed.
    pub seed: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The endpoints' conversations.
    pub conversations: conversations::Report,
    /// For a row with kept failures that a cause the target knows (a
    /// format's design, a known bug) explains: the target, the class, and
    /// its words ([`Target::explains`]).
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

/// Draws of one target that made no sample: the value its generator drew
/// did not encode (its writer refused it, or a packet came out larger than
/// its `max_bytes`), so no case was made of that randomness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmade {
    /// The target.
    pub target: &'static str,
    /// Draws that made no sample.
    pub draws: u64,
    /// Draws that made one.
    pub samples: u64,
    /// Why a draw made none, when the target knows ([`Target::unmade_why`]).
    pub why: Option<String>,
}

impl Unmade {
    /// The line a report prints for it.
    #[must_use]
    pub fn text(&self) -> String {
        let why = self.why.clone().unwrap_or_else(|| {
            "its writer refused it, or the packet was larger than its max_bytes".into()
        });
        format!(
            "{}: {} of {} draws made no sample: the value generated did not encode ({why})",
            self.target,
            self.draws,
            self.draws.saturating_add(self.samples)
        )
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
        why.push(if report.samples == 0 && !report.unmade.is_empty() {
            report
                .unmade
                .iter()
                .map(Unmade::text)
                .collect::<Vec<_>>()
                .join("; ")
        } else if config.classes.is_empty() {
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
pub(crate) fn judge_in(
    target: &dyn Target,
    worker: Option<&mut Worker<'_>>,
    case: &Case,
) -> Outcome {
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

/// A failing case found in a sample: its place among its class's cases,
/// the case, and what happened.
pub(crate) type Found = (usize, Case, Outcome);

/// What one sample came to, class by class: the tally and the failing
/// cases, each with its kind ([`Outcome::failing`]), at most
/// [`KEPT_FAILURES`] of a kind per class (one of a kind per field, for a
/// lie told in a field).
#[derive(Clone, Debug)]
pub(crate) struct Judged<F> {
    /// The sample's number among its target's samples.
    pub index: u64,
    /// Whether the generator made a sample of the randomness.
    pub generated: bool,
    /// One entry per class slot of the campaign.
    pub classes: Vec<(Tally, Vec<(Failing, F)>)>,
}

impl<F> Judged<F> {
    /// The same results, each failure's payload replaced by `f` of it.
    pub(crate) fn map<G>(&self, f: impl Fn(&F) -> G) -> Judged<G> {
        Judged {
            index: self.index,
            generated: self.generated,
            classes: self
                .classes
                .iter()
                .map(|(tally, failing)| {
                    let failing = failing.iter().map(|(kind, x)| (*kind, f(x))).collect();
                    (tally.clone(), failing)
                })
                .collect(),
        }
    }
}

/// Generates sample `index` of `target` and hands the cases of each class
/// slot that is `wanted` to `each`; false when the generator made no
/// sample of the randomness.
fn sample_cases(
    config: &Config,
    target: &dyn Target,
    index: u64,
    wanted: impl Fn(usize) -> bool,
    mut each: impl FnMut(Class, Vec<Case>),
) -> bool {
    let mut rng = crate::draw::case_rng(config.seed, target.name(), index);
    let mut entropy = vec![0u8; SAMPLE_ENTROPY_BYTES];
    rng.fill_bytes(&mut entropy);
    let Ok(sample) = target.generate(&mut Unstructured::new(&entropy)) else {
        return false;
    };
    let framing = target.framing();
    let mut choices = vec![0u8; 4096];
    for (slot, &class) in config.classes.iter().enumerate() {
        // Every slot draws its choices, wanted or not: slot k's cases are
        // the same whichever slots are asked for.
        rng.fill_bytes(&mut choices);
        if wanted(slot) {
            let mut u = Unstructured::new(&choices);
            each(
                class,
                mutate::target_cases(target, class, &sample, &framing, &mut u),
            );
        }
    }
    true
}

/// The case at `position` among class slot `slot`'s cases of sample
/// `index`: how a shard's file names a failing case.
pub(crate) fn case_at(
    config: &Config,
    target: &dyn Target,
    index: u64,
    slot: usize,
    position: usize,
) -> Option<Case> {
    let mut found = None;
    sample_cases(
        config,
        target,
        index,
        |s| s == slot,
        |_, cases| found = cases.into_iter().nth(position),
    );
    found
}

/// Generates sample `index` of `target` and judges every class's cases.
fn judge_sample(
    config: &Config,
    target: &dyn Target,
    index: u64,
    mut worker: Option<&mut Worker<'_>>,
) -> Judged<Found> {
    let mut classes = Vec::with_capacity(config.classes.len());
    let generated = sample_cases(
        config,
        target,
        index,
        |_| true,
        |_, cases| {
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
            let mut failing: Vec<(Failing, Found)> = Vec::new();
            for (position, (case, outcome)) in cases.into_iter().zip(outcomes).enumerate() {
                tally.add(outcome.failing());
                let Some(kind) = outcome.failing() else {
                    continue;
                };
                let field = field_of(&case.lie);
                let same = failing
                    .iter()
                    .filter(|(k, f)| *k == kind && f.field() == field)
                    .count();
                if same < kept_per(&field) {
                    failing.push((kind, (position, case, outcome)));
                }
            }
            classes.push((tally, failing));
        },
    );
    Judged {
        index,
        generated,
        classes,
    }
}

/// A failing case's place among its sample's cases.
pub(crate) trait Place {
    /// Its position among its class's cases.
    fn place(&self) -> usize;

    /// The field its lie was told in ([`field_of`]).
    fn field(&self) -> String;
}

impl Place for Found {
    fn place(&self) -> usize {
        self.0
    }

    fn field(&self) -> String {
        field_of(&self.1.lie)
    }
}

impl Place for (u64, usize, String) {
    fn place(&self) -> usize {
        self.1
    }

    fn field(&self) -> String {
        self.2.clone()
    }
}

/// One target's results, merged sample by sample in order.
pub(crate) struct Merged<F> {
    pub tallies: Vec<Tally>,
    /// Kept failures: (class slot, failure).
    pub kept: Vec<(usize, F)>,
    kept_kinds: HashMap<(usize, Failing, String), usize>,
    pub cases: u64,
    pub samples: u64,
    /// Draws merged that made no sample.
    pub unmade: u64,
    /// This run's samples merged so far: the next one merged is this.
    next: u64,
    /// Results that arrived ahead of their turn.
    waiting: BTreeMap<u64, Judged<F>>,
    /// The case budget is met: later samples are dropped.
    pub finished: bool,
    /// Each sample merged, as a shard's file holds it, when kept.
    pub record: Option<Vec<Judged<(usize, String)>>>,
}

impl<F: Place> Merged<F> {
    pub(crate) fn new(classes: usize, record: bool) -> Self {
        Self {
            tallies: vec![Tally::default(); classes],
            kept: Vec::new(),
            kept_kinds: HashMap::new(),
            cases: 0,
            samples: 0,
            unmade: 0,
            next: 0,
            waiting: BTreeMap::new(),
            finished: false,
            record: record.then(Vec::new),
        }
    }

    /// Takes the results of this run's `local`-th sample, then merges
    /// every sample whose turn has come, up to the budget `limit` (cases),
    /// if any.
    fn take(&mut self, local: u64, judged: Judged<F>, limit: Option<u64>) {
        self.waiting.insert(local, judged);
        while let Some(judged) = self.waiting.remove(&self.next) {
            self.next += 1;
            self.absorb(judged, limit);
        }
    }

    /// Merges the next sample in order, unless the budget was met before.
    pub(crate) fn absorb(&mut self, judged: Judged<F>, limit: Option<u64>) {
        if self.finished {
            return;
        }
        if let Some(record) = self.record.as_mut() {
            record.push(judged.map(|f| (f.place(), f.field())));
        }
        if judged.generated {
            self.samples += 1;
        } else {
            self.unmade += 1;
        }
        for (slot, (tally, failing)) in judged.classes.into_iter().enumerate() {
            self.cases += tally.cases;
            if let Some(total) = self.tallies.get_mut(slot) {
                total.merge(&tally);
            }
            for (kind, found) in failing {
                let field = found.field();
                let most = kept_per(&field);
                let kept = self.kept_kinds.entry((slot, kind, field)).or_default();
                if *kept < most {
                    *kept += 1;
                    self.kept.push((slot, found));
                }
            }
        }
        if let Some(n) = limit {
            // Cut at the first sample that reaches the budget, in order:
            // the same cases whatever the number of jobs. Classes that
            // never apply to this target, or a generator that makes no
            // sample, would go on forever.
            let draws = self.samples.saturating_add(self.unmade);
            if self.cases >= n || (self.cases == 0 && draws >= NO_CASE_DRAWS) {
                self.finished = true;
            }
        }
    }
}

/// What a shard of a campaign keeps for `merge`: every sample it merged,
/// per packet target, and its conversations' tallies, per endpoint.
#[derive(Debug)]
pub struct ShardRecord {
    /// Which part of the campaign.
    pub shard: Shard,
    /// Per packet target, in the campaign's order: its samples.
    pub(crate) samples: Vec<Vec<Judged<(usize, String)>>>,
    /// Per endpoint target, in the campaign's order.
    pub(crate) conversations: Vec<conversations::Merged>,
}

/// Runs the campaign on [`Config::jobs`] threads.
///
/// Work is cut by [`crate::schedule`]: one sample at a time, round-robin
/// over the targets, so every target gets the same number of samples
/// whatever its cost. Each sample has its own random stream (a ChaCha8
/// stream from the seed, the target and the index), and the results of
/// each target are merged in sample order, cut at the first sample that
/// meets a case budget: with `Budget::Cases`, the same seed gives the same
/// cases and the same table for any number of jobs. Failing cases are
/// shrunk after the merge, in the same order.
///
/// The endpoints come after, with their conversations: under a budget in
/// cases, that many per endpoint; under a budget in seconds, the time is
/// shared by target, each endpoint counting as one.
#[must_use]
pub fn run(config: &Config) -> Report {
    run_shard(config, Shard::WHOLE).0
}

/// Runs part `shard` of the campaign: the samples and conversations whose
/// number is `shard.index` modulo `shard.count`, each built from the same
/// random stream as in the whole campaign. The report is this part's; the
/// record is what [`crate::shards::merge`] needs to give the report of the whole.
#[must_use]
pub fn run_shard(config: &Config, shard: Shard) -> (Report, ShardRecord) {
    let started = Instant::now();
    let packets = config.targets.len() as f64;
    let endpoints = config.endpoints.len() as f64;
    let packet_budget = match config.budget {
        Budget::Seconds(s) if endpoints > 0.0 => {
            Budget::Seconds(s * packets / (packets + endpoints))
        }
        budget => budget,
    };
    let progress = Progress::new(config);
    let targets: Vec<&dyn Target> = config.targets.iter().map(AsRef::as_ref).collect();
    let merged = run_packets(config, packet_budget, shard, &progress);
    let mut record = ShardRecord {
        shard,
        samples: Vec::new(),
        conversations: Vec::new(),
    };
    let merged: Vec<Results> = merged
        .into_iter()
        .map(|m| {
            record.samples.push(m.record.unwrap_or_default());
            Results {
                tallies: m.tallies,
                samples: m.samples,
                unmade: m.unmade,
                kept: m.kept,
            }
        })
        .collect();
    let mut report = finish_packets(config, &targets, merged);
    let endpoints: Vec<&dyn EndpointTarget> = config.endpoints.iter().map(AsRef::as_ref).collect();
    if !endpoints.is_empty() {
        let settings = conversation_settings(config, started);
        let (judged_before, failing_before) = progress.done();
        let merged = conversations::run_part(&endpoints, &settings, shard, &|judged, failing| {
            progress.show(judged_before + judged, failing_before + failing);
        });
        report.conversations = conversations::finish(&endpoints, &settings, &merged);
        record.conversations = merged;
    }
    progress.bar.finish_and_clear();
    report.elapsed = started.elapsed();
    (report, record)
}

/// What the conversations of `config` run under.
pub(crate) fn conversation_settings(config: &Config, started: Instant) -> Settings<'_> {
    Settings {
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
        progress: false,
        isolation: config.isolation.as_ref(),
    }
}

/// The packet targets' part of a campaign, within `budget`: each
/// target's merged results.
fn run_packets(
    config: &Config,
    budget: Budget,
    shard: Shard,
    progress: &Progress,
) -> Vec<Merged<Found>> {
    let targets: Vec<&dyn Target> = config.targets.iter().map(AsRef::as_ref).collect();
    let limit = match budget {
        Budget::Cases(n) => Some(n),
        Budget::Seconds(_) => None,
    };
    let mut merged: Vec<Merged<Found>> = targets
        .iter()
        .map(|_| Merged::new(config.classes.len(), !shard.is_whole()))
        .collect();
    let plan = Plan {
        units: targets.len(),
        jobs: config.jobs,
        batch: 1,
        shard,
        until: match budget {
            Budget::Seconds(s) => Some(Instant::now() + Duration::from_secs_f64(s)),
            Budget::Cases(_) => None,
        },
        at_least: 1,
        limit: None,
    };
    schedule::run(
        &plan,
        || Pool::new(config.isolation.as_ref(), targets.len()),
        |workers, t, indices| {
            let Some(&target) = targets.get(t) else {
                return Vec::new();
            };
            let mut worker = workers.get(t, target.name());
            indices
                .iter()
                .map(|&index| judge_sample(config, target, index, worker.as_deref_mut()))
                .collect()
        },
        |t, local, judged| {
            let Some(target) = merged.get_mut(t) else {
                return true;
            };
            target.take(local, judged, limit);
            let finished = target.finished;
            let done = match limit {
                Some(n) => merged.iter().map(|m| m.cases.min(n)).sum(),
                None => 0,
            };
            let failing: u64 = merged
                .iter()
                .flat_map(|m| &m.tallies)
                .map(|t| t.cases - t.as_owed)
                .sum();
            progress.show(done, failing);
            finished
        },
    );
    merged
}

/// One packet target's merged results, before its failures are shrunk.
pub(crate) struct Results {
    /// Per class slot.
    pub tallies: Vec<Tally>,
    /// Samples merged.
    pub samples: u64,
    /// Draws merged that made no sample.
    pub unmade: u64,
    /// Failing cases kept: (class slot, failure).
    pub kept: Vec<(usize, Found)>,
}

/// The report of the packet targets from each one's merged results
/// (tallies, samples, kept failures): failures shrunk and written.
pub(crate) fn finish_packets(
    config: &Config,
    targets: &[&dyn Target],
    merged: Vec<Results>,
) -> Report {
    let started = Instant::now();
    let mut report = Report {
        seed: config.seed,
        ..Report::default()
    };
    for (
        target,
        Results {
            tallies,
            samples,
            unmade,
            kept,
        },
    ) in targets.iter().zip(merged)
    {
        report.samples += samples;
        if unmade > 0 {
            report.unmade.push(Unmade {
                why: target.unmade_why(),
                target: target.name(),
                draws: unmade,
                samples,
            });
        }
        for (class, tally) in config.classes.iter().zip(tallies) {
            if tally.cases > 0 {
                report.rows.push((target.name(), *class, tally));
            }
        }
        let mut worker = config
            .isolation
            .as_ref()
            .map(|isolation| Worker::new(isolation, target.name()));
        // Shrinking costs up to thousands of reads a failure: the first
        // KEPT_FAILURES of each class and kind are shrunk, the rest (one
        // for each other field) kept as found.
        let mut shrunk: HashMap<(usize, Option<Failing>), usize> = HashMap::new();
        for (slot, (_, case, outcome)) in kept {
            let class = config.classes.get(slot).copied().unwrap_or(case.class);
            let turn = shrunk.entry((slot, outcome.failing())).or_default();
            *turn += 1;
            let turn = *turn;
            let (case, outcome) = if config.shrink && turn <= KEPT_FAILURES {
                minimize(*target, worker.as_mut(), case, outcome)
            } else {
                (case, outcome)
            };
            let outcome = with_own_words(*target, &case.bytes, outcome);
            let detail = match &outcome {
                Outcome::Panicked(words)
                | Outcome::Aborted(words)
                | Outcome::OutOfMemory(words) => words.as_str(),
                _ => "",
            };
            let cause = outcome
                .failing()
                .and_then(|failing| target.explains(class, &case.bytes, failing, detail));
            if let Some(why) = cause {
                let known = (target.name(), class, why);
                if !report.known_causes.contains(&known) {
                    report.known_causes.push(known);
                }
            }
            // The reader's own failures are all written; of those a known
            // cause explains, the first of each class and kind (the rest
            // are the same noise in other fields, kept in the report).
            let file = (cause.is_none() || turn <= KEPT_FAILURES)
                .then_some(config.crash_dir.as_deref())
                .flatten()
                .and_then(|dir| write_crash(dir, target.name(), class, &case.bytes));
            let read = matches!(outcome, Outcome::Accepted | Outcome::NonCanonical(_))
                .then(|| read_shown(*target, &case.bytes))
                .flatten();
            report.failures.push(Failure {
                target: target.name(),
                class,
                lie: case.lie,
                outcome,
                owed: case.owed,
                bytes: case.bytes,
                file,
                cause,
                read,
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

/// The campaign's one progress line, for packets and conversations: cases
/// judged out of the budget, or the time spent; and how many failed.
struct Progress {
    bar: ProgressBar,
    started: Instant,
    in_cases: bool,
    jobs: usize,
    /// The last counts shown: (judged, failing).
    shown: std::cell::Cell<(u64, u64)>,
}

impl Progress {
    fn new(config: &Config) -> Self {
        let units = (config.targets.len() + config.endpoints.len()) as u64;
        let (len, style) = match config.budget {
            Budget::Seconds(s) => (
                (s * 1000.0) as u64,
                "{msg:>15} [{bar:40}] {elapsed}/{duration} {pos}ms",
            ),
            Budget::Cases(n) => (
                n.saturating_mul(units),
                "{msg:>15} [{bar:40}] {pos}/{len} cases",
            ),
        };
        let bar = if config.progress {
            ProgressBar::new(len)
        } else {
            ProgressBar::hidden()
        };
        if let Ok(style) = ProgressStyle::with_template(style) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(format!("{} jobs", config.jobs.max(1)));
        Self {
            bar,
            started: Instant::now(),
            in_cases: matches!(config.budget, Budget::Cases(_)),
            jobs: config.jobs.max(1),
            shown: std::cell::Cell::new((0, 0)),
        }
    }

    /// Shows `judged` cases so far (under a budget in cases) and `failing`.
    fn show(&self, judged: u64, failing: u64) {
        let (_, failing_before) = self.shown.replace((judged, failing));
        self.bar.set_position(if self.in_cases {
            judged
        } else {
            self.started.elapsed().as_millis() as u64
        });
        if failing != failing_before {
            self.bar
                .set_message(format!("{} jobs, {failing} failing", self.jobs));
        }
    }

    /// The last counts shown: (judged, failing).
    fn done(&self) -> (u64, u64) {
        self.shown.get()
    }
}

#[cfg(test)]
mod tests {
    use super::{without_positions, Failing, Tally};

    #[test]
    #[allow(deprecated)]
    fn the_fields_of_0_2_read_as_their_kinds() {
        let mut tally = Tally::default();
        for (i, kind) in Failing::ALL.into_iter().enumerate() {
            for _ in 0..=i {
                tally.add(Some(kind));
            }
        }
        let old = [
            tally.other_error(),
            tally.accepted(),
            tally.panics(),
            tally.non_canonical(),
            tally.over_allocated(),
            tally.aborted(),
            tally.out_of_memory(),
            tally.timed_out(),
        ];
        assert_eq!(old, [1, 2, 3, 4, 5, 6, 7, 8]);
    }

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
