//! A valid packet of any protocol (first byte picks): accepted, same bytes.
#![no_main]

// Reads are held to the harness's allocation bound.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::roundtrip_protocols(data);
});
