//! What a reader allocates: no more than its input can hold, whatever a
//! count or a length claims, and a list's room reserved at once only where
//! its maximum is small. A counting allocator sees every allocation of this
//! test binary, which holds one test, so that nothing else allocates beside
//! the reads it measures.

use codec::ops::list::{serialize_byte_vec, serialize_list};
use codec::{DecodeError, ReadStream, Stream, WriteStream};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// `read`'s result and the bytes allocated while it ran.
fn allocated<T>(read: impl FnOnce() -> T) -> (T, usize) {
    let region = Region::new(GLOBAL);
    let out = read();
    (out, region.change().bytes_allocated)
}

fn item<S: Stream>(stream: &mut S, value: &mut u32) -> Result<(), S::Error> {
    stream.serialize_bits(value, 32)
}

/// `items` as a list of at most `max`.
fn written(items: &[u32], max: u32) -> Vec<u8> {
    let mut buf = vec![0u8; 64];
    let mut stream = WriteStream::new(&mut buf);
    serialize_list(&mut stream, &mut items.to_vec(), max, "items", item).unwrap();
    let len = stream.finish();
    buf.truncate(len);
    buf
}

/// A list of `u32`s of at most `max`, read from `bytes`.
fn list(bytes: &[u8], max: u32) -> Result<Vec<u32>, DecodeError> {
    let mut items = Vec::new();
    let mut stream = ReadStream::new(bytes);
    serialize_list(&mut stream, &mut items, max, "items", item)?;
    Ok(items)
}

#[test]
fn a_reader_allocates_what_its_input_holds_not_what_it_claims() {
    // 31-bit lengths and counts of all ones: 2 GiB promised in 5 bytes.
    let claim = [0xFF, 0xFF, 0xFF, 0x7F, 0x00];
    let (refused, bytes) = allocated(|| {
        serialize_byte_vec(
            &mut ReadStream::new(&claim),
            &mut Vec::new(),
            1 << 31,
            "run",
        )
    });
    assert_eq!(refused, Err(DecodeError::PastEnd { at: 32 }));
    assert!(bytes < 1024, "a refused byte run allocated {bytes} bytes");
    let (refused, bytes) =
        allocated(|| ReadStream::new(&claim).serialize_string(&mut String::new(), 1 << 31));
    assert!(matches!(refused, Err(DecodeError::PastEnd { .. })));
    assert!(bytes < 1024, "a refused string allocated {bytes} bytes");
    let (refused, bytes) =
        allocated(|| ReadStream::new(&claim).serialize_wstring(&mut Vec::new(), 1 << 31));
    assert!(matches!(refused, Err(DecodeError::PastEnd { .. })));
    assert!(
        bytes < 1024,
        "a refused wide string allocated {bytes} bytes"
    );

    // One u32 in a list of at most 100,000 (a 17-bit count): room for one,
    // not for the maximum.
    let one = written(&[u32::MAX], 100_000);
    let (items, bytes) = allocated(|| list(&one, 100_000));
    assert_eq!(items.as_deref(), Ok(&[u32::MAX][..]));
    assert!(
        bytes < 1024,
        "one item of a large list allocated {bytes} bytes"
    );
    // In a list of at most 16 (64 bytes), room for all 16 is taken at once.
    let items = list(&written(&[u32::MAX], 16), 16).unwrap();
    assert_eq!((items.as_slice(), items.capacity()), (&[u32::MAX][..], 16));
}
