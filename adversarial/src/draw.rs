//! The randomness behind each case: a ChaCha8 stream per target and index,
//! so that any job can draw any case and get the same one.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The seed of a target's streams: the campaign's seed and its name.
fn target_seed(seed: u64, name: &str) -> u64 {
    name.bytes().fold(seed, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The randomness behind case `index` of the target called `target`.
#[must_use]
pub fn case_rng(seed: u64, target: &str, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(target_seed(seed, target));
    rng.set_stream(index);
    rng
}
