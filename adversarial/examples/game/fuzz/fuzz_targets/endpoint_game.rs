//! The game's connection layer against one conversation with a lie told
//! across its packets, every datagram judged against the verdict owed.
#![no_main]

adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::endpoint(&game_protocol::attack::endpoint(), data);
});
