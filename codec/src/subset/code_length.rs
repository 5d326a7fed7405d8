//! Golomb code lengths counted without a division: what the Golomb scene's sender
//! does for every gap and every candidate parameter when it picks one.

use crate::stream::ops::int::bits_for_span;

/// The largest value counted by a multiply and a shift.
pub(super) const MAX_FAST_VALUE: u32 = 1024;

/// The largest parameter for which that count is exact.
pub(super) const MAX_EXACT_PARAMETER: u32 = 128;

/// `ceil(2^20 / m)` turns `v / m` into a multiply and a shift: for
/// `v <= MAX_FAST_VALUE` the product stays below 2^31, and the error it adds
/// to `v / m` stays below `1024 / 2^20`, under `1 / m` for every
/// `m <= MAX_EXACT_PARAMETER`, so the quotient is exact (checked against
/// division for every such `m` and `v` in the tests).
const RECIPROCAL_SHIFT: u32 = 20;

/// The length of a Golomb code with parameter `m`: the unary quotient and
/// its stop bit, then the remainder in truncated binary.
#[derive(Clone, Copy, Debug)]
pub(super) struct CodeLength {
    m: u32,
    reciprocal: u32,
    /// Bits of a short remainder (`b - 1`; none for `m = 1`).
    short_bits: u32,
    /// Remainders from here on take one bit more (never, for `m = 1`).
    short: u32,
}

impl CodeLength {
    /// The lengths of parameter `m` (0 is taken as 1).
    pub(super) const fn new(m: u32) -> Self {
        let m = if m == 0 { 1 } else { m };
        let b = bits_for_span(m.wrapping_sub(1));
        let reciprocal =
            match ((1u32 << RECIPROCAL_SHIFT).wrapping_add(m).wrapping_sub(1)).checked_div(m) {
                Some(reciprocal) => reciprocal,
                None => 0,
            };
        if m == 1 {
            Self {
                m,
                reciprocal,
                short_bits: 0,
                short: u32::MAX,
            }
        } else {
            Self {
                m,
                reciprocal,
                short_bits: b.wrapping_sub(1),
                short: (1u32 << b).wrapping_sub(m),
            }
        }
    }

    /// Bits of the code of any `v`.
    #[inline]
    pub(super) fn bits(self, v: u32) -> u32 {
        if v <= MAX_FAST_VALUE && self.m <= MAX_EXACT_PARAMETER {
            return self.bits_of_small(v);
        }
        let quotient = v.checked_div(self.m).unwrap_or(0);
        let remainder = v.wrapping_sub(quotient.wrapping_mul(self.m));
        quotient
            .saturating_add(1)
            .saturating_add(self.short_bits)
            .saturating_add(u32::from(remainder >= self.short))
    }

    /// [`CodeLength::bits`] for `v <= MAX_FAST_VALUE` and a parameter of at
    /// most [`MAX_EXACT_PARAMETER`], where the quotient is a multiply and a
    /// shift and no sum can overflow.
    #[inline]
    pub(super) const fn bits_of_small(self, v: u32) -> u32 {
        let quotient = v.wrapping_mul(self.reciprocal) >> RECIPROCAL_SHIFT;
        let remainder = v.wrapping_sub(quotient.wrapping_mul(self.m));
        quotient
            .wrapping_add(1)
            .wrapping_add(self.short_bits)
            .wrapping_add((remainder >= self.short) as u32)
    }
}

/// Values with a row in [`Rows`]: `0..=MAX_FAST_VALUE`.
const ROWS: usize = MAX_FAST_VALUE as usize + 1;

/// The code length of every value up to [`MAX_FAST_VALUE`] under `N`
/// parameters (each of at most [`MAX_EXACT_PARAMETER`]), a row of `N`
/// lengths per value, computed by the compiler. A gap's lengths under all
/// the parameters are then one row added to the totals, kept in registers
/// by the caller's walk, instead of a computation per lane.
/// A length is at most `MAX_FAST_VALUE + 8`, so 63 rows add up in `u16`.
#[derive(Debug)]
pub(super) struct Rows<const N: usize> {
    rows: [[u16; N]; ROWS],
}

impl<const N: usize> Rows<N> {
    /// The rows of `lengths`.
    // Evaluated by the compiler: an index out of bounds would fail the
    // build.
    #[allow(clippy::indexing_slicing)]
    pub(super) const fn new(lengths: &[CodeLength; N]) -> Self {
        let mut rows = [[0u16; N]; ROWS];
        let mut v = 0;
        while v < ROWS {
            let mut lane = 0;
            while lane < N {
                let length = lengths[lane];
                assert!(length.m <= MAX_EXACT_PARAMETER);
                rows[v][lane] = length.bits_of_small(v as u32) as u16;
                lane = lane.wrapping_add(1);
            }
            v = v.wrapping_add(1);
        }
        Self { rows }
    }

    /// The lengths of `v` under each parameter, for `v <= MAX_FAST_VALUE`.
    #[inline(always)]
    pub(super) fn row(&self, v: u32) -> Option<&[u16; N]> {
        self.rows.get(usize::try_from(v).ok()?)
    }
}

/// Totals of code lengths over many gaps, lane by lane: rows added in
/// `u16` lanes, moved into `u32` totals every 63 rows.
#[derive(Debug)]
pub(super) struct Totals<const N: usize> {
    narrow: [u16; N],
    rows: u32,
    wide: [u32; N],
}

impl<const N: usize> Totals<N> {
    pub(super) const fn new() -> Self {
        Self {
            narrow: [0; N],
            rows: 0,
            wide: [0; N],
        }
    }

    /// Adds one gap's row.
    #[inline(always)]
    pub(super) fn add(&mut self, row: &[u16; N]) {
        for (total, length) in self.narrow.iter_mut().zip(row) {
            *total = total.wrapping_add(*length);
        }
        self.rows = self.rows.wrapping_add(1);
        if self.rows == 63 {
            self.flush();
        }
    }

    /// Adds `times` gaps of one row.
    #[inline]
    pub(super) fn add_times(&mut self, row: &[u16; N], times: u32) {
        for (total, length) in self.wide.iter_mut().zip(row) {
            *total = total.wrapping_add(u32::from(*length).wrapping_mul(times));
        }
    }

    #[inline]
    fn flush(&mut self) {
        for (wide, narrow) in self.wide.iter_mut().zip(&mut self.narrow) {
            *wide = wide.wrapping_add(u32::from(*narrow));
            *narrow = 0;
        }
        self.rows = 0;
    }

    /// The totals (wrapping past `u32::MAX`, which no set of 2^22 slots
    /// or fewer reaches).
    pub(super) fn finish(mut self) -> [u32; N] {
        self.flush();
        self.wide
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code length by the definition: a division and a remainder.
    fn divided_bits(v: u32, m: u32) -> u32 {
        let b = bits_for_span(m - 1);
        let short = (1u32 << b) - m;
        let remainder_bits = match (m, v % m < short) {
            (1, _) => 0,
            (_, true) => b - 1,
            (_, false) => b,
        };
        v / m + 1 + remainder_bits
    }

    #[test]
    fn code_lengths_without_division_match_the_definition() {
        for m in 1..=MAX_EXACT_PARAMETER {
            let length = CodeLength::new(m);
            for v in 0..=MAX_FAST_VALUE {
                assert_eq!(
                    length.bits_of_small(v),
                    divided_bits(v, m),
                    "m = {m}, v = {v}"
                );
            }
        }
    }

    #[test]
    fn rows_and_totals_add_each_lanes_lengths() {
        let ms = [1, 2, 3, 7, 64, 127, 128];
        let rows = Rows::new(&ms.map(CodeLength::new));
        for v in 0..=MAX_FAST_VALUE {
            assert_eq!(
                rows.row(v).unwrap().map(u32::from),
                ms.map(|m| divided_bits(v, m)),
                "v = {v}"
            );
        }
        assert!(rows.row(MAX_FAST_VALUE + 1).is_none());
        // Past the 63 rows a u16 lane holds, and with runs.
        let mut totals = Totals::new();
        let mut expected = [0u32; 7];
        for v in (0..=MAX_FAST_VALUE).step_by(7) {
            totals.add(rows.row(v).unwrap());
            totals.add_times(rows.row(v / 2).unwrap(), 3);
            for (e, m) in expected.iter_mut().zip(ms) {
                *e += divided_bits(v, m) + 3 * divided_bits(v / 2, m);
            }
        }
        assert_eq!(totals.finish(), expected);
        // The longest row, as often as a u16 lane can hold and more.
        let mut totals = Totals::new();
        for _ in 0..200 {
            totals.add(rows.row(MAX_FAST_VALUE).unwrap());
        }
        let longest = ms.map(|m| 200 * divided_bits(MAX_FAST_VALUE, m));
        assert_eq!(totals.finish(), longest);
    }

    /// Past the fast range in either direction (values above 1024, or
    /// parameters above 128, where the reciprocal's error can reach a
    /// quotient: `m = 1025`, `v = 1024`), lengths are divided.
    #[test]
    fn code_lengths_past_the_fast_range_divide() {
        for m in [1, 2, 3, 128, 129, 1000, 1025, 4096] {
            let length = CodeLength::new(m);
            for v in (0..=2 * MAX_FAST_VALUE).chain([5000, 1 << 20]) {
                assert_eq!(length.bits(v), divided_bits(v, m), "m = {m}, v = {v}");
            }
        }
    }
}
