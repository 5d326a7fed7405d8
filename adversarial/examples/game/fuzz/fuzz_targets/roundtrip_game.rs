//! A valid packet, generated from the input, read back to the same bytes.
#![no_main]

adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::roundtrip_target(&game_protocol::attack::game(), data);
});
