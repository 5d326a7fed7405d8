//! `Serialize::MAX_BITS`: what the derive declares for fields of fixed
//! width, and what `write_to` does with a declaration, true or not: the
//! same bytes and the same refusals as without one.

use codec::arbitrary::{Arbitrary, Unstructured};
use codec::{EncodeError, Serialize, Stream};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
struct Inner {
    #[serialize(range = -3..=3)]
    x: i8,
}

/// One field of every wire form whose size the derive adds up.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct Bounded {
    #[serialize(range = -10..=10)]
    r8: i8, // 5
    #[serialize(range = 0..=u64::MAX)]
    r64u: u64, // 64
    #[serialize(range = 0..=u128::MAX - 5)]
    r128u: u128, // 128
    #[serialize(range = -(1 << 100)..=(1 << 101))]
    r128: i128, // 102
    #[serialize(bits = 5)]
    raw5: u8, // 5
    flag: bool,      // 1
    plain: u16,      // 16
    raw_float: f32,  // 32
    raw_double: f64, // 64
    #[serialize(bytes)]
    key: [u8; 4], // 7 + 32
    #[serialize(range = 0..=6)]
    array: [u8; 3], // 3 x 3
    #[serialize(range = 1..=9)]
    maybe: Option<i16>, // 1 + 4
    nested: Inner,   // 3
    moving: bool,    // 1
    #[serialize(when = self.moving, otherwise = 0, range = -50..=50)]
    velocity: i32, // 7
    #[serialize(before(align, check = "tail"), after(align))]
    tail: u8, // 7 + 39 + 8 + 7
    #[serialize(skip)]
    cache: u32, // 0
}

const BOUNDED_BITS: u64 = 5 + 64 + 128 + 102 + 5 + 1 + 16 + 32 + 64 + 39 + 9 + 5 + 3 + 1 + 7 + 61;

#[derive(Debug, Default, Serialize)]
struct Named {
    #[serialize(max_len = 8)]
    name: String,
}

#[derive(Debug, Default, Serialize)]
struct Listed {
    #[serialize(max_len = 3, range = 0..=9)]
    list: Vec<u8>,
}

#[derive(Debug, Default, Serialize)]
enum Mode {
    #[default]
    Idle,
    Jump(#[serialize(bits = 3)] u8),
}

#[derive(Debug, Default, Serialize)]
struct Speed {
    #[serialize(compressed(min = -1.0, max = 1.0, res = 0.5))]
    speed: f32,
}

#[derive(Debug, Default, Serialize)]
#[serialize(versions = 1..=2)]
struct Save {
    #[serialize(bits = 4)]
    level: u8,
}

#[test]
fn the_derive_adds_up_fixed_widths_and_declares_no_bound_for_the_rest() {
    assert_eq!(Bounded::MAX_BITS, Some(BOUNDED_BITS));
    assert_eq!(Inner::MAX_BITS, Some(3));
    assert_eq!(<[Inner; 4] as Serialize>::MAX_BITS, Some(12));
    assert_eq!(<Option<u32> as Serialize>::MAX_BITS, Some(33));
    assert_eq!(Named::MAX_BITS, None);
    assert_eq!(Listed::MAX_BITS, None);
    assert_eq!(Mode::MAX_BITS, None);
    assert_eq!(Speed::MAX_BITS, None);
    assert_eq!(Save::MAX_BITS, None);
}

#[test]
fn no_value_writes_more_than_its_bound_and_every_buffer_writes_the_same_bytes() {
    let mut rng = ChaCha8Rng::seed_from_u64(48);
    let max_bytes = BOUNDED_BITS.div_ceil(8) as usize;
    let mut longest = 0;
    for _ in 0..2000 {
        let input: Vec<u8> = (0..rng.gen_range(0..256)).map(|_| rng.gen()).collect();
        let mut value = Bounded::arbitrary(&mut Unstructured::new(&input)).unwrap();
        let bytes = codec::to_vec(&mut value).unwrap();
        let measured = codec::measure(&mut value).unwrap();
        assert!(measured <= BOUNDED_BITS, "{measured} bits measured");
        longest = longest.max(bytes.len());
        // The room of the bound, of the value alone, and more than either.
        for len in [
            max_bytes,
            max_bytes.next_multiple_of(8),
            bytes.len(),
            max_bytes + 9,
        ] {
            let mut buf = vec![0xA5u8; len];
            assert_eq!(codec::write_to(&mut value, &mut buf), Ok(bytes.len()));
            assert_eq!(buf[..bytes.len()], bytes[..], "in {len} bytes");
        }
        // One byte short of the value: refused where the writer runs out.
        let mut short = vec![0u8; bytes.len() - 1];
        assert!(matches!(
            codec::write_to(&mut value, &mut short),
            Err(EncodeError::BufferFull { .. })
        ));
    }
    // Tight but for the four paddings, which cannot all be at their worst.
    assert!(
        longest as u64 * 8 + 4 * 7 >= BOUNDED_BITS,
        "the values reached {longest} bytes"
    );
}

/// Two 32-bit fields, with whatever bound `DECLARED` says.
#[derive(Debug, Default)]
struct Pair<const DECLARED: u64> {
    a: u32,
    b: u32,
}

impl<const DECLARED: u64> Serialize for Pair<DECLARED> {
    const MAX_BITS: Option<u64> = Some(DECLARED);

    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_u32(&mut self.a)?;
        s.serialize_u32(&mut self.b)
    }
}

/// The same pair with no bound declared.
#[derive(Debug, Default)]
struct Undeclared(u32, u32);

impl Serialize for Undeclared {
    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_u32(&mut self.0)?;
        s.serialize_u32(&mut self.1)
    }
}

fn write<T: Serialize>(mut value: T, len: usize) -> (Result<usize, EncodeError>, Vec<u8>) {
    let mut buf = vec![0u8; len];
    let written = codec::write_to(&mut value, &mut buf);
    (written, buf)
}

#[test]
fn a_wrong_declaration_costs_time_never_bytes_or_refusals() {
    let (a, b) = (0x0123_4567, 0x89AB_CDEF);
    for len in 0..12 {
        let truth = write(Undeclared(a, b), len);
        assert_eq!(
            write(Pair::<1> { a, b }, len),
            truth,
            "{len} bytes, declared 1 bit"
        );
        assert_eq!(
            write(Pair::<64> { a, b }, len),
            truth,
            "{len} bytes, declared 64"
        );
        assert_eq!(
            write(Pair::<80> { a, b }, len),
            truth,
            "{len} bytes, declared 80"
        );
    }
}
