//! A valid packet of any protocol (first byte picks): accepted, same bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::roundtrip_protocols(data);
});
