//! The derive's workloads, shared by the wall-clock benchmark
//! (`benches/derive.rs`) and the instruction count (`benches/derive_instructions.rs`):
//! for packets A, B and C and the score save, one batch of random values,
//! their encodings, and the four things timed on them (encode and decode,
//! derived and hand-written).

use crate::hand_written::{HandPacket, HandSave};
use codec::packet::{self, Packet};
use codec::protocols::packets::{PacketA, PacketB, PacketC, TestPacket};
use codec::protocols::score_save::{self, ScoreState, MAX_SCORE, MIN_SCORE};
use codec::{ReadStream, Serialize};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// Values per batch: every operation below handles one batch.
pub const BATCH: usize = 256;

/// The workloads, in table order.
pub const GROUPS: [&str; 4] = ["packet_a", "packet_b", "packet_c", "save"];

/// Who wrote the `serialize` function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Who {
    Derived,
    Hand,
}

impl Who {
    /// Both, in table order.
    pub const BOTH: [Who; 2] = [Who::Derived, Who::Hand];

    /// The name criterion files a measurement under, and the command line's.
    pub fn name(self) -> &'static str {
        match self {
            Who::Derived => "derived",
            Who::Hand => "hand-written",
        }
    }
}

/// Encode or decode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Direction {
    Encode,
    Decode,
}

impl Direction {
    /// Both, in table order.
    pub const BOTH: [Direction; 2] = [Direction::Encode, Direction::Decode];

    /// The name criterion files a measurement under, and the command line's.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Encode => "encode",
            Direction::Decode => "decode",
        }
    }
}

/// The values of one batch, as both implementations hold them.
enum Values {
    Packets {
        derived: Vec<TestPacket>,
        hand: Vec<HandPacket>,
    },
    Save {
        derived: Vec<ScoreState>,
        hand: Vec<HandSave>,
    },
}

/// One workload: a batch of values, their encodings and a reused buffer.
pub struct Workload {
    values: Values,
    encoded: Vec<Vec<u8>>,
    buf: Vec<u8>,
}

impl Workload {
    /// The workload named `group` (one of [`GROUPS`]), the same values on
    /// every call.
    pub fn new(group: &str) -> Option<Self> {
        let kind = GROUPS.iter().position(|g| *g == group)?;
        if group == "save" {
            let derived = saves();
            let encoded = derived
                .iter()
                .map(|s| score_save::encode(&mut s.clone()).unwrap())
                .collect();
            let hand = derived.iter().cloned().map(HandSave).collect();
            return Some(Self {
                values: Values::Save { derived, hand },
                encoded,
                buf: vec![0; 256],
            });
        }
        let derived = packets(kind as u8);
        let encoded = derived
            .iter()
            .map(|p| packet::encode_to_vec(&mut p.clone()).unwrap())
            .collect();
        let hand = derived.iter().cloned().map(HandPacket).collect();
        assert_eq!(TestPacket::PACKET_TYPES, HandPacket::PACKET_TYPES);
        Some(Self {
            values: Values::Packets { derived, hand },
            encoded,
            buf: vec![0; 1024],
        })
    }

    /// Runs one operation over the whole batch; returns the bytes written
    /// (encode) or 0 (decode), so the work cannot be optimized away.
    pub fn run(&mut self, direction: Direction, who: Who) -> usize {
        let buf = &mut self.buf;
        match (direction, &mut self.values, who) {
            (Direction::Encode, Values::Packets { derived, .. }, Who::Derived) => derived
                .iter_mut()
                .map(|p| packet::encode(p, buf).unwrap())
                .sum(),
            (Direction::Encode, Values::Packets { hand, .. }, Who::Hand) => hand
                .iter_mut()
                .map(|p| packet::encode(p, buf).unwrap())
                .sum(),
            (Direction::Encode, Values::Save { derived, .. }, Who::Derived) => derived
                .iter_mut()
                .map(|s| codec::write_to(s, buf).unwrap())
                .sum(),
            (Direction::Encode, Values::Save { hand, .. }, Who::Hand) => hand
                .iter_mut()
                .map(|s| codec::write_to(s, buf).unwrap())
                .sum(),
            (Direction::Decode, Values::Packets { .. }, Who::Derived) => {
                for bytes in &self.encoded {
                    black_box(packet::decode::<TestPacket>(black_box(bytes)).unwrap());
                }
                0
            }
            (Direction::Decode, Values::Packets { .. }, Who::Hand) => {
                for bytes in &self.encoded {
                    black_box(packet::decode::<HandPacket>(black_box(bytes)).unwrap());
                }
                0
            }
            (Direction::Decode, Values::Save { .. }, Who::Derived) => {
                for bytes in &self.encoded {
                    black_box(score_save::decode(black_box(bytes)).unwrap());
                }
                0
            }
            (Direction::Decode, Values::Save { .. }, Who::Hand) => {
                for bytes in &self.encoded {
                    black_box(decode_hand(black_box(bytes)));
                }
                0
            }
        }
    }
}

fn packets(kind: u8) -> Vec<TestPacket> {
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(kind));
    (0..BATCH)
        .map(|_| match kind {
            0 => TestPacket::A(PacketA {
                a: rng.gen_range(-10..=10),
                b: rng.gen_range(-20..=20),
                c: rng.gen_range(-30..=30),
            }),
            1 => TestPacket::B(PacketB {
                items: (0..rng.gen_range(0..=32))
                    .map(|_| rng.gen_range(-100..=100))
                    .collect(),
            }),
            _ => {
                let at_rest = rng.gen_bool(0.5);
                TestPacket::C(PacketC {
                    position: [rng.gen(), rng.gen(), rng.gen()],
                    at_rest,
                    velocity: if at_rest {
                        [0.0; 3]
                    } else {
                        [rng.gen(), rng.gen(), rng.gen()]
                    },
                })
            }
        })
        .collect()
}

fn saves() -> Vec<ScoreState> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..BATCH)
        .map(|_| ScoreState {
            scores: (0..rng.gen_range(0..=8))
                .map(|_| rng.gen_range(MIN_SCORE..=MAX_SCORE))
                .collect(),
        })
        .collect()
}

fn decode_hand(bytes: &[u8]) -> ScoreState {
    let mut save = HandSave::default();
    let mut stream = ReadStream::new(bytes);
    save.serialize(&mut stream).unwrap();
    codec::stream::expect_end(&mut stream).unwrap();
    save.0
}
