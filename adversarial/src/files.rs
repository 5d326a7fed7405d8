//! Where stored inputs are: the files under some paths, the target a
//! file's path names, which files are golden values rather than inputs,
//! and reading one no further than its target allows. A leaf that `replay`, `corpus` and the commands share.

use crate::target::{Refusal, Target};
use codec::DecodeError;
use std::path::{Path, PathBuf};

/// The end of a golden file's name: `corpus/packets/seed-000.bin` has
/// `corpus/golden/packets/seed-000.bin.golden.json`.
pub const GOLDEN_SUFFIX: &str = ".golden.json";

/// Whether `path` is a golden file (never an input).
#[must_use]
pub fn is_golden(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(GOLDEN_SUFFIX))
}

/// The target among `targets` a stored file belongs to: the nearest
/// enclosing directory named after one (`corpus/scenes/x.bin`,
/// `corpus/crashes/save/y`).
#[must_use]
pub fn target_for_path<'a>(path: &Path, targets: &[&'a dyn Target]) -> Option<&'a dyn Target> {
    path.ancestors()
        .skip(1)
        .filter_map(|dir| dir.file_name()?.to_str())
        .find_map(|name| targets.iter().copied().find(|t| t.name() == name))
}

/// Every file under `paths` (directories walked recursively, sorted),
/// skipping dot-files, README files and golden files. A path that does not
/// exist, a broken link and a directory that cannot be listed are errors
/// that name the path: a file the caller asked for is never skipped in
/// silence.
///
/// # Errors
///
/// The first path that is neither a file nor a readable directory.
pub fn files_under(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        let named = |e: std::io::Error| format!("{}: {e}", path.display());
        // Follows links: a link to nowhere fails here, by name.
        let meta = std::fs::metadata(path).map_err(named)?;
        if meta.is_dir() {
            let mut entries = Vec::new();
            for entry in std::fs::read_dir(path).map_err(named)? {
                entries.push(entry.map_err(named)?.path());
            }
            entries.sort();
            files.extend(files_under(&entries)?);
        } else {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !name.starts_with('.') && !name.starts_with("README") && !is_golden(path) {
                files.push(path.clone());
            }
        }
    }
    Ok(files)
}

/// The most bytes a stored input may have for a target whose protocol
/// states no maximum: the largest UDP payload.
pub const UNSTATED_MAX_BYTES: usize = 65_507;

/// The most bytes `target` reads in one input.
#[must_use]
pub fn max_bytes(target: &dyn Target) -> usize {
    target.framing().max_bytes.unwrap_or(UNSTATED_MAX_BYTES)
}

/// A stored input, read no further than its target allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    /// The whole file.
    Bytes(Vec<u8>),
    /// The file holds more than the target reads: its length, and the
    /// most the target reads. Only `max + 1` bytes were read to learn it.
    TooLarge {
        /// The file's length (at least `max + 1`).
        len: u64,
        /// The target's maximum.
        max: usize,
    },
}

impl Stored {
    /// The refusal an input too large for its target is owed.
    #[must_use]
    pub fn too_large(len: u64, max: usize) -> Refusal {
        Refusal::from(DecodeError::TooLarge {
            len: usize::try_from(len).unwrap_or(usize::MAX),
            max,
        })
    }
}

/// Reads `path` for `target`, at most one byte past the target's maximum:
/// a file of any size costs no more memory than the largest input the
/// protocol allows.
///
/// # Errors
///
/// The file cannot be opened or read; the message names it.
pub fn read_input(path: &Path, target: &dyn Target) -> Result<Stored, String> {
    use std::io::Read;
    let named = |e: std::io::Error| format!("{}: {e}", path.display());
    let max = max_bytes(target);
    let file = std::fs::File::open(path).map_err(named)?;
    let mut bytes = Vec::new();
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    file.take(limit).read_to_end(&mut bytes).map_err(named)?;
    if bytes.len() > max {
        let len = std::fs::metadata(path).map_or(limit, |m| m.len().max(limit));
        return Ok(Stored::TooLarge { len, max });
    }
    Ok(Stored::Bytes(bytes))
}
