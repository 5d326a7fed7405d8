//! The protocol "kinds": one field of every kind the codec's derive
//! declares, at the edges of what each declaration allows (ranged integers
//! of every width up to 128 bits, raw widths up to 64, floats, compressed
//! and fixed-point numbers, narrow and wide strings, byte runs, lists,
//! arrays, options, nested types and enums, quaternions, all five subset
//! strategies, conditional fields, alignment and checks), framed with a
//! 64-bit protocol id.
//!
//! The shipped protocols each use a few of these; this one exists so that
//! the campaign, the structure-aware fuzz targets and the coverage of
//! `fuzz/coverage.sh` reach every operation of the codec's read path, not
//! only those the articles' protocols happen to declare.

use codec::protocols::scenes::SmallestThree;
use codec::subset::Entry;
use codec::{Packet, Serialize};

/// Indices of the small subsets (bools, counted, sentinel).
pub const SMALL_SET: u32 = 24;

/// Indices of the wide subsets (relative, Golomb).
pub const WIDE_SET: u32 = 400;

/// A small nested value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Cell {
    /// A narrow signed range.
    #[serialize(range = -3..=3)]
    pub x: i8,
    /// A raw field.
    #[serialize(bits = 6)]
    pub y: u8,
}

/// An enum with a unit, a struct and a tuple variant.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub enum Mode {
    /// No payload.
    #[default]
    Idle,
    /// A named field.
    Turn {
        /// Degrees.
        #[serialize(range = 0..=359)]
        heading: u16,
    },
    /// An unnamed field.
    Jump(#[serialize(bits = 3)] u8),
}

/// Integers: ranged at every width, raw at every width, plain.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Integers {
    /// Signed, 5 bits.
    #[serialize(range = -10..=10)]
    pub r8: i8,
    /// Unsigned with an offset minimum.
    #[serialize(range = 100..=60000)]
    pub r16: u16,
    /// Signed, 21 bits.
    #[serialize(range = -1_000_000..=1_000_000)]
    pub r32: i32,
    /// Unsigned, 32 bits.
    #[serialize(range = 0..=4_000_000_000)]
    pub r32u: u32,
    /// Signed, wider than 32 bits.
    #[serialize(range = -5_000_000_000..=5_000_000_000)]
    pub r64: i64,
    /// The whole of u64.
    #[serialize(range = 0..=u64::MAX)]
    pub r64u: u64,
    /// Signed, wider than 64 bits.
    #[serialize(range = -(1 << 100)..=(1 << 101))]
    pub r128: i128,
    /// Unsigned, nearly all of u128.
    #[serialize(range = 0..=u128::MAX - 5)]
    pub r128u: u128,
    /// A ranged 128-bit field whose range fits 64 bits.
    #[serialize(range = -70..=9_000_000_000_000)]
    pub r128_narrow: i128,
    /// A one-value range: zero bits on the wire.
    #[serialize(range = 7..=7)]
    pub constant: u32,
    /// Raw, 5 bits.
    #[serialize(bits = 5)]
    pub raw5: u8,
    /// Raw, 40 bits.
    #[serialize(bits = 40)]
    pub raw40: u64,
    /// Raw, 64 bits.
    #[serialize(bits = 64)]
    pub raw64: u64,
    /// Plain integers: their type's full width.
    pub plain16: u16,
    /// Plain, 32 bits.
    pub plain32: u32,
    /// Plain, 64 bits.
    pub plain64: u64,
    /// A bool.
    pub flag: bool,
}

/// Numbers that are not integers on the application's side.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Numbers {
    /// Raw IEEE 754 single.
    pub single: f32,
    /// Raw IEEE 754 double.
    pub double: f64,
    /// A compressed float.
    #[serialize(compressed(min = -100.0, max = 100.0, res = 0.01))]
    pub speed: f32,
    /// A compressed float kept as its wire code.
    #[serialize(compressed(min = -1000.0, max = 1000.0, res = 0.001))]
    pub code: u32,
    /// Compressed floats, an array.
    #[serialize(compressed(min = 0.0, max = 1.0, res = 0.125))]
    pub pair: [f32; 2],
    /// Fixed point, 128-bit raw.
    #[serialize(fixed(integer_bits = 16, fraction_bits = 8, min = -100, max = 100))]
    pub fixed: i128,
    /// Fixed point wider than 64 bits.
    #[serialize(fixed(integer_bits = 60, fraction_bits = 30, min = -1000000000000, max = 1000000000000))]
    pub fixed_wide: i128,
    /// A quaternion, smallest three.
    #[serialize(quaternion)]
    pub orientation: SmallestThree,
}

/// Text, bytes and collections.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Collections {
    /// UTF-8, at most 12 bytes.
    #[serialize(max_len = 12)]
    pub name: String,
    /// UTF-16 as a string.
    #[serialize(wide, max_len = 8)]
    pub wide_name: String,
    /// UTF-16 as its code units.
    #[serialize(wide, max_len = 8)]
    pub wide_units: Vec<u16>,
    /// A fixed run of bytes.
    #[serialize(bytes)]
    pub key: [u8; 4],
    /// A counted run of bytes.
    #[serialize(bytes, max_len = 16)]
    pub blob: Vec<u8>,
    /// A list of ranged integers.
    #[serialize(max_len = 5, range = -100..=100)]
    pub list: Vec<i32>,
    /// An array of ranged integers.
    #[serialize(range = 0..=6)]
    pub array: [u8; 3],
    /// An optional ranged integer.
    #[serialize(range = 1..=9)]
    pub maybe: Option<i16>,
    /// An optional nested value.
    pub maybe_cell: Option<Cell>,
    /// A list of nested values.
    #[serialize(max_len = 3)]
    pub cells: Vec<Cell>,
    /// An enum.
    pub mode: Mode,
}

/// Subsets of a set of cells by index, one per strategy.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Subsets {
    /// A send flag per index.
    #[serialize(subset(bools, size = SMALL_SET))]
    pub bools: Vec<Entry<Cell>>,
    /// A count, then indices.
    #[serialize(subset(counted, size = SMALL_SET))]
    pub counted: Vec<Entry<Cell>>,
    /// Indices ended by a sentinel.
    #[serialize(subset(sentinel, size = SMALL_SET))]
    pub sentinel: Vec<Entry<Cell>>,
    /// Gaps between indices.
    #[serialize(subset(relative, size = WIDE_SET))]
    pub relative: Vec<Entry<Cell>>,
    /// Golomb-coded gaps.
    #[serialize(subset(golomb, size = WIDE_SET))]
    pub golomb: Vec<Entry<Cell>>,
}

/// Fields that depend on others, and padding and checks around them.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Layout {
    /// Whether `velocity` is sent.
    pub moving: bool,
    /// Sent only when moving; 0 otherwise.
    #[serialize(when = self.moving, otherwise = 0, range = -50..=50)]
    pub velocity: i32,
    /// Aligned, after a check, then aligned again.
    #[serialize(before(align, check = "tail"), after(align))]
    pub tail: u8,
    /// Then a bare check.
    #[serialize(after(check = "end of layout"))]
    pub last: bool,
}

/// Every packet of the protocol: variant order is the packet type. The
/// protocol id is 64 bits wide (the shipped protocols' are 32).
#[derive(Clone, Debug, PartialEq, Packet)]
#[packet(protocol_id = 0x4B49_4E44_5F36_3401, max_bytes = 1200)]
pub enum KindsPacket {
    /// Integers.
    Integers(Integers),
    /// Other numbers.
    Numbers(Numbers),
    /// Text, bytes and collections.
    Collections(Collections),
    /// Subsets.
    Subsets(Subsets),
    /// Conditional and aligned fields.
    Layout(Layout),
    /// No payload.
    Empty,
}
