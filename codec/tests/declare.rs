//! The README's "Declare a packet", built and run by `cargo test` so the
//! README's copy cannot drift from code that compiles.

use codec::{packet, DecodeError, Packet, Serialize, Stream};

#[derive(Debug, Default, PartialEq, Serialize)]
struct Player {
    #[serialize(range = 0..=63)] // 6 bits
    id: u8,
    #[serialize(compressed(min = -500.0, max = 500.0, res = 0.01))] // 17 bits
    x: f32,
    // length in 5 bits, then aligned bytes
    #[serialize(max_len = 31, after(check = "end of player"))]
    name: String,
}

#[derive(Debug, PartialEq, Packet)]
#[packet(protocol_id = 0x1234_5678, max_bytes = 1024)]
enum Game {
    Join(Player), // the variant's position is the packet type
    Leave,
}

#[derive(Debug, Default, PartialEq)]
struct Odd {
    half: i32, // the value is 2 * half + 1
}

impl Serialize for Odd {
    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        s.field_name("half");
        s.serialize_int(&mut self.half, 0, 1000)?; // 10 bits
        s.serialize_check("end of odd") // catches a reader out of step, and names where
    }
}

#[test]
fn a_packet_reads_back_and_a_lie_is_refused() -> Result<(), Box<dyn std::error::Error>> {
    let mut join = Game::Join(Player {
        id: 7,
        x: 1.5,
        name: "ada".into(),
    });
    let bytes = packet::encode_to_vec(&mut join)?;
    let game: Game = packet::decode(&bytes)?; // or a DecodeError naming the cause and the bit
    assert_eq!(game, join);

    let mut cut = bytes.clone();
    cut.truncate(bytes.len() - 1);
    assert!(matches!(
        packet::decode::<Game>(&cut),
        Err(DecodeError::BadCrc { .. })
    ));

    let mut odd = Odd { half: 21 };
    let written = codec::to_vec(&mut odd)?;
    assert_eq!(codec::from_slice::<Odd>(&written)?, odd);
    // 1023 in the ten bits of `half`: past its range, refused at bit 0.
    let refusal = codec::from_slice::<Odd>(&[0xff; 8]);
    assert_eq!(refusal, Err(DecodeError::OutOfRange { at: 0 }));
    Ok(())
}
