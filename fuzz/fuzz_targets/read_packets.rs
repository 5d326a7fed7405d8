//! Raw bytes into the protocol "packets" reader.
#![no_main]

// Reads are held to the harness's allocation bound.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read("packets", data);
});
