//! Raw bytes into the scene E reader.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read("scenes-entropy", data);
});
