//! One lie told in one field of a real serde encoding, with the verdict
//! the format's own contract owes it: an unknown variant index, an option
//! tag or a bool byte outside 0 and 1, a string that is not UTF-8, a
//! `char` that is none, an integer beyond its type, the message cut at a
//! field's first byte; and, owed what the target's [`Policy`] declares, a
//! varint in more bytes than it needs and a byte after the message.

use super::varint::zigzag;
use super::{Format, Leaf, Role, Span};

/// A kind of lie told in a serde encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SerdeClass {
    /// A variant index no enum of a derive has (1,000,000).
    TagOutOfRange,
    /// An option's tag 2.
    OptionTagOutOfRange,
    /// A bool's byte 2.
    BoolOutOfRange,
    /// A string's first byte 0xFF, never UTF-8.
    InvalidUtf8,
    /// A `char`'s last byte 0xFF.
    InvalidChar,
    /// An integer wider than a byte, as a varint of one more than its
    /// type holds (70,000 for a u16 is the same kind).
    IntBeyondType,
    /// A varint (integer, length or variant index) in one byte more than
    /// its value needs.
    OverlongVarint,
    /// The message cut where a field begins.
    Truncated,
    /// One zero byte after the message.
    TrailingByte,
}

impl SerdeClass {
    /// Every class.
    pub const ALL: [Self; 9] = [
        Self::TagOutOfRange,
        Self::OptionTagOutOfRange,
        Self::BoolOutOfRange,
        Self::InvalidUtf8,
        Self::InvalidChar,
        Self::IntBeyondType,
        Self::OverlongVarint,
        Self::Truncated,
        Self::TrailingByte,
    ];

    /// Its name in tables.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::TagOutOfRange => "tag-out-of-range",
            Self::OptionTagOutOfRange => "option-tag-out-of-range",
            Self::BoolOutOfRange => "bool-out-of-range",
            Self::InvalidUtf8 => "invalid-utf8",
            Self::InvalidChar => "invalid-char",
            Self::IntBeyondType => "int-beyond-type",
            Self::OverlongVarint => "overlong-varint",
            Self::Truncated => "truncated",
            Self::TrailingByte => "trailing-byte",
        }
    }
}

/// The verdict a lie is owed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owed {
    /// Refused.
    Refused,
    /// Accepted, with the value the honest message held.
    AcceptedAsBefore,
}

/// What a target declares where the format's contract leaves the verdict
/// open. The default is what a security engineer wants: both refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Bytes after the message are refused.
    pub refuse_trailing_bytes: bool,
    /// Every varint is in its shortest form.
    pub canonical: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            refuse_trailing_bytes: true,
            canonical: true,
        }
    }
}

impl Policy {
    const fn owed(refuse: bool) -> Owed {
        if refuse {
            Owed::Refused
        } else {
            Owed::AcceptedAsBefore
        }
    }
}

/// The varint a span holds, as an unsigned value, when it is one: an
/// integer wider than a byte, a length or a variant index, in a varint
/// format.
fn varint_value(span: &Span) -> Option<u128> {
    match (&span.leaf, span.role) {
        (_, Role::Int("u8" | "i8")) => None,
        (Leaf::Unsigned(value), Role::Int(_)) => Some(*value),
        (Leaf::Signed(value), Role::Int(_)) => Some(zigzag(*value)),
        (Leaf::Length(len), _) => u128::try_from(*len).ok(),
        (Leaf::Tag(index), _) => Some(u128::from(*index)),
        _ => None,
    }
}

/// The bits of an integer type (`u16` 16), for those a varint may exceed.
fn int_bits(role: Role) -> Option<u32> {
    match role {
        Role::Int("u16" | "i16") => Some(16),
        Role::Int("u32" | "i32") => Some(32),
        Role::Int("u64" | "i64") => Some(64),
        _ => None,
    }
}

/// The bits of the type a varint span holds: an integer's, a length's
/// (usize, 64) or a variant index's (u32).
fn varint_bits(role: Role) -> u32 {
    match role {
        Role::Int("u128" | "i128") => 128,
        Role::VariantTag => 32,
        role => int_bits(role).unwrap_or(64),
    }
}

/// One lie: where it was told, the bytes, and the verdict owed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lie {
    /// Its kind.
    pub class: SerdeClass,
    /// The field it was told in (empty for the message as a whole).
    pub path: String,
    /// The message with the lie in it.
    pub bytes: Vec<u8>,
    /// What the reading call owes it.
    pub owed: Owed,
}

/// `bytes` with `span`'s bytes replaced by `with`.
fn replaced(bytes: &[u8], span: &Span, with: &[u8]) -> Vec<u8> {
    let mut out = bytes.get(..span.bytes.start).unwrap_or_default().to_vec();
    out.extend_from_slice(with);
    out.extend_from_slice(bytes.get(span.bytes.end..).unwrap_or_default());
    out
}

/// Every lie these classes tell in the encoding `bytes` whose field map is
/// `spans`, as `format` writes and reads it, owed what its contract or
/// `policy` says: one per field a class fits.
#[must_use]
pub fn lies<F: Format>(format: &F, policy: Policy, bytes: &[u8], spans: &[Span]) -> Vec<Lie> {
    let mut told = Vec::new();
    let mut tell_owed = |class, span: &Span, bytes: Vec<u8>, owed| {
        told.push(Lie {
            class,
            path: span.path.clone(),
            bytes,
            owed,
        });
    };
    for span in spans {
        let mut tell = |class, span: &Span, bytes: Vec<u8>| {
            tell_owed(class, span, bytes, Owed::Refused);
        };
        if let (Some(varint), Some(value)) = (format.varint(), varint_value(span)) {
            if let Some(bits) = int_bits(span.role) {
                let beyond = varint.encode(1u128 << bits);
                tell(
                    SerdeClass::IntBeyondType,
                    span,
                    replaced(bytes, span, &beyond),
                );
            }
            if let Some(longer) = varint.overlong(value, varint_bits(span.role)) {
                let lie = replaced(bytes, span, &longer);
                let owed = Policy::owed(policy.canonical);
                tell_owed(SerdeClass::OverlongVarint, span, lie, owed);
            }
        }
        let mut tell = |class, span: &Span, bytes: Vec<u8>| {
            tell_owed(class, span, bytes, Owed::Refused);
        };
        let own = bytes.get(span.bytes.clone()).unwrap_or_default();
        match span.role {
            Role::VariantTag => {
                if let Ok(tag) = format.to_bytes(&1_000_000u32) {
                    tell(SerdeClass::TagOutOfRange, span, replaced(bytes, span, &tag));
                }
            }
            Role::OptionTag => tell(
                SerdeClass::OptionTagOutOfRange,
                span,
                replaced(bytes, span, &[2]),
            ),
            Role::Bool => tell(
                SerdeClass::BoolOutOfRange,
                span,
                replaced(bytes, span, &[2]),
            ),
            Role::StrBytes => {
                let mut text = own.to_vec();
                if let Some(first) = text.first_mut() {
                    *first = 0xFF;
                }
                tell(SerdeClass::InvalidUtf8, span, replaced(bytes, span, &text));
            }
            Role::Char => {
                let mut code = own.to_vec();
                if let Some(last) = code.last_mut() {
                    *last = 0xFF;
                }
                tell(SerdeClass::InvalidChar, span, replaced(bytes, span, &code));
            }
            _ => {}
        }
        if span.bytes.start > 0 {
            let cut = bytes.get(..span.bytes.start).unwrap_or_default().to_vec();
            tell(SerdeClass::Truncated, span, cut);
        }
    }
    let mut longer = bytes.to_vec();
    longer.push(0);
    told.push(Lie {
        class: SerdeClass::TrailingByte,
        path: String::new(),
        bytes: longer,
        owed: Policy::owed(policy.refuse_trailing_bytes),
    });
    told
}
