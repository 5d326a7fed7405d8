//! The first serde test docs/HARNESS.md shows a user, as written there,
//! passes on a correct type read with `postcard::from_bytes`: the policy
//! it pairs with `Postcard` is one that call can meet.

use adversarial::formats::{target, Policy, Postcard};
use serde::{Deserialize, Serialize};

adversarial::count_allocations!();

/// A client's input, with nothing wrong in it.
#[derive(Clone, Debug, Serialize, Deserialize, arbitrary::Arbitrary)]
struct Input {
    tick: u32,
    player: String,
    keys: Vec<u8>,
    aim: Option<(f32, f32)>,
    emote: Option<char>,
    ready: bool,
}

#[test]
fn every_lie_gets_its_verdict() {
    // What `from_bytes` can meet: it takes trailing bytes and over-long
    // varints by design, so those are owed the honest value.
    let policy = Policy {
        refuse_trailing_bytes: false,
        canonical: false,
        ..Policy::default()
    };
    let input = target::<Input, _>("input", Postcard).policy(policy);
    adversarial::check::campaign(vec![Box::new(input)])
        .classes(&adversarial::mutate::Class::SERDE)
        .run();
}

#[test]
fn the_block_in_the_docs_is_this_one() {
    let docs = include_str!("../../docs/HARNESS.md");
    for line in [
        "use adversarial::formats::{target, Policy, Postcard};",
        "let policy = Policy { refuse_trailing_bytes: false, canonical: false, ..Policy::default() };",
        "let input = target::<Input, _>(\"input\", Postcard).policy(policy);",
        "adversarial::check::campaign(vec![Box::new(input)])",
    ] {
        assert!(docs.contains(line), "docs/HARNESS.md lost: {line}");
    }
}
