//! Truncated codes: a value in a known range, in as few bits as a
//! complete prefix code allows. Every bit string a reader takes decodes to
//! one value in range, so a reader of these codes refuses nothing but a
//! short input, and accepts only what a writer writes.
//!
//! - [`serialize_truncated_binary`]: `value` in `0..span`. With
//!   `b = bits_required(0, span - 1)` and `short = 2^b - span`, a value below
//!   `short` takes `b - 1` bits; any other is sent as `value + short`, its
//!   high `b - 1` bits first, then its low bit (so a reader knows from the
//!   first `b - 1` bits whether one more follows).
//! - [`serialize_truncated_golomb`]: `value` in `0..=max` as a Golomb code
//!   of parameter `m` cut to `max`: `value / m` one-bits, a zero-bit unless
//!   the quotient is `max / m` (the last bucket), then `value % m` in
//!   truncated binary over `m`, or over what the last bucket holds,
//!   `max - (max / m) m + 1`.

use crate::bits::{low_mask_of, BitReader};
use crate::divide::divide;
use crate::error::DecodeError;
use crate::stream::{HotPath, ReadStream, Stream, WriteStream, TOKEN};

/// `b` (the bits of `span - 1`, at least 1) and `short = 2^b - span`, for
/// a span of at least 2.
#[inline(always)]
#[must_use]
pub const fn truncated_shape(span: u64) -> (u32, u64) {
    let b = u64::BITS.wrapping_sub(span.wrapping_sub(1).leading_zeros());
    // 2^64 wraps to 0, and 0 - span is then 2^64 - span, as wanted.
    let power = match 1u64.checked_shl(b) {
        Some(power) => power,
        None => 0,
    };
    (b, power.wrapping_sub(span))
}

/// Bits the truncated binary code of `value` in `0..span` takes.
#[inline]
#[must_use]
pub const fn truncated_binary_bits(value: u64, span: u64) -> u32 {
    if span <= 1 {
        return 0;
    }
    let (b, short) = truncated_shape(span);
    if value < short {
        b.wrapping_sub(1)
    } else {
        b
    }
}

/// `value` in `0..span` in truncated binary (module docs). A span of 0 or
/// 1 sends nothing, and a reader gets 0. A writer refuses a value outside
/// the span ([`DecodeError::OutOfRange`]); a reader's value is always in
/// it. A refused read leaves `value` untouched. Always inlined, as
/// [`serialize_truncated_golomb`] is.
#[inline(always)]
pub fn serialize_truncated_binary<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut u64,
    span: u64,
) -> Result<(), S::Error> {
    if S::IS_WRITING && *value >= span.max(1) {
        return Err(stream.refuse(DecodeError::OutOfRange {
            at: stream.bit_offset(),
        }));
    }
    if span <= 1 {
        if S::IS_READING {
            *value = 0;
        }
        return Ok(());
    }
    let code = Code::Binary {
        span,
        value: *value,
    };
    if let Some(Some(read)) = stream.concrete(TOKEN, code) {
        if S::IS_READING {
            *value = read;
        }
        return Ok(());
    }
    binary_field_by_field(stream, value, span)
}

/// A reader's [`serialize_truncated_binary`] a field at a time (a span of
/// at least 2), out of line.
#[inline(never)]
fn binary_field_by_field<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut u64,
    span: u64,
) -> Result<(), S::Error> {
    let (b, short) = truncated_shape(span);
    let first = b.wrapping_sub(1);
    // A writer's word: the high bits, and the low bit above them.
    let (mut high, mut low) = if S::IS_WRITING {
        let (word, _) = binary_word(*value, span);
        let low = word.checked_shr(first).unwrap_or(0) & 1;
        (word & low_mask_of(first), low as u32)
    } else {
        (0, 0)
    };
    if first > 0 {
        stream.serialize_bits64(&mut high, first)?;
    }
    if high < short {
        if S::IS_READING {
            *value = high;
        }
        return Ok(());
    }
    stream.serialize_bits(&mut low, 1)?;
    if S::IS_READING {
        // The low bit joins below the high ones: an add that never carries.
        *value = (high << 1).wrapping_add(u64::from(low)).wrapping_sub(short);
    }
    Ok(())
}

/// `value` in `0..=max` as a Golomb code of parameter `m` (0 counts as 1)
/// cut to `max` (module docs). A writer refuses a value above `max`
/// ([`DecodeError::OutOfRange`]); a reader takes at most `max / m` one-bits
/// and its value is always in range. A refused read leaves `value`
/// untouched. Always inlined: a subset reads one per item, and a call
/// would pin the reader in memory.
#[inline(always)]
pub fn serialize_truncated_golomb<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut u32,
    m: u32,
    max: u32,
) -> Result<(), S::Error> {
    let m = m.max(1);
    if S::IS_READING {
        let code = Code::Golomb { m, max, value: 0 };
        if let Some(Some(read)) = stream.concrete(TOKEN, code) {
            // Within `0..=max`, a `u32`.
            *value = read as u32;
            return Ok(());
        }
        return golomb_field_by_field(stream, value, m, max);
    }
    if *value > max {
        return Err(stream.refuse(DecodeError::OutOfRange {
            at: stream.bit_offset(),
        }));
    }
    let code = Code::Golomb {
        m,
        max,
        value: *value,
    };
    if let Some(Some(_)) = stream.concrete(TOKEN, code) {
        return Ok(());
    }
    golomb_field_by_field(stream, value, m, max)
}

/// [`serialize_truncated_golomb`] a field at a time: the statement of the
/// code, which every other path matches; kept out of line.
#[inline(never)]
fn golomb_field_by_field<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut u32,
    m: u32,
    max: u32,
) -> Result<(), S::Error> {
    // `m >= 1`, so neither division can fail.
    let last = max.checked_div(m).unwrap_or(0);
    let mut quotient = if S::IS_WRITING {
        value.checked_div(m).unwrap_or(0)
    } else {
        0
    };
    if S::IS_WRITING {
        for _ in 0..quotient {
            stream.serialize_bool(&mut true)?;
        }
        if quotient < last {
            stream.serialize_bool(&mut false)?;
        }
    } else {
        for _ in 0..last {
            let mut one = false;
            stream.serialize_bool(&mut one)?;
            if !one {
                break;
            }
            quotient = quotient.wrapping_add(1);
        }
    }
    // `quotient <= max / m`, so `quotient * m <= max`.
    let base = quotient.wrapping_mul(m);
    let span = if quotient < last {
        m
    } else {
        max.wrapping_sub(base).wrapping_add(1)
    };
    let mut remainder = u64::from(value.wrapping_sub(base));
    serialize_truncated_binary(stream, &mut remainder, u64::from(span))?;
    if S::IS_READING {
        *value = base.wrapping_add(remainder as u32);
    }
    Ok(())
}

/// Bits [`serialize_truncated_golomb`] writes for `value`.
#[must_use]
pub fn truncated_golomb_bits(value: u32, m: u32, max: u32) -> u64 {
    let m = m.max(1);
    let last = max.checked_div(m).unwrap_or(0);
    let quotient = value.checked_div(m).unwrap_or(0).min(last);
    let base = quotient.wrapping_mul(m);
    let (span, stop) = if quotient < last {
        (m, 1)
    } else {
        (max.wrapping_sub(base).wrapping_add(1), 0)
    };
    let tail = truncated_binary_bits(u64::from(value.wrapping_sub(base)), u64::from(span));
    u64::from(quotient)
        .saturating_add(stop)
        .saturating_add(u64::from(tail))
}

/// The whole cut Golomb code of `value` (at most `max`) as one word,
/// first bit lowest, and its length, where it takes 1 to 57 bits: what
/// the field-by-field code writes, in one write.
#[inline(always)]
pub(crate) fn golomb_word(value: u32, m: u32, max: u32) -> Option<(u64, u32)> {
    let quotient = divide(value, m)?;
    let base = quotient.wrapping_mul(m);
    // Before the last bucket exactly when the next bucket starts within
    // `max`: one division, not two.
    let next = u64::from(base).wrapping_add(u64::from(m));
    let (span, stop) = if next <= u64::from(max) {
        (m, 1)
    } else {
        (max.wrapping_sub(base).wrapping_add(1), 0)
    };
    let head = quotient.saturating_add(stop);
    let remainder = u64::from(value.wrapping_sub(base));
    let (tail, tail_bits) = binary_word(remainder, u64::from(span));
    let bits = head.saturating_add(tail_bits);
    if bits > BitReader::MAX_WIDE_BITS {
        return None;
    }
    // `head < 57`, so neither shift loses a bit.
    // The tail lies above the ones: an add that never carries.
    Some((low_mask_of(quotient).wrapping_add(tail << head), bits))
}

/// [`golomb_word`] where `m` is 1 (the parameter of sets near half full):
/// `value` (at most `max`) ones, then a zero unless `value` is `max`,
/// without the division and the empty remainder. Not a branch inside
/// `golomb_word`: in a loop of sparse gaps, which never take it, its
/// registers pushed the loop's counters to the stack.
#[inline(always)]
pub(crate) fn unary_word(value: u32, max: u32) -> Option<(u64, u32)> {
    let bits = value.wrapping_add(u32::from(value < max));
    (bits <= BitReader::MAX_WIDE_BITS).then(|| (low_mask_of(value), bits))
}

/// [`golomb_from`] where `m` is 1: the window's run of ones and the zero
/// after it, or `max` ones where the run reaches `max`. Not a branch inside
/// `golomb_from`, for the reason [`unary_word`] is not one in `golomb_word`.
#[inline(always)]
pub(crate) fn unary_from(window: u64, max: u32) -> Option<(u64, u32)> {
    let value = (!window).trailing_zeros().min(max);
    let bits = value.wrapping_add(u32::from(value < max));
    (bits <= BitReader::MAX_WIDE_BITS).then_some((u64::from(value), bits))
}

/// The truncated binary code of `value` in `0..span` as a word, first bit
/// lowest, and its length: the high `b - 1` bits of `value + short` as
/// themselves, then its low bit, where the value is not below `short`.
#[inline(always)]
pub(crate) fn binary_word(value: u64, span: u64) -> (u64, u32) {
    if span <= 1 {
        return (0, 0);
    }
    let (b, short) = truncated_shape(span);
    let first = b.wrapping_sub(1);
    if value < short {
        return (value, first);
    }
    let coded = value.wrapping_add(short);
    let low = (coded & 1).checked_shl(first).unwrap_or(0);
    ((coded >> 1).wrapping_add(low), b)
}

/// The truncated binary code of `window`'s first bits (a value in
/// `0..span`), and its length, where it lies within them.
#[inline(always)]
pub(crate) fn binary_from(window: u64, span: u64, room: u32) -> Option<(u64, u32)> {
    if span <= 1 {
        return Some((0, 0));
    }
    let (b, short) = truncated_shape(span);
    if b > room {
        return None;
    }
    let first = b.wrapping_sub(1);
    let high = window & low_mask_of(first);
    if high < short {
        return Some((high, first));
    }
    let low = window.checked_shr(first).unwrap_or(0) & 1;
    Some(((high << 1).wrapping_add(low).wrapping_sub(short), b))
}

/// One truncated code on a concrete stream: read from one window, where
/// the input holds the whole code, or written as one word, where it fits
/// one (a cut Golomb code of at most 57 bits, a truncated binary code of
/// at most 64) and the room holds it. Elsewhere `None`, and the
/// field-by-field code, which every other stream takes (so that a field
/// map shows the pieces a reader reads), goes on from there.
enum Code {
    /// [`serialize_truncated_binary`]'s code of `value` (a writer's)
    /// over `span`.
    Binary { span: u64, value: u64 },
    /// [`serialize_truncated_golomb`]'s code of `value` (a writer's; `m`
    /// at least 1).
    Golomb { m: u32, max: u32, value: u32 },
}

impl HotPath for Code {
    type Output = Option<u64>;

    #[inline(always)]
    fn read(self, stream: &mut ReadStream<'_>) -> Option<u64> {
        let reader = stream.reader();
        let window = reader.window64()?;
        let (value, bits) = match self {
            Self::Binary { span, .. } => binary_from(window, span, BitReader::MAX_WIDE_BITS)?,
            Self::Golomb { m, max, .. } => golomb_from(window, m, max)?,
        };
        reader.advance(bits);
        Some(value)
    }

    /// The code's word, `Some(0)` once written.
    #[inline(always)]
    fn write(self, stream: &mut WriteStream<'_>) -> Option<u64> {
        let (word, bits) = match self {
            Self::Binary { span, value } => binary_word(value, span),
            Self::Golomb { m, max, value } => golomb_word(value, m, max)?,
        };
        stream.writer().write_wide(word, bits).then_some(0)
    }
}

/// The cut Golomb code `window` starts with, and its length, where it lies
/// within the window's first [`BitReader::MAX_WIDE_BITS`] bits.
#[inline(always)]
pub(crate) fn golomb_from(window: u64, m: u32, max: u32) -> Option<(u64, u32)> {
    let ones = (!window).trailing_zeros();
    // Before the last bucket exactly when `(ones + 1) m <= max`: then a
    // zero ends the run, and no division is needed to know it.
    let next = u64::from(ones)
        .saturating_add(1)
        .saturating_mul(u64::from(m));
    let (quotient, stop, span) = if next <= u64::from(max) {
        (ones, 1, m)
    } else {
        let last = divide(max, m)?;
        let base = last.wrapping_mul(m);
        (last, 0, max.wrapping_sub(base).wrapping_add(1))
    };
    let head = quotient.wrapping_add(stop);
    let room = BitReader::MAX_WIDE_BITS.checked_sub(head)?;
    let tail = window.checked_shr(head).unwrap_or(0);
    let (remainder, tail_bits) = binary_from(tail, u64::from(span), room)?;
    let value = u64::from(quotient.wrapping_mul(m)).wrapping_add(remainder);
    Some((value, head.wrapping_add(tail_bits)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{MeasureStream, ReadStream, WriteStream};

    fn write_binary(value: u64, span: u64) -> (Vec<u8>, u64) {
        let mut buf = vec![0u8; 16];
        let mut stream = WriteStream::new(&mut buf);
        serialize_truncated_binary(&mut stream, &mut value.clone(), span).unwrap();
        let bits = stream.bit_offset();
        stream.finish();
        (buf, bits)
    }

    /// Every value of a span takes its stated length and reads back; the
    /// codes are prefix-free and fill the code space (Kraft sum exactly 1),
    /// so every bit string decodes to one value in range.
    #[test]
    fn truncated_binary_is_a_complete_code() {
        for span in [2u64, 3, 5, 7, 8, 9, 100, 1025, 4096, 4097] {
            let mut kraft = 0f64;
            for value in 0..span {
                let (buf, bits) = write_binary(value, span);
                assert_eq!(bits, u64::from(truncated_binary_bits(value, span)));
                kraft += (-(bits as f64)).exp2();
                let mut back = 0;
                serialize_truncated_binary(&mut ReadStream::new(&buf), &mut back, span).unwrap();
                assert_eq!(back, value, "span {span}");
            }
            assert!((kraft - 1.0).abs() < 1e-12, "span {span}: {kraft}");
        }
        // Whatever the reader is given, its value is in range.
        for span in [3u64, 5, 6, 1025] {
            for word in 0..4096u16 {
                let bytes = word.to_le_bytes();
                let mut value = u64::MAX;
                serialize_truncated_binary(&mut ReadStream::new(&bytes), &mut value, span).unwrap();
                assert!(value < span);
            }
        }
    }

    /// Spans past 32 bits, up to the largest: the two halves of a wide
    /// code travel through `serialize_bits64`.
    #[test]
    fn wide_spans_read_back() {
        let c_64_32 = 1_832_624_140_942_590_534u64;
        for (value, span) in [
            (0, c_64_32),
            (c_64_32 - 1, c_64_32),
            (1 << 40, c_64_32),
            (u64::MAX - 1, u64::MAX),
            (0, u64::MAX),
            ((1 << 63) + 5, u64::MAX),
        ] {
            let (buf, bits) = write_binary(value, span);
            assert_eq!(bits, u64::from(truncated_binary_bits(value, span)));
            let mut back = 0;
            serialize_truncated_binary(&mut ReadStream::new(&buf), &mut back, span).unwrap();
            assert_eq!(back, value);
        }
    }

    #[test]
    fn a_span_of_one_sends_nothing_and_writers_refuse_values_past_the_span() {
        let (_, bits) = write_binary(0, 1);
        assert_eq!(bits, 0);
        let mut value = 7;
        serialize_truncated_binary(&mut ReadStream::new(&[]), &mut value, 1).unwrap();
        assert_eq!(value, 0);
        let mut buf = [0u8; 8];
        let mut stream = WriteStream::new(&mut buf);
        assert_eq!(
            serialize_truncated_binary(&mut stream, &mut 5, 5),
            Err(crate::EncodeError::Invalid(DecodeError::OutOfRange {
                at: 0
            }))
        );
        let mut stream = WriteStream::new(&mut buf);
        assert_eq!(
            serialize_truncated_golomb(&mut stream, &mut 11, 3, 10),
            Err(crate::EncodeError::Invalid(DecodeError::OutOfRange {
                at: 0
            }))
        );
    }

    /// The cut Golomb code: lengths as counted, values back, a complete
    /// code (Kraft sum 1), and at most `max / m` ones read.
    #[test]
    fn truncated_golomb_is_a_complete_code() {
        for max in [0u32, 1, 2, 5, 17, 63, 64, 100, 1023] {
            for m in [0u32, 1, 2, 3, 5, 8, 13, 64, 100, 2000] {
                let mut kraft = 0f64;
                for value in 0..=max {
                    let mut buf = vec![0u8; 160];
                    let mut stream = WriteStream::new(&mut buf);
                    serialize_truncated_golomb(&mut stream, &mut value.clone(), m, max).unwrap();
                    let bits = stream.bit_offset();
                    stream.finish();
                    assert_eq!(
                        bits,
                        truncated_golomb_bits(value, m, max),
                        "{value} {m} {max}"
                    );
                    let mut measure = MeasureStream::new();
                    serialize_truncated_golomb(&mut measure, &mut value.clone(), m, max).unwrap();
                    assert_eq!(measure.bit_offset(), bits);
                    kraft += (-(bits as f64)).exp2();
                    let mut back = u32::MAX;
                    let mut reader = ReadStream::new(&buf);
                    serialize_truncated_golomb(&mut reader, &mut back, m, max).unwrap();
                    assert_eq!((back, reader.bit_offset()), (value, bits), "{m} {max}");
                }
                assert!((kraft - 1.0).abs() < 1e-9, "m {m} max {max}: {kraft}");
            }
        }
        // All ones: the reader stops at the last bucket, in range.
        let ones = [0xFFu8; 160];
        for (m, max) in [(1u32, 1000u32), (3, 100), (7, 7)] {
            let mut value = 0;
            serialize_truncated_golomb(&mut ReadStream::new(&ones), &mut value, m, max).unwrap();
            assert!(value <= max);
            assert!(value >= max / m * m);
        }
    }

    /// The unary shortcuts give what the Golomb code of parameter 1 gives:
    /// the same value and length, and `None` at the same lengths (past 57
    /// bits), for every run of ones and every `max` around the boundary.
    #[test]
    fn unary_codes_are_the_golomb_codes_of_parameter_one() {
        for max in 0..=70u32 {
            for value in 0..=max {
                assert_eq!(
                    unary_word(value, max),
                    golomb_word(value, 1, max),
                    "{value} {max}"
                );
            }
            for ones in 0..=64u32 {
                // `ones` ones, then a zero, then ones again above it.
                let window = match u64::MAX.checked_shl(ones + 1) {
                    _ if ones == 64 => u64::MAX,
                    above => low_mask_of(ones) | above.unwrap_or(0),
                };
                assert_eq!((!window).trailing_zeros(), ones);
                assert_eq!(
                    unary_from(window, max),
                    golomb_from(window, 1, max),
                    "{ones} {max}"
                );
            }
        }
        // Both ends of the length limit, and past it.
        assert_eq!(unary_word(56, 57), Some((low_mask_of(56), 57)));
        assert_eq!(unary_word(57, 57), Some((low_mask_of(57), 57)));
        assert_eq!(unary_word(57, 58), None);
        assert_eq!(unary_from(low_mask_of(56), 60), Some((56, 57)));
        assert_eq!(unary_from(low_mask_of(57), 57), Some((57, 57)));
        assert_eq!(unary_from(low_mask_of(57), 60), None);
    }
}
