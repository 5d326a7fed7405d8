//! Stream programs: the format's operations as data.
//!
//! A [`Program`] is a sequence of [`Field`]s, each an operation with its
//! declaration and its value, decided at run time. It is how the conformance
//! vectors are replayed, how property tests and fuzzers build random streams,
//! and how another implementation can be compared with this one operation by
//! operation. To read, build the program with the declarations you expect and
//! any values (see [`Field::blank`]); a successful read replaces the values.

use crate::stream::ops::compressed_float::CompressedFloat;
use crate::stream::ops::fixed::Fixed;
use crate::stream::{Serialize, Stream};

/// One operation of the format, with its declaration and value.
///
/// Floats are kept as their IEEE-754 bit patterns so that equality is exact
/// (NaN payloads and -0.0 included).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // each field is named after the operation's parameter
pub enum Field {
    /// `bits` in `1..=64`.
    Bits {
        bits: u32,
        value: u64,
    },
    Bool(bool),
    Int {
        min: i32,
        max: i32,
        value: i32,
    },
    Int64 {
        min: i64,
        max: i64,
        value: i64,
    },
    Int128 {
        min: i128,
        max: i128,
        value: i128,
    },
    Uint128(u128),
    /// The raw stored integer.
    Fixed {
        format: Fixed,
        raw: i128,
    },
    Float {
        bits: u32,
    },
    Double {
        bits: u64,
    },
    /// A float written through quantization: a read yields the dequantized
    /// value, so a round trip is exact only for values on a quantum.
    CompressedFloat {
        format: CompressedFloat,
        bits: u32,
    },
    /// A compressed float kept as its wire code, so that it re-encodes
    /// exactly.
    CompressedCode {
        format: CompressedFloat,
        code: u32,
    },
    /// A unary count with `count * unit` below `room`
    /// ([`crate::stream::ops::unary::serialize_unary`]).
    Unary {
        unit: u32,
        room: u32,
        count: u32,
    },
    /// A gap in `1..=room` as a Golomb code with parameter `m`
    /// ([`crate::stream::ops::golomb::serialize_golomb`]).
    Golomb {
        m: u32,
        room: u32,
        gap: u32,
    },
    Align,
    Bytes(Vec<u8>),
    String {
        buffer_size: u32,
        value: String,
    },
    WString {
        buffer_size: u32,
        units: Vec<u16>,
    },
    IntRelative {
        previous: i32,
        value: i32,
    },
    /// `int_relative` read with the canonical rule: one encoding per value.
    IntRelativeCanonical {
        previous: i32,
        value: i32,
    },
    Check(&'static str),
    /// A nested object, which adds no bits of its own.
    Object(Vec<Field>),
}

impl Field {
    /// An `int128` over the range between `a` and `b`, whichever is
    /// lower, holding the value `pick` lands on: how generators draw a
    /// value in any range, the whole of `i128` included.
    #[must_use]
    pub const fn int128_between(a: i128, b: i128, pick: u128) -> Self {
        let (min, max) = if a <= b { (a, b) } else { (b, a) };
        let span = (max as u128).wrapping_sub(min as u128);
        let offset = match pick.checked_rem(span.wrapping_add(1)) {
            Some(offset) => offset,
            // The whole range: every pick is in it.
            None => pick,
        };
        Self::Int128 {
            min,
            max,
            value: (min as u128).wrapping_add(offset) as i128,
        }
    }

    /// The same declaration with the value a reader starts from: zero,
    /// empty, or the range's minimum.
    #[must_use]
    pub fn blank(&self) -> Self {
        match self {
            Self::Bits { bits, .. } => Self::Bits {
                bits: *bits,
                value: 0,
            },
            Self::Bool(_) => Self::Bool(false),
            Self::Int { min, max, .. } => Self::Int {
                min: *min,
                max: *max,
                value: *min,
            },
            Self::Int64 { min, max, .. } => Self::Int64 {
                min: *min,
                max: *max,
                value: *min,
            },
            Self::Int128 { min, max, .. } => Self::Int128 {
                min: *min,
                max: *max,
                value: *min,
            },
            Self::Uint128(_) => Self::Uint128(0),
            Self::Fixed { format, .. } => Self::Fixed {
                format: *format,
                raw: format.raw_min(),
            },
            Self::Float { .. } => Self::Float { bits: 0 },
            Self::Double { .. } => Self::Double { bits: 0 },
            Self::CompressedFloat { format, .. } => Self::CompressedFloat {
                format: *format,
                bits: 0,
            },
            Self::CompressedCode { format, .. } => Self::CompressedCode {
                format: *format,
                code: 0,
            },
            Self::Unary { unit, room, .. } => Self::Unary {
                unit: *unit,
                room: *room,
                count: 0,
            },
            Self::Golomb { m, room, .. } => Self::Golomb {
                m: *m,
                room: *room,
                gap: 0,
            },
            Self::Align => Self::Align,
            Self::Bytes(bytes) => Self::Bytes(vec![0; bytes.len()]),
            Self::String { buffer_size, .. } => Self::String {
                buffer_size: *buffer_size,
                value: String::new(),
            },
            Self::WString { buffer_size, .. } => Self::WString {
                buffer_size: *buffer_size,
                units: Vec::new(),
            },
            Self::IntRelative { previous, .. } => Self::IntRelative {
                previous: *previous,
                value: 0,
            },
            Self::IntRelativeCanonical { previous, .. } => Self::IntRelativeCanonical {
                previous: *previous,
                value: 0,
            },
            Self::Check(label) => Self::Check(label),
            Self::Object(fields) => Self::Object(fields.iter().map(Self::blank).collect()),
        }
    }

    /// The operation's name as the conformance vectors spell it.
    #[must_use]
    pub const fn operation(&self) -> &'static str {
        match self {
            Self::Bits { .. } => "bits",
            Self::Bool(_) => "bool",
            Self::Int { .. } => "int",
            Self::Int64 { .. } => "int64",
            Self::Int128 { .. } => "int128",
            Self::Uint128(_) => "uint128",
            Self::Fixed { .. } => "fixed",
            Self::Float { .. } => "float",
            Self::Double { .. } => "double",
            Self::CompressedFloat { .. } | Self::CompressedCode { .. } => "compressed_float",
            Self::Unary { .. } => "unary",
            Self::Golomb { .. } => "golomb",
            Self::Align => "align",
            Self::Bytes(_) => "bytes",
            Self::String { .. } => "string",
            Self::WString { .. } => "wstring",
            Self::IntRelative { .. } | Self::IntRelativeCanonical { .. } => "int_relative",
            Self::Check(_) => "check",
            Self::Object(_) => "object",
        }
    }
}

impl Serialize for Field {
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        stream.field_name(self.operation());
        match self {
            Self::Bits { bits, value } => stream.serialize_bits64(value, *bits),
            Self::Bool(value) => stream.serialize_bool(value),
            Self::Int { min, max, value } => stream.serialize_int(value, *min, *max),
            Self::Int64 { min, max, value } => stream.serialize_int64(value, *min, *max),
            Self::Int128 { min, max, value } => stream.serialize_int128(value, *min, *max),
            Self::Uint128(value) => stream.serialize_u128(value),
            Self::Fixed { format, raw } => stream.serialize_fixed(raw, format),
            Self::Float { bits } => stream.serialize_bits(bits, 32),
            Self::Double { bits } => stream.serialize_bits64(bits, 64),
            Self::CompressedFloat { format, bits } => {
                let mut value = f32::from_bits(*bits);
                stream.serialize_compressed_float(&mut value, format)?;
                *bits = value.to_bits();
                Ok(())
            }
            Self::CompressedCode { format, code } => stream.serialize_compressed_code(code, format),
            Self::Unary { unit, room, count } => {
                crate::stream::ops::unary::serialize_unary(stream, count, *unit, *room)
            }
            Self::Golomb { m, room, gap } => {
                crate::stream::ops::golomb::serialize_golomb(stream, gap, *m, *room)
            }
            Self::Align => stream.serialize_align(),
            Self::Bytes(bytes) => stream.serialize_bytes(bytes),
            Self::String { buffer_size, value } => stream.serialize_string(value, *buffer_size),
            Self::WString { buffer_size, units } => stream.serialize_wstring(units, *buffer_size),
            Self::IntRelative { previous, value } => {
                stream.serialize_int_relative(*previous, value)
            }
            Self::IntRelativeCanonical { previous, value } => {
                stream.serialize_int_relative_canonical(*previous, value)
            }
            Self::Check(label) => stream.serialize_check(label),
            Self::Object(fields) => {
                // As `Stream::serialize_object`: refused on a failed reader
                // even when empty.
                stream.serialize_bits(&mut 0, 0)?;
                fields.iter_mut().try_for_each(|f| f.serialize(stream))
            }
        }
    }
}

/// A sequence of fields, serialized in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program(pub Vec<Field>);

impl Program {
    /// The same declarations with blank values, ready to be read into.
    #[must_use]
    pub fn blank(&self) -> Self {
        Self(self.0.iter().map(Field::blank).collect())
    }
}

impl Serialize for Program {
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        self.0.iter_mut().try_for_each(|f| f.serialize(stream))
    }
}
