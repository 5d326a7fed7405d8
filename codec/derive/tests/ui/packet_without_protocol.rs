use codec::{Packet, Serialize};

#[derive(Default, Serialize)]
struct Ping {
    #[serialize(bits = 16)]
    sequence: u16,
}

#[derive(Packet)]
enum Game {
    Ping(Ping),
}

fn main() {}
