//! The C++ reference library's own benchmark workloads (`bench.cpp` of
//! serialize 1.1: its bit widths, values, packet fields and ranges), run on
//! this codec the way a user's crate calls it: a separate crate, no LTO.
//!
//! - bitpacker: a 64 KiB buffer filled with groups of sixteen raw fields of
//!   widths 1, 32, 7, 13, 3, 25, 8, 19, 4, 28, 11, 16, 2, 30, 6, 22 bits
//!   (227 bits a group) while 256 bits remain, then read back the same way;
//! - stream: the reference's 49-byte packet (three ranged ints, raw 7, 13
//!   and 23-bit fields, a bool, three floats, a u64 and 17 aligned bytes);
//! - int, bits and mixed packets of 14, 20 and 21 bytes, the packet shapes
//!   the reference's ports time beside it (`packets.rs`).
//!
//! Every packet is written with its fields varied by the reference's LCG
//! each time, and read from 64 encodings in turn, each in a 256-byte
//! buffer of its own as in the references' benches, from a 64-byte
//! boundary (`aligned.rs` in the peers bench says why); the encodings are
//! checked (size, values read back) before anything is timed. A read gets its
//! packet's length as a constant, as the references' reads do (see
//! `read_packets`); `read-any-length` times the same reads with a length
//! only the run knows.
//!
//! `cargo bench -p gamepacket-codec --bench reference` times each workload
//! with criterion (medians). `-- --trials` times them as the references time
//! theirs, the best of five trials of 4096 bitpacker passes or a million
//! packets: what `versus.py` runs beside them, and docs/BENCHMARKS.md
//! records.
//! `cargo bench -p gamepacket-codec --bench reference -- --instructions` counts the
//! instructions of each workload under cachegrind instead (one bitpacker
//! pass, one packet), figures that repeat to the digit.

#[path = "../common/cachegrind.rs"]
mod cachegrind;
#[path = "../../../adversarial/benches/common/criterion_results.rs"]
#[allow(dead_code)] // its short defaults serve the other benchmarks
mod criterion_results;

use codec::bits::{BitReader, BitWriter};
use codec::ReadStream;
use criterion::{Criterion, Throughput};
use criterion_results::figure;
use std::hint::black_box;

mod packets;
use packets::{
    BitsPacket, DerivedMixedPacket, IntPacket, MixedPacket, PlainMixedPacket, StreamPacket,
    Workload,
};

const BUFFER: usize = 64 * 1024;
const WIDTHS: [u32; 16] = [1, 32, 7, 13, 3, 25, 8, 19, 4, 28, 11, 16, 2, 30, 6, 22];
const PACKETS: u64 = 1000;
const VARIANTS: usize = 64;

fn values() -> [u32; 16] {
    let mut values = [0u32; 16];
    for (i, (value, width)) in values.iter_mut().zip(WIDTHS).enumerate() {
        let mask = if width == 32 {
            u32::MAX
        } else {
            (1 << width) - 1
        };
        *value = 0x9E37_79B9u32.wrapping_mul(i as u32 + 1) & mask;
    }
    values
}

/// Calls `$each!(i)` for every `i` of a group, in order: the group spelled
/// out, as g++ -O3 unrolls the reference's loop over it (rustc's LLVM
/// leaves that loop rolled at its default threshold), so that both
/// compilers see each field's width as a constant.
macro_rules! each_field {
    ($each:ident) => {
        $each!(0);
        $each!(1);
        $each!(2);
        $each!(3);
        $each!(4);
        $each!(5);
        $each!(6);
        $each!(7);
        $each!(8);
        $each!(9);
        $each!(10);
        $each!(11);
        $each!(12);
        $each!(13);
        $each!(14);
        $each!(15);
    };
}

// Out of line, each pass a function of its own as in bench.cpp, whose
// code can be read in the disassembly.
#[inline(never)]
fn write_bitpacker(buf: &mut [u8], values: &[u32; 16]) -> usize {
    let mut writer = BitWriter::new(buf);
    while writer.bits_available() >= 256 {
        macro_rules! write {
            ($i:literal) => {
                writer.write_bits(values[$i], WIDTHS[$i]).unwrap()
            };
        }
        each_field!(write);
    }
    writer.finish()
}

// Out of line, as the write.
#[inline(never)]
fn read_bitpacker(buf: &[u8]) -> u64 {
    let mut reader = BitReader::new(buf);
    let mut sum = 0u64;
    while reader.bits_remaining() >= 256 {
        // The 256 bits lie in the 32 bytes from the next bit's byte on,
        // checked once; the two reads whose word would cross the 32nd
        // byte are the reader's own.
        let Some(mut group) = reader.group::<32>() else {
            break;
        };
        macro_rules! read {
            ($i:literal) => {
                sum += u64::from(group.read_bits(WIDTHS[$i]).unwrap())
            };
        }
        each_field!(read);
    }
    sum
}

/// `PACKETS` packets written, each varied first; returns the bytes written.
///
/// The packet is a local of the loop, as `bench.cpp`'s is, so its fields
/// may stay in registers and only the output is observed (varied through
/// `&mut P`, every field was stored on every packet). The packet shapes
/// are varied, as `bench.cpp` varies them, by a call the compiler cannot
/// see through (`P::VARIED_OUT_OF_LINE`).
fn write_packets<P: Workload>(packet: &mut P, rng: &mut u64, out: &mut [u8]) -> usize {
    let vary: fn(&mut P, u64) -> u64 = if P::VARIED_OUT_OF_LINE {
        black_box(P::vary)
    } else {
        P::vary
    };
    let mut local = packet.clone();
    let mut state = *rng;
    let mut total = 0;
    for _ in 0..PACKETS {
        state = vary(&mut local, state);
        total += codec::write_to(&mut local, out).unwrap();
        black_box(&*out);
    }
    *packet = local;
    *rng = state;
    total
}

/// A packet's encoding, zeros after it, in a buffer of its own: the
/// references' benches keep theirs as `variant_buffers[64][256]`. Each
/// starts a cache line, so that two builds read at the same offsets; the
/// writes' output buffer is one too, for the same reason.
#[repr(C, align(64))]
struct Variant([u8; 256]);

/// The encodings in their buffers.
fn variants(encodings: &[Vec<u8>]) -> Box<[Variant; VARIANTS]> {
    let mut variants = Box::new([const { Variant([0; 256]) }; VARIANTS]);
    for (variant, encoding) in variants.iter_mut().zip(encodings) {
        variant.0[..encoding.len()].copy_from_slice(encoding);
    }
    variants
}

/// `PACKETS` packets read, cycling through the variants; every decoded
/// field is observed.
///
/// With `KNOWN_LENGTH`, each packet is handed over as the references'
/// benches hand theirs: with a length the compiler knows (`P::BYTES`,
/// which [`check`] asserts). Theirs take the length from the writes of
/// their set-up, which fold to a constant: serialize.rs's stream read keeps
/// no bounds check at all. Without it, the length is known only at run
/// time, as in a server's receive loop.
///
/// Every packet is read into one `P`, which each read overwrites whole:
/// the references declare theirs uninitialized in the loop, which costs
/// nothing; `P::default()` on each packet stored zeros first.
fn read_packets<P: Workload, const KNOWN_LENGTH: bool>(variants: &[Variant; VARIANTS]) -> usize {
    let len = if KNOWN_LENGTH {
        P::BYTES
    } else {
        black_box(P::BYTES)
    };
    let mut total = 0;
    let mut read = P::default();
    for i in 0..PACKETS as usize {
        let bytes = &variants[i % VARIANTS].0[..len];
        read.serialize(&mut ReadStream::new(bytes)).unwrap();
        black_box(&read);
        total += 1;
    }
    total
}

/// The 64 encodings the read workload cycles through, from the LCG's
/// first 64 states, and the packet they leave behind.
fn encodings<P: Workload>() -> (P, Vec<Vec<u8>>) {
    let mut packet = P::initial();
    let mut rng = 1u64;
    let encodings = (0..VARIANTS)
        .map(|_| {
            rng = packet.vary(rng);
            codec::to_vec(&mut packet).unwrap()
        })
        .collect();
    (packet, encodings)
}

/// Checks a workload's encodings before anything is timed: the size the
/// reference's packet has, and the values read back.
fn check<P: Workload>(encodings: &[Vec<u8>]) {
    let mut expected = P::initial();
    let mut rng = 1u64;
    for bytes in encodings {
        rng = expected.vary(rng);
        assert_eq!(bytes.len(), P::BYTES, "{} is {} bytes", P::NAME, P::BYTES);
        assert_eq!(
            codec::from_slice::<P>(bytes).unwrap(),
            expected,
            "{} reads back",
            P::NAME
        );
    }
}

/// The flag that makes this binary run a workload instead of measuring.
const RUN: &str = "--run-workload";

/// Runs `rounds` rounds of one direction of one packet workload.
fn run_packets<P: Workload>(direction: &str, rounds: u64) {
    let (mut packet, encodings) = encodings::<P>();
    let variants = variants(&encodings);
    let mut rng = 1u64;
    let mut out = Variant([0u8; 256]);
    for _ in 0..rounds {
        match direction {
            "write" => black_box(write_packets(&mut packet, &mut rng, &mut out.0)),
            "read" => black_box(read_packets::<P, true>(black_box(&variants))),
            ANY_LENGTH => black_box(read_packets::<P, false>(black_box(&variants))),
            other => panic!("no direction {other}"),
        };
    }
}

/// The read of a packet whose length only the run knows.
const ANY_LENGTH: &str = "read-any-length";

/// Runs `rounds` rounds of one workload (the child under cachegrind).
fn run(workload: &str, rounds: u64) {
    let (name, direction) = ["write", "read", ANY_LENGTH]
        .iter()
        .find_map(|d| Some((workload.strip_suffix(d)?.strip_suffix('-')?, *d)))
        .expect("<workload>-<direction>");
    match name {
        "bitpacker" => {
            let values = values();
            let mut buf = vec![0u8; BUFFER];
            write_bitpacker(&mut buf, &values);
            for _ in 0..rounds {
                if direction == "write" {
                    black_box(write_bitpacker(black_box(&mut buf), &values));
                } else {
                    black_box(read_bitpacker(black_box(&buf)));
                }
            }
        }
        StreamPacket::NAME => run_packets::<StreamPacket>(direction, rounds),
        IntPacket::NAME => run_packets::<IntPacket>(direction, rounds),
        BitsPacket::NAME => run_packets::<BitsPacket>(direction, rounds),
        MixedPacket::NAME => run_packets::<MixedPacket>(direction, rounds),
        DerivedMixedPacket::NAME => run_packets::<DerivedMixedPacket>(direction, rounds),
        PlainMixedPacket::NAME => run_packets::<PlainMixedPacket>(direction, rounds),
        other => panic!("no workload {other}"),
    }
}

/// The packet workloads, by name.
const PACKET_WORKLOADS: [&str; 6] = [
    StreamPacket::NAME,
    IntPacket::NAME,
    BitsPacket::NAME,
    MixedPacket::NAME,
    DerivedMixedPacket::NAME,
    PlainMixedPacket::NAME,
];

/// Instructions per bitpacker pass and per packet, from a run of 20
/// rounds less a run of none.
fn print_instructions() {
    if cachegrind::missing() {
        return;
    }
    const ROUNDS: u64 = 20;
    println!("\n| workload | instructions | per |");
    println!("|---|---|---|");
    let mut rows = vec![
        ("bitpacker-write".to_string(), "64 KiB pass", 1),
        ("bitpacker-read".to_string(), "64 KiB pass", 1),
    ];
    for name in PACKET_WORKLOADS {
        for direction in ["write", "read", ANY_LENGTH] {
            rows.push((format!("{name}-{direction}"), "packet", PACKETS));
        }
    }
    for (workload, per, units) in rows {
        let count = |rounds: u64| {
            cachegrind::instructions(&[RUN.to_string(), workload.clone(), rounds.to_string()])
        };
        let per_unit = count(ROUNDS).saturating_sub(count(0)) as f64 / (ROUNDS * units) as f64;
        println!("| {workload} | {per_unit:.0} | {per} |");
    }
}

/// The flag that times each workload as `bench.cpp` times its own.
const TRIALS: &str = "--trials";
/// `bench.cpp`'s method: the best of five trials...
const TRIAL_COUNT: usize = 5;
/// ...of 4096 bitpacker passes...
const TRIAL_PASSES: u64 = 4096;
/// ...or of a million packets (`PACKETS` a call).
const TRIAL_CALLS: u64 = 1_000_000 / PACKETS;

/// The best of `TRIAL_COUNT` trials of `iterations` calls of `f`, in
/// nanoseconds per call.
fn best_trial(iterations: u64, mut f: impl FnMut()) -> f64 {
    (0..TRIAL_COUNT)
        .map(|_| {
            let start = std::time::Instant::now();
            for _ in 0..iterations {
                f();
            }
            start.elapsed().as_secs_f64() * 1e9 / iterations as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// One packet workload's three directions timed as `bench.cpp` times its
/// packets, after checking its encodings: nanoseconds per `PACKETS`.
fn trial_packets<P: Workload>(times: &mut Vec<(&'static str, &'static str, f64)>) {
    let (mut packet, encodings) = encodings::<P>();
    check::<P>(&encodings);
    let variants = variants(&encodings);
    let mut rng = 1u64;
    let mut out = Variant([0u8; 256]);
    let write = best_trial(TRIAL_CALLS, || {
        black_box(write_packets(&mut packet, &mut rng, &mut out.0));
    });
    let read = best_trial(TRIAL_CALLS, || {
        black_box(read_packets::<P, true>(black_box(&variants)));
    });
    let any_length = best_trial(TRIAL_CALLS, || {
        black_box(read_packets::<P, false>(black_box(&variants)));
    });
    times.push((P::NAME, "write", write));
    times.push((P::NAME, "read", read));
    times.push((P::NAME, ANY_LENGTH, any_length));
}

/// Every workload timed by `bench.cpp`'s method rather than criterion's (a
/// median of samples), so that a ratio to the reference compares like with
/// like; the same table as the criterion run prints.
fn print_trials() {
    let values = values();
    let mut buf = vec![0u8; BUFFER];
    let written = write_bitpacker(&mut buf, &values);
    let mut times = vec![
        (
            "bitpacker",
            "write",
            best_trial(TRIAL_PASSES, || {
                black_box(write_bitpacker(black_box(&mut buf), &values));
            }),
        ),
        (
            "bitpacker",
            "read",
            best_trial(TRIAL_PASSES, || {
                black_box(read_bitpacker(black_box(&buf)));
            }),
        ),
    ];
    trial_packets::<StreamPacket>(&mut times);
    trial_packets::<IntPacket>(&mut times);
    trial_packets::<BitsPacket>(&mut times);
    trial_packets::<MixedPacket>(&mut times);
    trial_packets::<DerivedMixedPacket>(&mut times);
    trial_packets::<PlainMixedPacket>(&mut times);
    let ns = |group: &str, direction: &str| {
        times
            .iter()
            .find(|(g, d, _)| *g == group && *d == direction)
            .map(|(_, _, ns)| *ns)
    };
    print_table(ns, written as f64);
}

/// Times one packet workload both ways, after checking its encodings.
fn bench_packets<P: Workload>(c: &mut Criterion) {
    let (mut packet, encodings) = encodings::<P>();
    check::<P>(&encodings);
    let variants = variants(&encodings);
    let mut rng = 1u64;
    let mut out = Variant([0u8; 256]);
    let mut group = c.benchmark_group(P::NAME);
    group.throughput(Throughput::Elements(PACKETS));
    group.bench_function("write", |b| {
        b.iter(|| write_packets(&mut packet, &mut rng, &mut out.0))
    });
    group.bench_function("read", |b| b.iter(|| read_packets::<P, true>(&variants)));
    group.bench_function(ANY_LENGTH, |b| {
        b.iter(|| read_packets::<P, false>(&variants))
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    // Three declarations of one packet: the same bytes.
    let mixed = encodings::<MixedPacket>().1;
    assert_eq!(encodings::<DerivedMixedPacket>().1, mixed, "derived");
    assert_eq!(encodings::<PlainMixedPacket>().1, mixed, "plain");
    let values = values();
    let mut buf = vec![0u8; BUFFER];
    let written = write_bitpacker(&mut buf, &values);
    let mut group = c.benchmark_group("bitpacker");
    group.throughput(Throughput::Bytes(written as u64));
    group.bench_function("write", |b| {
        b.iter(|| black_box(write_bitpacker(black_box(&mut buf), &values)))
    });
    group.bench_function("read", |b| {
        b.iter(|| black_box(read_bitpacker(black_box(&buf))))
    });
    group.finish();

    bench_packets::<StreamPacket>(c);
    bench_packets::<IntPacket>(c);
    bench_packets::<BitsPacket>(c);
    bench_packets::<MixedPacket>(c);
    bench_packets::<DerivedMixedPacket>(c);
    bench_packets::<PlainMixedPacket>(c);
}

/// Throughput from `ns`: the nanoseconds of one iteration of a workload
/// (one bitpacker pass, or `PACKETS` packets). A figure of the C++
/// reference belongs beside these only when it ran in the same run on the
/// same machine.
fn print_table(ns: impl Fn(&str, &str) -> Option<f64>, bitpacker_bytes: f64) {
    println!("\n| workload | ours |");
    println!("|---|---|");
    let rows = [
        ("bitpacker", "write", "GB/s"),
        ("bitpacker", "read", "GB/s"),
        (StreamPacket::NAME, "write", "M packets/s"),
        (StreamPacket::NAME, "read", "M packets/s"),
        (StreamPacket::NAME, ANY_LENGTH, "M packets/s"),
        (IntPacket::NAME, "write", "M packets/s"),
        (IntPacket::NAME, "read", "M packets/s"),
        (IntPacket::NAME, ANY_LENGTH, "M packets/s"),
        (BitsPacket::NAME, "write", "M packets/s"),
        (BitsPacket::NAME, "read", "M packets/s"),
        (BitsPacket::NAME, ANY_LENGTH, "M packets/s"),
        (MixedPacket::NAME, "write", "M packets/s"),
        (MixedPacket::NAME, "read", "M packets/s"),
        (MixedPacket::NAME, ANY_LENGTH, "M packets/s"),
        (DerivedMixedPacket::NAME, "write", "M packets/s"),
        (DerivedMixedPacket::NAME, "read", "M packets/s"),
        (PlainMixedPacket::NAME, "write", "M packets/s"),
        (PlainMixedPacket::NAME, "read", "M packets/s"),
    ];
    for (group, direction, unit) in rows {
        let ours = ns(group, direction).map(|ns| {
            if group == "bitpacker" {
                bitpacker_bytes / ns // bytes per ns = GB/s
            } else {
                PACKETS as f64 / ns * 1000.0 // per ns -> M per s
            }
        });
        println!("| {group} {direction} | {} {unit} |", figure(ours));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, workload, rounds] = args.as_slice() {
        if flag == RUN {
            run(workload, rounds.parse().expect("a count"));
            return;
        }
    }
    if args.iter().any(|a| a == "--instructions") {
        print_instructions();
        return;
    }
    if args.iter().any(|a| a == TRIALS) {
        print_trials();
        return;
    }
    let (mut c, results) = criterion_results::criterion_timed(
        std::time::Duration::from_secs(1),
        std::time::Duration::from_secs(3),
    );
    bench(&mut c);
    c.final_summary();
    let written = write_bitpacker(&mut vec![0u8; BUFFER], &values()) as f64;
    print_table(
        |group, direction| results.median_ns(&[group, direction]),
        written,
    );
}
