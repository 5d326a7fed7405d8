//! The derived protocols write the same bytes, bit for bit, as the
//! hand-written code they replaced (kept in `tests/reference/`), and read
//! every input to the same verdict: the same value or the same error.
//!
//! Values are drawn a few thousand per type from a seeded generator, about
//! one in eight of them outside its declared range, so the writers' refusals
//! are compared too. Inputs to the readers are the valid encodings, the
//! committed save fixtures of every revision, and both with random bits
//! flipped (behind a refreshed CRC for packets, to reach the field checks)
//! or cut short.

#[path = "reference/hand_written.rs"]
mod hand_written;

use codec::packet::{self, Packet};
use codec::protocols::packets::{PacketA, PacketB, PacketC, TestPacket};
use codec::protocols::score_save::{self, ScoreState, MAX_SCORE, MIN_SCORE};
use codec::protocols::ARTICLES_PROTOCOL_ID;
use codec::{DecodeError, ReadStream, Serialize};
use hand_written::{HandPacket, HandSave};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Values per packet type, and saves.
const VALUES: usize = 4000;

/// A value in `[min, max]`, or one step outside it about once in eight.
fn ranged(rng: &mut ChaCha8Rng, min: i32, max: i32) -> i32 {
    if rng.gen_ratio(1, 8) {
        if rng.gen() {
            min.saturating_sub(rng.gen_range(1..=5))
        } else {
            max.saturating_add(rng.gen_range(1..=5))
        }
    } else {
        rng.gen_range(min..=max)
    }
}

fn float(rng: &mut ChaCha8Rng) -> f32 {
    if rng.gen_ratio(1, 4) {
        f32::from_bits(rng.gen())
    } else {
        rng.gen_range(-1000.0..1000.0)
    }
}

fn random_packet(rng: &mut ChaCha8Rng) -> TestPacket {
    match rng.gen_range(0..3) {
        0 => TestPacket::A(PacketA {
            a: ranged(rng, -10, 10),
            b: ranged(rng, -20, 20),
            c: ranged(rng, -30, 30),
        }),
        1 => {
            let len = ranged(rng, 0, 32).max(0) as usize;
            TestPacket::B(PacketB {
                items: (0..len).map(|_| ranged(rng, -100, 100)).collect(),
            })
        }
        _ => {
            let at_rest = rng.gen();
            TestPacket::C(PacketC {
                position: [float(rng), float(rng), float(rng)],
                at_rest,
                velocity: if at_rest {
                    [0.0; 3]
                } else {
                    [float(rng), float(rng), float(rng)]
                },
            })
        }
    }
}

/// Flips 1 to 3 random bits of `bytes`, or cuts it short.
fn mutate(rng: &mut ChaCha8Rng, bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if out.is_empty() || rng.gen_ratio(1, 5) {
        out.truncate(rng.gen_range(0..=bytes.len()));
        return out;
    }
    for _ in 0..rng.gen_range(1..=3) {
        let bit = rng.gen_range(0..out.len() * 8);
        out[bit / 8] ^= 1 << (bit % 8);
    }
    out
}

/// Packet C's floats compared by their bits (NaN payloads included).
fn same_packet(a: &TestPacket, b: &TestPacket) -> bool {
    match (a, b) {
        (TestPacket::C(x), TestPacket::C(y)) => {
            let bits = |p: &PacketC| {
                (
                    p.position.map(f32::to_bits),
                    p.at_rest,
                    p.velocity.map(f32::to_bits),
                )
            };
            bits(x) == bits(y)
        }
        _ => a == b,
    }
}

fn same_verdict(
    derived: &Result<TestPacket, DecodeError>,
    hand: &Result<HandPacket, DecodeError>,
) -> bool {
    match (derived, hand) {
        (Ok(a), Ok(HandPacket(b))) => same_packet(a, b),
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

#[test]
fn derived_packets_write_and_read_exactly_as_the_hand_written_ones() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut refused, mut flipped_accepted) = (0, 0);
    for _ in 0..VALUES * 3 {
        let value = random_packet(&mut rng);
        let derived = packet::encode_to_vec(&mut value.clone());
        let hand = packet::encode_to_vec(&mut HandPacket(value.clone()));
        assert_eq!(derived, hand, "writers differ on {value:?}");
        let Ok(bytes) = derived else {
            refused += 1;
            continue;
        };
        let read = packet::decode::<TestPacket>(&bytes);
        assert!(same_verdict(&read, &packet::decode::<HandPacket>(&bytes)));
        assert!(read.is_ok(), "{value:?} was written but not read back");

        let mut forged = mutate(&mut rng, &bytes);
        if forged.len() >= 4 {
            let crc = ARTICLES_PROTOCOL_ID.crc32(&forged);
            forged[..4].copy_from_slice(&crc.to_le_bytes());
        }
        let derived = packet::decode::<TestPacket>(&forged);
        let hand = packet::decode::<HandPacket>(&forged);
        assert!(
            same_verdict(&derived, &hand),
            "readers differ on {forged:02X?}: {derived:?} vs {hand:?}"
        );
        flipped_accepted += usize::from(derived.is_ok());
    }
    // Both branches were exercised.
    assert!(refused > VALUES / 4, "only {refused} values were refused");
    assert!(
        flipped_accepted > 100,
        "only {flipped_accepted} forged packets were read"
    );
    assert_eq!(TestPacket::PACKET_TYPES, HandPacket::PACKET_TYPES);
}

fn decode_hand(bytes: &[u8]) -> Result<ScoreState, DecodeError> {
    let mut save = HandSave::default();
    let mut stream = ReadStream::new(bytes);
    save.serialize(&mut stream)?;
    codec::stream::expect_end(&mut stream)?;
    Ok(save.0)
}

#[test]
fn derived_save_writes_and_reads_exactly_as_the_hand_written_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let fixtures: Vec<Vec<u8>> = (1..=5)
        .map(|v| {
            let path = format!(
                "{}/tests/fixtures/saves/score-v{v}.bin",
                env!("CARGO_MANIFEST_DIR")
            );
            std::fs::read(path).expect("committed fixture")
        })
        .collect();
    let (mut refused, mut read_ok) = (0, 0);
    for round in 0..VALUES {
        let len = ranged(&mut rng, 0, 8).max(0) as usize;
        let scores: Vec<i32> = (0..len)
            .map(|_| ranged(&mut rng, MIN_SCORE, MAX_SCORE))
            .collect();
        let state = ScoreState { scores };
        let derived = score_save::encode(&mut state.clone());
        let hand = codec::to_vec(&mut HandSave(state.clone()));
        assert_eq!(derived, hand, "writers differ on {state:?}");
        let source = match derived {
            Ok(bytes) => {
                assert_eq!(score_save::decode(&bytes), Ok(state));
                bytes
            }
            Err(_) => {
                refused += 1;
                fixtures[round % fixtures.len()].clone()
            }
        };
        let forged = mutate(&mut rng, &source);
        let derived = score_save::decode(&forged);
        assert_eq!(
            derived,
            decode_hand(&forged),
            "readers differ on {forged:02X?}"
        );
        read_ok += usize::from(derived.is_ok());
    }
    for fixture in &fixtures {
        assert_eq!(score_save::decode(fixture), decode_hand(fixture));
        assert!(score_save::decode(fixture).is_ok());
    }
    assert!(refused > VALUES / 8, "only {refused} states were refused");
    assert!(read_ok > 100, "only {read_ok} forged saves were read");
}
