//! The oracle: runs one case under `catch_unwind`, sorts the verdict, and
//! checks re-encoding and allocation.

use crate::alloc::peak_during;
use crate::mutate::{Case, Owed};
use crate::panics::{caught, panic_message};
use crate::target::{Refusal, Target, Verdict};
use std::time::Duration;

pub use crate::alloc::{allocation_bound, ALLOC_BYTES_PER_INPUT_BYTE, ALLOC_SLACK_BYTES};
pub use crate::case::Failing;

/// How a case came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The verdict owed: refused as expected, or (valid and bit-flip cases)
    /// accepted with an identical re-encoding.
    AsOwed,
    /// Refused, but not with the error owed.
    OtherError(Refusal),
    /// Accepted where a refusal was owed.
    Accepted,
    /// Accepted, but the value re-encodes to other bytes (or not at all).
    NonCanonical(String),
    /// The reader panicked.
    Panicked(String),
    /// The read allocated more than [`allocation_bound`].
    OverAllocated {
        /// The most bytes the read held at once.
        peak: usize,
        /// What [`allocation_bound`] allowed for its input.
        bound: usize,
    },
    /// The process running the read died: an abort, a stack overflow, a
    /// signal (only seen when cases run in a worker process).
    Aborted(String),
    /// The process running the read died of an allocation it could not get.
    OutOfMemory(String),
    /// The read did not finish within the per-case deadline.
    TimedOut(Duration),
}

impl Outcome {
    /// Whether this outcome breaks the harness's promise.
    #[must_use]
    pub const fn is_failure(&self) -> bool {
        !matches!(self, Self::AsOwed)
    }

    /// The kind of failure, if this is one: a column of the table.
    #[must_use]
    pub const fn failing(&self) -> Option<Failing> {
        Some(match self {
            Self::AsOwed => return None,
            Self::OtherError(_) => Failing::OtherError,
            Self::Accepted => Failing::Accepted,
            Self::NonCanonical(_) => Failing::NonCanonical,
            Self::Panicked(_) => Failing::Panicked,
            Self::OverAllocated { .. } => Failing::OverAllocated,
            Self::Aborted(_) => Failing::Aborted,
            Self::OutOfMemory(_) => Failing::OutOfMemory,
            Self::TimedOut(_) => Failing::TimedOut,
        })
    }
}

/// Decodes `bytes` under `catch_unwind`; a panic becomes `Err(message)`.
pub fn decode_guarded(target: &dyn Target, bytes: &[u8]) -> Result<Verdict, String> {
    caught(|| target.decode(bytes)).map_err(|p| panic_message(&*p))
}

/// What running a reader on some bytes did, before it is held against
/// the verdict owed: measured in this process ([`observe`]) or in a worker
/// process ([`crate::worker`]), which can also see the process die.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observation {
    /// The read or the decode panicked.
    Panicked(String),
    /// The read finished: its allocation peak and the decode's verdict.
    Read {
        /// Peak bytes allocated by the read.
        peak: usize,
        /// What the decode made of the bytes.
        verdict: Verdict,
    },
    /// The process died during the read; the words say how.
    Died(String),
    /// No answer within the deadline; the process was killed.
    TimedOut(Duration),
}

/// Runs `target` on `bytes` in this process, under `catch_unwind`: the
/// read alone with its allocation peak, then the decode; or both in one
/// pass when the target measures its own read ([`Target::read_and_decode`]).
pub fn observe(target: &dyn Target, bytes: &[u8]) -> Observation {
    match caught(|| target.read_and_decode(bytes)) {
        Err(payload) => return Observation::Panicked(panic_message(&*payload)),
        Ok(Some((peak, verdict))) => return Observation::Read { peak, verdict },
        Ok(None) => {}
    }
    let (guarded, peak) = peak_during(|| caught(|| target.read_only(bytes)));
    if let Err(payload) = guarded {
        return Observation::Panicked(panic_message(&*payload));
    }
    match decode_guarded(target, bytes) {
        Ok(verdict) => Observation::Read { peak, verdict },
        Err(message) => Observation::Panicked(message),
    }
}

/// Judges one case in this process: the verdict against what is owed,
/// re-encoding of what is accepted, and the allocation peak of the read.
pub fn judge(target: &dyn Target, case: &Case) -> Outcome {
    let bound = target.allocation_bound(case.bytes.len());
    assess_within(case, observe(target, &case.bytes), bound)
}

/// Holds what a read did against what the case owed, with the default
/// allocation bound ([`allocation_bound`]).
#[must_use]
pub fn assess(case: &Case, observation: Observation) -> Outcome {
    assess_within(case, observation, allocation_bound(case.bytes.len()))
}

/// Holds what a read did against what the case owed, and its allocation
/// peak against `bound` (the target's, [`Target::allocation_bound`]).
#[must_use]
pub fn assess_within(case: &Case, observation: Observation, bound: usize) -> Outcome {
    let (peak, verdict) = match observation {
        Observation::Panicked(message) => return Outcome::Panicked(message),
        Observation::Died(how) if how.contains("memory allocation of") => {
            return Outcome::OutOfMemory(how)
        }
        Observation::Died(how) => return Outcome::Aborted(how),
        Observation::TimedOut(after) => return Outcome::TimedOut(after),
        Observation::Read { peak, verdict } => (peak, verdict),
    };
    if peak > bound {
        return Outcome::OverAllocated { peak, bound };
    }
    match (verdict, &case.owed) {
        (Verdict::Accepted { reencoded }, Owed::Unharmed) => match reencoded {
            Ok(_) => Outcome::AsOwed,
            Err(why) => Outcome::NonCanonical(format!("accepted value does not encode: {why}")),
        },
        (Verdict::Accepted { reencoded }, Owed::AcceptAs(honest)) => match reencoded {
            Ok(bytes) if bytes == *honest => Outcome::AsOwed,
            Ok(bytes) => Outcome::NonCanonical(format!(
                "re-encodes to {} bytes that differ from the honest message's {}",
                bytes.len(),
                honest.len()
            )),
            Err(why) => Outcome::NonCanonical(format!("accepted value does not encode: {why}")),
        },
        (Verdict::Accepted { reencoded, .. }, owed) => match reencoded {
            Ok(bytes) if bytes == case.bytes => match owed {
                Owed::Accept | Owed::Anything | Owed::AcceptAs(_) | Owed::Unharmed => {
                    Outcome::AsOwed
                }
                Owed::Refusal { .. } | Owed::AnyRefusal => Outcome::Accepted,
            },
            Ok(bytes) => Outcome::NonCanonical(format!(
                "re-encodes to {} bytes that differ from the {} read",
                bytes.len(),
                case.bytes.len()
            )),
            Err(why) => Outcome::NonCanonical(format!("accepted value does not encode: {why}")),
        },
        (Verdict::Refused(refusal), Owed::Refusal { causes, at }) => {
            let cause_ok = causes.contains(&refusal.cause.as_str());
            let at_ok = at.is_none_or(|at| refusal.at == Some(at));
            if cause_ok && at_ok {
                Outcome::AsOwed
            } else {
                Outcome::OtherError(refusal)
            }
        }
        (Verdict::Refused(_), Owed::AnyRefusal | Owed::Anything | Owed::Unharmed) => {
            Outcome::AsOwed
        }
        (Verdict::Refused(refusal), Owed::Accept | Owed::AcceptAs(_)) => {
            Outcome::OtherError(refusal)
        }
    }
}
