//! Mutation classes: each takes a valid sample and tells one lie in it, and
//! knows the verdict the reader then owes.
//!
//! A mutation rewrites one field in place (same offset, same width), so the
//! packet stays valid but for that field, and the reader owes the error of
//! the rule that field breaks, at that field's offset. Framed packets get
//! their CRC refreshed after the lie, so the lie reaches the field behind
//! it, except in the classes that attack the CRC itself.

pub use crate::case::{Case, Class, Owed};
use crate::field_map::{Field, FieldMap, Kind};
use crate::golomb_fields;
use crate::target::{Framing, Sample, Target};
use arbitrary::Unstructured;
use codec::Role;

/// The most values tried for one field by the exhaustive classes.
const MAX_VALUES_PER_FIELD: u64 = 4096;

/// The most cut points tried per sample by the truncation classes.
const MAX_CUTS: usize = 256;

/// The most fields one sample lies in per class (chosen at random), so a
/// scene of a thousand objects does not flood a class with one sample.
const MAX_FIELDS_PER_SAMPLE: usize = 8;

fn owed(causes: &'static [&'static str], at: u64) -> Owed {
    Owed::Refusal {
        causes,
        at: Some(at),
    }
}

/// Writes the low `width` bits of `value` at bit `offset`, LSB first.
pub fn set_bits(bytes: &mut [u8], offset: u64, width: u64, value: u64) {
    for i in 0..width.min(64) {
        let bit = offset + i;
        if let Some(byte) = bytes.get_mut((bit / 8) as usize) {
            let mask = 1u8 << (bit % 8);
            if (value >> i) & 1 == 1 {
                *byte |= mask;
            } else {
                *byte &= !mask;
            }
        }
    }
}

/// XOR masks that lie in every bit of a `width`-bit field, one at a time,
/// then in every whole byte: a reader that compares only some bits of a
/// check, a CRC or a counter misses some of them.
fn every_bit_and_byte(width: u64) -> Vec<u64> {
    let width = width.min(64);
    let bits = (0..width).map(|bit| 1u64 << bit);
    let bytes = (0..width / 8).map(|byte| 0xFFu64 << (byte * 8));
    bits.chain(bytes).collect()
}

fn all_ones(width: u64) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Values above `max` that fit in `width` bits: all of them when few,
/// otherwise both ends and a random spread.
fn values_above(max: u64, width: u64, u: &mut Unstructured<'_>) -> Vec<u64> {
    let top = all_ones(width);
    if max >= top {
        return Vec::new();
    }
    if top - max <= MAX_VALUES_PER_FIELD {
        return (max + 1..=top).collect();
    }
    let mut values = vec![max + 1, max + 2, top - 1, top];
    for _ in 0..4 {
        values.push(u.int_in_range(max + 1..=top).unwrap_or(top));
    }
    values
}

struct Builder<'a> {
    class: Class,
    sample: &'a Sample,
    framing: &'a Framing,
    cases: Vec<Case>,
    /// Keep only the case at this position (every case counts, kept or
    /// not): one case built, not all of them.
    keep: Option<usize>,
    /// Cases met so far.
    seen: usize,
}

impl Builder<'_> {
    /// Counts the case about to be offered, and says whether it is kept.
    fn offered(&mut self) -> bool {
        let position = self.seen;
        self.seen += 1;
        self.keep.is_none_or(|k| k == position)
    }

    /// Counts a case that is not kept, so that the caller need not build
    /// it: true when it was not.
    fn unkept(&mut self) -> bool {
        let unkept = self.keep.is_some_and(|k| k != self.seen);
        if unkept {
            self.seen += 1;
        }
        unkept
    }

    /// The sample with `field` rewritten to `value`, sealed.
    fn rewrite(&mut self, field: &Field, value: u64, owed: Owed) {
        // The commonest case by far: not built at all when not kept.
        if self.unkept() {
            return;
        }
        let mut bytes = self.sample.bytes.clone();
        set_bits(&mut bytes, field.offset, field.width, value);
        self.framing.seal(&mut bytes);
        let lie = format!("{} at bit {} := {value}", field.name, field.offset);
        self.push(bytes, owed, lie);
    }

    /// Adds a case, unless the lie changed nothing (a cut through bits
    /// that were zero anyway, say): identical bytes are owed acceptance.
    /// A lie that grew the packet past the protocol's maximum is owed
    /// `too-large` whatever else it breaks: that rule comes first.
    fn push(&mut self, bytes: Vec<u8>, owed: Owed, lie: String) {
        if !self.offered() {
            return;
        }
        if self.class != Class::Valid && bytes == self.sample.bytes {
            return;
        }
        let too_large = self.framing.max_bytes.is_some_and(|max| bytes.len() > max);
        let owed = if too_large && owed != Owed::Anything {
            Owed::Refusal {
                causes: &["too-large"],
                at: None,
            }
        } else {
            owed
        };
        self.cases.push(Case {
            class: self.class,
            bytes,
            owed,
            lie,
        });
    }

    fn fields(&self) -> impl Iterator<Item = &Field> + '_ {
        self.sample.map.fields.iter()
    }

    fn out_of_range(&mut self, pick: impl Fn(&Field) -> bool, u: &mut Unstructured<'_>) {
        let fields: Vec<Field> = self.fields().filter(|f| pick(f)).cloned().collect();
        for field in choose_some(fields, u) {
            let Some(max) = field.kind.max_legal() else {
                continue;
            };
            // A wide integer is refused at its first bit, not its top group's.
            let at = match field.kind {
                Kind::WideTop { from, .. } => from,
                _ => field.offset,
            };
            for value in values_above(max, field.width, u) {
                self.rewrite(&field, value, owed(&["out-of-range"], at));
            }
        }
    }

    /// Every value the bits of a ruled field (a hand-written field that
    /// declares its rule, `valid = path`) can hold: all of them when few,
    /// otherwise both ends and a random spread. The harness cannot tell
    /// which the rule allows, so any verdict is owed but a panic and an
    /// accepted value that breaks the rule, which cannot be written back.
    fn ruled_values(&mut self, u: &mut Unstructured<'_>) {
        let fields: Vec<Field> = self
            .fields()
            .filter(|f| f.role == Role::Ruled && f.width <= 64)
            .filter(|f| matches!(f.kind, Kind::Bits | Kind::Bool | Kind::Ranged { .. }))
            .cloned()
            .collect();
        for field in choose_some(fields, u) {
            let top = all_ones(field.width);
            let mut values: Vec<u64> = if top < MAX_VALUES_PER_FIELD {
                (0..=top).collect()
            } else {
                vec![0, 1, top - 1, top]
            };
            if top >= MAX_VALUES_PER_FIELD {
                for _ in 0..8 {
                    values.push(u.int_in_range(0..=top).unwrap_or(top));
                }
            }
            for value in values.into_iter().filter(|&v| v != field.value) {
                self.rewrite(&field, value, Owed::Anything);
            }
        }
    }

    /// The offset of the first field that does not fit in `bits`.
    fn first_cut_field(&self, bits: u64) -> u64 {
        self.fields()
            .find(|f| f.end() > bits)
            .map_or(0, |f| f.offset)
    }
}

/// Whether a field of `role` is left to the classes about that role (or,
/// for ladders and codes, to none): `out-of-range-value` lies only in
/// fields with no such role.
fn has_own_class(role: Role) -> bool {
    matches!(
        role,
        Role::Count
            | Role::PacketType
            | Role::Sentinel
            | Role::Index
            | Role::RelativeIndex
            | Role::Parameter
            | Role::BestParameter
    )
}

/// The cases of `class` for `target`'s `sample`: its own lies when it
/// tells them ([`Target::own_cases`]), else [`cases`].
pub fn target_cases(
    target: &dyn Target,
    class: Class,
    sample: &Sample,
    framing: &Framing,
    u: &mut Unstructured<'_>,
) -> Vec<Case> {
    match target.own_cases(class, sample, u) {
        Some(cases) => cases,
        None => cases(class, sample, framing, u),
    }
}

/// One case of `class` for `target`'s `sample`, the `pick`-th (counted
/// round): [`one_case`], or of the target's own lies when it tells them.
#[must_use]
pub fn target_one_case(
    target: &dyn Target,
    class: Class,
    sample: &Sample,
    framing: &Framing,
    choices: &[u8],
    pick: usize,
) -> Option<Case> {
    match target.own_cases(class, sample, &mut Unstructured::new(choices)) {
        Some(cases) => {
            let count = cases.len();
            cases.into_iter().nth(pick.checked_rem(count)?)
        }
        None => one_case(class, sample, framing, choices, pick),
    }
}

/// The cases of `class` for `sample`.
pub fn cases(
    class: Class,
    sample: &Sample,
    framing: &Framing,
    u: &mut Unstructured<'_>,
) -> Vec<Case> {
    build(class, sample, framing, u, None).cases
}

/// One case of `class` for `sample`, the `pick`-th of those [`cases`] would
/// give from `choices` (counted round when `pick` is past the last), built
/// alone: what a fuzz target judges in one execution. `None` when the class
/// has nothing to lie about in this sample, or the picked lie changes
/// nothing.
#[must_use]
pub fn one_case(
    class: Class,
    sample: &Sample,
    framing: &Framing,
    choices: &[u8],
    pick: usize,
) -> Option<Case> {
    let first = build(
        class,
        sample,
        framing,
        &mut Unstructured::new(choices),
        Some(pick),
    );
    if first.seen == 0 || pick < first.seen {
        return first.cases.into_iter().next();
    }
    let again = Some(pick % first.seen);
    let second = build(
        class,
        sample,
        framing,
        &mut Unstructured::new(choices),
        again,
    );
    second.cases.into_iter().next()
}

fn build<'a>(
    class: Class,
    sample: &'a Sample,
    framing: &'a Framing,
    u: &mut Unstructured<'_>,
    keep: Option<usize>,
) -> Builder<'a> {
    let mut b = Builder {
        class,
        sample,
        framing,
        cases: Vec::new(),
        keep,
        seen: 0,
    };
    let len = sample.bytes.len();
    match class {
        Class::Valid => b.push(sample.bytes.clone(), Owed::Accept, "none".into()),
        Class::OutOfRangeCount => b.out_of_range(|f| f.role == Role::Count, u),
        Class::OutOfRangeValue => {
            b.out_of_range(
                |f| {
                    matches!(
                        f.kind,
                        Kind::Ranged { .. } | Kind::Compressed { .. } | Kind::WideTop { .. }
                    ) && !has_own_class(f.role)
                },
                u,
            );
            b.ruled_values(u);
        }
        Class::StringTooLong => b.out_of_range(
            |f| matches!(f.kind, Kind::StringLength { .. } | Kind::WideLength { .. }),
            u,
        ),
        Class::OutOfRangeSentinel => {
            b.out_of_range(
                |f| f.role == Role::Sentinel && matches!(f.kind, Kind::Ranged { .. }),
                u,
            );
            sentinel_ladder_past_the_end(&mut b);
            golomb_sentinel_past_the_end(&mut b);
        }
        Class::OtherParameter => other_parameters(&mut b),
        Class::UnknownPacketType => {
            if let (Some(types), Some(field)) = (
                framing.packet_types,
                sample.map.with_role(Role::PacketType).next(),
            ) {
                let field = field.clone();
                for value in values_above(u64::from(types) - 1, field.width, u) {
                    b.rewrite(&field, value, owed(&["unknown-packet-type"], field.offset));
                }
            }
        }
        Class::NonZeroPadding => {
            let pads: Vec<Field> = b
                .fields()
                .filter(|f| f.kind == Kind::Padding)
                .cloned()
                .collect();
            for pad in choose_some(pads, u) {
                for bit in 0..pad.width {
                    let mut bytes = sample.bytes.clone();
                    set_bits(&mut bytes, pad.offset + bit, 1, 1);
                    framing.seal(&mut bytes);
                    let lie = format!("padding bit {}", pad.offset + bit);
                    b.push(bytes, owed(&["non-zero-padding"], pad.offset), lie);
                }
            }
        }
        Class::TruncateBytes => {
            for cut in cut_points(len, u) {
                let mut bytes = sample.bytes[..cut].to_vec();
                if cut >= 4 {
                    framing.seal(&mut bytes);
                }
                // Without a field map the cause and place are unknown.
                let owed = if sample.map.fields.is_empty() {
                    Owed::AnyRefusal
                } else {
                    owed(&["past-end"], b.first_cut_field(cut as u64 * 8))
                };
                b.push(bytes, owed, format!("cut to {cut} bytes"));
            }
        }
        Class::TruncateBits => {
            // Cuts inside the final padding change nothing; cut data only.
            let data_end = sample
                .map
                .fields
                .iter()
                .filter(|f| f.kind != Kind::Padding)
                .map(Field::end)
                .max()
                .map_or(len * 8, |end| end as usize);
            for cut in cut_points(data_end, u)
                .into_iter()
                .filter(|bits| bits % 8 != 0)
            {
                let mut bytes = sample.bytes[..cut.div_ceil(8)].to_vec();
                set_bits(&mut bytes, cut as u64, 8 - (cut as u64 % 8), 0);
                framing.seal(&mut bytes);
                // A byte-oriented codec may rightly accept a last byte with
                // some bits zeroed when no byte is dropped: without a field
                // map only panics and non-canonical accepts count.
                let owed = if sample.map.fields.is_empty() {
                    Owed::Anything
                } else {
                    Owed::AnyRefusal
                };
                b.push(bytes, owed, format!("cut to {cut} bits"));
            }
        }
        Class::MissingSentinel => {
            if let Some(sentinel) = sample.map.with_role(Role::Sentinel).next() {
                let cut = (sentinel.offset / 8) as usize;
                let mut bytes = sample.bytes[..cut].to_vec();
                framing.seal(&mut bytes);
                let lie = format!("cut at the sentinel, bit {}", sentinel.offset);
                b.push(
                    bytes,
                    Owed::Refusal {
                        causes: &["past-end"],
                        at: None,
                    },
                    lie,
                );
            }
        }
        Class::RepeatedSentinel => repeated_sentinel(&mut b, u),
        Class::DuplicateIndex | Class::DecreasingIndex => {
            let indices: Vec<Field> = sample
                .map
                .with_role(Role::Index)
                .filter(|f| matches!(f.kind, Kind::Ranged { .. }))
                .cloned()
                .collect();
            // Pairs of one subset: a later subset starts over.
            let pairs: Vec<&[Field]> = indices
                .windows(2)
                .filter(|pair| pair[0].part == pair[1].part)
                .collect();
            for pair in choose_some(pairs, u) {
                let [previous, field] = pair else { continue };
                let value = if class == Class::DuplicateIndex {
                    previous.value
                } else if previous.value > 0 {
                    u.int_in_range(0..=previous.value - 1).unwrap_or(0)
                } else {
                    continue;
                };
                b.rewrite(field, value, owed(&["not-increasing"], field.offset));
            }
        }
        Class::BadCheck => {
            let checks: Vec<Field> = b
                .fields()
                .filter(|f| matches!(f.kind, Kind::Check { .. }))
                .cloned()
                .collect();
            for check in checks {
                for mask in every_bit_and_byte(check.width) {
                    b.rewrite(
                        &check,
                        check.value ^ mask,
                        owed(&["check-mismatch"], check.offset),
                    );
                }
            }
        }
        Class::BadCrc => {
            if framing.crc.is_some() && len >= 4 {
                for mask in every_bit_and_byte(32) {
                    let mut bytes = sample.bytes.clone();
                    let crc = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                    let lie = crc ^ mask as u32;
                    bytes[..4].copy_from_slice(&lie.to_le_bytes());
                    b.push(
                        bytes,
                        Owed::Refusal {
                            causes: &["bad-crc"],
                            at: None,
                        },
                        format!("CRC ^ 0x{mask:08X}"),
                    );
                }
            }
        }
        Class::WrongProtocolId => {
            if let Some(id) = framing.crc {
                let width = match id {
                    codec::packet::ProtocolId::Bits32(_) => 32,
                    codec::packet::ProtocolId::Bits64(_) => 64,
                };
                for mask in every_bit_and_byte(width) {
                    let other = match id {
                        codec::packet::ProtocolId::Bits32(v) => {
                            codec::packet::ProtocolId::Bits32(v ^ mask as u32)
                        }
                        codec::packet::ProtocolId::Bits64(v) => {
                            codec::packet::ProtocolId::Bits64(v ^ mask)
                        }
                    };
                    let mut bytes = sample.bytes.clone();
                    Framing {
                        crc: Some(other),
                        ..*framing
                    }
                    .seal(&mut bytes);
                    b.push(
                        bytes,
                        Owed::Refusal {
                            causes: &["bad-crc"],
                            at: None,
                        },
                        format!("sealed as {other:?}"),
                    );
                }
            }
        }
        Class::FutureVersion => {
            if let (Some(latest), Some(field)) = (
                framing.latest_version,
                sample.map.with_role(Role::Version).next(),
            ) {
                let field = field.clone();
                let random = u.int_in_range(latest + 1..=u32::MAX).unwrap_or(u32::MAX);
                let mut values = vec![latest + 1, latest + 2, random, u32::MAX];
                // The latest with each bit that is clear set: every one of
                // them is newer.
                values.extend(
                    every_bit_and_byte(32)
                        .into_iter()
                        .map(|mask| latest | mask as u32)
                        .filter(|v| *v > latest),
                );
                values.sort_unstable();
                values.dedup();
                for value in values {
                    b.rewrite(
                        &field,
                        u64::from(value),
                        owed(&["version-too-new"], field.offset),
                    );
                }
            }
        }
        Class::BrokenIntegrity => {
            let counters: Vec<Field> = sample.map.with_role(Role::Integrity).cloned().collect();
            for field in counters {
                for mask in every_bit_and_byte(field.width) {
                    b.rewrite(
                        &field,
                        field.value ^ mask,
                        owed(&["integrity-mismatch"], field.offset),
                    );
                }
            }
        }
        Class::InvalidUtf8 | Class::InteriorNul => string_lies(&mut b, u),
        Class::InvalidQuaternion => {
            // Smallest-three: the largest component's index, then three
            // components. All three at their top code sum to more than one.
            let parts: Vec<Field> = sample.map.with_role(Role::Quaternion).cloned().collect();
            let quaternions: Vec<&[Field]> = parts.chunks_exact(4).collect();
            for quaternion in choose_some(quaternions, u) {
                let mut bytes = sample.bytes.clone();
                for code in &quaternion[1..] {
                    set_bits(&mut bytes, code.offset, code.width, all_ones(code.width));
                }
                framing.seal(&mut bytes);
                let at = quaternion[0].offset;
                b.push(
                    bytes,
                    owed(&["invalid-quaternion"], at),
                    format!("quaternion at bit {at}: every component at its top code"),
                );
            }
        }
        Class::TrailingBytes => {
            let extra = u.int_in_range(1..=4usize).unwrap_or(1);
            let mut bytes = sample.bytes.clone();
            for _ in 0..extra {
                bytes.push(u.arbitrary().unwrap_or(0));
            }
            framing.seal(&mut bytes);
            let owed = if framing.refuses_trailing_bytes && !sample.map.fields.is_empty() {
                owed(&["trailing-bytes"], len as u64 * 8)
            } else {
                Owed::AnyRefusal
            };
            b.push(bytes, owed, format!("{extra} bytes appended"));
        }
        Class::OversizedPacket => {
            if let Some(max) = framing.max_bytes {
                let extra = u.int_in_range(1..=64usize).unwrap_or(1);
                for size in [max + 1, max + 1 + extra] {
                    let mut bytes = sample.bytes.clone();
                    bytes.resize(size.max(len + 1), 0);
                    framing.seal(&mut bytes);
                    b.push(
                        bytes,
                        Owed::Refusal {
                            causes: &["too-large"],
                            at: None,
                        },
                        format!("padded to {size} bytes (maximum {max})"),
                    );
                }
            }
        }
        // A codec protocol has no serde fields to lie in.
        Class::UnknownVariant
        | Class::BadOptionTag
        | Class::BadBool
        | Class::InvalidChar
        | Class::IntBeyondType
        | Class::OverlongVarint
        | Class::LengthBomb
        | Class::LengthOffByOne
        | Class::EveryValue
        | Class::DeepNesting
        | Class::DuplicateKey
        | Class::KeysOutOfOrder => {}
        Class::BitFlip => {
            for round in 0..8 {
                if len == 0 {
                    break;
                }
                let mut bytes = sample.bytes.clone();
                let flips = u.int_in_range(1..=3).unwrap_or(1);
                for _ in 0..flips {
                    let bit = u.int_in_range(0..=len * 8 - 1).unwrap_or(0);
                    bytes[bit / 8] ^= 1 << (bit % 8);
                }
                // Half the flips keep the CRC honest so they reach the fields.
                if round % 2 == 0 {
                    framing.seal(&mut bytes);
                }
                b.push(bytes, Owed::Anything, format!("{flips} bits flipped"));
            }
        }
    }
    b
}

/// A sentinel ladder (the relative index of scene D: flags, then a ranged
/// difference) whose ranged step holds less than its top: the top is a
/// larger difference than the one that reaches the sentinel, so the index
/// lands past it, and the reader owes out-of-range at the ladder's first
/// bit (the articles' sample reader wrote out of bounds here). A one-field
/// sentinel (scene C) holds its top already and gets no case.
fn sentinel_ladder_past_the_end(b: &mut Builder<'_>) {
    for ladder in runs(&b.sample.map, Role::Sentinel) {
        let (Some(first), Some(last)) = (ladder.first(), ladder.last()) else {
            continue;
        };
        let Kind::Ranged { span, .. } = last.kind else {
            continue;
        };
        if ladder.len() > 1 && last.value < u64::from(span) {
            let at = first.offset;
            b.rewrite(last, u64::from(span), owed(&["out-of-range"], at));
        }
    }
}

/// A Golomb-coded subset's sentinel (the gap that reaches the set's size,
/// as in the Golomb scene) one larger, so that its index lands one past the
/// end: the reader owes out-of-range at the code's first bit. The longer code does
/// not fit where the old one was, so the packet ends after it (zero bits
/// to the byte), resealed: nothing past the code is read.
fn golomb_sentinel_past_the_end(b: &mut Builder<'_>) {
    let map = &b.sample.map;
    let mut lies = Vec::new();
    for subset in golomb_fields::subsets(map) {
        let Some(sentinel) = subset.sentinel() else {
            continue;
        };
        let Some(first) = map.fields.get(sentinel.first) else {
            continue;
        };
        let past = sentinel.gap.saturating_add(1);
        lies.push((
            first.offset,
            past,
            golomb_fields::code_bits(past, subset.m()),
        ));
    }
    for (at, past, bits) in lies {
        let end = at + bits.len() as u64;
        let mut bytes = b.sample.bytes.clone();
        bytes.truncate(at.div_ceil(8) as usize);
        set_bits(&mut bytes, at, at.next_multiple_of(8) - at, 0);
        bytes.resize(end.div_ceil(8) as usize, 0);
        for (i, bit) in bits.into_iter().enumerate() {
            set_bits(&mut bytes, at + i as u64, 1, u64::from(bit));
        }
        b.framing.seal(&mut bytes);
        let lie = format!("sentinel gap at bit {at} := {past}");
        b.push(bytes, owed(&["out-of-range"], at), lie);
    }
}

/// Each Golomb-coded subset written again under every other parameter of
/// its coded set, the rest of the packet unchanged. Where the parameter
/// must be the best, the reader owes non-canonical at the parameter; where
/// the packet keeps it, the new packet says the same subset and is owed
/// an accept.
fn other_parameters(b: &mut Builder<'_>) {
    let map = &b.sample.map;
    for subset in golomb_fields::subsets(map) {
        let Some(parameter) = map.fields.get(subset.parameter) else {
            continue;
        };
        let owed = if parameter.role == Role::BestParameter {
            owed(&["non-canonical"], parameter.offset)
        } else {
            Owed::Accept
        };
        for entry in subset.other_entries() {
            if b.unkept() {
                continue;
            }
            let Some(mut bytes) = golomb_fields::recoded(map, &b.sample.bytes, &subset, entry)
            else {
                continue;
            };
            b.framing.seal(&mut bytes);
            let lie = format!(
                "parameter at bit {} := {entry}, its subset coded again",
                parameter.offset
            );
            b.push(bytes, owed.clone(), lie);
        }
    }
}

/// A list ended by a sentinel that is a value of its indices' own range
/// (scene C): that value written in place of an earlier index ends the list
/// early. When nothing but padding and checks follows the sentinel, the
/// reader then meets the rest of the list where it expects them and owes a
/// refusal; otherwise what follows decides, and only panics and
/// non-canonical accepts are wrong.
fn repeated_sentinel(b: &mut Builder<'_>, u: &mut Unstructured<'_>) {
    let map = &b.sample.map;
    let mut from = 0;
    let mut lies = Vec::new();
    for sentinel in map.with_role(Role::Sentinel) {
        if !matches!(sentinel.kind, Kind::Ranged { .. }) {
            continue;
        }
        let early: Vec<Field> = map
            .with_role(Role::Index)
            .filter(|f| f.kind == sentinel.kind && (from..sentinel.offset).contains(&f.offset))
            .cloned()
            .collect();
        let last_data = map
            .fields
            .iter()
            .filter(|f| f.offset > sentinel.offset)
            .all(|f| matches!(f.kind, Kind::Padding | Kind::Check { .. }));
        let owed = if last_data {
            let causes: &[&str] = &["non-zero-padding", "check-mismatch", "trailing-bytes"];
            Owed::Refusal { causes, at: None }
        } else {
            Owed::Anything
        };
        lies.extend(early.into_iter().map(|f| (f, sentinel.value, owed.clone())));
        from = sentinel.end();
    }
    for (field, value, owed) in choose_some(lies, u) {
        b.rewrite(&field, value, owed);
    }
}

/// Maximal runs of adjacent fields with the role `role`, in stream order.
fn runs(map: &FieldMap, role: Role) -> Vec<Vec<Field>> {
    let mut runs: Vec<Vec<Field>> = Vec::new();
    for field in map.with_role(role) {
        match runs.last_mut() {
            Some(run) if run.last().is_some_and(|f| f.end() == field.offset) => {
                run.push(field.clone());
            }
            _ => runs.push(vec![field.clone()]),
        }
    }
    runs
}

/// At most [`MAX_FIELDS_PER_SAMPLE`] of `fields`, chosen at random, in order.
fn choose_some<T>(fields: Vec<T>, u: &mut Unstructured<'_>) -> Vec<T> {
    if fields.len() <= MAX_FIELDS_PER_SAMPLE {
        return fields;
    }
    let mut keep = vec![false; fields.len()];
    for _ in 0..MAX_FIELDS_PER_SAMPLE {
        let i = u.int_in_range(0..=fields.len() - 1).unwrap_or(0);
        keep[i] = true;
    }
    fields
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(f, _)| f)
        .collect()
}

/// Cut points below `len`: all of them when few, else both ends and a
/// random spread.
fn cut_points(len: usize, u: &mut Unstructured<'_>) -> Vec<usize> {
    if len <= MAX_CUTS {
        return (0..len).collect();
    }
    let mut cuts: Vec<usize> = (0..32).chain(len - 32..len).collect();
    while cuts.len() < MAX_CUTS {
        cuts.push(u.int_in_range(0..=len - 1).unwrap_or(0));
    }
    cuts
}

fn string_lies(b: &mut Builder<'_>, u: &mut Unstructured<'_>) {
    let nul = b.class == Class::InteriorNul;
    let fields: Vec<Field> = b
        .fields()
        .filter(|f| matches!(f.kind, Kind::StringPayload | Kind::WideUnit))
        .cloned()
        .collect();
    for (i, field) in fields.iter().enumerate() {
        match field.kind {
            Kind::StringPayload => {
                let bytes_in = field.width / 8;
                let pick = u.int_in_range(0..=bytes_in - 1).unwrap_or(0);
                let mut bytes = b.sample.bytes.clone();
                set_bits(
                    &mut bytes,
                    field.offset + pick * 8,
                    8,
                    if nul { 0 } else { 0xFF },
                );
                b.framing.seal(&mut bytes);
                let causes: &'static [&'static str] = if nul {
                    &["interior-nul"]
                } else {
                    &["invalid-utf8"]
                };
                b.push(
                    bytes,
                    owed(causes, field.offset),
                    format!("string byte {pick}"),
                );
            }
            Kind::WideUnit if nul => {
                // A NUL right after a high surrogate breaks the pair first.
                let previous = i.checked_sub(1).and_then(|p| fields.get(p));
                let after_high = previous.is_some_and(|p| {
                    p.kind == Kind::WideUnit
                        && p.end() == field.offset
                        && (0xD800..0xDC00).contains(&p.value)
                });
                let expected = match (after_high, previous) {
                    (true, Some(p)) => owed(&["invalid-utf16"], p.offset),
                    _ => owed(&["interior-nul"], field.offset),
                };
                b.rewrite(field, 0, expected);
            }
            Kind::WideUnit => b.rewrite(field, 0x1_0000, owed(&["invalid-utf16"], field.offset)),
            _ => {}
        }
    }
}
