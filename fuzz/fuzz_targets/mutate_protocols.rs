//! A valid packet plus a mutation class: the verdict the class owes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::mutate_protocols(data);
});
