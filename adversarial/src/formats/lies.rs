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
use std::collections::{BTreeMap, BTreeSet};

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
/// open. The default is what a security engineer wants: trailing bytes and
/// over-long varints refused, and a read's allocations held to
/// [`Policy::DEFAULT_SLACK`] plus [`Policy::DEFAULT_PER_BYTE`] per input
/// byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Bytes after the message are refused.
    pub refuse_trailing_bytes: bool,
    /// Every varint is in its shortest form.
    pub canonical: bool,
    /// The most a read may allocate at its peak, per input byte.
    pub alloc_per_byte: usize,
    /// And whatever its input, for small fixed buffers.
    pub alloc_slack: usize,
    /// The deepest a recursive type may nest: a message nested deeper is
    /// refused.
    pub max_depth: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            refuse_trailing_bytes: true,
            canonical: true,
            alloc_per_byte: Self::DEFAULT_PER_BYTE,
            alloc_slack: Self::DEFAULT_SLACK,
            max_depth: Self::DEFAULT_DEPTH,
        }
    }
}

impl Policy {
    /// The default allowance per input byte: a Rust value may hold one
    /// wire byte in a wide slot (a unit variant of a 40-byte enum, a
    /// vector's spare capacity), so four times the codec's.
    pub const DEFAULT_PER_BYTE: usize = 64;

    /// The default allowance whatever the input.
    pub const DEFAULT_SLACK: usize = 4096;

    /// The default depth limit: serde_json's recursion limit.
    pub const DEFAULT_DEPTH: usize = 128;

    /// The most a read of `len` bytes may allocate at its peak.
    #[must_use]
    pub const fn allocation_bound(self, len: usize) -> usize {
        len.saturating_mul(self.alloc_per_byte)
            .saturating_add(self.alloc_slack)
    }

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

/// The most integer fields `every-value` lies in per message: one of each
/// path, indices aside (`entities[].health`).
const EVERY_VALUE_FIELDS: usize = 8;

/// How many values beyond each end of the seen range `every-value` tries.
const BEYOND_SEEN: i128 = 2;

/// How many levels deep a `deep-nesting` lie nests, and the most bytes it
/// may take to do it.
const NESTING_LEVELS: usize = 50_000;
const NESTING_BYTES: usize = 1 << 20;

/// The range of an integer type by name.
fn int_range(ty: &str) -> Option<(i128, i128)> {
    Some(match ty {
        "u8" => (0, i128::from(u8::MAX)),
        "i8" => (i128::from(i8::MIN), i128::from(i8::MAX)),
        "u16" => (0, i128::from(u16::MAX)),
        "i16" => (i128::from(i16::MIN), i128::from(i16::MAX)),
        "u32" => (0, i128::from(u32::MAX)),
        "i32" => (i128::from(i32::MIN), i128::from(i32::MAX)),
        "u64" => (0, i128::from(u64::MAX)),
        "i64" => (i128::from(i64::MIN), i128::from(i64::MAX)),
        _ => return None,
    })
}

/// `value` as `format` writes an integer of type `ty`.
fn int_bytes<F: Format>(format: &F, ty: &str, value: i128) -> Option<Vec<u8>> {
    macro_rules! typed {
        ($($name:literal => $t:ty),*) => {
            match ty {
                $($name => format.to_bytes(&<$t>::try_from(value).ok()?).ok(),)*
                _ => None,
            }
        };
    }
    typed!("u8" => u8, "i8" => i8, "u16" => u16, "i16" => i16, "u32" => u32,
        "i32" => i32, "u64" => u64, "i64" => i64)
}

/// A path with its indices taken out: `entities[3].health` is
/// `entities[].health`.
fn shape(path: &str) -> String {
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
        Role::VariantTag(_) => 32,
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
    lies_of(format, policy, bytes, spans, &Seen::default(), |_| true)
}

/// The range of values honest messages were seen to hold in each integer
/// field, by shape of path (`entities[].health`): `every-value` tries the
/// values just beyond it, where a hand-written rule draws its line.
#[derive(Clone, Debug, Default)]
pub struct Seen(BTreeMap<String, (i128, i128)>);

impl Seen {
    /// Widens the ranges to the integers of one honest message's map.
    pub fn learn(&mut self, spans: &[Span]) {
        for span in spans {
            let value = match (span.role, &span.leaf) {
                (Role::Int(_), Leaf::Unsigned(v)) => i128::try_from(*v).ok(),
                (Role::Int(_), Leaf::Signed(v)) => Some(*v),
                _ => None,
            };
            if let Some(value) = value {
                let range = self.0.entry(shape(&span.path)).or_insert((value, value));
                *range = (range.0.min(value), range.1.max(value));
            }
        }
    }

    /// The range seen at `shape`.
    #[must_use]
    pub fn range(&self, shape: &str) -> Option<(i128, i128)> {
        self.0.get(shape).copied()
    }
}

/// The lies of the classes `wanted` picks, as [`lies`] tells them, with
/// `seen` for the values just beyond the honest ones.
#[must_use]
pub fn lies_of<F: Format>(
    format: &F,
    policy: Policy,
    bytes: &[u8],
    spans: &[Span],
    seen: &Seen,
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
    if wanted(Class::EveryValue) {
        teller.every_value(format, policy, spans, seen);
    }
    if wanted(Class::DeepNesting) {
        teller.deep_nesting(spans, policy.max_depth);
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
    fn wants(&self, class: Class) -> bool {
        (self.wanted)(class)
    }

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
        if let Some(bits) = int_bits(span.role).filter(|_| self.wants(Class::IntBeyondType)) {
            let beyond = varint.encode(1u128 << bits);
            self.tell(Class::IntBeyondType, span, &beyond, Owed::Refused);
            if let Some(too_long) = varint.too_long(bits) {
                self.tell(Class::IntBeyondType, span, &too_long, Owed::Refused);
            }
        }
        if !self.wants(Class::OverlongVarint) {
            return;
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
        let bombs = if self.wants(Class::LengthBomb) {
            BOMBS.as_slice()
        } else {
            &[]
        };
        for &bomb in bombs {
            if let Ok(claim) = format.to_bytes(&bomb) {
                self.tell(Class::LengthBomb, span, &claim, Owed::Refused);
            }
        }
        if !self.wants(Class::LengthOffByOne) {
            return;
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
            Role::VariantTag(_) if self.wants(Class::UnknownVariant) => {
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

    /// The edges of each integer field's type (the first of each shape of
    /// path), the values beside its own, and the two beyond each end of
    /// what honest messages were `seen` to hold there; and edge strings.
    fn every_value<F: Format>(&mut self, format: &F, policy: Policy, spans: &[Span], seen: &Seen) {
        let mut shapes = BTreeSet::new();
        for span in spans {
            if span.role == Role::StrLength {
                self.string_values(format, policy, span, &mut shapes);
                continue;
            }
            let Role::Int(ty) = span.role else {
                continue;
            };
            let own = match span.leaf {
                Leaf::Unsigned(v) => i128::try_from(v).ok(),
                Leaf::Signed(v) => Some(v),
                _ => None,
            };
            let (Some(own), Some((min, max))) = (own, int_range(ty)) else {
                continue;
            };
            let shape = shape(&span.path);
            let (low, high) = seen.range(&shape).unwrap_or((own, own));
            if shapes.len() >= EVERY_VALUE_FIELDS || !shapes.insert(shape) {
                continue;
            }
            let edges = [min, min + 1, -1, 0, 1, max - 1, max];
            let beside = [own - 1, own + 1];
            let beyond = (1..=BEYOND_SEEN).flat_map(|k| [low - k, high + k]);
            let mut values: Vec<i128> = edges.into_iter().chain(beside).chain(beyond).collect();
            values.sort_unstable();
            values.dedup();
            for value in values {
                if value == own || value < min || value > max {
                    continue;
                }
                if let Some(bytes) = int_bytes(format, ty, value) {
                    let owed = policy.another_message();
                    self.tell(Class::EveryValue, span, &bytes, owed);
                }
            }
        }
    }

    /// The string whose length `length` is, in place of the first string of
    /// each shape of path: empty, a NUL, characters of two and three
    /// bytes, and 300 letters.
    fn string_values<F: Format>(
        &mut self,
        format: &F,
        policy: Policy,
        length: &Span,
        shapes: &mut BTreeSet<String>,
    ) {
        let Leaf::Length(len) = length.leaf else {
            return;
        };
        if shapes.len() >= EVERY_VALUE_FIELDS || !shapes.insert(shape(&length.path)) {
            return;
        }
        let whole = Span {
            bytes: length.bytes.start..length.bytes.end.saturating_add(len),
            ..length.clone()
        };
        let own = self
            .bytes
            .get(whole.bytes.clone())
            .unwrap_or_default()
            .to_vec();
        let long = "a".repeat(300);
        for text in ["", "\0", "é", "€", long.as_str()] {
            if let Ok(bytes) = format.to_bytes(text) {
                if bytes != own {
                    self.tell(Class::EveryValue, &whole, &bytes, policy.another_message());
                }
            }
        }
    }

    /// A recursive type nested one level past `max_depth` more than it
    /// was, and [`NESTING_LEVELS`] more: the bytes from a variant's tag to
    /// the tag of the same enum inside it, written again and again before
    /// the outer one. Deeper than the target declares, each is owed a
    /// refusal (and a message whose outer levels needed more after their
    /// inner one would be refused anyway); the second is deep enough to
    /// overflow a stack that has no limit to keep it.
    fn deep_nesting(&mut self, spans: &[Span], max_depth: usize) {
        // Spans come in the order written, a value before what it holds: the
        // first tag of the same enum after a tag lies inside it, if any does.
        let mut last: BTreeMap<&str, &Span> = BTreeMap::new();
        let mut best: Option<(usize, usize, &Span)> = None;
        for inner in spans {
            let Role::VariantTag(name) = inner.role else {
                continue;
            };
            if let Some(outer) = last.insert(name, inner) {
                let nested =
                    inner.path.len() > outer.path.len() && inner.path.starts_with(&outer.path);
                let (from, to) = (outer.bytes.start, inner.bytes.start);
                if nested && to > from && best.is_none_or(|(f, t, _)| to - from < t - f) {
                    best = Some((from, to, outer));
                }
            }
        }
        let Some((from, to, outer)) = best else {
            return;
        };
        let level = self.bytes.get(from..to).unwrap_or_default();
        let deepest = NESTING_LEVELS.min(NESTING_BYTES / level.len().max(1));
        for levels in [max_depth.saturating_add(1).min(deepest), deepest] {
            let mut bytes = self.bytes.get(..from).unwrap_or_default().to_vec();
            bytes.extend_from_slice(&level.repeat(levels));
            bytes.extend_from_slice(self.bytes.get(from..).unwrap_or_default());
            self.told.push(Lie {
                class: Class::DeepNesting,
                path: format!("{} ({levels} levels more)", outer.path),
                bytes,
                owed: Owed::Refused,
            });
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
