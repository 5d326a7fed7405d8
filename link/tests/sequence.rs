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

/// Receives `sequences` in order into a window of `len`: the buffer
/// afterwards.
fn received(len: u16, sequences: &[u16]) -> SequenceBuffer<()> {
    let mut buffer = SequenceBuffer::<()>::new(len);
    buffer.start_at(sequences[0]);
    for &sequence in sequences {
        assert!(
            buffer.insert(sequence).is_some(),
            "{sequence} in window {len}"
        );
    }
    buffer
}

#[test]
fn a_window_that_does_not_divide_the_range_keeps_its_sequences_across_the_wrap() {
    // With `sequence % len`, 65,535 and 0 share slot 0 of a window of 3:
    // 65,535 would be forgotten on 0's arrival and taken again.
    for len in [3u16, 5, 6, 7, 100, 1000, 32_767] {
        let buffer = received(len, &[65_534, 65_535, 0]);
        for sequence in [65_534, 65_535, 0] {
            assert!(buffer.contains(sequence), "{sequence} held in window {len}");
        }
        assert_eq!(buffer.ack_bits(), (0, 0b111), "window {len}");
    }
    // Every sequence of a window of 3 held, a lap and a half around.
    let mut buffer = SequenceBuffer::<()>::new(3);
    buffer.start_at(60_000);
    let mut sequence = 60_000u16;
    for step in 0..100_000u32 {
        buffer.insert(sequence);
        let owed = match step {
            0 => 0b1,
            1 => 0b11,
            _ => 0b111,
        };
        assert_eq!(buffer.ack_bits(), (sequence, owed), "at {sequence}");
        assert!(!buffer.contains(sequence.wrapping_sub(3)));
        sequence = sequence.wrapping_add(1);
    }
}

#[test]
fn a_window_that_does_not_divide_the_range_moves_by_jumps_across_the_wrap() {
    let mut buffer = SequenceBuffer::<u32>::new(5);
    buffer.start_at(65_530);
    *buffer.insert(65_533).unwrap() = 1;
    *buffer.insert(1).unwrap() = 2;
    // The window is 65,533 to 1 (five sequences): 65,533 still held.
    assert_eq!(buffer.get(65_533), Some(&1));
    assert_eq!(buffer.get(1), Some(&2));
    assert_eq!(buffer.ack_bits(), (1, 0b10001));
    assert!(buffer.is_stale(65_532));
    *buffer.insert(2).unwrap() = 3;
    assert!(!buffer.contains(65_533), "left the window");
    assert_eq!(buffer.ack_bits(), (2, 0b11));
}
