//! The game's readers against every lie the harness knows, from a test.

use adversarial::replay::{files_under, replay};
use adversarial::{check, mutate::Class};

adversarial::count_allocations!();

#[test]
fn every_lie_gets_the_verdict_it_is_owed() {
    let report = check::campaign(game_protocol::attack::targets())
        .cases(20_000)
        .run();
    // The declarations give these classes something to lie in.
    for class in [
        Class::OutOfRangeValue,
        Class::OutOfRangeCount,
        Class::DuplicateIndex,
        Class::RepeatedSentinel,
        Class::StringTooLong,
        Class::FutureVersion,
        Class::BrokenIntegrity,
    ] {
        assert!(
            report
                .rows
                .iter()
                .any(|(_, c, t)| *c == class && t.cases > 0),
            "{} had no case",
            class.name()
        );
    }
    // Four packet types fill the 2-bit type field: no type is unknown, so
    // that class has nothing to lie in.
    assert!(!report
        .rows
        .iter()
        .any(|(_, c, _)| *c == Class::UnknownPacketType));
}

#[test]
fn the_committed_corpus_replays() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");
    let targets = game_protocol::attack::targets();
    let files = files_under(&[dir.into()]);
    assert!(files.len() >= 8, "corpus nearly empty: {files:?}");
    for file in files {
        let target = targets
            .iter()
            .find(|t| file.parent().is_some_and(|p| p.ends_with(t.name())))
            .unwrap_or_else(|| panic!("{}: no target", file.display()));
        let bytes = std::fs::read(&file).unwrap();
        let verdict = replay(target.as_ref(), &bytes);
        assert!(!verdict.is_failure(), "{}: {verdict}", file.display());
    }
}
