//! Protocol "packets": the three packets of *Reading and Writing Packets*.

use crate::{Packet, Serialize};

/// Packet B carries at most this many items: the article's bound, and the
/// range of its count field. A count above it is refused before any item is
/// read.
pub const MAX_ITEMS: usize = 32;

/// Packet A: three ranged integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PacketA {
    /// In `[-10, 10]`.
    #[serialize(range = -10..=10)]
    pub a: i32,
    /// In `[-20, 20]`.
    #[serialize(range = -20..=20)]
    pub b: i32,
    /// In `[-30, 30]`.
    #[serialize(range = -30..=30)]
    pub c: i32,
}

/// Packet B: a counted list of up to [`MAX_ITEMS`] items in `[-100, 100]`.
/// The count travels as `int(0, 32)` and is range-checked before a single
/// item is read; a reader makes room for [`MAX_ITEMS`] at once (128 bytes, a
/// constant, never a size read off the wire).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PacketB {
    /// The items, each in `[-100, 100]`.
    #[serialize(max_len = MAX_ITEMS as u32, range = -100..=100, name = "item")]
    pub items: Vec<i32>,
}

/// Packet C: a position, and a velocity unless at rest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PacketC {
    /// Three raw floats.
    pub position: [f32; 3],
    /// When set, no velocity is sent and a reader sets it to zero.
    pub at_rest: bool,
    /// Three raw floats, sent only when not at rest.
    #[serialize(when = !self.at_rest, otherwise = [0.0; 3])]
    pub velocity: [f32; 3],
}

/// A packet of protocol "packets": variant order is the packet type.
#[derive(Clone, Debug, PartialEq, Packet)]
#[packet(protocol_id = super::ARTICLES_PROTOCOL_ID, max_bytes = 1024)]
#[allow(missing_docs)]
pub enum TestPacket {
    A(PacketA),
    B(PacketB),
    C(PacketC),
}
