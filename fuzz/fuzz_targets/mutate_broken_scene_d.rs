//! TEETH: the unclamped scene D fixture; this target is meant to crash within seconds.
#![no_main]

// Reads are held to the harness's allocation bound.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::mutate_target(&adversarial::fixtures::BrokenSceneD, data);
});
