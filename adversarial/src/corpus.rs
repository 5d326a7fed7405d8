//! Seeds: the committed corpus, regenerated from the generators.

use crate::target::Target;
use arbitrary::Unstructured;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io;
use std::path::Path;

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
