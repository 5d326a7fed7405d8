//! Raw bytes into the reader of "kinds": a field of every kind the derive
//! declares.
#![no_main]

// Reads are held to the harness's allocation bound.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read("kinds", data);
});
