//! The general-purpose peers, on the plain types of `workload`: bitcode
//! (bitwise, columnar, adaptive integer packing) and postcard (bytes and
//! varints). Neither knows a range or quantizes a float.

use crate::wire::Wire;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// bitcode 0.6, encoding and decoding through a reused `bitcode::Buffer`.
pub struct Bitcode;

impl<T> Wire<T> for Bitcode
where
    T: Clone + PartialEq + bitcode::Encode + bitcode::DecodeOwned,
{
    const NAME: &'static str = "bitcode";
    type Value = T;
    type State = bitcode::Buffer;

    fn state() -> bitcode::Buffer {
        bitcode::Buffer::new()
    }

    fn value(input: &T) -> T {
        input.clone()
    }

    fn encode<'s>(state: &'s mut bitcode::Buffer, value: &mut T) -> &'s [u8] {
        state.encode(value)
    }

    fn decode(state: &mut bitcode::Buffer, bytes: &[u8]) -> T {
        state.decode(bytes).expect("bitcode decodes its own packet")
    }
}

/// postcard 1, encoding into a reused slice.
pub struct Postcard;

/// Larger than any packet of the workloads.
const POSTCARD_BUFFER: usize = 1 << 16;

impl<T> Wire<T> for Postcard
where
    T: Clone + PartialEq + Serialize + DeserializeOwned,
{
    const NAME: &'static str = "postcard";
    type Value = T;
    type State = Vec<u8>;

    fn state() -> Vec<u8> {
        vec![0; POSTCARD_BUFFER]
    }

    fn value(input: &T) -> T {
        input.clone()
    }

    fn encode<'s>(state: &'s mut Vec<u8>, value: &mut T) -> &'s [u8] {
        postcard::to_slice(value, state).expect("the buffer holds any packet")
    }

    fn decode(_: &mut Vec<u8>, bytes: &[u8]) -> T {
        postcard::from_bytes(bytes).expect("postcard decodes its own packet")
    }
}
