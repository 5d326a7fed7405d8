//! Raw bytes into the reader of the message that holds every stream operation.
#![no_main]

// Reads are held to the harness's allocation bound.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read("stream", data);
});
