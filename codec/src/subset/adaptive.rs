//! Adaptive subsets: the count first, then the indices in codes that follow
//! the slots and items left, so that a packet's index part comes within a
//! few bits of `log2((size + 1) C(size, k))`, the least any code that must
//! also say `k` can spend on most subsets (the bound scene E is held to in
//! `docs/COMPACTNESS.md`).
//!
//! Every code here is complete: each bit string a reader takes decodes to
//! one subset, and each subset encodes to one bit string. A reader refuses
//! nothing but an input that ends early, and accepts only what a writer
//! writes: packets are canonical by construction.
//!
//! # Code, version 1
//!
//! With `size` slots and `k` items:
//!
//! 1. `k` in truncated binary over the `size + 1` counts
//!    ([`crate::stream::ops::truncated`] defines both truncated codes).
//! 2. The *coded set* is the present slots when `2k <= size`, else the
//!    absent ones; `r` is its size, `n = size` the slots left.
//! 3. When `size <= 8 r` and `32 r < 15 size` the indices travel in
//!    *blocks*, else in *gaps*:
//!    - gaps, one for each coded slot: `z`, the slots before the next
//!      coded one, in `0..=n - r`, as a Golomb code of parameter `m` cut to
//!      `n - r`, where `m = n` when `r = 1` (one slot left to place: `z` is
//!      then sent in truncated binary) and else
//!      `max(1, ceil((710 n - 867 r) / (1024 r)))` (the best Golomb
//!      parameter for gaps of density `r / n`, in integers); then
//!      `n -= z + 1`, `r -= 1`.
//!    - blocks, one for each run of `b = min(64, n)` slots: their count of
//!      coded slots `c`, which lies in `lo = max(0, r - (n - b))` to
//!      `hi = min(b, r)`, as its place in the order `mu, mu - 1, mu + 1,
//!      mu - 2, mu + 2, ...` (values outside `lo..=hi` skipped), where
//!      `mu = round(b r / n)` clamped to `lo..=hi`, in a Golomb code cut to
//!      `hi - lo` whose `m` is `round(1.2 sigma)` (at least 1), with
//!      `sigma^2 = b r (n - r) (n - b) / (n^2 (n - 1))` the count's variance,
//!      in integers: `(isqrt(floor(576 b r (n - r) (n - b) / (100 n^2
//!      (n - 1)))) + 1) / 2`. Then the block's coded slots `x_1 < ... <
//!      x_c` (from the block's first slot) as their rank `sum C(x_j, j)`
//!      among the `C(b, c)` subsets of that size, in truncated binary. Then
//!      `n -= b`, `r -= c`.
//!
//!    A step whose value is the only one possible takes no bits: a gap
//!    once the slots left are all coded, a block's count when `lo = hi`,
//!    its rank when it holds none or all of its slots.
//! 4. Each present item's payload follows the step that places its slot,
//!    in index order; for an absent set sent in gaps, the payloads of the
//!    slots after the last absent one follow last.
//!
//! Gaps suit sparse sets, whose gaps are near geometric, and sets near half
//! density, where `m = 1` fits them. Between, the Golomb code's loss per
//! gap (it cannot spend a fraction of a bit) outgrows what the blocks'
//! counts cost (up to 3 % over the bound near 40 %), and ranks spend within
//! a bit of `log2 C(b, c)` per block. Blocks cost a reader a pass over
//! each block's slots, so they are used only in that band.

use super::{check_items, payload, read_item, read_vec, Indexed};
use crate::divide::divide;
use crate::role::Role;
use crate::stream::ops::truncated::{serialize_truncated_binary, serialize_truncated_golomb};
use crate::stream::Stream;

/// The slots a block holds: its ranks fit 64 bits (`C(64, 32) < 2^61`).
pub const BLOCK: u32 = 64;

/// The entries of a column [`unrank`] compares at a time, and the zeros
/// below each column of [`COLUMNS`] (its foot), so that a group ending
/// anywhere in a column lies inside it.
const GROUP: usize = 4;

/// A column of [`COLUMNS`]: its foot, then `C(x, j)` for `x` in `0..64`.
type Column = [u64; 64 + GROUP];

/// `C(x, j)` at `[j][GROUP + x]`, for `j` in `0..=64` and `x` in `0..64`,
/// by Pascal's rule (0 for `j > x`), above a foot of zeros: a reader's
/// pass over a block reads one column for each slot it places.
// Built by the compiler: an index out of bounds fails the build, never a
// run.
#[allow(clippy::indexing_slicing)]
static COLUMNS: [Column; 65] = {
    let mut table = [[0u64; 64 + GROUP]; 65];
    let mut x = GROUP;
    while x < 64 + GROUP {
        table[0][x] = 1;
        let mut j = 1usize;
        while j <= x.wrapping_sub(GROUP) {
            table[j][x] = table[j.wrapping_sub(1)][x.wrapping_sub(1)]
                .wrapping_add(table[j][x.wrapping_sub(1)]);
            j = j.wrapping_add(1);
        }
        x = x.wrapping_add(1);
    }
    table
};

/// The column of `C(x, j)`, all zeros for `j` past 64.
#[inline(always)]
fn column(j: u32) -> &'static Column {
    COLUMNS.get(j as usize).unwrap_or(&[0; 64 + GROUP])
}

/// `C(x, j)` for `x` below 64 (0 for `j` past 64).
#[inline(always)]
fn binomial(x: u32, j: u32) -> u64 {
    column(j)
        .get(((x & 63) as usize).wrapping_add(GROUP))
        .copied()
        .unwrap_or(0)
}

/// `C(b, c)` for a block of `b` slots, 1 to 64: `C(b - 1, c - 1) + C(b - 1, c)`.
#[inline(always)]
pub(crate) fn subsets(b: u32, c: u32) -> u64 {
    let below = b.wrapping_sub(1);
    let fewer = if c == 0 {
        0
    } else {
        binomial(below, c.wrapping_sub(1))
    };
    fewer.wrapping_add(binomial(below, c))
}

/// Whether a coded set of `r` items among `size` slots is sent in blocks
/// (else in gaps): from one slot in eight to just below half.
#[inline(always)]
#[must_use]
pub const fn uses_blocks(r: u32, size: u32) -> bool {
    let (r, size) = (r as u64, size as u64);
    r.saturating_mul(8) >= size && r.saturating_mul(32) < size.saturating_mul(15)
}

/// The Golomb parameter of the next gap with `r` coded slots among the
/// `n` left (`0 < r < n`).
#[inline(always)]
#[must_use]
pub fn gap_parameter(n: u32, r: u32) -> u32 {
    if r <= 1 {
        return n;
    }
    let top = u64::from(n)
        .saturating_mul(710)
        .saturating_sub(u64::from(r).saturating_mul(867));
    let unit = u64::from(r).saturating_mul(1024);
    if top <= unit {
        return 1;
    }
    // `ceil(top / (1024 r))` is `(top + 1024 r - 1) / 1024` divided by `r`,
    // both rounded down: a small division, done without a divide.
    let scaled = top.saturating_add(unit).saturating_sub(1) >> 10;
    match u32::try_from(scaled)
        .ok()
        .and_then(|scaled| divide(scaled, r))
    {
        Some(m) => m,
        None => u32::try_from(top.div_ceil(unit)).unwrap_or(u32::MAX),
    }
}

/// The Golomb parameter of a block count: `b` slots of the `n` left
/// (`b < n`), `r` of them coded (`0 < r < n`).
#[must_use]
pub fn count_parameter(n: u32, r: u32, b: u32) -> u32 {
    let (n, r, b) = (u128::from(n), u128::from(r), u128::from(b));
    let top = 576u128
        .saturating_mul(b)
        .saturating_mul(r)
        .saturating_mul(n.saturating_sub(r))
        .saturating_mul(n.saturating_sub(b));
    let under = 100u128
        .saturating_mul(n)
        .saturating_mul(n)
        .saturating_mul(n.saturating_sub(1));
    let scaled = top.checked_div(under).unwrap_or(0);
    let m = scaled.isqrt().saturating_add(1) / 2;
    u32::try_from(m).unwrap_or(u32::MAX).max(1)
}

/// A block count's range and centre, and its place in the order that
/// starts at the centre and alternates below and above it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CountOrder {
    lo: u32,
    hi: u32,
    mu: u32,
}

impl CountOrder {
    pub(crate) fn new(n: u32, r: u32, b: u32) -> Self {
        let lo = r.saturating_sub(n.saturating_sub(b));
        let hi = b.min(r);
        let twice = u64::from(b)
            .saturating_mul(u64::from(r))
            .saturating_mul(2)
            .saturating_add(u64::from(n));
        let round = twice
            .checked_div(u64::from(n).saturating_mul(2))
            .unwrap_or(0);
        let mu = u32::try_from(round).unwrap_or(u32::MAX).clamp(lo, hi);
        Self { lo, hi, mu }
    }

    /// The largest place.
    pub(crate) fn last(self) -> u32 {
        self.hi.wrapping_sub(self.lo)
    }

    /// The place of `c` (in `lo..=hi`).
    pub(crate) fn place(self, c: u32) -> u32 {
        let below = self.mu.wrapping_sub(self.lo);
        if c >= self.mu {
            let d = c.wrapping_sub(self.mu);
            d.wrapping_add(d.min(below))
        } else {
            let above = self.hi.wrapping_sub(self.mu);
            let e = self.mu.wrapping_sub(c);
            e.wrapping_add(e.wrapping_sub(1).min(above))
        }
    }

    /// The count at `place` (in `0..=last`).
    pub(crate) fn count(self, place: u32) -> u32 {
        let below = self.mu.wrapping_sub(self.lo);
        let above = self.hi.wrapping_sub(self.mu);
        let both = below.min(above);
        if place <= both.saturating_mul(2) {
            if place.is_multiple_of(2) {
                self.mu.wrapping_add(place / 2)
            } else {
                self.mu.wrapping_sub(place.div_ceil(2))
            }
        } else if below < above {
            self.mu.wrapping_add(place.wrapping_sub(below))
        } else {
            self.mu.wrapping_sub(place.wrapping_sub(above))
        }
    }
}

/// The rank of a block's coded slots (`mask`, bit `x` for slot `x`)
/// among the subsets of their size: `sum C(x_j, j)`.
pub(crate) fn rank(mask: u64) -> u64 {
    let mut rank = 0u64;
    let mut rest = mask;
    for j in 1..=mask.count_ones() {
        rank = rank.wrapping_add(binomial(rest.trailing_zeros(), j));
        rest &= rest.wrapping_sub(1);
    }
    rank
}

/// The `c` coded slots of a `b`-slot block whose rank is `rank` (below
/// `C(b, c)`), as a mask: the largest slot `x` with `C(x, c) <= rank`, and
/// so on down. A column rises with `x` from its foot of zeros, so the
/// entries that fit in the rank are a prefix of it: each coded slot is
/// found by stepping down the column a group at a time from just below
/// the slot found before it, past groups whose least entry does not fit,
/// then counting the fits in one group without a branch.
#[inline(always)]
pub(crate) fn unrank(mut rank: u64, c: u32, b: u32) -> u64 {
    let mut mask = 0u64;
    // The free slots' entries end here: `GROUP + x` for slots `0..x`.
    let mut top = GROUP.wrapping_add(b.min(BLOCK) as usize);
    let mut j = c;
    while j > 0 {
        let column = column(j);
        // The foot's zeros fit, so the step down ends by `top == GROUP`.
        let group = loop {
            let low = top.wrapping_sub(GROUP);
            let Some(group) = column.get(low..).and_then(|g| g.first_chunk::<GROUP>()) else {
                return mask;
            };
            let [least, ..] = *group;
            if least <= rank {
                break group;
            }
            top = low;
        };
        let fit = group
            .iter()
            .map(|&step| usize::from(step <= rank))
            .sum::<usize>();
        // The last entry that fits; the foot's only where no slot is free.
        let at = top.wrapping_sub(GROUP).wrapping_add(fit).wrapping_sub(1);
        let Some(x) = at.checked_sub(GROUP) else {
            break;
        };
        rank = rank.wrapping_sub(column.get(at).copied().unwrap_or(0));
        mask |= 1u64 << (x & 63);
        top = at;
        j = j.wrapping_sub(1);
    }
    mask
}

/// The mask of a block's first `b` slots.
#[inline(always)]
pub(crate) fn full(b: u32) -> u64 {
    1u64.checked_shl(b).unwrap_or(0).wrapping_sub(1)
}

/// Where a walk over the slots stands: the next slot, and the items a
/// writer has sent.
struct Walk {
    at: u32,
    sent: usize,
    present: bool,
}

impl Walk {
    /// Sends the payload of the present slot `index`: a writer's next item
    /// (whose index it is), or a new item a reader appends.
    #[inline(always)]
    fn place<S: Stream, T: Indexed>(
        &mut self,
        stream: &mut S,
        items: &mut Vec<T>,
        index: u32,
    ) -> Result<(), S::Error> {
        if S::IS_READING {
            return read_item(stream, items, index);
        }
        let item = items.get_mut(self.sent);
        self.sent = self.sent.wrapping_add(1);
        match item {
            Some(item) => payload(stream, item),
            None => Ok(()),
        }
    }

    /// The payloads of slots `at..end`, every one present.
    fn place_run<S: Stream, T: Indexed>(
        &mut self,
        stream: &mut S,
        items: &mut Vec<T>,
        end: u32,
    ) -> Result<(), S::Error> {
        for index in self.at..end {
            self.place(stream, items, index)?;
        }
        self.at = end;
        Ok(())
    }

    /// A writer's next coded slot at or after `at`: its next item's index
    /// for a present set, else the first slot no item holds.
    fn next_coded<T: Indexed>(&self, items: &[T]) -> u32 {
        let next = items.get(self.sent).map(Indexed::index);
        if self.present {
            return next.unwrap_or(self.at);
        }
        let mut slot = self.at;
        for item in items.iter().skip(self.sent) {
            if item.index() != slot {
                break;
            }
            slot = slot.wrapping_add(1);
        }
        slot
    }

    /// A writer's present slots among the `b` from `at`, as a mask.
    fn present_mask<T: Indexed>(&self, items: &[T], b: u32) -> u64 {
        let mut mask = 0u64;
        for item in items.iter().skip(self.sent) {
            let offset = item.index().wrapping_sub(self.at);
            if offset >= b {
                break;
            }
            mask |= 1u64.checked_shl(offset).unwrap_or(0);
        }
        mask
    }
}

/// The count `k`, then the indices in gaps or blocks (module docs), each
/// item's payload after the step that places it.
pub fn adaptive<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    size: u32,
) -> Result<(), S::Error> {
    check_items(stream, items, size)?;
    if S::IS_READING {
        let mut read = read_vec(stream, size);
        walk(stream, &mut read, size)?;
        *items = read;
        return Ok(());
    }
    walk(stream, items, size)
}

fn walk<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    size: u32,
) -> Result<(), S::Error> {
    let mut k = if S::IS_WRITING { items.len() as u64 } else { 0 };
    stream.field_name("count");
    stream.field_role(Role::Count);
    serialize_truncated_binary(stream, &mut k, u64::from(size).saturating_add(1))?;
    let k = u32::try_from(k).unwrap_or(size);
    let present = u64::from(k).saturating_mul(2) <= u64::from(size);
    let r = if present { k } else { size.wrapping_sub(k) };
    let mut walk = Walk {
        at: 0,
        sent: 0,
        present,
    };
    if uses_blocks(r, size) {
        return blocks(stream, items, &mut walk, size, r);
    }
    gaps(stream, items, &mut walk, size, r)?;
    // What follows the last coded slot is all absent for a present set,
    // all present for an absent one.
    if !present {
        walk.place_run(stream, items, size)?;
    }
    Ok(())
}

/// One gap step for each of the `r` coded slots. Once the slots left are
/// all coded, each gap is 0 and takes no bits.
fn gaps<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    walk: &mut Walk,
    mut n: u32,
    r: u32,
) -> Result<(), S::Error> {
    for left in (1..=r).rev() {
        let most = n.wrapping_sub(left);
        let mut z = if S::IS_WRITING {
            walk.next_coded(items).wrapping_sub(walk.at)
        } else {
            0
        };
        stream.field_name("gap");
        stream.field_role(Role::Gap);
        serialize_truncated_golomb(stream, &mut z, gap_parameter(n, left), most)?;
        // `z <= n - left`, so the coded slot is below the slots' end.
        let coded = walk.at.wrapping_add(z);
        if walk.present {
            walk.place(stream, items, coded)?;
        } else {
            walk.place_run(stream, items, coded)?;
        }
        walk.at = coded.wrapping_add(1);
        n = n.wrapping_sub(z).wrapping_sub(1);
    }
    Ok(())
}

/// One block step for each block of the `n` slots, `r` of them coded. A
/// block whose count and subset are already known (none or all of its
/// slots coded) takes no bits.
fn blocks<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    walk: &mut Walk,
    mut n: u32,
    mut r: u32,
) -> Result<(), S::Error> {
    for _ in 0..n.div_ceil(BLOCK) {
        let b = n.min(BLOCK);
        let mut coded = 0u64;
        if S::IS_WRITING {
            let present = walk.present_mask(items, b);
            coded = if walk.present {
                present
            } else {
                !present & full(b)
            };
        }
        let order = CountOrder::new(n, r, b);
        let mut place = if S::IS_WRITING {
            order.place(coded.count_ones())
        } else {
            0
        };
        stream.field_name("block count");
        stream.field_role(Role::Count);
        serialize_truncated_golomb(stream, &mut place, count_parameter(n, r, b), order.last())?;
        let c = order.count(place);
        let mut ranked = if S::IS_WRITING { rank(coded) } else { 0 };
        stream.field_name("rank");
        stream.field_role(Role::Index);
        serialize_truncated_binary(stream, &mut ranked, subsets(b, c))?;
        if S::IS_READING {
            coded = unrank(ranked, c, b);
        }
        let mut present = if walk.present {
            coded
        } else {
            !coded & full(b)
        };
        let start = walk.at;
        for _ in 0..present.count_ones() {
            let slot = start.wrapping_add(present.trailing_zeros());
            walk.place(stream, items, slot)?;
            present &= present.wrapping_sub(1);
        }
        walk.at = start.wrapping_add(b);
        n = n.wrapping_sub(b);
        r = r.wrapping_sub(c);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_pascals_triangle() {
        assert_eq!(subsets(64, 32), 1_832_624_140_942_590_534);
        assert_eq!(subsets(64, 64), 1);
        assert_eq!(subsets(64, 0), 1);
        assert_eq!(binomial(10, 3), 120);
        assert_eq!(binomial(3, 10), 0);
        assert_eq!(binomial(0, 0), 1);
        assert_eq!(binomial(5, 65), 0);
        for x in 1..=64 {
            assert_eq!((0..=x).map(|j| subsets(x, j) as u128).sum::<u128>(), 1 << x);
        }
        for x in 1..64 {
            assert_eq!(
                (0..=x).map(|j| binomial(x, j) as u128).sum::<u128>(),
                1 << x
            );
        }
    }

    /// The slot-by-slot definition: every slot from the top down is taken
    /// when its binomial fits in the rank left.
    fn unrank_by_slots(mut rank: u64, c: u32, b: u32) -> u64 {
        let (mut mask, mut j) = (0u64, c);
        for x in (0..b.min(64)).rev() {
            if j > 0 && binomial(x, j) <= rank {
                rank -= binomial(x, j);
                mask |= 1 << x;
                j -= 1;
            }
        }
        mask
    }

    /// The column scans take the slots the definition takes, for ranks in
    /// range and past it (which no reader passes), counts past the block
    /// and blocks of every width.
    #[test]
    fn unrank_takes_the_slots_the_definition_takes() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for b in 0..=66u32 {
            for c in 0..=b.saturating_add(2) {
                let span = subsets(b.clamp(1, 64), c.min(64)).max(1);
                for _ in 0..40 {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    for rank in [rng % span, span - 1, span, rng] {
                        assert_eq!(
                            unrank(rank, c, b),
                            unrank_by_slots(rank, c, b),
                            "rank {rank}, c {c}, b {b}"
                        );
                    }
                }
            }
        }
    }

    /// Every subset of a block has a rank below `C(b, c)`, no two share
    /// one, and the rank gives the subset back.
    #[test]
    fn ranks_number_the_subsets_of_each_size() {
        for b in [1u32, 2, 5, 10, 12] {
            let mut seen = std::collections::HashSet::new();
            for mask in 0..1u64 << b {
                let c = mask.count_ones();
                let r = rank(mask);
                assert!(r < subsets(b, c));
                assert!(seen.insert((c, r)));
                assert_eq!(unrank(r, c, b), mask);
            }
        }
        let wide = 0xF0F0_0000_0000_0F0Fu64;
        assert_eq!(unrank(rank(wide), wide.count_ones(), 64), wide);
        assert_eq!(rank(u64::MAX), 0);
    }

    /// The count order is a bijection of `lo..=hi` onto `0..=hi - lo`,
    /// starting at the centre.
    #[test]
    fn the_count_order_is_a_bijection_from_the_centre() {
        for n in [2u32, 3, 65, 100, 1024] {
            for b in [1u32, 2, 64].into_iter().filter(|&b| b < n) {
                for r in 1..n {
                    let order = CountOrder::new(n, r, b);
                    assert!(order.lo <= order.mu && order.mu <= order.hi);
                    assert_eq!(order.place(order.mu), 0);
                    let mut places: Vec<u32> =
                        (order.lo..=order.hi).map(|c| order.place(c)).collect();
                    for c in order.lo..=order.hi {
                        assert_eq!(order.count(order.place(c)), c, "n {n} b {b} r {r}");
                    }
                    places.sort_unstable();
                    assert_eq!(places, (0..=order.last()).collect::<Vec<_>>());
                }
            }
        }
    }

    /// The integer parameters match their real-valued definitions on the
    /// scenes' slots.
    #[test]
    fn parameters_follow_their_formulas() {
        for n in (2u32..=1024).step_by(7) {
            for r in (2..n).step_by(5) {
                let p = f64::from(r) / f64::from(n);
                let real = ((710.0 * f64::from(n) - 867.0 * f64::from(r))
                    / (1024.0 * f64::from(r)))
                .ceil()
                .max(1.0);
                assert_eq!(f64::from(gap_parameter(n, r)), real, "n {n} r {r} p {p}");
                let b = n.min(BLOCK);
                if b < n {
                    let var = f64::from(b) * p * (1.0 - p) * f64::from(n - b) / f64::from(n - 1);
                    let m = f64::from(count_parameter(n, r, b));
                    assert_eq!(m, (1.2 * var.sqrt()).round().max(1.0), "n {n} r {r}");
                }
            }
        }
        assert_eq!(gap_parameter(500, 1), 500);
    }
}
