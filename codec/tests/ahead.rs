//! A reading stream reads a Golomb-coded subset (scene E's) ahead of
//! itself, in registers, as far as its fast paths go, then goes back to
//! the first gap or item they did not take and reads on from there. That
//! must do exactly what reading the subset without reading ahead does, and
//! what reading it field by field does, on any input: valid subsets of
//! every parameter, the same with bits flipped, cut short, followed by
//! other bits, after any number of bits, on a failed stream; with scene
//! objects, which read ahead, and with items that never do. A writing
//! stream writes ahead the same way, and must write exactly the bytes, or
//! make exactly the refusal, that writing without it and writing field by
//! field do, into any room, for valid items and invalid ones.

use codec::ops::golomb::GolombTable;
use codec::protocols::scenes::{Object, Slot, SmallestThree, MAX_OBJECTS};
use codec::subset::golomb::golomb_with;
use codec::subset::{Entry, Indexed};
use codec::{CompressedFloat, DecodeError, EncodeError, ReadStream, Stream, WriteStream};
use one_by_one::{forward_required, OneByOne, WriteOneByOne};
use outcome::{outcome, stream, Outcome};
use proptest::prelude::*;

mod one_by_one;
mod outcome;

/// A reading stream with every fast path of [`ReadStream`] but reading
/// ahead: the records and the Golomb windows, one call at a time.
struct NotAhead<'a>(ReadStream<'a>);

impl Stream for NotAhead<'_> {
    const IS_READING: bool = true;
    type Error = DecodeError;

    forward_required!(DecodeError);

    fn serialize_golomb(&mut self, gap: &mut u32, m: u32, room: u32) -> Result<(), DecodeError> {
        self.0.serialize_golomb(gap, m, room)
    }

    fn serialize_golomb_table(
        &mut self,
        gap: &mut u32,
        table: &GolombTable,
        room: u32,
    ) -> Result<(), DecodeError> {
        self.0.serialize_golomb_table(gap, table, room)
    }

    fn serialize_compressed_codes<const N: usize>(
        &mut self,
        codes: &mut [u32; N],
        format: &CompressedFloat,
    ) -> Result<(), DecodeError> {
        self.0.serialize_compressed_codes(codes, format)
    }

    fn read_record<const N: usize>(
        &mut self,
        widths: [u32; N],
        maxes: [u32; N],
        accept: impl FnOnce(&[u32; N]) -> bool,
    ) -> Option<[u32; N]> {
        self.0.read_record(widths, maxes, accept)
    }
}

/// A writing stream with every fast path of [`WriteStream`] but writing
/// ahead.
struct WriteNotAhead<'a>(WriteStream<'a>);

impl Stream for WriteNotAhead<'_> {
    const IS_READING: bool = false;
    type Error = EncodeError;

    forward_required!(EncodeError);

    fn serialize_golomb(&mut self, gap: &mut u32, m: u32, room: u32) -> Result<(), EncodeError> {
        self.0.serialize_golomb(gap, m, room)
    }

    fn serialize_golomb_table(
        &mut self,
        gap: &mut u32,
        table: &GolombTable,
        room: u32,
    ) -> Result<(), EncodeError> {
        self.0.serialize_golomb_table(gap, table, room)
    }

    fn serialize_compressed_codes<const N: usize>(
        &mut self,
        codes: &mut [u32; N],
        format: &CompressedFloat,
    ) -> Result<(), EncodeError> {
        self.0.serialize_compressed_codes(codes, format)
    }

    fn write_record<const N: usize>(
        &mut self,
        values: &[u32; N],
        widths: [u32; N],
        maxes: [u32; N],
    ) -> bool {
        self.0.write_record(values, widths, maxes)
    }
}

/// How a subset is written.
#[derive(Clone, Copy, Debug)]
enum Writer {
    Ahead,
    NotAhead,
    OneByOne,
}

/// What writing `items` with `parameter` after `skip` bits into `room`
/// bytes did: the result, the bits written, and the bytes.
fn write<T: Indexed + Clone>(
    how: Writer,
    items: &[T],
    parameter: u8,
    skip: u32,
    room: usize,
) -> (Result<(), EncodeError>, u64, Vec<u8>) {
    let mut buf = vec![0u8; room];
    let mut stream = WriteStream::new(&mut buf);
    let prefix = stream.serialize_bits(&mut (0x243F_6A88 & ((1u64 << skip) - 1) as u32), skip);
    // The subset on any writing stream, after the prefix.
    fn subset<S: Stream<Error = EncodeError>, T: Indexed + Clone>(
        stream: &mut S,
        prefix: Result<(), EncodeError>,
        items: &[T],
        parameter: u8,
    ) -> Result<(), EncodeError> {
        prefix?;
        golomb_with(stream, &mut items.to_vec(), MAX_OBJECTS, &mut { parameter })
    }
    let (result, bits, len) = match how {
        Writer::Ahead => {
            let result = subset(&mut stream, prefix, items, parameter);
            (result, stream.bit_offset(), stream.finish())
        }
        Writer::NotAhead => {
            let mut stream = WriteNotAhead(stream);
            let result = subset(&mut stream, prefix, items, parameter);
            (result, stream.bit_offset(), stream.0.finish())
        }
        Writer::OneByOne => {
            let mut stream = WriteOneByOne(stream);
            let result = subset(&mut stream, prefix, items, parameter);
            (result, stream.bit_offset(), stream.0.finish())
        }
    };
    buf.truncate(len);
    (result, bits, buf)
}

/// A subset read through `stream`: the outcome, with the items and the
/// parameter it left.
fn read<S: Stream<Error = DecodeError>, T: Indexed>(
    stream: S,
    start: Vec<T>,
) -> Outcome<(Vec<T>, u8)> {
    outcome(stream, (start, 99), |s, (items, parameter)| {
        golomb_with(s, items, MAX_OBJECTS, parameter)
    })
}

/// The same input read three ways: with the stream's read-ahead, without
/// it, and field by field; all three must agree.
fn three_ways<T: Indexed + Clone + PartialEq + std::fmt::Debug>(
    bytes: &[u8],
    skip: u32,
    fail: bool,
    start: Vec<T>,
) -> Result<Outcome<(Vec<T>, u8)>, TestCaseError> {
    let ahead = read(stream(bytes, skip, fail), start.clone());
    let not_ahead = read(NotAhead(stream(bytes, skip, fail)), start.clone());
    let one_by_one = read(OneByOne(stream(bytes, skip, fail)), start);
    prop_assert_eq!(&ahead, &not_ahead);
    prop_assert_eq!(&ahead, &one_by_one);
    Ok(ahead)
}

/// A moving or resting object with codes anywhere in their ranges, one
/// past the top now and then, and quaternions valid or not.
fn object() -> impl Strategy<Value = Object> {
    let codes = |top: u32| {
        prop::array::uniform3(prop_oneof![20 => 0..=top, 1 => Just(top), 1 => Just(top + 1)])
    };
    (
        codes(2_000_000),
        (0u8..4, prop::array::uniform3(0u16..1024)),
        any::<bool>(),
        codes(2000),
        codes(4000),
    )
        .prop_map(
            |(position, (largest, codes), at_rest, linear, angular)| Object {
                position,
                orientation: SmallestThree { largest, codes },
                at_rest,
                linear_velocity: linear,
                angular_velocity: angular,
            },
        )
}

/// Objects at any density, from none to every slot.
fn scene() -> impl Strategy<Value = Vec<Slot>> {
    prop_oneof![
        Just(0.0),
        Just(0.02),
        Just(0.1),
        Just(0.5),
        Just(0.97),
        Just(1.0)
    ]
    .prop_flat_map(|density| {
        (
            prop::collection::vec(prop::bool::weighted(density), 1024),
            prop::collection::vec(object(), 1024),
        )
    })
    .prop_map(|(present, objects)| {
        (0u16..)
            .zip(present)
            .zip(objects)
            .filter(|((_, present), _)| *present)
            .map(|((index, _), object)| Slot { index, object })
            .collect()
    })
}

/// `items` written with `parameter` after `skip` bits, then `tail`; `None`
/// where the writer refuses (an object out of range, say).
fn written<T: Indexed + Clone>(
    items: &[T],
    parameter: u8,
    skip: u32,
    tail: &[u8],
) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; 24 * 1024];
    let mut writer = WriteStream::new(&mut buf);
    writer
        .serialize_bits(&mut (0x243F_6A88 & ((1u64 << skip) - 1) as u32), skip)
        .ok()?;
    let mut items = items.to_vec();
    golomb_with(&mut writer, &mut items, MAX_OBJECTS, &mut parameter.clone()).ok()?;
    let len = writer.finish();
    buf.truncate(len);
    buf.extend_from_slice(tail);
    Some(buf)
}

/// Where to break a packet: not at all, flip bits, or cut it short.
#[derive(Clone, Debug)]
enum Break {
    None,
    Flip(Vec<(usize, u8)>),
    Cut(usize),
}

fn breaks() -> impl Strategy<Value = Break> {
    prop_oneof![
        2 => Just(Break::None),
        2 => prop::collection::vec((any::<usize>(), 0u8..8), 1..4).prop_map(Break::Flip),
        2 => (0usize..64).prop_map(Break::Cut),
    ]
}

fn broken(mut bytes: Vec<u8>, how: &Break) -> Vec<u8> {
    match how {
        Break::None => {}
        Break::Flip(flips) => {
            let len = bytes.len().max(1);
            for &(at, bit) in flips {
                if let Some(byte) = bytes.get_mut(at % len) {
                    *byte ^= 1 << bit;
                }
            }
        }
        Break::Cut(from_end) => bytes.truncate(bytes.len().saturating_sub(*from_end)),
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_scene_subset_reads_ahead_as_it_reads_without(
        slots in scene(),
        parameter in 0u8..16,
        skip in 0u32..=32,
        fail in prop_oneof![9 => Just(false), 1 => Just(true)],
        tail in prop::collection::vec(any::<u8>(), 0..20),
        how in breaks(),
        start_with in prop::collection::vec(any::<u16>().prop_map(|i| Slot {
            index: i,
            object: Object::default(),
        }), 0..3),
    ) {
        // A writer refuses objects out of range; the same slots, clamped
        // to valid objects, make a packet anyway.
        let bytes = written(&slots, parameter, skip, &tail).or_else(|| {
            let valid: Vec<Slot> = slots
                .iter()
                .map(|s| Slot { index: s.index, object: Object::default() })
                .collect();
            written(&valid, parameter, skip, &tail)
        });
        let Some(bytes) = bytes else {
            return Err(TestCaseError::reject("no packet"));
        };
        let intact = matches!(how, Break::None) && !fail;
        let bytes = broken(bytes, &how);
        let read = three_ways(&bytes, skip, fail, start_with)?;
        // Unbroken, the subset reads back (a reader that found nothing
        // would agree with itself too).
        // The velocities of an object at rest are not sent: it reads back
        // with the resting ones.
        if intact && written(&slots, parameter, skip, &tail).is_some() {
            let rest = Object::AT_REST_AT_ORIGIN;
            let sent: Vec<Slot> = slots
                .into_iter()
                .map(|mut slot| {
                    if slot.object.at_rest {
                        slot.object.linear_velocity = rest.linear_velocity;
                        slot.object.angular_velocity = rest.angular_velocity;
                    }
                    slot
                })
                .collect();
            prop_assert_eq!(read.result, Ok(()));
            prop_assert_eq!(read.value, (sent, parameter));
        }
    }

    /// Items that have no fast path: the reader gives up ahead at the
    /// first item and reads them all from the stream.
    #[test]
    fn a_subset_of_plain_items_reads_as_without(
        indices in prop::collection::btree_set(0u32..1024, 0..60),
        values in prop::collection::vec(any::<u8>(), 60),
        parameter in 0u8..16,
        skip in 0u32..=32,
        how in breaks(),
    ) {
        let items: Vec<Entry<u8>> = indices
            .iter()
            .zip(&values)
            .map(|(&index, &value)| Entry { index, value })
            .collect();
        let bytes = written(&items, parameter, skip, &[0x5A; 9]).expect("plain items write");
        let intact = matches!(how, Break::None);
        let read = three_ways(&broken(bytes, &how), skip, false, Vec::new())?;
        if intact {
            prop_assert_eq!(read.value, (items, parameter));
        }
    }

    /// Scenes at every density, their objects valid or not, written with
    /// every parameter into rooms from none to more than enough.
    #[test]
    fn a_scene_subset_writes_ahead_as_it_writes_without(
        slots in scene(),
        parameter in 0u8..16,
        skip in 0u32..=32,
        room in prop_oneof![0usize..64, 0usize..3000, Just(24 * 1024)],
    ) {
        let ahead = write(Writer::Ahead, &slots, parameter, skip, room);
        prop_assert_eq!(&ahead, &write(Writer::NotAhead, &slots, parameter, skip, room));
        prop_assert_eq!(&ahead, &write(Writer::OneByOne, &slots, parameter, skip, room));
    }

    /// Items with no fast path: the writer gives up ahead at the first.
    #[test]
    fn a_subset_of_plain_items_writes_as_without(
        indices in prop::collection::btree_set(0u32..1024, 0..60),
        values in prop::collection::vec(any::<u8>(), 60),
        parameter in 0u8..16,
        skip in 0u32..=32,
        room in 0usize..200,
    ) {
        let items: Vec<Entry<u8>> = indices
            .iter()
            .zip(&values)
            .map(|(&index, &value)| Entry { index, value })
            .collect();
        let ahead = write(Writer::Ahead, &items, parameter, skip, room);
        prop_assert_eq!(&ahead, &write(Writer::NotAhead, &items, parameter, skip, room));
        prop_assert_eq!(&ahead, &write(Writer::OneByOne, &items, parameter, skip, room));
    }
}
