//! A valid packet plus a mutation class: the verdict the class owes.
#![no_main]

// Reads are held to the harness's allocation bound.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::mutate_protocols(data);
});
