//! Sequence numbers that wrap: the half-range rule, exactly at its
//! boundary, and the window of a sequence buffer.

use link::sequence::{newer, SequenceBuffer};

#[test]
fn newer_is_ahead_by_less_than_half_the_range_or_by_half_from_the_larger() {
    assert!(newer(1, 0));
    assert!(newer(0, 65_535), "across the wrap");
    assert!(!newer(65_535, 0));
    assert!(!newer(7, 7));
    assert!(newer(32_767, 0));
    // Exactly half the range apart: the larger number is the newer one,
    // as in the reference, so both ends agree.
    assert!(newer(32_768, 0));
    assert!(!newer(0, 32_768));
    assert!(newer(65_535, 32_767));
    assert!(!newer(32_767, 65_535));
    assert!(!newer(32_769, 0), "more than half ahead is behind");
}

#[test]
fn a_buffer_holds_its_window_and_calls_older_sequences_stale() {
    let mut buffer = SequenceBuffer::<u32>::new(8);
    *buffer.insert(65_534).unwrap() = 1;
    *buffer.insert(2).unwrap() = 2;
    assert!(buffer.contains(65_534) && buffer.contains(2));
    assert!(!buffer.contains(65_535) && !buffer.contains(0));
    assert_eq!(buffer.next(), 3);
    // The window is the 8 sequences up to 2: 65_531 is stale, 65_532 not.
    assert!(buffer.is_stale(65_530));
    assert!(!buffer.is_stale(65_532));
    assert!(buffer.insert(65_530).is_none());
    // Advancing past a held sequence's slot empties it.
    buffer.advance(10);
    assert!(!buffer.contains(2));
    let (ack, bits) = {
        buffer.insert(10);
        buffer.insert(8);
        buffer.ack_bits()
    };
    assert_eq!((ack, bits), (10, 0b101));
}

#[test]
fn removing_a_sequence_empties_its_slot_and_no_other_sequence_s() {
    let mut buffer = SequenceBuffer::<u32>::new(8);
    *buffer.insert(3).unwrap() = 30;
    buffer.remove(3);
    assert!(!buffer.contains(3));
    // The value stays in the slot, for the next sequence to reuse.
    assert_eq!(buffer.slot_value(11).copied(), Some(30));
    // 11 shares 3's slot: removing 3 leaves 11 held.
    *buffer.insert(11).unwrap() = 110;
    buffer.remove(3);
    assert_eq!(buffer.get(11), Some(&110));
}
