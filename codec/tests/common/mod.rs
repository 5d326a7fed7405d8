//! Helpers shared by the packet-level tests: forging framed packets by hand
//! and proptest strategies for every protocol's values, from the values'
//! own generators.
#![allow(dead_code)] // each test file uses its own subset

use codec::arbitrary::{Arbitrary, Unstructured};
use codec::packet::{ProtocolId, END_OF_PACKET};
use codec::protocols::packets::TestPacket;
use codec::protocols::scenes::{GolombScene, SceneE, ScenePacket};
use codec::{Stream, WriteStream};
use proptest::prelude::*;
use std::fmt::Debug;

/// A packet whose fields are written by `build` exactly as given (nothing
/// is checked), framed with a CRC32 that is correct for `id`: the way to
/// reach the field checks behind the CRC.
pub fn forge(id: ProtocolId, build: impl FnOnce(&mut WriteStream)) -> Vec<u8> {
    forge_with_end(id, build, true)
}

/// As [`forge`], choosing whether the end-of-packet check is appended.
pub fn forge_with_end(id: ProtocolId, build: impl FnOnce(&mut WriteStream), end: bool) -> Vec<u8> {
    let mut buf = vec![0u8; 70_000];
    let mut s = WriteStream::new(&mut buf);
    s.serialize_bits(&mut 0, 32).unwrap();
    build(&mut s);
    if end {
        s.serialize_check(END_OF_PACKET).unwrap();
    }
    let len = s.finish();
    buf.truncate(len);
    refresh_crc(id, &mut buf);
    buf
}

/// Rewrites the CRC field of `packet` to match its contents under `id`.
pub fn refresh_crc(id: ProtocolId, packet: &mut [u8]) {
    let crc = id.crc32(packet);
    packet[..4].copy_from_slice(&crc.to_le_bytes());
}

/// Values of `T` from its `Arbitrary` implementation (the derive's
/// generator of valid values, or the scenes' own), fed with proptest's
/// bytes, so shrinking works on the bytes.
pub fn valid<T: for<'a> Arbitrary<'a> + Debug>() -> impl Strategy<Value = T> {
    proptest::collection::vec(any::<u8>(), 0..4096)
        .prop_map(|bytes| T::arbitrary(&mut Unstructured::new(&bytes)).expect("never fails"))
}

pub fn test_packet() -> impl Strategy<Value = TestPacket> {
    valid()
}

pub fn scene_packet() -> impl Strategy<Value = ScenePacket> {
    valid()
}

pub fn scene_e() -> impl Strategy<Value = SceneE> {
    valid()
}

pub fn golomb_scene() -> impl Strategy<Value = GolombScene> {
    valid()
}
