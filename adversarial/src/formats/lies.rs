//! One lie told in one field of a real serde encoding, with the verdict
//! the format's own contract owes it: an unknown variant index, an option
//! tag or a bool byte outside 0 and 1, a string that is not UTF-8, a
//! `char` that is none, an integer beyond its type, a length prefix that
//! claims the most items its encoding holds, the message cut at a field's
//! first byte and inside it; owed what the target's [`Policy`] declares, a
//! varint in more bytes than it needs and a byte after the message; and a
//! length prefix one off, owed a refusal or a value that encodes to the
//! very bytes read.

use super::varint::zigzag;
use super::{Format, Leaf, Role, Span};
use crate::case::Class;
use std::collections::BTreeSet;

/// The verdict a lie is owed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owed {
    /// Refused.
    Refused,
    /// Accepted, with the value the honest message held.
    AcceptedAsBefore,
    /// Refused, or accepted as a value that encodes to the very bytes
    /// read: the lie may have made another valid message.
    Canonical,
    /// Anything but a crash: the target takes a value in more than one
    /// encoding, so another valid message may read from these bytes.
    Unharmed,
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

    /// What a lie that may make another valid message is owed.
    const fn another_message(self) -> Owed {
        if self.refuse_trailing_bytes && self.canonical {
            Owed::Canonical
        } else {
            Owed::Unharmed
        }
    }
}

/// The lengths a bomb claims: the most a u64 holds, and a u32 (the most a
/// 32-bit reader's usize holds).
const BOMBS: [u64; 2] = [u64::MAX, u32::MAX as u64];

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
    /// Its class.
    pub class: Class,
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

/// Every lie the serde classes tell in the encoding `bytes` whose field
/// map is `spans`, as `format` writes and reads it, owed what its contract
/// or `policy` says: one per field a class fits.
#[must_use]
pub fn lies<F: Format>(format: &F, policy: Policy, bytes: &[u8], spans: &[Span]) -> Vec<Lie> {
    lies_of(format, policy, bytes, spans, |_| true)
}

/// The lies of the classes `wanted` picks, as [`lies`] tells them.
#[must_use]
pub fn lies_of<F: Format>(
    format: &F,
    policy: Policy,
    bytes: &[u8],
    spans: &[Span],
    wanted: impl Fn(Class) -> bool,
) -> Vec<Lie> {
    let mut teller = Teller {
        told: Vec::new(),
        bytes,
        wanted: &wanted,
    };
    for span in spans {
        teller.varints(format, policy, span);
        teller.lengths(format, policy, span);
        teller.leaf(format, span);
    }
    if wanted(Class::TruncateBytes) {
        teller.cuts(spans);
    }
    let mut longer = bytes.to_vec();
    longer.push(0);
    teller.tell_whole(
        Class::TrailingBytes,
        longer,
        Policy::owed(policy.refuse_trailing_bytes),
    );
    teller.told
}

/// Lies told so far in one encoding.
struct Teller<'a, W: Fn(Class) -> bool> {
    told: Vec<Lie>,
    bytes: &'a [u8],
    wanted: &'a W,
}

impl<W: Fn(Class) -> bool> Teller<'_, W> {
    fn tell(&mut self, class: Class, span: &Span, with: &[u8], owed: Owed) {
        if (self.wanted)(class) {
            self.told.push(Lie {
                class,
                path: span.path.clone(),
                bytes: replaced(self.bytes, span, with),
                owed,
            });
        }
    }

    fn tell_whole(&mut self, class: Class, bytes: Vec<u8>, owed: Owed) {
        if (self.wanted)(class) {
            self.told.push(Lie {
                class,
                path: String::new(),
                bytes,
                owed,
            });
        }
    }

    /// An integer beyond its type, and a varint in more bytes than it needs.
    fn varints<F: Format>(&mut self, format: &F, policy: Policy, span: &Span) {
        let (Some(varint), Some(value)) = (format.varint(), varint_value(span)) else {
            return;
        };
        if let Some(bits) = int_bits(span.role) {
            let beyond = varint.encode(1u128 << bits);
            self.tell(Class::IntBeyondType, span, &beyond, Owed::Refused);
        }
        if let Some(longer) = varint.overlong(value, varint_bits(span.role)) {
            let owed = Policy::owed(policy.canonical);
            self.tell(Class::OverlongVarint, span, &longer, owed);
        }
    }

    /// A length prefix that claims the most items its encoding holds, and
    /// one that claims one item fewer or more than follow.
    fn lengths<F: Format>(&mut self, format: &F, policy: Policy, span: &Span) {
        let Leaf::Length(len) = span.leaf else {
            return;
        };
        for bomb in BOMBS {
            if let Ok(claim) = format.to_bytes(&bomb) {
                self.tell(Class::LengthBomb, span, &claim, Owed::Refused);
            }
        }
        let len = u64::try_from(len).unwrap_or(u64::MAX);
        for off in [len.checked_sub(1), len.checked_add(1)]
            .into_iter()
            .flatten()
        {
            if let Ok(claim) = format.to_bytes(&off) {
                self.tell(
                    Class::LengthOffByOne,
                    span,
                    &claim,
                    policy.another_message(),
                );
            }
        }
    }

    /// The lies of a leaf's own kind: a variant index, an option tag, a
    /// bool, a string's bytes, a `char`.
    fn leaf<F: Format>(&mut self, format: &F, span: &Span) {
        let own = self.bytes.get(span.bytes.clone()).unwrap_or_default();
        match span.role {
            Role::VariantTag => {
                if let Ok(tag) = format.to_bytes(&1_000_000u32) {
                    self.tell(Class::UnknownVariant, span, &tag, Owed::Refused);
                }
            }
            Role::OptionTag => self.tell(Class::BadOptionTag, span, &[2], Owed::Refused),
            Role::Bool => self.tell(Class::BadBool, span, &[2], Owed::Refused),
            Role::StrBytes if !own.is_empty() => {
                let mut text = own.to_vec();
                if let Some(first) = text.first_mut() {
                    *first = 0xFF;
                }
                self.tell(Class::InvalidUtf8, span, &text, Owed::Refused);
            }
            Role::Char => {
                let mut code = own.to_vec();
                if let Some(last) = code.last_mut() {
                    *last = 0xFF;
                }
                self.tell(Class::InvalidChar, span, &code, Owed::Refused);
            }
            _ => {}
        }
    }

    /// The message cut where each field begins and one byte into each
    /// field of more than one byte: a prefix of a message is never one.
    fn cuts(&mut self, spans: &[Span]) {
        let mut cuts = BTreeSet::new();
        for span in spans {
            cuts.insert((span.bytes.start, span.path.as_str(), "where it begins"));
            if span.bytes.len() > 1 {
                let inside = span.bytes.start.saturating_add(1);
                cuts.insert((inside, span.path.as_str(), "inside it"));
            }
        }
        let mut seen = BTreeSet::new();
        for (cut, path, place) in cuts {
            if cut == 0 || cut >= self.bytes.len() || !seen.insert(cut) {
                continue;
            }
            self.told.push(Lie {
                class: Class::TruncateBytes,
                path: format!("{path} ({place})"),
                bytes: self.bytes.get(..cut).unwrap_or_default().to_vec(),
                owed: Owed::Refused,
            });
        }
    }
}
