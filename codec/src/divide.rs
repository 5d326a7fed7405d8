//! Division of small numbers as a multiply and a shift: the truncated
//! codes' parameters and quotients divide numbers below 2^11 by divisors
//! up to 1024 once per item, on the chain each next item waits for, where
//! a hardware division is the slowest step.

/// The divisors [`divide`] takes from [`RECIPROCALS`].
const MOST_DIVISOR: u32 = 1024;

/// Numerators below this are divided exactly by the table: 4649 is the
/// first that a divisor gets wrong (930), as the tests show.
const NUMERATOR_LIMIT: u32 = 4649;

/// Bits the reciprocals are scaled by.
const SHIFT: u32 = 22;

/// `ceil(2^22 / d)` for each divisor `d` in `1..=1024` (0 at 0). With
/// `n < 2^12` and `d <= 2^10`, `n * ceil(2^22 / d) >> 22 == n / d`: the
/// reciprocal exceeds `2^22 / d` by less than 1, so the product exceeds
/// `n / d` by less than `n / 2^22`, which is at most `1 / d`, no more than
/// the distance from `n / d` up to the next whole number.
/// `tests::every_quotient_is_exact` checks every pair up to the limit.
// Built by the compiler: an index out of bounds fails the build, never a
// run.
#[allow(clippy::indexing_slicing)]
const RECIPROCALS: [u32; MOST_DIVISOR as usize + 1] = {
    let mut table = [0u32; MOST_DIVISOR as usize + 1];
    let mut d = 1u32;
    while d <= MOST_DIVISOR {
        table[d as usize] = (1u32 << SHIFT).div_ceil(d);
        // Not `+= 1`, which a mutant turns into an endless `*= 1`.
        d = d.wrapping_add(1);
    }
    table
};

/// `n / d` rounded down; `None` for `d == 0`.
#[inline(always)]
pub(crate) fn divide(n: u32, d: u32) -> Option<u32> {
    match RECIPROCALS.get(d as usize) {
        Some(&reciprocal) if n < NUMERATOR_LIMIT && reciprocal != 0 => {
            // Below 2^13 times below 2^23: no overflow in 64 bits.
            Some((u64::from(n).wrapping_mul(u64::from(reciprocal)) >> SHIFT) as u32)
        }
        _ => n.checked_div(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each entry is the least multiplier that takes its divisor to 2^22
    /// or past it: the table [`divide`] trusts below the limit.
    #[test]
    fn each_reciprocal_is_the_least_that_reaches_two_to_the_22() {
        assert_eq!(RECIPROCALS[0], 0);
        for d in 1..=MOST_DIVISOR {
            let reciprocal = u64::from(RECIPROCALS[d as usize]);
            assert!(reciprocal * u64::from(d) >= 1 << 22, "{d}");
            assert!((reciprocal - 1) * u64::from(d) < 1 << 22, "{d}");
        }
    }

    #[test]
    fn the_limit_is_the_first_numerator_the_table_gets_wrong() {
        let product = u64::from(NUMERATOR_LIMIT) * u64::from(RECIPROCALS[930]);
        assert_ne!(product >> SHIFT, u64::from(NUMERATOR_LIMIT / 930));
    }

    #[test]
    fn every_quotient_is_exact() {
        // Past the limit too, where the table would be wrong.
        for d in 0..=MOST_DIVISOR.wrapping_add(3) {
            for n in 0..NUMERATOR_LIMIT * 2 {
                assert_eq!(divide(n, d), n.checked_div(d), "{n} / {d}");
            }
        }
    }

    #[test]
    fn large_numbers_divide_as_hardware_does() {
        for (n, d) in [
            (u32::MAX, 1),
            (u32::MAX, 1024),
            (4096, 3),
            (1 << 20, 1000),
            (7, 0),
        ] {
            assert_eq!(divide(n, d), n.checked_div(d), "{n} / {d}");
        }
    }
}
