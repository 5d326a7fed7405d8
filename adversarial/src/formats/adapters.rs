//! The formats as games call them: postcard 1 (`from_bytes`, and strict:
//! `take_from_bytes` with nothing left), bincode 1.3 (`serialize` and
//! `deserialize`; `DefaultOptions` with and without a limit) and bincode 2
//! (`config::standard()` with and without a limit).

use super::{Format, Tape, Varint};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The most bytes a limited reader lets a message claim: a datagram's.
pub const LIMIT: usize = 65_536;

fn words(error: impl std::fmt::Display) -> String {
    error.to_string()
}

fn postcard_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    postcard::to_io(value, tape.clone())
        .map(|_| ())
        .map_err(words)
}

fn bincode1_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    bincode::serialize_into(tape.clone(), value).map_err(words)
}

fn bincode1_varint_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    use bincode::Options;
    bincode::DefaultOptions::new()
        .serialize_into(tape.clone(), value)
        .map_err(words)
}

fn bincode2_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    bincode2::serde::encode_into_std_write(value, tape, bincode2::config::standard())
        .map(|_| ())
        .map_err(words)
}

/// An adapter: a unit struct and its `Format`, from its name, how it
/// writes, how it reads, and what its call lets through by design.
macro_rules! adapter {
    (
        $(#[$doc:meta])*
        $adapter:ident, $name:literal, $encode:ident,
        trailing: $trailing:literal, varint: $varint:expr,
        |$bytes:ident| $decode:expr
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $adapter;

        impl Format for $adapter {
            fn name(&self) -> &'static str {
                $name
            }

            fn encode<T: Serialize + ?Sized>(
                &self,
                value: &T,
                tape: &mut Tape,
            ) -> Result<(), String> {
                $encode(value, tape)
            }

            fn decode<T: DeserializeOwned>(&self, $bytes: &[u8]) -> Result<T, String> {
                $decode
            }

            fn accepts_trailing_bytes(&self) -> bool {
                $trailing
            }

            fn varint(&self) -> Option<Varint> {
                $varint
            }
        }
    };
}

adapter!(
    /// postcard 1 read with `from_bytes`, which ignores bytes after the
    /// message.
    Postcard, "postcard", postcard_encode,
    trailing: true, varint: Some(Varint::Leb128),
    |bytes| postcard::from_bytes(bytes).map_err(words)
);

adapter!(
    /// postcard 1 read with `take_from_bytes`, refusing any byte left over.
    PostcardStrict, "postcard-strict", postcard_encode,
    trailing: false, varint: Some(Varint::Leb128),
    |bytes| match postcard::take_from_bytes(bytes).map_err(words)? {
        (value, []) => Ok(value),
        (_, rest) => Err(format!("{} bytes after the message", rest.len())),
    }
);

adapter!(
    /// bincode 1.3's `serialize` and `deserialize`: fixed-width
    /// little-endian integers, lengths as u64, no limit, bytes after the
    /// message accepted.
    Bincode1, "bincode1", bincode1_encode,
    trailing: true, varint: None,
    |bytes| bincode::deserialize(bytes).map_err(words)
);

adapter!(
    /// bincode 1.3's `DefaultOptions::new()`: varints, bytes after the
    /// message refused, no limit.
    Bincode1Varint, "bincode1-varint", bincode1_varint_encode,
    trailing: false, varint: Some(Varint::Bincode),
    |bytes| {
        use bincode::Options;
        bincode::DefaultOptions::new().deserialize(bytes).map_err(words)
    }
);

adapter!(
    /// As [`Bincode1Varint`], `.with_limit(LIMIT)`. bincode 1.3.3 reads a
    /// slice with no limit whatever this says (the slice bounds what it
    /// reads): the limit counts only for `deserialize_from` a reader.
    Bincode1VarintLimited, "bincode1-varint-limited", bincode1_varint_encode,
    trailing: false, varint: Some(Varint::Bincode),
    |bytes| {
        use bincode::Options;
        bincode::DefaultOptions::new()
            .with_limit(LIMIT as u64)
            .deserialize(bytes)
            .map_err(words)
    }
);

adapter!(
    /// bincode 2's `serde::decode_from_slice` with `config::standard()`: the
    /// count it read is the caller's to check, and this caller does not.
    Bincode2, "bincode2", bincode2_encode,
    trailing: true, varint: Some(Varint::Bincode),
    |bytes| {
        bincode2::serde::decode_from_slice(bytes, bincode2::config::standard())
            .map(|(value, _)| value)
            .map_err(words)
    }
);

adapter!(
    /// As [`Bincode2`], `.with_limit::<LIMIT>()`.
    Bincode2Limited, "bincode2-limited", bincode2_encode,
    trailing: true, varint: Some(Varint::Bincode),
    |bytes| {
        let config = bincode2::config::standard().with_limit::<LIMIT>();
        bincode2::serde::decode_from_slice(bytes, config)
            .map(|(value, _)| value)
            .map_err(words)
    }
);
