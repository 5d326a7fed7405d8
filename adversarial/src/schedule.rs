//! One way of cutting a campaign's work, for packet samples and
//! conversations alike.
//!
//! The work is a list of units (a packet target, an endpoint target), each
//! with an endless sequence of items numbered 0, 1, 2, ... (a sample, a
//! conversation). Item `k` of the schedule is item `k / units` of unit
//! `k % units`, so every unit gets the same number of items whatever an
//! item costs. A job claims a batch of consecutive items at once and hands
//! its results to the calling thread a batch at a time: nothing is shared
//! between jobs per item but one atomic claim per batch.
//!
//! A [`Shard`] `I/N` takes the items whose number is `I` modulo `N`: the
//! same random streams, disjoint parts, which `merge` puts back together.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Part `index` of `count` of a campaign: the items whose number is
/// `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 0.
    pub index: u64,
    /// How many parts.
    pub count: u64,
}

impl Shard {
    /// The whole campaign.
    pub const WHOLE: Self = Self { index: 0, count: 1 };

    /// The number of this shard's `local`-th item among all items.
    #[must_use]
    pub const fn item(self, local: u64) -> u64 {
        local.saturating_mul(self.count).saturating_add(self.index)
    }

    /// Whether this is the whole campaign.
    #[must_use]
    pub const fn is_whole(self) -> bool {
        self.count == 1
    }
}

impl Default for Shard {
    fn default() -> Self {
        Self::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `0 <= I < N`.
    fn from_str(text: &str) -> Result<Self, String> {
        let wrong = || format!("{text:?} is no shard: write I/N, with 0 <= I < N (0/4 ... 3/4)");
        let (index, count) = text.split_once('/').ok_or_else(wrong)?;
        let index: u64 = index.trim().parse().map_err(|_| wrong())?;
        let count: u64 = count.trim().parse().map_err(|_| wrong())?;
        if count == 0 || index >= count {
            return Err(wrong());
        }
        Ok(Self { index, count })
    }
}

/// How the items are cut.
pub(crate) struct Plan {
    /// Units of work.
    pub units: usize,
    /// Threads.
    pub jobs: usize,
    /// Items a job claims at once.
    pub batch: u64,
    /// Which items are this run's.
    pub shard: Shard,
    /// When to stop claiming, if the budget is in time; every unit still
    /// gets its first `at_least` items.
    pub until: Option<Instant>,
    /// Items of every unit run however short the time.
    pub at_least: u64,
    /// The first item number past the budget, if the budget is a number of
    /// items per unit.
    pub limit: Option<u64>,
}

/// Runs `work(state, unit, items)` on every item of every unit of this
/// shard on `plan.jobs` threads, each with its own `state()` (one result
/// per item, in order; a batch's items of one unit at once), and hands
/// every result to `merge(unit, local, result)` on the calling thread,
/// where `local` counts the unit's items in this shard (0, 1, 2, ...).
/// Results arrive a batch at a time, not in order; `merge` answers whether
/// its unit is finished, after which no more of its items are claimed.
pub(crate) fn run<S, R: Send>(
    plan: &Plan,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize, &[u64]) -> Vec<R> + Sync,
    mut merge: impl FnMut(usize, u64, R) -> bool,
) {
    let units = plan.units as u64;
    if units == 0 {
        return;
    }
    let batch = plan.batch.max(1);
    let next = AtomicU64::new(0);
    // Finished: the merge wants no more. Exhausted: an item past the
    // limit was claimed, so every later one is past it too (a batch
    // claimed before it still runs its items below the limit).
    let finished: Vec<AtomicBool> = (0..units).map(|_| AtomicBool::new(false)).collect();
    let exhausted: Vec<AtomicBool> = (0..units).map(|_| AtomicBool::new(false)).collect();
    let out_of_time = |k: u64| {
        let past_first = k >= units.saturating_mul(plan.at_least);
        past_first && plan.until.is_some_and(|until| Instant::now() >= until)
    };
    let all_done = || {
        finished
            .iter()
            .zip(&exhausted)
            .all(|(f, e)| f.load(Ordering::Relaxed) || e.load(Ordering::Relaxed))
    };
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel::<Vec<(usize, u64, R)>>();
        for _ in 0..plan.jobs.max(1) {
            let send = send.clone();
            let (next, finished, exhausted) = (&next, &finished, &exhausted);
            let (out_of_time, all_done, state, work) = (&out_of_time, &all_done, &state, &work);
            scope.spawn(move || {
                let mut mine = state();
                loop {
                    if all_done() {
                        break;
                    }
                    let first = next.fetch_add(batch, Ordering::Relaxed);
                    let mut claimed: Vec<(usize, u64, u64)> = Vec::new();
                    let mut last = false;
                    for k in first..first.saturating_add(batch) {
                        if out_of_time(k) {
                            last = true;
                            break;
                        }
                        let unit = (k % units) as usize;
                        let local = k / units;
                        let item = plan.shard.item(local);
                        let (Some(done), Some(past)) = (finished.get(unit), exhausted.get(unit))
                        else {
                            continue;
                        };
                        if plan.limit.is_some_and(|limit| item >= limit) {
                            past.store(true, Ordering::Relaxed);
                            continue;
                        }
                        if !done.load(Ordering::Relaxed) {
                            claimed.push((unit, local, item));
                        }
                    }
                    // Each unit's items of the batch go to `work` at once.
                    let mut results = Vec::with_capacity(claimed.len());
                    claimed.sort_by_key(|(unit, _, _)| *unit);
                    for group in claimed.chunk_by(|a, b| a.0 == b.0) {
                        let Some(&(unit, _, _)) = group.first() else {
                            continue;
                        };
                        let items: Vec<u64> = group.iter().map(|(_, _, item)| *item).collect();
                        let judged = work(&mut mine, unit, &items);
                        results.extend(
                            group
                                .iter()
                                .zip(judged)
                                .map(|(&(unit, local, _), r)| (unit, local, r)),
                        );
                    }
                    if send.send(results).is_err() || last {
                        break;
                    }
                }
            });
        }
        drop(send);
        for results in receive {
            for (unit, local, result) in results {
                if merge(unit, local, result) {
                    if let Some(done) = finished.get(unit) {
                        done.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::{run, Plan, Shard};
    use std::collections::BTreeSet;

    fn items(shard: Shard, jobs: usize, batch: u64) -> BTreeSet<(usize, u64, u64)> {
        let plan = Plan {
            units: 3,
            jobs,
            batch,
            shard,
            until: None,
            at_least: 1,
            limit: Some(20),
        };
        let mut seen = BTreeSet::new();
        run(
            &plan,
            || (),
            |(), unit, items| items.iter().map(|&item| (unit, item)).collect(),
            |unit, local, (u, item)| {
                assert_eq!(unit, u);
                assert_eq!(item, shard.item(local));
                assert!(seen.insert((unit, local, item)), "{unit} {item} twice");
                false
            },
        );
        seen
    }

    #[test]
    fn shards_cut_the_same_items_into_disjoint_parts() {
        let whole: BTreeSet<(usize, u64)> = items(Shard::WHOLE, 2, 4)
            .into_iter()
            .map(|(u, _, i)| (u, i))
            .collect();
        assert_eq!(whole.len(), 60, "20 items of each of 3 units");
        let mut parts = BTreeSet::new();
        for index in 0..3 {
            let shard = Shard { index, count: 3 };
            for (u, _, i) in items(shard, 3, 5) {
                assert_eq!(i % 3, index);
                assert!(parts.insert((u, i)));
            }
        }
        assert_eq!(parts, whole);
    }

    #[test]
    fn a_shard_is_written_i_of_n() {
        assert_eq!("2/5".parse::<Shard>(), Ok(Shard { index: 2, count: 5 }));
        assert_eq!(Shard { index: 2, count: 5 }.to_string(), "2/5");
        for wrong in ["5/5", "1/0", "1", "a/2", "-1/2"] {
            assert!(wrong.parse::<Shard>().is_err(), "{wrong}");
        }
    }
}
