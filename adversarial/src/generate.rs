//! Stream programs from `arbitrary` bytes: the "stream" target's fixed
//! message with random values, and random programs of every operation for
//! the stream round-trip fuzz target. (The protocols' values come from
//! their own `Arbitrary` implementations, which the derive writes.)

use arbitrary::{Result, Unstructured};
use codec::program::{Field, Program};
use codec::{CompressedFloat, Fixed};

use codec::arbitrary::ranged;

fn code(u: &mut Unstructured<'_>, format: &CompressedFloat) -> Result<u32> {
    ranged(u, 0, format.max_integer_value())
}

fn fixed(integer_bits: u32, fraction_bits: u32, min: i128, max: i128) -> Fixed {
    Fixed::new(integer_bits, fraction_bits, min, max)
        .unwrap_or_else(|| unreachable!("the stream message's fixed declarations are valid"))
}

/// The "stream" target's message with blank values: every operation of
/// format 1.1 in one fixed layout (the conformance suite's golden message,
/// with two serialize checks and two more strings added), so its reader
/// needs no schema on the wire.
#[must_use]
pub fn stream_message_layout() -> Program {
    let bits = |bits| Field::Bits { bits, value: 0 };
    let int = |min, max| Field::Int {
        min,
        max,
        value: min,
    };
    let fixed_field = |f: Fixed| Field::Fixed {
        format: f,
        raw: f.raw_min(),
    };
    Program(vec![
        bits(4),
        bits(11),
        bits(24),
        bits(32),
        int(-100, 100),
        int(i32::MIN, i32::MAX),
        Field::Bool(false),
        Field::Float { bits: 0 },
        Field::CompressedCode {
            format: CompressedFloat::new(0.0, 10.0, 0.01),
            code: 0,
        },
        Field::Double { bits: 0 },
        bits(8),
        bits(16),
        bits(32),
        bits(64),
        // Our message promises one encoding per value, so it reads the
        // relative ints with the canonical rule (format 1.1 alone would
        // accept the absolute tier for any difference).
        Field::IntRelativeCanonical {
            previous: 100,
            value: 101,
        },
        Field::IntRelativeCanonical {
            previous: 100,
            value: 101,
        },
        Field::Align,
        Field::Bytes(vec![0; 7]),
        Field::Check("mid message"),
        Field::String {
            buffer_size: 16,
            value: String::new(),
        },
        Field::WString {
            buffer_size: 8,
            units: Vec::new(),
        },
        // Buffers whose last length is not all ones, so that a length past
        // the buffer is expressible.
        Field::String {
            buffer_size: 10,
            value: String::new(),
        },
        Field::WString {
            buffer_size: 5,
            units: Vec::new(),
        },
        Field::Align,
        fixed_field(fixed(8, 8, -100, 100)),
        fixed_field(fixed(16, 16, -2000, 2000)),
        fixed_field(fixed(48, 16, -100_000, 100_000)),
        fixed_field(fixed(16, 16, 0, 30_000)),
        Field::Align,
        fixed_field(fixed(112, 16, -(1 << 57), 1 << 57)),
        fixed_field(fixed(64, 64, i128::from(i64::MIN), i128::from(i64::MAX))),
        Field::Check("end of message"),
    ])
}

fn text(u: &mut Unstructured<'_>, max_len: usize) -> Result<String> {
    let mut s = String::new();
    while s.len() < max_len && !u.is_empty() && u.ratio(7, 8)? {
        let c: char = u.arbitrary()?;
        if c != '\0' && s.len() + c.len_utf8() <= max_len {
            s.push(c);
        }
    }
    Ok(s)
}

/// Random values for [`stream_message_layout`].
pub fn stream_message(u: &mut Unstructured<'_>) -> Result<Program> {
    let mut program = stream_message_layout();
    for field in &mut program.0 {
        match field {
            Field::Bits { bits, value } => {
                let raw: u64 = u.arbitrary()?;
                *value = if *bits == 64 {
                    raw
                } else {
                    raw & ((1u64 << *bits) - 1)
                };
            }
            Field::Int { min, max, value } => *value = ranged(u, *min, *max)?,
            Field::Bool(b) => *b = u.arbitrary()?,
            Field::Float { bits } => *bits = u.arbitrary()?,
            Field::Double { bits } => *bits = u.arbitrary()?,
            Field::CompressedCode { format, code: c } => *c = code(u, format)?,
            Field::IntRelative { previous, value }
            | Field::IntRelativeCanonical { previous, value } => {
                let difference = match u.int_in_range(0..=6u8)? {
                    0 => 1,
                    1 => u.int_in_range(2..=6)?,
                    2 => u.int_in_range(7..=23)?,
                    3 => u.int_in_range(24..=280)?,
                    4 => u.int_in_range(281..=4377)?,
                    5 => u.int_in_range(4378..=69914)?,
                    _ => u.int_in_range(69915..=i32::MAX - *previous)?,
                };
                *value = *previous + difference;
            }
            Field::Bytes(bytes) => u.fill_buffer(bytes)?,
            Field::String { buffer_size, value } => {
                *value = text(u, *buffer_size as usize - 1)?;
            }
            Field::WString { buffer_size, units } => {
                let max = *buffer_size as usize - 1;
                let s = text(u, max)?;
                *units = s.encode_utf16().take(max).collect();
                // A cut surrogate pair would be invalid: drop a lone high half.
                if units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
                    units.pop();
                }
            }
            Field::Fixed { format, raw } => {
                let span = (format.raw_max() as u128).wrapping_sub(format.raw_min() as u128);
                let pick: u128 = u.arbitrary()?;
                let offset = match u.int_in_range(0..=3u8)? {
                    0 => 0,
                    1 => span,
                    _ if span == u128::MAX => pick,
                    _ => pick % (span + 1),
                };
                *raw = (format.raw_min() as u128).wrapping_add(offset) as i128;
            }
            _ => {}
        }
    }
    Ok(program)
}

/// A random program: random operations with random declarations and
/// values, for the stream round-trip fuzz target.
pub fn any_program(u: &mut Unstructured<'_>) -> Result<Program> {
    let mut fields = Vec::new();
    while !u.is_empty() && fields.len() < 64 {
        fields.push(any_field(u)?);
    }
    Ok(Program(fields))
}

fn any_field(u: &mut Unstructured<'_>) -> Result<Field> {
    Ok(match u.int_in_range(0..=15u8)? {
        0 => {
            let bits = u.int_in_range(1..=64u32)?;
            let raw: u64 = u.arbitrary()?;
            Field::Bits {
                bits,
                value: if bits == 64 {
                    raw
                } else {
                    raw & ((1 << bits) - 1)
                },
            }
        }
        1 => Field::Bool(u.arbitrary()?),
        2 => {
            let (a, b): (i32, i32) = u.arbitrary()?;
            let (min, max) = (a.min(b), a.max(b));
            Field::Int {
                min,
                max,
                value: ranged(u, min, max)?,
            }
        }
        3 => {
            let (a, b): (i64, i64) = u.arbitrary()?;
            let (min, max) = (a.min(b), a.max(b));
            let value = match u.int_in_range(0..=2u8)? {
                0 => min,
                1 => max,
                _ => u.int_in_range(min..=max)?,
            };
            Field::Int64 { min, max, value }
        }
        4 => {
            let (a, b): (i128, i128) = u.arbitrary()?;
            Field::int128_between(a, b, u.arbitrary()?)
        }
        5 => Field::Uint128(u.arbitrary()?),
        6 => Field::Float {
            bits: u.arbitrary()?,
        },
        7 => Field::Double {
            bits: u.arbitrary()?,
        },
        8 => {
            let format = *u.choose(&[
                CompressedFloat::new(-1000.0, 1000.0, 0.001),
                CompressedFloat::new(0.0, 10.0, 0.01),
                CompressedFloat::new(0.0, 16_777_215.0, 1.0),
                CompressedFloat::new(0.0, 1.0, 2.0),
            ])?;
            Field::CompressedCode {
                format,
                code: code(u, &format)?,
            }
        }
        9 => Field::Align,
        10 => {
            let len = u.int_in_range(0..=24usize)?;
            let mut bytes = vec![0; len];
            u.fill_buffer(&mut bytes)?;
            Field::Bytes(bytes)
        }
        11 => {
            let buffer_size = u.int_in_range(1..=64u32)?;
            Field::String {
                buffer_size,
                value: text(u, buffer_size as usize - 1)?,
            }
        }
        12 => {
            let buffer_size = u.int_in_range(1..=32u32)?;
            let max = buffer_size as usize - 1;
            let mut units: Vec<u16> = text(u, max)?.encode_utf16().take(max).collect();
            if units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
                units.pop();
            }
            Field::WString { buffer_size, units }
        }
        13 => {
            let previous = u.int_in_range(0..=i32::MAX - 1)?;
            let value = u.int_in_range(previous + 1..=i32::MAX)?;
            Field::IntRelative { previous, value }
        }
        14 => Field::Check(u.choose(&["end of packet", "object", "a", ""])?),
        _ => {
            let fixed_format = *u.choose(&[
                fixed(8, 8, -100, 100),
                fixed(16, 16, 0, 30_000),
                fixed(64, 64, i128::from(i64::MIN), i128::from(i64::MAX)),
            ])?;
            let span =
                (fixed_format.raw_max() as u128).wrapping_sub(fixed_format.raw_min() as u128);
            let pick: u128 = u.arbitrary()?;
            Field::Fixed {
                format: fixed_format,
                raw: (fixed_format.raw_min() as u128).wrapping_add(pick % (span + 1)) as i128,
            }
        }
    })
}
