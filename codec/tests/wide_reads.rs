//! A reading stream reads a field of up to 57 bits with one load where it
//! can (`ReadStream::serialize_bits64`); it must then do exactly what the
//! format's two group reads do (a 32-bit group, then the rest), on any
//! input: whole, truncated, or read by a stream that has failed.

use codec::ops::wide::serialize_u64;
use codec::{DecodeError, ReadStream, Stream};
use outcome::{outcome, stream, Outcome};
use proptest::prelude::*;

mod outcome;

fn read(
    bytes: &[u8],
    skip: u32,
    fail: bool,
    bits: u32,
    how: fn(&mut ReadStream<'_>, &mut u64, u32) -> Result<(), DecodeError>,
) -> Outcome<u64> {
    outcome(stream(bytes, skip, fail), 0x5A5A, |s, v| how(s, v, bits))
}

proptest! {
    // Inputs of 0 to 24 bytes put the field both where eight bytes follow
    // its first byte and within the last eight, where it may not fit.
    #[test]
    fn a_wide_field_reads_as_its_two_groups(
        bytes in prop::collection::vec(any::<u8>(), 0..24),
        skip in 0u32..=32,
        fail in any::<bool>(),
        bits in 1u32..=64,
    ) {
        prop_assert_eq!(
            read(&bytes, skip, fail, bits, |s, v, b| s.serialize_bits64(v, b)),
            read(&bytes, skip, fail, bits, |s, v, b| serialize_u64(s, v, b))
        );
    }
}

#[test]
fn a_48_bit_field_reads_whole_with_eight_bytes_ahead_and_refuses_cut_short() {
    let bytes = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99];
    let mut stream = ReadStream::new(&bytes[1..]);
    let mut value = 0;
    stream.serialize_bits64(&mut value, 48).unwrap();
    assert_eq!(value, 0x7766_5544_3322);
    assert_eq!(stream.bit_offset(), 48);

    // Five bytes: the low group fits, the high one does not, and the
    // refusal is the high group's, at bit 32, with the value untouched.
    let mut stream = ReadStream::new(&bytes[..5]);
    let mut value = 7;
    assert_eq!(
        stream.serialize_bits64(&mut value, 48),
        Err(DecodeError::PastEnd { at: 32 })
    );
    assert_eq!(value, 7);
}
