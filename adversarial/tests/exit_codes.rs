//! The command's exit status, the same for every subcommand: 0 when all is
//! as expected (decode and inspect: every file accepted), 1 when a file is
//! refused, a wrong verdict is found or a file is skipped, 2 on a usage or
//! I/O error. And the shapes a script reads: one refusal object, a replay
//! summary, JSON lines.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn adversarial(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adversarial"))
        .args(args)
        .output()
        .unwrap()
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn seed(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(target)
        .join("seed-000.bin")
}

/// A fresh directory for one test, named after it, removed when the test
/// drops it.
fn scratch(test: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("adversarial-{test}-"))
        .tempdir()
        .unwrap()
}

/// The packets seed with one CRC bit flipped, under `dir/packets/`.
fn bad_crc(dir: &Path) -> PathBuf {
    let mut bytes = std::fs::read(seed("packets")).unwrap();
    bytes[0] ^= 1;
    std::fs::create_dir_all(dir.join("packets")).unwrap();
    let path = dir.join("packets").join("bad-crc.bin");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The shrunk failing inputs of a campaign against the broken scene D
/// reader, which indexes past its array (a panic) on a sentinel past the
/// maximum; some of them only over-allocate, which a replay does not see.
fn broken_scene_d_crashes(dir: &Path) -> PathBuf {
    let crashes = dir.join("crashes");
    let output = adversarial(&[
        "campaign",
        "--target",
        "broken-scene-d",
        "--class",
        "out-of-range-sentinel",
        "--cases",
        "3000",
        "--in-process",
        "--quiet",
        "--crash-dir",
        crashes.to_str().unwrap(),
    ]);
    assert_eq!(code(&output), 1, "the campaign finds the broken reader");
    crashes
}

#[test]
fn decode_exits_0_on_acceptance_1_on_refusal_or_a_wrong_verdict_and_2_on_usage() {
    let tmp = scratch("decode");
    let dir = tmp.path();
    let seed = seed("packets");
    let seed = seed.to_str().unwrap();
    // The target comes from the path, as for replay.
    assert_eq!(code(&adversarial(&["decode", seed])), 0);
    assert_eq!(code(&adversarial(&["inspect", seed])), 0);
    let bad = bad_crc(dir);
    let bad = bad.to_str().unwrap();
    let refused = adversarial(&["decode", bad]);
    assert_eq!(code(&refused), 1, "{}", stdout(&refused));
    assert_eq!(code(&adversarial(&["inspect", bad])), 1);
    // One accepted and one refused: 1.
    assert_eq!(code(&adversarial(&["decode", seed, bad])), 1);
    let crashes = broken_scene_d_crashes(dir);
    let wrong = adversarial(&[
        "decode",
        "--target",
        "broken-scene-d",
        crashes.to_str().unwrap(),
    ]);
    assert_eq!(code(&wrong), 1, "{}", stdout(&wrong));
    assert!(
        stdout(&wrong).contains("FAIL panicked"),
        "{}",
        stdout(&wrong)
    );
    assert_eq!(code(&adversarial(&["decode"])), 2, "no file");
    assert_eq!(code(&adversarial(&["decode", "--target", "nope", seed])), 2);
    let missing = dir.join("packets").join("missing.bin");
    assert_eq!(
        code(&adversarial(&["decode", missing.to_str().unwrap()])),
        2
    );
}

#[test]
fn a_refusal_has_one_shape_with_a_numeric_offset_and_no_empty_field() {
    let tmp = scratch("shape");
    let dir = tmp.path();
    let bad = bad_crc(dir);
    let output = adversarial(&["decode", "--json", bad.to_str().unwrap()]);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let error = &json["error"];
    assert_eq!(error["cause"], "bad-crc");
    assert_eq!(error["bit_offset"], 0, "the CRC is refused at bit 0");
    assert_eq!(error["field"], Value::Null);
    assert!(error["message"].as_str().unwrap().contains("CRC"));
    assert_eq!(json["file"], bad.display().to_string());
    // A short packet, in text: the cause and offset once.
    let short = dir.join("packets").join("short.bin");
    std::fs::write(&short, [1u8, 2]).unwrap();
    let text = stdout(&adversarial(&["decode", short.to_str().unwrap()]));
    assert_eq!(text.trim(), "refused: past-end at bit 0", "{text}");
}

#[test]
fn replay_summarises_reports_a_stray_file_and_exits_1() {
    let tmp = scratch("replay");
    let dir = tmp.path();
    let packets = dir.join("packets");
    std::fs::create_dir_all(&packets).unwrap();
    std::fs::copy(seed("packets"), packets.join("seed.bin")).unwrap();
    bad_crc(dir);
    // A file in no target's directory.
    std::fs::write(dir.join("manifest.jsonl"), "{}\n").unwrap();
    let dir_arg = dir.to_str().unwrap();
    let output = adversarial(&["replay", "--in-process", dir_arg]);
    let text = stdout(&output);
    assert_eq!(code(&output), 1, "{text}");
    assert!(text.contains("manifest.jsonl: skipped"), "{text}");
    assert!(
        text.trim_end()
            .ends_with("2 files: 1 accepted, 1 refused (bad-crc 1), 0 failures, 1 skipped"),
        "{text}"
    );
    // The same as JSON lines: one per file, then the summary.
    let output = adversarial(&["replay", "--in-process", "--jsonl", dir_arg]);
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    let summary = &lines[3]["summary"];
    assert_eq!(summary["files"], 2);
    assert_eq!(summary["refused"]["bad-crc"], 1);
    assert_eq!(summary["skipped"], 1);
    let refused = lines.iter().find(|l| l["verdict"] == "refused").unwrap();
    assert_eq!(refused["error"]["bit_offset"], 0);
    // Without the stray file: 0.
    std::fs::remove_file(dir.join("manifest.jsonl")).unwrap();
    assert_eq!(code(&adversarial(&["replay", "--in-process", dir_arg])), 0);
    // A wrong verdict: 1, in a worker too, and counted as a failure.
    let crashes = broken_scene_d_crashes(dir);
    let wrong = adversarial(&["replay", crashes.to_str().unwrap()]);
    assert_eq!(code(&wrong), 1, "{}", stdout(&wrong));
    let summary = stdout(&wrong).lines().last().unwrap().to_string();
    assert!(!summary.contains(" 0 failures"), "{summary}");
    assert!(summary.ends_with(" 0 skipped"), "{summary}");
    assert_eq!(code(&adversarial(&["replay"])), 2, "no path");
}

#[test]
fn campaign_exits_0_when_every_verdict_is_owed_and_1_when_not() {
    let ok = adversarial(&[
        "campaign",
        "--target",
        "packets",
        "--cases",
        "200",
        "--in-process",
        "--quiet",
    ]);
    assert_eq!(code(&ok), 0);
    let tmp = scratch("campaign");
    let dir = tmp.path();
    broken_scene_d_crashes(dir); // asserts the exit code 1
    assert_eq!(
        code(&adversarial(&["campaign", "--class", "no-such-class"])),
        2
    );
}

#[test]
fn a_budget_of_zero_is_a_usage_error_not_an_empty_run() {
    for (args, flag) in [
        (["campaign", "--seconds", "0"], "--seconds"),
        (["campaign", "--seconds=-1", "--quiet"], "--seconds"),
        (["campaign", "--seconds", "NaN"], "--seconds"),
        (["campaign", "--cases", "0"], "--cases"),
        (["campaign", "--jobs", "0"], "--jobs"),
        (
            ["campaign", "--case-deadline-ms", "0"],
            "--case-deadline-ms",
        ),
    ] {
        let output = adversarial(&args);
        assert_eq!(code(&output), 2, "{args:?}");
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains(flag), "{args:?}: {said}");
    }
    let flood = adversarial(&[
        "flood",
        "--target",
        "packets",
        "--endpoint",
        "127.0.0.1:9",
        "--control",
        "127.0.0.1:9",
        "--seconds",
        "0",
    ]);
    assert_eq!(code(&flood), 2);
}

#[test]
fn a_missing_file_or_a_broken_link_is_an_io_error_that_names_it() {
    let tmp = scratch("missing");
    let dir = tmp.path();
    let missing = dir.join("missing.bin");
    let missing = missing.to_str().unwrap();
    for command in ["decode", "inspect", "replay"] {
        let output = adversarial(&[command, missing]);
        assert_eq!(code(&output), 2, "{command}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("missing.bin"),
            "{command}"
        );
    }
    let linked = dir.join("packets");
    std::fs::create_dir_all(&linked).unwrap();
    std::fs::copy(seed("packets"), linked.join("good.bin")).unwrap();
    std::os::unix::fs::symlink(dir.join("nowhere.bin"), linked.join("broken.bin")).unwrap();
    let output = adversarial(&["decode", "--target", "packets", linked.to_str().unwrap()]);
    assert_eq!(code(&output), 2);
    assert!(String::from_utf8_lossy(&output.stderr).contains("broken.bin"));
}

#[test]
fn a_campaign_that_judges_no_case_is_a_usage_error_that_says_why() {
    // A save has no index subset: the class finds nothing to lie in.
    let output = adversarial(&[
        "campaign",
        "--target",
        "save",
        "--class",
        "duplicate-index",
        "--cases",
        "10",
        "--quiet",
    ]);
    assert_eq!(code(&output), 2);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("no case judged"), "{said}");
    assert!(said.contains("duplicate-index"), "{said}");
    assert!(said.contains("save"), "{said}");
    assert!(!stdout(&output).contains("every verdict as owed"));
}

#[test]
fn an_output_path_that_cannot_be_written_fails_before_the_campaign_runs() {
    let tmp = scratch("unwritable");
    let missing = tmp.path().join("no-such-dir");
    for flag in ["--html", "--json"] {
        let path = missing.join("out");
        let started = std::time::Instant::now();
        // A budget the run would take minutes over, were it started.
        let output = adversarial(&[
            "campaign",
            "--seconds",
            "600",
            "--quiet",
            flag,
            path.to_str().unwrap(),
        ]);
        assert_eq!(code(&output), 2, "{flag}");
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains("no-such-dir"), "{flag}: {said}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "{flag}: the campaign ran before the path was checked"
        );
    }
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_adversarial"))
        .args(["inspect", "--target", "scenes"])
        .arg(seed("scenes").parent().unwrap())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("seed-000.bin"), "{first}");
    // The reader goes, as `| head -1` does.
    let output = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(141), "{said}");
    assert!(said.is_empty(), "a closed pipe printed: {said}");
}
