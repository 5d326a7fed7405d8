//! `inspect --svg` of any file up to its target's maximum size stays under
//! 16 MB: a refused file is drawn up to its refusal and a few rows after
//! it, and an accepted one, however long, is written as it is drawn.
//!
//! The kernel's peak for a child counts the memory of the process that
//! spawned it, so the commands are measured again from a small child of
//! this test binary, which does nothing else.

use adversarial::files::max_bytes;
use adversarial::picture::{ROWS_AFTER_REFUSAL, ROW_BITS};
use adversarial::target::{Target, Verdict};
use arbitrary::Unstructured;
use std::path::Path;
use std::process::Command;

const PEAK_LIMIT_BYTES: i64 = 16 << 20;

/// The largest resident set of any child this process has waited for.
fn children_peak_bytes() -> i64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given and keeps no pointer.
    let status = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(status, 0);
    usage.ru_maxrss * 1024 // kilobytes on Linux
}

/// Set to a file of commands, one a line, in the child run of [`measure`].
const COMMANDS: &str = "ADVERSARIAL_PICTURE_COMMANDS";

/// The arguments of `inspect --svg` of `file` for `target`.
fn inspect_args(dir: &Path, target: &str, file: &Path) -> Vec<String> {
    let svg = dir.join(format!("{target}.svg"));
    ["inspect", "--target", target, "--svg"]
        .map(String::from)
        .into_iter()
        .chain([svg, file.to_path_buf()].map(|p| p.to_str().unwrap().to_string()))
        .collect()
}

/// In a child of this binary: runs each command of the file named by
/// [`COMMANDS`] (arguments split by tabs) and prints the largest peak.
#[test]
fn measure() {
    let Some(commands) = std::env::var_os(COMMANDS) else {
        return;
    };
    for line in std::fs::read_to_string(commands).unwrap().lines() {
        Command::new(env!("CARGO_BIN_EXE_adversarial"))
            .args(line.split('\t'))
            .output()
            .unwrap();
    }
    println!("\npeak {}", children_peak_bytes());
}

/// `inspect --svg` of `file` for `target`: the picture's text.
fn picture(dir: &Path, target: &str, file: &Path, commands: &mut Vec<String>) -> String {
    let args = inspect_args(dir, target, file);
    let output = Command::new(env!("CARGO_BIN_EXE_adversarial"))
        .args(&args)
        .output()
        .unwrap();
    commands.push(args.join("\t"));
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{target}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read_to_string(dir.join(format!("{target}.svg"))).unwrap()
}

/// The largest of many generated packets of `target`.
fn largest_sample(target: &dyn Target) -> Vec<u8> {
    (0..200u32)
        .filter_map(|seed| {
            let entropy: Vec<u8> = (0..16 * 1024u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(97)) as u8)
                .collect();
            target.generate(&mut Unstructured::new(&entropy)).ok()
        })
        .map(|s| s.bytes)
        .max_by_key(Vec::len)
        .unwrap()
}

#[test]
fn a_picture_of_any_file_up_to_the_maximum_stays_under_16_mb() {
    let dir = tempfile::tempdir().unwrap();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut commands = Vec::new();
    for target in adversarial::targets::all() {
        let name = target.name();
        // Pseudo-random bytes of the target's maximum length: refused early.
        let noise: Vec<u8> = (0..max_bytes(target.as_ref()))
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        let file = dir.path().join(format!("{name}-noise.bin"));
        std::fs::write(&file, &noise).unwrap();
        let svg = picture(dir.path(), name, &file, &mut commands);
        let inspection = target.inspect(&noise);
        let Verdict::Refused(refusal) = &inspection.verdict else {
            panic!("{name}: noise accepted");
        };
        let refused_row = refusal.at.unwrap_or(0) / ROW_BITS;
        let rows = svg.matches(">byte ").count() as u64;
        let all_rows = (noise.len() as u64 * 8).div_ceil(ROW_BITS);
        assert_eq!(
            rows,
            all_rows.min(refused_row + 1 + ROWS_AFTER_REFUSAL),
            "{name}: refused in row {refused_row}"
        );
        assert!(svg.contains("class=\"refusal\""), "{name}");
        if rows < all_rows {
            assert!(svg.contains("are not drawn"), "{name}");
        }
        // The largest packet the generator makes: accepted, every row drawn.
        let packet = largest_sample(target.as_ref());
        let file = dir.path().join(format!("{name}-largest.bin"));
        std::fs::write(&file, &packet).unwrap();
        let svg = picture(dir.path(), name, &file, &mut commands);
        let rows = svg.matches(">byte ").count() as u64;
        assert_eq!(
            rows,
            (packet.len() as u64 * 8).div_ceil(ROW_BITS).max(1),
            "{name}"
        );
        assert!(!svg.contains("class=\"refusal\""), "{name}");
    }
    let list = dir.path().join("commands");
    std::fs::write(&list, commands.join("\n")).unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "measure", "--nocapture", "--test-threads", "1"])
        .env(COMMANDS, &list)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let peak: i64 = said
        .lines()
        .find_map(|l| l.strip_prefix("peak "))
        .unwrap_or_else(|| panic!("no peak measured: {said}"))
        .parse()
        .unwrap();
    assert!(peak < PEAK_LIMIT_BYTES, "a picture took {} MB", peak >> 20);
}
