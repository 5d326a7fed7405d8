//! Raw bytes into the protocol "scenes" reader (scenes A-D).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read("scenes", data);
});
