//! What a read did, for the tests that hold a reader's fast path equal to
//! the field-by-field path: the result, the value it left, where the
//! stream stands, and what its next read says.

use codec::{DecodeError, ReadStream, Stream};

#[derive(Debug, PartialEq)]
pub struct Outcome<V> {
    pub result: Result<(), DecodeError>,
    pub value: V,
    pub offset: u64,
    pub remaining: u64,
    pub next: Result<u32, DecodeError>,
}

/// Runs `how` on `stream` into `value`, then reads 3 bits more.
pub fn outcome<S: Stream<Error = DecodeError>, V>(
    mut stream: S,
    mut value: V,
    how: impl FnOnce(&mut S, &mut V) -> Result<(), DecodeError>,
) -> Outcome<V> {
    let result = how(&mut stream, &mut value);
    let (offset, remaining) = (stream.bit_offset(), stream.bits_remaining());
    let mut next = 0;
    let next = stream.serialize_bits(&mut next, 3).map(|()| next);
    Outcome {
        result,
        value,
        offset,
        remaining,
        next,
    }
}

/// A stream over `bytes` that has read `skip` bits already, and has failed
/// when `fail` says so.
pub fn stream(bytes: &[u8], skip: u32, fail: bool) -> ReadStream<'_> {
    let mut stream = ReadStream::new(bytes);
    let _ = stream.serialize_bits(&mut 0, skip);
    if fail {
        let _ = stream.refuse(DecodeError::OutOfRange { at: 0 });
    }
    stream
}
