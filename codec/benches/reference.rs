//! The C++ reference library's own benchmark workloads (`bench.cpp` of
//! serialize 1.1: its bit widths, values, packet fields and ranges), run on
//! this codec the way a user's crate calls it: a separate crate, no LTO.
//!
//! - bitpacker: a 64 KiB buffer filled with groups of sixteen raw fields of
//!   widths 1, 32, 7, 13, 3, 25, 8, 19, 4, 28, 11, 16, 2, 30, 6, 22 bits
//!   (227 bits a group) while 256 bits remain, then read back the same way;
//! - stream: the reference's 49-byte packet (three ranged ints, raw 7, 13
//!   and 23-bit fields, a bool, three floats, a u64 and 17 aligned bytes),
//!   written with fields varied by an LCG each time and read from 64
//!   encodings in turn.
//!
//! `cargo bench -p codec --bench reference`; the closing table is what
//! docs/BENCHMARKS.md records, beside the C++ figures of issue 11.
//! `cargo bench -p codec --bench reference -- --instructions` counts the
//! instructions of each workload under cachegrind instead (one bitpacker
//! pass, one packet), figures that repeat to the digit.

#[path = "common/cachegrind.rs"]
mod cachegrind;
#[path = "../../adversarial/benches/common/criterion_results.rs"]
#[allow(dead_code)] // its short defaults serve the other benchmarks
mod criterion_results;

use codec::bits::{BitReader, BitWriter};
use codec::{ReadStream, Serialize, Stream, WriteStream};
use criterion::{black_box, Criterion, Throughput};
use criterion_results::{figure, Results};

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

fn write_bitpacker(buf: &mut [u8], values: &[u32; 16]) -> usize {
    let mut writer = BitWriter::new(buf);
    while writer.bits_available() >= 256 {
        for (value, width) in values.iter().zip(WIDTHS) {
            writer.write_bits(*value, width).unwrap();
        }
    }
    writer.finish()
}

fn read_bitpacker(buf: &[u8]) -> u64 {
    let mut reader = BitReader::new(buf);
    let mut sum = 0u64;
    while reader.bits_remaining() >= 256 {
        for width in WIDTHS {
            sum += u64::from(reader.read_bits(width).unwrap());
        }
    }
    sum
}

/// The reference's benchmark packet.
#[derive(Clone, Debug, Default, PartialEq)]
struct BenchPacket {
    a: i32,
    b: i32,
    c: i32,
    bits7: u32,
    bits13: u32,
    bits23: u32,
    flag: bool,
    x: f32,
    y: f32,
    z: f32,
    big: u64,
    blob: [u8; 17],
}

impl BenchPacket {
    fn new() -> Self {
        let mut blob = [0u8; 17];
        for (i, b) in blob.iter_mut().enumerate() {
            *b = (i * 31) as u8;
        }
        Self {
            a: -37,
            b: 12345,
            c: 987_654,
            bits7: 97,
            bits13: 5000,
            bits23: 1_234_567,
            flag: true,
            x: 1.5,
            y: -3.25,
            z: 100.125,
            big: 0x1234_5678_9ABC_DEF0,
            blob,
        }
    }

    /// Most fields varied by a serially dependent generator, as the
    /// reference does, so the compiler cannot fold the writes.
    fn vary(&mut self, rng: u64) -> u64 {
        let rng = rng
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.a = ((rng >> 8) & 63) as i32 - 32;
        self.b = ((rng >> 16) & 65535) as i32;
        self.c = ((rng >> 24) & 0xF_FFFF) as i32 - 500_000;
        self.bits7 = rng as u32 & 127;
        self.bits13 = (rng >> 3) as u32 & 8191;
        self.bits23 = (rng >> 5) as u32 & 8_388_607;
        self.flag = rng & 1 != 0;
        self.x = (rng as u32 & 0xFFFF) as f32;
        self.big = rng;
        self.blob[0] = (rng >> 32) as u8;
        rng
    }
}

impl Serialize for BenchPacket {
    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_int(&mut self.a, -100, 100)?;
        s.serialize_int(&mut self.b, 0, 65535)?;
        s.serialize_int(&mut self.c, -1_000_000, 1_000_000)?;
        s.serialize_bits(&mut self.bits7, 7)?;
        s.serialize_bits(&mut self.bits13, 13)?;
        s.serialize_bits(&mut self.bits23, 23)?;
        s.serialize_bool(&mut self.flag)?;
        s.serialize_float(&mut self.x)?;
        s.serialize_float(&mut self.y)?;
        s.serialize_float(&mut self.z)?;
        s.serialize_u64(&mut self.big)?;
        s.serialize_bytes(&mut self.blob)
    }
}

/// `PACKETS` packets written, each varied first; returns the bytes written.
fn write_packets(packet: &mut BenchPacket, rng: &mut u64, out: &mut [u8]) -> usize {
    let mut total = 0;
    for _ in 0..PACKETS {
        *rng = packet.vary(*rng);
        let mut stream = WriteStream::new(out);
        packet.serialize(&mut stream).unwrap();
        total += stream.finish();
        black_box(&out);
    }
    total
}

/// `PACKETS` packets read, cycling through `encodings`.
fn read_packets(encodings: &[Vec<u8>]) -> i64 {
    let mut total = 0i64;
    for i in 0..PACKETS as usize {
        let bytes = &encodings[i % VARIANTS];
        let mut read = BenchPacket::default();
        read.serialize(&mut ReadStream::new(black_box(bytes)))
            .unwrap();
        total += i64::from(black_box(&read).b);
    }
    total
}

/// The 64 encodings the read workload cycles through.
fn encodings(packet: &mut BenchPacket, rng: &mut u64) -> Vec<Vec<u8>> {
    (0..VARIANTS)
        .map(|_| {
            *rng = packet.vary(*rng);
            codec::to_vec(packet).unwrap()
        })
        .collect()
}

/// The flag that makes this binary run a workload instead of measuring.
const RUN: &str = "--run-workload";

/// Runs `rounds` rounds of one workload (the child under cachegrind).
fn run(workload: &str, rounds: u64) {
    let values = values();
    let mut buf = vec![0u8; BUFFER];
    write_bitpacker(&mut buf, &values);
    let mut packet = BenchPacket::new();
    let mut rng = 1u64;
    let encodings = encodings(&mut packet, &mut rng);
    let mut out = [0u8; 256];
    for _ in 0..rounds {
        match workload {
            "bitpacker-write" => {
                black_box(write_bitpacker(black_box(&mut buf), &values));
            }
            "bitpacker-read" => {
                black_box(read_bitpacker(black_box(&buf)));
            }
            "stream-write" => {
                black_box(write_packets(&mut packet, &mut rng, &mut out));
            }
            "stream-read" => {
                black_box(read_packets(black_box(&encodings)));
            }
            other => panic!("no workload {other}"),
        }
    }
}

/// Instructions per bitpacker pass and per packet, from a run of 20
/// rounds less a run of none.
fn print_instructions() {
    if !cachegrind::available() {
        println!("valgrind is not installed: nothing measured (apt-get install valgrind)");
        return;
    }
    const ROUNDS: u64 = 20;
    println!("\n| workload | instructions | per |");
    println!("|---|---|---|");
    for (workload, per, units) in [
        ("bitpacker-write", "64 KiB pass", 1),
        ("bitpacker-read", "64 KiB pass", 1),
        ("stream-write", "packet", PACKETS),
        ("stream-read", "packet", PACKETS),
    ] {
        let count = |rounds: u64| {
            cachegrind::instructions(&[RUN.to_string(), workload.to_string(), rounds.to_string()])
        };
        let per_unit = count(ROUNDS).saturating_sub(count(0)) as f64 / (ROUNDS * units) as f64;
        println!("| {workload} | {per_unit:.0} | {per} |");
    }
}

fn bench(c: &mut Criterion) {
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

    let mut packet = BenchPacket::new();
    let mut rng = 1u64;
    let encodings = encodings(&mut packet, &mut rng);
    assert_eq!(encodings[0].len(), 49, "the reference's packet is 49 bytes");
    let mut group = c.benchmark_group("stream");
    group.throughput(Throughput::Elements(PACKETS));
    let mut out = [0u8; 256];
    group.bench_function("write", |b| {
        b.iter(|| write_packets(&mut packet, &mut rng, &mut out))
    });
    group.bench_function("read", |b| b.iter(|| read_packets(&encodings)));
    group.finish();
    assert_eq!(
        codec::from_slice::<BenchPacket>(&encodings[3]).unwrap(),
        {
            let mut p = BenchPacket::new();
            let mut r = 1;
            for _ in 0..4 {
                r = p.vary(r);
            }
            p
        },
        "the encodings read back"
    );
}

/// Throughput from the medians, beside the C++ reference at -O2 as issue
/// 11 measured it on this machine kind.
fn print_table(results: &Results, bitpacker_bytes: f64) {
    println!("\n| workload | ours | C++ serialize 1.11, g++ -O2 (issue 11) | ours / C++ |");
    println!("|---|---|---|---|");
    let rows = [
        ("bitpacker", "write", 1.49, "GB/s"),
        ("bitpacker", "read", 1.45, "GB/s"),
        ("stream", "write", 34.0, "M packets/s"),
        ("stream", "read", 69.0, "M packets/s"),
    ];
    for (group, direction, cpp, unit) in rows {
        let ours = results.median_ns(&[group, direction]).map(|ns| {
            if group == "bitpacker" {
                bitpacker_bytes / ns // bytes per ns = GB/s
            } else {
                PACKETS as f64 / ns * 1000.0 // per ns -> M per s
            }
        });
        println!(
            "| {group} {direction} | {} {unit} | {cpp} {unit} | {} |",
            figure(ours),
            ours.map_or("-".into(), |o| format!("{:.2}", o / cpp))
        );
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
    let (mut c, results) = criterion_results::criterion_timed(
        std::time::Duration::from_secs(1),
        std::time::Duration::from_secs(3),
    );
    bench(&mut c);
    c.final_summary();
    let written = write_bitpacker(&mut vec![0u8; BUFFER], &values()) as f64;
    print_table(&results, written);
}
