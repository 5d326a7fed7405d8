//! Aiming the harness at a codec from the registry: `postcard`.
//!
//! `cargo run --release -p gamepacket-adversarial --example postcard`
//!
//! A game's input message, serialized with serde + postcard, is plugged in
//! through `PlainCodec`, once with `postcard::from_bytes` as most code calls
//! it and once with a strict decode that refuses bytes after the message.
//! The campaign then runs every class that needs no field map.

use adversarial::campaign::{self, Budget, Config};
use adversarial::mutate::Class;
use adversarial::plain::{Plain, PlainCodec};
use adversarial::report;
use arbitrary::Unstructured;
use serde::{Deserialize, Serialize};

adversarial::count_allocations!();

/// What a client sends every tick.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct PlayerInput {
    sequence: u16,
    buttons: u8,
    aim: (f32, f32),
    chat: String,
}

/// `strict`: refuse bytes after the message.
struct Postcard {
    strict: bool,
}

impl PlainCodec for Postcard {
    type Value = PlayerInput;
    type Error = postcard::Error;

    fn name(&self) -> &'static str {
        if self.strict {
            "postcard-strict"
        } else {
            "postcard"
        }
    }

    fn decode(&self, bytes: &[u8]) -> Result<PlayerInput, postcard::Error> {
        if self.strict {
            let (value, rest) = postcard::take_from_bytes(bytes)?;
            if !rest.is_empty() {
                return Err(postcard::Error::DeserializeBadEncoding);
            }
            Ok(value)
        } else {
            postcard::from_bytes(bytes)
        }
    }

    fn encode(&self, value: &PlayerInput) -> Result<Vec<u8>, String> {
        postcard::to_allocvec(value).map_err(|e| e.to_string())
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<PlayerInput> {
        Ok(PlayerInput {
            sequence: u.arbitrary()?,
            buttons: u.arbitrary()?,
            aim: (
                f32::from_bits(u.arbitrary()?),
                f32::from_bits(u.arbitrary()?),
            ),
            chat: u.arbitrary()?,
        })
    }
}

fn main() {
    let config = Config {
        targets: vec![
            Box::new(Plain(Postcard { strict: false })),
            Box::new(Plain(Postcard { strict: true })),
        ],
        classes: vec![
            Class::Valid,
            Class::TruncateBytes,
            Class::TruncateBits,
            Class::TrailingBytes,
            Class::BitFlip,
        ],
        endpoints: Vec::new(),
        state_classes: Vec::new(),
        seed: 1,
        budget: Budget::Seconds(4.0),
        crash_dir: None,
        progress: false,
        shrink: false,
        isolation: None,
        jobs: 1,
    };
    let report = campaign::run(&config);
    print!(
        "{}",
        report::failures_text(&report)
            .lines()
            .take(6)
            .collect::<Vec<_>>()
            .join("\n")
    );
    println!();
    print!("{}", report::campaign_table(&report, report::Listed::Above));
}
