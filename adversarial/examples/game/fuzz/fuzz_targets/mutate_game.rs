//! A valid packet with one lie told in it, judged against the verdict owed.
#![no_main]

adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::mutate_target(&game_protocol::attack::game(), data);
});
