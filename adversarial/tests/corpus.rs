//! Replays every committed corpus file: seeds must be accepted and
//! re-encode to their own bytes; regressions must be refused or accepted
//! canonically, and never panic.

use adversarial::replay::{files_under, replay, target_for_path, Replayed};
use adversarial::target::Target;
use adversarial::targets;
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

#[test]
fn every_target_has_seeds() {
    for target in targets::all() {
        let dir = corpus_dir().join(target.name());
        let seeds = files_under(std::slice::from_ref(&dir)).unwrap();
        assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    }
}

#[test]
fn every_corpus_file_replays_cleanly() {
    let files = files_under(&[corpus_dir()]).unwrap();
    assert!(
        files.len() >= targets::all().len(),
        "corpus nearly empty: {files:?}"
    );
    let mut failures = Vec::new();
    let (all, fixtures) = (targets::all(), targets::fixtures());
    let known: Vec<&dyn Target> = all.iter().chain(&fixtures).map(AsRef::as_ref).collect();
    for file in &files {
        let target = target_for_path(file, &known)
            .unwrap_or_else(|| panic!("{}: no target", file.display()));
        let bytes = std::fs::read(file).unwrap();
        let verdict = replay(target, &bytes);
        let is_seed = file
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("seed-");
        if verdict.is_failure() || (is_seed && verdict != Replayed::Accepted) {
            failures.push(format!("{}: {verdict}", file.display()));
        }
    }
    println!("replayed {} corpus files", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What every committed packet means is pinned: its golden file holds
/// what `decode --json` says of it (the decoded value with its floats'
/// bits and its quantized fields' wire integers, or the refusal). A change to the reader and
/// the writer alike, which the oracle cannot see, fails here.
#[test]
fn every_corpus_file_means_what_its_golden_file_says() {
    use adversarial::corpus::{golden_document, golden_orphans, golden_path, golden_text};
    let (all, fixtures) = (targets::all(), targets::fixtures());
    let known: Vec<&dyn Target> = all.iter().chain(&fixtures).map(AsRef::as_ref).collect();
    let mut changed = Vec::new();
    let files = files_under(&[corpus_dir()]).unwrap();
    for file in &files {
        let target = target_for_path(file, &known).unwrap();
        let actual = golden_document(target, &std::fs::read(file).unwrap());
        let golden = golden_path(&corpus_dir(), file);
        match std::fs::read_to_string(&golden) {
            Err(_) => changed.push(format!("{}: no golden file", file.display())),
            // Compared as text: JSON's float parsing may round, its
            // printing does not.
            Ok(text) => {
                if text != golden_text(&actual) {
                    changed.push(format!("{}: means something else now", file.display()));
                }
            }
        }
    }
    let orphans = golden_orphans(&corpus_dir());
    assert!(
        orphans.is_empty(),
        "golden files without a corpus file: {orphans:?}"
    );
    assert!(
        changed.is_empty(),
        "{}\nIf the change is on purpose: cargo run -p gamepacket-adversarial -- seed-corpus --update-golden, then review the diff.",
        changed.join("\n")
    );
    println!(
        "{} corpus files mean what their golden files say",
        files.len()
    );
}

/// A golden file carries the whole value: every accepted corpus file is
/// rebuilt from its golden value alone and encodes to its own bytes (a
/// save of an older revision to the latest revision's save of the same
/// state, which reads back).
#[test]
fn every_accepted_corpus_file_is_rebuilt_from_its_golden_value() {
    use adversarial::corpus::golden_path;
    let (all, fixtures) = (targets::all(), targets::fixtures());
    let known: Vec<&dyn Target> = all.iter().chain(&fixtures).map(AsRef::as_ref).collect();
    let mut rebuilt = 0;
    for file in files_under(&[corpus_dir()]).unwrap() {
        let target = target_for_path(&file, &known).unwrap();
        let golden = std::fs::read_to_string(golden_path(&corpus_dir(), &file)).unwrap();
        let document: serde_json::Value = serde_json::from_str(&golden).unwrap();
        if document["verdict"] != "accepted" {
            assert!(document["value"].is_null(), "{}", file.display());
            continue;
        }
        let bytes = std::fs::read(&file).unwrap();
        let again = target
            .encode_value(&document["value"])
            .unwrap_or_else(|| panic!("{}: cannot encode values", target.name()))
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let latest = target.framing().latest_version;
        let version = bytes.first_chunk::<4>().map(|v| u32::from_le_bytes(*v));
        if latest.is_some() && version != latest {
            // Migrated: the latest save of the same state, which decodes.
            assert!(
                target.decode_value(&again).is_some(),
                "{}: the migrated save does not read back",
                file.display()
            );
        } else {
            assert_eq!(again, bytes, "{}", file.display());
        }
        rebuilt += 1;
    }
    assert!(rebuilt >= 60, "only {rebuilt} accepted corpus files");
}
