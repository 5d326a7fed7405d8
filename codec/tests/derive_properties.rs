//! A type with one field of every attribute the derive supports, and the
//! properties every derived type owes: random valid values write, read back
//! and re-encode to the same bytes, and measure at least what they write;
//! every value out of its declared range is refused by the writer, and,
//! forged into the bytes, by the reader at the field's offset, under the
//! field's declared name.

mod named;
mod one_by_one;

use codec::arbitrary::{self, Arbitrary, Unstructured};
use codec::protocols::scenes::SmallestThree;
use codec::subset::Entry;
use codec::{DecodeError, EncodeError, ReadStream, Role, Serialize, Stream, WriteStream};
use named::Named;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
struct Inner {
    #[serialize(range = -3..=3)]
    x: i8,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
enum Mode {
    #[default]
    Idle,
    Move {
        #[serialize(range = 0..=359)]
        heading: u16,
    },
    Jump(#[serialize(bits = 3)] u8),
}

/// A hand-written field: an odd number, which the attributes cannot say.
fn odd<S: Stream>(stream: &mut S, value: &mut u32) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    let mut half = *value / 2;
    if S::IS_WRITING && (*value).is_multiple_of(2) {
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    stream.serialize_bits(&mut half, 16)?;
    *value = half * 2 + 1;
    Ok(())
}

const SUBSET: u32 = 20;
const WIDE_SUBSET: u32 = 300;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct Everything {
    #[serialize(range = -10..=10)]
    r8: i8,
    #[serialize(range = 100..=60000)]
    r16: u16,
    #[serialize(range = -1_000_000..=1_000_000)]
    r32: i32,
    #[serialize(range = 0..=4_000_000_000)]
    r32u: u32,
    #[serialize(range = -5_000_000_000..=5_000_000_000)]
    r64: i64,
    #[serialize(range = 0..=u64::MAX)]
    r64u: u64,
    #[serialize(range = -(1 << 100)..=(1 << 101))]
    r128: i128,
    #[serialize(range = 0..=u128::MAX - 5)]
    r128u: u128,
    #[serialize(bits = 5)]
    raw5: u8,
    #[serialize(bits = 40)]
    raw40: u64,
    flag: bool,
    plain: u16,
    raw_float: f32,
    raw_double: f64,
    #[serialize(compressed(min = -100.0, max = 100.0, res = 0.01))]
    speed: f32,
    #[serialize(compressed(min = -1000.0, max = 1000.0, res = 0.001))]
    code: u32,
    #[serialize(fixed(integer_bits = 16, fraction_bits = 8, min = -100, max = 100))]
    fixed: i128,
    #[serialize(max_len = 12)]
    name: String,
    #[serialize(wide, max_len = 8)]
    wide_name: String,
    #[serialize(wide, max_len = 8)]
    wide_units: Vec<u16>,
    #[serialize(bytes)]
    key: [u8; 4],
    #[serialize(bytes, max_len = 16)]
    blob: Vec<u8>,
    #[serialize(max_len = 5, range = -100..=100)]
    list: Vec<i32>,
    #[serialize(range = 0..=6)]
    array: [u8; 3],
    #[serialize(range = 1..=9)]
    maybe: Option<i16>,
    nested: Inner,
    #[serialize(max_len = 3)]
    nested_list: Vec<Inner>,
    mode: Mode,
    #[serialize(quaternion)]
    orientation: SmallestThree,
    #[serialize(subset(bools, size = SUBSET))]
    sub_bools: Vec<Entry<Inner>>,
    #[serialize(subset(counted, size = SUBSET))]
    sub_counted: Vec<Entry<Inner>>,
    #[serialize(subset(sentinel, size = SUBSET))]
    sub_sentinel: Vec<Entry<Inner>>,
    #[serialize(subset(relative, size = WIDE_SUBSET))]
    sub_relative: Vec<Entry<Inner>>,
    #[serialize(subset(golomb, size = WIDE_SUBSET))]
    sub_golomb: Vec<Entry<Inner>>,
    #[serialize(subset(adaptive, size = WIDE_SUBSET))]
    sub_adaptive: Vec<Entry<Inner>>,
    moving: bool,
    #[serialize(when = self.moving, otherwise = 0, range = -50..=50)]
    velocity: i32,
    #[serialize(before(align, check = "tail"), after(align))]
    tail: u8,
    #[serialize(with = odd, arbitrary = odd_value)]
    odd: u32,
    #[serialize(skip)]
    cache: u32,
}

/// A random `Everything` from the derive's own generator of valid values,
/// fed with random bytes.
fn everything(rng: &mut ChaCha8Rng) -> Everything {
    let bytes: Vec<u8> = (0..rng.gen_range(0..2048)).map(|_| rng.gen()).collect();
    Everything::arbitrary(&mut Unstructured::new(&bytes)).expect("the generator never fails")
}

/// Valid values of the hand-written field `odd`.
fn odd_value(u: &mut Unstructured<'_>) -> arbitrary::Result<u32> {
    Ok(codec::arbitrary::ranged(u, 0u32, 65535)? * 2 + 1)
}

#[test]
fn generated_values_reach_every_edge_of_their_declarations() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let v = everything(&mut rng);
        let edges = [
            ("r8 min", v.r8 == -10),
            ("r8 max", v.r8 == 10),
            ("r128u max", v.r128u == u128::MAX - 5),
            ("raw40 max", v.raw40 == (1 << 40) - 1),
            ("code max", v.code == 2_000_000),
            ("fixed min", v.fixed == -100 * 256),
            ("speed max", v.speed == 100.0),
            ("list empty", v.list.is_empty()),
            ("list full", v.list.len() == 5),
            ("name full", v.name.len() == 12),
            ("maybe none", v.maybe.is_none()),
            ("mode jump", matches!(v.mode, Mode::Jump(_))),
            ("golomb empty", v.sub_golomb.is_empty()),
            ("golomb full", v.sub_golomb.len() == WIDE_SUBSET as usize),
            ("adaptive empty", v.sub_adaptive.is_empty()),
            (
                "adaptive full",
                v.sub_adaptive.len() == WIDE_SUBSET as usize,
            ),
            ("sentinel single", v.sub_sentinel.len() == 1),
            ("resting", !v.moving && v.velocity == 0),
        ];
        seen.extend(edges.iter().filter(|(_, hit)| *hit).map(|(name, _)| *name));
        // The `when` rule holds on every generated value.
        assert!(v.moving || v.velocity == 0);
    }
    assert_eq!(seen.len(), 18, "edges reached: {seen:?}");
}

/// `Everything` compared with its floats by their bits.
fn bits_of(v: &Everything) -> String {
    let mut v = v.clone();
    let float = v.raw_float.to_bits();
    let double = v.raw_double.to_bits();
    v.raw_float = 0.0;
    v.raw_double = 0.0;
    format!("{v:?} {float} {double}")
}

#[test]
fn every_attribute_writes_reads_measures_and_re_encodes() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for _ in 0..1500 {
        let mut value = everything(&mut rng);
        let bytes = codec::to_vec(&mut value).expect("a valid value is written");
        let bound = codec::measure(&mut value).unwrap();
        assert!(
            bound >= bytes.len() as u64 * 8 - 7,
            "measure {bound} below {} bytes",
            bytes.len()
        );
        let mut read: Everything = codec::from_slice(&bytes).expect("written bytes are read");
        // Everything but the quantized float comes back as it was sent.
        assert!(
            (read.speed - value.speed).abs() <= 0.01,
            "{} vs {}",
            read.speed,
            value.speed
        );
        let mut expected = value.clone();
        expected.speed = read.speed;
        assert_eq!(bits_of(&read), bits_of(&expected));
        assert_eq!(
            codec::to_vec(&mut read).unwrap(),
            bytes,
            "re-encoding changed the bytes"
        );
    }
}

/// Where each named field lies in the bytes of `value`: first offset and
/// the offset just past it.
fn field_span(value: &mut Everything, name: &str, first_only: bool) -> (u64, u64) {
    let mut buf = vec![0u8; 4096];
    let mut stream = Named::new(WriteStream::new(&mut buf));
    value.serialize(&mut stream).unwrap();
    stream
        .span_of(name, first_only)
        .unwrap_or_else(|| panic!("no field {name}"))
}

/// Sets every bit of `[from, to)`.
fn set_bits(bytes: &mut [u8], from: u64, to: u64) {
    for bit in from..to {
        bytes[(bit / 8) as usize] |= 1 << (bit % 8);
    }
}

#[test]
fn every_out_of_range_value_is_refused_by_the_writer_and_by_the_reader_by_name() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    type Break = fn(&mut Everything);
    // (declared name, the first bits of the field the reader checks, a lie)
    let cases: [(&str, Break); 14] = [
        ("r8", |v| v.r8 = 11),
        ("r16", |v| v.r16 = 99),
        ("r32", |v| v.r32 = -1_000_001),
        ("r32u", |v| v.r32u = 4_000_000_001),
        ("r64", |v| v.r64 = 5_000_000_001),
        ("r128", |v| v.r128 = (1 << 101) + 1),
        ("r128u", |v| v.r128u = u128::MAX),
        ("raw5", |v| v.raw5 = 32),
        ("raw40", |v| v.raw40 = 1 << 40),
        ("speed", |v| v.speed = 100.5),
        ("code", |v| v.code = 2_000_001),
        ("fixed", |v| v.fixed = 100 * 256 + 1),
        ("list", |v| v.list = vec![0; 6]),
        ("name", |v| v.name = "thirteen char".into()),
    ];
    for _ in 0..50 {
        let valid = everything(&mut rng);
        for (name, lie) in cases {
            let mut broken = valid.clone();
            lie(&mut broken);
            match codec::to_vec(&mut broken) {
                Err(EncodeError::Invalid(DecodeError::OutOfRange { .. })) => {}
                other => panic!("writer accepted {name} out of range: {other:?}"),
            }
        }
    }
    // The reader: the field's wire value set to all ones, which every one
    // of these declarations leaves outside its range.
    let readable = [
        "r8", "r16", "r32", "r32u", "r64", "r128", "code", "fixed", "count", "mode",
    ];
    for _ in 0..50 {
        let mut valid = everything(&mut rng);
        valid.mode = Mode::Idle;
        let bytes = codec::to_vec(&mut valid).unwrap();
        for name in readable {
            // Every list's count is named `count`: the first is the blob's.
            let (from, to) = field_span(&mut valid, name, name == "count");
            let mut forged = bytes.clone();
            set_bits(&mut forged, from, to);
            let mut read = Everything::default();
            let mut stream = Named::new(ReadStream::new(&forged));
            let refused = read.serialize(&mut stream).expect_err(name);
            assert_eq!(refused, DecodeError::OutOfRange { at: from }, "{name}");
            assert_eq!(
                stream.refused_in(),
                Some(name),
                "refusal named the wrong field"
            );
        }
    }
}

/// Ranges that a narrower carrier holds, on types wider than the carrier:
/// a value the carrier cannot hold is outside the range too.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct Carried {
    #[serialize(range = 0..=100)]
    small_u32: u32,
    #[serialize(range = -100..=100)]
    small_i64: i64,
    #[serialize(range = 0..=100)]
    small_u128: u128,
    #[serialize(range = 1..=(1 << 40))]
    mid_u128: u128,
    #[serialize(range = u128::MAX - 10..=u128::MAX - 5)]
    top_u128: u128,
}

#[test]
fn a_value_beyond_the_carrier_of_its_range_is_refused_by_the_writer() {
    let valid = Carried {
        small_u32: 100,
        small_i64: -100,
        small_u128: 0,
        mid_u128: 1 << 40,
        top_u128: u128::MAX - 10,
    };
    let bytes = codec::to_vec(&mut valid.clone()).unwrap();
    assert_eq!(codec::from_slice::<Carried>(&bytes), Ok(valid.clone()));
    type Break = fn(&mut Carried);
    let cases: [(&str, Break); 9] = [
        ("small_u32", |v| v.small_u32 = 101),
        ("small_u32", |v| v.small_u32 = u32::MAX),
        ("small_i64", |v| v.small_i64 = i64::MIN),
        ("small_i64", |v| v.small_i64 = 1 << 40),
        ("small_u128", |v| v.small_u128 = u128::MAX),
        ("mid_u128", |v| v.mid_u128 = 0),
        ("mid_u128", |v| v.mid_u128 = u128::MAX),
        ("top_u128", |v| v.top_u128 = 0),
        ("top_u128", |v| v.top_u128 = u128::MAX),
    ];
    for (name, lie) in cases {
        let mut broken = valid.clone();
        lie(&mut broken);
        match codec::to_vec(&mut broken) {
            Err(EncodeError::Invalid(DecodeError::OutOfRange { .. })) => {}
            other => panic!("writer accepted {name} = {broken:?}: {other:?}"),
        }
    }
}

#[derive(Debug, Default, PartialEq, Serialize)]
#[serialize(versions = 1..=3, upgrade = Profile::upgrade)]
struct Profile {
    #[serialize(range = 0..=99, after(integrity))]
    level: u8,
    #[serialize(added = 2, default = 7, bits = 4)]
    color: u8,
    #[serialize(removed = 3, range = 0..=9)]
    old_rank: u8,
    #[serialize(added = 3, range = 0..=90, after(integrity, align))]
    rank: u8,
    #[serialize(version)]
    version: u32,
}

impl Profile {
    fn upgrade(&mut self, version: u32) {
        if version < 3 {
            self.rank = self.old_rank * 10;
        }
    }
}

#[test]
fn versioned_fields_follow_the_version_they_were_added_and_removed_in() {
    // A revision 1 save: level, integrity 0, old_rank, integrity 1, padding.
    let mut buf = vec![0u8; 64];
    let mut s = WriteStream::new(&mut buf);
    s.serialize_u32(&mut 1).unwrap();
    s.serialize_int(&mut 42, 0, 99).unwrap();
    s.serialize_u32(&mut 0).unwrap();
    s.serialize_int(&mut 4, 0, 9).unwrap();
    s.serialize_u32(&mut 1).unwrap();
    let len = s.finish();
    let old: Profile = codec::from_slice(&buf[..len]).unwrap();
    assert_eq!(
        old,
        Profile {
            level: 42,
            color: 7,
            old_rank: 4,
            rank: 40,
            version: 1
        }
    );
    // The writer writes the latest revision, without the removed field.
    let mut latest = Profile {
        level: 5,
        color: 3,
        rank: 90,
        ..Profile::default()
    };
    let bytes = codec::to_vec(&mut latest).unwrap();
    let read: Profile = codec::from_slice(&bytes).unwrap();
    assert_eq!(
        (read.level, read.color, read.rank, read.version),
        (5, 3, 90, 3)
    );
    // A future version and a broken counter are refused.
    let mut future = bytes.clone();
    future[0] = 4;
    assert!(matches!(
        codec::from_slice::<Profile>(&future),
        Err(DecodeError::VersionTooNew {
            found: 4,
            latest: 3,
            ..
        })
    ));
    let mut broken = bytes;
    broken[5] ^= 1;
    assert!(matches!(
        codec::from_slice::<Profile>(&broken),
        Err(DecodeError::IntegrityMismatch { .. })
    ));
}

/// A percentage in 7 bits, read and written with no bound of its own.
fn percent<S: Stream>(stream: &mut S, value: &mut u8) -> Result<(), S::Error> {
    let mut bits = u32::from(*value);
    stream.serialize_bits(&mut bits, 7)?;
    *value = bits as u8;
    Ok(())
}

fn at_most_100(value: &u8) -> bool {
    *value <= 100
}

#[derive(Debug, Default, PartialEq, Serialize)]
struct Status {
    #[serialize(with = percent, valid = at_most_100)]
    health: u8,
}

/// `valid = rule` beside `with = f`: the writer sends what `f` sends for a
/// value that keeps the rule and refuses one that breaks it, at the field;
/// the reader is `f` alone, so what it accepts is up to `f` (the harness
/// lies in those bits: `adversarial/tests/declared_rule.rs`).
#[test]
fn a_declared_rule_is_kept_by_the_writer_and_left_to_the_reader() {
    assert_eq!(codec::to_vec(&mut Status { health: 100 }).unwrap(), [100]);
    assert_eq!(
        codec::to_vec(&mut Status { health: 101 }),
        Err(EncodeError::Invalid(DecodeError::OutOfRange { at: 0 }))
    );
    assert_eq!(
        codec::from_slice::<Status>(&[101]),
        Ok(Status { health: 101 })
    );
}

#[derive(Debug, Default, PartialEq, Serialize)]
struct GolombOnly {
    #[serialize(subset(golomb, size = WIDE_SUBSET))]
    set: Vec<Entry<Inner>>,
}

/// A Golomb subset tells a recording stream what each of its fields does:
/// the parameter is one that must be the best, every gap's code is a gap,
/// and the last code, the sentinel's, is the sentinel, whether the present
/// or the absent indices are coded.
#[test]
fn a_golomb_subset_names_its_parameter_gaps_and_sentinel() {
    for sent in [0, 1, 40, 150, 260, 298, 299, 300] {
        let mut value = GolombOnly {
            // `sent` indices spread over the set, the last one at the end.
            set: (0..sent)
                .map(|i| Entry {
                    index: (i + 1) * WIDE_SUBSET / sent - 1,
                    value: Inner::default(),
                })
                .collect(),
        };
        let mut buf = vec![0u8; 4096];
        let mut stream = Named::new(WriteStream::new(&mut buf));
        value.serialize(&mut stream).unwrap();
        let coded: Vec<(&str, Role)> = stream
            .primitives()
            .filter(|(_, role)| *role != Role::Value)
            .collect();
        let [("parameter", Role::BestParameter), codes @ ..] = &coded[..] else {
            panic!("{sent} sent: {coded:?}");
        };
        let gaps = codes
            .iter()
            .take_while(|f| **f == ("gap", Role::Gap))
            .count();
        let (gaps, sentinel) = codes.split_at(gaps);
        assert!(
            !sentinel.is_empty() && sentinel.iter().all(|f| *f == ("sentinel", Role::Sentinel)),
            "{sent} sent: {:?}",
            &codes[codes.len().saturating_sub(4)..]
        );
        // Every set here but the empty and the full one has a gap to code.
        assert_eq!(
            gaps.is_empty(),
            sent == 0 || sent == WIDE_SUBSET,
            "{sent} sent"
        );
    }
}
