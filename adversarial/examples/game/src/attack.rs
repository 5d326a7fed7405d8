//! The game's protocol as the harness sees it (feature `attack`).

use crate::{GamePacket, Profile, PROFILE_VERSION};
use adversarial::target::{self, MessageTarget, PacketTarget, Target};

/// The packets, framed and CRC'd.
#[must_use]
pub fn game() -> PacketTarget<GamePacket> {
    target::packet::<GamePacket>("game").about("the game's packets")
}

/// The profile save, any revision.
#[must_use]
pub fn profile() -> MessageTarget<Profile> {
    target::save::<Profile>("profile", PROFILE_VERSION).about("the profile save")
}

/// Every reader to attack.
#[must_use]
pub fn targets() -> Vec<Box<dyn Target>> {
    vec![Box::new(game()), Box::new(profile())]
}
