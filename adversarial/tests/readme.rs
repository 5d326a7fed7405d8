//! The README stays short, and every code block it shows is a copy of a
//! file that CI builds, so the starter cannot drift from code that works.

use std::path::Path;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

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
