//! Raw bytes as datagrams into one link endpoint: the raw-bytes
//! counterpart of link_conversation.
#![no_main]

// The endpoint is held to the memory its configuration fixes.
adversarial::count_allocations!();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    adversarial::fuzz::link_datagrams(data);
});
