//! `Header::write` and `Header::read` work a byte at a time; the header's
//! declaration is `Header::serialize`, which the harness and any other
//! stream use. Here the two are held equal: the same bytes, values, lengths
//! and errors, for any triple, any buffer length and any input.

use link::Header;
use proptest::prelude::*;

/// Headers near every edge: both ack forms, elided and sent bytes.
fn header() -> impl Strategy<Value = Header> {
    let ack_bits = prop_oneof![
        any::<u32>(),
        Just(u32::MAX),
        Just(0),
        (any::<u32>(), 0u32..16).prop_map(|(bits, elide)| {
            // Some bytes 0xFF (elided), the others arbitrary.
            let mut bytes = bits.to_le_bytes();
            for (i, b) in bytes.iter_mut().enumerate() {
                if elide & (1 << i) != 0 {
                    *b = 0xFF;
                }
            }
            u32::from_le_bytes(bytes)
        }),
    ];
    let gap = prop_oneof![0u16..300, any::<u16>()];
    (any::<u16>(), gap, ack_bits).prop_map(|(sequence, gap, ack_bits)| Header {
        sequence,
        ack: sequence.wrapping_sub(gap),
        ack_bits,
    })
}

/// Inputs a header reader meets: a valid header, then changed, cut or
/// lengthened, or bytes with no rule.
fn input() -> impl Strategy<Value = Vec<u8>> {
    let valid = (
        header(),
        any::<u8>(),
        0usize..10,
        proptest::collection::vec(any::<u8>(), 0..4),
    )
        .prop_map(|(h, flip, at, tail)| {
            let mut out = vec![0; 16];
            let len = h.write_by_stream(&mut out).unwrap();
            out.truncate(len);
            if let Some(byte) = out.get_mut(at) {
                *byte ^= flip;
            }
            out.extend(tail);
            out
        });
    let cut = (header(), 0usize..9).prop_map(|(h, keep)| {
        let mut out = vec![0; 16];
        let len = h.write_by_stream(&mut out).unwrap();
        out.truncate(keep.min(len));
        out
    });
    prop_oneof![valid, cut, proptest::collection::vec(any::<u8>(), 0..12)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn write_is_the_declaration_s_bytes_and_errors(header in header(), room in 0usize..12) {
        let mut fast = vec![0xAA; room];
        let mut stream = vec![0xAA; room];
        let a = header.write(&mut fast);
        let b = header.write_by_stream(&mut stream);
        prop_assert_eq!(a, b);
        if let Ok(len) = a {
            prop_assert_eq!(&fast[..len], &stream[..len]);
            prop_assert_eq!(len, header.len());
        }
    }

    #[test]
    fn read_is_the_declaration_s_values_and_errors(bytes in input()) {
        prop_assert_eq!(Header::read(&bytes), Header::read_by_stream(&bytes));
    }
}
