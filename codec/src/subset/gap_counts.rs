//! The gaps of both coded sets of a subset, counted by value in one pass
//! over its items: what a sender sums code lengths over when it picks a
//! Golomb parameter. A dense scene has few distinct gaps (most are 1 or
//! 2), so each entry's length is then computed once per distinct value
//! instead of once per gap.

use super::code_length::{CodeLength, MAX_FAST_VALUE};
use super::Indexed;

/// Gap values counted: `v = gap - 1` in `0..=MAX_FAST_VALUE`.
const VALUES: usize = MAX_FAST_VALUE as usize + 1;

/// How many gaps of each value one coded set has.
pub(super) struct GapCounts {
    counts: [u16; VALUES],
    /// The values counted, each once, in the order first seen.
    distinct: [u16; VALUES],
    len: usize,
}

impl GapCounts {
    const fn new() -> Self {
        Self {
            counts: [0; VALUES],
            distinct: [0; VALUES],
            len: 0,
        }
    }

    /// Counts `n` gaps of value `v` (`v < VALUES`), without a branch on
    /// whether `v` is new: it is written to the end of `distinct` either
    /// way, and kept only when it is.
    #[inline(always)]
    fn add(&mut self, v: u32, n: u32) {
        let v16 = v as u16;
        if let Some(count) = self.counts.get_mut(v as usize) {
            let new = (*count == 0) & (n != 0);
            *count = count.wrapping_add(n as u16);
            if let Some(slot) = self.distinct.get_mut(self.len) {
                *slot = v16;
            }
            self.len = self.len.wrapping_add(usize::from(new));
        }
    }

    /// The bits of every counted gap under each of `lengths`.
    fn totals<const N: usize>(&self, lengths: &[CodeLength; N]) -> [u32; N] {
        let mut totals = [0u32; N];
        for &v in self.distinct.get(..self.len).unwrap_or_default() {
            let n = self.counts.get(usize::from(v)).copied().unwrap_or(0);
            for (total, length) in totals.iter_mut().zip(lengths) {
                // At most 1025 gaps of at most 1026 bits: no u32 overflows.
                let bits = length.bits_of_small(u32::from(v));
                *total = total.wrapping_add(u32::from(n).wrapping_mul(bits));
            }
        }
        totals
    }
}

/// [`count_into`] into new counts, for the tests.
#[cfg(test)]
pub(super) fn count<T: Indexed>(items: &[T], size: u32) -> Option<(GapCounts, GapCounts)> {
    let (mut present, mut absent) = (GapCounts::new(), GapCounts::new());
    count_into(items, size, &mut present, &mut absent)?;
    Some((present, absent))
}

/// Every entry's bits for both coded sets of `items`, counted by value
/// ([`count_into`]): the present set's under `present_lengths`, the absent
/// set's under `absent_lengths`. The counts (4 KiB a set) stay in this
/// function: returned, they were copied whole, 3 % of a half-density
/// scene's encode (perf, `memmove`).
pub(super) fn totals<T: Indexed, const P: usize, const A: usize>(
    items: &[T],
    size: u32,
    present_lengths: &[CodeLength; P],
    absent_lengths: &[CodeLength; A],
) -> Option<([u32; P], [u32; A])> {
    let (mut present, mut absent) = (GapCounts::new(), GapCounts::new());
    count_into(items, size, &mut present, &mut absent)?;
    Some((
        present.totals(present_lengths),
        absent.totals(absent_lengths),
    ))
}

/// Counts into `present` and `absent` (empty) the gaps of the present
/// set and of the absent set of `items` over
/// `size` slots, the sentinel's included; `None` when `size` is above
/// `MAX_FAST_VALUE` or the items are not strictly increasing below `size`
/// (the caller then walks the gaps one by one).
///
/// Between consecutive coded absent indices every index is present, so an
/// absent gap's value is the run of present indices before it: a present
/// item extends the run, and a gap of `g` present indices (`g - 1` absent
/// ones between them) ends it with one absent gap of the run's value and
/// `g - 2` of value 0.
#[inline(always)]
fn count_into<T: Indexed>(
    items: &[T],
    size: u32,
    present: &mut GapCounts,
    absent: &mut GapCounts,
) -> Option<()> {
    if size > MAX_FAST_VALUE {
        return None;
    }
    // The first index after the last item, and the present run before it.
    let mut next = 0u32;
    let mut run = 0u32;
    // The absent gaps of value 0, added once at the end: counted in
    // memory item by item, they made every item wait for the last one's
    // store (perf: a fifth of a half-density scene's encode in this loop).
    let mut absent_zeros = 0u32;
    let mut close = |present: &mut GapCounts, absent: &mut GapCounts, between: u32, run: u32| {
        present.add(between, 1);
        absent.add(run, u32::from(between != 0));
        absent_zeros = absent_zeros.wrapping_add(between.saturating_sub(1));
    };
    for item in items {
        let index = item.index();
        if index >= size || index < next {
            return None;
        }
        let between = index.wrapping_sub(next);
        close(present, absent, between, run);
        // A present item ends an absent run: back to zero, then one.
        run = if between != 0 { 0 } else { run };
        run = run.wrapping_add(1);
        next = index.wrapping_add(1);
    }
    let between = size.wrapping_sub(next);
    close(present, absent, between, run);
    let run = if between != 0 { 0 } else { run };
    absent.add(run, 1);
    // At most `size` of them: no u16 count overflows.
    absent.add(0, absent_zeros);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subset::golomb::{count_absent, count_present, ABSENT_LENGTHS, PRESENT_LENGTHS};
    use crate::subset::Entry;
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn entries(indices: impl IntoIterator<Item = u32>) -> Vec<Entry<u8>> {
        indices
            .into_iter()
            .map(|index| Entry { index, value: 0 })
            .collect()
    }

    /// Counted by value, both sets' totals are those of the gaps walked
    /// one by one, for every density and size up to the largest counted,
    /// empty and full sets included.
    #[test]
    fn totals_by_value_are_the_totals_gap_by_gap() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9E37_79B9_7F4A_7C15u64);
        let mut next = move || rng.next_u64();
        for size in [0, 1, 2, 7, 64, 1000, 1023, 1024] {
            for density in [0, 1, 3, 10, 30, 50, 70, 90, 97, 100] {
                for _ in 0..8 {
                    let items = entries((0..size).filter(|_| next() % 100 < density));
                    let (present, absent) = count(&items, size).expect("valid items");
                    assert_eq!(
                        present.totals(&PRESENT_LENGTHS),
                        count_present(&items, size),
                        "present, size {size}, {} items",
                        items.len()
                    );
                    assert_eq!(
                        absent.totals(&ABSENT_LENGTHS),
                        count_absent(&items, size),
                        "absent, size {size}, {} items",
                        items.len()
                    );
                }
            }
        }
    }

    #[test]
    fn broken_items_and_large_sets_are_left_to_the_gap_walk() {
        assert!(count(&entries([3, 3]), 10).is_none());
        assert!(count(&entries([5, 4]), 10).is_none());
        assert!(count(&entries([10]), 10).is_none());
        assert!(count(&entries([1, 2]), MAX_FAST_VALUE + 1).is_none());
        assert!(count(&entries([]), MAX_FAST_VALUE).is_some());
    }
}
