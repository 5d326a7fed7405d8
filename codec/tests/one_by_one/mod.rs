//! Streams with only the operations every stream must have, so that
//! everything else goes field by field: what the tests hold the fast
//! paths of [`ReadStream`] and [`WriteStream`] equal to.

// Not every test that shares this module uses both.
#![allow(dead_code)]

use codec::{DecodeError, EncodeError, ReadStream, Stream, WriteStream};

/// Where the stream wrapped as `self.$inner` stands: the position every
/// wrapping stream forwards.
macro_rules! forward_position {
    ($inner:tt) => {
        fn bit_offset(&self) -> u64 {
            self.$inner.bit_offset()
        }

        fn bits_remaining(&self) -> u64 {
            self.$inner.bits_remaining()
        }
    };
}
#[allow(unused_imports)] // Not every test that shares this module uses it.
pub(crate) use forward_position;

/// The operations every stream must have, handed to the stream wrapped as
/// `self.0`, whose error is `$error`.
macro_rules! forward_required {
    ($error:ty) => {
        forward_position!(0);

        fn refuse(&mut self, why: DecodeError) -> $error {
            self.0.refuse(why)
        }

        fn serialize_bits(&mut self, value: &mut u32, bits: u32) -> Result<(), $error> {
            self.0.serialize_bits(value, bits)
        }

        fn serialize_align(&mut self) -> Result<(), $error> {
            self.0.serialize_align()
        }

        fn serialize_bytes(&mut self, bytes: &mut [u8]) -> Result<(), $error> {
            self.0.serialize_bytes(bytes)
        }

        fn serialize_str_payload(&mut self, value: &mut String, len: usize) -> Result<(), $error> {
            self.0.serialize_str_payload(value, len)
        }
    };
}
#[allow(unused_imports)] // Not every test that shares this module uses it.
pub(crate) use forward_required;

/// A reading stream with only the operations every stream must have, so
/// that everything else is read field by field.
pub struct OneByOne<'a>(pub ReadStream<'a>);

impl Stream for OneByOne<'_> {
    const IS_READING: bool = true;
    type Error = DecodeError;

    forward_required!(DecodeError);
}

/// A writing stream with only the operations every stream must have.
pub struct WriteOneByOne<'a>(pub WriteStream<'a>);

impl Stream for WriteOneByOne<'_> {
    const IS_READING: bool = false;
    type Error = EncodeError;

    forward_required!(EncodeError);
}
