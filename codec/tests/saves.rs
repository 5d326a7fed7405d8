//! The score save's revision history: a save written by every revision is
//! kept in `tests/fixtures/saves/`, and the latest reader must load each
//! into the right current value.
//!
//! The writers below stand in for the old builds: each writes its own
//! revision's layout with the bare stream operations, independently of the
//! codec's reader. `UPDATE_SAVE_FIXTURES=1 cargo test -p gamepacket-codec --test saves`
//! rewrites the files; otherwise the test checks the files still hold
//! exactly what each revision writes.

use codec::protocols::score_save::{
    self, ScoreState, LATEST_VERSION, MAX_FOULS, MAX_SCORE, MIN_SCORE,
};
use codec::{DecodeError, Stream, WriteStream};
use proptest::prelude::*;
use std::path::PathBuf;

fn score(s: &mut WriteStream, mut v: i32) {
    s.serialize_int(&mut v, MIN_SCORE, MAX_SCORE).unwrap();
}

fn fouls(s: &mut WriteStream, mut v: i32) {
    s.serialize_int(&mut v, 0, MAX_FOULS).unwrap();
}

fn counter(s: &mut WriteStream, mut n: u32) {
    s.serialize_u32(&mut n).unwrap();
}

fn write_revision(version: u32, body: impl FnOnce(&mut WriteStream)) -> Vec<u8> {
    let mut buf = vec![0u8; 256];
    let mut s = WriteStream::new(&mut buf);
    s.serialize_u32(&mut version.clone()).unwrap();
    body(&mut s);
    s.serialize_align().unwrap();
    let len = s.finish();
    buf.truncate(len);
    buf
}

/// Each revision's save and what the latest reader must make of it.
fn history() -> Vec<(u32, Vec<u8>, Vec<i32>)> {
    vec![
        // 1: two players' scores.
        (
            1,
            write_revision(1, |s| {
                score(s, 120);
                score(s, 45);
                counter(s, 0);
                counter(s, 1);
            }),
            vec![120, 45],
        ),
        // 2: fouls added; a foul now costs a point.
        (
            2,
            write_revision(2, |s| {
                score(s, 120);
                score(s, 45);
                fouls(s, 3);
                fouls(s, 0);
                counter(s, 0);
                counter(s, 1);
            }),
            vec![117, 45],
        ),
        // 3: extra players, each with a score and fouls.
        (
            3,
            write_revision(3, |s| {
                score(s, 120);
                score(s, 45);
                fouls(s, 3);
                fouls(s, 1);
                counter(s, 0);
                s.serialize_int(&mut 2, 0, 6).unwrap();
                score(s, 10);
                fouls(s, 2);
                score(s, -5);
                fouls(s, 0);
                counter(s, 1);
            }),
            vec![117, 44, 8, -5],
        ),
        // 4: all players in one list.
        (
            4,
            write_revision(4, |s| {
                counter(s, 0);
                s.serialize_int(&mut 3, 0, 8).unwrap();
                for (sc, f) in [(200, 4), (0, 0), (-30, 1)] {
                    score(s, sc);
                    fouls(s, f);
                }
                counter(s, 1);
            }),
            vec![196, 0, -31],
        ),
        // 5: fouls no longer tracked.
        (
            5,
            write_revision(5, |s| {
                counter(s, 0);
                s.serialize_int(&mut 3, 0, 8).unwrap();
                for sc in [7, 8, 9] {
                    score(s, sc);
                }
                counter(s, 1);
            }),
            vec![7, 8, 9],
        ),
    ]
}

fn fixture(version: u32) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/fixtures/saves/score-v{version}.bin"))
}

#[test]
fn fixtures_hold_what_each_revision_writes() {
    assert_eq!(
        history().len() as u32,
        LATEST_VERSION,
        "one fixture per revision"
    );
    for (version, bytes, _) in history() {
        let path = fixture(version);
        if std::env::var_os("UPDATE_SAVE_FIXTURES").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        let committed = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(committed, bytes, "revision {version}");
    }
}

#[test]
fn latest_reader_loads_a_save_of_every_revision() {
    for (version, _, scores) in history() {
        let bytes = std::fs::read(fixture(version)).unwrap();
        assert_eq!(
            score_save::decode(&bytes),
            Ok(ScoreState { scores }),
            "revision {version}"
        );
    }
}

#[test]
fn the_latest_writer_writes_the_latest_revision() {
    let (_, bytes, scores) = history().pop().unwrap();
    assert_eq!(
        score_save::encode(&mut ScoreState { scores }).unwrap(),
        bytes
    );
}

#[test]
fn refuses_a_save_from_the_future() {
    let mut bytes = std::fs::read(fixture(LATEST_VERSION)).unwrap();
    bytes[0] = (LATEST_VERSION + 1) as u8;
    assert_eq!(
        score_save::decode(&bytes),
        Err(DecodeError::VersionTooNew {
            at: 0,
            found: LATEST_VERSION + 1,
            latest: LATEST_VERSION
        })
    );
}

#[test]
fn refuses_version_zero_which_never_existed() {
    let mut bytes = std::fs::read(fixture(1)).unwrap();
    bytes[0] = 0;
    assert_eq!(
        score_save::decode(&bytes),
        Err(DecodeError::OutOfRange { at: 0 })
    );
}

#[test]
fn refuses_a_broken_integrity_counter() {
    // Revision 4 starts with counter 0 right after the version.
    let mut bytes = std::fs::read(fixture(4)).unwrap();
    bytes[4] = 7;
    assert_eq!(
        score_save::decode(&bytes),
        Err(DecodeError::IntegrityMismatch {
            at: 32,
            expected: 0,
            found: 7
        })
    );
}

#[test]
fn refuses_trailing_bytes_after_a_save() {
    let mut bytes = std::fs::read(fixture(5)).unwrap();
    let end = bytes.len() as u64 * 8;
    bytes.push(0);
    assert_eq!(
        score_save::decode(&bytes),
        Err(DecodeError::TrailingBytes { at: end })
    );
}

#[test]
fn every_truncated_fixture_is_refused_past_end() {
    for (version, bytes, _) in history() {
        for cut in 0..bytes.len() {
            assert!(
                matches!(
                    score_save::decode(&bytes[..cut]),
                    Err(DecodeError::PastEnd { .. })
                ),
                "revision {version} cut at {cut}"
            );
        }
    }
}

proptest! {
    #[test]
    fn latest_saves_round_trip(scores in proptest::collection::vec(MIN_SCORE..=MAX_SCORE, 0..=8)) {
        let mut state = ScoreState { scores };
        let bytes = score_save::encode(&mut state).unwrap();
        let mut read = score_save::decode(&bytes).unwrap();
        prop_assert_eq!(&read, &state);
        prop_assert_eq!(score_save::encode(&mut read).unwrap(), bytes);
    }
}

/// The save's generator of valid values (the harness's samples) makes
/// states of every size it allows, each score in range.
#[test]
fn generated_save_states_are_valid_and_vary() {
    use codec::arbitrary::{Arbitrary, Unstructured};
    let mut sizes = std::collections::BTreeSet::new();
    for seed in 0..400u32 {
        let bytes: Vec<u8> = (0..64u32).map(|i| (seed * 131 + i * 37) as u8).collect();
        let state = ScoreState::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        assert!(state
            .scores
            .iter()
            .all(|s| (MIN_SCORE..=MAX_SCORE).contains(s)));
        sizes.insert(state.scores.len());
        score_save::encode(&mut state.clone()).unwrap();
    }
    assert!(sizes.len() >= 4, "sizes {sizes:?}");
}
