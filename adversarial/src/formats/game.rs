//! A game's messages as serde types, the example every serde target of
//! this crate attacks: a client's [`Input`] and the server's [`Snapshot`],
//! with enums that carry payloads, a `Vec` of entities, strings, options,
//! a map and a recursive type.

use arbitrary::{Arbitrary, Unstructured};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// What a client sends every tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
pub struct Input {
    /// The tick it was sampled at.
    pub tick: u32,
    /// Who sends it.
    pub player: String,
    /// Whether the player is ready to start.
    pub ready: bool,
    /// What the player did this tick.
    pub commands: Vec<Command>,
    /// Where the player aims, when aiming.
    pub aim: Option<(f32, f32)>,
    /// The emote shown above the player.
    pub emote: Option<char>,
}

/// One thing a player does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
pub enum Command {
    /// Nothing.
    Idle,
    /// A step.
    Move {
        /// Across.
        dx: i16,
        /// Along.
        dy: i16,
    },
    /// A line of chat.
    Say(String),
    /// A jump.
    Jump {
        /// How high, in tenths of a block.
        height: u8,
        /// Whether crouched.
        crouch: bool,
    },
    /// A structure placed at once.
    Build(Blueprint),
}

/// A structure, built of parts that are structures: the recursive type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Blueprint {
    /// One block of a material.
    Block(u8),
    /// Parts side by side.
    Row(Vec<Blueprint>),
    /// One part on top of another.
    Stack(Box<Blueprint>, Box<Blueprint>),
}

/// How deep a generated blueprint nests.
const BLUEPRINT_DEPTH: u32 = 4;

impl Blueprint {
    fn arbitrary_within(u: &mut Unstructured<'_>, depth: u32) -> arbitrary::Result<Self> {
        if depth == 0 {
            return Ok(Self::Block(u.arbitrary()?));
        }
        Ok(match u.int_in_range(0..=2u8)? {
            0 => Self::Block(u.arbitrary()?),
            1 => {
                let parts = u.int_in_range(0..=3usize)?;
                let row = (0..parts)
                    .map(|_| Self::arbitrary_within(u, depth - 1))
                    .collect::<arbitrary::Result<_>>()?;
                Self::Row(row)
            }
            _ => Self::Stack(
                Box::new(Self::arbitrary_within(u, depth - 1)?),
                Box::new(Self::arbitrary_within(u, depth - 1)?),
            ),
        })
    }
}

impl<'a> Arbitrary<'a> for Blueprint {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Self::arbitrary_within(u, BLUEPRINT_DEPTH)
    }
}

/// What the server sends every tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
pub struct Snapshot {
    /// The server's tick.
    pub tick: u64,
    /// What is in the world.
    pub entities: Vec<Entity>,
    /// Each player's score, by player id.
    #[serde(deserialize_with = "increasing_keys")]
    pub scores: BTreeMap<u32, i32>,
    /// What happened since the last snapshot.
    pub events: Vec<Event>,
    /// The message of the day, when there is one.
    pub motd: Option<String>,
}

/// One thing in the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
pub struct Entity {
    /// Its id.
    pub id: u32,
    /// What it is.
    pub kind: EntityKind,
    /// Where it is.
    pub position: (f32, f32, f32),
    /// Its health, 0 to 255.
    pub health: u8,
    /// Its name, when named.
    pub name: Option<String>,
    /// The item ids it carries.
    pub inventory: Vec<u8>,
}

/// What an entity is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Arbitrary)]
pub enum EntityKind {
    /// A player's avatar.
    Player,
    /// A computer-driven creature.
    Creature,
    /// Something to pick up.
    Pickup,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
pub enum Event {
    /// A player joined, with the name shown.
    Joined(String),
    /// A player left.
    Left {
        /// Who.
        id: u32,
    },
    /// One entity hit another.
    Hit {
        /// The attacker.
        by: u32,
        /// The damage done.
        damage: u16,
        /// Whether it was a critical hit.
        critical: bool,
    },
}

/// A map whose keys must come in strictly increasing order, as they are
/// written: a map read from keys in any order (or repeated) would take two
/// encodings for one value.
fn increasing_keys<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<u32, i32>, D::Error> {
    struct Increasing;

    impl<'de> serde::de::Visitor<'de> for Increasing {
        type Value = BTreeMap<u32, i32>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a map with strictly increasing keys")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            let mut last = None;
            while let Some((key, value)) = map.next_entry::<u32, i32>()? {
                if last.is_some_and(|last| key <= last) {
                    return Err(A::Error::custom("map keys not strictly increasing"));
                }
                last = Some(key);
                out.insert(key, value);
            }
            Ok(out)
        }
    }

    deserializer.deserialize_map(Increasing)
}
