//! The serde example's messages (`adversarial::formats::game`) under the
//! configuration that passes every class (postcard-canonical): the first
//! byte picks the message, the rest a valid value and one serde lie, which
//! must get the verdict it is owed.
#![no_main]

use adversarial::formats::game_targets;
use adversarial::target::Target;
use std::sync::OnceLock;

// Reads are held to the harness's allocation bound.
adversarial::count_allocations!();

/// Built once: each target learns its honest ranges on first use.
static TARGETS: OnceLock<Vec<Box<dyn Target>>> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let targets = TARGETS.get_or_init(|| {
        game_targets()
            .into_iter()
            .filter(|t| t.name().ends_with("-postcard-canonical"))
            .collect()
    });
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    if let Some(target) = targets.get(usize::from(which) % targets.len()) {
        adversarial::fuzz::mutate_target(target.as_ref(), rest);
    }
});
