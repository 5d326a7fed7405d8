//! The bit reader against a model that reads one bit at a time straight
//! from the slice: same values, same errors at the same offsets, same
//! counters, whatever the widths, alignments, byte runs and input length
//! (the buffered reader's refills and its padded tail are what is tested).

use codec::bits::BitReader;
use codec::DecodeError;
use proptest::prelude::*;

/// The obvious reader: bit `i` of the input is bit `i % 8` of byte `i / 8`.
struct Model<'a> {
    data: &'a [u8],
    pos: u64,
}

impl Model<'_> {
    fn len_bits(&self) -> u64 {
        self.data.len() as u64 * 8
    }

    fn bit(&self, i: u64) -> u32 {
        u32::from(self.data[(i / 8) as usize] >> (i % 8)) & 1
    }

    fn read_bits(&mut self, bits: u32) -> Result<u32, DecodeError> {
        if self.pos + u64::from(bits) > self.len_bits() {
            return Err(DecodeError::PastEnd { at: self.pos });
        }
        let value = (0..bits).fold(0, |v, i| v | self.bit(self.pos + u64::from(i)) << i);
        self.pos += u64::from(bits);
        Ok(value)
    }

    fn align(&mut self) -> Result<(), DecodeError> {
        let at = self.pos;
        let padding = (8 - self.pos % 8) % 8;
        if self.read_bits(padding as u32)? != 0 {
            return Err(DecodeError::NonZeroPadding { at });
        }
        Ok(())
    }

    fn read_aligned_bytes(&mut self, count: usize) -> Result<&[u8], DecodeError> {
        let start = (self.pos / 8) as usize;
        if self.pos + count as u64 * 8 > self.len_bits() {
            return Err(DecodeError::PastEnd { at: self.pos });
        }
        self.pos += count as u64 * 8;
        Ok(&self.data[start..start + count])
    }
}

#[derive(Clone, Debug)]
enum Op {
    Bits(u32),
    Align,
    Bytes(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0u32..=32).prop_map(Op::Bits),
        1 => Just(Op::Align),
        1 => (0usize..12).prop_map(Op::Bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_reader_reads_what_a_bit_by_bit_model_reads(
        data in proptest::collection::vec(any::<u8>(), 0..48),
        ops in proptest::collection::vec(op(), 0..80),
    ) {
        let mut reader = BitReader::new(&data);
        let mut model = Model { data: &data, pos: 0 };
        for op in ops {
            match op {
                Op::Bits(bits) => prop_assert_eq!(reader.read_bits(bits), model.read_bits(bits)),
                Op::Align => prop_assert_eq!(reader.align(), model.align()),
                Op::Bytes(count) => {
                    // Bytes are read at a byte boundary: align first, as the
                    // stream does, and read only when that succeeded.
                    let aligned = reader.align();
                    prop_assert_eq!(aligned, model.align());
                    if aligned.is_ok() {
                        prop_assert_eq!(reader.read_aligned_bytes(count), model.read_aligned_bytes(count));
                    }
                }
            }
            prop_assert_eq!(reader.bits_read(), model.pos);
            prop_assert_eq!(reader.bits_remaining(), model.len_bits() - model.pos);
            prop_assert_eq!(u64::from(reader.padding_bits()), (8 - model.pos % 8) % 8);
        }
    }

    /// A group reads what the reader reads, inside its bytes and past
    /// them, and hands the reader back where the model stands.
    #[test]
    fn a_group_reads_what_the_model_reads_and_the_reader_goes_on_from_there(
        data in proptest::collection::vec(any::<u8>(), 0..64),
        lead in 0u32..=32,
        groups in proptest::collection::vec(proptest::collection::vec(0u32..=32, 0..12), 0..6),
        wide in any::<bool>(),
    ) {
        let mut reader = BitReader::new(&data);
        let mut model = Model { data: &data, pos: 0 };
        prop_assert_eq!(reader.read_bits(lead), model.read_bits(lead));
        for widths in groups {
            let expected_group = (model.pos / 8) as usize + if wide { 24 } else { 9 } <= data.len();
            let reads: Vec<Result<u32, DecodeError>> = if wide {
                let Some(mut group) = reader.group::<24>() else {
                    prop_assert!(!expected_group);
                    break;
                };
                widths.iter().map(|&w| group.read_bits(w)).collect()
            } else {
                let Some(mut group) = reader.group::<9>() else {
                    prop_assert!(!expected_group);
                    break;
                };
                widths.iter().map(|&w| group.read_bits(w)).collect()
            };
            prop_assert!(expected_group);
            for (read, &w) in reads.into_iter().zip(&widths) {
                prop_assert_eq!(read, model.read_bits(w));
            }
            prop_assert_eq!(reader.bits_read(), model.pos);
        }
        prop_assert_eq!(reader.read_bits(7), model.read_bits(7));
    }

    #[test]
    fn a_poisoned_reader_refuses_every_read_and_keeps_its_offset(
        data in proptest::collection::vec(any::<u8>(), 1..24),
        first in 0u32..=32,
        then in 1u32..=32,
    ) {
        let mut reader = BitReader::new(&data);
        let _ = reader.read_bits(first);
        let at = reader.bits_read();
        reader.poison();
        prop_assert_eq!(reader.read_bits(then), Err(DecodeError::PastEnd { at }));
        prop_assert_eq!(reader.read_bits(0), Ok(0));
        prop_assert_eq!(reader.bits_remaining(), 0);
        prop_assert_eq!(reader.bits_read(), at);
    }
}
