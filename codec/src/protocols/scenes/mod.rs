//! Protocol "scenes" (scenes A to D of *Serialization Strategies*) and
//! protocol "scenes-entropy" (scene E, ours).
//!
//! Every scene packet carries the same content, a [`Scene`]: up to
//! [`MAX_OBJECTS`] objects, each at an index in `0..1024`. The strategies
//! differ only in how they say which indices are present:
//!
//! | type | strategy | index cost |
//! |---|---|---|
//! | A | a bool for every index | 1024 bits, always |
//! | B | `count int[0,1024]`, then each `index int[0,1023]` | 11 + 10 per object |
//! | C | each `index int[0,1024]`, ended by the sentinel 1024 | 11 per object + 11 |
//! | D | the article's relative index ladder, ended by 1024 | 1 to 16 per object |
//! | E | Golomb-coded gaps of the present or absent set, per-packet parameter | near the entropy bound |
//!
//! Every reader refuses indices out of range, duplicate or decreasing
//! indices, and objects whose quaternion no unit quaternion has.

mod code_length;
mod entropy;
mod object;
mod quaternion;
mod relative_index;
mod strategies;

pub use entropy::{CodedSet, SceneE, GOLOMB_PARAMETERS};
pub use object::{Object, ANGULAR_VELOCITY, LINEAR_VELOCITY, POSITION};
pub use quaternion::SmallestThree;

use super::ARTICLES_PROTOCOL_ID;
use crate::error::DecodeError;
use crate::packet::{Packet, ProtocolId};
use crate::stream::{Serialize, Stream};

/// Objects in the world, and so the number of indices: `0..1024`.
pub const MAX_OBJECTS: u32 = 1024;

/// The index that ends a sentinel-terminated list (scenes C, D and E).
pub const SENTINEL: u32 = MAX_OBJECTS;

/// The largest UDP payload: the most a scene packet may take (a scene at
/// density 1.0 needs about 21 KB).
pub const MAX_SCENE_PACKET_BYTES: usize = 65_507;

/// The protocol id of "scenes-entropy": the articles' id plus one, so a
/// scene E packet is never mistaken for one of the sample's scenes.
pub const SCENES_ENTROPY_PROTOCOL_ID: ProtocolId = ProtocolId::Bits32(0x1234_5679);

/// One object at its index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Slot {
    /// In `0..1024`, strictly increasing along a scene.
    pub index: u16,
    /// The object.
    pub object: Object,
}

/// The objects sent in one packet, by strictly increasing index.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Scene {
    /// The objects, by strictly increasing index below [`MAX_OBJECTS`].
    pub slots: Vec<Slot>,
}

impl Scene {
    /// The first rule the slots break, for a writer to refuse them with:
    /// an index out of range, or not above the one before it.
    pub(crate) fn broken_rule(&self, at: u64) -> Option<DecodeError> {
        let mut previous: Option<u16> = None;
        for slot in &self.slots {
            if u32::from(slot.index) >= MAX_OBJECTS {
                return Some(DecodeError::OutOfRange { at });
            }
            if previous.is_some_and(|p| slot.index <= p) {
                return Some(DecodeError::NotIncreasing { at });
            }
            previous = Some(slot.index);
        }
        None
    }
}

/// How a scene packet of protocol "scenes" says which indices are present.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Type 0: a bool per index.
    A,
    /// Type 1: a count, then absolute indices.
    B,
    /// Type 2: absolute indices ended by the sentinel.
    C,
    /// Type 3: relative indices (the article's ladder) ended by the sentinel.
    D,
}

impl Strategy {
    /// Every strategy, in packet-type order.
    pub const ALL: [Self; 4] = [Self::A, Self::B, Self::C, Self::D];
}

/// A packet of protocol "scenes": a scene and the strategy that sends it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScenePacket {
    /// Also the packet type.
    pub strategy: Strategy,
    /// What is sent.
    pub scene: Scene,
}

impl Packet for ScenePacket {
    const PROTOCOL_ID: ProtocolId = ARTICLES_PROTOCOL_ID;
    /// Exactly the sample's four types, so the type field is 2 bits.
    const PACKET_TYPES: u32 = 4;
    const MAX_PACKET_BYTES: usize = MAX_SCENE_PACKET_BYTES;

    fn packet_type(&self) -> u32 {
        self.strategy as u32
    }

    fn empty(packet_type: u32) -> Option<Self> {
        let strategy = *Strategy::ALL.get(usize::try_from(packet_type).ok()?)?;
        Some(Self {
            strategy,
            scene: Scene::default(),
        })
    }

    fn serialize_payload<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        if S::IS_WRITING {
            if let Some(why) = self.scene.broken_rule(stream.bit_offset()) {
                return Err(stream.refuse(why));
            }
        }
        let slots = &mut self.scene.slots;
        match self.strategy {
            Strategy::A => strategies::serialize_scene_a(stream, slots),
            Strategy::B => strategies::serialize_scene_b(stream, slots),
            Strategy::C => strategies::serialize_scene_c(stream, slots),
            Strategy::D => relative_index::serialize_scene_d(stream, slots),
        }
    }
}

/// A packet of protocol "scenes-entropy": scene E, its only type.
impl Packet for SceneE {
    const PROTOCOL_ID: ProtocolId = SCENES_ENTROPY_PROTOCOL_ID;
    const PACKET_TYPES: u32 = 1;
    const MAX_PACKET_BYTES: usize = MAX_SCENE_PACKET_BYTES;

    fn packet_type(&self) -> u32 {
        0
    }

    fn empty(packet_type: u32) -> Option<Self> {
        (packet_type == 0).then(SceneE::default)
    }

    fn serialize_payload<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        self.serialize(stream)
    }
}

/// Reads one object and appends it at `index`: shared by every strategy.
/// The object is read in place, in the vector: building it on the stack and
/// moving it in cost a quarter of a scene's decode in store-forwarding
/// stalls (perf annotate, docs/BENCHMARKS.md). On a refusal the slot stays
/// half read; every caller then drops the vector.
fn read_slot<S: Stream>(stream: &mut S, slots: &mut Vec<Slot>, index: u32) -> Result<(), S::Error> {
    slots.push(Slot {
        // Every caller has checked `index < MAX_OBJECTS`.
        index: index as u16,
        object: Object::AT_REST_AT_ORIGIN,
    });
    match slots.last_mut() {
        Some(slot) => slot.object.serialize(stream),
        None => Ok(()),
    }
}
