//! Each lie `formats::lies` tells in a real encoding (feature `serde`)
//! gets the verdict it is owed from every adapter: refused where the
//! format's contract refuses it, a trailing byte as the reading call takes
//! it by design, with the honest value when accepted.

use adversarial::formats::maps::{maps, same_up_to_order};
use adversarial::formats::{
    field_map, lies, Bincode1, Bincode1Varint, Bincode1VarintLimited, Bincode2, Bincode2Limited,
    Format, Owed, Policy, Postcard, PostcardStrict,
};
use adversarial::mutate::Class;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Command {
    Idle,
    Move(i16),
    Say(String),
    Jump { height: u8, crouch: bool },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Input {
    tick: u32,
    player: String,
    key: char,
    ready: bool,
    commands: Vec<Command>,
    aim: Option<(f32, f32)>,
    emote: Option<char>,
}

fn inputs() -> Vec<Input> {
    vec![
        Input {
            tick: 70_000,
            player: "kart".into(),
            key: 'w',
            ready: true,
            commands: vec![
                Command::Idle,
                Command::Say("gg é".into()),
                Command::Jump {
                    height: 9,
                    crouch: false,
                },
            ],
            aim: Some((1.5, -2.0)),
            emote: Some('€'),
        },
        Input {
            tick: 0,
            player: "ö".into(),
            key: '\u{10FFFF}',
            ready: false,
            commands: vec![Command::Move(-300)],
            aim: None,
            emote: None,
        },
    ]
}

/// What reading `bytes` as an `Input` did: the read, or `None` when it
/// panicked.
fn read<F: Format>(format: &F, bytes: &[u8]) -> Option<Result<Input, String>> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        format.decode::<Input>(bytes)
    }))
    .ok()
}

/// Checks every lie's verdict, and returns the classes and paths whose lies
/// made the read panic or got another verdict than the format's contract
/// owes: findings about the format crate.
fn check<F: Format>(format: &F) -> Vec<String> {
    let mut panicked = std::collections::BTreeSet::new();
    let mut classes = HashSet::new();
    let policy = Policy {
        refuse_trailing_bytes: !format.accepts_trailing_bytes(),
        canonical: false,
        ..Policy::default()
    };
    for input in inputs() {
        let (bytes, spans) = field_map(format, &input).unwrap();
        for lie in lies(format, policy, &bytes, &spans) {
            classes.insert(lie.class);
            let Some(read) = read(format, &lie.bytes) else {
                panicked.insert(format!("{} {}", lie.class.name(), lie.path));
                continue;
            };
            let as_owed = match lie.owed {
                Owed::Refused => read.is_err(),
                Owed::AcceptedAsBefore => read.as_ref() == Ok(&input),
                Owed::Canonical => read
                    .as_ref()
                    .map_or(true, |value| format.to_bytes(value).unwrap() == lie.bytes),
                Owed::Unharmed => true,
                Owed::AcceptedAsRead => read.as_ref().is_ok_and(|value| {
                    let (written, spans) = field_map(format, value).unwrap();
                    same_up_to_order(&lie.bytes, &written, &maps(&spans))
                }),
            };
            if !as_owed {
                panicked.insert(format!("{} {} read", lie.class.name(), lie.path));
            }
        }
    }
    // A format of fixed-width integers has no varint to lie in.
    let varint_classes = [Class::IntBeyondType, Class::OverlongVarint];
    // Valid and bit flips are the campaign's, not lies in one field; this
    // Input has no recursive type to nest and no map.
    let told_here = Class::SERDE
        .iter()
        .filter(|class| {
            !matches!(
                class,
                Class::Valid
                    | Class::BitFlip
                    | Class::DeepNesting
                    | Class::DuplicateKey
                    | Class::KeysOutOfOrder
            )
        })
        .filter(|class| format.varint().is_some() || !varint_classes.contains(class))
        .count();
    assert_eq!(classes.len(), told_here, "{}: {classes:?}", format.name());
    panicked.into_iter().collect()
}

#[test]
fn every_lie_gets_its_owed_verdict_from_every_adapter() {
    assert_eq!(check(&Postcard), Vec::<String>::new());
    assert_eq!(check(&PostcardStrict), Vec::<String>::new());
    assert_eq!(check(&Bincode1), Vec::<String>::new());
    // A finding about bincode 1.3.3: its varint reader takes an integer
    // written with a marker wider than its type (a u64's for a u32) when
    // the value fits, where bincode 2 refuses it.
    let wide_marker = [
        "int-beyond-type commands[0].Move read",
        "int-beyond-type tick read",
    ];
    assert_eq!(check(&Bincode1Varint), wide_marker);
    assert_eq!(check(&Bincode1VarintLimited), wide_marker);
    // A finding about bincode 2.0.1 (its issue 764): a string's length of
    // u64::MAX, with no limit, panics with "capacity overflow".
    assert_eq!(
        check(&Bincode2),
        ["length-bomb commands[1].Say", "length-bomb player"]
    );
    assert_eq!(check(&Bincode2Limited), Vec::<String>::new());
}

/// The classes whose lies `format` takes against the default policy (both
/// trailing bytes and over-long varints refused): what its call lets
/// through by design.
fn let_through<F: Format>(format: &F) -> Vec<&'static str> {
    let mut through = std::collections::BTreeSet::new();
    for input in inputs() {
        let (bytes, spans) = field_map(format, &input).unwrap();
        for lie in lies(format, Policy::default(), &bytes, &spans) {
            match read(format, &lie.bytes) {
                Some(Ok(_)) if lie.owed == Owed::Refused => {
                    through.insert(lie.class.name());
                }
                _ => {}
            }
        }
    }
    through.into_iter().collect()
}

#[test]
fn against_the_strict_policy_each_adapter_lets_through_what_its_call_does_by_design() {
    // No varint reader here takes a varint only in its shortest form;
    // bincode 1's `deserialize` has no varint, and takes trailing bytes.
    assert_eq!(
        let_through(&Postcard),
        ["overlong-varint", "trailing-bytes"]
    );
    assert_eq!(let_through(&PostcardStrict), ["overlong-varint"]);
    assert_eq!(let_through(&Bincode1), ["trailing-bytes"]);
    // bincode 1.3's varints also take a marker wider than the type.
    let bincode1 = ["int-beyond-type", "overlong-varint"];
    assert_eq!(let_through(&Bincode1Varint), bincode1);
    assert_eq!(let_through(&Bincode1VarintLimited), bincode1);
    assert_eq!(
        let_through(&Bincode2),
        ["overlong-varint", "trailing-bytes"]
    );
    assert_eq!(
        let_through(&Bincode2Limited),
        ["overlong-varint", "trailing-bytes"]
    );
}
