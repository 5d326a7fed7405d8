//! The `KeepPartialReassembly` fault leaks a reassembly buffer whenever a
//! slot is reused for a new packet, and allocates another; an endpoint
//! without it reuses the buffer and allocates nothing more. A counting
//! allocator sees every allocation of this test binary, which holds one
//! test, so that nothing else allocates beside it.

mod datagrams;

use datagrams::fragment;
use link::{Config, Endpoint, Fault};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Bytes `endpoint` allocates taking 32 partial packets (fragment 1 of 2,
/// 100 bytes a fragment) into a reassembly window of 8, after 8 more that
/// filled it: each of the 32 reuses a slot.
fn allocated_by_partial_packets(mut endpoint: Endpoint) -> usize {
    let datagrams: Vec<Vec<u8>> = (0..40).map(|s| fragment(s, 1, 2, &[5; 100])).collect();
    let (first, rest) = datagrams.split_at(8);
    for datagram in first {
        endpoint.receive(datagram, |_, _| true).unwrap();
    }
    let region = Region::new(GLOBAL);
    for datagram in rest {
        endpoint.receive(datagram, |_, _| true).unwrap();
    }
    region.change().bytes_allocated
}

#[test]
fn keep_partial_reassembly_allocates_a_buffer_per_reused_slot() {
    let config = Config {
        fragment_above: 100,
        fragment_size: 100,
        max_fragments: 4,
        fragment_reassembly_buffer_size: 8,
        ..Config::default()
    };
    let healthy = Endpoint::new(config.clone(), 0.0).unwrap();
    let faulty = Endpoint::new(config, 0.0)
        .unwrap()
        .with_fault(Fault::KeepPartialReassembly);
    let healthy = allocated_by_partial_packets(healthy);
    let faulty = allocated_by_partial_packets(faulty);
    // Less than one buffer: nothing of the packets' (nothing at all, as
    // measured; the margin is for the test runner's own threads).
    assert!(healthy < 200, "{healthy} bytes");
    assert!(faulty >= 32 * 200, "{faulty} bytes");
}
