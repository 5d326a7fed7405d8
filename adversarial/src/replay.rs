//! Replaying stored inputs: the corpus, regressions, anything on disk.

pub use crate::files::{files_under, target_for_path};
use crate::oracle::{observe, Observation};
use crate::target::{Refusal, Target, Verdict};
use std::collections::BTreeMap;

/// What a stored input got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// Accepted and re-encoded to the same bytes.
    Accepted,
    /// Refused cleanly.
    Refused(Refusal),
    /// Accepted, but re-encoded differently (or not at all): a failure.
    NonCanonical(String),
    /// The reader panicked: a failure.
    Panicked(String),
    /// The process running the reader died (replayed in a worker): a
    /// failure.
    Died(String),
    /// The reader did not finish within the deadline: a failure.
    TimedOut(std::time::Duration),
    /// The read allocated more than the target's bound for its length:
    /// a failure, as in the campaign.
    OverAllocated {
        /// The most bytes the read held at once.
        peak: usize,
        /// What the target allows for its input.
        bound: usize,
    },
}

impl Replayed {
    /// Whether the input broke the harness's promise.
    #[must_use]
    pub const fn is_failure(&self) -> bool {
        !matches!(self, Self::Accepted | Self::Refused(_))
    }
}

impl std::fmt::Display for Replayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Accepted => write!(f, "accepted (re-encodes to the same bytes)"),
            Self::Refused(r) => match r.at {
                Some(at) => write!(f, "refused: {} at bit {at}", r.cause),
                // A serde format's refusal has no cause but its words.
                None if r.cause == "refused" => write!(f, "refused: {}", r.message),
                None => write!(f, "refused: {}", r.cause),
            },
            Self::NonCanonical(why) => write!(f, "FAIL accepted, but {why}"),
            Self::Panicked(message) => write!(f, "FAIL panicked: {message}"),
            Self::Died(how) => write!(f, "FAIL died: {how}"),
            Self::TimedOut(after) => write!(f, "FAIL hung: no answer in {} ms", after.as_millis()),
            Self::OverAllocated { peak, bound } => {
                write!(f, "FAIL allocated {peak} bytes, bound {bound}")
            }
        }
    }
}

/// What a replay of many files came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files replayed (skipped ones not counted).
    pub files: u64,
    /// Accepted, re-encoding to the same bytes.
    pub accepted: u64,
    /// Refused cleanly, by cause.
    pub refused: BTreeMap<String, u64>,
    /// Panics, deaths, hangs and accepts that re-encode differently.
    pub failures: u64,
    /// Files no target could be assigned to.
    pub skipped: u64,
}

impl Summary {
    /// Counts one file's verdict.
    pub fn add(&mut self, replayed: &Replayed) {
        self.files += 1;
        match replayed {
            Replayed::Accepted => self.accepted += 1,
            Replayed::Refused(refusal) => {
                *self.refused.entry(refusal.cause.clone()).or_default() += 1;
            }
            _ => self.failures += 1,
        }
    }

    /// Whether every file was replayed and none broke the promise.
    #[must_use]
    pub const fn clean(&self) -> bool {
        self.failures == 0 && self.skipped == 0
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let refused: u64 = self.refused.values().sum();
        write!(
            f,
            "{} files: {} accepted, {refused} refused",
            self.files, self.accepted
        )?;
        if !self.refused.is_empty() {
            let causes: Vec<String> = self
                .refused
                .iter()
                .map(|(cause, n)| format!("{cause} {n}"))
                .collect();
            write!(f, " ({})", causes.join(", "))?;
        }
        write!(f, ", {} failures, {} skipped", self.failures, self.skipped)
    }
}

/// Runs one input through `target`, in this process: its verdict, and
/// its allocation peak held to the target's bound, as the campaign holds
/// it.
#[must_use]
pub fn replay(target: &dyn Target, bytes: &[u8]) -> Replayed {
    replayed_by(target, bytes, observe(target, bytes))
}

/// What a stored input got, from what a worker process observed, its
/// allocation peak not judged.
#[deprecated(
    since = "0.3.0",
    note = "use `replayed_by`, which judges the allocation peak"
)]
#[must_use]
pub fn replayed(bytes: &[u8], observation: Observation) -> Replayed {
    match observation {
        Observation::Panicked(message) => Replayed::Panicked(message),
        Observation::Died(how) => Replayed::Died(how),
        Observation::TimedOut(after) => Replayed::TimedOut(after),
        Observation::Read { verdict, .. } => verdict_replayed(bytes, Ok(verdict)),
    }
}

/// What a stored input got from `target`, from what a worker process (or
/// this one) observed: the campaign's verdict, allocation peak included.
#[must_use]
pub fn replayed_by(target: &dyn Target, bytes: &[u8], observation: Observation) -> Replayed {
    match observation {
        Observation::Panicked(message) => Replayed::Panicked(message),
        Observation::Died(how) => Replayed::Died(how),
        Observation::TimedOut(after) => Replayed::TimedOut(after),
        Observation::Read { peak, verdict } => {
            let bound = target.allocation_bound(bytes.len());
            if peak > bound {
                Replayed::OverAllocated { peak, bound }
            } else {
                verdict_replayed(bytes, Ok(verdict))
            }
        }
    }
}

fn verdict_replayed(bytes: &[u8], verdict: Result<Verdict, String>) -> Replayed {
    match verdict {
        Err(message) => Replayed::Panicked(message),
        Ok(Verdict::Refused(refusal)) => Replayed::Refused(refusal),
        Ok(Verdict::Accepted {
            reencoded: Ok(again),
        }) if again == bytes => Replayed::Accepted,
        Ok(Verdict::Accepted {
            reencoded: Ok(again),
        }) => Replayed::NonCanonical(format!(
            "re-encodes to {} bytes that differ from the {} read",
            again.len(),
            bytes.len()
        )),
        Ok(Verdict::Accepted {
            reencoded: Err(why),
        }) => Replayed::NonCanonical(format!("accepted value does not encode: {why}")),
    }
}
