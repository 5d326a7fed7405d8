//! A Golomb code of a positive gap with parameter `m` (the Golomb
//! scene's index gaps): `gap - 1` as a unary quotient, then its remainder
//! in truncated binary. `crate::subset::golomb` documents the code.
//!
//! [`code`] states the code, once. The generic operation
//! ([`serialize_golomb`]) writes what it says and reads it back field by
//! field; a [`GolombTable`] is built from it, so a hot path that looks
//! codes up or writes them whole reads and writes exactly those bits.

use super::int::bits_for_span;
use crate::error::DecodeError;
use crate::stream::Stream;

/// The truncated binary of a remainder below `m` (at least 2): `b` with
/// `2^(b-1) < m <= 2^b`; remainders below `short` take `b - 1` bits, the
/// others `b`.
#[inline(always)]
#[must_use]
pub const fn truncated_binary(m: u32) -> (u32, u32) {
    let b = bits_for_span(m.wrapping_sub(1));
    (b, (1u32 << (b & 31)).wrapping_sub(m))
}

/// The Golomb code of one value: `quotient` one-bits, a zero-bit, then
/// `tail_bits` bits of `tail`, first bit lowest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    /// The unary part: `v / m`.
    pub quotient: u32,
    /// The remainder `v % m` in truncated binary: below `short` as itself
    /// in `b - 1` bits; else `r + short`, its high `b - 1` bits first and
    /// its low bit last.
    pub tail: u32,
    /// `b - 1` or `b`; 0 for `m = 1`.
    pub tail_bits: u32,
}

/// The code of `v = gap - 1` with parameter `m` (0 counts as 1): the one
/// statement of the code.
#[inline(always)]
#[must_use]
pub const fn code(v: u32, m: u32) -> Code {
    let m = if m == 0 { 1 } else { m };
    let (quotient, remainder) = match (v.checked_div(m), v.checked_rem(m)) {
        (Some(quotient), Some(remainder)) => (quotient, remainder),
        _ => (v, 0),
    };
    if m == 1 {
        return Code {
            quotient,
            tail: 0,
            tail_bits: 0,
        };
    }
    let (b, short) = truncated_binary(m);
    let first = b.wrapping_sub(1);
    if remainder < short {
        return Code {
            quotient,
            tail: remainder,
            tail_bits: first,
        };
    }
    let coded = remainder.wrapping_add(short);
    Code {
        quotient,
        tail: (coded >> 1) | ((coded & 1) << (first & 31)),
        tail_bits: b,
    }
}

impl Code {
    /// The code's length in bits.
    #[inline(always)]
    #[must_use]
    pub const fn bits(&self) -> u64 {
        (self.quotient as u64)
            .saturating_add(1)
            .saturating_add(self.tail_bits as u64)
    }

    /// The whole code as one word, first bit lowest, and its length, where
    /// it takes at most 64 bits.
    #[inline(always)]
    #[must_use]
    pub const fn word(&self) -> Option<(u64, u32)> {
        let bits = self.bits();
        if bits > 64 {
            return None;
        }
        // At most 63 ones, so the shifts stay below 64.
        let ones = (1u64 << (self.quotient & 63)).wrapping_sub(1);
        let tail = (self.tail as u64) << (self.quotient.wrapping_add(1) & 63);
        Some((ones | tail, bits as u32))
    }
}

/// The input bits a [`GolombTable`] decodes at once.
pub const TABLE_BITS: u32 = 12;

/// The gaps a [`GolombTable`] codes for a writer: those of a set of up to
/// 1024 slots.
pub const TABLE_VALUES: usize = 1024;

/// The longest code a [`GolombTable`] holds for a writer.
pub const TABLE_CODE_BITS: u32 = 27;

/// The codes of parameter `m` that a hot path looks up, built from
/// [`code`] by the compiler.
///
/// For a reader, entry `w` (the next [`TABLE_BITS`] bits, first bit
/// lowest) holds the gap of the code `w` starts with, times 16, plus the
/// code's length; 0 where that code is longer than [`TABLE_BITS`] (or its
/// gap 4096 or more). 8 KiB a parameter. For a writer, the code of each
/// `gap - 1` below [`TABLE_VALUES`] that takes at most
/// [`TABLE_CODE_BITS`] bits, plus its length times 2^27; 0 where longer.
/// 4 KiB a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GolombTable {
    m: u32,
    entries: [u16; 1 << TABLE_BITS],
    codes: [u32; TABLE_VALUES],
}

impl GolombTable {
    /// The table of parameter `m` (0 counts as 1). Every code of at most
    /// [`TABLE_BITS`] bits fills the entries whose low bits are that code;
    /// the code is prefix-free, so no two codes share an entry.
    // Built by the compiler: an index out of bounds fails the build, never
    // a run.
    #[allow(clippy::indexing_slicing)]
    #[must_use]
    pub const fn new(m: u32) -> Self {
        let m = if m == 0 { 1 } else { m };
        let mut entries = [0u16; 1 << TABLE_BITS];
        // Gaps below 2^12, so that a gap and a 4-bit length fit an entry.
        let mut v = 0u32;
        while v < (1 << TABLE_BITS) - 1 {
            let c = code(v, m);
            if c.quotient > TABLE_BITS {
                break;
            }
            if let Some((word, bits)) = c.word() {
                // Each code's entry is repeated under every value of the
                // bits after it: a code of no bits would fill the table.
                debug_assert!(bits > 0, "a code has at least its zero bit");
                if bits <= TABLE_BITS {
                    let entry = (((v as u16).wrapping_add(1)) << 4) | bits as u16;
                    let mut high = 0u64;
                    while high < (1 << TABLE_BITS.wrapping_sub(bits)) {
                        entries[(word | (high << bits)) as usize] = entry;
                        high = high.wrapping_add(1);
                    }
                }
            }
            v = v.wrapping_add(1);
        }
        let mut codes = [0u32; TABLE_VALUES];
        let mut v = 0u32;
        while v < TABLE_VALUES as u32 {
            if let Some((word, bits)) = code(v, m).word() {
                if bits <= TABLE_CODE_BITS {
                    codes[v as usize] = word as u32 | (bits << TABLE_CODE_BITS);
                }
            }
            v = v.wrapping_add(1);
        }
        Self { m, entries, codes }
    }

    /// The parameter.
    #[inline(always)]
    #[must_use]
    pub const fn m(&self) -> u32 {
        self.m
    }

    /// The gap and length of the code `window` starts with (its first bit
    /// lowest), or `(0, 0)` when the table does not hold it.
    #[inline(always)]
    #[must_use]
    pub fn decode(&self, window: u64) -> (u32, u32) {
        let index = (window & ((1 << TABLE_BITS) - 1)) as usize;
        let entry = u32::from(self.entries.get(index).copied().unwrap_or(0));
        (entry >> 4, entry & 15)
    }

    /// The code of `gap` (first bit lowest) and its length, or `(0, 0)`
    /// when the table does not hold it.
    #[inline(always)]
    #[must_use]
    pub fn encode(&self, gap: u32) -> (u32, u32) {
        let entry = self
            .codes
            .get(gap.wrapping_sub(1) as usize)
            .copied()
            .unwrap_or(0);
        (
            entry & ((1 << TABLE_CODE_BITS) - 1),
            entry >> TABLE_CODE_BITS,
        )
    }
}

/// `gap` (in `1..=room`) as the Golomb code of `gap - 1` with parameter
/// `m` (0 counts as 1). Both sides refuse a gap outside `1..=room`
/// ([`DecodeError::OutOfRange`], at the code's first bit): the reader as
/// soon as the quotient alone passes `room`, then once the remainder does.
/// The tail travels as a reader takes it: its first `b - 1` bits, then,
/// when those say so, its last. A refused read leaves `gap` untouched.
#[inline]
pub fn serialize_golomb<S: Stream + ?Sized>(
    stream: &mut S,
    gap: &mut u32,
    m: u32,
    room: u32,
) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    let m = m.max(1);
    if S::IS_WRITING && !(1..=room).contains(gap) {
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    // A reader has no gap to code yet, and spends no division on one.
    let written = if S::IS_WRITING {
        code(gap.saturating_sub(1), m)
    } else {
        Code {
            quotient: 0,
            tail: 0,
            tail_bits: 0,
        }
    };
    let mut quotient = written.quotient;
    super::unary::serialize_unary(stream, &mut quotient, m, room)?;
    let mut remainder = 0;
    if m > 1 {
        let (b, short) = truncated_binary(m);
        let first = b.wrapping_sub(1);
        let mut high = written.tail & ((1u32 << (first & 31)).wrapping_sub(1));
        stream.serialize_bits(&mut high, first)?;
        remainder = high;
        if high >= short {
            let mut low = written.tail >> (first & 31);
            stream.serialize_bits(&mut low, 1)?;
            remainder = ((high << 1) | low).wrapping_sub(short);
        }
    }
    if S::IS_READING {
        let read = quotient
            .saturating_mul(m)
            .saturating_add(remainder)
            .saturating_add(1);
        if read > room {
            core::hint::cold_path();
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        *gap = read;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{ReadStream, WriteStream};

    /// A code of up to 64 bits is one word: 63 ones and the zero fill it;
    /// a longer code has none.
    #[test]
    fn a_code_of_64_bits_is_a_word_and_a_longer_one_is_not() {
        assert_eq!(code(62, 1).word(), Some(((1 << 62) - 1, 63)));
        assert_eq!(code(63, 1).word(), Some(((1 << 63) - 1, 64)));
        assert_eq!(code(64, 1).word(), None);
        // 60 ones, the zero, then remainder 5 of m = 8 in 3 bits: its high
        // two (0b10) first, its low bit (1) last, so the tail holds 0b110.
        let word = ((1u64 << 60) - 1) | (0b110 << 61);
        assert_eq!(code(60 * 8 + 5, 8).word(), Some((word, 64)));
    }

    /// The generic operation writes exactly [`code`]'s bits, and the
    /// table holds exactly the codes of at most its width, for every gap a
    /// table covers and parameters from 1 to past the table's reach.
    #[test]
    fn the_operation_and_the_tables_send_the_one_code() {
        for m in [
            0, 1, 2, 3, 5, 8, 11, 58, 82, 128, 2047, 2048, 4095, 4096, 5000,
        ] {
            let table = GolombTable::new(m);
            // The largest gap tested is the room: a reader that never
            // ran out of ones would stop there, not at u32::MAX.
            let room = TABLE_VALUES as u32 + 40;
            for gap in 1..=room {
                let mut buf = [0u8; 160];
                let mut stream = WriteStream::new(&mut buf);
                serialize_golomb(&mut stream, &mut gap.clone(), m, room).unwrap();
                let bits = stream.bit_offset();
                stream.finish();
                let c = code(gap - 1, m);
                assert_eq!(c.bits(), bits, "m {m} gap {gap}");
                if let Some((word, width)) = c.word() {
                    let low = u64::from_le_bytes(buf[..8].try_into().unwrap());
                    let mask = if width == 64 {
                        u64::MAX
                    } else {
                        (1 << width) - 1
                    };
                    assert_eq!(low & mask, word, "m {m} gap {gap}");
                    let (held, held_bits) = table.encode(gap);
                    let covered = gap as usize <= TABLE_VALUES && width <= TABLE_CODE_BITS;
                    assert_eq!(held_bits != 0, covered, "m {m} gap {gap}");
                    if covered {
                        assert_eq!((u64::from(held), held_bits), (word, width));
                    }
                    let (read, read_bits) = table.decode(word);
                    if width <= TABLE_BITS && gap < 1 << TABLE_BITS {
                        assert_eq!((read, read_bits), (gap, width), "m {m} gap {gap}");
                    } else {
                        assert_eq!(read_bits, 0, "m {m} gap {gap}");
                    }
                }
                let mut back = 0;
                let mut reader = ReadStream::new(&buf);
                serialize_golomb(&mut reader, &mut back, m, room).unwrap();
                assert_eq!(back, gap, "m {m}");
            }
        }
    }

    /// Every entry of a table is a code's or empty: a table that decoded
    /// a prefix wrongly, or left entries of a held code empty, fails.
    #[test]
    fn every_table_entry_is_the_code_it_starts_with() {
        for m in [1, 2, 3, 6, 21, 100, 128, 4095, 4096] {
            let table = GolombTable::new(m);
            let mut held = 0;
            for w in 0..1u64 << TABLE_BITS {
                let bytes = w.to_le_bytes();
                let mut reader = ReadStream::new(&bytes[..2]);
                let mut gap = 0;
                // Gaps past the table's are refused, not read: the room
                // also bounds the run of ones a reader takes.
                let read = serialize_golomb(&mut reader, &mut gap, m, (1 << TABLE_BITS) - 1)
                    .ok()
                    .map(|()| (gap, reader.bit_offset() as u32));
                match table.decode(w) {
                    (0, 0) => assert!(
                        read.is_none_or(|(_, bits)| bits > TABLE_BITS),
                        "m {m} w {w:#x}"
                    ),
                    entry => {
                        held += 1;
                        assert_eq!(Some(entry), read, "m {m} w {w:#x}");
                    }
                }
            }
            assert_eq!(held > 0, m < 4096, "m {m}");
        }
    }
}
