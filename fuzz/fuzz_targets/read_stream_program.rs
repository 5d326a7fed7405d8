//! Raw bytes into the reader of the message that holds every stream operation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read("stream", data);
});
