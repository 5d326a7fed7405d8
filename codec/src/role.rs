//! What a field does in its protocol, beyond its wire rule: the count of a
//! list, an index of a subset, a save's version. The codec's operations
//! (and the derive) tell the stream each field's role through
//! [`Stream::field_role`](crate::Stream::field_role); the codec's own
//! streams ignore it, and a recording stream (the harness's field maps)
//! keeps it, so that an attack on "every count" finds every count whatever
//! the protocol calls it.

/// A field's role. Every field starts as [`Role::Value`]; operations that
/// know better say so after naming the field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Role {
    /// A value whose declaration is its only rule.
    #[default]
    Value,
    /// The number of elements of a list or subset that follows.
    Count,
    /// An absolute index of a subset: strictly increasing within it.
    Index,
    /// A step of a relative index ladder (scenes D): a difference from the
    /// previous index.
    RelativeIndex,
    /// The value that ends a subset, or the ladder steps that reach it.
    Sentinel,
    /// A gap between indices of a Golomb-coded subset.
    Gap,
    /// A Golomb code's parameter that the packet keeps: any entry of the
    /// table codes the subset, and a reader returns the one it read.
    Parameter,
    /// A Golomb code's parameter that must be the one coding the subset in
    /// the fewest bits: a reader refuses any other.
    BestParameter,
    /// The flag that says whether a subset element is sent.
    Presence,
    /// The flag that says whether an optional value (`Option<T>`) follows.
    Optional,
    /// A packet's type.
    PacketType,
    /// A packet's CRC field.
    Crc,
    /// A versioned save's version.
    Version,
    /// A versioned save's running integrity counter.
    Integrity,
    /// The parts of a smallest-three quaternion: the largest component's
    /// index, then the three others.
    Quaternion,
    /// The bits of a hand-written field (`with = path`) that declares its
    /// rule (`valid = path`): the harness tries every value they can hold,
    /// and an accepted value that breaks the rule cannot be written back.
    Ruled,
}

impl Role {
    /// Every role, in declaration order.
    pub const ALL: [Self; 16] = [
        Self::Value,
        Self::Count,
        Self::Index,
        Self::RelativeIndex,
        Self::Sentinel,
        Self::Gap,
        Self::Parameter,
        Self::BestParameter,
        Self::Presence,
        Self::Optional,
        Self::PacketType,
        Self::Crc,
        Self::Version,
        Self::Integrity,
        Self::Quaternion,
        Self::Ruled,
    ];

    /// A short name for tables and JSON.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Value => "value",
            Self::Count => "count",
            Self::Index => "index",
            Self::RelativeIndex => "relative-index",
            Self::Sentinel => "sentinel",
            Self::Gap => "gap",
            Self::Parameter => "parameter",
            Self::BestParameter => "best-parameter",
            Self::Presence => "presence",
            Self::Optional => "optional",
            Self::PacketType => "packet-type",
            Self::Crc => "crc",
            Self::Version => "version",
            Self::Integrity => "integrity",
            Self::Quaternion => "quaternion",
            Self::Ruled => "ruled",
        }
    }
}
