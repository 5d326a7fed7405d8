//! The formats as their crates write them: postcard 1, bincode 1.3 with
//! fixed-width integers (its `serialize`) and with varints
//! (`DefaultOptions`), and bincode 2's `config::standard()`.

use super::{Format, Tape};
use serde::Serialize;

/// postcard 1: varint lengths, tags and integers wider than a byte.
#[derive(Clone, Copy, Debug, Default)]
pub struct Postcard;

impl Format for Postcard {
    fn name(&self) -> &'static str {
        "postcard"
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        postcard::to_io(value, tape.clone())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// bincode 1.3's `serialize`: fixed-width little-endian integers, lengths
/// as u64, variant indices as u32.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bincode1;

impl Format for Bincode1 {
    fn name(&self) -> &'static str {
        "bincode1"
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        bincode::serialize_into(tape.clone(), value).map_err(|e| e.to_string())
    }
}

/// bincode 1.3's `DefaultOptions::new()`: varint integers and lengths.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bincode1Varint;

impl Format for Bincode1Varint {
    fn name(&self) -> &'static str {
        "bincode1-varint"
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        use bincode::Options;
        bincode::DefaultOptions::new()
            .serialize_into(tape.clone(), value)
            .map_err(|e| e.to_string())
    }
}

/// bincode 2's serde path with `config::standard()`: varints.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bincode2;

impl Format for Bincode2 {
    fn name(&self) -> &'static str {
        "bincode2"
    }

    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String> {
        bincode2::serde::encode_into_std_write(value, tape, bincode2::config::standard())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}
