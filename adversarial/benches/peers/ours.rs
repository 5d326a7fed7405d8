//! Our codec: scene E, the Golomb scene (scene E's version 1), the best of
//! the article's scenes A-D, and protocol
//! "packets", each a framed packet (CRC32 over the protocol id, packet type,
//! end-of-packet check) written into a reused buffer.

use crate::wire::Wire;
use crate::workload::{FloatObject, FloatPacket};
use codec::packet::{self, Packet};
use codec::protocols::packets::{PacketA, PacketB, PacketC, TestPacket};
use codec::protocols::scenes::{
    GolombScene, Object, Scene, SceneE, ScenePacket, Slot, Strategy, MAX_SCENE_PACKET_BYTES,
};

/// The objects, quantized by the articles' ranges.
fn scene(objects: &[FloatObject]) -> Scene {
    let slots = objects
        .iter()
        .map(|o| {
            let (linear, angular) = o.velocity.unwrap_or_default();
            Slot {
                index: o.index,
                object: Object::new(o.position, o.orientation, linear, angular),
            }
        })
        .collect();
    Scene { slots }
}

fn encode<'s, P: Packet>(buf: &'s mut [u8], value: &mut P) -> &'s [u8] {
    let len = packet::encode(value, buf).expect("a valid packet encodes");
    &buf[..len]
}

fn decode<P: Packet>(bytes: &[u8]) -> P {
    packet::decode(bytes).expect("our own packet decodes")
}

/// Scene E: the adaptive subset code, nothing to choose per scene.
pub struct OursE;

impl Wire<Vec<FloatObject>> for OursE {
    const NAME: &'static str = "ours-E";
    type Value = SceneE;
    type State = Vec<u8>;

    fn state() -> Vec<u8> {
        vec![0; MAX_SCENE_PACKET_BYTES]
    }

    fn value(input: &Vec<FloatObject>) -> SceneE {
        SceneE::new(scene(input))
    }

    fn encode<'s>(state: &'s mut Vec<u8>, value: &mut SceneE) -> &'s [u8] {
        encode(state, value)
    }

    fn decode(_: &mut Vec<u8>, bytes: &[u8]) -> SceneE {
        decode(bytes)
    }
}

/// The Golomb scene (scene E's version 1). Encoding includes choosing the
/// Golomb parameter for the scene, as a sender does for every new scene.
pub struct OursGolomb;

impl Wire<Vec<FloatObject>> for OursGolomb {
    const NAME: &'static str = "ours-golomb";
    type Value = GolombScene;
    type State = Vec<u8>;

    fn state() -> Vec<u8> {
        vec![0; MAX_SCENE_PACKET_BYTES]
    }

    fn value(input: &Vec<FloatObject>) -> GolombScene {
        GolombScene::new(scene(input))
    }

    fn encode<'s>(state: &'s mut Vec<u8>, value: &mut GolombScene) -> &'s [u8] {
        value.parameter = GolombScene::best_parameter(&value.scene);
        encode(state, value)
    }

    fn decode(_: &mut Vec<u8>, bytes: &[u8]) -> GolombScene {
        decode(bytes)
    }
}

/// The smallest of the article's scenes A-D for this scene, chosen when the
/// value is built (the article's sample sends one fixed strategy).
pub struct OursBestOfAD;

impl Wire<Vec<FloatObject>> for OursBestOfAD {
    const NAME: &'static str = "ours-A-D";
    type Value = ScenePacket;
    type State = Vec<u8>;

    fn state() -> Vec<u8> {
        vec![0; MAX_SCENE_PACKET_BYTES]
    }

    fn value(input: &Vec<FloatObject>) -> ScenePacket {
        let scene = scene(input);
        Strategy::ALL
            .into_iter()
            .map(|strategy| ScenePacket {
                strategy,
                scene: scene.clone(),
            })
            .min_by_key(|p| packet::encode_to_vec(&mut p.clone()).map_or(usize::MAX, |b| b.len()))
            .expect("four strategies")
    }

    fn encode<'s>(state: &'s mut Vec<u8>, value: &mut ScenePacket) -> &'s [u8] {
        encode(state, value)
    }

    fn decode(_: &mut Vec<u8>, bytes: &[u8]) -> ScenePacket {
        decode(bytes)
    }
}

/// Protocol "packets": the article's ranges, raw floats in packet C.
pub struct OursPackets;

impl Wire<FloatPacket> for OursPackets {
    const NAME: &'static str = "ours";
    type Value = TestPacket;
    type State = Vec<u8>;

    fn state() -> Vec<u8> {
        vec![0; TestPacket::MAX_PACKET_BYTES]
    }

    fn value(input: &FloatPacket) -> TestPacket {
        match input {
            FloatPacket::A { a, b, c } => TestPacket::A(PacketA {
                a: *a,
                b: *b,
                c: *c,
            }),
            FloatPacket::B { items } => TestPacket::B(PacketB {
                items: items.clone(),
            }),
            FloatPacket::C { position, velocity } => TestPacket::C(PacketC {
                position: *position,
                at_rest: velocity.is_none(),
                velocity: velocity.unwrap_or_default(),
            }),
        }
    }

    fn encode<'s>(state: &'s mut Vec<u8>, value: &mut TestPacket) -> &'s [u8] {
        encode(state, value)
    }

    fn decode(_: &mut Vec<u8>, bytes: &[u8]) -> TestPacket {
        decode(bytes)
    }
}
