//! The serde format adapters (`formats`, feature `serde`) read what they
//! write, and let through by design what their calls do: bytes after the
//! message accepted by postcard's `from_bytes`, bincode 1's `deserialize`
//! and bincode 2's `decode_from_slice` (whose count this caller ignores),
//! refused by postcard's strict reading and bincode 1's `DefaultOptions`;
//! a length past the limit refused by bincode 2's limited reader.

use adversarial::formats::{
    Bincode1, Bincode1Varint, Bincode1VarintLimited, Bincode2, Bincode2Limited, Format, Postcard,
    PostcardStrict, LIMIT,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Command {
    Idle,
    Move(i16),
    Jump { height: u8 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Input {
    tick: u32,
    name: String,
    commands: Vec<Command>,
    target: Option<(f32, f32)>,
    held: BTreeMap<u8, bool>,
}

fn input() -> Input {
    Input {
        tick: 70_000,
        name: "kart".into(),
        commands: vec![
            Command::Idle,
            Command::Move(-3),
            Command::Jump { height: 9 },
        ],
        target: Some((1.5, -2.0)),
        held: [(1, true), (4, false)].into_iter().collect(),
    }
}

/// Whether `format` reads the encoding of `input()` with `extra` after it.
fn reads_with<F: Format>(format: &F, extra: &[u8]) -> Result<Input, String> {
    let mut bytes = format.to_bytes(&input()).unwrap();
    bytes.extend_from_slice(extra);
    format.decode(&bytes)
}

#[test]
fn every_adapter_reads_what_it_writes_and_trailing_bytes_as_its_call_does() {
    fn check<F: Format>(format: &F, trailing_accepted: bool) {
        assert_eq!(reads_with(format, &[]), Ok(input()), "{}", format.name());
        let trailing = reads_with(format, &[0]);
        assert_eq!(
            trailing.is_ok(),
            trailing_accepted,
            "{}: {trailing:?}",
            format.name()
        );
        if let Ok(value) = trailing {
            assert_eq!(value, input(), "{}", format.name());
        }
    }
    check(&Postcard, true);
    check(&PostcardStrict, false);
    check(&Bincode1, true);
    check(&Bincode1Varint, false);
    check(&Bincode1VarintLimited, false);
    check(&Bincode2, true);
    check(&Bincode2Limited, true);
}

#[test]
fn bincode_2_s_limit_refuses_a_longer_string_and_bincode_1_s_does_not_apply_to_a_slice() {
    // A string of one byte more than the limit, whole (both bincodes write
    // its length the same way).
    let long = "a".repeat(LIMIT + 1);
    let bytes = Bincode1Varint.to_bytes(&long).unwrap();
    assert_eq!(bytes, Bincode2.to_bytes(&long).unwrap());
    let len = |read: Result<String, String>| read.map(|text| text.len());
    assert_eq!(len(Bincode1Varint.decode(&bytes)), Ok(LIMIT + 1));
    assert_eq!(len(Bincode2.decode(&bytes)), Ok(LIMIT + 1));
    let refused = Bincode2Limited.decode::<String>(&bytes).unwrap_err();
    assert!(refused.to_lowercase().contains("limit"), "{refused}");
    // bincode 1.3.3 reads a slice with no limit, whatever `with_limit` says
    // (the slice bounds what it can read): a finding, not our choice.
    assert_eq!(len(Bincode1VarintLimited.decode(&bytes)), Ok(LIMIT + 1));
}
