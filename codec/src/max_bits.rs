//! Const arithmetic for [`Serialize::MAX_BITS`](crate::Serialize::MAX_BITS):
//! a type's largest size is the sum of its fields' (`None`, no bound, when
//! any field has none), and overflow gives no bound rather than a wrong one.
//!
//! ```
//! use codec::{max_bits, Serialize, Stream};
//!
//! struct Move { x: u16, turn: bool }
//!
//! impl Serialize for Move {
//!     const MAX_BITS: Option<u64> =
//!         max_bits::sum(<u16 as Serialize>::MAX_BITS, <bool as Serialize>::MAX_BITS);
//!     #[inline]
//!     fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
//!         s.serialize_u16(&mut self.x)?;
//!         s.serialize_bool(&mut self.turn)
//!     }
//! }
//! assert_eq!(Move::MAX_BITS, Some(17));
//! ```

/// `a + b`, or `None` when either is unbounded or the sum overflows.
#[must_use]
pub const fn sum(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => a.checked_add(b),
        _ => None,
    }
}

/// `count` values of at most `each` bits.
#[must_use]
pub const fn times(each: Option<u64>, count: usize) -> Option<u64> {
    match each {
        Some(each) => each.checked_mul(count as u64),
        None => None,
    }
}

/// A ranged integer's bits, from its bounds as `i128` (a `u128` bound
/// above `i128::MAX` wraps, and the span is still counted right).
#[must_use]
pub const fn ranged(min: i128, max: i128) -> Option<u64> {
    Some(crate::bits_required128(min, max) as u64)
}

/// An alignment: at most seven bits of padding.
pub const ALIGN: Option<u64> = Some(7);

/// A serialize check: an alignment and a 32-bit hash.
pub const CHECK: Option<u64> = Some(39);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_products_give_no_bound_rather_than_a_wrong_one() {
        assert_eq!(sum(Some(3), Some(4)), Some(7));
        assert_eq!(sum(Some(3), None), None);
        assert_eq!(sum(Some(u64::MAX), Some(1)), None);
        assert_eq!(times(Some(5), 4), Some(20));
        assert_eq!(times(Some(u64::MAX), 2), None);
        assert_eq!(times(None, 0), None);
        assert_eq!(ranged(-100, 100), Some(8));
        assert_eq!(ranged(0, u128::MAX as i128), Some(128));
        assert_eq!(ranged(5, 5), Some(0));
    }
}
