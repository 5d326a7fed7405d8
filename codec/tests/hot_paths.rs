//! Every hot path against the generic code it stands beside, on any input.
//!
//! A hot path runs only on the concrete streams ([`ReadStream`],
//! [`WriteStream`]); the same value read or written through a wrapper that
//! forwards the required operations alone ([`OneByOne`], [`WriteOneByOne`])
//! takes the generic path all the way. So the property: whatever the value
//! and whatever the bytes (a valid encoding, then cut anywhere, bits
//! flipped, behind a prefix of any length, on a stream that has failed),
//! both read the same value, or refuse with the same error at the same
//! bit, stand at the same place and read the same next bits; written into
//! any room, valid or not, both write the same bytes or make the same
//! refusal.
//!
//! The hot paths: a scene slot's object (scenes A to D and the Golomb
//! scene's generic loop), the Golomb scene's subset read and written ahead,
//! scene E's one-pass read, the adaptive subset code's truncated codes read
//! from one window, and a reading stream's one-load read of up to 57 bits.

use codec::ops::golomb::serialize_golomb;
use codec::protocols::scenes::{
    GolombScene, Object, Scene, SceneE, ScenePacket, Slot, SmallestThree,
    Strategy as SceneStrategy, ANGULAR_VELOCITY, LINEAR_VELOCITY, MAX_OBJECTS, POSITION,
};
use codec::subset::{CodedSet, GOLOMB_PARAMETERS};
use codec::{CompressedFloat, EncodeError, Packet, Serialize, Stream, WriteStream};
use one_by_one::{OneByOne, WriteOneByOne};
use outcome::{outcome, stream, Outcome};
use proptest::prelude::*;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod one_by_one;
mod outcome;

/// A value a hot path reads and writes, and how.
trait Subject: Clone + std::fmt::Debug + PartialEq {
    /// The value a reader starts from.
    fn blank(&self) -> Self;
    /// Reads, writes or measures it.
    fn run<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error>;
    /// Writes it with its last bound broken by one, where it has such a
    /// bound: what bit flips alone seldom make.
    fn one_past<S: Stream>(&mut self, _stream: &mut S) -> Option<Result<(), S::Error>> {
        None
    }
}

impl Subject for GolombScene {
    fn blank(&self) -> Self {
        Self::default()
    }

    fn run<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        self.serialize(stream)
    }

    /// A present set whose sentinel's gap runs one past the last slot: an
    /// object's index of 1024 to a reader that let it.
    fn one_past<S: Stream>(&mut self, stream: &mut S) -> Option<Result<(), S::Error>> {
        let (set, m) = GOLOMB_PARAMETERS[usize::from(self.parameter)];
        let slots = &self.scene.slots;
        let increasing = slots.windows(2).all(|pair| pair[0].index < pair[1].index);
        let below = slots
            .last()
            .is_none_or(|slot| u32::from(slot.index) < MAX_OBJECTS);
        if set != CodedSet::Present || !increasing || !below {
            return None;
        }
        let mut write = || {
            stream.serialize_int(&mut i32::from(self.parameter), 0, 15)?;
            let mut next = 0u32;
            for slot in &mut self.scene.slots {
                let mut gap = u32::from(slot.index) + 1 - next;
                serialize_golomb(stream, &mut gap, m, u32::MAX)?;
                slot.object.serialize(stream)?;
                next = u32::from(slot.index) + 1;
            }
            serialize_golomb(stream, &mut (MAX_OBJECTS + 2 - next), m, u32::MAX)
        };
        Some(write())
    }
}

impl Subject for ScenePacket {
    fn blank(&self) -> Self {
        Self::empty(self.packet_type()).unwrap()
    }

    fn run<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        self.serialize_payload(stream)
    }
}

impl Subject for SceneE {
    fn blank(&self) -> Self {
        Self::default()
    }

    fn run<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        self.serialize(stream)
    }
}

/// A scene's slots in the adaptive subset code, whose truncated codes
/// read from one window on a reading stream.
#[derive(Clone, Debug, PartialEq)]
struct Adaptive(Vec<Slot>);

impl Subject for Adaptive {
    fn blank(&self) -> Self {
        Self(Vec::new())
    }

    fn run<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        codec::subset::adaptive(stream, &mut self.0, MAX_OBJECTS)
    }
}

/// A field of `bits` bits read as a 64-bit value.
#[derive(Clone, Debug, PartialEq)]
struct Wide {
    bits: u32,
    value: u64,
}

impl Subject for Wide {
    fn blank(&self) -> Self {
        Self {
            bits: self.bits,
            value: 0x5A5A,
        }
    }

    fn run<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        stream.serialize_bits64(&mut self.value, self.bits)
    }
}

/// How the bytes of a valid encoding are spoiled before they are read.
#[derive(Clone, Debug)]
struct Spoil {
    /// Bits written, and read past, before the value (at most 32).
    skip: u32,
    /// Bits to flip: anywhere, as a fraction of the encoding's bits, or
    /// among its last 24 bits, where the sentinel lies, always one gap short
    /// of its room.
    flips: Vec<(bool, u16)>,
    /// Keep this fraction (of 1024) of the bytes, or all.
    cut: Option<u16>,
    /// Bytes of other bits after the encoding.
    tail: Vec<u8>,
    /// The stream has failed before the value.
    fail: bool,
    /// The value written with its last bound broken by one
    /// ([`Subject::one_past`]).
    one_past: bool,
}

fn spoil() -> impl Strategy<Value = Spoil> {
    (
        0u32..=32,
        prop::collection::vec((any::<bool>(), any::<u16>()), 0..3),
        prop::option::weighted(0.5, 0u16..=1024),
        prop::collection::vec(any::<u8>(), 0..20),
        prop::bool::weighted(0.05),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(skip, flips, cut, tail, fail, one_past)| Spoil {
            skip,
            flips,
            cut,
            tail,
            fail,
            one_past,
        })
}

/// `value` written behind `skip` bits, as the generic path writes it, or
/// with its last bound broken where `one_past` and it has one.
fn encoding<T: Subject>(value: &T, skip: u32, one_past: bool) -> Vec<u8> {
    let mut buf = vec![0u8; 1 << 16];
    let mut stream = WriteOneByOne(WriteStream::new(&mut buf));
    let mut prefix = (0x6A09_E667u64 & ((1u64 << skip) - 1)) as u32;
    stream.serialize_bits(&mut prefix, skip).unwrap();
    // An invalid value is written as far as it goes.
    let mut value = value.clone();
    if !(one_past && value.one_past(&mut stream).is_some()) {
        let _ = value.run(&mut stream);
    }
    let len = stream.0.finish();
    buf.truncate(len);
    buf
}

/// The read through the concrete stream against the read field by field.
fn same_read<T: Subject>(value: &T, how: &Spoil) -> Result<(), TestCaseError> {
    let mut bytes = encoding(value, how.skip, how.one_past);
    let bits = bytes.len() * 8;
    for &(near_end, flip) in &how.flips {
        if bits > 0 {
            let at = if near_end {
                bits - 1 - usize::from(flip) % bits.min(24)
            } else {
                usize::from(flip) * bits / 65536
            };
            bytes[at / 8] ^= 1 << (at % 8);
        }
    }
    if let Some(cut) = how.cut {
        bytes.truncate(bytes.len() * usize::from(cut) / 1024);
    }
    bytes.extend_from_slice(&how.tail);
    let run = |s: &mut _, v: &mut T| T::run(v, s);
    let hot: Outcome<T> = outcome(stream(&bytes, how.skip, how.fail), value.blank(), run);
    let generic: Outcome<T> = outcome(
        OneByOne(stream(&bytes, how.skip, how.fail)),
        value.blank(),
        |s, v| T::run(v, s),
    );
    prop_assert_eq!(hot, generic);
    Ok(())
}

/// What a write did: the result, where it stood, the bytes.
fn write<T: Subject>(
    value: &T,
    room: usize,
    skip: u32,
    hot: bool,
) -> (Result<(), EncodeError>, u64, Vec<u8>) {
    let mut buf = vec![0xA5u8; room];
    let mut prefix = (0x243F_6A88u64 & ((1u64 << skip) - 1)) as u32;
    let mut value = value.clone();
    let (result, at, len) = if hot {
        let mut stream = WriteStream::new(&mut buf);
        let result = stream
            .serialize_bits(&mut prefix, skip)
            .and_then(|()| value.run(&mut stream));
        let at = stream.bit_offset();
        (result, at, stream.finish())
    } else {
        let mut stream = WriteOneByOne(WriteStream::new(&mut buf));
        let result = stream
            .serialize_bits(&mut prefix, skip)
            .and_then(|()| value.run(&mut stream));
        let at = stream.bit_offset();
        (result, at, stream.0.finish())
    };
    // A refused write leaves what it wrote before the refusal; the bytes
    // after the stream's length are scratch either way.
    buf.truncate(len);
    (result, at, buf)
}

/// The write through the concrete stream against the write field by field.
fn same_write<T: Subject>(value: &T, room: u16, skip: u32) -> Result<(), TestCaseError> {
    let full = encoding(value, skip, false).len() + 24;
    let room = full * usize::from(room) / 1024;
    let (hot, generic) = (
        write(value, room, skip, true),
        write(value, room, skip, false),
    );
    prop_assert_eq!(&hot.0, &generic.0);
    prop_assert_eq!(hot.1, generic.1);
    if hot.0.is_ok() {
        prop_assert_eq!(hot.2, generic.2);
    }
    Ok(())
}

/// A compressed-float code: in range, at the top, or just past it.
fn code(format: CompressedFloat) -> impl Strategy<Value = u32> {
    let max = format.max_integer_value();
    prop_oneof![8 => 0..=max, 1 => Just(max), 1 => Just(max + 1)]
}

/// An object: mostly valid, sometimes a code out of range or a quaternion
/// no unit quaternion has.
fn object() -> impl Strategy<Value = Object> {
    (
        [code(POSITION), code(POSITION), code(POSITION)],
        0u8..4,
        [0u16..1024, 0u16..1024, 0u16..1024],
        prop::bool::ANY,
        [
            code(LINEAR_VELOCITY),
            code(LINEAR_VELOCITY),
            code(LINEAR_VELOCITY),
        ],
        [
            code(ANGULAR_VELOCITY),
            code(ANGULAR_VELOCITY),
            code(ANGULAR_VELOCITY),
        ],
    )
        .prop_map(|(position, largest, codes, at_rest, linear, angular)| {
            let valid = SmallestThree {
                largest,
                codes: [512, 512, 512],
            };
            let drawn = SmallestThree { largest, codes };
            Object {
                position,
                // Random codes are mostly invalid: keep some of them.
                orientation: if codes[0] % 4 == 0 { drawn } else { valid },
                at_rest,
                linear_velocity: linear,
                angular_velocity: angular,
            }
        })
}

/// Slots at a density from sparse to full; sometimes out of order, a
/// duplicate, or an index past the last slot.
fn slots() -> impl Strategy<Value = Vec<Slot>> {
    (
        prop::sample::select(vec![1u32, 3, 10, 30, 50, 70, 97, 100]),
        any::<u64>(),
        object(),
        prop::option::weighted(0.05, (any::<u16>(), any::<u16>())),
    )
        .prop_map(|(density, seed, object, broken)| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut slots: Vec<Slot> = (0..MAX_OBJECTS as u16)
                .filter(|_| rng.next_u64() % 100 < u64::from(density))
                .map(|index| Slot { index, object })
                .collect();
            // Every object differs, most of them valid and some at rest.
            for (n, slot) in slots.iter_mut().enumerate() {
                slot.object.position[n % 3] = (n as u32 * 7919) % POSITION.max_integer_value();
                slot.object.at_rest = n % 3 == 0;
            }
            if let Some((at, index)) = broken {
                if !slots.is_empty() {
                    let at = usize::from(at) % slots.len();
                    slots[at].index = index % 1100;
                }
            }
            slots
        })
}

fn golomb_scene() -> impl Strategy<Value = GolombScene> {
    (slots(), 0u8..GOLOMB_PARAMETERS.len() as u8).prop_map(|(slots, parameter)| GolombScene {
        parameter,
        scene: Scene { slots },
    })
}

fn scene_packet() -> impl Strategy<Value = ScenePacket> {
    (slots(), prop::sample::select(SceneStrategy::ALL.to_vec())).prop_map(|(slots, strategy)| {
        ScenePacket {
            strategy,
            scene: Scene { slots },
        }
    })
}

fn wide() -> impl Strategy<Value = Wide> {
    (1u32..=64, any::<u64>()).prop_map(|(bits, value)| Wide {
        bits,
        value: if bits == 64 {
            value
        } else {
            value & ((1 << bits) - 1)
        },
    })
}

/// Any of the subjects, so that one property covers every hot path.
#[derive(Clone, Debug)]
enum Any {
    GolombScene(GolombScene),
    Scene(ScenePacket),
    Adaptive(Adaptive),
    SceneE(SceneE),
    Wide(Wide),
}

fn any_subject() -> impl Strategy<Value = Any> {
    prop_oneof![
        3 => golomb_scene().prop_map(Any::GolombScene),
        2 => scene_packet().prop_map(Any::Scene),
        2 => slots().prop_map(|slots| Any::Adaptive(Adaptive(slots))),
        3 => slots().prop_map(|slots| Any::SceneE(SceneE::new(Scene { slots }))),
        1 => wide().prop_map(Any::Wide),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Each hot path reads what the generic code reads, and writes what it
    /// writes, on any input.
    #[test]
    fn every_hot_path_does_what_the_generic_code_does(
        subject in any_subject(),
        how in spoil(),
        room in prop_oneof![1 => 0u16..1024, 3 => Just(1024u16)],
    ) {
        match subject {
            Any::GolombScene(value) => {
                same_read(&value, &how)?;
                same_write(&value, room, how.skip)?;
            }
            Any::Scene(value) => {
                same_read(&value, &how)?;
                same_write(&value, room, how.skip)?;
            }
            Any::Adaptive(value) => {
                same_read(&value, &how)?;
                same_write(&value, room, how.skip)?;
            }
            Any::SceneE(value) => {
                same_read(&value, &how)?;
                same_write(&value, room, how.skip)?;
            }
            Any::Wide(value) => same_read(&value, &how)?,
        }
    }
}
