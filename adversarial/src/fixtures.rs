//! Deliberately broken readers, kept to prove the harness has teeth. Never
//! used by the codec.

use crate::target::{Framing, Refusal, Sample, Target, Verdict};
use arbitrary::{Arbitrary, Unstructured};
use codec::packet::{self, Packet};
use codec::protocols::scenes::{Object, Scene, ScenePacket, Slot, Strategy, MAX_OBJECTS};
use codec::{DecodeError, ReadStream, Serialize, Stream};

/// The articles' scene D reader as the sample code has it: it stores each
/// object at `objects[index]` in an array of `MAX_OBJECTS` without checking
/// that the relative index stayed below the maximum. In C++ that writes
/// past the array; here the bounds check panics, which is what the harness
/// must catch.
pub struct BrokenSceneD;

/// The sample's relative index ladder (no clamp on the result).
fn read_difference(s: &mut ReadStream<'_>) -> Result<i32, DecodeError> {
    let tiers = [(2, 5), (6, 13), (14, 29), (30, 61), (62, 125)];
    let mut flag = false;
    s.serialize_bool(&mut flag)?;
    if flag {
        return Ok(1);
    }
    for (lo, hi) in tiers {
        s.serialize_bool(&mut flag)?;
        if flag {
            let mut d = lo;
            s.serialize_int(&mut d, lo, hi)?;
            return Ok(d);
        }
    }
    let mut d = 126;
    s.serialize_int(&mut d, 126, MAX_OBJECTS as i32 + 1)?;
    Ok(d)
}

/// Everything as the real reader does it (size, CRC, type, objects, end
/// check, trailing bytes) but the clamp, so that the clamp is the only bug.
fn read_broken(bytes: &[u8]) -> Result<Scene, DecodeError> {
    packet::check_framing::<ScenePacket>(bytes)?;
    let mut s = ReadStream::new(bytes);
    let mut crc = 0;
    s.serialize_bits(&mut crc, 32)?;
    let mut packet_type = 0;
    s.serialize_bits(&mut packet_type, 2)?;
    if packet_type != 3 {
        return Err(DecodeError::UnknownPacketType {
            at: 32,
            found: packet_type,
        });
    }
    let mut objects: Vec<Option<Object>> = vec![None; MAX_OBJECTS as usize];
    let mut index: i32 = -1;
    loop {
        index += read_difference(&mut s)?;
        if index == MAX_OBJECTS as i32 {
            break;
        }
        // The sample reads the object straight into `objects[index]`.
        #[allow(clippy::indexing_slicing)] // the sample's bug, kept on purpose
        let slot = objects[index as usize].insert(Object::default());
        slot.serialize(&mut s)?;
    }
    s.serialize_check(packet::END_OF_PACKET)?;
    codec::stream::expect_end(&mut s)?;
    let slots = objects
        .into_iter()
        .enumerate()
        .filter_map(|(i, o)| {
            o.map(|object| Slot {
                index: i as u16,
                object,
            })
        })
        .collect();
    Ok(Scene { slots })
}

impl Target for BrokenSceneD {
    fn name(&self) -> &'static str {
        "broken-scene-d"
    }

    fn about(&self) -> &'static str {
        "FIXTURE: the articles' scene D reader without its index clamp"
    }

    fn framing(&self) -> Framing {
        Framing {
            crc: Some(ScenePacket::PROTOCOL_ID),
            packet_types: Some(ScenePacket::PACKET_TYPES),
            latest_version: None,
            refuses_trailing_bytes: true,
            max_bytes: Some(ScenePacket::MAX_PACKET_BYTES),
        }
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        let mut packet = ScenePacket {
            strategy: Strategy::D,
            scene: Scene::arbitrary(u)?,
        };
        crate::protocol::packet_sample(&mut packet).map_err(|_| arbitrary::Error::IncorrectFormat)
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        match read_broken(bytes) {
            Ok(scene) => Verdict::Accepted {
                reencoded: packet::encode_to_vec(&mut ScenePacket {
                    strategy: Strategy::D,
                    scene,
                })
                .map_err(|e| e.to_string()),
            },
            Err(error) => Verdict::Refused(Refusal::from(error)),
        }
    }
}
