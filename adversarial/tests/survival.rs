//! The harness survives what it finds: readers that abort, overflow their
//! stack, run out of memory or loop forever (the fixtures in
//! `adversarial::fixtures::Dying`) do not end the campaign. Each such case
//! is counted as its own verdict, shrunk, written to the crash folder, and
//! replays as the failure it is; the campaign goes on to the end.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn adversarial() -> Command {
    Command::new(env!("CARGO_BIN_EXE_adversarial"))
}

/// A fresh folder of this test's own (the tests run in parallel).
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "adversarial-survival-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The tally of `target` and `class` in a campaign's JSON.
fn tally<'a>(json: &'a Value, target: &str, class: &str) -> &'a Value {
    json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["target"] == target && r["class"] == class)
        .map(|r| &r["tally"])
        .unwrap_or_else(|| panic!("no row for {target} / {class}"))
}

#[test]
fn a_campaign_outlives_aborts_stack_overflows_out_of_memory_and_hangs() {
    let dir = scratch("readers");
    let json_path = dir.join("campaign.json");
    let output = adversarial()
        .args([
            "campaign",
            "--quiet",
            "--cases",
            "60",
            "--case-deadline-ms",
            "200",
        ])
        .args(["--target", "aborts", "--target", "overflows-stack"])
        .args(["--target", "hangs", "--target", "runs-out-of-memory"])
        .args(["--class", "bad-check", "--class", "truncate-bytes"])
        .args(["--class", "unknown-packet-type", "--class", "bad-crc"])
        .arg("--crash-dir")
        .arg(dir.join("crashes"))
        .arg("--json")
        .arg(&json_path)
        .output()
        .unwrap();
    // Failures found: exit 1, not a crash of the campaign itself.
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let json: Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();

    let died = |target, class| tally(&json, target, class)["aborted"].as_u64().unwrap();
    assert!(died("aborts", "bad-check") > 0);
    assert!(died("overflows-stack", "truncate-bytes") > 0);
    let oom = tally(&json, "runs-out-of-memory", "bad-crc")["out_of_memory"]
        .as_u64()
        .unwrap();
    assert!(oom > 0);
    let hung = tally(&json, "hangs", "unknown-packet-type")["timed_out"]
        .as_u64()
        .unwrap();
    assert!(hung > 0);
    // The other classes of the same targets ran to the end, as owed.
    for target in ["aborts", "overflows-stack", "hangs", "runs-out-of-memory"] {
        let bad_crc = tally(&json, target, "bad-crc");
        if target != "runs-out-of-memory" {
            assert_eq!(bad_crc["as_owed"], bad_crc["cases"], "{target}");
        }
    }
    let failures = json["failures"].as_array().unwrap();
    for (target, words) in [
        ("aborts", "ABORTED"),
        ("overflows-stack", "overflowed its stack"),
        ("runs-out-of-memory", "OUT OF MEMORY"),
        ("hangs", "TIMED OUT"),
    ] {
        let failure = failures
            .iter()
            .find(|f| f["target"] == target)
            .unwrap_or_else(|| panic!("no failure kept for {target}"));
        let outcome = failure["outcome"].as_str().unwrap();
        assert!(outcome.contains(words), "{target}: {outcome}");
        // Written, and replayable as the same failure by a worker.
        let file = failure["file"]
            .as_str()
            .expect("written to the crash folder");
        let replay = adversarial()
            .args(["replay", "--target", target, file])
            .output()
            .unwrap();
        assert_eq!(replay.status.code(), Some(1), "{target}: {replay:?}");
        let said = String::from_utf8_lossy(&replay.stdout);
        assert!(
            said.contains("FAIL died") || said.contains("FAIL hung"),
            "{said}"
        );
    }
    // The stack overflow shrinks to nothing: an empty input overflows too.
    let overflow = failures
        .iter()
        .find(|f| f["target"] == "overflows-stack")
        .unwrap();
    assert_eq!(overflow["bytes"], "");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The row of `endpoint` and `class` among a campaign's conversations.
fn conversation_row<'a>(json: &'a Value, endpoint: &str, class: &str) -> &'a Value {
    json["conversations"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["endpoint"] == endpoint && r["class"] == class)
        .unwrap_or_else(|| panic!("no row for {endpoint} / {class}"))
}

#[test]
fn a_campaign_outlives_endpoints_that_abort_overflow_their_stack_or_run_out_of_memory() {
    let dir = scratch("endpoints");
    let json_path = dir.join("campaign.json");
    let dying = [
        ("link-aborts", "reserved-bits", "died", "SIGABRT"),
        (
            "link-overflows-stack",
            "empty-datagram",
            "died",
            "overflowed its stack",
        ),
        (
            "link-runs-out-of-memory",
            "truncated-header",
            "out of memory",
            "memory allocation of",
        ),
        ("link-hangs", "fragment-prefix", "hung", "no answer within"),
    ];
    let mut command = adversarial();
    command.args([
        "campaign",
        "--quiet",
        "--cases",
        "84",
        "--case-deadline-ms",
        "300",
    ]);
    // Healthy targets before and after the dying ones: each runs to its end.
    command.args(["--target", "packets", "--target", "link"]);
    for (endpoint, ..) in dying {
        command.args(["--target", endpoint]);
    }
    command.args(["--target", "save"]);
    let output = command
        .arg("--crash-dir")
        .arg(dir.join("crashes"))
        .arg("--json")
        .arg(&json_path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let json: Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();

    // Every conversation of every endpoint ran: 84 each, 4 of each class.
    let rows = json["conversations"]["rows"].as_array().unwrap();
    for endpoint in ["link"].into_iter().chain(dying.map(|d| d.0)) {
        let cases: u64 = rows
            .iter()
            .filter(|r| r["endpoint"] == endpoint)
            .map(|r| r["cases"].as_u64().unwrap())
            .sum();
        assert!(cases >= 80, "{endpoint}: {cases} conversations");
    }
    for row in rows.iter().filter(|r| r["endpoint"] == "link") {
        assert_eq!(row["as_owed"], row["cases"], "{row}");
    }
    for target in ["packets", "save"] {
        let cases: u64 = json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["target"] == target)
            .map(|r| r["tally"]["cases"].as_u64().unwrap())
            .sum();
        assert!(cases >= 84, "{target}: {cases} cases");
    }
    let kept = json["conversations"]["failures"].as_array().unwrap();
    for (endpoint, class, kind, words) in dying {
        let row = conversation_row(&json, endpoint, class);
        let count = row["broken"][kind].as_u64().unwrap();
        assert!(count > 0, "{endpoint} / {class}: {row}");
        assert_eq!(count, row["cases"].as_u64().unwrap(), "{row}");
        // Its other classes ran as owed, after the deaths.
        let other = conversation_row(&json, endpoint, "loss-across-wrap");
        assert_eq!(other["as_owed"], other["cases"], "{endpoint}: {other}");
        // Kept, shrunk, written, and replayed in a worker as the same failure.
        let failure = kept
            .iter()
            .find(|f| f["endpoint"] == endpoint && f["broken"] == kind)
            .unwrap_or_else(|| panic!("no failure kept for {endpoint}: {kept:?}"));
        assert!(
            failure["what"].as_str().unwrap().contains(words),
            "{failure}"
        );
        let file = failure["file"].as_str().expect("written");
        let replay = adversarial().args(["replay", file]).output().unwrap();
        assert_eq!(replay.status.code(), Some(1), "{endpoint}: {replay:?}");
        let said = String::from_utf8_lossy(&replay.stdout);
        assert!(said.contains(&format!("FAIL {kind}")), "{said}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A worker holds answers back; a hang in the middle of a batch must
/// still cost one deadline, be pinned on its own case, and leave the
/// cases around it answered as they are.
#[test]
fn a_hang_in_a_batch_is_pinned_on_its_case_for_one_deadline() {
    use adversarial::mutate::{self, Class};
    use adversarial::oracle::Observation;
    use adversarial::worker::{Isolation, Worker};
    use arbitrary::Unstructured;

    let hangs = adversarial::targets::by_name("hangs").unwrap();
    let sample = hangs.generate(&mut Unstructured::new(&[7; 4096])).unwrap();
    let case = |class| {
        let mut u = Unstructured::new(&[3; 4096]);
        mutate::target_cases(hangs.as_ref(), class, &sample, &hangs.framing(), &mut u)
            .into_iter()
            .next()
            .unwrap()
            .bytes
    };
    let (valid, unknown) = (case(Class::Valid), case(Class::UnknownPacketType));
    let mut inputs: Vec<&[u8]> = vec![&valid; 40];
    inputs.push(&unknown);
    inputs.extend(vec![&valid[..]; 40]);
    let isolation = Isolation {
        command: Box::new(|target| {
            let mut command = adversarial();
            command.args(["__worker", "--target", target]);
            command
        }),
        deadline: std::time::Duration::from_millis(300),
    };
    let mut worker = Worker::new(&isolation, "hangs");
    let seen = worker.observe_all(&inputs);
    assert_eq!(seen.len(), inputs.len());
    for (i, observation) in seen.iter().enumerate() {
        match observation {
            Observation::TimedOut(_) => assert_eq!(i, 40, "{seen:?}"),
            Observation::Read { .. } => assert_ne!(i, 40, "{observation:?}"),
            other => panic!("case {i}: {other:?}"),
        }
    }
    // The batch, the unanswered cases one at a time up to the hang, then
    // the rest: three workers, however many answers the first held back.
    let traffic = worker.traffic();
    assert!(traffic.started <= 3, "{traffic:?}");
}
