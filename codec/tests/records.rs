//! A reading stream reads a scene object's head (position, quaternion,
//! at-rest flag) and its velocities as two records where it can, and a
//! writing stream writes them so. Each must then do exactly what the
//! fields one by one do, on any input: codes in range or one past it,
//! quaternions valid or not, resting or moving, whole or cut short (or,
//! written, into any room), after any number of bits, on a failed
//! stream.

use codec::bits::BitWriter;
use codec::protocols::scenes::SmallestThree;
use codec::protocols::scenes::{Object, ANGULAR_VELOCITY, LINEAR_VELOCITY, POSITION};
use codec::{CompressedFloat, DecodeError, EncodeError, Serialize, Stream, WriteStream};
use one_by_one::{OneByOne, WriteOneByOne};
use outcome::{outcome, stream, Outcome};
use proptest::prelude::*;

mod one_by_one;
mod outcome;

/// What a write did: the result, the bits written, and the bytes.
fn write(
    object: &Object,
    room: usize,
    skip: u32,
    one_by_one: bool,
) -> (Result<(), EncodeError>, u64, Vec<u8>) {
    let mut buf = vec![0u8; room];
    let mut stream = WriteStream::new(&mut buf);
    let prefix = stream.serialize_bits(&mut (0x6A09_E667 & ((1u64 << skip) - 1) as u32), skip);
    let mut object = *object;
    let (result, bits, len) = if one_by_one {
        let mut stream = WriteOneByOne(stream);
        let result = prefix.and_then(|()| object.serialize(&mut stream));
        (result, stream.bit_offset(), stream.0.finish())
    } else {
        let result = prefix.and_then(|()| object.serialize(&mut stream));
        (result, stream.bit_offset(), stream.finish())
    };
    buf.truncate(len);
    (result, bits, buf)
}

/// Reads an object through `stream`.
fn read<S: Stream<Error = DecodeError>>(stream: S) -> Outcome<Object> {
    // Not the default, so that a field left unread shows.
    let object = Object {
        position: [7; 3],
        at_rest: false,
        linear_velocity: [9; 3],
        angular_velocity: [11; 3],
        ..Object::default()
    };
    outcome(stream, object, |s, o| o.serialize(s))
}

/// Codes of a declaration: mostly anywhere in range, else at or one past
/// its top.
fn codes(format: CompressedFloat) -> impl Strategy<Value = [u32; 3]> {
    let top = format.max_integer_value();
    prop::array::uniform3(prop_oneof![8 => 0..=top, 1 => Just(top), 1 => Just(top + 1)])
}

/// A quaternion's fields: any codes (most triples are valid, those near
/// the top are not), or the identity's.
fn quaternion() -> impl Strategy<Value = [u32; 4]> {
    prop_oneof![
        (0u32..4, prop::array::uniform3(0u32..1024)).prop_map(|(l, [a, b, c])| [l, a, b, c]),
        (0u32..4).prop_map(|l| [l, 512, 512, 512]),
        (0u32..4).prop_map(|l| [l, 1023, 1023, 1023]),
    ]
}

proptest! {
    #[test]
    fn an_object_reads_as_its_fields_one_by_one(
        skip in 0u32..=32,
        fail in any::<bool>(),
        position in codes(POSITION),
        orientation in quaternion(),
        at_rest in any::<bool>(),
        linear in codes(LINEAR_VELOCITY),
        angular in codes(ANGULAR_VELOCITY),
        tail in prop::collection::vec(any::<u8>(), 0..24),
        cut in prop_oneof![Just(0usize), 0usize..40],
    ) {
        let mut buf = vec![0u8; 64];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_bits(0x2545_F491 & ((1u64 << skip) - 1) as u32, skip).unwrap();
        for code in position {
            writer.write_bits(code, POSITION.bits()).unwrap();
        }
        for (field, width) in orientation.into_iter().zip([2, 10, 10, 10]) {
            writer.write_bits(field, width).unwrap();
        }
        writer.write_bits(u32::from(at_rest), 1).unwrap();
        for code in linear {
            writer.write_bits(code, LINEAR_VELOCITY.bits()).unwrap();
        }
        for code in angular {
            writer.write_bits(code, ANGULAR_VELOCITY.bits()).unwrap();
        }
        let len = writer.finish();
        let mut bytes = buf[..len].to_vec();
        bytes.extend_from_slice(&tail);
        // Whole (half the time), or cut anywhere: each record needs the
        // sixteen bytes from its first, so the tail decides which fit.
        let bytes = &bytes[..bytes.len().saturating_sub(cut)];
        prop_assert_eq!(
            read(stream(bytes, skip, fail)),
            read(OneByOne(stream(bytes, skip, fail)))
        );
    }

    // Rooms from none to more than enough; largest indices up to 5 (a
    // writer refuses 4 and 5).
    #[test]
    fn an_object_writes_as_its_fields_one_by_one(
        room in 0usize..=32,
        skip in 0u32..=32,
        position in codes(POSITION),
        [largest, a, b, c] in quaternion(),
        wild in prop_oneof![4 => Just(None), 1 => (4u8..6).prop_map(Some)],
        at_rest in any::<bool>(),
        linear_velocity in codes(LINEAR_VELOCITY),
        angular_velocity in codes(ANGULAR_VELOCITY),
    ) {
        let object = Object {
            position,
            orientation: SmallestThree {
                largest: wild.unwrap_or(largest as u8),
                codes: [a as u16, b as u16, c as u16],
            },
            at_rest,
            linear_velocity,
            angular_velocity,
        };
        prop_assert_eq!(
            write(&object, room, skip, false),
            write(&object, room, skip, true)
        );
    }
}
