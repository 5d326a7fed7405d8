//! Raw bytes into the profile save's reader.
#![no_main]

adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read_target(&game_protocol::attack::profile(), data);
});
