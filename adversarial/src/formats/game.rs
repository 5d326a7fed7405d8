//! A game's messages as serde types, the example every serde target of
//! this crate attacks: a client's [`Input`] and the server's [`Snapshot`],
//! with enums that carry payloads, a `Vec` of entities, strings, options,
//! a map and a recursive type.
//!
//! Five fields keep a rule of their own in hand-written code, as games
//! write it: a percentage at most 100, a player's name of 1 to 16 ASCII
//! letters and digits, an entity's kind sent as one byte, an inventory of
//! at most 64 items sent as a count and the items, and a blueprint nested
//! at most 32 deep. Each writer refuses what its reader must refuse, so a
//! value a reader wrongly accepts cannot be written back. The const
//! parameter `F` plants one bug in one of them (feature `faults`, see
//! [`Fault`]); 0, the default, is the game as it should be.

use arbitrary::{Arbitrary, Unstructured};
use serde::de::{DeserializeSeed, Error as _, SeqAccess, Visitor};
use serde::ser::{Error as _, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// A bug planted in one hand-written rule of the game's types: the const
/// parameter of [`Input`] and [`Snapshot`] is its [`Fault::id`].
#[cfg(feature = "faults")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The throttle's range check takes 101 (a range check off by one).
    ThrottleOffByOne,
    /// An inventory allocates its claimed count before checking it
    /// against 64 (a length checked after the allocation).
    InventoryAllocatedFirst,
    /// An entity kind's unknown byte reads as a player (an unknown tag
    /// mapped to a default).
    UnknownKindIsPlayer,
    /// A player's name has its first letter taken before the name is
    /// checked (a string used before it is validated).
    NameUsedUnchecked,
    /// A blueprint nests as deep as the message says (a recursion without
    /// a depth limit).
    UnlimitedNesting,
}

#[cfg(feature = "faults")]
impl Fault {
    /// Every planted bug.
    pub const ALL: [Self; 5] = [
        Self::ThrottleOffByOne,
        Self::InventoryAllocatedFirst,
        Self::UnknownKindIsPlayer,
        Self::NameUsedUnchecked,
        Self::UnlimitedNesting,
    ];

    /// Its number, the const parameter of the types that carry it.
    #[must_use]
    pub const fn id(self) -> u8 {
        match self {
            Self::ThrottleOffByOne => THROTTLE_OFF_BY_ONE,
            Self::InventoryAllocatedFirst => INVENTORY_ALLOCATED_FIRST,
            Self::UnknownKindIsPlayer => UNKNOWN_KIND_IS_PLAYER,
            Self::NameUsedUnchecked => NAME_USED_UNCHECKED,
            Self::UnlimitedNesting => UNLIMITED_NESTING,
        }
    }

    /// Its name in tables.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::ThrottleOffByOne => "throttle-off-by-one",
            Self::InventoryAllocatedFirst => "inventory-allocated-first",
            Self::UnknownKindIsPlayer => "unknown-kind-is-player",
            Self::NameUsedUnchecked => "name-used-unchecked",
            Self::UnlimitedNesting => "unlimited-nesting",
        }
    }
}

/// What the game declares where the format leaves the verdict open: the
/// default, but a map's entries in key order, since its reader refuses
/// scores whose player ids do not increase.
#[must_use]
pub fn policy() -> super::Policy {
    super::Policy {
        map_order: super::MapOrder::Sorted,
        ..super::Policy::default()
    }
}

/// The numbers of the planted bugs (the const parameter `F`).
const THROTTLE_OFF_BY_ONE: u8 = 1;
const INVENTORY_ALLOCATED_FIRST: u8 = 2;
const UNKNOWN_KIND_IS_PLAYER: u8 = 3;
const NAME_USED_UNCHECKED: u8 = 4;
const UNLIMITED_NESTING: u8 = 5;

/// Whether the types of parameter `f` carry bug `id`: never without the
/// feature `faults`.
const fn planted(f: u8, id: u8) -> bool {
    cfg!(feature = "faults") && f == id
}

/// The largest throttle, in percent.
const MAX_THROTTLE: u8 = 100;
/// The longest name, in bytes.
const MAX_NAME: usize = 16;
/// The most items an inventory holds.
const MAX_ITEMS: u16 = 64;
/// How deep a blueprint may nest.
const MAX_DEPTH: u32 = 32;

/// What a client sends every tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
pub struct Input<const F: u8 = 0> {
    /// The tick it was sampled at.
    pub tick: u32,
    /// Who sends it: 1 to 16 ASCII letters and digits.
    #[serde(serialize_with = "write_name", deserialize_with = "read_name::<F, _>")]
    #[arbitrary(with = arbitrary_name)]
    pub player: String,
    /// How far the accelerator is pressed, in percent: at most 100.
    #[serde(
        serialize_with = "write_throttle",
        deserialize_with = "read_throttle::<F, _>"
    )]
    #[arbitrary(with = |u: &mut Unstructured<'_>| u.int_in_range(0..=MAX_THROTTLE))]
    pub throttle: u8,
    /// Whether the player is ready to start.
    pub ready: bool,
    /// What the player did this tick.
    pub commands: Vec<Command<F>>,
    /// The structure the player is placing, when placing one.
    pub placing: Option<Blueprint<F>>,
    /// Where the player aims, when aiming.
    pub aim: Option<(f32, f32)>,
    /// The emote shown above the player.
    pub emote: Option<char>,
}

/// One thing a player does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
pub enum Command<const F: u8 = 0> {
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
    Build(Blueprint<F>),
}

/// A structure, built of parts that are structures: the recursive type,
/// read at most 32 deep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Blueprint<const F: u8 = 0> {
    /// One block of a material.
    Block(u8),
    /// Parts side by side.
    Row(Vec<Blueprint<F>>),
    /// One part on top of another.
    Stack(Box<Blueprint<F>>, Box<Blueprint<F>>),
}

/// How deep a generated blueprint nests.
const BLUEPRINT_DEPTH: u32 = 4;

impl<const F: u8> Blueprint<F> {
    fn arbitrary_within(u: &mut Unstructured<'_>, depth: u32) -> arbitrary::Result<Self> {
        if depth == 0 {
            return Ok(Self::Block(u.arbitrary()?));
        }
        // A blueprint is built of parts: a single block only below the top.
        let lowest = if depth == BLUEPRINT_DEPTH { 1 } else { 0 };
        Ok(match u.int_in_range(lowest..=2u8)? {
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

impl<'a, const F: u8> Arbitrary<'a> for Blueprint<F> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Self::arbitrary_within(u, BLUEPRINT_DEPTH)
    }
}

/// A blueprint read with `levels` more levels allowed below it.
struct Within<const F: u8> {
    levels: u32,
}

impl<'de, const F: u8> DeserializeSeed<'de> for Within<F> {
    type Value = Blueprint<F>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        if self.levels == 0 && !planted(F, UNLIMITED_NESTING) {
            return Err(D::Error::custom(format_args!(
                "a blueprint nested deeper than {MAX_DEPTH}"
            )));
        }
        let below = Self {
            levels: self.levels.saturating_sub(1),
        };
        deserializer.deserialize_enum("Blueprint", &["Block", "Row", "Stack"], below)
    }
}

impl<'de, const F: u8> Visitor<'de> for Within<F> {
    type Value = Blueprint<F>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a blueprint")
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        use serde::de::VariantAccess;
        let (index, variant): (u32, _) = data.variant()?;
        match index {
            0 => variant.newtype_variant().map(Blueprint::Block),
            1 => variant
                .newtype_variant_seed(Parts(self))
                .map(Blueprint::Row),
            2 => variant.tuple_variant(2, Pair(self)),
            other => Err(A::Error::custom(format_args!(
                "no blueprint variant {other}"
            ))),
        }
    }
}

/// A row's parts, each read within the row's levels.
struct Parts<const F: u8>(Within<F>);

impl<'de, const F: u8> DeserializeSeed<'de> for Parts<F> {
    type Value = Vec<Blueprint<F>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, const F: u8> Visitor<'de> for Parts<F> {
    type Value = Vec<Blueprint<F>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row of blueprints")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut parts = Vec::new();
        while let Some(part) = seq.next_element_seed(Within::<F> {
            levels: self.0.levels,
        })? {
            parts.push(part);
        }
        Ok(parts)
    }
}

/// A stack's two parts, each read within the stack's levels.
struct Pair<const F: u8>(Within<F>);

impl<'de, const F: u8> Visitor<'de> for Pair<F> {
    type Value = Blueprint<F>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a stack of two blueprints")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let levels = self.0.levels;
        let mut part = || -> Result<Box<Blueprint<F>>, A::Error> {
            seq.next_element_seed(Within::<F> { levels })?
                .map(Box::new)
                .ok_or_else(|| A::Error::invalid_length(0, &"two blueprints"))
        };
        let lower = part()?;
        let upper = part()?;
        Ok(Blueprint::Stack(lower, upper))
    }
}

impl<'de, const F: u8> Deserialize<'de> for Blueprint<F> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Within::<F> { levels: MAX_DEPTH }.deserialize(deserializer)
    }
}

/// What the server sends every tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
pub struct Snapshot<const F: u8 = 0> {
    /// The server's tick.
    pub tick: u64,
    /// What is in the world.
    pub entities: Vec<Entity<F>>,
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
pub struct Entity<const F: u8 = 0> {
    /// Its id.
    pub id: u32,
    /// What it is, sent as one byte.
    #[serde(serialize_with = "write_kind", deserialize_with = "read_kind::<F, _>")]
    pub kind: EntityKind,
    /// Where it is.
    pub position: (f32, f32, f32),
    /// Its health, 0 to 255.
    pub health: u8,
    /// Its name, when named.
    pub name: Option<String>,
    /// The item ids it carries: at most 64, sent as a u16 count and the ids.
    #[serde(
        serialize_with = "write_items",
        deserialize_with = "read_items::<F, _>"
    )]
    #[arbitrary(with = arbitrary_items)]
    pub inventory: Vec<u32>,
}

/// What an entity is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Arbitrary)]
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

fn write_throttle<S: Serializer>(throttle: &u8, serializer: S) -> Result<S::Ok, S::Error> {
    if *throttle > MAX_THROTTLE {
        return Err(S::Error::custom(format_args!(
            "throttle {throttle} above 100"
        )));
    }
    serializer.serialize_u8(*throttle)
}

fn read_throttle<'de, const F: u8, D: Deserializer<'de>>(deserializer: D) -> Result<u8, D::Error> {
    let throttle = u8::deserialize(deserializer)?;
    let max = if planted(F, THROTTLE_OFF_BY_ONE) {
        MAX_THROTTLE.saturating_add(1)
    } else {
        MAX_THROTTLE
    };
    if throttle > max {
        return Err(D::Error::custom(format_args!(
            "throttle {throttle} above 100"
        )));
    }
    Ok(throttle)
}

/// Whether `name` is a player's name: 1 to 16 ASCII letters and digits.
fn is_name(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn arbitrary_name(u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
    let len = u.int_in_range(1..=MAX_NAME)?;
    (0..len)
        .map(|_| {
            let alphabet = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
            u.choose(alphabet).map(|&b| char::from(b))
        })
        .collect()
}

fn write_name<S: Serializer>(name: &str, serializer: S) -> Result<S::Ok, S::Error> {
    if !is_name(name) {
        return Err(S::Error::custom(format_args!(
            "{name:?} is no player's name"
        )));
    }
    serializer.serialize_str(name)
}

fn read_name<'de, const F: u8, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let name = String::deserialize(deserializer)?;
    if planted(F, NAME_USED_UNCHECKED) {
        // The first letter, capitalized for the scoreboard, before the name
        // is checked: a slice that panics on an empty name or a first
        // character of more than one byte.
        let _initial = name[..1].to_ascii_uppercase();
    }
    if !is_name(&name) {
        return Err(D::Error::custom(format_args!(
            "{name:?} is no player's name"
        )));
    }
    Ok(name)
}

fn write_kind<S: Serializer>(kind: &EntityKind, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u8(match kind {
        EntityKind::Player => 0,
        EntityKind::Creature => 1,
        EntityKind::Pickup => 2,
    })
}

fn read_kind<'de, const F: u8, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<EntityKind, D::Error> {
    match u8::deserialize(deserializer)? {
        0 => Ok(EntityKind::Player),
        1 => Ok(EntityKind::Creature),
        2 => Ok(EntityKind::Pickup),
        _ if planted(F, UNKNOWN_KIND_IS_PLAYER) => Ok(EntityKind::Player),
        other => Err(D::Error::custom(format_args!("no entity kind {other}"))),
    }
}

fn arbitrary_items(u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u32>> {
    let count = u.int_in_range(0..=MAX_ITEMS)?;
    (0..count).map(|_| u.arbitrary()).collect()
}

fn write_items<S: Serializer>(items: &[u32], serializer: S) -> Result<S::Ok, S::Error> {
    let count = u16::try_from(items.len())
        .ok()
        .filter(|&n| n <= MAX_ITEMS)
        .ok_or_else(|| S::Error::custom(format_args!("{} items, above 64", items.len())))?;
    let mut tuple = serializer.serialize_tuple(items.len().saturating_add(1))?;
    tuple.serialize_element(&count)?;
    for item in items {
        tuple.serialize_element(item)?;
    }
    tuple.end()
}

/// An inventory: its count, then that many item ids.
struct Items<const F: u8>;

impl<'de, const F: u8> Visitor<'de> for Items<F> {
    type Value = Vec<u32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a count of at most 64 and that many item ids")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let count: u16 = seq
            .next_element()?
            .ok_or_else(|| A::Error::invalid_length(0, &self))?;
        let too_many = || A::Error::custom(format_args!("{count} items, above 64"));
        let mut items = if planted(F, INVENTORY_ALLOCATED_FIRST) {
            Vec::with_capacity(usize::from(count))
        } else {
            if count > MAX_ITEMS {
                return Err(too_many());
            }
            Vec::with_capacity(usize::from(count))
        };
        for i in 0..count {
            let item = seq
                .next_element()?
                .ok_or_else(|| A::Error::invalid_length(usize::from(i) + 1, &self))?;
            items.push(item);
        }
        if count > MAX_ITEMS {
            return Err(too_many());
        }
        Ok(items)
    }
}

fn read_items<'de, const F: u8, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<u32>, D::Error> {
    // The tuple is as long as the largest inventory: the count says where
    // it ends, and a reader stops there.
    deserializer.deserialize_tuple(usize::from(MAX_ITEMS) + 1, Items::<F>)
}

/// A map whose keys must come in strictly increasing order, as they are
/// written: a map read from keys in any order (or repeated) would take two
/// encodings for one value.
fn increasing_keys<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<u32, i32>, D::Error> {
    struct Increasing;

    impl<'de> Visitor<'de> for Increasing {
        type Value = BTreeMap<u32, i32>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
