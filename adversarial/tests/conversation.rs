//! The stateful fuzz target's body on scripts from a seeded generator:
//! two link endpoints, packets of every size, datagrams delivered,
//! dropped, duplicated, reordered, corrupted and injected, and the
//! connection layer's promises checked after every step.

use adversarial::conversation::{run, run_steps, Step};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

adversarial::count_allocations!();

#[test]
fn random_scripts_keep_every_promise_at_every_step() {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    for len in [0usize, 1, 16, 256, 4096, 16_384] {
        for _ in 0..60 {
            let mut script = vec![0u8; len];
            rng.fill_bytes(&mut script);
            let _ = run(&script);
        }
    }
}

#[test]
fn honest_steps_deliver_every_packet_and_ack_them_back() {
    // A sends a large packet (five fragments) or a small one, B gets every
    // datagram in order and answers with a small packet, which carries
    // B's acks to A.
    let mut steps = Vec::new();
    for i in 0..40u8 {
        let len = if i % 3 == 0 { 900 } else { 50 };
        steps.push(Step::Send {
            to_b: true,
            len,
            fill: i,
        });
        steps.extend((0..5).map(|_| Step::Deliver {
            to_b: true,
            pick: 0,
        }));
        steps.push(Step::Send {
            to_b: false,
            len: 30,
            fill: i,
        });
        steps.push(Step::Deliver {
            to_b: false,
            pick: 0,
        });
        steps.push(Step::Tick { millis: 16 });
    }
    let summary = run_steps(steps);
    assert_eq!(summary.delivered, [40, 40], "{summary:?}");
    assert_eq!(summary.acked[0], 40, "every packet of A acked: {summary:?}");
    assert_eq!(
        summary.acked[1], 39,
        "all but B's last, never answered: {summary:?}"
    );
}

/// Inputs the stateful fuzz target once failed on, replayed forever.
/// `fuzz-link_conversation-c7670b51.bin`: injected packets moved B's
/// window half the range ahead, and an old sequence was new again; the
/// oracle had called that a double delivery.
/// `fuzz-link_conversation-329a98af.bin`: windows of 1, a fragment exactly
/// half the range from the window's oldest stored by the tie, after the
/// windows had passed its packet's first fragment; the oracle had owed the
/// packet delivery.
#[test]
fn the_scripts_the_fuzzer_found_replay_clean() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conversations");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let _ = run(&std::fs::read(&path).unwrap());
        replayed += 1;
    }
    assert!(replayed >= 1);
}
