//! A file far larger than any packet costs the commands no more memory than
//! the largest packet: each reads at most one byte past its target's
//! maximum, refuses the file as too large, and draws nothing of it.
//!
//! Alone in its test binary: the peak memory asked of the kernel is the
//! largest of this process's children, so no other test's run may share it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FILE_BYTES: usize = 100 << 20;
const PEAK_LIMIT_BYTES: i64 = 64 << 20;

fn adversarial(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adversarial"))
        .args(args)
        .output()
        .unwrap()
}

/// 100 MB of pseudo-random bytes, under a directory named after `target`.
fn big_file(dir: &Path, target: &str) -> PathBuf {
    let folder = dir.join(target);
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("big.bin");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut chunk = vec![0u8; 1 << 16];
    for _ in 0..FILE_BYTES / chunk.len() {
        for byte in &mut chunk {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            *byte = (state >> 56) as u8;
        }
        out.write_all(&chunk).unwrap();
    }
    out.flush().unwrap();
    path
}

/// The largest resident set of any child this process has waited for.
fn children_peak_bytes() -> i64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given and keeps no pointer.
    let status = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(status, 0);
    usage.ru_maxrss * 1024 // kilobytes on Linux
}

#[test]
fn a_100_mb_file_is_refused_as_too_large_within_64_mb() {
    let dir = std::env::temp_dir().join(format!("adversarial-big-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for target in ["scenes", "save"] {
        let file = big_file(&dir, target);
        let file = file.to_str().unwrap();
        let svg = dir.join(format!("{target}.svg"));
        let runs = [
            adversarial(&["decode", file]),
            adversarial(&["decode", "--json", file]),
            adversarial(&["inspect", "--svg", svg.to_str().unwrap(), file]),
            adversarial(&["replay", file]),
            adversarial(&["replay", "--in-process", file]),
        ];
        for output in &runs {
            let said = String::from_utf8_lossy(&output.stdout);
            assert!(
                said.contains("too-large") || said.contains("too large"),
                "{target}: {said}"
            );
        }
        // decode and inspect: a refused file; replay: a refusal is no failure.
        let codes: Vec<_> = runs.iter().map(|o| o.status.code()).collect();
        assert_eq!(
            codes,
            [Some(1), Some(1), Some(1), Some(0), Some(0)],
            "{target}"
        );
        let drawn = std::fs::metadata(&svg).unwrap().len();
        assert!(
            drawn < 64 << 10,
            "{target}: a {drawn}-byte picture of an unread file"
        );
        std::fs::remove_file(file).unwrap();
    }
    let peak = children_peak_bytes();
    assert!(peak < PEAK_LIMIT_BYTES, "a command's peak was {peak} bytes");
    let _ = std::fs::remove_dir_all(&dir);
}
