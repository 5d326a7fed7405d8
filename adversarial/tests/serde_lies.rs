//! Each lie `formats::lies` tells in a real encoding (feature `serde`)
//! gets the verdict it is owed from every adapter: refused where the
//! format's contract refuses it, a trailing byte as the reading call takes
//! it by design, with the honest value when accepted.

use adversarial::formats::{
    field_map, lies, Bincode1, Bincode1Varint, Bincode1VarintLimited, Bincode2, Bincode2Limited,
    Format, Owed, Postcard, PostcardStrict, SerdeClass,
};
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

fn check<F: Format>(format: &F) {
    let mut classes = HashSet::new();
    for input in inputs() {
        let (bytes, spans) = field_map(format, &input).unwrap();
        for lie in lies(format, &bytes, &spans) {
            let read = format.decode::<Input>(&lie.bytes);
            let as_owed = match lie.owed {
                Owed::Refused => read.is_err(),
                Owed::AcceptedAsBefore => read.as_ref() == Ok(&input),
            };
            assert!(
                as_owed,
                "{}: {} at {:?} owed {:?}, read {read:?}",
                format.name(),
                lie.class.name(),
                lie.path,
                lie.owed
            );
            classes.insert(lie.class);
        }
    }
    assert_eq!(
        classes.len(),
        SerdeClass::ALL.len(),
        "{}: {classes:?}",
        format.name()
    );
}

#[test]
fn every_lie_gets_its_owed_verdict_from_every_adapter() {
    check(&Postcard);
    check(&PostcardStrict);
    check(&Bincode1);
    check(&Bincode1Varint);
    check(&Bincode1VarintLimited);
    check(&Bincode2);
    check(&Bincode2Limited);
}
