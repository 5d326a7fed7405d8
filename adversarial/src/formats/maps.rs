//! Maps in a serde encoding: where each map's entries lie ([`maps`]),
//! whether two encodings hold the same maps with their entries in another
//! order ([`same_up_to_order`]), and the lies of a map's own: a key given
//! twice, and two entries out of order.

use super::{Leaf, Role, Span};
use std::ops::Range;

/// One map of an encoding: its length prefix and its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapExtent {
    /// The map's path, e.g. `scores` (`entities[].scores` shaped).
    pub path: String,
    /// The length prefix's bytes.
    pub length: Range<usize>,
    /// The number of entries the prefix claims.
    pub len: usize,
    /// Each entry's bytes, key then value, in the order written.
    pub entries: Vec<Range<usize>>,
}

impl MapExtent {
    /// The bytes of all its entries.
    #[must_use]
    pub fn region(&self) -> Range<usize> {
        let start = self.entries.first().map_or(self.length.end, |e| e.start);
        let end = self.entries.last().map_or(self.length.end, |e| e.end);
        start..end
    }
}

/// The index `i` of a path that goes on `{prefix}[i]...`, and whether it
/// names part of the entry (`.key`, `.value`).
fn entry_index(path: &str, prefix: &str) -> Option<usize> {
    let rest = path.strip_prefix(prefix)?.strip_prefix('[')?;
    let (digits, after) = rest.split_once(']')?;
    if !(after.starts_with(".key") || after.starts_with(".value")) {
        return None;
    }
    digits.parse().ok()
}

/// Every map of the encoding whose field map is `spans`, in the order
/// written (a map before the maps inside it): those whose every entry
/// wrote bytes.
#[must_use]
pub fn maps(spans: &[Span]) -> Vec<MapExtent> {
    let mut out = Vec::new();
    for (at, span) in spans.iter().enumerate() {
        let (Role::MapLength, Leaf::Length(len)) = (span.role, &span.leaf) else {
            continue;
        };
        let mut entries: Vec<Range<usize>> = Vec::new();
        for inner in spans.iter().skip(at.saturating_add(1)) {
            let Some(index) = entry_index(&inner.path, &span.path) else {
                break;
            };
            let count = entries.len();
            match entries.get_mut(index) {
                Some(entry) => entry.end = entry.end.max(inner.bytes.end),
                None if index == count => entries.push(inner.bytes.clone()),
                None => break,
            }
        }
        let adjacent = entries
            .windows(2)
            .all(|pair| pair.first().map(|a| a.end) == pair.get(1).map(|b| b.start));
        if entries.len() == *len && adjacent {
            out.push(MapExtent {
                path: span.path.clone(),
                length: span.bytes.clone(),
                len: *len,
                entries,
            });
        }
    }
    out
}

/// Whether `message` holds what `encoding` (whose maps are `maps`) holds,
/// each map's entries in some order: the same bytes outside the maps, and
/// each map's entries the same, matched one for one (inner maps in any
/// order too).
#[must_use]
pub fn same_up_to_order(message: &[u8], encoding: &[u8], maps: &[MapExtent]) -> bool {
    message == encoding || matches(message, encoding, 0..encoding.len(), maps)
}

/// Whether `message` matches `encoding[range]` up to the order of the
/// maps' entries within that range.
fn matches(message: &[u8], encoding: &[u8], range: Range<usize>, maps: &[MapExtent]) -> bool {
    let Some(want) = encoding.get(range.clone()) else {
        return false;
    };
    if message.len() != want.len() {
        return false;
    }
    if message == want {
        return true;
    }
    let same = |from: usize, to: usize| {
        let theirs = message.get(from.saturating_sub(range.start)..to.saturating_sub(range.start));
        theirs.is_some() && theirs == encoding.get(from..to)
    };
    let mut at = range.start;
    for map in maps {
        let region = map.region();
        if region.start < at || region.end > range.end || region.is_empty() {
            continue;
        }
        if !same(at, region.start) {
            return false;
        }
        let mut used = vec![false; map.entries.len()];
        let mut pos = region.start;
        while pos < region.end {
            let found = map.entries.iter().enumerate().find(|(j, entry)| {
                let end = pos.saturating_add(entry.len());
                used.get(*j) == Some(&false)
                    && end <= region.end
                    && message
                        .get(pos - range.start..end - range.start)
                        .is_some_and(|theirs| matches(theirs, encoding, (*entry).clone(), maps))
            });
            let Some((j, entry)) = found else {
                return false;
            };
            if let Some(u) = used.get_mut(j) {
                *u = true;
            }
            pos = pos.saturating_add(entry.len());
        }
        at = region.end;
    }
    same(at, range.end)
}

/// `bytes` with the two first entries of `map` swapped, when it has two.
#[must_use]
pub fn swapped(bytes: &[u8], map: &MapExtent) -> Option<Vec<u8>> {
    let first = map.entries.first()?;
    let second = map.entries.get(1)?;
    let mut out = bytes.get(..first.start)?.to_vec();
    out.extend_from_slice(bytes.get(second.clone())?);
    out.extend_from_slice(bytes.get(first.clone())?);
    out.extend_from_slice(bytes.get(second.end..)?);
    (out != bytes).then_some(out)
}

/// `bytes` with a copy of `map`'s first entry after its last, and its
/// length prefix replaced by `length` (the count one more, as the format
/// writes it): the first key given twice.
#[must_use]
pub fn duplicated(bytes: &[u8], map: &MapExtent, length: &[u8]) -> Option<Vec<u8>> {
    let first = map.entries.first()?;
    let end = map.region().end;
    let mut out = bytes.get(..map.length.start)?.to_vec();
    out.extend_from_slice(length);
    out.extend_from_slice(bytes.get(map.length.end..end)?);
    out.extend_from_slice(bytes.get(first.clone())?);
    out.extend_from_slice(bytes.get(end..)?);
    Some(out)
}
