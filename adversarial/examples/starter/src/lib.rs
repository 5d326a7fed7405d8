use codec::{Packet, Serialize};

#[cfg(feature = "attack")]
pub mod attack;

#[derive(Debug, Default, PartialEq, Serialize)]
pub struct Player {
    #[serialize(range = 0..=63)] // 6 bits
    pub id: u8,
    #[serialize(compressed(min = -500.0, max = 500.0, res = 0.01))] // 17 bits
    pub x: f32,
    // length in 5 bits, then aligned bytes
    #[serialize(max_len = 31, after(check = "end of player"))]
    pub name: String,
}

#[derive(Debug, PartialEq, Packet)]
#[packet(protocol_id = 0x1234_5678, max_bytes = 1024)]
pub enum Game {
    Join(Player), // the variant's position is the packet type
    Leave,
}
