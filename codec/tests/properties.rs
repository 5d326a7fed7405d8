//! Property tests over random stream programs: every operation of the
//! format with random declarations and values, in random order.

use codec::program::{Field, Program};
use codec::{
    CompressedFloat, DecodeError, Fixed, MeasureStream, ReadStream, Serialize, Stream, WriteStream,
};
use proptest::prelude::*;

fn sorted<T: Ord>(a: T, b: T) -> (T, T) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// Bounds biased toward the edges: narrow spans, degenerate ranges, and the
/// full width.
fn int_field() -> impl Strategy<Value = Field> {
    prop_oneof![
        (any::<i32>(), 0u32..40).prop_map(|(min, span)| (min, min.saturating_add(span as i32))),
        (any::<i32>(), any::<i32>()).prop_map(|(a, b)| sorted(a, b)),
        Just((i32::MIN, i32::MAX)),
    ]
    .prop_flat_map(|(min, max)| (min..=max).prop_map(move |value| Field::Int { min, max, value }))
}

fn int64_field() -> impl Strategy<Value = Field> {
    prop_oneof![
        (any::<i64>(), any::<i64>()).prop_map(|(a, b)| sorted(a, b)),
        (any::<i64>(), 0u64..1 << 40)
            .prop_map(|(min, span)| (min, min.saturating_add(span as i64))),
        Just((i64::MIN, i64::MAX)),
    ]
    .prop_flat_map(|(min, max)| (min..=max).prop_map(move |value| Field::Int64 { min, max, value }))
}

fn int128_field() -> impl Strategy<Value = Field> {
    (any::<i128>(), any::<i128>(), any::<u128>())
        .prop_map(|(a, b, pick)| Field::int128_between(a, b, pick))
}

/// The declarations the golden message uses, with a raw value in range.
fn fixed_field() -> impl Strategy<Value = Field> {
    let declarations = [
        (8, 8, -100, 100),
        (16, 16, -2000, 2000),
        (48, 16, -100_000, 100_000),
        (16, 16, 0, 30_000),
        (32, 0, 0, 4000),
        (112, 16, -(1i128 << 57), 1i128 << 57),
        (64, 64, i64::MIN as i128, i64::MAX as i128),
    ]
    .map(|(i, f, min, max)| Fixed::new(i, f, min, max).expect("valid declaration"));
    (
        proptest::sample::select(declarations.to_vec()),
        any::<u128>(),
    )
        .prop_map(|(format, pick)| {
            let span = (format.raw_max() as u128).wrapping_sub(format.raw_min() as u128);
            Field::Fixed {
                format,
                raw: (format.raw_min() as u128).wrapping_add(pick % (span + 1)) as i128,
            }
        })
}

fn compressed_float_field() -> impl Strategy<Value = Field> {
    let declarations = [
        (-1000.0f32, 1000.0, 0.001),
        (-10.0, 10.0, 0.01),
        (0.0, 10.0, 0.01),
        (-100.0, 100.0, 0.01),
        (0.0, 8_388_609.0, 1.0),
        (0.0, 16_777_215.0, 1.0),
        (0.0, 1.0, 2.0),
    ];
    let values = prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        (-2000.0f32..2000.0),
        (-1.0f32..20_000_000.0),
    ];
    (proptest::sample::select(declarations.to_vec()), values).prop_map(|((min, max, res), v)| {
        Field::CompressedFloat {
            format: CompressedFloat::new(min, max, res),
            bits: v.to_bits(),
        }
    })
}

fn int_relative_field() -> impl Strategy<Value = Field> {
    let differences = prop_oneof![
        Just(1i64),
        2i64..=6,
        7i64..=23,
        24i64..=280,
        281i64..=4377,
        4378i64..=69914,
        69915i64..=i32::MAX as i64,
    ];
    (0i64..i32::MAX as i64, differences).prop_filter_map("stays in the domain", |(previous, d)| {
        let current = previous + d;
        (current <= i32::MAX as i64).then_some(Field::IntRelative {
            previous: previous as i32,
            value: current as i32,
        })
    })
}

/// Declarations that leave an operation nothing, or next to nothing, to
/// read: zero-width ranges of every width, a fixed-point format with one
/// value, empty byte runs and strings, a lone alignment.
fn degenerate_field() -> impl Strategy<Value = Field> {
    prop_oneof![
        any::<i32>().prop_map(|v| Field::Int {
            min: v,
            max: v,
            value: v
        }),
        any::<i64>().prop_map(|v| Field::Int64 {
            min: v,
            max: v,
            value: v
        }),
        any::<i128>().prop_map(|v| Field::Int128 {
            min: v,
            max: v,
            value: v
        }),
        (-100i128..=100).prop_map(|v| {
            let format = Fixed::new(16, 8, v, v).expect("valid declaration");
            Field::Fixed {
                format,
                raw: format.raw_min(),
            }
        }),
        Just(Field::Bytes(Vec::new())),
        Just(Field::String {
            buffer_size: 1,
            value: String::new()
        }),
        Just(Field::WString {
            buffer_size: 1,
            units: Vec::new()
        }),
        Just(Field::Align),
        Just(Field::Object(Vec::new())),
        // Room for a count of zero only.
        (1u32..100).prop_map(|unit| Field::Unary {
            unit,
            room: 1,
            count: 0
        }),
    ]
}

/// Golomb codes: every parameter of scene E's table and a few more, a
/// room, and a gap in it.
fn golomb_field() -> impl Strategy<Value = Field> {
    let parameters = vec![
        0u32, 1, 2, 3, 4, 6, 8, 11, 15, 21, 29, 41, 58, 82, 128, 1000,
    ];
    (
        proptest::sample::select(parameters),
        1u32..=1025,
        any::<u32>(),
    )
        .prop_map(|(m, room, pick)| Field::Golomb {
            m,
            room,
            gap: 1 + pick % room,
        })
}

/// Unary counts: a unit, a room, and a count that keeps below it, from
/// zero to past a 64-bit window.
fn unary_field() -> impl Strategy<Value = Field> {
    (1u32..=130, 1u32..=2000, any::<u32>()).prop_map(|(unit, room, pick)| {
        let most = (room - 1) / unit;
        Field::Unary {
            unit,
            room,
            count: pick % (most + 1),
        }
    })
}

fn text() -> impl Strategy<Value = String> {
    "[^\u{0}]{0,12}"
}

fn leaf_field() -> impl Strategy<Value = Field> {
    prop_oneof![
        (1u32..=64, any::<u64>()).prop_map(|(bits, v)| Field::Bits {
            bits,
            value: if bits == 64 { v } else { v & ((1 << bits) - 1) },
        }),
        any::<bool>().prop_map(Field::Bool),
        int_field(),
        int64_field(),
        int128_field(),
        any::<u128>().prop_map(Field::Uint128),
        fixed_field(),
        any::<u32>().prop_map(|bits| Field::Float { bits }),
        any::<u64>().prop_map(|bits| Field::Double { bits }),
        compressed_float_field(),
        Just(Field::Align),
        proptest::collection::vec(any::<u8>(), 0..24).prop_map(Field::Bytes),
        (text(), 0u32..40).prop_map(|(value, extra)| Field::String {
            buffer_size: value.len() as u32 + 1 + extra,
            value,
        }),
        (text(), 0u32..40).prop_map(|(value, extra)| {
            let units: Vec<u16> = value.encode_utf16().collect();
            Field::WString {
                buffer_size: units.len() as u32 + 1 + extra,
                units,
            }
        }),
        int_relative_field(),
        proptest::sample::select(vec!["end of packet", "object", "a", ""]).prop_map(Field::Check),
        degenerate_field(),
        unary_field(),
        golomb_field(),
    ]
}

fn field() -> impl Strategy<Value = Field> {
    prop_oneof![
        8 => leaf_field(),
        1 => proptest::collection::vec(leaf_field(), 0..4).prop_map(Field::Object),
    ]
}

fn program() -> impl Strategy<Value = Program> {
    proptest::collection::vec(field(), 0..24).prop_map(Program)
}

/// What a read of `field` must return: itself, except that a compressed
/// float comes back quantized.
fn after_round_trip(field: &Field) -> Field {
    match field {
        Field::CompressedFloat { format, bits } => Field::CompressedFloat {
            format: *format,
            bits: format
                .dequantize(format.quantize(f32::from_bits(*bits)))
                .to_bits(),
        },
        Field::Object(inner) => Field::Object(inner.iter().map(after_round_trip).collect()),
        other => other.clone(),
    }
}

/// Writes `prefix` bits of `prefix_value`, then `program`; returns the bytes
/// and the bits the program itself wrote.
fn write(program: &mut Program, prefix: u32, prefix_value: u32) -> (Vec<u8>, u64) {
    let bound = codec::measure(program).expect("measure") as usize / 8 + 2;
    let mut buf = vec![0u8; bound];
    let mut stream = WriteStream::new(&mut buf);
    stream
        .serialize_bits(&mut (prefix_value & ((1 << prefix) - 1)), prefix)
        .expect("prefix");
    program.serialize(&mut stream).expect("write");
    let bits = stream.bit_offset() - u64::from(prefix);
    let len = stream.finish();
    buf.truncate(len);
    (buf, bits)
}

/// The same declaration holding a value no read of it can produce where
/// the declaration allows one (just below a range, bytes and text a read of
/// zeros cannot give), so a destination that a refused read touched shows.
fn poisoned(field: &Field) -> Field {
    let mut field = field.clone();
    match &mut field {
        Field::Int { min, value, .. } => *value = min.wrapping_sub(1),
        Field::Int64 { min, value, .. } => *value = min.wrapping_sub(1),
        Field::Int128 { min, value, .. } => *value = min.wrapping_sub(1),
        Field::Fixed { format, raw } => *raw = format.raw_min().wrapping_sub(1),
        Field::Bytes(bytes) => bytes.iter_mut().for_each(|b| *b = 0xA5),
        Field::String { value, .. } => *value = "poison".into(),
        Field::WString { units, .. } => *units = "poison".encode_utf16().collect(),
        Field::Object(fields) => *fields = fields.iter().map(poisoned).collect(),
        Field::Unary { count, .. } => *count = u32::MAX,
        Field::Golomb { gap, .. } => *gap = 0,
        _ => {}
    }
    field
}

/// A reader over `bytes` that has already refused, either by a rule
/// (`rule`) or by reading past the end of its input.
fn failed_reader(bytes: &[u8], rule: bool) -> (ReadStream<'_>, DecodeError) {
    let mut stream = ReadStream::new(bytes);
    let first = if rule {
        stream.refuse(DecodeError::OutOfRange { at: 0 })
    } else {
        // Each read takes 128 bits: the input runs out within len / 16 + 1.
        let mut wide = 0u128;
        (0..=bytes.len() / 16)
            .find_map(|_| stream.serialize_u128(&mut wide).err())
            .expect("the reader refuses once its bytes run out")
    };
    (stream, first)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Sticky failure, operation by operation: on a reader that has
    /// refused, every operation of the format, whatever its declaration
    /// (zero-width ones included), refuses with the first error, reads no
    /// bit and leaves its destination as it was.
    #[test]
    fn a_failed_reader_refuses_every_operation_and_touches_nothing(
        field in field(),
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
        rule in any::<bool>(),
    ) {
        let (mut stream, first) = failed_reader(&bytes, rule);
        let at = stream.bit_offset();
        let mut destination = poisoned(&field);
        let before = destination.clone();
        prop_assert_eq!(destination.serialize(&mut stream), Err(first), "{:?}", field);
        prop_assert_eq!(&destination, &before);
        prop_assert_eq!(stream.bit_offset(), at);
        prop_assert_eq!(codec::stream::expect_end(&mut stream), Err(first));
    }

    /// The same when the failure comes in the middle of a program: bytes
    /// cut short or with one bit flipped. From the first refusal on, every
    /// later field refuses with it, reads nothing and keeps its value.
    #[test]
    fn a_reader_that_fails_mid_program_refuses_every_later_field(
        mut program in program(),
        cut in any::<prop::sample::Index>(),
        flip in any::<Option<prop::sample::Index>>(),
    ) {
        let (mut bytes, _) = write(&mut program, 0, 0);
        prop_assume!(!bytes.is_empty());
        match flip {
            Some(bit) => {
                let bit = bit.index(bytes.len() * 8);
                bytes[bit / 8] ^= 1 << (bit % 8);
            }
            None => bytes.truncate(cut.index(bytes.len())),
        }
        let mut stream = ReadStream::new(&bytes);
        let mut first = None;
        for field in &program.0 {
            let mut destination = poisoned(field);
            let before = destination.clone();
            let at = stream.bit_offset();
            let result = destination.serialize(&mut stream);
            match first {
                None => first = result.err(),
                Some(why) => {
                    prop_assert_eq!(result, Err(why), "{:?}", field);
                    prop_assert_eq!(&destination, &before);
                    prop_assert_eq!(stream.bit_offset(), at);
                }
            }
        }
        if let Some(why) = first {
            prop_assert_eq!(codec::stream::expect_end(&mut stream), Err(why));
        }
    }

    #[test]
    fn write_then_read_returns_every_value(mut program in program(), prefix in 0u32..8, pv in any::<u32>()) {
        let (bytes, written) = write(&mut program, prefix, pv);
        let mut stream = ReadStream::new(&bytes);
        let mut skip = 0u32;
        stream.serialize_bits(&mut skip, prefix).unwrap();
        let mut read = program.blank();
        read.serialize(&mut stream).unwrap();
        let expected = Program(program.0.iter().map(after_round_trip).collect());
        prop_assert_eq!(read, expected);
        prop_assert_eq!(stream.bit_offset(), u64::from(prefix) + written);
    }

    #[test]
    fn measure_bounds_the_bits_written_from_every_offset(mut program in program(), prefix in 0u32..8) {
        let (_, written) = write(&mut program, prefix, 0);
        let mut measure = MeasureStream::new();
        program.serialize(&mut measure).unwrap();
        prop_assert!(measure.bits() >= written, "measure {} < written {}", measure.bits(), written);
    }

    #[test]
    fn every_truncation_is_refused_past_end(mut program in program()) {
        let (bytes, written) = write(&mut program, 0, 0);
        prop_assert_eq!(bytes.len() as u64, written.div_ceil(8));
        for cut in 0..bytes.len() {
            let mut read = program.blank();
            let result = read.serialize(&mut ReadStream::new(&bytes[..cut]));
            prop_assert!(
                matches!(result, Err(DecodeError::PastEnd { .. })),
                "cut at {} of {}: {:?}", cut, bytes.len(), result
            );
        }
    }

    #[test]
    fn a_single_flipped_bit_is_refused_or_read(mut program in program(), which in any::<usize>()) {
        let (mut bytes, _) = write(&mut program, 0, 0);
        prop_assume!(!bytes.is_empty());
        let bit = which % (bytes.len() * 8);
        bytes[bit / 8] ^= 1 << (bit % 8);
        let mut read = program.blank();
        let mut stream = ReadStream::new(&bytes);
        match read.serialize(&mut stream) {
            // A read that succeeds stays inside the input.
            Ok(()) => prop_assert!(stream.bit_offset() <= bytes.len() as u64 * 8),
            // A refusal points inside the input, and the stream stays failed.
            Err(why) => {
                prop_assert!(why.bit_offset() <= bytes.len() as u64 * 8);
                prop_assert_eq!(stream.serialize_bits(&mut 0, 0), Err(why));
            }
        }
    }
}

proptest! {
    /// The unsigned integers travel as their width in bits, 64 and 128 as
    /// 32-bit groups from the bottom, and read back as written.
    #[test]
    fn unsigned_integers_travel_as_their_bits(a: u8, b: u16, c: u32, d: u64, e: u128) {
        let mut by_width = [0u8; 64];
        let mut stream = WriteStream::new(&mut by_width);
        stream.serialize_u8(&mut a.clone()).unwrap();
        stream.serialize_u16(&mut b.clone()).unwrap();
        stream.serialize_u32(&mut c.clone()).unwrap();
        stream.serialize_u64(&mut d.clone()).unwrap();
        stream.serialize_u128(&mut e.clone()).unwrap();
        let len = stream.finish();

        let mut by_bits = [0u8; 64];
        let mut stream = WriteStream::new(&mut by_bits);
        let groups = [d as u32, (d >> 32) as u32]
            .into_iter()
            .chain((0..4).map(|i| (e >> (32 * i)) as u32));
        for (value, bits) in [(u32::from(a), 8), (u32::from(b), 16), (c, 32)] {
            stream.serialize_bits(&mut value.clone(), bits).unwrap();
        }
        for group in groups {
            stream.serialize_bits(&mut group.clone(), 32).unwrap();
        }
        prop_assert_eq!(stream.finish(), len);
        prop_assert_eq!(&by_width[..len], &by_bits[..len]);

        let mut reader = ReadStream::new(&by_width[..len]);
        let (mut a2, mut b2, mut c2, mut d2, mut e2) = (0u8, 0u16, 0u32, 0u64, 0u128);
        reader.serialize_u8(&mut a2).unwrap();
        reader.serialize_u16(&mut b2).unwrap();
        reader.serialize_u32(&mut c2).unwrap();
        reader.serialize_u64(&mut d2).unwrap();
        reader.serialize_u128(&mut e2).unwrap();
        prop_assert_eq!((a2, b2, c2, d2, e2), (a, b, c, d, e));
    }
}

/// Seven bits and a flag, for the nested-object test.
struct Pair(u32, bool);

impl Serialize for Pair {
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        stream.serialize_bits(&mut self.0, 7)?;
        stream.serialize_bool(&mut self.1)
    }
}

/// An object with no fields.
struct Empty;

impl Serialize for Empty {
    fn serialize<S: Stream>(&mut self, _: &mut S) -> Result<(), S::Error> {
        Ok(())
    }
}

/// A nested object adds no bits of its own: its fields travel as if written
/// in place, and read back; a failed reader refuses even an empty object.
#[test]
fn a_nested_object_adds_no_bits_and_a_failed_reader_refuses_it() {
    let mut nested = [0u8; 4];
    let mut stream = WriteStream::new(&mut nested);
    stream.serialize_object(&mut Pair(100, true)).unwrap();
    assert_eq!(stream.bit_offset(), 8);
    let len = stream.finish();
    assert_eq!(nested[..len], [100 | 0x80]);

    let mut read = Pair(0, false);
    let mut stream = ReadStream::new(&nested[..len]);
    stream.serialize_object(&mut read).unwrap();
    assert_eq!((read.0, read.1), (100, true));

    let mut stream = ReadStream::new(&[]);
    let first = stream.serialize_bool(&mut false).unwrap_err();
    assert_eq!(stream.serialize_object(&mut Empty), Err(first));
}

/// An array is its elements in order; an option a presence bit, then its
/// value when present. Both read back as written.
#[test]
fn arrays_and_options_travel_as_their_parts() {
    let mut buf = [0u8; 16];
    let mut stream = WriteStream::new(&mut buf);
    stream.serialize_object(&mut [3u8, 200]).unwrap();
    stream.serialize_object(&mut Some(7u8)).unwrap();
    stream.serialize_object(&mut None::<u8>).unwrap();
    assert_eq!(stream.bit_offset(), 8 + 8 + 1 + 8 + 1);
    let len = stream.finish();
    assert_eq!(buf[..len], [3, 200, 0x0F, 0x00]);

    let mut stream = ReadStream::new(&buf[..len]);
    let (mut array, mut some, mut none) = ([0u8; 2], None::<u8>, Some(1u8));
    stream.serialize_object(&mut array).unwrap();
    stream.serialize_object(&mut some).unwrap();
    stream.serialize_object(&mut none).unwrap();
    assert_eq!((array, some, none), ([3, 200], Some(7), None));
}

/// A reading stream keeps its first refusal, and has none before it.
#[test]
fn a_reading_stream_reports_its_first_refusal() {
    let mut stream = ReadStream::new(&[0xFF]);
    assert_eq!(stream.error(), None);
    let first = stream.serialize_bits(&mut 0, 9).unwrap_err();
    let _ = stream.serialize_bits(&mut 0, 1);
    assert_eq!(stream.error(), Some(first));
}
