//! A random stream program: written, read back equal, same bytes, measure >= written.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::roundtrip_stream_program(data);
});
