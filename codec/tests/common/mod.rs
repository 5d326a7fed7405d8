//! Helpers shared by the packet-level tests: forging framed packets by hand
//! and proptest strategies for every protocol's values.
#![allow(dead_code)] // each test file uses its own subset

use codec::packet::{ProtocolId, END_OF_PACKET};
use codec::protocols::packets::{PacketA, PacketB, PacketC, TestPacket};
use codec::protocols::scenes::{Object, Scene, SceneE, ScenePacket, Slot, Strategy as Layout};
use codec::{Stream, WriteStream};
use proptest::prelude::*;

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

pub fn packet_a() -> impl Strategy<Value = PacketA> {
    (-10..=10, -20..=20, -30..=30).prop_map(|(a, b, c)| PacketA { a, b, c })
}

pub fn packet_b() -> impl Strategy<Value = PacketB> {
    proptest::collection::vec(-100..=100, 0..=32).prop_map(|items| PacketB { items })
}

pub fn packet_c() -> impl Strategy<Value = PacketC> {
    let floats = any::<[u32; 3]>().prop_map(|bits| bits.map(f32::from_bits));
    (floats.clone(), any::<bool>(), floats).prop_map(|(position, at_rest, velocity)| PacketC {
        position,
        at_rest,
        velocity: if at_rest { [0.0; 3] } else { velocity },
    })
}

pub fn test_packet() -> impl Strategy<Value = TestPacket> {
    prop_oneof![
        packet_a().prop_map(TestPacket::A),
        packet_b().prop_map(TestPacket::B),
        packet_c().prop_map(TestPacket::C),
    ]
}

pub fn object() -> impl Strategy<Value = Object> {
    let vector = |limit: f32| proptest::array::uniform3(-limit * 1.2..limit * 1.2);
    (
        vector(1000.0),
        proptest::array::uniform4(-1.0f32..1.0),
        any::<bool>(),
        vector(10.0),
        vector(20.0),
    )
        .prop_map(|(position, orientation, moving, linear, angular)| {
            if moving {
                Object::new(position, orientation, linear, angular)
            } else {
                Object::new(position, orientation, [0.0; 3], [0.0; 3])
            }
        })
}

/// A scene with a random subset of indices, at a random density.
pub fn scene() -> impl Strategy<Value = Scene> {
    (0.0f64..=1.0, any::<u64>()).prop_flat_map(|(density, seed)| {
        let indices: Vec<u16> = (0..1024u16)
            .filter(|i| {
                let h = (u64::from(*i) ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                ((h >> 11) as f64 / (1u64 << 53) as f64) < density
            })
            .collect();
        proptest::collection::vec(object(), indices.len()).prop_map(move |objects| Scene {
            slots: indices
                .iter()
                .zip(objects)
                .map(|(&index, object)| Slot { index, object })
                .collect(),
        })
    })
}

pub fn scene_packet() -> impl Strategy<Value = ScenePacket> {
    (proptest::sample::select(Layout::ALL.to_vec()), scene())
        .prop_map(|(strategy, scene)| ScenePacket { strategy, scene })
}

pub fn scene_e() -> impl Strategy<Value = SceneE> {
    scene().prop_map(SceneE::new)
}
