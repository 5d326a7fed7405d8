//! Instructions a child run of this benchmark binary executes, counted by
//! `valgrind --tool=cachegrind`: a figure that does not move from run to
//! run, for differences smaller than wall-clock noise.

use std::process::Command;

/// Whether valgrind is missing from the PATH; if so, says so, for the
/// caller to measure nothing.
pub fn missing() -> bool {
    let missing = Command::new("valgrind").arg("--version").output().is_err();
    if missing {
        println!("valgrind is not installed: nothing measured (apt-get install valgrind)");
    }
    missing
}

/// Instructions executed by this binary run again with `args`.
pub fn instructions(args: &[String]) -> u64 {
    let exe = std::env::current_exe().expect("this binary's path");
    let output = Command::new("valgrind")
        .args(["--tool=cachegrind", "--cache-sim=no"])
        .arg("--cachegrind-out-file=/dev/null")
        .arg(exe)
        .args(args)
        .output()
        .expect("valgrind runs");
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "valgrind failed:\n{report}");
    // The summary line reads `==pid== I   refs:      12,345,678`.
    report
        .lines()
        .find_map(|line| {
            let (_, count) = line.split_once("I   refs:")?;
            count.trim().replace(',', "").parse().ok()
        })
        .unwrap_or_else(|| panic!("no instruction count in:\n{report}"))
}
