//! Raw bytes into the Golomb scene reader (scene E's version 1).
#![no_main]

// Reads are held to the harness's allocation bound.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read("scenes-golomb", data);
});
