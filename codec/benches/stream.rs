//! One million mixed-width fields written and read by our stream layer and,
//! in the same run, by `bitstream-io`'s little-endian bit writer and reader,
//! which produce the very same bytes. Both sides do the same per-field work
//! (range offsets, float quantization, range checks on read), so the
//! comparison is between the bit layers.
//!
//! `cargo bench -p gamepacket-codec --bench stream`; the closing table is what
//! docs/BENCHMARKS.md shows.

use bitstream_io::{BitRead, BitReader, BitWrite, BitWriter, LittleEndian};
use codec::{bits_required, CompressedFloat, ReadStream, Stream, WriteStream};
// The benchmarks' shared criterion settings and median reader, kept with
// the other benchmarks in adversarial/benches/.
#[path = "../../adversarial/benches/common/criterion_results.rs"]
#[allow(dead_code)] // its short defaults serve the other benchmarks
mod criterion_results;

use criterion::{Criterion, Throughput};
use criterion_results::{figure, Results};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const FIELDS: usize = 1_000_000;
const SEED: u64 = 0x5EED_0001;

#[derive(Clone, Copy)]
enum BenchField {
    Bool(bool),
    Int {
        min: i32,
        max: i32,
        value: i32,
    },
    Compressed(f32),
    /// A run of `len` bytes starting at `start` in the shared byte pool.
    Bytes {
        start: usize,
        len: usize,
    },
}

struct Workload {
    fields: Vec<BenchField>,
    pool: Vec<u8>,
    position: CompressedFloat,
}

fn workload() -> Workload {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let pool: Vec<u8> = (0..4096).map(|_| rng.gen()).collect();
    let fields = (0..FIELDS)
        .map(|_| match rng.gen_range(0..100) {
            0..=29 => BenchField::Bool(rng.gen()),
            30..=79 => {
                let bits = rng.gen_range(1..=32u32);
                let span = if bits == 32 {
                    u32::MAX
                } else {
                    (1u32 << bits) - 1
                };
                // A range whose span needs exactly `bits` bits, not always a power of two.
                let span = rng.gen_range(span / 2 + 1..=span);
                let highest_min = i32::MAX as i64 - span as i64;
                let min = rng.gen_range(i32::MIN as i64..=highest_min) as i32;
                let max = (min as i64 + span as i64).min(i32::MAX as i64) as i32;
                let value = rng.gen_range(min..=max);
                BenchField::Int { min, max, value }
            }
            80..=94 => BenchField::Compressed(rng.gen_range(-1000.0..1000.0)),
            _ => BenchField::Bytes {
                start: rng.gen_range(0..4000),
                len: rng.gen_range(1..=16),
            },
        })
        .collect();
    Workload {
        fields,
        pool,
        position: CompressedFloat::new(-1000.0, 1000.0, 0.001),
    }
}

fn ours_write(w: &Workload, buf: &mut [u8]) -> usize {
    let mut s = WriteStream::new(buf);
    let mut scratch = [0u8; 16];
    for field in &w.fields {
        let result = match *field {
            BenchField::Bool(mut b) => s.serialize_bool(&mut b),
            BenchField::Int {
                min,
                max,
                mut value,
            } => s.serialize_int(&mut value, min, max),
            BenchField::Compressed(mut v) => s.serialize_compressed_float(&mut v, &w.position),
            BenchField::Bytes { start, len } => {
                let run = &mut scratch[..len];
                run.copy_from_slice(&w.pool[start..start + len]);
                s.serialize_bytes(run)
            }
        };
        result.expect("write");
    }
    s.finish()
}

fn ours_read(w: &Workload, bytes: &[u8]) -> u64 {
    let mut s = ReadStream::new(bytes);
    let mut sum = 0u64;
    let mut scratch = [0u8; 16];
    for field in &w.fields {
        match *field {
            BenchField::Bool(_) => {
                let mut b = false;
                s.serialize_bool(&mut b).expect("read");
                sum += b as u64;
            }
            BenchField::Int { min, max, .. } => {
                let mut v = 0;
                s.serialize_int(&mut v, min, max).expect("read");
                sum = sum.wrapping_add(v as u64);
            }
            BenchField::Compressed(_) => {
                let mut v = 0.0;
                s.serialize_compressed_float(&mut v, &w.position)
                    .expect("read");
                sum = sum.wrapping_add(v.to_bits() as u64);
            }
            BenchField::Bytes { len, .. } => {
                s.serialize_bytes(&mut scratch[..len]).expect("read");
                sum = sum.wrapping_add(scratch[0] as u64);
            }
        }
    }
    sum
}

/// The shared floor: the same walk over the fields and the same dispatch,
/// with no bit I/O. What both codecs cost above it is their own.
fn dispatch_floor(w: &Workload) -> u64 {
    let mut sum = 0u64;
    for field in &w.fields {
        let v = match *field {
            BenchField::Bool(b) => b as u64,
            BenchField::Int { value, .. } => value as u64,
            BenchField::Compressed(v) => v.to_bits() as u64,
            BenchField::Bytes { start, len } => w.pool[start + len - 1] as u64,
        };
        sum = black_box(sum.wrapping_add(v));
    }
    sum
}

fn peer_write(w: &Workload, out: &mut Vec<u8>) {
    out.clear();
    let mut bw = BitWriter::endian(out, LittleEndian);
    for field in &w.fields {
        match *field {
            BenchField::Bool(b) => bw.write_bit(b).expect("write"),
            BenchField::Int { min, max, value } => {
                assert!((min..=max).contains(&value));
                let bits = bits_required(min, max);
                let offset = (value as u32).wrapping_sub(min as u32);
                bw.write_var::<u32>(bits, offset).expect("write");
            }
            BenchField::Compressed(v) => {
                let code = w.position.quantize(v);
                bw.write_var::<u32>(w.position.bits(), code).expect("write");
            }
            BenchField::Bytes { start, len } => {
                bw.byte_align().expect("align");
                bw.write_bytes(&w.pool[start..start + len]).expect("write");
            }
        }
    }
    bw.byte_align().expect("align");
}

fn peer_read(w: &Workload, bytes: &[u8]) -> u64 {
    let mut br = BitReader::endian(bytes, LittleEndian);
    let mut sum = 0u64;
    let mut scratch = [0u8; 16];
    for field in &w.fields {
        match *field {
            BenchField::Bool(_) => sum += br.read_bit().expect("read") as u64,
            BenchField::Int { min, max, .. } => {
                let span = (max as u32).wrapping_sub(min as u32);
                let offset: u32 = br.read_var(bits_required(min, max)).expect("read");
                assert!(offset <= span, "out of range");
                sum = sum.wrapping_add((min as u32).wrapping_add(offset) as i32 as u64);
            }
            BenchField::Compressed(_) => {
                let code: u32 = br.read_var(w.position.bits()).expect("read");
                assert!(code <= w.position.max_integer_value(), "out of range");
                sum = sum.wrapping_add(w.position.dequantize(code).to_bits() as u64);
            }
            BenchField::Bytes { len, .. } => {
                br.byte_align();
                br.read_bytes(&mut scratch[..len]).expect("read");
                sum = sum.wrapping_add(scratch[0] as u64);
            }
        }
    }
    sum
}

fn bench(c: &mut Criterion) {
    let w = workload();
    let mut buf = vec![0u8; FIELDS * 20];
    let len = ours_write(&w, &mut buf);
    let ours_bytes = buf[..len].to_vec();
    let mut peer_bytes = Vec::new();
    peer_write(&w, &mut peer_bytes);
    assert_eq!(
        ours_bytes, peer_bytes,
        "both sides must write the same bytes"
    );
    assert_eq!(ours_read(&w, &ours_bytes), peer_read(&w, &peer_bytes));
    println!("stream of {FIELDS} fields: {len} bytes");

    let mut group = c.benchmark_group("write_1M_fields");
    group.throughput(Throughput::Elements(FIELDS as u64));
    group.sample_size(20);
    group.bench_function("codec", |b| b.iter(|| black_box(ours_write(&w, &mut buf))));
    group.bench_function("bitstream-io", |b| {
        b.iter(|| {
            peer_write(&w, &mut peer_bytes);
            black_box(peer_bytes.len())
        })
    });
    group.bench_function("dispatch-floor", |b| b.iter(|| dispatch_floor(&w)));
    group.finish();

    let mut group = c.benchmark_group("read_1M_fields");
    group.throughput(Throughput::Elements(FIELDS as u64));
    group.sample_size(20);
    group.bench_function("codec", |b| {
        b.iter(|| black_box(ours_read(&w, &ours_bytes)))
    });
    group.bench_function("bitstream-io", |b| {
        b.iter(|| black_box(peer_read(&w, &peer_bytes)))
    });
    group.finish();
}

/// The medians side by side, and each codec's time above the shared
/// dispatch floor.
fn print_table(results: &Results) {
    let ms = |group: &str, function: &str| results.median_ns(&[group, function]).map(|ns| ns / 1e6);
    let show = |x: Option<f64>| format!("{} ms", figure(x));
    let ratio = |peer: Option<f64>, ours: Option<f64>| match (peer, ours) {
        (Some(p), Some(o)) => format!("{:.2}x", p / o),
        _ => "-".to_string(),
    };
    let floor = ms("write_1M_fields", "dispatch-floor");
    let above = |x: Option<f64>| Some(x? - floor?);
    println!("\n| 1M fields | codec | bitstream-io | ratio (peer / codec) |");
    println!("|---|---|---|---|");
    for (name, group) in [("write", "write_1M_fields"), ("read", "read_1M_fields")] {
        let (ours, peer) = (ms(group, "codec"), ms(group, "bitstream-io"));
        println!(
            "| {name}, median | {} | {} | **{}** |",
            show(ours),
            show(peer),
            ratio(peer, ours)
        );
    }
    println!(
        "| shared dispatch floor | {} | {} | |",
        show(floor),
        show(floor)
    );
    for (name, group) in [("write", "write_1M_fields"), ("read", "read_1M_fields")] {
        let (ours, peer) = (above(ms(group, "codec")), above(ms(group, "bitstream-io")));
        println!(
            "| {name} above the floor | {} | {} | {} |",
            show(ours),
            show(peer),
            ratio(peer, ours)
        );
    }
}

fn main() {
    // One million fields per iteration: criterion's usual times, not the
    // other benchmarks' short ones.
    let (mut c, results) = criterion_results::criterion_timed(
        std::time::Duration::from_secs(3),
        std::time::Duration::from_secs(5),
    );
    bench(&mut c);
    c.final_summary();
    print_table(&results);
}
