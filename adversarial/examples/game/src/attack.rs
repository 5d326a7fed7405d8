//! The game's protocol as the harness sees it (feature `attack`).

use crate::{GamePacket, Profile, PROFILE_VERSION};
use adversarial::target::{self, EndpointTarget, MessageTarget, PacketTarget, Target};

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

/// The connection layer as the game configures it, attacked with
/// conversations that lie across packets.
#[must_use]
pub fn endpoint() -> impl EndpointTarget {
    target::endpoint("game-link", crate::link_config(), |config| {
        link::Endpoint::new(config.clone(), 0.0).expect("the game's configuration is valid")
    })
    .about("the game's connection layer")
}

/// Every endpoint to attack.
#[must_use]
pub fn endpoints() -> Vec<Box<dyn EndpointTarget>> {
    vec![Box::new(endpoint())]
}
