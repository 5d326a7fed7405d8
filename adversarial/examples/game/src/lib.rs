//! A small game's protocol, declared once with `codec`'s derive: what a
//! client sends (input, chat), what the server sends (snapshots of the
//! units near the player), and the profile saved on disk. The harness
//! attacks it from `tests/attack.rs`, `fuzz/` and `src/bin/attack.rs`, all
//! through `attack::targets` (feature `attack`).

use codec::subset::Entry;
use codec::{Packet, Serialize};

#[cfg(feature = "attack")]
pub mod attack;
pub mod server;

/// Units in the world: a snapshot carries a subset of them by index.
pub const MAX_UNITS: u32 = 256;

/// The newest revision of [`Profile`].
pub const PROFILE_VERSION: u32 = 2;

/// A client's controls for one tick.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Input {
    /// The tick this input is for.
    #[serialize(bits = 16)]
    pub tick: u16,
    /// Left (-100) to right (100).
    #[serialize(range = -100..=100)]
    pub steer: i8,
    /// Percent.
    #[serialize(range = 0..=100)]
    pub throttle: u8,
    /// Fire pressed.
    pub fire: bool,
}

/// One unit as the server sends it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Unit {
    /// Metres, to the centimetre.
    #[serialize(compressed(min = -500.0, max = 500.0, res = 0.01))]
    pub position: [f32; 2],
    /// Hit points.
    #[serialize(range = 0..=100)]
    pub health: u8,
}

/// The units near a player, by strictly increasing index.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Snapshot {
    /// The server tick.
    #[serialize(bits = 16)]
    pub tick: u16,
    /// The units sent, indices below [`MAX_UNITS`].
    #[serialize(subset(sentinel, size = MAX_UNITS))]
    pub units: Vec<Entry<Unit>>,
}

/// A line of chat.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Chat {
    /// All, team, squad or whisper.
    #[serialize(range = 0..=3)]
    pub channel: u8,
    /// At most 80 bytes of UTF-8.
    #[serialize(max_len = 80)]
    pub line: String,
}

/// Every packet of the game: variant order is the packet type.
#[derive(Clone, Debug, PartialEq, Packet)]
#[packet(protocol_id = 0x6A3E_0001, max_bytes = 1200)]
pub enum GamePacket {
    Input(Input),
    Snapshot(Snapshot),
    Chat(Chat),
    Leave,
}

/// The bytes of each fragment when the game's packets travel over `link`,
/// and the size above which a packet (a large snapshot) is fragmented.
pub const LINK_FRAGMENT_SIZE: usize = 400;

/// The connection layer's configuration both ends of the game use: packets
/// up to the protocol's largest, fragments of [`LINK_FRAGMENT_SIZE`].
#[must_use]
pub fn link_config() -> link::Config {
    link::Config::for_packets(<GamePacket as Packet>::MAX_PACKET_BYTES, LINK_FRAGMENT_SIZE)
}

/// A player's profile, saved on disk. Revision 2 added the level.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serialize(versions = 1..=PROFILE_VERSION)]
pub struct Profile {
    /// The revision the save was read from.
    #[serialize(version)]
    pub version: u32,
    /// The player's name.
    #[serialize(max_len = 16, after(integrity))]
    pub name: String,
    /// Since revision 2; older saves start at 1.
    #[serialize(added = 2, default = 1, range = 1..=99)]
    pub level: u8,
    /// Unlocked items, by id.
    #[serialize(max_len = 32, range = 0..=1000, after(integrity))]
    pub unlocked: Vec<u16>,
}
