//! Fixed point (Q format) declarations.
//!
//! A `Q<integer_bits>.<fraction_bits>` value is stored as a signed integer of
//! `integer_bits + fraction_bits` bits, the real value times
//! `2^fraction_bits`. On the wire it is a ranged integer over the raw bounds
//! `min << fraction_bits ..= max << fraction_bits` (bounds in whole units).

/// A fixed-point declaration: storage format and whole-unit bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fixed {
    integer_bits: u32,
    fraction_bits: u32,
    raw_min: i128,
    raw_max: i128,
}

/// Shifts `whole` left by `fraction_bits` when the result fits a signed
/// integer of `storage_bits` bits.
const fn to_raw(whole: i128, fraction_bits: u32, storage_bits: u32) -> Option<i128> {
    let Some(raw) = whole.checked_shl(fraction_bits) else {
        return None;
    };
    // The shift (by less than 128, or it would have failed) must not have
    // dropped high bits, and the result must fit the storage width (a
    // 128-bit storage holds every i128).
    if (raw >> fraction_bits) != whole {
        return None;
    }
    if storage_bits < 128 {
        let limit = 1i128.wrapping_shl(storage_bits.wrapping_sub(1));
        if raw < limit.wrapping_neg() || raw >= limit {
            return None;
        }
    }
    Some(raw)
}

impl Fixed {
    /// A declaration, or `None` when the storage width is not in `1..=128`,
    /// `min > max`, or a bound does not fit the storage.
    #[must_use]
    pub const fn new(integer_bits: u32, fraction_bits: u32, min: i128, max: i128) -> Option<Self> {
        let Some(storage_bits) = integer_bits.checked_add(fraction_bits) else {
            return None;
        };
        if storage_bits == 0 || storage_bits > 128 || min > max {
            return None;
        }
        let (Some(raw_min), Some(raw_max)) = (
            to_raw(min, fraction_bits, storage_bits),
            to_raw(max, fraction_bits, storage_bits),
        ) else {
            return None;
        };
        Some(Self {
            integer_bits,
            fraction_bits,
            raw_min,
            raw_max,
        })
    }

    /// Integer bits of the storage.
    #[must_use]
    pub const fn integer_bits(&self) -> u32 {
        self.integer_bits
    }

    /// Fraction bits of the storage.
    #[must_use]
    pub const fn fraction_bits(&self) -> u32 {
        self.fraction_bits
    }

    /// The lowest raw value.
    #[must_use]
    pub const fn raw_min(&self) -> i128 {
        self.raw_min
    }

    /// The highest raw value.
    #[must_use]
    pub const fn raw_max(&self) -> i128 {
        self.raw_max
    }

    /// Bits on the wire.
    #[must_use]
    pub const fn bits(&self) -> u32 {
        super::wide::bits_for_span128((self.raw_max as u128).wrapping_sub(self.raw_min as u128))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declaration_keeps_its_format_and_raw_bounds() {
        let q = Fixed::new(8, 8, -10, 10).unwrap();
        assert_eq!((q.integer_bits(), q.fraction_bits()), (8, 8));
        assert_eq!((q.raw_min(), q.raw_max()), (-2560, 2560));
        // 5120 raw steps above the minimum: 13 bits.
        assert_eq!(q.bits(), 13);
        let q = Fixed::new(100, 28, -(1 << 90), 1 << 90).unwrap();
        assert_eq!((q.integer_bits(), q.fraction_bits()), (100, 28));
        assert_eq!(q.bits(), 120);
        let q = Fixed::new(1, 0, 0, 0).unwrap();
        assert_eq!(q.bits(), 0);
    }

    /// Bounds that the storage cannot hold are refused, at both ends of it
    /// and where the shift itself overflows an `i128`.
    #[test]
    fn a_bound_the_storage_cannot_hold_is_refused() {
        // Q4.4 holds raw values -128..=127: whole units -8..=7.
        assert!(Fixed::new(4, 4, -8, 7).is_some());
        assert_eq!(Fixed::new(4, 4, -8, 8), None);
        assert_eq!(Fixed::new(4, 4, -9, 7), None);
        assert_eq!(Fixed::new(4, 4, 100, 100), None);
        // 2^100 shifted by 40 needs 141 bits: no 128-bit storage holds it.
        assert_eq!(Fixed::new(88, 40, 0, 1 << 100), None);
        assert_eq!(Fixed::new(88, 40, -(1 << 100), 0), None);
        assert!(Fixed::new(88, 40, -(1 << 86), (1 << 86) - 1).is_some());
        // The storage width and the order of the bounds.
        assert_eq!(Fixed::new(0, 0, 0, 0), None);
        assert_eq!(Fixed::new(100, 29, 0, 0), None);
        assert_eq!(Fixed::new(u32::MAX, 1, 0, 0), None);
        assert_eq!(Fixed::new(8, 8, 1, 0), None);
    }
}
