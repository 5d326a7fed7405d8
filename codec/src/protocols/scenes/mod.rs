//! Protocol "scenes" (scenes A to D of *Serialization Strategies*),
//! protocol "scenes-entropy" (scene E, ours) and protocol "scenes-golomb"
//! (scene E's version 1, the Golomb scene).
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
//! | E | the count, then gaps or ranked blocks ([`mod@crate::subset::adaptive`]) | within about 1 % of the bound that includes the count |
//! | Golomb | Golomb-coded gaps of the present or absent set, per-packet parameter (scene E's version 1) | near the entropy bound |
//!
//! Every reader refuses indices out of range, duplicate or decreasing
//! indices, and objects whose quaternion no unit quaternion has.

#[cfg(feature = "arbitrary")]
mod arbitrary;
mod entropy;
mod golomb;
mod hot;
mod hot_e;
mod object;
mod quaternion;

pub use crate::subset::{CodedSet, GOLOMB_PARAMETERS};
pub use entropy::SceneE;
pub use golomb::GolombScene;
pub use object::{Object, ANGULAR_VELOCITY, LINEAR_VELOCITY, POSITION};
pub use quaternion::SmallestThree;

use super::ARTICLES_PROTOCOL_ID;
use crate::packet::{Packet, ProtocolId};
use crate::stream::{Serialize, Stream};
use crate::subset::{self, Indexed};

/// Objects in the world, and so the number of indices: `0..1024`.
pub const MAX_OBJECTS: u32 = 1024;

/// The index that ends a sentinel-terminated list (scenes C and D, and
/// the Golomb scene's last gap).
pub const SENTINEL: u32 = MAX_OBJECTS;

/// The largest UDP payload: the most a scene packet may take (a scene at
/// density 1.0 needs about 21 KB).
pub const MAX_SCENE_PACKET_BYTES: usize = 65_507;

/// The protocol id of "scenes-entropy": the articles' id plus two, so a
/// scene E packet is mistaken neither for one of the sample's scenes nor
/// for a Golomb scene (the id scene E had before its version 2).
pub const SCENES_ENTROPY_PROTOCOL_ID: ProtocolId = ProtocolId::Bits32(0x1234_567A);

/// The protocol id of "scenes-golomb": the articles' id plus one, which
/// scene E's version 1 carried, so that its peers read a Golomb scene.
pub const SCENES_GOLOMB_PROTOCOL_ID: ProtocolId = ProtocolId::Bits32(0x1234_5679);

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

impl Indexed for Slot {
    #[inline]
    fn index(&self) -> u32 {
        u32::from(self.index)
    }

    /// Every caller has checked `index < MAX_OBJECTS`, so it fits a `u16`.
    #[inline]
    fn at(index: u32) -> Self {
        Self {
            index: index as u16,
            object: Object::AT_REST_AT_ORIGIN,
        }
    }

    /// An object at rest: three positions, the quaternion, the flag.
    const MIN_VALUE_BITS: u32 = Object::AT_REST_BITS;

    /// On the concrete streams, the object's hot path (`hot.rs`); on
    /// every other stream, and where that stops, its `serialize`. Always
    /// inlined, so that a subset's loop keeps the stream in registers.
    #[inline(always)]
    fn serialize_value<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        match hot::object(stream, &mut self.object) {
            hot::Reached::Whole => Ok(()),
            hot::Reached::Head => velocities(&mut self.object, stream),
            hot::Reached::Nothing => self.object.serialize(stream),
        }
    }
}

/// The velocities the hot path left: seldom (near the end of the input,
/// or where they are refused), so kept out of the subsets' loops, where
/// inlined they cost the loop registers.
#[cold]
#[inline(never)]
fn velocities<S: Stream>(object: &mut Object, stream: &mut S) -> Result<(), S::Error> {
    object.serialize_velocities(stream)
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

    fn type_name(packet_type: u32) -> Option<&'static str> {
        ["A", "B", "C", "D"]
            .get(usize::try_from(packet_type).ok()?)
            .copied()
    }

    fn serialize_payload<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        let slots = &mut self.scene.slots;
        match self.strategy {
            Strategy::A => subset::bools(stream, slots, MAX_OBJECTS),
            Strategy::B => subset::counted(stream, slots, MAX_OBJECTS),
            Strategy::C => subset::sentinel(stream, slots, MAX_OBJECTS),
            Strategy::D => subset::relative(stream, slots, MAX_OBJECTS),
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

    fn type_name(packet_type: u32) -> Option<&'static str> {
        (packet_type == 0).then_some("E")
    }

    fn serialize_payload<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        self.serialize(stream)
    }
}

/// A packet of protocol "scenes-golomb": the Golomb scene, its only type.
impl Packet for GolombScene {
    const PROTOCOL_ID: ProtocolId = SCENES_GOLOMB_PROTOCOL_ID;
    const PACKET_TYPES: u32 = 1;
    const MAX_PACKET_BYTES: usize = MAX_SCENE_PACKET_BYTES;

    fn packet_type(&self) -> u32 {
        0
    }

    fn empty(packet_type: u32) -> Option<Self> {
        (packet_type == 0).then(GolombScene::default)
    }

    fn type_name(packet_type: u32) -> Option<&'static str> {
        (packet_type == 0).then_some("Golomb")
    }

    fn serialize_payload<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        self.serialize(stream)
    }
}
