//! naia-serde 0.25, a bit-level game networking serde, used as its users
//! would: its fixed-point floats for the scene (the same ranges and steps
//! as ours, sign bit plus magnitude), its ranged integers for indices and
//! for packets A and B, raw `f32` in packet C as the article sends them.
//!
//! naia's packet writer (`BitWriter`) holds one MTU, 430 bytes, and panics
//! past it; a packet that does not fit goes through its heap-backed
//! `FileBitWriter` instead, which it cannot reuse between packets.

use crate::wire::Wire;
use crate::workload::{FloatObject, FloatPacket};
use naia_serde::{
    BitReader, BitWriter, FileBitWriter, OutgoingPacket, Serde, SerdeInternal, SignedFloat,
    SignedInteger, UnsignedInteger, MTU_SIZE_BITS,
};

/// Position: `[-1000, 1000]` in steps of 0.001 (ours: 21 bits).
type Position = SignedFloat<20, 3>;
/// A quaternion component in `[-1, 1]` at 0.001 (ours sends three of ten bits).
type Component = SignedFloat<10, 3>;
/// Linear velocity: `[-10, 10]` at 0.01.
type Linear = SignedFloat<10, 2>;
/// Angular velocity: `[-20, 20]` at 0.01.
type Angular = SignedFloat<11, 2>;

#[derive(Clone, PartialEq, SerdeInternal)]
pub struct NaiaObject {
    index: UnsignedInteger<10>,
    position: [Position; 3],
    orientation: [Component; 4],
    velocity: Option<([Linear; 3], [Angular; 3])>,
}

#[derive(Clone, PartialEq, SerdeInternal)]
pub struct NaiaScene {
    objects: Vec<NaiaObject>,
}

#[derive(Clone, PartialEq, SerdeInternal)]
pub enum NaiaPacket {
    A {
        a: SignedInteger<4>,
        b: SignedInteger<5>,
        c: SignedInteger<5>,
    },
    B {
        items: Vec<SignedInteger<7>>,
    },
    C {
        position: [f32; 3],
        velocity: Option<[f32; 3]>,
    },
}

/// A naia value, and whether it fits naia's one-MTU packet writer (decided
/// when the value is built, not timed).
#[derive(Clone, PartialEq)]
pub struct Fitted<T> {
    value: T,
    fits_mtu: bool,
}

impl<T: Serde> Fitted<T> {
    fn new(value: T) -> Self {
        let fits_mtu = value.bit_length() <= MTU_SIZE_BITS;
        Self { value, fits_mtu }
    }
}

/// The last packet written: naia's stack packet, or a heap buffer.
#[derive(Default)]
pub struct Written {
    packet: Option<OutgoingPacket>,
    file: Vec<u8>,
}

pub struct Naia;

fn encode<'s, T: Serde>(state: &'s mut Written, value: &Fitted<T>) -> &'s [u8] {
    if value.fits_mtu {
        let mut writer = BitWriter::new();
        value.value.ser(&mut writer);
        state.packet.insert(writer.to_packet()).slice()
    } else {
        let mut writer = FileBitWriter::new();
        value.value.ser(&mut writer);
        state.file = writer.to_vec();
        &state.file
    }
}

fn decode<T: Serde>(bytes: &[u8]) -> Fitted<T> {
    let mut reader = BitReader::new(bytes);
    let value = T::de(&mut reader).expect("naia decodes its own packet");
    Fitted {
        fits_mtu: bytes.len() * 8 <= MTU_SIZE_BITS as usize,
        value,
    }
}

impl Wire<Vec<FloatObject>> for Naia {
    const NAME: &'static str = "naia-serde";
    type Value = Fitted<NaiaScene>;
    type State = Written;

    fn state() -> Written {
        Written::default()
    }

    fn value(input: &Vec<FloatObject>) -> Fitted<NaiaScene> {
        let objects = input
            .iter()
            .map(|o| NaiaObject {
                index: UnsignedInteger::new(o.index),
                position: o.position.map(Position::new),
                orientation: o.orientation.map(Component::new),
                velocity: o
                    .velocity
                    .map(|(l, a)| (l.map(Linear::new), a.map(Angular::new))),
            })
            .collect();
        Fitted::new(NaiaScene { objects })
    }

    fn encode<'s>(state: &'s mut Written, value: &mut Fitted<NaiaScene>) -> &'s [u8] {
        encode(state, value)
    }

    fn decode(_: &mut Written, bytes: &[u8]) -> Fitted<NaiaScene> {
        decode(bytes)
    }
}

impl Wire<FloatPacket> for Naia {
    const NAME: &'static str = "naia-serde";
    type Value = Fitted<NaiaPacket>;
    type State = Written;

    fn state() -> Written {
        Written::default()
    }

    fn value(input: &FloatPacket) -> Fitted<NaiaPacket> {
        Fitted::new(match input {
            FloatPacket::A { a, b, c } => NaiaPacket::A {
                a: SignedInteger::new(*a),
                b: SignedInteger::new(*b),
                c: SignedInteger::new(*c),
            },
            FloatPacket::B { items } => NaiaPacket::B {
                items: items.iter().map(|&i| SignedInteger::new(i)).collect(),
            },
            FloatPacket::C { position, velocity } => NaiaPacket::C {
                position: *position,
                velocity: *velocity,
            },
        })
    }

    fn encode<'s>(state: &'s mut Written, value: &mut Fitted<NaiaPacket>) -> &'s [u8] {
        encode(state, value)
    }

    fn decode(_: &mut Written, bytes: &[u8]) -> Fitted<NaiaPacket> {
        decode(bytes)
    }
}
