//! Raw bytes into the game's packet reader.
#![no_main]

adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::read_target(&game_protocol::attack::game(), data);
});
