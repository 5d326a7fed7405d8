//! A Golomb code of a positive gap with parameter `m` (scene E's index
//! gaps): `gap - 1` as a unary quotient, then its remainder in truncated
//! binary. `crate::subset::golomb` documents the code.

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

/// The input bits a [`GolombTable`] decodes at once.
pub const TABLE_BITS: u32 = 12;

/// Every Golomb code of parameter `m` that takes at most [`TABLE_BITS`]
/// bits, decoded ahead of time: a reader looks its next bits up, where it
/// would count the quotient's ones and unpick the truncated binary, a
/// chain of about ten dependent operations between one gap's position and
/// the next (scene E's gaps; docs/BENCHMARKS.md, section 1). Entry `w` (the next
/// bits as a little-endian number, the first bit lowest) holds the gap of
/// the code `w` starts with, times 16, plus the code's length; 0 where that
/// code is longer than [`TABLE_BITS`]. 8 KiB a parameter.
///
/// The other way, a writer looks up the code of each `gap - 1` below
/// [`TABLE_VALUES`] that takes at most [`TABLE_CODE_BITS`] bits, where it
/// divided by `m`: the code, first bit lowest, plus its length times 2^27;
/// 0 where the code is longer. 4 KiB a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GolombTable {
    m: u32,
    entries: [u16; 1 << TABLE_BITS],
    codes: [u32; TABLE_VALUES],
}

/// The gaps a [`GolombTable`] codes: those of a set of up to 1024 slots.
pub const TABLE_VALUES: usize = 1024;

/// The longest code a [`GolombTable`] holds for a writer.
pub const TABLE_CODE_BITS: u32 = 27;

impl GolombTable {
    /// The table of parameter `m` (0 counts as 1). Built by the compiler:
    /// every table is a constant (an index out of bounds would fail the
    /// build, never a run).
    #[allow(clippy::indexing_slicing)]
    #[must_use]
    pub(crate) const fn new(m: u32) -> Self {
        let m = if m == 0 { 1 } else { m };
        let mut entries = [0u16; 1 << TABLE_BITS];
        let (b, short) = truncated_binary(m);
        // A remainder of b - 1 bits or more, its quotient's zero: past b =
        // TABLE_BITS no code fits, and every shift below stays under 32.
        if b > TABLE_BITS {
            return Self {
                m,
                entries,
                codes: [0; TABLE_VALUES],
            };
        }
        let mut w = 0u32;
        while w < (1 << TABLE_BITS) {
            let quotient = w.trailing_ones();
            let (remainder, remainder_bits) = if m == 1 {
                (0, 0)
            } else {
                let rest = (w >> quotient) >> 1;
                let first = b.wrapping_sub(1);
                let high = rest & ((1u32 << first).wrapping_sub(1));
                if high >= short {
                    let low = (rest >> first) & 1;
                    (((high << 1) | low).wrapping_sub(short), b)
                } else {
                    (high, first)
                }
            };
            let bits = quotient.wrapping_add(1).wrapping_add(remainder_bits);
            // At most (quotient + 1) * m <= 2^(quotient + b) <=
            // 2^TABLE_BITS when the code fits; a gap of 2^12 itself is left
            // to the slow path.
            let gap = (quotient as u64)
                .wrapping_mul(m as u64)
                .wrapping_add(remainder as u64)
                .wrapping_add(1);
            if bits <= TABLE_BITS && gap < (1 << 12) {
                entries[w as usize] = ((gap as u16) << 4) | bits as u16;
            }
            w = w.wrapping_add(1);
        }
        let mut codes = [0u32; TABLE_VALUES];
        let mut v = 0u32;
        while v < TABLE_VALUES as u32 {
            // What `serialize_golomb` writes: `quotient` ones, a zero, the
            // remainder's b - 1 bits, then maybe its last bit.
            // m is at least 1: the divisions always succeed.
            let (quotient, remainder) = match (v.checked_div(m), v.checked_rem(m)) {
                (Some(quotient), Some(remainder)) => (quotient, remainder),
                _ => (v, 0),
            };
            let (tail, tail_bits) = if m == 1 {
                (0, 0)
            } else if remainder < short {
                (remainder, b.wrapping_sub(1))
            } else {
                let coded = remainder.wrapping_add(short);
                ((coded >> 1) | ((coded & 1) << b.wrapping_sub(1)), b)
            };
            let bits = quotient.wrapping_add(1).wrapping_add(tail_bits);
            if bits <= TABLE_CODE_BITS {
                let ones = (1u32 << quotient).wrapping_sub(1);
                let code = ones | (tail << quotient.wrapping_add(1));
                codes[v as usize] = code | (bits << TABLE_CODE_BITS);
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
    /// lowest), or `(0, 0)` when the code is longer than [`TABLE_BITS`].
    #[inline(always)]
    #[must_use]
    pub fn decode(&self, window: u64) -> (u32, u32) {
        let index = (window & ((1 << TABLE_BITS) - 1)) as usize;
        let entry = u32::from(self.entries.get(index).copied().unwrap_or(0));
        (entry >> 4, entry & 15)
    }

    /// The code of `gap` (first bit lowest) and its length, or `(0, 0)`
    /// when `gap - 1` is not below [`TABLE_VALUES`] or its code is longer
    /// than [`TABLE_CODE_BITS`].
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
/// A refused read leaves `gap` untouched.
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
    // A reader has no gap to divide yet.
    let (mut quotient, mut remainder) = if S::IS_WRITING {
        let v = gap.saturating_sub(1);
        (v.checked_div(m).unwrap_or(0), v.checked_rem(m).unwrap_or(0))
    } else {
        (0, 0)
    };
    stream.serialize_unary(&mut quotient, m, room)?;
    if m > 1 {
        let (b, short) = truncated_binary(m);
        let mut high = if remainder < short {
            remainder
        } else {
            remainder.wrapping_add(short) >> 1
        };
        stream.serialize_bits(&mut high, b.wrapping_sub(1))?;
        if high >= short {
            let mut low = remainder.wrapping_add(short) & 1;
            stream.serialize_bits(&mut low, 1)?;
            remainder = ((high << 1) | low).wrapping_sub(short);
        } else {
            remainder = high;
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

    /// The table's codes against the code written field by field, for
    /// every gap a table holds and some past it, with rooms that refuse
    /// some and buffers too short for some: the same bytes, or the same
    /// refusal.
    #[test]
    fn a_table_writes_what_the_code_writes() {
        let params = [0, 1, 2, 3, 4, 6, 8, 11, 15, 21, 29, 41, 58, 82, 100, 128];
        for m in params.into_iter().chain([4095, 4096, 5000, u32::MAX]) {
            let table = GolombTable::new(m);
            let mut held = 0;
            for gap in 0..=(TABLE_VALUES as u32 + 40) {
                for room in [5, 300, u32::MAX] {
                    for buffer in [1usize, 3, 16] {
                        let (mut fast_buf, mut slow_buf) = (vec![0u8; buffer], vec![0u8; buffer]);
                        let mut fast = WriteStream::new(&mut fast_buf);
                        let mut slow = WriteStream::new(&mut slow_buf);
                        let mut lead = 5;
                        fast.serialize_bits(&mut lead, 3).unwrap();
                        slow.serialize_bits(&mut lead, 3).unwrap();
                        let (mut a, mut b) = (gap, gap);
                        let by_table = fast.serialize_golomb_table(&mut a, &table, room);
                        let by_code = serialize_golomb(&mut slow, &mut b, m, room);
                        assert_eq!(by_table, by_code, "m {m} gap {gap} room {room}");
                        let (fast_len, slow_len) = (fast.finish(), slow.finish());
                        assert_eq!(
                            fast_buf[..fast_len],
                            slow_buf[..slow_len],
                            "m {m} gap {gap}"
                        );
                    }
                }
                // The table holds a gap's code exactly when the gap is
                // one it covers and the code takes at most TABLE_CODE_BITS
                // bits (for the parameters of remainders of up to 12 bits,
                // which it is built for), and holds those bits.
                let mut buf = [0u8; 160];
                let mut alone = WriteStream::new(&mut buf);
                let written = serialize_golomb(&mut alone, &mut gap.clone(), m, u32::MAX)
                    .map(|()| alone.bit_offset());
                let (code, bits) = table.encode(gap);
                let short = written.is_ok_and(|w| w <= u64::from(TABLE_CODE_BITS));
                if m <= 4096 && (1..=TABLE_VALUES as u32).contains(&gap) {
                    assert_eq!(bits != 0, short, "m {m} gap {gap}");
                }
                if bits != 0 {
                    held += 1;
                    assert_eq!(Ok(u64::from(bits)), written, "m {m} gap {gap}");
                    assert!(u64::from(code) < 1 << bits);
                }
            }
            assert_eq!(held > 0, m <= 4096, "m {m}");
        }
    }

    /// The table path against the code read field by field, for every
    /// `TABLE_BITS`-bit start of the input, behind two different runs of
    /// later bits, at two bit offsets, with rooms that cut codes short or
    /// let them through, in inputs that hold the code with bytes to spare,
    /// in their last eight bytes, or not whole: the same gap or refusal,
    /// the same bits read. And
    /// the tables do hold codes (a table that missed everything would pass
    /// the rest through the slow path).
    #[test]
    fn a_table_reads_what_the_code_reads() {
        let params = [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 15, 21, 29, 41, 58, 64, 82, 100, 128,
        ];
        let more = [1000, 2047, 2048, 2049, 4096, 5000, u32::MAX];
        for m in params.into_iter().chain(more) {
            let table = GolombTable::new(m);
            let mut hits = 0u32;
            for w in 0..(1u64 << TABLE_BITS) {
                for high in [0u64, u64::MAX] {
                    for skip in [0u32, 5] {
                        for (room, cut) in [1, 2, 9, 100, 640, u32::MAX]
                            .into_iter()
                            .flat_map(|room| [16, 9, 3, 2].map(|cut| (room, cut)))
                        {
                            let word = (w | high << TABLE_BITS) << skip;
                            let mut bytes = word.to_le_bytes().to_vec();
                            bytes.extend_from_slice(&high.to_le_bytes());
                            // Whole, or cut so that the code lies in the
                            // input's last eight bytes, or past its end.
                            let bytes = &bytes[..cut];
                            let mut fast = ReadStream::new(bytes);
                            let mut slow = ReadStream::new(bytes);
                            let mut lead = 0;
                            fast.serialize_bits(&mut lead, skip).unwrap();
                            slow.serialize_bits(&mut lead, skip).unwrap();
                            let (mut a, mut b) = (7u32, 7u32);
                            let by_table = fast.serialize_golomb_table(&mut a, &table, room);
                            let by_code = serialize_golomb(&mut slow, &mut b, m, room);
                            assert_eq!(by_table, by_code, "m {m} w {w:#x} room {room}");
                            assert_eq!(a, b, "m {m} w {w:#x} room {room}");
                            assert_eq!(fast.bit_offset(), slow.bit_offset());
                        }
                    }
                }
                let (gap, bits) = table.decode(w);
                if bits != 0 {
                    hits += 1;
                    assert!(gap >= 1 && bits <= TABLE_BITS);
                }
            }
            // Below 4096 the shortest code (a zero, then at most 11 bits
            // of remainder) fits; from 4096 on, none does.
            assert_eq!(hits > 0, m < 4096, "m {m}: {hits} codes in the table");
        }
    }
}
