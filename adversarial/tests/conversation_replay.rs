//! A failing conversation shrinks, is written as a file, and `replay` on
//! that file reproduces the failure: the `adversarial` binary against its
//! fixture `link-accepts-replays` (link's endpoint with the duplicate
//! check forgotten), then the same file against `link` itself, which keeps
//! every promise.

use adversarial::scenario::campaign::{run_all, Settings};
use adversarial::scenario::{Broken, StateClass};
use adversarial::targets::endpoint_fixtures;
use std::process::Command;

adversarial::count_allocations!();

fn adversarial(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_adversarial"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_failing_conversation_is_written_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let crashes = dir.path().to_str().unwrap();
    let (code, table) = adversarial(&[
        "campaign",
        "--target",
        "link-accepts-replays",
        // loss-across-wrap's replay catches the fixture too; one lie, one file.
        "--state-class",
        "replayed-datagram",
        "--cases",
        "48",
        "--quiet",
        "--crash-dir",
        crashes,
    ]);
    assert_eq!(code, Some(1), "{table}");
    assert!(
        table.contains("link-accepts-replays (conversations)"),
        "{table}"
    );
    let written: Vec<_> = std::fs::read_dir(dir.path().join("link-accepts-replays"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let file = written[0].to_str().unwrap();
    assert!(file.ends_with(".conversation.json"), "{file}");
    assert!(file.contains("conversation-replayed-datagram-"), "{file}");

    let (code, replayed) = adversarial(&["replay", file]);
    assert_eq!(code, Some(1), "{replayed}");
    assert!(
        replayed.contains("[link-accepts-replays]: FAIL wrong verdict"),
        "{replayed}"
    );

    let (code, replayed) = adversarial(&["replay", "--target", "link", file]);
    assert_eq!(code, Some(0), "{replayed}");
    assert!(
        replayed.contains("[link]: every datagram's verdict as owed"),
        "{replayed}"
    );
}

#[test]
fn shrinking_keeps_the_failure_with_fewer_datagrams() {
    let mut fixtures = endpoint_fixtures();
    fixtures.retain(|e| e.name() == "link-accepts-replays");
    let targets: Vec<_> = fixtures.iter().map(AsRef::as_ref).collect();
    let classes = [StateClass::ReplayedDatagram];
    let run = |shrink| {
        let settings = Settings {
            seed: 5,
            classes: &classes,
            cases: Some(4),
            until: None,
            jobs: 1,
            crash_dir: None,
            shrink,
            progress: false,
            isolation: None,
        };
        let report = run_all(&targets, &settings);
        assert!(!report.passed());
        let kept = report.failures.into_iter().next().unwrap();
        assert_eq!(kept.failure.kind, Broken::WrongVerdict);
        kept.scenario.datagrams.len()
    };
    let (whole, shrunk) = (run(false), run(true));
    assert!(shrunk < whole, "{shrunk} datagrams shrunk from {whole}");
}
