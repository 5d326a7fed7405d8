//! Protocol "packets": the three packets of *Reading and Writing Packets*.

use super::ARTICLES_PROTOCOL_ID;
use crate::packet::{Packet, ProtocolId};
use crate::stream::Stream;

/// Packet B carries at most this many items: the article's bound, and the
/// range of its count field. A count above it is refused before any item is
/// read.
pub const MAX_ITEMS: usize = 32;

/// Packet A: three ranged integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct PacketA {
    /// In `[-10, 10]`.
    pub a: i32,
    /// In `[-20, 20]`.
    pub b: i32,
    /// In `[-30, 30]`.
    pub c: i32,
}

/// Packet B: a counted list of up to [`MAX_ITEMS`] items in `[-100, 100]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PacketB {
    /// The items, each in `[-100, 100]`.
    pub items: Vec<i32>,
}

/// Packet C: a position, and a velocity unless at rest.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PacketC {
    /// Three raw floats.
    pub position: [f32; 3],
    /// When set, no velocity is sent and a reader sets it to zero.
    pub at_rest: bool,
    /// Three raw floats, sent only when not at rest.
    pub velocity: [f32; 3],
}

/// A packet of protocol "packets".
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum TestPacket {
    A(PacketA),
    B(PacketB),
    C(PacketC),
}

impl Packet for TestPacket {
    const PROTOCOL_ID: ProtocolId = ARTICLES_PROTOCOL_ID;
    const PACKET_TYPES: u32 = 3;
    /// The article's maximum packet size.
    const MAX_PACKET_BYTES: usize = 1024;

    fn packet_type(&self) -> u32 {
        match self {
            Self::A(_) => 0,
            Self::B(_) => 1,
            Self::C(_) => 2,
        }
    }

    fn empty(packet_type: u32) -> Option<Self> {
        match packet_type {
            0 => Some(Self::A(PacketA::default())),
            1 => Some(Self::B(PacketB::default())),
            2 => Some(Self::C(PacketC::default())),
            _ => None,
        }
    }

    fn serialize_payload<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        match self {
            Self::A(packet) => {
                stream.field_name("a");
                stream.serialize_int(&mut packet.a, -10, 10)?;
                stream.field_name("b");
                stream.serialize_int(&mut packet.b, -20, 20)?;
                stream.field_name("c");
                stream.serialize_int(&mut packet.c, -30, 30)
            }
            Self::B(packet) => serialize_items(stream, &mut packet.items),
            Self::C(packet) => {
                stream.field_name("position");
                for axis in &mut packet.position {
                    stream.serialize_float(axis)?;
                }
                stream.field_name("at_rest");
                stream.serialize_bool(&mut packet.at_rest)?;
                if !packet.at_rest {
                    stream.field_name("velocity");
                    for axis in &mut packet.velocity {
                        stream.serialize_float(axis)?;
                    }
                } else if S::IS_READING {
                    packet.velocity = [0.0; 3];
                }
                Ok(())
            }
        }
    }
}

/// The count as `int(0, 32)`, then each item. The count is range-checked
/// before a single item is read. A non-empty list gets room for
/// [`MAX_ITEMS`] at once: a constant of 128 bytes, never a size taken from
/// the wire, and one allocation where growing item by item took up to four
/// (the peers benchmark's packet B).
fn serialize_items<S: Stream>(stream: &mut S, items: &mut Vec<i32>) -> Result<(), S::Error> {
    let mut count = i32::try_from(items.len()).unwrap_or(i32::MAX);
    stream.field_name("count");
    stream.serialize_int(&mut count, 0, MAX_ITEMS as i32)?;
    stream.field_name("item");
    if S::IS_WRITING {
        return items
            .iter_mut()
            .try_for_each(|item| stream.serialize_int(item, -100, 100));
    }
    let mut read = Vec::with_capacity(if count > 0 { MAX_ITEMS } else { 0 });
    for _ in 0..count {
        let mut item = 0;
        stream.serialize_int(&mut item, -100, 100)?;
        read.push(item);
    }
    *items = read;
    Ok(())
}
