//! One lie told in one field of a real serde encoding, with the verdict
//! the format's own contract owes it: an unknown variant index, an option
//! tag or a bool byte outside 0 and 1, a string that is not UTF-8, a
//! `char` that is none, the message cut at a field's first byte, a byte
//! after the message (owed what the reading call does by design).

use super::{Format, Role, Span};

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
    /// The message cut where a field begins.
    Truncated,
    /// One zero byte after the message.
    TrailingByte,
}

impl SerdeClass {
    /// Every class.
    pub const ALL: [Self; 7] = [
        Self::TagOutOfRange,
        Self::OptionTagOutOfRange,
        Self::BoolOutOfRange,
        Self::InvalidUtf8,
        Self::InvalidChar,
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
/// `spans`, as `format` writes and reads it: one per field a class fits.
#[must_use]
pub fn lies<F: Format>(format: &F, bytes: &[u8], spans: &[Span]) -> Vec<Lie> {
    let mut told = Vec::new();
    let mut tell = |class, span: &Span, bytes: Vec<u8>| {
        told.push(Lie {
            class,
            path: span.path.clone(),
            bytes,
            owed: Owed::Refused,
        });
    };
    for span in spans {
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
        owed: if format.accepts_trailing_bytes() {
            Owed::AcceptedAsBefore
        } else {
            Owed::Refused
        },
    });
    told
}
