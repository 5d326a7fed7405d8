//! A reading stream reads a run of fields (`serialize_compressed_codes`,
//! `serialize_bits_run`) from one window where it can; it must then do
//! exactly what reading the fields one by one does, on any input: whole,
//! truncated, with codes out of range, or read by a stream that has failed.
//! A writing stream writes a run with one write where it can; it must then
//! write the very bytes, and refuse with the very error, that the fields
//! written one by one do. A reading stream decodes a whole Golomb code
//! from one window where it can, and a writing stream writes one with one
//! write; each must then do what the code field by field does.

use codec::ops::golomb::serialize_golomb;
use codec::{CompressedFloat, DecodeError, EncodeError, ReadStream, Stream, WriteStream};
use outcome::{outcome, stream, Outcome};
use proptest::prelude::*;

mod outcome;

fn read<const N: usize>(
    bytes: &[u8],
    skip: u32,
    fail: bool,
    how: impl FnOnce(&mut ReadStream<'_>, &mut [u32; N]) -> Result<(), DecodeError>,
) -> Outcome<[u32; N]> {
    outcome(stream(bytes, skip, fail), [0x5A5A_5A5A; N], how)
}

/// Declarations whose top code is below, at, and just above a power of
/// two, so that some codes of their width are out of range and some not;
/// the scenes' three among them.
fn format() -> impl Strategy<Value = CompressedFloat> {
    prop::sample::select(vec![
        CompressedFloat::new(-1000.0, 1000.0, 0.001),
        CompressedFloat::new(-10.0, 10.0, 0.01),
        CompressedFloat::new(-20.0, 20.0, 0.01),
        CompressedFloat::new(0.0, 1.0, 1.0),
        CompressedFloat::new(0.0, 255.0, 1.0),
        CompressedFloat::new(0.0, 256.0, 1.0),
        CompressedFloat::new(0.0, 16_777_215.0, 1.0),
    ])
}

/// Golomb parameters: scene E's, and 0, 1000 and a power of two.
fn parameter() -> impl Strategy<Value = u32> {
    prop::sample::select(vec![
        0u32, 1, 2, 3, 4, 6, 8, 11, 15, 21, 29, 41, 58, 82, 128, 1000,
    ])
}

/// What a write did: the result, the bits written, and the bytes.
fn write(
    room: usize,
    skip: u32,
    how: impl FnOnce(&mut WriteStream<'_>) -> Result<(), EncodeError>,
) -> (Result<(), EncodeError>, u64, Vec<u8>) {
    let mut buf = vec![0u8; room];
    let mut stream = WriteStream::new(&mut buf);
    let prefix = stream.serialize_bits(&mut (0x6A09_E667 & ((1u64 << skip) - 1) as u32), skip);
    let result = prefix.and_then(|()| how(&mut stream));
    let bits = stream.bit_offset();
    let len = stream.finish();
    buf.truncate(len);
    (result, bits, buf)
}

proptest! {
    // Buffers of 0 to 20 bytes: the run fits, fits in part, or not at all;
    // codes at the top or one above it.
    #[test]
    fn a_run_of_codes_writes_as_its_codes_one_by_one(
        room in 0usize..=20,
        skip in 0u32..=32,
        format in format(),
        picks in prop::array::uniform3(any::<u32>()),
        near in prop::array::uniform3(0u32..6),
    ) {
        let top = format.max_integer_value();
        // Half the codes anywhere in range, the rest near or above the top.
        let codes: [u32; 3] = std::array::from_fn(|i| match near[i] {
            0..=2 => picks[i] % top.saturating_add(1).max(1),
            n => top.saturating_add(n - 3),
        });
        let run = write(room, skip, |s| s.serialize_compressed_codes(&mut codes.clone(), &format));
        let one_by_one = write(room, skip, |s| {
            codes.clone().iter_mut().try_for_each(|code| s.serialize_compressed_code(code, &format))
        });
        prop_assert_eq!(run, one_by_one);
    }

    #[test]
    fn a_run_of_bits_writes_as_its_fields_one_by_one(
        room in 0usize..=24,
        skip in 0u32..=32,
        widths in prop::array::uniform5(0u32..=32),
        picks in prop::array::uniform5(any::<u32>()),
    ) {
        let values: [u32; 5] = std::array::from_fn(|i| {
            (u64::from(picks[i]) & ((1u64 << widths[i]) - 1)) as u32
        });
        let run = write(room, skip, |s| s.serialize_bits_run(&mut values.clone(), widths));
        let one_by_one = write(room, skip, |s| {
            values.clone().iter_mut().zip(widths).try_for_each(|(value, width)| s.serialize_bits(value, width))
        });
        prop_assert_eq!(run, one_by_one);
    }

    // Inputs of 0 to 40 bytes put the run both where sixteen bytes follow
    // its first byte and within the last sixteen, where it may not fit.
    #[test]
    fn a_run_of_codes_reads_as_its_codes_one_by_one(
        bytes in prop::collection::vec(any::<u8>(), 0..40),
        skip in 0u32..=32,
        fail in any::<bool>(),
        format in format(),
    ) {
        prop_assert_eq!(
            read::<3>(&bytes, skip, fail, |s, v| s.serialize_compressed_codes(v, &format)),
            read::<3>(&bytes, skip, fail, |s, v| {
                v.iter_mut().try_for_each(|code| s.serialize_compressed_code(code, &format))
            })
        );
    }

    // The same with codes at and around the declaration's top, written
    // after `skip` bits and followed by 0 to 24 bytes: where a code one
    // above the top must send the run down the field-by-field path.
    #[test]
    fn a_run_of_codes_at_the_top_reads_as_its_codes_one_by_one(
        skip in 0u32..=32,
        fail in any::<bool>(),
        format in format(),
        near in prop::array::uniform3(0u32..4),
        tail in prop::collection::vec(any::<u8>(), 0..24),
    ) {
        let top = format.max_integer_value();
        let width = 32 - top.leading_zeros();
        let mut buf = vec![0u8; 64];
        let mut writer = codec::bits::BitWriter::new(&mut buf);
        writer.write_bits(0x2545_F491, skip).unwrap();
        for offset in near {
            // top - 1, top, top + 1, top + 2 (the last two where they fit).
            let code = (u64::from(top) + u64::from(offset)).saturating_sub(1) as u32;
            writer.write_bits(code, width).unwrap();
        }
        let len = writer.finish();
        let mut bytes = buf[..len].to_vec();
        bytes.extend_from_slice(&tail);
        prop_assert_eq!(
            read::<3>(&bytes, skip, fail, |s, v| s.serialize_compressed_codes(v, &format)),
            read::<3>(&bytes, skip, fail, |s, v| {
                v.iter_mut().try_for_each(|code| s.serialize_compressed_code(code, &format))
            })
        );
    }

    // Gaps in and out of their room, into buffers the code fits, fits in
    // part, or not at all: long quotients (m = 1 with gaps past 64) go
    // field by field.
    #[test]
    fn a_golomb_code_writes_as_its_fields_one_by_one(
        buffer in 0usize..=24,
        skip in 0u32..=32,
        m in parameter(),
        gap in 0u32..=1100,
        room in 0u32..=1100,
        edge in 0u32..3,
    ) {
        let room = match edge {
            0 => room,
            1 => gap,
            _ => gap.saturating_sub(1),
        };
        prop_assert_eq!(
            write(buffer, skip, |s| s.serialize_golomb(&mut gap.clone(), m, room)),
            write(buffer, skip, |s| serialize_golomb(s, &mut gap.clone(), m, room))
        );
    }

    // Codes of gaps written with each parameter, then read against rooms
    // they fit or break, whole or cut short; and random bytes.
    #[test]
    fn a_golomb_code_reads_as_its_fields_one_by_one(
        skip in 0u32..=32,
        fail in any::<bool>(),
        m in parameter(),
        gap in 1u32..=1100,
        room in 1u32..=1100,
        edge in 0u32..3,
        tail in prop::collection::vec(any::<u8>(), 0..12),
        noise in any::<bool>(),
    ) {
        let mut buf = vec![0u8; 256];
        let mut stream = WriteStream::new(&mut buf);
        stream.serialize_bits(&mut (0x2545_F491 & ((1u64 << skip) - 1) as u32), skip).unwrap();
        stream.serialize_golomb(&mut gap.clone(), m, u32::MAX).unwrap();
        let len = stream.finish();
        let mut bytes = buf[..len].to_vec();
        bytes.extend_from_slice(&tail);
        if noise {
            bytes.iter_mut().zip(&tail).for_each(|(b, t)| *b ^= t.rotate_left(3));
        }
        // A third of the rooms anywhere, the rest at the gap and one below.
        let room = match edge {
            0 => room,
            1 => gap,
            _ => gap - 1,
        };
        for cut in [bytes.len(), bytes.len().saturating_sub(tail.len() + 1)] {
            let bytes = &bytes[..cut];
            prop_assert_eq!(
                read::<1>(bytes, skip, fail, |s, v| s.serialize_golomb(&mut v[0], m, room)),
                read::<1>(bytes, skip, fail, |s, v| serialize_golomb(s, &mut v[0], m, room))
            );
        }
    }

    #[test]
    fn a_run_of_bits_reads_as_its_fields_one_by_one(
        bytes in prop::collection::vec(any::<u8>(), 0..40),
        skip in 0u32..=32,
        fail in any::<bool>(),
        widths in prop::array::uniform5(0u32..=32),
    ) {
        prop_assert_eq!(
            read::<5>(&bytes, skip, fail, |s, v| s.serialize_bits_run(v, widths)),
            read::<5>(&bytes, skip, fail, |s, v| {
                v.iter_mut().zip(widths).try_for_each(|(value, width)| s.serialize_bits(value, width))
            })
        );
    }
}

#[test]
fn a_run_reads_whole_with_sixteen_bytes_ahead_and_refuses_its_first_bad_code() {
    // Three 21-bit codes over [-1000, 1000] at 0.001 (top code 2,000,000):
    // 5, 2,000,000, 7, then padding to twenty bytes.
    let position = CompressedFloat::new(-1000.0, 1000.0, 0.001);
    let pack = |codes: [u64; 3]| {
        let word = codes[0] | codes[1] << 21 | codes[2] << 42;
        let mut bytes = word.to_le_bytes().to_vec();
        bytes.resize(20, 0);
        bytes
    };
    let bytes = pack([5, 2_000_000, 7]);
    let mut stream = ReadStream::new(&bytes);
    let mut codes = [0; 3];
    stream
        .serialize_compressed_codes(&mut codes, &position)
        .unwrap();
    assert_eq!(codes, [5, 2_000_000, 7]);
    assert_eq!(stream.bit_offset(), 63);

    // The second code one above the top: the first is kept, the second
    // refused where it starts, the third untouched.
    let bytes = pack([5, 2_000_001, 7]);
    let mut stream = ReadStream::new(&bytes);
    let mut codes = [9; 3];
    assert_eq!(
        stream.serialize_compressed_codes(&mut codes, &position),
        Err(DecodeError::OutOfRange { at: 21 })
    );
    assert_eq!(codes, [5, 9, 9]);
}
