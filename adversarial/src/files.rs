//! Where stored inputs are: the files under some paths, the target a
//! file's path names, and which files are golden values rather than
//! inputs. A leaf that `replay`, `corpus` and the commands share.

use crate::target::Target;
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
/// skipping dot-files, README files and golden files.
#[must_use]
pub fn files_under(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
                .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            entries.sort();
            files.extend(files_under(&entries));
        } else {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !name.starts_with('.') && !name.starts_with("README") && !is_golden(path) {
                files.push(path.clone());
            }
        }
    }
    files
}
