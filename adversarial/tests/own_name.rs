//! A binary built on `cli::main` speaks in its own name: its help, its
//! usage, its errors and the replay commands of its campaign page say
//! `attack`, not `adversarial`. The test runs the `adversarial` binary
//! through a link named `attack`, as a user's own binary would be run.

use std::path::PathBuf;
use std::process::Command;

fn attack() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("attack");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_adversarial"), &link).unwrap();
    (dir, link)
}

fn run(program: &PathBuf, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(program).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn help_usage_and_errors_say_the_binary_s_own_name() {
    let (_dir, attack) = attack();
    let (code, help, _) = run(&attack, &["--help"]);
    assert_eq!(code, Some(0));
    assert!(help.contains("Start with `attack campaign`"), "{help}");
    assert!(help.contains("Usage: attack <COMMAND>"), "{help}");
    assert!(!help.contains("adversarial campaign"), "{help}");
    let (_, campaign_help, _) = run(&attack, &["campaign", "--help"]);
    assert!(
        campaign_help.contains("  attack campaign --seconds 600"),
        "{campaign_help}"
    );
    assert!(!campaign_help.contains("adversarial "), "{campaign_help}");
    let (code, _, error) = run(&attack, &["decode", "/nonexistent/x.bin"]);
    assert_eq!(code, Some(2));
    assert!(error.starts_with("attack: /nonexistent/x.bin"), "{error}");
    let (code, _, usage) = run(&attack, &["no-such-command"]);
    assert_eq!(code, Some(2));
    assert!(usage.contains("Usage: attack <COMMAND>"), "{usage}");
}

#[test]
fn the_campaign_page_replays_with_the_binary_s_own_name() {
    let (dir, attack) = attack();
    let page = dir.path().join("campaign.html");
    let crashes = dir.path().join("crashes");
    let (code, _, stderr) = run(
        &attack,
        &[
            "campaign",
            "--target",
            "broken-scene-d",
            "--cases",
            "300",
            "--in-process",
            "--quiet",
            "--crash-dir",
            crashes.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(1), "the broken reader fails: {stderr}");
    let html = std::fs::read_to_string(&page).unwrap();
    let replay = format!("{} replay --target broken-scene-d ", attack.display());
    assert!(html.contains(&replay), "no {replay:?} in the page");
    assert!(!html.contains("adversarial replay"));
}
