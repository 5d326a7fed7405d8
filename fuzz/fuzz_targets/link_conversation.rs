//! Two link endpoints and a script of steps: packets of any size either
//! way; datagrams delivered, dropped, duplicated, reordered, corrupted or
//! injected; the connection layer's promises checked after every step.
#![no_main]

// Each endpoint is held to the memory its configuration fixes.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::link_conversation(data);
});
