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
    let files = files_under(&[dir.into()]).unwrap();
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

/// Found by a 10-minute flood: bytes appended to a snapshot near the
/// 1200-byte maximum were owed `trailing-bytes`, but the size rule comes
/// first and the reader rightly said `too-large`.
#[test]
fn a_lie_that_grows_a_packet_past_its_maximum_is_owed_too_large() {
    use adversarial::mutate::{cases, Owed};
    use adversarial::oracle::{judge, Outcome};
    use adversarial::target::{Sample, Target};
    use arbitrary::Unstructured;
    use codec::packet;
    use codec::subset::Entry;
    use game_protocol::{GamePacket, Snapshot, Unit};

    let target = game_protocol::attack::game();
    // The biggest snapshot that fits, a byte or two under the maximum.
    let bytes = (1..256u16)
        .rev()
        .find_map(|n| {
            let units = (0..n)
                .map(|index| Entry {
                    index: u32::from(index),
                    value: Unit {
                        position: [1.5, -2.25],
                        health: 100,
                    },
                })
                .collect();
            let mut snapshot = GamePacket::Snapshot(Snapshot { tick: 7, units });
            // Refused above the maximum.
            packet::encode_to_vec(&mut snapshot).ok()
        })
        .unwrap();
    assert!(bytes.len() > 1195, "{} bytes", bytes.len());
    let sample = Sample {
        map: target.inspect(&bytes).map,
        bytes,
    };
    let mut grown = 0;
    for seed in 0..64u8 {
        let entropy = [seed; 64];
        for case in cases(
            Class::TrailingBytes,
            &sample,
            &target.framing(),
            &mut Unstructured::new(&entropy),
        ) {
            if case.bytes.len() > 1200 {
                grown += 1;
                assert!(
                    matches!(
                        case.owed,
                        Owed::Refusal {
                            causes: ["too-large"],
                            ..
                        }
                    ),
                    "{case:?}"
                );
            }
            assert_eq!(judge(&target, &case), Outcome::AsOwed, "{case:?}");
        }
    }
    assert!(grown > 0, "no case crossed the maximum");
}

#[test]
fn every_lie_across_packets_gets_the_verdict_it_is_owed() {
    let report = check::endpoints(game_protocol::attack::endpoints())
        .cases(600)
        .run();
    assert_eq!(
        report.conversations.rows.len(),
        adversarial::scenario::StateClass::ALL.len()
    );
}
