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

pub use read::BitReader;
pub(crate) use write::WideWrite;
pub use write::{BitWriter, StoringWriter};

/// The mask of the low `bits` bits, for `bits` in `0..=63`.
#[inline(always)]
pub(crate) const fn low_mask(bits: u32) -> u64 {
    // `bits < 64`, so the shift cannot overflow a u64.
    (1u64 << (bits & 63)).wrapping_sub(1)
}
