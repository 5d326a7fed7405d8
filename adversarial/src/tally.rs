//! Counts for one target (or endpoint) and class, of packet cases and
//! conversations alike: the cases run, those that got the verdict owed,
//! the failing ones by kind, and the time spent. `K` is the kind of
//! failure: [`crate::oracle::Failing`] for a packet read,
//! [`crate::scenario::Broken`] for a conversation.

use std::collections::BTreeMap;
use std::time::Duration;

/// Counts for one target and class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally<K> {
    /// Cases run.
    pub cases: u64,
    /// Cases that got the verdict owed (a conversation: every datagram's,
    /// and every promise kept).
    pub as_owed: u64,
    /// Failing cases, by their kind of failure.
    pub failing: BTreeMap<K, u64>,
    /// Time spent judging them.
    pub elapsed: Duration,
}

impl<K> Default for Tally<K> {
    fn default() -> Self {
        Self {
            cases: 0,
            as_owed: 0,
            failing: BTreeMap::new(),
            elapsed: Duration::ZERO,
        }
    }
}

impl<K: Ord + Copy> Tally<K> {
    /// Failing cases of `kind`.
    #[must_use]
    pub fn count(&self, kind: K) -> u64 {
        self.failing.get(&kind).copied().unwrap_or(0)
    }

    /// Counts one case: as owed, or failing with `kind`.
    pub fn add(&mut self, failing: Option<K>) {
        self.cases += 1;
        match failing {
            None => self.as_owed += 1,
            Some(kind) => *self.failing.entry(kind).or_default() += 1,
        }
    }

    /// Adds `other`'s counts and time to these.
    pub fn merge(&mut self, other: &Self) {
        self.cases += other.cases;
        self.as_owed += other.as_owed;
        self.elapsed += other.elapsed;
        for (kind, n) in &other.failing {
            *self.failing.entry(*kind).or_default() += n;
        }
    }

    /// Whether every case got its owed verdict.
    #[must_use]
    pub fn clean(&self) -> bool {
        self.as_owed == self.cases
    }

    /// Cases per second.
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.cases as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

#[cfg(test)]
mod tests {
    use super::Tally;
    use std::time::Duration;

    #[test]
    fn a_tally_counts_merges_and_says_when_clean() {
        let mut a: Tally<u8> = Tally::default();
        a.add(None);
        a.add(Some(3));
        a.add(Some(3));
        assert_eq!((a.cases, a.as_owed, a.count(3), a.count(4)), (3, 1, 2, 0));
        assert!(!a.clean());
        let mut b = Tally {
            elapsed: Duration::from_secs(2),
            ..Tally::default()
        };
        b.add(None);
        b.add(Some(4));
        a.merge(&b);
        assert_eq!((a.cases, a.as_owed, a.count(3), a.count(4)), (5, 2, 2, 1));
        assert!((a.rate() - 2.5).abs() < 1e-9);
        let mut clean: Tally<u8> = Tally::default();
        clean.add(None);
        assert!(clean.clean());
    }
}
