//! Raw bytes into the protocol "packets" reader.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read("packets", data);
});
