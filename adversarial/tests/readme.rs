//! The README stays short, and every code block it shows is a copy of a
//! file that CI builds, so the starter cannot drift from code that works.
//! The starter crate is shown whole: a crate made from the README's blocks
//! alone builds, passes its tests, runs its binary and checks its fuzz
//! target.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The crate the README shows whole, file by file.
const STARTER: &str = "adversarial/examples/starter/";

fn readme() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap()
}

/// Fenced blocks as (language, lines).
fn blocks(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(lang)) => open = Some((lang.trim().to_string(), Vec::new())),
            (Some(_), Some(_)) => out.extend(open.take()),
            (Some((_, lines)), None) => lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a code block is never closed");
    out
}

/// The file a block says it was copied from, on its first line.
fn source(lang: &str, lines: &[String]) -> Option<String> {
    let marker = if lang == "toml" { "# " } else { "// " };
    let first = lines.first()?.strip_prefix(marker)?;
    Path::new(ROOT)
        .join(first)
        .is_file()
        .then(|| first.to_string())
}

/// The parts of a block between `// ...` elisions, each of which must be
/// found whole, as consecutive lines, in its file.
fn parts(lines: &[String]) -> Vec<String> {
    lines
        .split(|l| l.trim() == "// ..." || l.trim() == "# ...")
        .filter(|p| !p.is_empty())
        .map(|p| p.join("\n"))
        .collect()
}

#[test]
fn the_readme_reads_in_three_minutes() {
    let words = readme().split_whitespace().count();
    assert!(words <= 1200, "README.md has {words} words; at most 1,200");
}

#[test]
fn the_readme_opens_with_the_two_commands() {
    let text = readme();
    let (lang, first) = blocks(&text).into_iter().next().unwrap();
    assert_eq!(lang, "sh");
    assert!(first[0].starts_with("cargo run --release -p gamepacket-adversarial -- campaign "));
    assert!(first[1].starts_with("cargo test --workspace "));
    let ci = std::fs::read_to_string(Path::new(ROOT).join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test --workspace"),
        ".ci/run must run the README's test command"
    );
}

#[test]
fn every_rust_and_toml_block_is_a_copy_of_a_built_file() {
    let text = readme();
    let mut copies = 0;
    for (lang, lines) in blocks(&text) {
        if lang != "rust" && lang != "toml" {
            continue;
        }
        let file = source(&lang, &lines).unwrap_or_else(|| {
            panic!(
                "a {lang} block does not start with the file it copies:\n{}",
                lines.join("\n")
            )
        });
        let body = std::fs::read_to_string(Path::new(ROOT).join(&file)).unwrap();
        if file.starts_with(STARTER) {
            assert_eq!(
                lines[1..].join("\n"),
                body.trim_end(),
                "README's copy of {file} is not the whole file"
            );
        }
        for part in parts(&lines[1..]) {
            assert!(
                body.contains(&part),
                "README's copy of {file} differs from the file:\n{part}"
            );
        }
        copies += 1;
    }
    assert!(copies >= 7, "only {copies} copied blocks");
}

#[test]
fn a_changed_copy_is_caught() {
    let lines: Vec<String> = [
        "// adversarial/examples/game/src/bin/attack.rs",
        "fn main() -> ExitCode {",
    ]
    .map(String::from)
    .to_vec();
    let file = source("rust", &lines).unwrap();
    let body = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
    assert!(!parts(&lines[1..]).iter().all(|p| body.contains(p)));
    assert_eq!(source("rust", &["// no/such/file.rs".to_string()]), None);
}

/// The starter's files the README shows, by their path in the crate.
fn starter_blocks() -> Vec<(String, String)> {
    blocks(&readme())
        .into_iter()
        .filter_map(|(lang, lines)| {
            let file = source(&lang, &lines)?;
            let inside = file.strip_prefix(STARTER)?.to_string();
            Some((inside, lines[1..].join("\n") + "\n"))
        })
        .collect()
}

/// Every file of the starter crate, by its path in the crate, but what
/// cargo and cargo-fuzz write there.
fn starter_files(dir: &Path, inside: &str, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        let path = format!("{inside}{name}");
        if [
            "target",
            "corpus",
            "artifacts",
            "coverage",
            "Cargo.lock",
            ".gitignore",
        ]
        .contains(&name.as_str())
        {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            starter_files(&entry.path(), &format!("{path}/"), out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn the_readme_shows_every_file_of_the_starter() {
    let mut files = Vec::new();
    starter_files(&Path::new(ROOT).join(STARTER), "", &mut files);
    files.sort();
    let mut shown: Vec<String> = starter_blocks().into_iter().map(|(f, _)| f).collect();
    shown.sort();
    assert_eq!(shown, files);
}

/// A manifest's line with its `path` made absolute where it leaves the
/// crate: what a user does in pointing the paths at their clone.
fn pointed_at_the_clone(line: &str, manifest_dir: &Path, crate_dir: &Path) -> String {
    let Some((before, rest)) = line.split_once("path = \"") else {
        return line.to_string();
    };
    let (path, after) = rest.split_once('"').unwrap();
    let target = manifest_dir.join(path).canonicalize().unwrap();
    if target.starts_with(crate_dir) {
        return line.to_string();
    }
    format!("{before}path = \"{}\"{after}", target.display())
}

/// Runs cargo in `dir` with `args`, the scratch target directory, and
/// returns its standard output, failing the test with everything cargo
/// said when it fails.
fn cargo(dir: &Path, args: &[&str]) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            Path::new(ROOT).join("target/readme-starter"),
        )
        .output()
        .unwrap();
    let said = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "cargo {args:?} in {}:\n{said}",
        dir.display()
    );
    said
}

#[test]
fn a_crate_made_from_the_readme_alone_builds_tests_runs_and_fuzz_checks() {
    let starter = Path::new(ROOT).join(STARTER).canonicalize().unwrap();
    let scratch = tempfile::Builder::new()
        .prefix("readme-starter-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    for (inside, text) in starter_blocks() {
        let path: PathBuf = dir.join(&inside);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text = if inside.ends_with("Cargo.toml") {
            let manifest_dir = starter.join(&inside).parent().unwrap().to_path_buf();
            text.lines()
                .map(|l| pointed_at_the_clone(l, &manifest_dir, &starter) + "\n")
                .collect()
        } else {
            text
        };
        std::fs::write(path, text).unwrap();
    }
    // The versions this workspace is tested with, rather than the newest.
    for (from, to) in [
        ("Cargo.lock", "Cargo.lock"),
        (
            "adversarial/examples/game/fuzz/Cargo.lock",
            "fuzz/Cargo.lock",
        ),
    ] {
        std::fs::copy(Path::new(ROOT).join(from), dir.join(to)).unwrap();
    }
    let tested = cargo(dir, &["test"]);
    for test in [
        "every_lie_gets_the_verdict_it_is_owed",
        "a_packet_reads_back_and_a_cut_one_is_refused",
    ] {
        assert!(tested.contains(&format!("test {test} ... ok")), "{tested}");
    }
    let ran = cargo(
        dir,
        &[
            "run",
            "--features",
            "attack",
            "--bin",
            "attack",
            "--",
            "campaign",
            "--cases",
            "2000",
            "--quiet",
        ],
    );
    assert!(ran.contains("every verdict as owed"), "{ran}");
    cargo(&dir.join("fuzz"), &["check", "--bins"]);
}
