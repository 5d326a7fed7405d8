//! The only code in the crate that touches bytes: [`BitReader`] reads the
//! untrusted input (`bits/read.rs`, the trust boundary, on its own), and
//! [`BitWriter`] writes a caller's buffer (`bits/write.rs`).
//!
//! Bits are packed least-significant-bit first, in little-endian words: the
//! articles' design, whose bytes this matches. Neither side ever indexes a
//! slice: every access goes through `get`, `get_mut` or `first_chunk`, so a
//! bug here can produce a wrong answer or an error, never an out-of-bounds
//! access.
//!
//! The per-field operations are `#[inline(always)]`: a user's `serialize`
//! is often compiled out of line, in the user's crate, and the stream stays
//! in registers only if every field's operation is inlined into it.

mod read;
mod write;

pub use read::{BitReader, Group};
pub(crate) use write::WideWrite;
pub use write::{BitWriter, StoringWriter};

/// The mask of the low `bits` bits, for `bits` in `0..=63`.
#[inline(always)]
pub(crate) const fn low_mask(bits: u32) -> u64 {
    // `bits < 64`, so the shift cannot overflow a u64.
    (1u64 << (bits & 63)).wrapping_sub(1)
}

/// [`low_mask`] of every width below 64.
// Evaluated by the compiler: an index out of range would fail the build.
#[allow(clippy::indexing_slicing)]
const LOW_MASKS: [u64; 64] = {
    let mut masks = [0u64; 64];
    let mut bits: usize = 0;
    while bits < 64 {
        masks[bits] = low_mask(bits as u32);
        bits = bits.wrapping_add(1);
    }
    masks
};

/// [`low_mask`] looked up: one load where the width is known only at run
/// time, against a shift and a subtraction with their register moves; a
/// constant width folds to the constant either way.
#[inline(always)]
pub(crate) fn low_mask_of(bits: u32) -> u64 {
    match LOW_MASKS.get((bits & 63) as usize) {
        Some(mask) => *mask,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::{low_mask, low_mask_of};

    #[test]
    fn the_looked_up_mask_is_the_computed_one_at_every_width() {
        for bits in (0..200).chain([u32::MAX - 1, u32::MAX]) {
            assert_eq!(low_mask_of(bits), low_mask(bits), "width {bits}");
        }
        assert_eq!(low_mask_of(0), 0);
        assert_eq!(low_mask_of(32), u64::from(u32::MAX));
        assert_eq!(low_mask_of(63), u64::MAX >> 1);
    }
}
