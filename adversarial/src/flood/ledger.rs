//! What a flood sent and what became of it: the malicious datagrams still
//! waiting for the server's verdict, each with the verdict it is owed, and
//! the honest tallies.

use crate::mutate::Owed;
use std::collections::{BTreeMap, HashMap};

/// A malicious datagram judged other than it was owed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongVerdict {
    /// The class of the case.
    pub class: &'static str,
    /// What it was owed, as `accepted`, `any refusal` or the causes.
    pub owed: String,
    /// What the server said: `accepted` or the refusal's cause.
    pub got: String,
    /// The datagram's fingerprint (FNV-1a, 64 bits).
    pub fingerprint: u64,
}

/// Whether `verdict` (`accepted` or a cause) is what `owed` asks.
#[must_use]
pub fn verdict_is_owed(owed: &Owed, verdict: &str) -> bool {
    match owed {
        Owed::Accept | Owed::AcceptAs(_) => verdict == "accepted",
        Owed::Refusal { causes, .. } => causes.contains(&verdict),
        Owed::AnyRefusal => verdict != "accepted",
        Owed::Anything | Owed::Unharmed => true,
    }
}

fn describe(owed: &Owed) -> String {
    match owed {
        Owed::Accept | Owed::AcceptAs(_) => "accepted".to_string(),
        Owed::Refusal { causes, .. } => causes.join(" or "),
        Owed::AnyRefusal => "any refusal".to_string(),
        Owed::Anything | Owed::Unharmed => "anything".to_string(),
    }
}

/// How many wrong verdicts a ledger keeps as examples.
const EXAMPLES: usize = 8;

/// The most datagrams given up on that a ledger keeps for a late verdict.
pub const GIVEN_UP: usize = 1 << 20;

/// Malicious datagrams awaiting a verdict, by fingerprint, in two
/// generations: a datagram whose verdict has not come within two ages is
/// given up on (the kernel dropped it before the server read it, or the
/// server is that far behind), so the ledger stays as small as the
/// datagrams of the last two ages. Those given up on are kept a while
/// longer (up to a million of them): a verdict that comes late, from a
/// server slowed by a busy machine, is still judged.
#[derive(Default)]
pub struct Ledger {
    current: HashMap<u64, Pending>,
    previous: HashMap<u64, Pending>,
    given_up: HashMap<u64, Pending>,
    /// Datagrams given up on: no verdict came.
    pub unjudged: u64,
    /// Of those judged, the ones whose verdict came after they were given
    /// up on.
    pub late: u64,
    /// Datagrams judged as owed.
    pub judged: u64,
    /// Datagrams the server accepted (as owed or not).
    pub accepted: u64,
    /// Refusals of malicious datagrams, by cause.
    pub refused: BTreeMap<String, u64>,
    /// Datagrams judged against what they were owed.
    pub wrong: u64,
    /// The first few of those.
    pub examples: Vec<WrongVerdict>,
    /// Verdicts for no datagram the ledger holds.
    pub unmatched: u64,
    /// Packets sent as fragments whose last fragment was only stored: an
    /// earlier one never reached the server (and is among the unjudged).
    pub incomplete: u64,
}

impl std::fmt::Debug for Ledger {
    /// The tallies; the datagrams still waiting only by number.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ledger")
            .field("waiting", &(self.current.len() + self.previous.len()))
            .field("judged", &self.judged)
            .field("accepted", &self.accepted)
            .field("wrong", &self.wrong)
            .field("unjudged", &self.unjudged)
            .field("late", &self.late)
            .field("unmatched", &self.unmatched)
            .field("incomplete", &self.incomplete)
            .field("refused", &self.refused)
            .field("examples", &self.examples)
            .finish()
    }
}

struct Pending {
    count: u32,
    owed: Owed,
    /// The lie's class, by name: a mutation class, or a lie across packets.
    class: &'static str,
}

impl Ledger {
    /// Records a datagram sent with its fingerprint and the verdict it is
    /// owed. Identical datagrams share an entry: the reader is
    /// deterministic, so they get one verdict, and the first case's owed
    /// verdict is checked.
    pub fn sent(&mut self, fingerprint: u64, owed: &Owed, class: &'static str) {
        if let Some(entry) = self.previous.get_mut(&fingerprint) {
            entry.count += 1;
            return;
        }
        self.current
            .entry(fingerprint)
            .and_modify(|entry| entry.count += 1)
            .or_insert_with(|| Pending {
                count: 1,
                owed: owed.clone(),
                class,
            });
    }

    /// Checks the server's verdict on the datagram with `fingerprint`.
    pub fn judged(&mut self, fingerprint: u64, verdict: &str) {
        let map = if self.previous.contains_key(&fingerprint) {
            &mut self.previous
        } else if self.current.contains_key(&fingerprint) {
            &mut self.current
        } else {
            if self.given_up.contains_key(&fingerprint) {
                self.unjudged -= 1;
                self.late += 1;
            }
            &mut self.given_up
        };
        let Some(entry) = map.get_mut(&fingerprint) else {
            self.unmatched += 1;
            return;
        };
        let (owed, class) = (entry.owed.clone(), entry.class);
        entry.count -= 1;
        if entry.count == 0 {
            map.remove(&fingerprint);
        }
        if verdict == super::STORED && !verdict_is_owed(&owed, verdict) {
            // The last fragment of a packet that lost an earlier one.
            self.incomplete += 1;
            return;
        }
        if verdict == "accepted" {
            self.accepted += 1;
        } else if verdict != super::STORED {
            *self.refused.entry(verdict.to_string()).or_default() += 1;
        }
        if verdict_is_owed(&owed, verdict) {
            self.judged += 1;
            return;
        }
        self.wrong += 1;
        if self.examples.len() < EXAMPLES {
            self.examples.push(WrongVerdict {
                class,
                owed: describe(&owed),
                got: verdict.to_string(),
                fingerprint,
            });
        }
    }

    /// Gives up on the datagrams of the older generation.
    pub fn age(&mut self) {
        self.unjudged += self
            .previous
            .values()
            .map(|p| u64::from(p.count))
            .sum::<u64>();
        if self.given_up.len() + self.previous.len() > GIVEN_UP {
            self.given_up.clear();
        }
        for (fingerprint, pending) in std::mem::take(&mut self.previous) {
            match self.given_up.get_mut(&fingerprint) {
                Some(entry) => entry.count += pending.count,
                None => {
                    self.given_up.insert(fingerprint, pending);
                }
            }
        }
        self.previous = std::mem::take(&mut self.current);
    }

    /// Gives up on every datagram still waiting.
    pub fn close(&mut self) {
        self.age();
        self.age();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::Class;

    const CRC: Owed = Owed::Refusal {
        causes: &["bad-crc"],
        at: None,
    };

    #[test]
    fn a_verdict_is_checked_against_the_owed_one() {
        let mut ledger = Ledger::default();
        ledger.sent(1, &CRC, Class::BadCrc.name());
        ledger.sent(2, &CRC, Class::BadCrc.name());
        ledger.sent(3, &Owed::Accept, Class::Valid.name());
        ledger.judged(1, "bad-crc");
        ledger.judged(2, "past-end");
        ledger.judged(3, "accepted");
        ledger.judged(4, "accepted");
        assert_eq!((ledger.judged, ledger.wrong, ledger.unmatched), (2, 1, 1));
        assert_eq!(
            ledger.examples,
            [WrongVerdict {
                class: "bad-crc",
                owed: "bad-crc".to_string(),
                got: "past-end".to_string(),
                fingerprint: 2,
            }]
        );
        assert_eq!(ledger.refused.get("bad-crc"), Some(&1));
    }

    #[test]
    fn a_verdict_that_comes_after_its_datagram_was_given_up_on_is_judged() {
        let mut ledger = Ledger::default();
        ledger.sent(1, &CRC, Class::BadCrc.name());
        ledger.sent(2, &CRC, Class::BadCrc.name());
        ledger.age();
        ledger.age();
        assert_eq!(ledger.unjudged, 2);
        // A busy server's verdicts, after two ages.
        ledger.judged(1, "bad-crc");
        ledger.judged(2, "accepted");
        assert_eq!((ledger.judged, ledger.wrong, ledger.unjudged), (1, 1, 0));
        assert_eq!((ledger.late, ledger.unmatched), (2, 0));
        ledger.judged(1, "bad-crc");
        assert_eq!(ledger.unmatched, 1, "one copy, one verdict");
    }

    #[test]
    fn an_accepted_lie_is_wrong_and_any_refusal_is_not() {
        assert!(!verdict_is_owed(&CRC, "accepted"));
        assert!(!verdict_is_owed(&Owed::AnyRefusal, "accepted"));
        assert!(verdict_is_owed(&Owed::AnyRefusal, "past-end"));
        assert!(!verdict_is_owed(&Owed::Accept, "empty"));
        assert!(verdict_is_owed(&Owed::Anything, "accepted"));
    }

    #[test]
    fn a_last_fragment_only_stored_is_an_incomplete_packet_not_a_wrong_verdict() {
        let stored = Owed::Refusal {
            causes: &[crate::flood::STORED],
            at: None,
        };
        let mut ledger = Ledger::default();
        ledger.sent(1, &stored, Class::BadCrc.name());
        ledger.sent(2, &CRC, Class::BadCrc.name());
        ledger.sent(3, &CRC, Class::BadCrc.name());
        ledger.judged(1, crate::flood::STORED);
        ledger.judged(2, crate::flood::STORED);
        ledger.judged(3, "accepted");
        assert_eq!(
            (ledger.judged, ledger.incomplete, ledger.wrong),
            (1, 1, 1),
            "a fragment stored as owed, a last one stored, a lie accepted"
        );
        assert_eq!(ledger.refused.get(crate::flood::STORED), None);
    }

    #[test]
    fn datagrams_without_a_verdict_are_given_up_after_two_ages() {
        let mut ledger = Ledger::default();
        ledger.sent(1, &CRC, Class::BadCrc.name());
        ledger.sent(1, &CRC, Class::BadCrc.name());
        ledger.age();
        ledger.judged(1, "bad-crc");
        ledger.sent(2, &CRC, Class::BadCrc.name());
        ledger.age();
        assert_eq!(ledger.unjudged, 1, "one copy of datagram 1");
        ledger.judged(2, "bad-crc");
        ledger.close();
        assert_eq!((ledger.judged, ledger.unjudged, ledger.wrong), (2, 1, 0));
    }
}
