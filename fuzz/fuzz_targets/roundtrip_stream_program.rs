//! A random stream program: written, read back equal, same bytes, measure >= written.
#![no_main]

// Reads are held to the harness's allocation bound.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::roundtrip_stream_program(data);
});
