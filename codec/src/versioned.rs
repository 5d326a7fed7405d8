//! Versioned serialization, the method of Media Molecule's LittleBigPlanet
//! saves: a version header, fields that know the version that added them
//! (and the one that removed them), and running integrity counters.
//!
//! One `serialize` function reads every version ever written: a field absent
//! from an old save keeps its default, and a removed field is read into a
//! scratch value that the caller converts into the fields that replaced it.
//! Writers write their own current version.

use crate::error::DecodeError;
use crate::stream::Stream;

/// A stream inside a versioned save: knows the save's version and counts
/// integrity checks.
#[derive(Debug)]
pub struct Versioned<'s, S: Stream> {
    stream: &'s mut S,
    version: u32,
    counter: u32,
}

impl<'s, S: Stream> Versioned<'s, S> {
    /// The version header, as 32 bits. A writer writes `version`; a reader
    /// refuses one above `latest` ([`DecodeError::VersionTooNew`]) or below
    /// `first` ([`DecodeError::OutOfRange`]: no such revision ever existed).
    pub fn begin(
        stream: &'s mut S,
        version: &mut u32,
        first: u32,
        latest: u32,
    ) -> Result<Self, S::Error> {
        stream.field_name("version");
        stream.field_role(crate::role::Role::Version);
        let at = stream.bit_offset();
        let mut wire = *version;
        stream.serialize_u32(&mut wire)?;
        if wire > latest {
            return Err(stream.refuse(DecodeError::VersionTooNew {
                at,
                found: wire,
                latest,
            }));
        }
        if wire < first {
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        *version = wire;
        Ok(Self {
            stream,
            version: wire,
            counter: 0,
        })
    }

    /// The save's version.
    #[must_use]
    pub const fn version(&self) -> u32 {
        self.version
    }

    /// The stream, for fields every version has.
    pub fn stream(&mut self) -> &mut S {
        self.stream
    }

    /// Whether a field added in `added` and removed in `removed` (if ever)
    /// is in this save.
    #[must_use]
    pub fn has(&self, added: u32, removed: Option<u32>) -> bool {
        self.version >= added && removed.is_none_or(|r| self.version < r)
    }

    /// A field added in version `added`: serialized when the save has it,
    /// otherwise left as it is (the caller's default).
    pub fn added<T>(
        &mut self,
        added: u32,
        value: &mut T,
        serialize: impl FnOnce(&mut S, &mut T) -> Result<(), S::Error>,
    ) -> Result<(), S::Error> {
        if self.has(added, None) {
            serialize(self.stream, value)?;
        }
        Ok(())
    }

    /// A field that lived from version `added` until version `removed`:
    /// serialized when the save has it. Returns whether it did, so that a
    /// reader can convert the old value into the fields that replaced it.
    pub fn removed<T>(
        &mut self,
        added: u32,
        removed: u32,
        value: &mut T,
        serialize: impl FnOnce(&mut S, &mut T) -> Result<(), S::Error>,
    ) -> Result<bool, S::Error> {
        let present = self.has(added, Some(removed));
        if present {
            serialize(self.stream, value)?;
        }
        Ok(present)
    }

    /// An integrity check: the running counter (0, 1, 2, ...) as 32 bits.
    /// A reader refuses any other value ([`DecodeError::IntegrityMismatch`]):
    /// the save lost its place.
    pub fn integrity(&mut self) -> Result<(), S::Error> {
        self.stream.field_name("integrity");
        self.stream.field_role(crate::role::Role::Integrity);
        let at = self.stream.bit_offset();
        let expected = self.counter;
        let mut found = expected;
        self.stream.serialize_u32(&mut found)?;
        if found != expected {
            return Err(self.stream.refuse(DecodeError::IntegrityMismatch {
                at,
                expected,
                found,
            }));
        }
        self.counter = self.counter.wrapping_add(1);
        Ok(())
    }
}
