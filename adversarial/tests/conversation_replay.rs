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

#[test]
fn a_kept_conversation_replays_with_the_configuration_it_drew() {
    // ModuloSlots shows only in a window that does not divide 65,536: the
    // failure kept is of a drawn configuration, and its file says which.
    use adversarial::scenario::campaign::replay_file;
    use adversarial::target::{endpoint, EndpointTarget};
    use link::{Endpoint, Fault};
    let faulty = endpoint("modulo-slots", adversarial::scenario::config(), |c| {
        Endpoint::new(c.clone(), 0.0)
            .unwrap()
            .with_fault(Fault::ModuloSlots)
    });
    let healthy = endpoint("link", adversarial::scenario::config(), |c| {
        Endpoint::new(c.clone(), 0.0).unwrap()
    });
    let dir = tempfile::tempdir().unwrap();
    let classes = StateClass::ALL;
    let settings = Settings {
        seed: 1,
        classes: &classes,
        cases: Some(2_000),
        until: None,
        jobs: 1,
        crash_dir: Some(dir.path()),
        shrink: true,
        progress: false,
        isolation: None,
    };
    let report = run_all(&[&faulty as &dyn EndpointTarget], &settings);
    let kept = report.failures.first().expect("ModuloSlots caught");
    let config = kept.scenario.config.clone().unwrap();
    assert_ne!(kept.scenario.family.name(), "own", "{:?}", kept.failure);
    assert!(
        [
            config.sent_packets_buffer_size,
            config.received_packets_buffer_size,
            config.fragment_reassembly_buffer_size
        ]
        .iter()
        .any(|len| !len.is_power_of_two()),
        "{config:?}"
    );
    let file = kept.file.as_ref().unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains("\"family\"") && text.contains("\"received_packets_buffer_size\""));
    let targets: [&dyn EndpointTarget; 2] = [&faulty, &healthy];
    let (_, failure) = replay_file(file, &targets, None).unwrap();
    assert_eq!(failure.map(|f| f.kind), Some(kept.failure.kind));
    let (_, failure) = replay_file(file, &targets, Some("link")).unwrap();
    assert_eq!(
        failure, None,
        "link keeps every promise in that configuration"
    );
    // The table lists the families that ran.
    let families: Vec<&str> = report.families.iter().map(|(_, f, _)| f.name()).collect();
    assert_eq!(
        families.len(),
        adversarial::configs::Family::ALL.len(),
        "{families:?}"
    );
    let text = adversarial::scenario::table::text(&report);
    assert!(
        text.contains("(configurations drawn per conversation)"),
        "{text}"
    );
}
