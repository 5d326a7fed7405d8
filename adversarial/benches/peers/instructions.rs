//! `-- --instructions`: instructions per packet for our codecs and bitcode
//! on every workload, counted by cachegrind in child runs of this binary,
//! where wall-clock noise would hide a difference of a percent.

use crate::aligned::Aligned;
use crate::cachegrind;
use crate::wire::{self, Wire};
use crate::workload::{self, Batch};
use crate::{general, ours};
use std::hint::black_box;

/// The flag of a child run: `RUN workload codec direction rounds`.
pub const RUN: &str = "--run-one";

/// Rounds of the counted child run; a run of none is subtracted.
const ROUNDS: u64 = 10;

/// The codecs counted on scenes and on packets.
const SCENE_CODECS: [&str; 4] = ["ours-E", "ours-golomb", "ours-A-D", "bitcode"];
const PACKET_CODECS: [&str; 2] = ["ours", "bitcode"];

/// Encodes or decodes the whole batch `rounds` times, after the same
/// setup as the timed benchmark.
fn repeat<In, W: Wire<In>>(batch: &Batch<In>, direction: &str, rounds: u64) {
    let (mut state, mut values, packets) = wire::encoded::<In, W>(batch);
    let aligned = Aligned::new(&packets);
    let packets = aligned.packets();
    for _ in 0..rounds {
        if direction == "encode" {
            for value in values.iter_mut() {
                black_box(W::encode(&mut state, value).len());
            }
        } else {
            for packet in &packets {
                black_box(W::decode(&mut state, packet));
            }
        }
    }
}

/// A block's name (`scene-10pct`, `packet-B`) as its density or packet type.
enum Workload {
    Scenes(u32),
    Packets(u8),
}

impl Workload {
    fn parse(name: &str) -> Self {
        if let Some(density) = name
            .strip_prefix("scene-")
            .and_then(|d| d.strip_suffix("pct"))
        {
            return Self::Scenes(density.parse().expect("a density"));
        }
        let letter = name.strip_prefix("packet-").expect("a workload");
        let packet_type = ["A", "B", "C"].iter().position(|l| *l == letter);
        Self::Packets(packet_type.expect("packet A, B or C") as u8)
    }

    fn packets(&self) -> usize {
        match *self {
            Self::Scenes(density) => workload::scenes(density).inputs.len(),
            Self::Packets(packet_type) => workload::packets(packet_type).inputs.len(),
        }
    }
}

/// The child run.
pub fn run(workload: &str, codec: &str, direction: &str, rounds: u64) {
    match Workload::parse(workload) {
        Workload::Scenes(density) => {
            let batch = workload::scenes(density);
            match codec {
                "ours-E" => repeat::<_, ours::OursE>(&batch, direction, rounds),
                "ours-golomb" => repeat::<_, ours::OursGolomb>(&batch, direction, rounds),
                "ours-A-D" => repeat::<_, ours::OursBestOfAD>(&batch, direction, rounds),
                "bitcode" => repeat::<_, general::Bitcode>(&batch, direction, rounds),
                _ => panic!("no codec {codec} on {workload}"),
            }
        }
        Workload::Packets(packet_type) => {
            let batch = workload::packets(packet_type);
            match codec {
                "ours" => repeat::<_, ours::OursPackets>(&batch, direction, rounds),
                "bitcode" => repeat::<_, general::Bitcode>(&batch, direction, rounds),
                _ => panic!("no codec {codec} on {workload}"),
            }
        }
    }
}

/// Prints instructions per packet for each workload, codec and direction.
pub fn print() {
    if cachegrind::missing() {
        return;
    }
    println!("\n| workload | codec | encode instructions/packet | decode instructions/packet |");
    println!("|---|---|---|---|");
    let scenes = workload::DENSITIES.map(|d| (format!("scene-{d}pct"), &SCENE_CODECS[..]));
    let packets = ["A", "B", "C"].map(|l| (format!("packet-{l}"), &PACKET_CODECS[..]));
    for (workload, codecs) in scenes.into_iter().chain(packets) {
        let count = Workload::parse(&workload).packets() as f64;
        for codec in codecs {
            let per_packet = |direction: &str| {
                let run = |rounds: u64| {
                    let args = [RUN, &workload, codec, direction, &rounds.to_string()];
                    cachegrind::instructions(&args.map(String::from))
                };
                run(ROUNDS).saturating_sub(run(0)) as f64 / (ROUNDS as f64 * count)
            };
            println!(
                "| {workload} | {codec} | {:.0} | {:.0} |",
                per_packet("encode"),
                per_packet("decode")
            );
        }
    }
}
