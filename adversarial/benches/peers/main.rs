//! Per-packet size, encode and decode time, and bytes allocated per decode:
//! our codec next to bitcode, naia-serde and postcard, on the scenes
//! protocol at four densities and on packets A, B and C, all in one run.
//!
//! `cargo bench -p gamepacket-adversarial --bench peers`; the closing tables are what
//! docs/BENCHMARKS.md shows. One packet at a time, as a game sends them:
//! encode into a reused buffer, decode from a slice (each from a 64-byte
//! boundary: `common/aligned.rs` says why). Each iteration sends a whole
//! batch of different packets; figures are per packet.
//! `-- --instructions` counts instructions per packet under cachegrind
//! instead (`instructions.rs`).

#[path = "../common/aligned.rs"]
mod aligned;
#[path = "../../../codec/benches/common/cachegrind.rs"]
mod cachegrind;
#[path = "../common/criterion_results.rs"]
mod criterion_results;
mod general;
mod instructions;
mod naia;
mod ours;
mod wire;
mod workload;

use adversarial::alloc::{allocated_during, Allocated, CountingAllocator};
use aligned::Aligned;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Throughput};
use criterion_results::{figure, Results};
use std::hint::black_box;
use wire::Wire;
use workload::Batch;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// What the setup of one codec on one workload found (timings come later,
/// from criterion's estimates).
struct Row {
    codec: &'static str,
    bytes_per_packet: f64,
    /// What decoding the whole batch asked of the allocator.
    allocated: Allocated,
    packets: usize,
}

/// Builds the codec's values, checks every packet round-trips, counts the
/// bytes and the allocations of a decode, then registers both benchmarks.
fn measure<In, W: Wire<In>>(group: &mut BenchmarkGroup<'_, WallTime>, batch: &Batch<In>) -> Row {
    let (mut state, mut values, packets) = wire::encoded::<In, W>(batch);
    for (value, packet) in values.iter().zip(&packets) {
        assert!(
            W::decode(&mut state, packet) == *value,
            "{} does not round-trip {}",
            W::NAME,
            batch.name
        );
    }
    let n = packets.len();
    let bytes: usize = packets.iter().map(Vec::len).sum();
    let aligned = Aligned::new(&packets);
    let packets = aligned.packets();
    // Warm: bitcode's buffer keeps its allocations from the round trip above.
    let ((), total) = allocated_during(|| {
        for packet in &packets {
            black_box(W::decode(&mut state, packet));
        }
    });

    group.bench_function(BenchmarkId::new("encode", W::NAME), |b| {
        b.iter(|| {
            for value in values.iter_mut() {
                black_box(W::encode(&mut state, value).len());
            }
        })
    });
    group.bench_function(BenchmarkId::new("decode", W::NAME), |b| {
        b.iter(|| {
            for packet in &packets {
                black_box(W::decode(&mut state, packet));
            }
        })
    });
    Row {
        codec: W::NAME,
        bytes_per_packet: bytes as f64 / n as f64,
        allocated: total,
        packets: n,
    }
}

/// `a / b`, when both were measured.
fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    Some(a? / b?)
}

/// One workload's block of the closing tables.
struct Block {
    name: String,
    packets: usize,
    about: String,
    rows: Vec<Row>,
}

fn group<'c, In>(
    c: &'c mut criterion::Criterion,
    batch: &Batch<In>,
) -> BenchmarkGroup<'c, WallTime> {
    let mut group = c.benchmark_group(&batch.name);
    group.throughput(Throughput::Elements(batch.inputs.len() as u64));
    group
}

fn scenes(c: &mut criterion::Criterion, density: u32) -> Block {
    let batch = workload::scenes(density);
    let mut group = group(c, &batch);
    let rows = vec![
        measure::<_, ours::OursE>(&mut group, &batch),
        measure::<_, ours::OursGolomb>(&mut group, &batch),
        measure::<_, ours::OursBestOfAD>(&mut group, &batch),
        measure::<_, general::Bitcode>(&mut group, &batch),
        measure::<_, naia::Naia>(&mut group, &batch),
        measure::<_, general::Postcard>(&mut group, &batch),
    ];
    group.finish();
    let strategies: Vec<String> = batch
        .inputs
        .iter()
        .map(|i| format!("{:?}", <ours::OursBestOfAD as Wire<_>>::value(i).strategy))
        .collect();
    Block {
        packets: batch.inputs.len(),
        about: format!(
            "{} objects per packet; ours-A-D sent scene {}",
            batch.inputs.first().map_or(0, Vec::len),
            distinct(&strategies)
        ),
        name: batch.name,
        rows,
    }
}

fn packets(c: &mut criterion::Criterion, packet_type: u8) -> Block {
    let batch = workload::packets(packet_type);
    let mut group = group(c, &batch);
    let rows = vec![
        measure::<_, ours::OursPackets>(&mut group, &batch),
        measure::<_, general::Bitcode>(&mut group, &batch),
        measure::<_, naia::Naia>(&mut group, &batch),
        measure::<_, general::Postcard>(&mut group, &batch),
    ];
    group.finish();
    Block {
        packets: batch.inputs.len(),
        about: format!(
            "the article's packet, {} different values",
            batch.inputs.len()
        ),
        name: batch.name,
        rows,
    }
}

/// The distinct names in `names`, joined: "D" or "A, D".
fn distinct(names: &[String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        if !seen.contains(&name.as_str()) {
            seen.push(name);
        }
    }
    seen.join(", ")
}

fn print_block(block: &Block, results: &Results) {
    let per_packet = |function: &str, codec: &str| {
        results
            .median_ns(&[&block.name, function, codec])
            .map(|ns| ns / block.packets as f64)
    };
    let Some(ours) = block.rows.first() else {
        return;
    };
    let ours_encode = per_packet("encode", ours.codec);
    let ours_decode = per_packet("decode", ours.codec);
    println!(
        "\n### {} ({} packets per iteration; {})\n",
        block.name, block.packets, block.about
    );
    println!(
        "| codec | bytes/packet | size vs {0} | encode ns | encode vs {0} | decode ns | decode vs {0} | allocated per decode |",
        ours.codec
    );
    println!("|---|---|---|---|---|---|---|---|");
    for row in &block.rows {
        let encode = per_packet("encode", row.codec);
        let decode = per_packet("decode", row.codec);
        println!(
            "| {} | {:.1} | {:.2}x | {} | {}x | {} | {}x | {:.0} B in {:.2} calls |",
            row.codec,
            row.bytes_per_packet,
            row.bytes_per_packet / ours.bytes_per_packet,
            figure(encode),
            figure(ratio(encode, ours_encode)),
            figure(decode),
            figure(ratio(decode, ours_decode)),
            row.allocated.bytes as f64 / row.packets as f64,
            row.allocated.calls as f64 / row.packets as f64,
        );
    }
}

/// The goals against bitcode, one line per workload.
fn print_goals(blocks: &[Block], results: &Results) {
    println!("\n### Goals against bitcode\n");
    println!("| workload | ours smaller by (goal >= 40% on scenes) | encode speed-up (goal >= 1.00x) | decode speed-up (goal >= 1.00x) |");
    println!("|---|---|---|---|");
    for block in blocks {
        let (Some(ours), Some(peer)) = (
            block.rows.first(),
            block.rows.iter().find(|r| r.codec == "bitcode"),
        ) else {
            continue;
        };
        let speedup = |function: &str| {
            let ours = results.median_ns(&[&block.name, function, ours.codec]);
            let peer = results.median_ns(&[&block.name, function, peer.codec]);
            match ratio(peer, ours) {
                Some(r) => format!("{r:.2}x {}", if r >= 1.0 { "met" } else { "NOT met" }),
                None => "-".to_string(),
            }
        };
        let smaller = 1.0 - ours.bytes_per_packet / peer.bytes_per_packet;
        let size_goal = if !block.name.starts_with("scene") {
            ""
        } else if smaller >= 0.40 {
            " met"
        } else {
            " NOT met"
        };
        println!(
            "| {} | {:.1}%{size_goal} | {} | {} |",
            block.name,
            smaller * 100.0,
            speedup("encode"),
            speedup("decode"),
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, workload, codec, direction, rounds] = args.as_slice() {
        if flag == instructions::RUN {
            instructions::run(workload, codec, direction, rounds.parse().expect("a count"));
            return;
        }
    }
    if args.iter().any(|a| a == "--instructions") {
        instructions::print();
        return;
    }
    let (mut c, results) = criterion_results::criterion();
    let mut blocks: Vec<Block> = workload::DENSITIES
        .into_iter()
        .map(|density| scenes(&mut c, density))
        .collect();
    blocks.extend((0..3).map(|packet_type| packets(&mut c, packet_type)));
    c.final_summary();

    println!("\n## Per packet: ours next to bitcode, naia-serde and postcard");
    println!("(medians; a ratio above 1 means the peer is larger or slower than ours)");
    for block in &blocks {
        print_block(block, &results);
    }
    print_goals(&blocks, &results);
}
