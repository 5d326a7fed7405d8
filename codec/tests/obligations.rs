//! Reader and writer obligations that the conformance vectors cannot state:
//! writer-side rules, the error's contents, and the allocation bound.

use codec::{
    check_hash, CompressedFloat, DecodeError, EncodeError, MeasureStream, ReadStream, Stream,
    WriteStream,
};

#[test]
fn check_hash_matches_the_spec_vector() {
    assert_eq!(check_hash("end of packet"), 0x9908_ACE2);
    // Lower case is upper-cased first, so the two spellings agree.
    assert_eq!(check_hash("END OF PACKET"), 0x9908_ACE2);
    assert_eq!(check_hash(""), 0);
}

#[test]
fn unframed_spec_stream_is_reproduced() {
    let mut buf = [0u8; 16];
    let mut s = WriteStream::new(&mut buf);
    s.serialize_bits(&mut 5, 3).unwrap();
    s.serialize_int(&mut 17, -10, 100).unwrap();
    s.serialize_bool(&mut true).unwrap();
    s.serialize_bytes(&mut [1, 2, 3]).unwrap();
    let len = s.finish();
    assert_eq!(&buf[..len], &[0xDD, 0x04, 0x01, 0x02, 0x03]);
}

#[test]
fn writer_refuses_a_full_buffer_without_writing_past_it() {
    let mut buf = [0u8; 2];
    let mut s = WriteStream::new(&mut buf);
    s.serialize_bits(&mut 0x3FF, 10).unwrap();
    assert_eq!(
        s.serialize_bits(&mut 0x7F, 7),
        Err(EncodeError::BufferFull { at: 10 })
    );
    assert_eq!(
        s.serialize_bytes(&mut [1]),
        Err(EncodeError::BufferFull { at: 16 })
    );
}

#[test]
fn writer_refuses_values_a_reader_would_refuse() {
    let mut buf = [0u8; 64];
    let mut s = WriteStream::new(&mut buf);
    assert_eq!(
        s.serialize_int(&mut 11, 0, 10),
        Err(EncodeError::Invalid(DecodeError::OutOfRange { at: 0 }))
    );
    assert!(matches!(
        s.serialize_string(&mut "a\0b".to_string(), 16),
        Err(EncodeError::Invalid(DecodeError::InteriorNul { .. }))
    ));
    assert!(matches!(
        s.serialize_string(&mut "too long".to_string(), 4),
        Err(EncodeError::Invalid(DecodeError::OutOfRange { .. }))
    ));
    assert!(matches!(
        s.serialize_wstring(&mut vec![0xD800], 4),
        Err(EncodeError::Invalid(DecodeError::InvalidUtf16 { .. }))
    ));
    assert_eq!(
        s.serialize_int_relative(10, &mut 10),
        Err(EncodeError::Invalid(DecodeError::NotIncreasing { at: 0 }))
    );
}

/// The bit reader takes widths as given; the reading stream cuts a width
/// over 32 to 32, so a field read with a wider one reads what a 32-bit field
/// reads, and one past the end is refused there as a 32-bit read would be.
#[test]
fn a_reading_stream_cuts_a_field_wider_than_32_bits_to_32() {
    let data = [0x78, 0x56, 0x34, 0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0xAB];
    for wide in [33, 57, 58, 64, 1000, u32::MAX] {
        let mut stream = ReadStream::new(&data);
        let mut value = 0u32;
        stream.serialize_bits(&mut value, wide).unwrap();
        assert_eq!(
            (value, stream.bit_offset()),
            (0x1234_5678, 32),
            "width {wide}"
        );
        stream.serialize_bits(&mut value, 8).unwrap();
        assert_eq!(value, 0xFF);
        // 32 bits remain: a cut width reads them, and then nothing is left.
        stream.serialize_bits(&mut value, wide).unwrap();
        assert_eq!(
            (value, stream.bit_offset()),
            (0xABFF_FFFF, 72),
            "width {wide}"
        );
        assert_eq!(
            stream.serialize_bits(&mut value, wide),
            Err(DecodeError::PastEnd { at: 72 }),
            "width {wide}"
        );
    }
}

/// The writing and measuring streams agree with the reading one on a width
/// over 32: a field of 32 bits, written, counted and read alike.
#[test]
fn writing_and_measuring_streams_cut_a_field_wider_than_32_bits_to_32() {
    for wide in [33, 57, 58, 64, 1000, u32::MAX] {
        let mut buf = [0u8; 8];
        let mut s = WriteStream::new(&mut buf);
        s.serialize_bits(&mut 0x1234_5678, wide).unwrap();
        s.serialize_bits(&mut 0xAB, 8).unwrap();
        let len = s.finish();
        assert_eq!(&buf[..len], &[0x78, 0x56, 0x34, 0x12, 0xAB], "width {wide}");

        let mut measure = MeasureStream::new();
        measure.serialize_bits(&mut 0x1234_5678, wide).unwrap();
        measure.serialize_bits(&mut 0xAB, 8).unwrap();
        assert_eq!(measure.bits(), 40, "width {wide}");
    }
}

#[test]
fn check_mismatch_names_the_label_and_the_value_found() {
    let bytes = [0x01, 0x00, 0x00, 0x00];
    let mut s = ReadStream::new(&bytes);
    let err = s.serialize_check("end of packet").unwrap_err();
    assert_eq!(
        err,
        DecodeError::CheckMismatch {
            at: 0,
            label: "end of packet",
            found: 1
        }
    );
    assert!(err.to_string().contains("end of packet"), "{err}");
    // Sticky: even a zero-bit read fails now, with the first error.
    assert_eq!(s.serialize_bits(&mut 0, 0), Err(err));
}

#[test]
fn errors_carry_the_offset_of_the_refused_field() {
    // 3 bits, then an int over [0, 8] whose offset 15 is out of range.
    let bytes = [0b0111_1000];
    let mut s = ReadStream::new(&bytes);
    s.serialize_bits(&mut 0, 3).unwrap();
    let mut value = 4;
    assert_eq!(
        s.serialize_int(&mut value, 0, 8),
        Err(DecodeError::OutOfRange { at: 3 })
    );
    assert_eq!(value, 4, "a refused read leaves its destination alone");
}

#[test]
fn a_huge_string_length_is_refused_before_any_allocation() {
    // buffer_size 2^31 makes a 31-bit length; all ones promises 2 GiB.
    let bytes = [0xFF, 0xFF, 0xFF, 0x7F, 0x00];
    let mut value = String::from("kept");
    let err = ReadStream::new(&bytes)
        .serialize_string(&mut value, 1 << 31)
        .unwrap_err();
    assert!(matches!(err, DecodeError::PastEnd { .. }), "{err:?}");
    assert_eq!(value, "kept");
}

#[test]
fn a_huge_wstring_length_is_refused_before_any_allocation() {
    let bytes = [0xFF, 0xFF, 0xFF, 0x7F, 0x41, 0, 0, 0];
    let mut units = vec![0x41];
    let err = ReadStream::new(&bytes)
        .serialize_wstring(&mut units, 1 << 31)
        .unwrap_err();
    // The 31-bit length, one whole 32-bit group (bits 31 to 62), then the
    // first group the input cannot hold, at bit 63.
    assert_eq!(err, DecodeError::PastEnd { at: 63 });
    assert_eq!(units, vec![0x41]);
}

#[test]
fn a_byte_run_too_long_for_the_input_is_refused_where_its_payload_starts() {
    // A count of 3 in 2 bits (max 3), six bits of zero padding, then one
    // byte of the three promised: refused at bit 8, where the bytes start,
    // not at bit 2, where the count ends; nothing is allocated.
    let bytes = [0x03, 0xAA];
    let mut run = vec![1u8];
    let mut stream = ReadStream::new(&bytes);
    let err = codec::ops::list::serialize_byte_vec(&mut stream, &mut run, 3, "run").unwrap_err();
    assert_eq!(err, DecodeError::PastEnd { at: 8 });
    assert_eq!(run, vec![1]);
    // Non-zero padding comes first in the stream, so it is what is refused.
    let bytes = [0x07, 0xAA];
    let mut stream = ReadStream::new(&bytes);
    let err = codec::ops::list::serialize_byte_vec(&mut stream, &mut run, 3, "run").unwrap_err();
    assert!(
        matches!(err, DecodeError::NonZeroPadding { at: 2 }),
        "{err:?}"
    );
    // A run that ends exactly where the input does is read.
    let bytes = [0x02, 0xAA, 0xBB];
    let mut stream = ReadStream::new(&bytes);
    codec::ops::list::serialize_byte_vec(&mut stream, &mut run, 3, "run").unwrap();
    assert_eq!(run, vec![0xAA, 0xBB]);
}

#[test]
fn compressed_float_writer_rounds_half_up_without_fusing() {
    // The document's witness: 2^23 over [0, 16777215] at resolution 1 must
    // stay 2^23; a fused multiply-add moves it.
    let wide = CompressedFloat::new(0.0, 16_777_215.0, 1.0);
    assert_eq!(wide.bits(), 24);
    assert_eq!(wide.quantize(8_388_608.0), 8_388_608);
    let cm = CompressedFloat::new(-10.0, 10.0, 0.01);
    assert_eq!(cm.max_integer_value(), 2000);
    assert_eq!(cm.quantize(f32::NAN), 0, "NaN normalizes to 0");
    assert_eq!(cm.quantize(-11.0), 0, "clamped below");
    assert_eq!(cm.quantize(11.0), 2000, "clamped above");
    assert_eq!(cm.quantize(0.0), 1000);
    assert_eq!(cm.quantize(0.004), 1000, "rounds down below half a quantum");
    assert_eq!(cm.quantize(0.006), 1001, "rounds up above half a quantum");
}

#[test]
fn reading_never_demands_slack_bytes() {
    // A 32-bit read from exactly four bytes, and a 1-bit read from one.
    let mut value = 0;
    ReadStream::new(&[1, 2, 3, 4])
        .serialize_bits(&mut value, 32)
        .unwrap();
    assert_eq!(value, 0x0403_0201);
    ReadStream::new(&[1]).serialize_bits(&mut value, 1).unwrap();
    assert_eq!(value, 1);
}

#[test]
fn canonical_int_relative_refuses_the_absolute_tier_for_a_small_difference() {
    // Six zero flags, then 101 as 32 raw bits: format 1.1 accepts it
    // (a reader-only vector), the canonical reader does not.
    let mut buf = [0u8; 8];
    let mut s = WriteStream::new(&mut buf);
    s.serialize_bits(&mut 0, 6).unwrap();
    s.serialize_bits(&mut 101, 32).unwrap();
    let len = s.finish();
    let bytes = &buf[..len];
    let mut value = 0;
    ReadStream::new(bytes)
        .serialize_int_relative(100, &mut value)
        .unwrap();
    assert_eq!(value, 101);
    let mut strict = 7;
    assert_eq!(
        ReadStream::new(bytes).serialize_int_relative_canonical(100, &mut strict),
        Err(DecodeError::NonCanonical { at: 0 })
    );
    assert_eq!(strict, 7);
    // A difference past every bounded tier is canonical in the absolute tier.
    let mut buf = [0u8; 8];
    let mut s = WriteStream::new(&mut buf);
    s.serialize_int_relative_canonical(100, &mut 100_000)
        .unwrap();
    let len = s.finish();
    let mut far = 0;
    ReadStream::new(&buf[..len])
        .serialize_int_relative_canonical(100, &mut far)
        .unwrap();
    assert_eq!(far, 100_000);
}

/// A payload of no bits, for subsets whose indices are the point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Nothing;

impl codec::Serialize for Nothing {
    fn serialize<S: Stream>(&mut self, _: &mut S) -> Result<(), S::Error> {
        Ok(())
    }
}

/// A Golomb-coded subset that does not keep its parameter reads only the
/// encoding its writer would choose: the same set under any other
/// parameter is refused as non-canonical, at the parameter field, once the
/// set is read.
#[test]
fn a_golomb_subset_refuses_every_parameter_but_the_best() {
    use codec::subset::golomb::{best_parameter, golomb, golomb_with};
    use codec::subset::{Entry, GOLOMB_PARAMETERS};
    let size = 64;
    let items: Vec<Entry<Nothing>> = [3, 4, 9, 30, 31, 63]
        .into_iter()
        .map(|index| Entry {
            index,
            value: Nothing,
        })
        .collect();
    let best = best_parameter(&items, size);
    for parameter in 0..GOLOMB_PARAMETERS.len() as u8 {
        let mut buf = [0u8; 256];
        let mut stream = WriteStream::new(&mut buf);
        golomb_with(
            &mut stream,
            &mut items.clone(),
            size,
            &mut parameter.clone(),
        )
        .unwrap();
        let len = stream.finish();
        let mut read = Vec::new();
        let result = golomb(&mut ReadStream::new(&buf[..len]), &mut read, size);
        if parameter == best {
            assert_eq!((result, &read), (Ok(()), &items));
        } else {
            let refused = Err(DecodeError::NonCanonical { at: 0 });
            assert_eq!(result, refused, "parameter {parameter}");
        }
    }
}

/// What `best_parameter`'s bound rests on: entry 0 is the present set's
/// `m = 1`, every other entry has `m >= 2` (at least 2 bits a gap), and
/// the present entries come first.
#[test]
fn the_golomb_table_has_unary_first_and_no_other_m_of_1() {
    use codec::subset::{CodedSet, GOLOMB_PARAMETERS};
    assert_eq!(GOLOMB_PARAMETERS[0], (CodedSet::Present, 1));
    assert!(GOLOMB_PARAMETERS[1..].iter().all(|&(_, m)| m >= 2));
    let first_absent = GOLOMB_PARAMETERS
        .iter()
        .position(|&(set, _)| set == CodedSet::Absent);
    let present_after = first_absent.map_or(0, |at| {
        GOLOMB_PARAMETERS[at..]
            .iter()
            .filter(|&&(set, _)| set == CodedSet::Present)
            .count()
    });
    assert_eq!(present_after, 0);
    assert_eq!(
        first_absent,
        Some(13),
        "13 present entries, then 3 absent ones"
    );
}

/// Bits the Golomb-coded subset of `items` takes under `parameter`, as the
/// writer writes them: the measure the best parameter is held to.
fn golomb_bits(items: &[codec::subset::Entry<Nothing>], size: u32, parameter: u8) -> u64 {
    let mut buf = vec![0u8; 4096];
    let mut stream = WriteStream::new(&mut buf);
    codec::subset::golomb::golomb_with(&mut stream, &mut items.to_vec(), size, &mut { parameter })
        .unwrap();
    stream.bit_offset()
}

use proptest::strategy::Strategy;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    /// The parameter a Golomb-coded subset is sent with is the one whose
    /// code the writer makes shortest (ties to the lower entry), found by
    /// writing the set under each of the 16: the counting shortcuts
    /// (counting by value, pruning a set that cannot win) choose the same,
    /// at every density and on both sides of their size limits.
    #[test]
    fn the_best_parameter_writes_the_fewest_bits(
        (size, present) in (1u32..=2100, 0u32..=100).prop_flat_map(|(size, percent)| {
            (
                proptest::strategy::Just(size),
                proptest::collection::vec(
                    proptest::bool::weighted(f64::from(percent) / 100.0),
                    size as usize,
                ),
            )
        })
    ) {
        use codec::subset::golomb::best_parameter;
        use codec::subset::{Entry, GOLOMB_PARAMETERS};
        let items: Vec<Entry<Nothing>> = (0..size)
            .filter(|&i| present[i as usize])
            .map(|index| Entry { index, value: Nothing })
            .collect();
        let bits: Vec<u64> = (0..GOLOMB_PARAMETERS.len() as u8)
            .map(|p| golomb_bits(&items, size, p))
            .collect();
        let fewest = *bits.iter().min().unwrap();
        let expected = bits.iter().position(|&b| b == fewest).unwrap() as u8;
        proptest::prop_assert_eq!(best_parameter(&items, size), expected, "bits {:?}", bits);
    }
}
