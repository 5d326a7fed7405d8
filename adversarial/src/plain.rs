//! Attacking a codec you did not write: implement [`PlainCodec`] (decode,
//! encode, generate) and wrap it in [`Plain`] to get a [`Target`].
//!
//! Without a field map, the classes that lie in one field have nothing to
//! aim at; a plain codec still gets the valid round trip, truncation at
//! every byte and bit, trailing bytes and random bit flips, each run under
//! `catch_unwind` with the re-encoding and allocation checks.

use crate::field_map::FieldMap;
use crate::target::{Framing, Refusal, Sample, Target, Verdict};
use arbitrary::Unstructured;
use std::fmt::Display;

/// A codec seen from outside: bytes to value and back.
pub trait PlainCodec: Send + Sync {
    /// The decoded type.
    type Value;
    /// What its decoder returns on refusal.
    type Error: Display;

    /// The target's name (command line, corpus directory).
    fn name(&self) -> &'static str;

    /// Decodes one whole message.
    fn decode(&self, bytes: &[u8]) -> Result<Self::Value, Self::Error>;

    /// Encodes a value.
    fn encode(&self, value: &Self::Value) -> Result<Vec<u8>, String>;

    /// A valid value built from fuzzer bytes.
    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Self::Value>;

    /// Whether bytes after a message must be refused (they should be, or
    /// two different byte strings decode to the same value).
    fn refuses_trailing_bytes(&self) -> bool {
        true
    }

    /// The most a read of `len` bytes may allocate at its peak (default:
    /// the harness's, [`crate::alloc::allocation_bound`]).
    fn allocation_bound(&self, len: usize) -> usize {
        crate::alloc::allocation_bound(len)
    }
}

/// A [`PlainCodec`] as a [`Target`].
pub struct Plain<C>(pub C);

impl<C: PlainCodec> Target for Plain<C> {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn about(&self) -> &'static str {
        "a codec plugged in through PlainCodec"
    }

    fn framing(&self) -> Framing {
        Framing {
            refuses_trailing_bytes: self.0.refuses_trailing_bytes(),
            ..Framing::default()
        }
    }

    fn allocation_bound(&self, len: usize) -> usize {
        self.0.allocation_bound(len)
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        let value = self.0.generate(u)?;
        let bytes = self
            .0
            .encode(&value)
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        Ok(Sample {
            bytes,
            map: FieldMap::default(),
        })
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        match self.0.decode(bytes) {
            Ok(value) => Verdict::Accepted {
                reencoded: self.0.encode(&value),
            },
            Err(error) => Verdict::Refused(Refusal {
                cause: "refused".into(),
                at: None,
                message: error.to_string(),
            }),
        }
    }
}
