//! What a case is: the class of lie it tells, the bytes, and the verdict
//! the reader owes it. [`crate::mutate`] builds a `codec` protocol's cases,
//! a target with its own lies ([`crate::target::Target::own_cases`]) its own.

/// A path with its indices taken out: `entities[3].health` is
/// `entities[].health`.
pub(crate) fn shape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut inside = false;
    for c in path.chars() {
        match c {
            '[' => {
                inside = true;
                out.push('[');
            }
            ']' => {
                inside = false;
                out.push(']');
            }
            _ if inside => {}
            c => out.push(c),
        }
    }
    out
}

/// A mutation class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Class {
    /// The unmodified sample: must be accepted and re-encode identically.
    Valid,
    /// A count above its maximum: every value up to the field's all-ones.
    OutOfRangeCount,
    /// A ranged value (or compressed-float code) above its range; and
    /// every value of a hand-written field that declares its rule.
    OutOfRangeValue,
    /// A packet type the protocol does not have.
    UnknownPacketType,
    /// One set bit in alignment padding.
    NonZeroPadding,
    /// The packet cut at a byte boundary.
    TruncateBytes,
    /// The packet cut inside a byte, the rest of that byte zeroed.
    TruncateBits,
    /// The packet cut where its sentinel starts.
    MissingSentinel,
    /// A sentinel field above its range.
    OutOfRangeSentinel,
    /// A Golomb-coded subset coded again under each other parameter of
    /// its coded set: refused where the parameter must be the best,
    /// accepted where the packet keeps it.
    OtherParameter,
    /// The sentinel value written in place of an earlier index.
    RepeatedSentinel,
    /// An index equal to the one before it.
    DuplicateIndex,
    /// An index below the one before it.
    DecreasingIndex,
    /// A serialize check (mid-packet or end of packet) with each of its
    /// bits flipped in turn, then each of its bytes.
    BadCheck,
    /// The CRC field with each of its bits flipped in turn, then each byte.
    BadCrc,
    /// The CRC of another protocol id: the id with each bit, then each
    /// byte, flipped.
    WrongProtocolId,
    /// A save version newer than the reader knows: the next ones, the
    /// largest, and the latest with each clear bit set.
    FutureVersion,
    /// An integrity counter with each of its bits flipped in turn, then
    /// each of its bytes.
    BrokenIntegrity,
    /// A string byte that breaks UTF-8, or a wide unit above 0xFFFF.
    InvalidUtf8,
    /// A NUL among a string's bytes or a wide string's units.
    InteriorNul,
    /// A string length beyond the string's buffer.
    StringTooLong,
    /// A smallest-three quaternion no unit quaternion has.
    InvalidQuaternion,
    /// Bytes after the end of the packet.
    TrailingBytes,
    /// A packet longer than the protocol's maximum, CRC intact.
    OversizedPacket,
    /// A serde enum's variant index that no variant has.
    UnknownVariant,
    /// A serde option's tag outside 0 (none) and 1 (some).
    BadOptionTag,
    /// A serde bool's byte outside 0 and 1.
    BadBool,
    /// A serde `char` that is no Unicode scalar value.
    InvalidChar,
    /// A serde integer's varint that decodes beyond its type, or that is
    /// longer than any of its type (11 bytes for a `u64` in LEB128).
    IntBeyondType,
    /// A serde varint (integer, length or variant index) in more bytes than
    /// its value needs: owed what the target declares.
    OverlongVarint,
    /// A serde length prefix (sequence, map, string, bytes) set to the
    /// largest values its encoding holds, with a few bytes behind it.
    LengthBomb,
    /// A serde length prefix one below and one above the items that follow.
    LengthOffByOne,
    /// Each integer field of a serde type (one of each path) set to the
    /// edges of its type, beside its own value, and just beyond the values
    /// honest messages hold there; each string to edge strings: owed a
    /// refusal or a value that writes back to the same bytes, so a
    /// hand-written rule must refuse what its writer will not write.
    EveryValue,
    /// A recursive serde type nested past its depth limit, and as deep as
    /// the policy's most bytes allow, along each recursive path (an enum
    /// inside itself, `Option<Box<T>>`, `Vec<T>`, a map of `T`): owed a
    /// refusal, never a stack overflow.
    DeepNesting,
    /// A serde map's first key given again after its last entry, the
    /// length one more: owed a refusal or a value that writes the bytes
    /// read (serde's maps keep the last value, so accept another value).
    DuplicateKey,
    /// A serde map's first two entries swapped: owed what the policy's
    /// `MapOrder` says (the same message, or another spelling of it).
    KeysOutOfOrder,
    /// Random bit flips: any verdict but a panic or a non-canonical accept.
    BitFlip,
}

impl Class {
    /// Every class, in table order: [`Class::CODEC`]'s but bit-flip, the
    /// serde targets' own, then bit-flip.
    pub const ALL: [Self; 37] = join(&Self::CODEC, 24, &Self::SERDE_OWN);

    /// The classes a serde target tells (`adversarial::formats`, feature
    /// `serde`): those of any message, and the lies of a serde encoding.
    pub const SERDE: [Self; 17] = join(
        &[
            Self::Valid,
            Self::TruncateBytes,
            Self::InvalidUtf8,
            Self::TrailingBytes,
            Self::BitFlip,
        ],
        4,
        &Self::SERDE_OWN,
    );

    /// The classes only serde targets tell.
    const SERDE_OWN: [Self; 12] = [
        Self::UnknownVariant,
        Self::BadOptionTag,
        Self::BadBool,
        Self::InvalidChar,
        Self::IntBeyondType,
        Self::OverlongVarint,
        Self::LengthBomb,
        Self::LengthOffByOne,
        Self::EveryValue,
        Self::DeepNesting,
        Self::DuplicateKey,
        Self::KeysOutOfOrder,
    ];

    /// The classes of a `codec` protocol's fields, in table order.
    pub const CODEC: [Self; 25] = [
        Self::Valid,
        Self::OutOfRangeCount,
        Self::OutOfRangeValue,
        Self::UnknownPacketType,
        Self::NonZeroPadding,
        Self::TruncateBytes,
        Self::TruncateBits,
        Self::MissingSentinel,
        Self::OutOfRangeSentinel,
        Self::OtherParameter,
        Self::RepeatedSentinel,
        Self::DuplicateIndex,
        Self::DecreasingIndex,
        Self::BadCheck,
        Self::BadCrc,
        Self::WrongProtocolId,
        Self::FutureVersion,
        Self::BrokenIntegrity,
        Self::InvalidUtf8,
        Self::InteriorNul,
        Self::StringTooLong,
        Self::InvalidQuaternion,
        Self::TrailingBytes,
        Self::OversizedPacket,
        Self::BitFlip,
    ];

    /// The class's name on the command line and in tables.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Valid => "valid",
            Self::OutOfRangeCount => "out-of-range-count",
            Self::OutOfRangeValue => "out-of-range-value",
            Self::UnknownPacketType => "unknown-packet-type",
            Self::NonZeroPadding => "non-zero-padding",
            Self::TruncateBytes => "truncate-bytes",
            Self::TruncateBits => "truncate-bits",
            Self::MissingSentinel => "missing-sentinel",
            Self::OutOfRangeSentinel => "out-of-range-sentinel",
            Self::OtherParameter => "other-parameter",
            Self::RepeatedSentinel => "repeated-sentinel",
            Self::DuplicateIndex => "duplicate-index",
            Self::DecreasingIndex => "decreasing-index",
            Self::BadCheck => "bad-check",
            Self::BadCrc => "bad-crc",
            Self::WrongProtocolId => "wrong-protocol-id",
            Self::FutureVersion => "future-version",
            Self::BrokenIntegrity => "broken-integrity",
            Self::InvalidUtf8 => "invalid-utf8",
            Self::InteriorNul => "interior-nul",
            Self::StringTooLong => "string-too-long",
            Self::InvalidQuaternion => "invalid-quaternion",
            Self::TrailingBytes => "trailing-bytes",
            Self::OversizedPacket => "oversized-packet",
            Self::UnknownVariant => "unknown-variant",
            Self::BadOptionTag => "bad-option-tag",
            Self::BadBool => "bad-bool",
            Self::InvalidChar => "invalid-char",
            Self::IntBeyondType => "int-beyond-type",
            Self::OverlongVarint => "overlong-varint",
            Self::LengthBomb => "length-bomb",
            Self::LengthOffByOne => "length-off-by-one",
            Self::EveryValue => "every-value",
            Self::DeepNesting => "deep-nesting",
            Self::DuplicateKey => "duplicate-key",
            Self::KeysOutOfOrder => "keys-out-of-order",
            Self::BitFlip => "bit-flip",
        }
    }
}

/// `head` with `middle` put in at `at`: a table's classes, with the ones
/// a kind of target adds before those that close it (bit-flip).
const fn join<const N: usize, const H: usize, const M: usize>(
    head: &[Class; H],
    at: usize,
    middle: &[Class; M],
) -> [Class; N] {
    assert!(H + M == N && at <= H, "the classes do not add up");
    let mut out = [Class::Valid; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < at {
            head[i]
        } else if i < at + M {
            middle[i - at]
        } else {
            head[i - M]
        };
        i += 1;
    }
    out
}

/// The verdict a case is owed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owed {
    /// Accepted, and re-encoded to the very same bytes.
    Accept,
    /// Refused with one of `causes`, at `at` when given.
    Refusal {
        /// Acceptable causes (`DecodeError::cause` names).
        causes: &'static [&'static str],
        /// The exact bit offset, when the lie pins it.
        at: Option<u64>,
    },
    /// Refused, whatever the cause.
    AnyRefusal,
    /// Anything but a panic or an accept that re-encodes differently.
    Anything,
    /// Accepted, and re-encoded to these bytes: the honest message's, when
    /// the lie only spelled its value another way the target allows.
    AcceptAs(Vec<u8>),
    /// Anything but a panic, a death, an allocation beyond the bound or an
    /// accepted value that does not encode: the target declares that a
    /// value may have more than one encoding, so an accept that re-encodes
    /// to other bytes is no fault.
    Unharmed,
}

/// One malicious (or valid) packet and what the reader owes it.
#[derive(Clone, Debug)]
pub struct Case {
    /// Its class.
    pub class: Class,
    /// The bytes handed to the reader.
    pub bytes: Vec<u8>,
    /// The verdict owed.
    pub owed: Owed,
    /// What was done, for reports.
    pub lie: String,
}

#[cfg(test)]
mod tests {
    use super::Class;

    #[test]
    fn every_class_is_in_the_table_once_and_each_kind_of_target_tells_its_own() {
        use clap::ValueEnum;
        let all = Class::ALL.to_vec();
        assert_eq!(all.len(), Class::value_variants().len());
        for class in Class::value_variants() {
            assert_eq!(all.iter().filter(|c| *c == class).count(), 1, "{class:?}");
        }
        assert_eq!(all.last(), Some(&Class::BitFlip));
        let codec: Vec<_> = all.iter().filter(|c| Class::CODEC.contains(c)).collect();
        assert_eq!(
            codec,
            Class::CODEC.iter().collect::<Vec<_>>(),
            "CODEC in table order"
        );
        let serde: Vec<_> = all.iter().filter(|c| Class::SERDE.contains(c)).collect();
        assert_eq!(
            serde,
            Class::SERDE.iter().collect::<Vec<_>>(),
            "SERDE in table order"
        );
        assert_eq!(Class::SERDE.first(), Some(&Class::Valid));
    }
}

/// How a packet case failed: the kinds a campaign's [`crate::campaign::Tally`]
/// counts, one column each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Failing {
    /// Refused, but not with the error owed.
    OtherError,
    /// Accepted where a refusal was owed.
    Accepted,
    /// Panicked.
    Panicked,
    /// Accepted, but re-encoded differently.
    NonCanonical,
    /// Allocated beyond the bound.
    OverAllocated,
    /// The process running the read died (abort, stack overflow, signal).
    Aborted,
    /// The process running the read ran out of memory.
    OutOfMemory,
    /// No answer within the per-case deadline.
    TimedOut,
}

impl Failing {
    /// Every kind, in the table's order.
    pub const ALL: [Self; 8] = [
        Self::OtherError,
        Self::Accepted,
        Self::Panicked,
        Self::NonCanonical,
        Self::OverAllocated,
        Self::Aborted,
        Self::OutOfMemory,
        Self::TimedOut,
    ];

    /// Its name in the campaign's JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::OtherError => "other_error",
            Self::Accepted => "accepted",
            Self::Panicked => "panics",
            Self::NonCanonical => "non_canonical",
            Self::OverAllocated => "over_allocated",
            Self::Aborted => "aborted",
            Self::OutOfMemory => "out_of_memory",
            Self::TimedOut => "timed_out",
        }
    }
}
