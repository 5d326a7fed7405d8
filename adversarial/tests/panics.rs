//! The command's panic hook: a reader's panic that the harness catches is
//! a verdict and prints nothing; any other panic prints its message; a
//! closed standard output ends the process quietly with status 141. Each
//! case runs in a child process of this test binary, with the hook set.

use std::process::{Command, Output, Stdio};

/// Names the child's part in [`child`].
const PART: &str = "ADVERSARIAL_PANICS_CHILD";

/// Runs this binary's `child` test alone, as `part`.
fn run_child(part: &str, stdout: Stdio) -> std::process::Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads", "1"])
        .env(PART, part)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn child() {
    let Some(part) = std::env::var_os(PART) else {
        return;
    };
    adversarial::panics::install();
    match part.to_str().unwrap() {
        "bug" => panic!("a bug in the command itself"),
        "caught" => {
            let caught = adversarial::panics::caught(|| panic!("a reader's panic"));
            assert!(caught.is_err());
        }
        "pipe" => {
            for line in 0..1_000_000 {
                println!("line {line}");
            }
            unreachable!("a million lines written to a closed pipe");
        }
        other => unreachable!("no part {other}"),
    }
}

#[test]
fn a_panic_of_the_command_prints_its_message() {
    let output = run_child("bug", Stdio::null()).wait_with_output().unwrap();
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("a bug in the command itself"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_caught_panic_is_the_callers_to_report_and_prints_nothing() {
    let output = run_child("caught", Stdio::null())
        .wait_with_output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        !stderr(&output).contains("a reader's panic"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_closed_pipe_exits_141_and_prints_nothing() {
    use std::io::Read;
    let mut child = run_child("pipe", Stdio::piped());
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(adversarial::panics::CLOSED_PIPE_STATUS),
        "{}",
        stderr(&output)
    );
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
    assert!(
        !stderr(&output).contains("Broken pipe"),
        "{}",
        stderr(&output)
    );
}
