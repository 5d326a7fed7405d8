//! The values every codec sends, as a game holds them: floats for the
//! simulation, integer indices, a `Vec` of the objects present. Fixed seeds,
//! so every run and every codec sees the same packets.
//!
//! These plain types are also what bitcode and postcard send: their derives
//! are how a Rust programmer would use either crate.

use bitcode::{Decode, Encode};
use rand::seq::index::sample;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Seeds: one per workload kind, so adding a density never moves the others.
const SCENE_SEED: u64 = 0x5CE4_E0B5;
const PACKET_SEED: u64 = 0x9AC4_E7AB;

/// Indices in the world: the scenes protocol's 1024.
const WORLD: usize = 1024;

/// One cube of the scenes protocol, before any codec touches it.
#[derive(Clone, Debug, PartialEq, Encode, Decode, Serialize, Deserialize)]
pub struct FloatObject {
    /// In `0..1024`, increasing along a scene.
    pub index: u16,
    /// Each axis in `[-1000, 1000)`.
    pub position: [f32; 3],
    /// A unit quaternion `[x, y, z, w]`.
    pub orientation: [f32; 4],
    /// Linear `[-10, 10)` and angular `[-20, 20)` velocity; `None` at rest.
    pub velocity: Option<([f32; 3], [f32; 3])>,
}

/// The packets of protocol "packets", as floats and plain integers.
#[derive(Clone, Debug, PartialEq, Encode, Decode, Serialize, Deserialize)]
pub enum FloatPacket {
    /// `a` in `[-10, 10]`, `b` in `[-20, 20]`, `c` in `[-30, 30]`.
    A { a: i32, b: i32, c: i32 },
    /// Up to 32 items in `[-100, 100]`.
    B { items: Vec<i32> },
    /// A position, and a velocity unless at rest.
    C {
        position: [f32; 3],
        velocity: Option<[f32; 3]>,
    },
}

/// A named batch of inputs: each benchmark iteration sends all of them, so
/// no codec is timed on one packet its branch predictor has memorized.
pub struct Batch<T> {
    /// The row's name in tables and criterion ids.
    pub name: String,
    /// The inputs.
    pub inputs: Vec<T>,
}

/// Scene densities measured: the four.
pub const DENSITIES: [u32; 4] = [1, 10, 50, 100];

/// About this many objects per batch, so each iteration does a similar
/// amount of work, and at most this many packets.
///
/// A batch must be larger than a branch predictor can learn: criterion
/// replays it, and a predictor that has learnt where each object is at rest
/// times a codec that no game sees. Packets A, B and C go 2048 to a batch
/// for the same reason.
const OBJECTS_PER_BATCH: usize = 16_384;
const MAX_BATCH: usize = 2048;

fn object(rng: &mut ChaCha8Rng, index: usize) -> FloatObject {
    let mut vector = |limit: f32| [(); 3].map(|_| rng.gen_range(-limit..limit));
    let position = vector(1000.0);
    let moving = rng.gen_bool(0.5);
    let velocity = moving.then(|| {
        let linear = [(); 3].map(|_| rng.gen_range(-10.0f32..10.0));
        let angular = [(); 3].map(|_| rng.gen_range(-20.0f32..20.0));
        (linear, angular)
    });
    let q = [(); 4].map(|_| rng.gen_range(-1.0f32..1.0));
    let norm = q
        .iter()
        .map(|c| c * c)
        .sum::<f32>()
        .sqrt()
        .max(f32::MIN_POSITIVE);
    FloatObject {
        index: index as u16,
        position,
        orientation: q.map(|c| c / norm),
        velocity,
    }
}

/// Scenes of `round(1024 * density%)` objects at uniformly random indices,
/// half of them moving (the compactness study's model).
pub fn scenes(density_percent: u32) -> Batch<Vec<FloatObject>> {
    let mut rng = ChaCha8Rng::seed_from_u64(SCENE_SEED ^ u64::from(density_percent));
    let k = (WORLD * density_percent as usize + 50) / 100;
    let count = (OBJECTS_PER_BATCH / k.max(1)).clamp(1, MAX_BATCH);
    let inputs = (0..count)
        .map(|_| {
            let mut indices = sample(&mut rng, WORLD, k).into_vec();
            indices.sort_unstable();
            indices.into_iter().map(|i| object(&mut rng, i)).collect()
        })
        .collect();
    Batch {
        name: format!("scene-{density_percent}pct"),
        inputs,
    }
}

/// 2048 packets of one type of protocol "packets" (0 = A, 1 = B, 2 = C).
pub fn packets(packet_type: u8) -> Batch<FloatPacket> {
    let mut rng = ChaCha8Rng::seed_from_u64(PACKET_SEED ^ u64::from(packet_type));
    let vector = |rng: &mut ChaCha8Rng| [(); 3].map(|_| rng.gen_range(-1000.0f32..1000.0));
    let inputs = (0..MAX_BATCH)
        .map(|_| match packet_type {
            0 => FloatPacket::A {
                a: rng.gen_range(-10..=10),
                b: rng.gen_range(-20..=20),
                c: rng.gen_range(-30..=30),
            },
            1 => {
                let count = rng.gen_range(0..=32);
                FloatPacket::B {
                    items: (0..count).map(|_| rng.gen_range(-100..=100)).collect(),
                }
            }
            _ => FloatPacket::C {
                position: vector(&mut rng),
                velocity: rng.gen_bool(0.5).then(|| vector(&mut rng)),
            },
        })
        .collect();
    let letter = ["A", "B", "C"][usize::from(packet_type.min(2))];
    Batch {
        name: format!("packet-{letter}"),
        inputs,
    }
}
