//! The articles' sample protocols and our own entropy-coded scene.
//!
//! * [`packets`]: packets A, B, C of *Reading and Writing Packets*.
//! * [`scenes`]: scenes A to D of *Serialization Strategies*, and scene E
//!   and the Golomb scene (its version 1), which entropy-code the object
//!   indices, each in its own protocol.
//! * [`score_save`]: the versioned save of the game score state.

pub mod packets;
pub mod scenes;
pub mod score_save;

use crate::packet::ProtocolId;

/// The protocol id of the articles' sample protocols.
pub const ARTICLES_PROTOCOL_ID: ProtocolId = ProtocolId::Bits32(0x1234_5678);
