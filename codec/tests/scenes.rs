//! Protocols "scenes" (A-D), "scenes-entropy" (E) and "scenes-golomb"
//! (E's version 1): round trips, canonical re-encoding, and one test per
//! refusal, each forging its packet.

mod common;

use codec::packet;
use codec::protocols::scenes::{
    GolombScene, Object, Scene, SceneE, ScenePacket, Slot, SmallestThree, Strategy as Layout,
    POSITION, SCENES_ENTROPY_PROTOCOL_ID, SCENES_GOLOMB_PROTOCOL_ID,
};
use codec::protocols::ARTICLES_PROTOCOL_ID;
use codec::{DecodeError, Serialize, Stream, WriteStream};
use common::{forge, golomb_scene, refresh_crc, scene_e, scene_packet};
use proptest::prelude::*;

fn object_at(index: u16) -> Slot {
    Slot {
        index,
        object: Object::new(
            [index as f32, -1.5, 2.25],
            [0.1, 0.2, 0.3, 0.9],
            [1.0, 0.0, 0.0],
            [0.0; 3],
        ),
    }
}

fn scenes_packet(build: impl FnOnce(&mut WriteStream)) -> Vec<u8> {
    forge(ARTICLES_PROTOCOL_ID, build)
}

fn write_object(s: &mut WriteStream) {
    Object::default().serialize(s).unwrap();
}

fn decode_scenes(bytes: &[u8]) -> Result<ScenePacket, DecodeError> {
    packet::decode::<ScenePacket>(bytes)
}

/// Type field (2 bits) for strategy `t`.
fn type_field(s: &mut WriteStream, t: u32) {
    s.serialize_bits(&mut t.clone(), 2).unwrap();
}

#[test]
fn every_strategy_round_trips_a_small_scene() {
    let scene = Scene {
        slots: vec![
            object_at(0),
            object_at(1),
            object_at(7),
            object_at(300),
            object_at(1023),
        ],
    };
    for strategy in Layout::ALL {
        let mut p = ScenePacket {
            strategy,
            scene: scene.clone(),
        };
        let bytes = packet::encode_to_vec(&mut p).unwrap();
        assert_eq!(decode_scenes(&bytes), Ok(p), "{strategy:?}");
    }
    let mut e = SceneE::new(scene.clone());
    let bytes = packet::encode_to_vec(&mut e).unwrap();
    assert_eq!(packet::decode::<SceneE>(&bytes), Ok(e));
    let mut g = GolombScene::new(scene);
    let bytes = packet::encode_to_vec(&mut g).unwrap();
    assert_eq!(packet::decode::<GolombScene>(&bytes), Ok(g));
}

#[test]
fn scene_b_refuses_a_duplicate_index() {
    let bytes = scenes_packet(|s| {
        type_field(s, 1);
        s.serialize_int(&mut 2, 0, 1024).unwrap();
        for _ in 0..2 {
            s.serialize_int(&mut 5, 0, 1023).unwrap();
            write_object(s);
        }
    });
    let second_index = 32 + 2 + 11 + 10 + object_bits();
    assert_eq!(
        decode_scenes(&bytes),
        Err(DecodeError::NotIncreasing { at: second_index })
    );
}

#[test]
fn scene_b_refuses_a_decreasing_index() {
    let bytes = scenes_packet(|s| {
        type_field(s, 1);
        s.serialize_int(&mut 2, 0, 1024).unwrap();
        for mut index in [9, 4] {
            s.serialize_int(&mut index, 0, 1023).unwrap();
            write_object(s);
        }
    });
    assert!(matches!(
        decode_scenes(&bytes),
        Err(DecodeError::NotIncreasing { .. })
    ));
}

#[test]
fn scene_b_refuses_a_count_above_1024() {
    let bytes = scenes_packet(|s| {
        type_field(s, 1);
        s.serialize_bits(&mut 1025, 11).unwrap();
    });
    assert_eq!(
        decode_scenes(&bytes),
        Err(DecodeError::OutOfRange { at: 34 })
    );
}

#[test]
fn scene_b_refuses_a_count_promising_more_objects_than_follow() {
    // The end check's bytes are read as the missing objects' fields and
    // break some rule; with nothing left after them, the read runs past end.
    let bytes = scenes_packet(|s| {
        type_field(s, 1);
        s.serialize_int(&mut 1024, 0, 1024).unwrap();
    });
    assert!(decode_scenes(&bytes).is_err());
    let short = scenes_packet(|s| {
        type_field(s, 1);
        s.serialize_int(&mut 1, 0, 1024).unwrap();
        s.serialize_int(&mut 3, 0, 1023).unwrap();
    });
    assert!(matches!(
        decode_scenes(&short),
        Err(DecodeError::PastEnd { .. })
    ));
}

#[test]
fn scene_c_refuses_a_duplicate_index() {
    let bytes = scenes_packet(|s| {
        type_field(s, 2);
        for _ in 0..2 {
            s.serialize_int(&mut 5, 0, 1024).unwrap();
            write_object(s);
        }
        s.serialize_int(&mut 1024, 0, 1024).unwrap();
    });
    assert!(matches!(
        decode_scenes(&bytes),
        Err(DecodeError::NotIncreasing { .. })
    ));
}

#[test]
fn scene_c_refuses_a_missing_sentinel() {
    let bytes = codec_frame_without_end(|s| {
        type_field(s, 2);
        s.serialize_int(&mut 5, 0, 1024).unwrap();
        write_object(s);
    });
    assert!(matches!(
        decode_scenes(&bytes),
        Err(DecodeError::PastEnd { .. })
    ));
}

#[test]
fn scene_d_refuses_an_index_above_the_sentinel() {
    // The sample reader writes out of bounds here; an object at 5, then the
    // last tier's largest difference, 1025, lands on 1030.
    let bytes = scenes_packet(|s| {
        type_field(s, 3);
        // 5 = -1 + 6: tier [6, 13] is flags 0 0 1, then int(6, 6..13).
        for flag in [false, false, true] {
            s.serialize_bool(&mut flag.clone()).unwrap();
        }
        s.serialize_int(&mut 6, 6, 13).unwrap();
        write_object(s);
        for _ in 0..6 {
            s.serialize_bool(&mut false).unwrap();
        }
        s.serialize_int(&mut 1025, 126, 1025).unwrap();
    });
    let at = 32 + 2 + 3 + 3 + object_bits();
    assert_eq!(decode_scenes(&bytes), Err(DecodeError::OutOfRange { at }));
}

#[test]
fn scene_d_refuses_a_tier_payload_past_its_span() {
    // The last tier is int(126, 1025): 10 bits, so offset 900 is expressible.
    let bytes = scenes_packet(|s| {
        type_field(s, 3);
        for _ in 0..6 {
            s.serialize_bool(&mut false).unwrap();
        }
        s.serialize_bits(&mut 900, 10).unwrap();
    });
    assert_eq!(
        decode_scenes(&bytes),
        Err(DecodeError::OutOfRange { at: 40 })
    );
}

#[test]
fn scene_d_refuses_a_missing_sentinel() {
    let bytes = codec_frame_without_end(|s| {
        type_field(s, 3);
        s.serialize_bool(&mut true).unwrap();
        write_object(s);
    });
    assert!(matches!(
        decode_scenes(&bytes),
        Err(DecodeError::PastEnd { .. })
    ));
}

#[test]
fn refuses_an_impossible_quaternion() {
    // Three components at the top code square-sum to 1.5.
    let bytes = scenes_packet(|s| {
        type_field(s, 2);
        s.serialize_int(&mut 0, 0, 1024).unwrap();
        for _ in 0..3 {
            s.serialize_compressed_code(&mut 0, &POSITION).unwrap();
        }
        s.serialize_bits(&mut 3, 2).unwrap();
        for _ in 0..3 {
            s.serialize_bits(&mut 1023, 10).unwrap();
        }
    });
    let at = 32 + 2 + 11 + 3 * 21;
    assert_eq!(
        decode_scenes(&bytes),
        Err(DecodeError::InvalidQuaternion { at })
    );
}

#[test]
fn refuses_a_position_code_above_its_maximum() {
    let bytes = scenes_packet(|s| {
        type_field(s, 2);
        s.serialize_int(&mut 0, 0, 1024).unwrap();
        s.serialize_bits(&mut 2_000_001, 21).unwrap();
    });
    assert_eq!(
        decode_scenes(&bytes),
        Err(DecodeError::OutOfRange { at: 45 })
    );
}

#[test]
fn writer_refuses_unsorted_or_out_of_range_indices() {
    for slots in [
        vec![object_at(4), object_at(4)],
        vec![object_at(9), object_at(3)],
        vec![object_at(1024)],
    ] {
        for strategy in Layout::ALL {
            let mut p = ScenePacket {
                strategy,
                scene: Scene {
                    slots: slots.clone(),
                },
            };
            assert!(
                packet::encode_to_vec(&mut p).is_err(),
                "{strategy:?} {slots:?}"
            );
        }
        let mut e = SceneE::new(Scene {
            slots: slots.clone(),
        });
        assert!(packet::encode_to_vec(&mut e).is_err());
        let mut g = GolombScene {
            parameter: 0,
            scene: Scene { slots },
        };
        assert!(packet::encode_to_vec(&mut g).is_err());
    }
}

fn golomb_packet(build: impl FnOnce(&mut WriteStream)) -> Vec<u8> {
    forge(SCENES_GOLOMB_PROTOCOL_ID, build)
}

#[test]
fn golomb_scene_refuses_a_gap_past_the_sentinel() {
    // Parameter 0 is m = 1: the gap is unary. 1025 ones pass the sentinel
    // from -1; the reader stops at the first one too many.
    let bytes = golomb_packet(|s| {
        s.serialize_int(&mut 0, 0, 15).unwrap();
        for _ in 0..1100 {
            s.serialize_bool(&mut true).unwrap();
        }
    });
    assert_eq!(
        packet::decode::<GolombScene>(&bytes),
        Err(DecodeError::OutOfRange { at: 36 })
    );
}

#[test]
fn golomb_scene_refuses_a_remainder_past_the_sentinel() {
    // m = 100 (parameter 15): quotient 10 and remainder 99 make gap 1100.
    let bytes = golomb_packet(|s| {
        s.serialize_int(&mut 15, 0, 15).unwrap();
        let mut ones = (1u32 << 10) - 1;
        s.serialize_bits(&mut ones, 11).unwrap();
        // m = 100: b = 7, u = 28; remainder 99 is sent as 127 >> 1 then 1.
        s.serialize_bits(&mut 63, 6).unwrap();
        s.serialize_bits(&mut 1, 1).unwrap();
    });
    assert_eq!(
        packet::decode::<GolombScene>(&bytes),
        Err(DecodeError::OutOfRange { at: 36 })
    );
}

/// The gap bound is tight: under every parameter, a first gap of 1026
/// (index 1025, one past the sentinel's 1024) is refused at its first bit,
/// by the generic reader and by the hot path, which the zero bytes after
/// the code leave room to look. A reader whose bound let one more through
/// passes the tests above, whose gaps overshoot by dozens.
#[test]
fn golomb_scene_refuses_a_sentinel_gap_one_past_the_set() {
    use codec::ops::golomb::serialize_golomb;
    use codec::subset::GOLOMB_PARAMETERS;
    for (parameter, &(_, m)) in GOLOMB_PARAMETERS.iter().enumerate() {
        let bytes = golomb_packet(|s| {
            s.serialize_int(&mut (parameter as i32), 0, 15).unwrap();
            serialize_golomb(s, &mut 1026, m, u32::MAX).unwrap();
            for _ in 0..16 {
                s.serialize_bits(&mut 0, 8).unwrap();
            }
        });
        assert_eq!(
            packet::decode::<GolombScene>(&bytes),
            Err(DecodeError::OutOfRange { at: 36 }),
            "m = {m}"
        );
    }
}

#[test]
fn golomb_scene_refuses_a_missing_sentinel() {
    let mut e = GolombScene::new(Scene {
        slots: vec![object_at(3)],
    });
    let bytes = packet::encode_to_vec(&mut e).unwrap();
    // Cut the sentinel's gap and the end check, keep a valid CRC.
    let mut cut = bytes[..bytes.len() - 5].to_vec();
    refresh_crc(SCENES_GOLOMB_PROTOCOL_ID, &mut cut);
    assert!(matches!(
        packet::decode::<GolombScene>(&cut),
        Err(DecodeError::PastEnd { .. })
    ));
}

/// Scene E's code is complete: a reader refuses only an input that ends
/// before the code or an object does, wherever the cut falls.
#[test]
fn scene_e_refuses_a_packet_cut_anywhere() {
    let mut e = SceneE::new(Scene {
        slots: vec![object_at(3), object_at(500), object_at(1023)],
    });
    let bytes = packet::encode_to_vec(&mut e).unwrap();
    for len in 5..bytes.len() - 4 {
        let mut cut = bytes[..len].to_vec();
        refresh_crc(SCENES_ENTROPY_PROTOCOL_ID, &mut cut);
        assert!(
            matches!(
                packet::decode::<SceneE>(&cut),
                Err(DecodeError::PastEnd { .. })
            ),
            "{len} of {} bytes",
            bytes.len()
        );
    }
}

#[test]
fn scene_e_and_scenes_do_not_read_each_other() {
    let scene = Scene {
        slots: vec![object_at(3)],
    };
    let e = packet::encode_to_vec(&mut SceneE::new(scene.clone())).unwrap();
    assert!(matches!(decode_scenes(&e), Err(DecodeError::BadCrc { .. })));
    let g = packet::encode_to_vec(&mut GolombScene::new(scene.clone())).unwrap();
    assert!(matches!(
        packet::decode::<SceneE>(&g),
        Err(DecodeError::BadCrc { .. })
    ));
    assert!(matches!(
        packet::decode::<GolombScene>(&e),
        Err(DecodeError::BadCrc { .. })
    ));
    let c = packet::encode_to_vec(&mut ScenePacket {
        strategy: Layout::C,
        scene,
    })
    .unwrap();
    assert!(matches!(
        packet::decode::<SceneE>(&c),
        Err(DecodeError::BadCrc { .. })
    ));
}

#[test]
fn smallest_three_keeps_its_wire_integers_and_rebuilds_the_rotation() {
    let q = [0.1f32, -0.7, 0.2, 0.67];
    let norm = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    let st = SmallestThree::from_quaternion(q);
    assert_eq!(st.largest, 1, "y is the largest component");
    let back = st.to_quaternion();
    // The dropped component was negative, so the whole rotation flips sign.
    for (got, want) in back.iter().zip(q) {
        assert!((got + want / norm).abs() < 0.002, "{back:?} vs {q:?}");
    }
}

/// Bits one default object takes (at rest).
fn object_bits() -> u64 {
    codec::measure(&mut Object::default()).unwrap()
}

/// A framed "scenes" packet without the end check.
fn codec_frame_without_end(build: impl FnOnce(&mut WriteStream)) -> Vec<u8> {
    common::forge_with_end(ARTICLES_PROTOCOL_ID, build, false)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn scene_packets_round_trip(mut p in scene_packet()) {
        let bytes = packet::encode_to_vec(&mut p).unwrap();
        let mut decoded = decode_scenes(&bytes).unwrap();
        prop_assert_eq!(&decoded, &p);
        prop_assert_eq!(packet::encode_to_vec(&mut decoded).unwrap(), bytes);
    }

    #[test]
    fn scene_e_round_trips(mut p in scene_e()) {
        let bytes = packet::encode_to_vec(&mut p).unwrap();
        let mut decoded = packet::decode::<SceneE>(&bytes).unwrap();
        prop_assert_eq!(&decoded, &p);
        prop_assert_eq!(packet::encode_to_vec(&mut decoded).unwrap(), bytes);
    }

    #[test]
    fn golomb_scene_round_trips(mut p in golomb_scene()) {
        let bytes = packet::encode_to_vec(&mut p).unwrap();
        let mut decoded = packet::decode::<GolombScene>(&bytes).unwrap();
        prop_assert_eq!(&decoded, &p);
        prop_assert_eq!(packet::encode_to_vec(&mut decoded).unwrap(), bytes);
    }

    #[test]
    fn accepted_scene_bytes_re_encode_identically(mut p in scene_packet(), mut e in scene_e(), mut g in golomb_scene(), flip in any::<usize>()) {
        for (id, bytes) in [
            (ARTICLES_PROTOCOL_ID, packet::encode_to_vec(&mut p).unwrap()),
            (SCENES_ENTROPY_PROTOCOL_ID, packet::encode_to_vec(&mut e).unwrap()),
            (SCENES_GOLOMB_PROTOCOL_ID, packet::encode_to_vec(&mut g).unwrap()),
        ] {
            let mut bytes = bytes;
            let bit = flip % (bytes.len() * 8 - 32) + 32;
            bytes[bit / 8] ^= 1 << (bit % 8);
            refresh_crc(id, &mut bytes);
            if id == ARTICLES_PROTOCOL_ID {
                if let Ok(mut d) = decode_scenes(&bytes) {
                    prop_assert_eq!(packet::encode_to_vec(&mut d).unwrap(), bytes);
                }
            } else if id == SCENES_ENTROPY_PROTOCOL_ID {
                if let Ok(mut d) = packet::decode::<SceneE>(&bytes) {
                    prop_assert_eq!(packet::encode_to_vec(&mut d).unwrap(), bytes);
                }
            } else if let Ok(mut d) = packet::decode::<GolombScene>(&bytes) {
                prop_assert_eq!(packet::encode_to_vec(&mut d).unwrap(), bytes);
            }
        }
    }
}

/// Index bits of the payload: everything but the objects.
fn index_bits<P: packet::Packet>(p: &mut P, scene: &Scene) -> u64 {
    let mut m = codec::MeasureStream::new();
    p.serialize_payload(&mut m).unwrap();
    let objects: u64 = scene
        .slots
        .iter()
        .map(|s| codec::measure(&mut s.object.clone()).unwrap())
        .sum();
    m.bits() - objects
}

#[test]
fn scene_e_spends_fewer_index_bits_than_d_at_every_density() {
    use rand::{seq::index::sample, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for density in [0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 1.00] {
        let k = (1024.0 * density) as usize;
        let (mut d_bits, mut e_bits) = (0, 0);
        for _ in 0..20 {
            let mut indices = sample(&mut rng, 1024, k).into_vec();
            indices.sort_unstable();
            let scene = Scene {
                slots: indices.into_iter().map(|i| object_at(i as u16)).collect(),
            };
            let mut d = ScenePacket {
                strategy: Layout::D,
                scene: scene.clone(),
            };
            d_bits += index_bits(&mut d, &scene);
            e_bits += index_bits(&mut SceneE::new(scene.clone()), &scene);
        }
        assert!(
            e_bits < d_bits,
            "density {density}: E {e_bits} bits, D {d_bits}"
        );
    }
}

#[test]
fn constant_identity_is_the_quantized_identity() {
    assert_eq!(
        SmallestThree::IDENTITY,
        SmallestThree::from_quaternion([0.0, 0.0, 0.0, 1.0])
    );
}

#[test]
fn default_object_is_the_quantized_object_at_rest_at_the_origin() {
    assert_eq!(
        Object::default(),
        Object::new([0.0; 3], [0.0, 0.0, 0.0, 1.0], [0.0; 3], [0.0; 3])
    );
}

/// A reader reserves room for a scene's objects from `AT_REST_BITS`, the
/// fewest bits an object takes: it must be exactly an at-rest object's
/// size, and a decoded scene's vector must then hold every object without
/// having grown (its room is what the bits left could hold).
#[test]
fn at_rest_bits_is_the_smallest_object_and_a_decoded_scene_fits_its_room() {
    let at_rest = codec::measure(&mut Object::default()).unwrap();
    assert_eq!(u64::from(Object::AT_REST_BITS), at_rest);
    let moving = codec::measure(&mut object_at(0).object).unwrap();
    assert!(moving > at_rest, "{moving} bits moving, {at_rest} at rest");

    let scene = Scene {
        // At rest, so that the room is tight: a vector grown from empty
        // would have room for 512.
        slots: (0..300)
            .map(|i| Slot {
                index: i * 3,
                object: Object::default(),
            })
            .collect(),
    };
    for layout in Layout::ALL {
        let mut packet = ScenePacket {
            strategy: layout,
            scene: scene.clone(),
        };
        let bytes = packet::encode_to_vec(&mut packet).unwrap();
        let read: ScenePacket = packet::decode(&bytes).unwrap();
        assert_eq!(read, packet);
        let room = bytes.len() * 8 / Object::AT_REST_BITS as usize;
        assert!(
            (300..=room).contains(&read.scene.slots.capacity()),
            "{layout:?}: room for {} objects in {} bytes",
            read.scene.slots.capacity(),
            bytes.len()
        );
    }
}

/// Each protocol names its packet types, and has no type past the last:
/// neither a name nor an empty packet to fill.
#[test]
fn scene_packet_types_are_named_and_bounded() {
    use codec::packet::Packet;
    let names: Vec<_> = (0..5).map(ScenePacket::type_name).collect();
    assert_eq!(names, [Some("A"), Some("B"), Some("C"), Some("D"), None]);
    assert_eq!(
        (0..2).map(SceneE::type_name).collect::<Vec<_>>(),
        [Some("E"), None]
    );
    assert!(ScenePacket::empty(3).is_some() && ScenePacket::empty(4).is_none());
    assert!(SceneE::empty(0).is_some() && SceneE::empty(1).is_none());
    assert_eq!(
        (0..2).map(GolombScene::type_name).collect::<Vec<_>>(),
        [Some("Golomb"), None]
    );
    assert!(GolombScene::empty(0).is_some() && GolombScene::empty(1).is_none());
}
