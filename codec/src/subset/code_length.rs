//! Golomb code lengths counted without a division: what scene E's sender
//! does for every gap and every candidate parameter when it picks one.

use crate::ops::int::bits_for_span;

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
    pub(super) fn bits_of_small(self, v: u32) -> u32 {
        let quotient = v.wrapping_mul(self.reciprocal) >> RECIPROCAL_SHIFT;
        let remainder = v.wrapping_sub(quotient.wrapping_mul(self.m));
        quotient
            .wrapping_add(1)
            .wrapping_add(self.short_bits)
            .wrapping_add(u32::from(remainder >= self.short))
    }
}

/// The lengths of `N` parameters lane by lane (each of at most
/// [`MAX_EXACT_PARAMETER`]), so that a gap's length under all of them is
/// counted by a few vector instructions: an array of [`CodeLength`]s,
/// four fields to a lane, did not vectorize, and counting a sparse scene's
/// gaps took a third of its encode (perf, docs/BENCHMARKS.md section 1).
#[derive(Clone, Copy, Debug)]
pub(super) struct Lanes<const N: usize> {
    m: [u32; N],
    reciprocal: [u32; N],
    short_bits: [u32; N],
    short: [u32; N],
}

impl<const N: usize> Lanes<N> {
    /// The lanes of `lengths`.
    // Evaluated by the compiler at every use: an index out of bounds would
    // fail the build.
    #[allow(clippy::indexing_slicing)]
    pub(super) const fn new(lengths: &[CodeLength; N]) -> Self {
        let mut lanes = Self {
            m: [0; N],
            reciprocal: [0; N],
            short_bits: [0; N],
            short: [0; N],
        };
        let mut i = 0;
        while i < N {
            let length = lengths[i];
            assert!(length.m <= MAX_EXACT_PARAMETER);
            lanes.m[i] = length.m;
            lanes.reciprocal[i] = length.reciprocal;
            lanes.short_bits[i] = length.short_bits;
            lanes.short[i] = length.short;
            i = i.wrapping_add(1);
        }
        lanes
    }

    /// Adds to each lane's total the bits of `times` codes of `v`, for
    /// `v <= MAX_FAST_VALUE`: [`CodeLength::bits_of_small`] lane by lane.
    /// Totals wrap past `u32::MAX`, which no set of 2^22 slots or fewer
    /// reaches.
    #[inline(always)]
    pub(super) fn add_small(&self, totals: &mut [u32; N], v: u32, times: u32) {
        let lanes = totals
            .iter_mut()
            .zip(self.m)
            .zip(self.reciprocal)
            .zip(self.short_bits)
            .zip(self.short);
        for ((((total, m), reciprocal), short_bits), short) in lanes {
            let quotient = v.wrapping_mul(reciprocal) >> RECIPROCAL_SHIFT;
            let remainder = v.wrapping_sub(quotient.wrapping_mul(m));
            let bits = quotient
                .wrapping_add(1)
                .wrapping_add(short_bits)
                .wrapping_add(u32::from(remainder >= short));
            *total = total.wrapping_add(bits.wrapping_mul(times));
        }
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
    fn lanes_add_each_lanes_length_times_the_count() {
        let ms = [1, 2, 3, 7, 64, 127, 128];
        let lanes = Lanes::new(&ms.map(CodeLength::new));
        for v in 0..=MAX_FAST_VALUE {
            for times in [1, 3] {
                let mut totals = [5u32; 7];
                lanes.add_small(&mut totals, v, times);
                let expected = ms.map(|m| 5 + times * divided_bits(v, m));
                assert_eq!(totals, expected, "v = {v}, {times} times");
            }
        }
    }

    #[test]
    fn code_lengths_past_the_fast_range_divide() {
        for m in [1, 2, 3, 128, 129, 1000] {
            let length = CodeLength::new(m);
            for v in [0, 1023, 1024, 1025, 5000, 1 << 20] {
                assert_eq!(length.bits(v), divided_bits(v, m), "m = {m}, v = {v}");
            }
        }
    }
}
