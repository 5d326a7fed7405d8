//! Golomb-coded subsets as a field map shows them, read from the fields'
//! bits and not by the codec under test: the parameter, then each gap's
//! code (ones to the first zero, then the remainder in truncated binary),
//! the last one the sentinel's. A subset can be laid out again under
//! another parameter of the same coded set: the items keep their order
//! there, so only the codes change, and every alignment is padded anew.

use crate::field_map::{Field, FieldMap, Kind};
use codec::ops::golomb::{code, truncated_binary};
use codec::subset::GOLOMB_PARAMETERS;
use codec::Role;

/// One gap's code: the fields `first..end` of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GapCode {
    /// Its first field's position in the map.
    pub first: usize,
    /// One past its last field's position.
    pub end: usize,
    /// The gap it says (at least 1).
    pub gap: u32,
}

/// A Golomb-coded subset in a field map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GolombSubset {
    /// The parameter field's position in the map.
    pub parameter: usize,
    /// The entry of [`GOLOMB_PARAMETERS`] it holds.
    pub entry: usize,
    /// The gaps' codes in order, the sentinel's last.
    pub codes: Vec<GapCode>,
}

impl GolombSubset {
    /// The Golomb parameter `m` of its entry.
    #[must_use]
    pub fn m(&self) -> u32 {
        GOLOMB_PARAMETERS.get(self.entry).map_or(1, |&(_, m)| m)
    }

    /// The sentinel's code.
    #[must_use]
    pub fn sentinel(&self) -> Option<GapCode> {
        self.codes.last().copied()
    }

    /// The other entries that code the same set (present or absent
    /// indices), under which the items keep their places.
    pub fn other_entries(&self) -> impl Iterator<Item = usize> + '_ {
        let set = GOLOMB_PARAMETERS.get(self.entry).map(|&(set, _)| set);
        (0..GOLOMB_PARAMETERS.len())
            .filter(move |&e| e != self.entry && GOLOMB_PARAMETERS.get(e).map(|p| p.0) == set)
    }
}

/// Whether `field` is a bit of a subset's code in `part`.
fn in_code(field: &Field, part: u32) -> bool {
    field.part == part && matches!(field.role, Role::Gap | Role::Sentinel)
}

/// Every Golomb-coded subset of `map` whose codes read whole up to the
/// sentinel's: a parameter field (kept or best), then the codes among the
/// fields of its part.
#[must_use]
pub fn subsets(map: &FieldMap) -> Vec<GolombSubset> {
    let fields = &map.fields;
    let mut found = Vec::new();
    for (at, parameter) in fields.iter().enumerate() {
        if !matches!(parameter.role, Role::Parameter | Role::BestParameter) {
            continue;
        }
        let Kind::Ranged { min, .. } = parameter.kind else {
            continue;
        };
        let Some(entry) = i64::try_from(parameter.value)
            .ok()
            .and_then(|v| v.checked_add(min))
            .and_then(|e| usize::try_from(e).ok())
            .filter(|&e| e < GOLOMB_PARAMETERS.len())
        else {
            continue;
        };
        let mut subset = GolombSubset {
            parameter: at,
            entry,
            codes: Vec::new(),
        };
        if read_codes(fields, &mut subset, parameter.part) {
            found.push(subset);
        }
    }
    found
}

/// Reads `subset`'s codes from the fields after its parameter; false when
/// they do not run to a sentinel.
fn read_codes(fields: &[Field], subset: &mut GolombSubset, part: u32) -> bool {
    let m = subset.m();
    let mut next = subset.parameter + 1;
    loop {
        let Some(first) = (next..fields.len()).find(|&i| fields[i].part == part) else {
            return false;
        };
        if !in_code(&fields[first], part) {
            return false;
        }
        let Some(code) = read_code(fields, first, part, m) else {
            return false;
        };
        subset.codes.push(code);
        if fields[first].role == Role::Sentinel {
            return true;
        }
        next = code.end;
    }
}

/// The code whose first field is `fields[first]`.
fn read_code(fields: &[Field], first: usize, part: u32, m: u32) -> Option<GapCode> {
    let mut at = first;
    let mut take = |width: u64| {
        let field = fields
            .get(at)
            .filter(|f| in_code(f, part) && f.width == width)?;
        at += 1;
        Some(field)
    };
    let mut quotient = 0u64;
    while take(1)?.value == 1 {
        quotient += 1;
    }
    let mut remainder = 0u64;
    if m > 1 {
        let (b, short) = truncated_binary(m);
        // A zero-width part leaves no field.
        let high = if b > 1 {
            take(u64::from(b - 1))?.value
        } else {
            0
        };
        remainder = high;
        if high >= u64::from(short) {
            let low = take(1)?.value;
            remainder = ((high << 1) | low) - u64::from(short);
        }
    }
    let gap = quotient * u64::from(m) + remainder + 1;
    Some(GapCode {
        first,
        end: at,
        gap: u32::try_from(gap).ok()?,
    })
}

/// The bits of `gap`'s code under `m`, first bit first.
#[must_use]
pub fn code_bits(gap: u32, m: u32) -> Vec<bool> {
    let c = code(gap.saturating_sub(1), m);
    let ones = (0..c.quotient).map(|_| true);
    let tail = (0..c.tail_bits).map(|bit| (c.tail >> bit) & 1 == 1);
    ones.chain([false]).chain(tail).collect()
}

/// The packet `bytes` (mapped by `map`) with `subset` coded under `entry`
/// instead: the parameter field holds the new entry, each code is written
/// anew, every other field is copied, and every alignment is padded to the
/// byte again (zero bits). `None` when the map does not cover the packet
/// bit for bit, so that copying its fields would not copy the packet.
#[must_use]
pub fn recoded(
    map: &FieldMap,
    bytes: &[u8],
    subset: &GolombSubset,
    entry: usize,
) -> Option<Vec<u8>> {
    let fields = &map.fields;
    let parameter = fields.get(subset.parameter)?;
    let Kind::Ranged { min, .. } = parameter.kind else {
        return None;
    };
    let wire = u64::try_from(i64::try_from(entry).ok()?.checked_sub(min)?).ok()?;
    let &(_, m) = GOLOMB_PARAMETERS.get(entry)?;
    if !covers(map, bytes.len()) {
        return None;
    }
    let bit = |i: u64| {
        bytes
            .get((i / 8) as usize)
            .is_some_and(|b| (b >> (i % 8)) & 1 == 1)
    };
    let mut out: Vec<bool> = Vec::with_capacity(bytes.len() * 8);
    let mut aligns = map.aligns.iter().peekable();
    let mut codes = subset.codes.iter().peekable();
    let mut i = 0;
    while let Some(field) = fields.get(i) {
        while aligns.next_if(|&&a| a <= field.offset).is_some() {
            out.resize(out.len().next_multiple_of(8), false);
        }
        if let Some(gap) = codes.next_if(|c| c.first == i) {
            out.extend(code_bits(gap.gap, m));
            i = gap.end;
            continue;
        }
        match field.kind {
            // Laid anew by the alignment before it.
            Kind::Padding => {}
            _ if i == subset.parameter => {
                out.extend((0..field.width).map(|b| b < 64 && (wire >> b) & 1 == 1));
            }
            _ => out.extend((field.offset..field.end()).map(bit)),
        }
        i += 1;
    }
    let mut packed = vec![0u8; out.len().div_ceil(8)];
    for (i, _) in out.iter().enumerate().filter(|(_, b)| **b) {
        packed[i / 8] |= 1 << (i % 8);
    }
    Some(packed)
}

/// Whether `map`'s fields follow one another from bit 0 with no gap and
/// end in the last of `len` bytes.
fn covers(map: &FieldMap, len: usize) -> bool {
    let mut end = 0;
    for field in &map.fields {
        if field.offset != end {
            return false;
        }
        end = field.end();
    }
    end.div_ceil(8) == len as u64
}
