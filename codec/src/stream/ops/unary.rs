//! A unary count: `count` one-bits, then a zero-bit (the quotient of a
//! Golomb code).

use crate::error::DecodeError;
use crate::stream::Stream;

/// Whether a count of `count` steps of `unit` stays below `room`: the
/// bound a unary count must keep.
#[inline(always)]
#[must_use]
pub fn below(count: u32, unit: u32, room: u32) -> bool {
    u64::from(count).saturating_mul(u64::from(unit)) < u64::from(room)
}

/// `count` one-bits, then a zero-bit, where `count * unit` must stay below
/// `room`. The writer refuses a count that does not
/// ([`DecodeError::OutOfRange`], at the count's first bit); the reader
/// refuses as soon as the one-bit that breaks the bound is read, so a run
/// of ones is never read further than the bound allows, and leaves `count`
/// untouched when it refuses. Each side's loop ends by its own bound: the
/// writer's at `count`, the reader's at the bound or the input's end.
#[inline]
pub fn serialize_unary<S: Stream + ?Sized>(
    stream: &mut S,
    count: &mut u32,
    unit: u32,
    room: u32,
) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    if S::IS_WRITING {
        if !below(*count, unit, room) {
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        for _ in 0..*count {
            stream.serialize_bool(&mut true)?;
        }
        return stream.serialize_bool(&mut false);
    }
    let mut read = 0u32;
    loop {
        let mut one = false;
        stream.serialize_bool(&mut one)?;
        if !one {
            break;
        }
        read = read.saturating_add(1);
        if !below(read, unit, room) {
            core::hint::cold_path();
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
    }
    *count = read;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{ReadStream, WriteStream};

    /// The reader refuses at the bound even where the input ends there:
    /// it never reads the bit after the one that breaks it.
    #[test]
    fn a_run_of_ones_is_refused_at_the_bound_not_at_the_input_end() {
        for (unit, room) in [(1, 8), (2, 16), (4, 29)] {
            let mut stream = ReadStream::new(&[0xFF]);
            let mut count = 99;
            assert_eq!(
                serialize_unary(&mut stream, &mut count, unit, room),
                Err(DecodeError::OutOfRange { at: 0 }),
                "unit {unit} room {room}"
            );
            assert_eq!(count, 99);
        }
        // One bit short of the bound, the zero after the ones is read.
        let mut stream = ReadStream::new(&[0x7F]);
        let mut count = 0;
        serialize_unary(&mut stream, &mut count, 1, 8).unwrap();
        assert_eq!((count, stream.bit_offset()), (7, 8));
    }

    #[test]
    fn the_writer_sends_count_ones_and_a_zero_and_refuses_past_the_bound() {
        for count in [0u32, 1, 5, 7] {
            let mut buf = [0u8; 8];
            let mut stream = WriteStream::new(&mut buf);
            serialize_unary(&mut stream, &mut { count }, 1, 8).unwrap();
            assert_eq!(stream.bit_offset(), u64::from(count) + 1);
            stream.finish();
            assert_eq!(u32::from(buf[0]), (1 << count) - 1);
        }
        let mut buf = [0u8; 8];
        let mut stream = WriteStream::new(&mut buf);
        assert_eq!(
            serialize_unary(&mut stream, &mut 4, 2, 8),
            Err(crate::EncodeError::Invalid(DecodeError::OutOfRange {
                at: 0
            }))
        );
    }
}
