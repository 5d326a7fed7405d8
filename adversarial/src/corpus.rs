//! Seeds: the committed corpus, regenerated from the generators, and the
//! golden file beside each corpus file: what `decode --json` says of it.
//!
//! The oracle judges bytes, and the writer it re-encodes with is the code
//! under test: a change made to reader and writer alike (a field's width, a
//! quantization step, the float a game reads) passes every class. The
//! golden files pin what each committed packet means, so such a change
//! fails `cargo test` until they are regenerated on purpose
//! (`seed-corpus --update-golden`) and the diff is reviewed.

use crate::files::{files_under, target_for_path};
pub use crate::files::{is_golden, GOLDEN_SUFFIX};
use crate::report;
use crate::target::Target;
use arbitrary::Unstructured;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io;
use std::path::{Path, PathBuf};

/// The directory of the golden files, under the corpus root. They live in
/// a tree of their own that mirrors the corpus, so that a fuzzer reading a
/// target's seed directory never takes them for inputs (nor sizes its
/// inputs after them).
pub const GOLDEN_DIR: &str = "golden";

/// The golden file of `file`, a corpus file under `root`.
#[must_use]
pub fn golden_path(root: &Path, file: &Path) -> PathBuf {
    let relative = file.strip_prefix(root).unwrap_or(file);
    let mut path = root.join(GOLDEN_DIR).join(relative).into_os_string();
    path.push(GOLDEN_SUFFIX);
    PathBuf::from(path)
}

/// What `decode --json` says of `bytes` read by `target`, without the
/// file's name: the decoded value, or the refusal.
#[must_use]
pub fn golden_document(target: &dyn Target, bytes: &[u8]) -> serde_json::Value {
    report::decoded_json(
        target.name(),
        &target.inspect(bytes),
        target.decode_value(bytes),
    )
}

/// Writes the golden file of every corpus file under `dir` (into
/// `dir/golden/`), each read by the target its path names, and removes
/// golden files whose corpus file is gone. Returns how many were written.
///
/// # Errors
///
/// When a file cannot be read or written, or no target reads it.
pub fn write_golden(dir: &Path, targets: &[&dyn Target]) -> io::Result<usize> {
    let mut written = 0;
    for file in files_under(&[dir.to_path_buf()]).map_err(io::Error::other)? {
        let target = target_for_path(&file, targets).ok_or_else(|| {
            io::Error::other(format!("{}: no target in its path", file.display()))
        })?;
        let document = golden_document(target, &std::fs::read(&file)?);
        let golden = golden_path(dir, &file);
        if let Some(parent) = golden.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(golden, golden_text(&document))?;
        written += 1;
    }
    for orphan in golden_orphans(dir) {
        std::fs::remove_file(orphan)?;
    }
    Ok(written)
}

/// A golden document as text: one key a line, arrays of plain values and
/// leaves (`{"value", "wire"}`) on one line, so that a change shows as the lines of the fields it touches.
#[must_use]
pub fn golden_text(document: &serde_json::Value) -> String {
    let mut out = String::new();
    write_golden_value(&mut out, document, 0);
    out.push('\n');
    out
}

fn write_golden_value(out: &mut String, value: &serde_json::Value, depth: usize) {
    use serde_json::Value;
    let inner = "  ".repeat(depth + 1);
    let plain = |v: &Value| !v.is_object() && !v.is_array();
    match value {
        // A leaf's shape ({"value", "wire"}) on one line.
        Value::Object(object) if depth > 0 && object.values().all(plain) => {
            out.push_str(&value.to_string());
        }
        Value::Object(object) if !object.is_empty() => {
            out.push_str("{\n");
            for (i, (key, item)) in object.iter().enumerate() {
                out.push_str(&format!("{inner}{}: ", Value::String(key.clone())));
                write_golden_value(out, item, depth + 1);
                out.push_str(if i + 1 < object.len() { ",\n" } else { "\n" });
            }
            out.push_str(&format!("{}}}", "  ".repeat(depth)));
        }
        Value::Array(items)
            if !items
                .iter()
                .all(|i| plain(i) || i.as_object().is_some_and(|o| o.values().all(plain))) =>
        {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&inner);
                write_golden_value(out, item, depth + 1);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&format!("{}]", "  ".repeat(depth)));
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Golden files under `root` whose corpus file does not exist.
#[must_use]
pub fn golden_orphans(root: &Path) -> Vec<PathBuf> {
    let golden_root = root.join(GOLDEN_DIR);
    let mut orphans = Vec::new();
    let mut pending = vec![golden_root.clone()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                pending.push(path);
            } else if is_golden(&path) {
                let relative = path.strip_prefix(&golden_root).unwrap_or(&path);
                let text = relative.to_string_lossy();
                let input = root.join(text.trim_end_matches(GOLDEN_SUFFIX));
                if !input.exists() {
                    orphans.push(path);
                }
            }
        }
    }
    orphans.sort();
    orphans
}

/// The seed `seed-corpus` uses unless told otherwise.
pub const DEFAULT_SEED: u64 = 0xC0_4905;

/// The largest seed kept: small seeds keep the committed corpus small and
/// let a fuzzer mutate them quickly.
pub const MAX_SEED_BYTES: usize = 4096;

/// Writes `count` valid samples of `target` to `dir/<target>/seed-NNN.bin`,
/// after removing the previous `seed-*` files there (other files, such as
/// regressions, are left alone). Returns how many were written.
pub fn write_seeds(target: &dyn Target, dir: &Path, count: usize, seed: u64) -> io::Result<usize> {
    let dir = dir.join(target.name());
    std::fs::create_dir_all(&dir)?;
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("seed-"))
        {
            std::fs::remove_file(path)?;
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut entropy = vec![0u8; 2048];
    let mut written = 0;
    let mut attempts = 0;
    while written < count && attempts < count * 10 {
        attempts += 1;
        rng.fill_bytes(&mut entropy);
        // Small seeds: a short entropy buffer keeps scenes sparse.
        let take = 64 + (rng.next_u32() as usize % (entropy.len() - 64));
        let Ok(sample) = target.generate(&mut Unstructured::new(&entropy[..take])) else {
            continue;
        };
        if sample.bytes.len() > MAX_SEED_BYTES {
            continue;
        }
        std::fs::write(dir.join(format!("seed-{written:03}.bin")), &sample.bytes)?;
        written += 1;
    }
    Ok(written)
}
