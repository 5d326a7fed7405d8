use codec::{packet, DecodeError};
use my_game::{Game, Player};

#[test]
fn a_packet_reads_back_and_a_cut_one_is_refused() -> Result<(), Box<dyn std::error::Error>> {
    let mut join = Game::Join(Player {
        id: 7,
        x: 1.5,
        name: "ada".into(),
    });
    let bytes = packet::encode_to_vec(&mut join)?;
    let game: Game = packet::decode(&bytes)?; // or a DecodeError naming the cause and the bit
    assert_eq!(game, join);
    let cut = &bytes[..bytes.len() - 1];
    assert!(matches!(
        packet::decode::<Game>(cut),
        Err(DecodeError::BadCrc { .. })
    ));
    Ok(())
}
