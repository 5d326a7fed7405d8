//! The readers the harness attacks (feature `attack`).

use adversarial::target::{self, PacketTarget, Target};

/// The packets, framed and CRC'd.
#[must_use]
pub fn game() -> PacketTarget<crate::Game> {
    target::packet::<crate::Game>("game").about("the game's packets")
}

/// Every reader to attack.
#[must_use]
pub fn targets() -> Vec<Box<dyn Target>> {
    vec![Box::new(game())]
}
