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

fn postcard_encode<T: Serialize + ?Sized>(value: &T, tape: &Tape) -> Result<(), String> {
    postcard::to_io(value, tape.clone())
        .map(|_| ())
        .map_err(words)
}

/// postcard 1 read with `from_bytes`, which ignores bytes after the
/// message.
#[derive(Clone, Copy, Debug, Default)]
pub struct Postcard;

impl Format for Postcard {
    fn name(&self) -> &'static str {
        "postcard"
    }

    fn varint(&self) -> Option<Varint> {
        Some(Varint::Leb128)
    }

    fn accepts_trailing_bytes(&self) -> bool {
        true
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        postcard_encode(value, tape)
    }

    fn decode<T: DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, String> {
        postcard::from_bytes(bytes).map_err(words)
    }
}

/// postcard 1 read with `take_from_bytes`, refusing any byte left over.
#[derive(Clone, Copy, Debug, Default)]
pub struct PostcardStrict;

impl Format for PostcardStrict {
    fn name(&self) -> &'static str {
        "postcard-strict"
    }

    fn varint(&self) -> Option<Varint> {
        Some(Varint::Leb128)
    }

    fn accepts_trailing_bytes(&self) -> bool {
        false
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        postcard_encode(value, tape)
    }

    fn decode<T: DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, String> {
        match postcard::take_from_bytes(bytes).map_err(words)? {
            (value, []) => Ok(value),
            (_, rest) => Err(format!("{} bytes after the message", rest.len())),
        }
    }
}

/// bincode 1.3's `serialize` and `deserialize`: fixed-width little-endian
/// integers, lengths as u64, no limit, bytes after the message accepted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bincode1;

impl Format for Bincode1 {
    fn name(&self) -> &'static str {
        "bincode1"
    }

    fn varint(&self) -> Option<Varint> {
        None
    }

    fn accepts_trailing_bytes(&self) -> bool {
        true
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        bincode::serialize_into(tape.clone(), value).map_err(words)
    }

    fn decode<T: DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, String> {
        bincode::deserialize(bytes).map_err(words)
    }
}

fn bincode1_varint_encode<T: Serialize + ?Sized>(value: &T, tape: &Tape) -> Result<(), String> {
    use bincode::Options;
    bincode::DefaultOptions::new()
        .serialize_into(tape.clone(), value)
        .map_err(words)
}

/// bincode 1.3's `DefaultOptions::new()`: varints, bytes after the
/// message refused, no limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bincode1Varint;

impl Format for Bincode1Varint {
    fn name(&self) -> &'static str {
        "bincode1-varint"
    }

    fn varint(&self) -> Option<Varint> {
        Some(Varint::Bincode)
    }

    fn accepts_trailing_bytes(&self) -> bool {
        false
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        bincode1_varint_encode(value, tape)
    }

    fn decode<T: DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, String> {
        use bincode::Options;
        bincode::DefaultOptions::new()
            .deserialize(bytes)
            .map_err(words)
    }
}

/// As [`Bincode1Varint`], `.with_limit(LIMIT)`. bincode 1.3.3 reads a
/// slice with no limit whatever this says (the slice bounds what it reads):
/// the limit counts only for `deserialize_from` a reader.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bincode1VarintLimited;

impl Format for Bincode1VarintLimited {
    fn name(&self) -> &'static str {
        "bincode1-varint-limited"
    }

    fn varint(&self) -> Option<Varint> {
        Some(Varint::Bincode)
    }

    fn accepts_trailing_bytes(&self) -> bool {
        false
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        bincode1_varint_encode(value, tape)
    }

    fn decode<T: DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, String> {
        use bincode::Options;
        bincode::DefaultOptions::new()
            .with_limit(LIMIT as u64)
            .deserialize(bytes)
            .map_err(words)
    }
}

fn bincode2_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    bincode2::serde::encode_into_std_write(value, tape, bincode2::config::standard())
        .map(|_| ())
        .map_err(words)
}

/// bincode 2's `serde::decode_from_slice` with `config::standard()`: the
/// count it read is the caller's to check, and this caller does not.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bincode2;

impl Format for Bincode2 {
    fn name(&self) -> &'static str {
        "bincode2"
    }

    fn varint(&self) -> Option<Varint> {
        Some(Varint::Bincode)
    }

    fn accepts_trailing_bytes(&self) -> bool {
        true
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        bincode2_encode(value, tape)
    }

    fn decode<T: DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, String> {
        bincode2::serde::decode_from_slice(bytes, bincode2::config::standard())
            .map(|(value, _)| value)
            .map_err(words)
    }
}

/// As [`Bincode2`], `.with_limit::<LIMIT>()`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bincode2Limited;

impl Format for Bincode2Limited {
    fn name(&self) -> &'static str {
        "bincode2-limited"
    }

    fn varint(&self) -> Option<Varint> {
        Some(Varint::Bincode)
    }

    fn accepts_trailing_bytes(&self) -> bool {
        true
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        bincode2_encode(value, tape)
    }

    fn decode<T: DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, String> {
        let config = bincode2::config::standard().with_limit::<LIMIT>();
        bincode2::serde::decode_from_slice(bytes, config)
            .map(|(value, _)| value)
            .map_err(words)
    }
}
