//! One lie told in one field of a real serde encoding, with the verdict
//! the format's own contract owes it: an unknown variant index, an option
//! tag or a bool byte outside 0 and 1, a string that is not UTF-8, a
//! `char` that is none, an integer beyond its type, a length prefix that
//! claims the most items its encoding holds, the message cut at a field's
//! first byte and inside it; owed what the target's [`Policy`] declares, a
//! varint in more bytes than it needs, a byte after the message, a map's
//! key given twice and its entries out of order; and a length prefix one
//! off, owed a refusal or a value that encodes to the very bytes read.

use super::maps::{duplicated, maps, swapped};
use super::varint::zigzag;
use super::{Format, Leaf, Role, Span};
use crate::case::{shape, Class};
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
    /// Accepted, as a value that writes the bytes read: the lie spelled
    /// the honest value in another way the policy counts as the same
    /// message (a map's entries in another order, under [`MapOrder::Any`]).
    AcceptedAsRead,
}

/// How the order of a map's entries counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MapOrder {
    /// A map's entries in any order are one message: a `HashMap` writes
    /// them in the order its random hasher gives, so honest peers differ.
    /// The harness compares maps entry for entry, and a message whose
    /// entries come in another order is owed acceptance as that message.
    #[default]
    Any,
    /// Entries come in key order, as a `BTreeMap` writes them: a message
    /// whose entries do not is owed what [`Policy::canonical`] says of
    /// another spelling of one value (refused, when canonical).
    Sorted,
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
    /// The most bytes a `deep-nesting` lie adds to a message: the largest
    /// message the reader's caller lets through.
    pub nesting_bytes: usize,
    /// How the order of a map's entries counts.
    pub map_order: MapOrder,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            refuse_trailing_bytes: true,
            canonical: true,
            alloc_per_byte: Self::DEFAULT_PER_BYTE,
            alloc_slack: Self::DEFAULT_SLACK,
            max_depth: Self::DEFAULT_DEPTH,
            nesting_bytes: Self::DEFAULT_NESTING_BYTES,
            map_order: MapOrder::Any,
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

    /// The default most bytes of nesting: 1 MiB, a message over a reliable
    /// stream; one level a byte overflows an 8 MiB stack in a release build.
    pub const DEFAULT_NESTING_BYTES: usize = 1 << 20;

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

/// How many values beyond each end of the seen range `every-value` tries.
const BEYOND_SEEN: i128 = 2;

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
        "u128" => (0, i128::MAX),
        "i128" => (i128::MIN, i128::MAX),
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
        "i32" => i32, "u64" => u64, "i64" => i64, "u128" => u128, "i128" => i128)
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

/// An integer leaf's `every-value` values, as `format` writes them.
fn int_values<F: Format>(format: &F, ty: &str, span: &Span, seen: &Seen) -> Vec<(String, Vec<u8>)> {
    let own = match span.leaf {
        Leaf::Unsigned(v) => i128::try_from(v).ok(),
        Leaf::Signed(v) => Some(v),
        _ => None,
    };
    let (Some(own), Some((min, max))) = (own, int_range(ty)) else {
        return Vec::new();
    };
    let (low, high) = seen.range(&shape(&span.path)).unwrap_or((own, own));
    let edges = [
        min,
        min.saturating_add(1),
        -1,
        0,
        1,
        max.saturating_sub(1),
        max,
    ];
    let beside = [own.saturating_sub(1), own.saturating_add(1)];
    let beyond = (1..=BEYOND_SEEN).flat_map(|k| [low.saturating_sub(k), high.saturating_add(k)]);
    let mut values: Vec<i128> = edges.into_iter().chain(beside).chain(beyond).collect();
    values.sort_unstable();
    values.dedup();
    values
        .into_iter()
        .filter(|v| *v != own && (min..=max).contains(v))
        .filter_map(|v| Some((v.to_string(), int_bytes(format, ty, v)?)))
        .collect()
}

/// A float leaf's `every-value` values: quiet and signalling NaNs, the
/// infinities, -0.0, the least subnormal, the type's extremes, and past
/// each end of what honest messages held (by the range's width and once
/// more, and twice the end's size).
fn float_values<F: Format>(
    format: &F,
    ty: &str,
    span: &Span,
    seen: &Seen,
) -> Vec<(String, Vec<u8>)> {
    let own = match span.leaf {
        Leaf::F32(v) => f64::from(v),
        Leaf::F64(v) => v,
        _ => return Vec::new(),
    };
    let (low, high) = seen.float_range(&shape(&span.path)).unwrap_or((own, own));
    let width = (high - low).abs().max(1.0);
    let past = [
        low - width,
        high + width,
        low - low.abs() - 1.0,
        high + high.abs() + 1.0,
    ];
    let own_bytes = format.to_bytes(&own).ok();
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    if ty == "f32" {
        let specials = [
            f32::from_bits(0x7FC0_0000),
            f32::from_bits(0x7FA0_0001),
            f32::from_bits(0xFFC0_0000),
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.0,
            f32::from_bits(1),
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
        ];
        #[allow(clippy::cast_possible_truncation)]
        let past = past.map(|v| v as f32);
        out.extend(specials.iter().chain(&past).filter_map(|v| {
            let shown = format!("{v:?} (0x{:08X})", v.to_bits());
            Some((shown, format.to_bytes(v).ok()?))
        }));
    } else {
        let specials = [
            f64::from_bits(0x7FF8_0000_0000_0000),
            f64::from_bits(0x7FF4_0000_0000_0001),
            f64::from_bits(0xFFF8_0000_0000_0000),
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            f64::from_bits(1),
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
        ];
        out.extend(specials.iter().chain(&past).filter_map(|v| {
            let shown = format!("{v:?} (0x{:016X})", v.to_bits());
            Some((shown, format.to_bytes(v).ok()?))
        }));
    }
    let own_written = match span.leaf {
        Leaf::F32(v) => format.to_bytes(&v).ok(),
        _ => own_bytes,
    };
    let mut seen_bytes = BTreeSet::new();
    out.retain(|(_, bytes)| {
        Some(bytes) != own_written.as_ref() && seen_bytes.insert(bytes.clone())
    });
    out
}

/// A `char` leaf's `every-value` values: NUL, and the first and last of
/// each UTF-8 width.
fn char_values<F: Format>(format: &F, span: &Span) -> Vec<(String, Vec<u8>)> {
    let own = match span.leaf {
        Leaf::Char(c) => c,
        _ => return Vec::new(),
    };
    [
        '\0',
        '\u{7F}',
        '\u{80}',
        '\u{7FF}',
        '\u{800}',
        '\u{FFFF}',
        '\u{10000}',
        '\u{10FFFF}',
    ]
    .into_iter()
    .filter(|c| *c != own)
    .filter_map(|c| Some((format!("{c:?}"), format.to_bytes(&c).ok()?)))
    .collect()
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
pub struct Seen(BTreeMap<String, (i128, i128)>, BTreeMap<String, (f64, f64)>);

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
            let float = match span.leaf {
                Leaf::F32(v) => Some(f64::from(v)),
                Leaf::F64(v) => Some(v),
                _ => None,
            };
            if let Some(value) = float.filter(|v| v.is_finite()) {
                let range = self.1.entry(shape(&span.path)).or_insert((value, value));
                *range = (range.0.min(value), range.1.max(value));
            }
        }
    }

    /// The range seen at `shape`.
    #[must_use]
    pub fn range(&self, shape: &str) -> Option<(i128, i128)> {
        self.0.get(shape).copied()
    }

    /// The range of finite floats seen at `shape`.
    #[must_use]
    pub fn float_range(&self, shape: &str) -> Option<(f64, f64)> {
        self.1.get(shape).copied()
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
        let most = policy.nesting_bytes;
        let deep = super::nesting::deep_nesting(bytes, spans, policy.max_depth, most);
        teller.told.extend(deep);
    }
    if wanted(Class::DuplicateKey) || wanted(Class::KeysOutOfOrder) {
        teller.map_lies(format, policy, spans);
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

    /// A lie of `span`'s bytes replaced by `with`, the value they hold
    /// `shown` in its path: `armor (= 101)`.
    fn tell_value(&mut self, class: Class, span: &Span, shown: &str, with: &[u8], owed: Owed) {
        if (self.wanted)(class) {
            self.told.push(Lie {
                class,
                path: format!("{} (= {shown})", span.path),
                bytes: replaced(self.bytes, span, with),
                owed,
            });
        }
    }

    fn tell_at(&mut self, class: Class, span: &Span, bytes: Vec<u8>, owed: Owed) {
        if (self.wanted)(class) {
            self.told.push(Lie {
                class,
                path: span.path.clone(),
                bytes,
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

    /// Every leaf's values (the first of each shape of path, so each field
    /// of the type, however deep a recursion before it): an integer's type
    /// edges, the values beside its own and the two beyond each end of
    /// what honest messages were `seen` to hold there; a float's specials
    /// and the values past what honest messages held; a `char`'s edges of
    /// each UTF-8 width; edge strings.
    fn every_value<F: Format>(&mut self, format: &F, policy: Policy, spans: &[Span], seen: &Seen) {
        let mut shapes = BTreeSet::new();
        let owed = policy.another_message();
        for span in spans {
            if !shapes.insert((shape(&span.path), span.role.label())) {
                continue;
            }
            let values = match span.role {
                Role::StrLength => {
                    self.string_values(format, policy, span);
                    continue;
                }
                Role::Int(ty) => int_values(format, ty, span, seen),
                Role::Float(ty) => float_values(format, ty, span, seen),
                Role::Char => char_values(format, span),
                _ => continue,
            };
            for (shown, bytes) in values {
                self.tell_value(Class::EveryValue, span, &shown, &bytes, owed);
            }
        }
    }

    /// The string whose length `length` is, in place of the first string of
    /// each shape of path: empty, a NUL, characters of two and three
    /// bytes, and 300 letters.
    fn string_values<F: Format>(&mut self, format: &F, policy: Policy, length: &Span) {
        let Leaf::Length(len) = length.leaf else {
            return;
        };
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
            let Ok(bytes) = format.to_bytes(text) else {
                continue;
            };
            if bytes != own {
                let shown = if text.len() > 8 {
                    format!("{} letters", text.len())
                } else {
                    format!("{text:?}")
                };
                let owed = policy.another_message();
                self.tell_value(Class::EveryValue, &whole, &shown, &bytes, owed);
            }
        }
    }

    /// A map's own lies, in the first map of each shape of path: its first
    /// entry given again after its last (the length one more), and its
    /// first two entries swapped.
    fn map_lies<F: Format>(&mut self, format: &F, policy: Policy, spans: &[Span]) {
        let mut shapes = BTreeSet::new();
        for map in maps(spans) {
            if !shapes.insert(shape(&map.path)) {
                continue;
            }
            let span = Span {
                path: map.path.clone(),
                role: Role::MapLength,
                bytes: map.length.clone(),
                leaf: Leaf::Length(map.len),
            };
            let more = u64::try_from(map.len).unwrap_or(u64::MAX).saturating_add(1);
            let length = format.to_bytes(&more).ok();
            if self.wants(Class::DuplicateKey) {
                if let Some(bytes) = length.and_then(|l| duplicated(self.bytes, &map, &l)) {
                    self.tell_at(Class::DuplicateKey, &span, bytes, policy.another_message());
                }
            }
            if self.wants(Class::KeysOutOfOrder) {
                let owed = match policy.map_order {
                    MapOrder::Any => Owed::AcceptedAsRead,
                    MapOrder::Sorted => Policy::owed(policy.canonical),
                };
                if let Some(bytes) = swapped(self.bytes, &map) {
                    self.tell_at(Class::KeysOutOfOrder, &span, bytes, owed);
                }
            }
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
