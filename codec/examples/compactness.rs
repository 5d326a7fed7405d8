//! How many bits each scene strategy spends on saying which objects are
//! present, next to the information-theoretic bound.
//!
//! `cargo run --release -p gamepacket-codec --example compactness`
//!
//! For each density, 200 random scenes (fixed seed) of exactly
//! `round(1024 * density)` objects at uniformly random indices, half of them
//! moving. Prints bytes per packet for scenes A to E and the Golomb scene
//! (scene E's version 1), then, for the index part alone, bits per sent
//! object for B to E, the bound `log2(C(1024, k)) / k`, and the bound that
//! also counts saying `k`, `log2(1025 C(1024, k)) / k`, beside E's bytes
//! per packet; last, the same for the Golomb scene on the same scenes. The
//! output is what docs/COMPACTNESS.md shows.

use codec::packet::{self, Packet};
use codec::protocols::scenes::{GolombScene, Object, Scene, SceneE, ScenePacket, Slot, Strategy};
use codec::MeasureStream;
use rand::seq::index::sample;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SEED: u64 = 0x5CE4E;
const SCENES_PER_DENSITY: usize = 200;
const DENSITIES: [f64; 6] = [0.01, 0.05, 0.10, 0.25, 0.50, 1.00];

fn random_object(rng: &mut ChaCha8Rng) -> Object {
    let mut vector = |limit: f32| [(); 3].map(|_| rng.gen_range(-limit..limit));
    let position = vector(1000.0);
    let orientation = [(); 4].map(|_| rng.gen_range(-1.0f32..1.0));
    if rng.gen_bool(0.5) {
        Object::new(position, orientation, [0.0; 3], [0.0; 3])
    } else {
        let linear = [(); 3].map(|_| rng.gen_range(-10.0f32..10.0));
        let angular = [(); 3].map(|_| rng.gen_range(-20.0f32..20.0));
        Object::new(position, orientation, linear, angular)
    }
}

fn random_scene(rng: &mut ChaCha8Rng, k: usize) -> Scene {
    let mut indices = sample(rng, 1024, k).into_vec();
    indices.sort_unstable();
    Scene {
        slots: indices
            .into_iter()
            .map(|i| Slot {
                index: i as u16,
                object: random_object(rng),
            })
            .collect(),
    }
}

/// Bits of the payload alone (no framing).
fn payload_bits<P: Packet>(packet: &mut P) -> u64 {
    let mut m = MeasureStream::new();
    packet.serialize_payload(&mut m).expect("measure");
    m.bits()
}

fn objects_bits(scene: &Scene) -> u64 {
    scene
        .slots
        .iter()
        .map(|s| codec::measure(&mut s.object.clone()).expect("measure"))
        .sum()
}

/// `log2(C(1024, k))`.
fn bound_bits(k: usize) -> f64 {
    (0..k)
        .map(|i| ((1024 - i) as f64 / (i + 1) as f64).log2())
        .sum()
}

/// `log2(1025 C(1024, k))`: the bound when the packet must also say which
/// of the 1025 sizes it has.
fn counted_bound_bits(k: usize) -> f64 {
    1025f64.log2() + bound_bits(k)
}

fn main() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    println!("Bytes per packet (mean of {SCENES_PER_DENSITY} scenes, framing included):\n");
    println!("| density | objects | A | B | C | D | E | Golomb |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut index_rows = Vec::new();
    for density in DENSITIES {
        let k = (1024.0 * density).round() as usize;
        let mut bytes = [0f64; 6];
        let mut index = [0f64; 6];
        for _ in 0..SCENES_PER_DENSITY {
            let scene = random_scene(&mut rng, k);
            let objects = objects_bits(&scene) as f64;
            for (column, strategy) in Strategy::ALL.into_iter().enumerate() {
                let mut p = ScenePacket {
                    strategy,
                    scene: scene.clone(),
                };
                bytes[column] += packet::encode_to_vec(&mut p).expect("encode").len() as f64;
                index[column] += payload_bits(&mut p) as f64 - objects;
            }
            let mut g = GolombScene::new(scene.clone());
            bytes[5] += packet::encode_to_vec(&mut g).expect("encode").len() as f64;
            index[5] += payload_bits(&mut g) as f64 - objects;
            let mut e = SceneE::new(scene);
            bytes[4] += packet::encode_to_vec(&mut e).expect("encode").len() as f64;
            index[4] += payload_bits(&mut e) as f64 - objects;
        }
        let n = SCENES_PER_DENSITY as f64;
        let cells: Vec<String> = bytes.iter().map(|b| format!("{:.1}", b / n)).collect();
        println!("| {:.0}% | {k} | {} |", density * 100.0, cells.join(" | "));
        let per_object: Vec<f64> = index.iter().map(|b| b / n / k as f64).collect();
        index_rows.push((density, bytes[4] / n, per_object, k));
    }

    println!("\nIndex bits per sent object (the index part alone):\n");
    println!("| density | B | C | D | E | bound | E over bound | bound with k | E over it | E bytes/packet | E vs D |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut golomb_rows = Vec::new();
    for (density, e_bytes, per, k) in index_rows {
        let bound = bound_bits(k) / k as f64;
        let counted = counted_bound_bits(k) / k as f64;
        // With every object sent the bound is 0 bits: no ratio to show.
        let over = if bound > 1e-6 {
            format!("{:+.1}%", (per[4] / bound - 1.0) * 100.0)
        } else {
            "n/a (bound 0)".to_string()
        };
        let over_counted = (per[4] / counted - 1.0) * 100.0;
        let vs_d = (per[4] / per[3] - 1.0) * 100.0;
        println!(
            "| {:.0}% | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {over} | {counted:.3} | {over_counted:+.2}% | {e_bytes:.1} | {vs_d:+.1}% |",
            density * 100.0,
            per[1],
            per[2],
            per[3],
            per[4],
            bound
        );
        golomb_rows.push((density, per[4], per[5], counted));
    }
    println!(
        "\nThe Golomb scene (scene E's version 1) on the same scenes (index bits per sent object):\n"
    );
    println!("| density | E | Golomb | bound with k | Golomb over it | E vs Golomb |");
    println!("|---|---|---|---|---|---|");
    for (density, e, golomb, counted) in golomb_rows {
        println!(
            "| {:.0}% | {e:.3} | {golomb:.3} | {counted:.3} | {:+.2}% | {:+.1}% |",
            density * 100.0,
            (golomb / counted - 1.0) * 100.0,
            (e / golomb - 1.0) * 100.0
        );
    }
    print_floors();
}

/// Windows of sizes around each density's `k`, for [`print_floors`].
const WINDOWS: [(f64, usize, usize); 5] = [
    (0.01, 5, 15),
    (0.05, 40, 62),
    (0.10, 90, 115),
    (0.25, 230, 282),
    (0.50, 480, 544),
];

/// The smallest overhead `e` over the bound that any uniquely decodable
/// code can keep for every size in `from..=to`: by Kraft's inequality the
/// sizes' subsets need `sum C(1024, k)^(-e) <= 1`; found by bisection.
fn floor(from: usize, to: usize) -> f64 {
    let kraft = |e: f64| -> f64 { (from..=to).map(|k| (-e * bound_bits(k)).exp2()).sum() };
    let (mut low, mut high) = (0.0f64, 1.0f64);
    for _ in 0..60 {
        let mid = (low + high) / 2.0;
        if kraft(mid) <= 1.0 {
            high = mid;
        } else {
            low = mid;
        }
    }
    high
}

fn print_floors() {
    println!("\nThe smallest overhead any code can guarantee over a window of sizes:\n");
    println!("| density | window of k | overhead |");
    println!("|---|---|---|");
    for (density, from, to) in WINDOWS {
        let e = floor(from, to) * 100.0;
        println!("| {:.0} % | {from} to {to} | {e:.2} % |", density * 100.0);
    }
}
