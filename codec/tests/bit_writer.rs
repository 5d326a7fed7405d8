//! The bit writer against a model that packs one bit at a time: any mix
//! of narrow and wide writes, aligned bytes between them, into a buffer
//! of exactly the bytes they need or with room to spare, gives the
//! model's bytes and length; a write that does not fit is refused and
//! leaves the bytes written before it as they were.

use codec::bits::BitWriter;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Write {
    /// `write_bits`: up to 32 bits, the value below `2^bits`.
    Bits(u32, u32),
    /// `write_wide`: up to 64 bits.
    Wide(u64, u32),
    /// Align, then `write_aligned_bytes`.
    Bytes(Vec<u8>),
}

fn write() -> impl Strategy<Value = Write> {
    prop_oneof![
        // `write_bits` takes a value that fits its width, as a field's does.
        4 => (any::<u32>(), 0u32..=32).prop_map(|(v, b)| Write::Bits(v.checked_shr(32 - b).unwrap_or(0), b)),
        4 => (any::<u64>(), 0u32..=64).prop_map(|(v, b)| Write::Wide(v, b)),
        1 => prop::collection::vec(any::<u8>(), 0..6).prop_map(Write::Bytes),
    ]
}

/// The bits the writes put down, least significant first.
fn model(writes: &[Write]) -> Vec<bool> {
    let mut bits = Vec::new();
    for write in writes {
        match write {
            Write::Bits(v, b) => bits.extend((0..*b).map(|i| v >> i & 1 == 1)),
            Write::Wide(v, b) => bits.extend((0..*b).map(|i| v >> i & 1 == 1)),
            Write::Bytes(bytes) => {
                bits.resize(bits.len().div_ceil(8) * 8, false);
                bits.extend(
                    bytes
                        .iter()
                        .flat_map(|byte| (0..8).map(move |i| byte >> i & 1 == 1)),
                );
            }
        }
    }
    bits
}

fn packed(bits: &[bool]) -> Vec<u8> {
    bits.chunks(8)
        .map(|byte| {
            byte.iter()
                .rev()
                .fold(0u8, |acc, bit| acc << 1 | u8::from(*bit))
        })
        .collect()
}

/// Runs the writes into `room` bytes; the bytes the writer claims, and the
/// index of the first write refused.
fn run(writes: &[Write], room: usize) -> (Vec<u8>, Option<usize>) {
    let mut buf = vec![0xA5u8; room];
    let mut writer = BitWriter::new(&mut buf);
    let mut refused = None;
    for (i, write) in writes.iter().enumerate() {
        let ok = match write {
            Write::Bits(v, b) => writer.write_bits(*v, *b).is_ok(),
            Write::Wide(v, b) => writer.write_wide(*v, *b),
            Write::Bytes(bytes) => {
                writer.align().is_ok() && writer.write_aligned_bytes(bytes).is_ok()
            }
        };
        if !ok {
            refused = Some(i);
            break;
        }
    }
    let len = writer.finish();
    buf.truncate(len);
    (buf, refused)
}

proptest! {
    #[test]
    fn writes_pack_as_the_model_packs(
        writes in prop::collection::vec(write(), 0..24),
        spare in prop_oneof![Just(0usize), 1usize..10],
    ) {
        let bits = model(&writes);
        let expected = packed(&bits);
        let (bytes, refused) = run(&writes, expected.len() + spare);
        prop_assert_eq!(refused, None);
        prop_assert_eq!(bytes, expected);
    }

    #[test]
    fn a_write_past_the_room_is_refused_and_the_rest_kept(
        writes in prop::collection::vec(write(), 1..24),
        short in 1usize..12,
    ) {
        let needed = packed(&model(&writes)).len();
        prop_assume!(needed >= short);
        let (bytes, refused) = run(&writes, needed - short);
        let first = refused.expect("a write must not fit");
        // What was written before the refused write is the model's.
        let before = packed(&model(&writes[..first]));
        prop_assert_eq!(bytes, before);
    }
}
