//! Why a read was refused, and why a write was.
//!
//! Every refusal names its cause and the bit offset, counted from the first
//! bit of the stream, at which the offending field starts. The enum is small
//! and `Copy` so that a refused read costs no allocation, and it is
//! `#[non_exhaustive]` so that new protocols can add causes without breaking
//! callers who match on it.

use core::fmt;

/// Why a reader refused its input.
///
/// In every variant `at` is the bit offset where the refused field starts;
/// `found` is the value read off the wire, `expected`/`latest` what the
/// reader wanted, `label` the check's label, `len`/`max` byte counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[allow(missing_docs)] // the fields are described once, above
pub enum DecodeError {
    /// The field needs more bits than the stream has left.
    PastEnd { at: u64 },
    /// A ranged value decoded outside its declared range.
    OutOfRange { at: u64 },
    /// Alignment padding held a set bit.
    NonZeroPadding { at: u64 },
    /// A string payload is not well-formed UTF-8.
    InvalidUtf8 { at: u64 },
    /// A string or wide string holds a NUL among its transmitted units.
    InteriorNul { at: u64 },
    /// A wide string group is not a UTF-16 code unit, or a surrogate is unpaired.
    InvalidUtf16 { at: u64 },
    /// A serialize check read a value other than its label's hash.
    CheckMismatch {
        at: u64,
        label: &'static str,
        found: u32,
    },
    /// A relative or absolute index is not greater than the one before it.
    NotIncreasing { at: u64 },
    /// A value sent in a longer form than its writer would choose, where the
    /// protocol promises one encoding per value.
    NonCanonical { at: u64 },
    /// A smallest-three quaternion whose three components cannot be part of a
    /// unit quaternion (their squares sum above one).
    InvalidQuaternion { at: u64 },
    /// The packet is longer than its protocol's maximum packet size.
    TooLarge { len: usize, max: usize },
    /// The CRC32 over the protocol id and the packet does not match.
    BadCrc { expected: u32, found: u32 },
    /// The packet type field names no type of the protocol.
    UnknownPacketType { at: u64, found: u32 },
    /// Bytes follow the final check of a packet.
    TrailingBytes { at: u64 },
    /// A save's version is newer than the newest this reader knows.
    VersionTooNew { at: u64, found: u32, latest: u32 },
    /// A save's integrity counter does not hold the expected value.
    IntegrityMismatch { at: u64, expected: u32, found: u32 },
}

impl DecodeError {
    /// The bit offset at which the refusal happened.
    #[must_use]
    pub const fn bit_offset(&self) -> u64 {
        match *self {
            Self::PastEnd { at }
            | Self::OutOfRange { at }
            | Self::NonZeroPadding { at }
            | Self::InvalidUtf8 { at }
            | Self::InteriorNul { at }
            | Self::InvalidUtf16 { at }
            | Self::CheckMismatch { at, .. }
            | Self::NotIncreasing { at }
            | Self::NonCanonical { at }
            | Self::InvalidQuaternion { at }
            | Self::UnknownPacketType { at, .. }
            | Self::TrailingBytes { at }
            | Self::VersionTooNew { at, .. }
            | Self::IntegrityMismatch { at, .. } => at,
            Self::TooLarge { .. } | Self::BadCrc { .. } => 0,
        }
    }

    /// A short stable name for the cause, for tables and machine output.
    #[must_use]
    pub const fn cause(&self) -> &'static str {
        match self {
            Self::PastEnd { .. } => "past-end",
            Self::OutOfRange { .. } => "out-of-range",
            Self::NonZeroPadding { .. } => "non-zero-padding",
            Self::InvalidUtf8 { .. } => "invalid-utf8",
            Self::InteriorNul { .. } => "interior-nul",
            Self::InvalidUtf16 { .. } => "invalid-utf16",
            Self::CheckMismatch { .. } => "check-mismatch",
            Self::NotIncreasing { .. } => "not-increasing",
            Self::NonCanonical { .. } => "non-canonical",
            Self::InvalidQuaternion { .. } => "invalid-quaternion",
            Self::TooLarge { .. } => "too-large",
            Self::BadCrc { .. } => "bad-crc",
            Self::UnknownPacketType { .. } => "unknown-packet-type",
            Self::TrailingBytes { .. } => "trailing-bytes",
            Self::VersionTooNew { .. } => "version-too-new",
            Self::IntegrityMismatch { .. } => "integrity-mismatch",
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::CheckMismatch { at, label, found } => write!(
                f,
                "check \"{label}\" failed at bit {at}: read {found:#010X}, expected {:#010X}",
                crate::check_hash::check_hash(label)
            ),
            Self::TooLarge { len, max } => {
                write!(f, "packet of {len} bytes exceeds the maximum of {max}")
            }
            Self::BadCrc { expected, found } => write!(
                f,
                "bad CRC32: packet carries {found:#010X}, computed {expected:#010X}"
            ),
            Self::UnknownPacketType { at, found } => {
                write!(f, "unknown packet type {found} at bit {at}")
            }
            Self::VersionTooNew { at, found, latest } => write!(
                f,
                "save version {found} at bit {at} is newer than the latest known ({latest})"
            ),
            Self::IntegrityMismatch {
                at,
                expected,
                found,
            } => write!(
                f,
                "integrity counter at bit {at}: read {found}, expected {expected}"
            ),
            _ => write!(f, "{} at bit {}", self.cause(), self.bit_offset()),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Why a writer refused to write.
///
/// The writer trusts its caller, but not blindly: a value that a reader would
/// refuse is not written, so a writer can never produce a packet its own
/// reader rejects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[allow(missing_docs)] // `at` is the bit offset of the field, as in DecodeError
pub enum EncodeError {
    /// The destination buffer has no room for the next field.
    BufferFull { at: u64 },
    /// The value breaks the rule the reader would refuse it by.
    Invalid(DecodeError),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BufferFull { at } => write!(f, "buffer full at bit {at}"),
            Self::Invalid(why) => write!(f, "value a reader would refuse: {why}"),
        }
    }
}

impl std::error::Error for EncodeError {}
