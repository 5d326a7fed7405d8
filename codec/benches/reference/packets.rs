//! The packets of the reference's benchmarks: `bench.cpp`'s 49-byte stream
//! packet, and the three packet shapes its family of ports times beside it
//! (an int packet of ten ranged integers, a bits packet of raw fields up to
//! 48 bits, and a mixed packet like generated game code). Field mixes,
//! ranges and the LCG that varies them are the reference's; the code is
//! ours.
//!
//! Each `serialize` is `#[inline(always)]`: without a mark, a generic
//! function defined in one module and called from another is in another
//! codegen unit, out of the inliner's reach, and every field's position
//! stays a run-time sum instead of a constant. `#[inline]` is not enough
//! here: each packet is read from two loops (with a length known and
//! unknown to the compiler), and with two callers the inliner left the
//! stream packet's `serialize` out of line; the derive marks its own
//! `#[inline(always)]` for the same reason. The references' benches call
//! their packets from one loop in the same file.
//!
//! Each declares its largest size (`MAX_BITS`), as the derive declares a
//! derived packet's: `codec::write_to` then checks the room once.
//! `DerivedMixedPacket` is the mixed packet derived, `PlainMixedPacket`
//! the same written without either mark.

use codec::{Serialize, Stream};

/// One step of the reference's serially dependent LCG: the compiler cannot
/// fold a write whose fields it drives.
pub fn step(rng: u64) -> u64 {
    rng.wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407)
}

/// A packet of a reference workload.
pub trait Workload: Serialize + Clone + Default + PartialEq + core::fmt::Debug {
    /// The workload's name in criterion's ids and the tables.
    const NAME: &'static str;
    /// Its size on the wire, asserted before anything is timed.
    const BYTES: usize;
    /// Whether `bench.cpp` varies it through a function pointer, a call its
    /// compiler leaves out of line (`bench_packet_shape` takes the packet
    /// shapes' `vary` as an argument), so that the packet lives in memory;
    /// its stream packet's `vary` is called directly, and inlined.
    const VARIED_OUT_OF_LINE: bool = true;
    /// The packet before the first variation.
    fn initial() -> Self {
        Self::default()
    }
    /// Varies the fields from the next LCG state, which it returns.
    fn vary(&mut self, rng: u64) -> u64;
}

/// `bench.cpp`'s packet: three ranged ints, raw 7, 13 and 23-bit fields, a
/// bool, three floats, a u64 and 17 aligned bytes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreamPacket {
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

impl Workload for StreamPacket {
    const NAME: &'static str = "stream";
    const BYTES: usize = 49;
    const VARIED_OUT_OF_LINE: bool = false;

    fn initial() -> Self {
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

    fn vary(&mut self, rng: u64) -> u64 {
        let rng = step(rng);
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

impl Serialize for StreamPacket {
    const MAX_BITS: Option<u64> = Some(392);

    #[inline(always)]
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

/// Ten ranged integers, 110 bits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntPacket {
    f: [i32; 10],
}

impl Workload for IntPacket {
    const NAME: &'static str = "int-packet";
    const BYTES: usize = 14;

    fn vary(&mut self, rng: u64) -> u64 {
        let rng = step(rng);
        self.f = [
            ((rng >> 8) & 63) as i32 - 32,
            ((rng >> 16) & 65535) as i32,
            ((rng >> 24) & 0xF_FFFF) as i32 - 500_000,
            ((rng >> 2) & 3) as i32,
            ((rng >> 11) & 15) as i32 - 8,
            ((rng >> 22) & 511) as i32,
            ((rng >> 33) & 2047) as i32 - 1024,
            ((rng >> 40) & 255) as i32,
            ((rng >> 30) & 0xF_FFFF) as i32 - 500_000,
            ((rng >> 57) & 63) as i32,
        ];
        rng
    }
}

impl Serialize for IntPacket {
    const MAX_BITS: Option<u64> = Some(110);

    #[inline(always)]
    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        let [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9] = &mut self.f;
        s.serialize_int(f0, -100, 100)?;
        s.serialize_int(f1, 0, 65535)?;
        s.serialize_int(f2, -1_000_000, 1_000_000)?;
        s.serialize_int(f3, 0, 3)?;
        s.serialize_int(f4, -15, 15)?;
        s.serialize_int(f5, 0, 1000)?;
        s.serialize_int(f6, -2048, 2047)?;
        s.serialize_int(f7, 0, 255)?;
        s.serialize_int(f8, -600_000, 600_000)?;
        s.serialize_int(f9, 0, 100)
    }
}

/// Raw fields of 7, 13, 23, 3, 32, 11 and 19 bits and one of 48, 156 bits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BitsPacket {
    b7: u32,
    b13: u32,
    b23: u32,
    b3: u32,
    b32: u32,
    b11: u32,
    b19: u32,
    b48: u64,
}

impl Workload for BitsPacket {
    const NAME: &'static str = "bits-packet";
    const BYTES: usize = 20;

    fn vary(&mut self, rng: u64) -> u64 {
        let rng = step(rng);
        self.b7 = rng as u32 & 127;
        self.b13 = (rng >> 3) as u32 & 8191;
        self.b23 = (rng >> 5) as u32 & 8_388_607;
        self.b3 = (rng >> 29) as u32 & 7;
        self.b32 = (rng >> 16) as u32;
        self.b11 = (rng >> 37) as u32 & 2047;
        self.b19 = (rng >> 44) as u32 & 524_287;
        self.b48 = rng & 0xFFFF_FFFF_FFFF;
        rng
    }
}

impl Serialize for BitsPacket {
    const MAX_BITS: Option<u64> = Some(156);

    #[inline(always)]
    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_bits(&mut self.b7, 7)?;
        s.serialize_bits(&mut self.b13, 13)?;
        s.serialize_bits(&mut self.b23, 23)?;
        s.serialize_bits(&mut self.b3, 3)?;
        s.serialize_bits(&mut self.b32, 32)?;
        s.serialize_bits(&mut self.b11, 11)?;
        s.serialize_bits(&mut self.b19, 19)?;
        s.serialize_bits64(&mut self.b48, 48)
    }
}

/// A game packet as generated code writes it: a sequence number, ack
/// bits, an entity, a position, a yaw, two flags, a 48-bit timestamp and a
/// weapon, 168 bits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MixedPacket {
    sequence: i32,
    ack_bits: u32,
    entity_id: u32,
    position: [i32; 3],
    yaw: u32,
    moving: bool,
    firing: bool,
    timestamp: u64,
    weapon: i32,
}

impl Workload for MixedPacket {
    const NAME: &'static str = "mixed-packet";
    const BYTES: usize = 21;

    fn vary(&mut self, rng: u64) -> u64 {
        vary_mixed!(self, rng)
    }
}

/// The mixed packet's variation, for each of its declarations.
macro_rules! vary_mixed {
    ($packet:expr, $rng:expr) => {{
        let rng = step($rng);
        $packet.sequence = ((rng >> 8) & 65535) as i32;
        $packet.ack_bits = (rng >> 16) as u32;
        $packet.entity_id = rng as u32 & 4095;
        $packet.position = [
            ((rng >> 20) & 32767) as i32 - 16384,
            ((rng >> 25) & 32767) as i32 - 16384,
            ((rng >> 30) & 32767) as i32 - 16384,
        ];
        $packet.yaw = (rng >> 3) as u32 & 511;
        $packet.moving = rng & 1 != 0;
        $packet.firing = rng & 2 != 0;
        $packet.timestamp = rng & 0xFFFF_FFFF_FFFF;
        $packet.weapon = ((rng >> 60) & 15) as i32;
        rng
    }};
}
use vary_mixed;

impl Serialize for MixedPacket {
    const MAX_BITS: Option<u64> = Some(168);

    #[inline(always)]
    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_int(&mut self.sequence, 0, 65535)?;
        s.serialize_bits(&mut self.ack_bits, 32)?;
        s.serialize_bits(&mut self.entity_id, 12)?;
        for axis in &mut self.position {
            s.serialize_int(axis, -16384, 16383)?;
        }
        s.serialize_bits(&mut self.yaw, 9)?;
        s.serialize_bool(&mut self.moving)?;
        s.serialize_bool(&mut self.firing)?;
        s.serialize_bits64(&mut self.timestamp, 48)?;
        s.serialize_int(&mut self.weapon, 0, 15)
    }
}

/// The mixed packet declared with the derive, as a user would: the same
/// bytes as [`MixedPacket`].
#[derive(Clone, Debug, Default, PartialEq, codec::Serialize)]
pub struct DerivedMixedPacket {
    #[serialize(range = 0..=65535)]
    sequence: i32,
    #[serialize(bits = 32)]
    ack_bits: u32,
    #[serialize(bits = 12)]
    entity_id: u32,
    #[serialize(range = -16384..=16383)]
    position: [i32; 3],
    #[serialize(bits = 9)]
    yaw: u32,
    moving: bool,
    firing: bool,
    #[serialize(bits = 48)]
    timestamp: u64,
    #[serialize(range = 0..=15)]
    weapon: i32,
}

impl Workload for DerivedMixedPacket {
    const NAME: &'static str = "derived-mixed-packet";
    const BYTES: usize = 21;

    fn vary(&mut self, rng: u64) -> u64 {
        vary_mixed!(self, rng)
    }
}

/// The mixed packet written by hand as a user may write it: no `#[inline]`
/// and no `MAX_BITS`, in a module other than the caller's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlainMixedPacket(MixedPacket);

impl Workload for PlainMixedPacket {
    const NAME: &'static str = "plain-mixed-packet";
    const BYTES: usize = 21;

    fn vary(&mut self, rng: u64) -> u64 {
        self.0.vary(rng)
    }
}

impl Serialize for PlainMixedPacket {
    // No mark: the fields below (the mixed packet's, inlined here) are
    // this function's body.
    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        self.0.serialize(s)
    }
}
