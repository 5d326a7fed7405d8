//! Raw bytes into the versioned score save reader.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read("save", data);
});
