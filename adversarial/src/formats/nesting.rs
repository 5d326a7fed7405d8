//! The recursive paths of a serde type, found in one honest encoding, and
//! the `deep-nesting` lies told along each: a level of the recursion
//! written again and again before the one it came from.
//!
//! A recursion shows in a field map as two spans of one kind, one inside
//! the other: the tags of one enum (`Blueprint` inside a `Blueprint`), or
//! an option's tag, a sequence's or a map's length whose field has the
//! same name inside itself (`next` in `next`, through `Option<Box<T>>`;
//! `children` in `children[0]`, through `Vec<T>`; `sub` in
//! `sub[0].value`, through a map of `T`), where the span after each is
//! the same field too (so `items` in `items[0]` of another type is no
//! recursion).

use super::{Lie, Owed, Role, Span};
use crate::case::Class;
use std::collections::BTreeMap;

/// A path's last field, indices taken out: `a[3].next` is `next`.
fn last_field(path: &str) -> &str {
    let tail = path.rsplit('.').next().unwrap_or(path);
    tail.split('[').next().unwrap_or(tail)
}

/// A recursion's kind: the enum's name, or the role and field name.
fn kind(span: &Span) -> Option<(u8, &str)> {
    match span.role {
        Role::VariantTag(name) => Some((0, name)),
        Role::OptionTag => Some((1, last_field(&span.path))),
        Role::SeqLength => Some((2, last_field(&span.path))),
        Role::MapLength => Some((3, last_field(&span.path))),
        _ => None,
    }
}

/// Whether the span after `outer` and the span after `inner` are the
/// same field of the same value, each seen from its own.
fn same_shape(spans: &[Span], outer: usize, inner: usize) -> bool {
    let (Some(o), Some(i)) = (spans.get(outer), spans.get(inner)) else {
        return false;
    };
    if matches!(o.role, Role::VariantTag(_)) {
        return true;
    }
    let next = |at: usize, base: &str| {
        spans.get(at.saturating_add(1)).and_then(|s| {
            s.path
                .strip_prefix(base)
                .filter(|rest| !rest.is_empty())
                .map(|rest| (s.role, rest.to_string()))
        })
    };
    let theirs = next(inner, &i.path);
    theirs.is_some() && theirs == next(outer, &o.path)
}

/// For each kind of recursion in `spans`, the shortest level found: the
/// bytes from the outer span to the inner one, and the outer span.
fn levels(spans: &[Span]) -> BTreeMap<(u8, &str), (usize, usize, &Span)> {
    let mut best: BTreeMap<(u8, &str), (usize, usize, &Span)> = BTreeMap::new();
    for (at, inner) in spans.iter().enumerate() {
        let Some(key) = kind(inner) else {
            continue;
        };
        // Spans come in the order written, a value before what it holds:
        // the nearest earlier span of the kind that holds this one.
        let outer_at = spans
            .iter()
            .enumerate()
            .take(at)
            .rev()
            .find(|(_, o)| {
                kind(o) == Some(key)
                    && inner.path.len() > o.path.len()
                    && inner.path.starts_with(&o.path)
            })
            .map(|(i, _)| i);
        let Some(outer_at) = outer_at else {
            continue;
        };
        let Some(outer) = spans.get(outer_at) else {
            continue;
        };
        let (from, to) = (outer.bytes.start, inner.bytes.start);
        if to <= from || !same_shape(spans, outer_at, at) {
            continue;
        }
        let shorter = best
            .get(&key)
            .is_none_or(|(f, t, _)| to - from < t.saturating_sub(*f));
        if shorter {
            best.insert(key, (from, to, outer));
        }
    }
    best
}

/// The `deep-nesting` lies of the encoding `bytes`: along each recursive
/// path, one level past `max_depth` more than it was, and as many levels
/// as fit in `most_bytes` more bytes. Deeper than the target declares,
/// each is owed a refusal (a message whose outer levels needed more after
/// their inner one would be refused anyway); the second is deep enough to
/// overflow a stack that has no limit to keep it, in a release build too.
pub(super) fn deep_nesting(
    bytes: &[u8],
    spans: &[Span],
    max_depth: usize,
    most_bytes: usize,
) -> Vec<Lie> {
    let mut told = Vec::new();
    for (from, to, outer) in levels(spans).into_values() {
        let level = bytes.get(from..to).unwrap_or_default();
        let deepest = most_bytes / level.len().max(1);
        let mut depths = vec![max_depth.saturating_add(1).min(deepest), deepest];
        depths.dedup();
        for levels in depths {
            let mut out = bytes.get(..from).unwrap_or_default().to_vec();
            out.extend_from_slice(&level.repeat(levels));
            out.extend_from_slice(bytes.get(from..).unwrap_or_default());
            told.push(Lie {
                class: Class::DeepNesting,
                path: format!("{} ({levels} levels more)", outer.path),
                bytes: out,
                owed: Owed::Refused,
            });
        }
    }
    told
}
