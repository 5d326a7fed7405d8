//! The field map of a serde encoding (`formats::field_map`, feature
//! `serde`): over a type that uses every kind of the serde data model (all
//! 29), for random values and every format, the recorder leaves the
//! encoding as the format writes it, the spans tile it exactly in order,
//! and each span's bytes are what the format writes for its leaf alone.

use adversarial::formats::{
    field_map, Bincode1, Bincode1Varint, Bincode2, Format, Leaf, Postcard, Role, Span,
};
use arbitrary::{Arbitrary, Unstructured};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

#[derive(Serialize, Arbitrary, Debug)]
struct UnitStruct;

#[derive(Serialize, Arbitrary, Debug)]
struct Newtype(u32);

#[derive(Serialize, Arbitrary, Debug)]
struct Pair(i32, bool);

/// A byte string (`serialize_bytes`), not a sequence of u8.
#[derive(Arbitrary, Debug)]
struct Bytes(Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

#[derive(Serialize, Arbitrary, Debug)]
enum Command {
    Idle,
    Move(i16),
    Aim(f32, f32),
    Jump { height: u8, crouch: bool },
}

/// Every kind of the serde data model, at least once.
#[derive(Serialize, Arbitrary, Debug)]
struct Every {
    flag: bool,
    tiny: i8,
    small: i16,
    medium: i32,
    large: i64,
    huge: i128,
    byte: u8,
    short: u16,
    word: u32,
    long: u64,
    wide: u128,
    single: f32,
    double: f64,
    letter: char,
    name: String,
    blob: Bytes,
    maybe: Option<u16>,
    nothing: (),
    marker: UnitStruct,
    commands: Vec<Command>,
    id: Newtype,
    tuple: (u8, String),
    pair: Pair,
    scores: BTreeMap<u8, String>,
}

/// What `format` writes for the leaf of `span` alone.
fn alone<F: Format>(format: &F, span: &Span) -> Vec<u8> {
    let bytes = match (&span.leaf, span.role) {
        (Leaf::Bool(v), _) => format.to_bytes(v),
        (Leaf::Unsigned(v), Role::Int(ty)) => match ty {
            "u8" => format.to_bytes(&(*v as u8)),
            "u16" => format.to_bytes(&(*v as u16)),
            "u32" => format.to_bytes(&(*v as u32)),
            "u64" => format.to_bytes(&(*v as u64)),
            _ => format.to_bytes(v),
        },
        (Leaf::Signed(v), Role::Int(ty)) => match ty {
            "i8" => format.to_bytes(&(*v as i8)),
            "i16" => format.to_bytes(&(*v as i16)),
            "i32" => format.to_bytes(&(*v as i32)),
            "i64" => format.to_bytes(&(*v as i64)),
            _ => format.to_bytes(v),
        },
        (Leaf::F32(v), _) => format.to_bytes(v),
        (Leaf::F64(v), _) => format.to_bytes(v),
        (Leaf::Char(v), _) => format.to_bytes(v),
        // A length goes as a u64 would (fixed or varint alike).
        (Leaf::Length(n), _) => format.to_bytes(&(*n as u64)),
        (Leaf::Tag(index), _) => format.to_bytes(index),
        (Leaf::Present(present), _) => format.to_bytes(&u8::from(*present)),
        (Leaf::Text(text), _) => Ok(text.as_bytes().to_vec()),
        (Leaf::Raw(raw), _) => Ok(raw.clone()),
        (leaf, role) => panic!("{leaf:?} as {role:?}"),
    };
    bytes.unwrap()
}

fn check<F: Format>(format: &F, value: &Every) -> usize {
    let (bytes, spans) = field_map(format, value).unwrap();
    assert_eq!(
        bytes,
        format.to_bytes(value).unwrap(),
        "{}: recording changed the bytes",
        format.name()
    );
    let mut at = 0;
    for span in &spans {
        assert_eq!(
            span.bytes.start,
            at,
            "{}: a gap or overlap before {span:?}",
            format.name()
        );
        at = span.bytes.end;
        assert_eq!(
            &bytes[span.bytes.clone()],
            alone(format, span),
            "{}: {span:?}",
            format.name()
        );
        assert!(
            !span.path.is_empty(),
            "{}: {span:?} has no path",
            format.name()
        );
    }
    assert_eq!(
        at,
        bytes.len(),
        "{}: bytes past the last span",
        format.name()
    );
    spans.len()
}

#[test]
fn spans_tile_every_format_s_encoding_and_each_re_encodes_to_its_bytes() {
    let mut rng = ChaCha8Rng::seed_from_u64(46);
    let mut entropy = vec![0u8; 4096];
    let mut roles = std::collections::HashSet::new();
    for _ in 0..300 {
        rng.fill_bytes(&mut entropy);
        let Ok(value) = Every::arbitrary(&mut Unstructured::new(&entropy)) else {
            continue;
        };
        for spans in [
            check(&Postcard, &value),
            check(&Bincode1, &value),
            check(&Bincode1Varint, &value),
            check(&Bincode2, &value),
        ] {
            // A leaf for each of the 24 fields but the two of no bytes,
            // and a length for each of four strings and collections.
            assert!(spans >= 24, "{spans} spans");
        }
        for span in field_map(&Postcard, &value).unwrap().1 {
            roles.insert(format!("{:?}", span.role));
        }
    }
    // Every role: ten integer types, two floats and ten others.
    assert_eq!(roles.len(), 22, "{roles:?}");
}

#[test]
fn a_path_names_the_field_the_variant_and_the_index() {
    let value = vec![
        Command::Idle,
        Command::Jump {
            height: 3,
            crouch: true,
        },
    ];
    let (_, spans) = field_map(&Postcard, &value).unwrap();
    let paths: Vec<(&str, Role)> = spans.iter().map(|s| (s.path.as_str(), s.role)).collect();
    assert_eq!(
        paths,
        [
            ("", Role::SeqLength),
            ("[0]", Role::VariantTag("Command")),
            ("[1]", Role::VariantTag("Command")),
            ("[1].Jump.height", Role::Int("u8")),
            ("[1].Jump.crouch", Role::Bool),
        ]
    );
}
