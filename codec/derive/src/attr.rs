//! Parsing `#[serialize(...)]` on fields and containers, with every check
//! that can be made before the code is generated. A mistake is reported at
//! the attribute that makes it.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, LitStr, Path, Result};

use crate::literal;

/// How a field's innermost values travel, when the type alone does not say.
pub enum Leaf {
    /// `range = min..=max`: a ranged integer of any width.
    Range { min: Expr, max: Expr },
    /// `bits = N`: the low N bits of an unsigned integer.
    Bits(Expr),
    /// `compressed(min = .., max = .., res = ..)`: an `f32`, or a `u32`
    /// holding the code itself.
    Compressed { min: Expr, max: Expr, res: Expr },
    /// `fixed(integer_bits = .., fraction_bits = .., min = .., max = ..)`:
    /// an `i128` holding the raw fixed-point integer.
    Fixed {
        integer_bits: Expr,
        fraction_bits: Expr,
        min: Expr,
        max: Expr,
    },
    /// `bytes`: `[u8; N]` as aligned raw bytes, or `Vec<u8>` as a count and
    /// aligned raw bytes.
    Bytes,
    /// `wide`: a `String` or `Vec<u16>` as UTF-16 units.
    Wide,
    /// `quaternion`: a smallest-three quaternion.
    Quaternion,
    /// `subset(strategy, size = N)`: a subset of a fixed-size array.
    Subset { strategy: syn::Ident, size: Expr },
    /// `with = path`: a hand-written function.
    With(Path),
}

/// One marker: zero bits, a check or an integrity counter placed before or
/// after a field, in the order written.
pub enum Marker {
    /// `align`: zero bits to the next byte boundary.
    Align,
    /// `check = "label"`: a serialize check.
    Check(LitStr),
    /// `integrity`: a versioned save's running counter.
    Integrity(Span),
}

/// Everything `#[serialize(...)]` may say of a field.
#[derive(Default)]
pub struct FieldAttrs {
    pub leaf: Option<(Leaf, Span)>,
    pub max_len: Option<Expr>,
    pub when: Option<Expr>,
    pub otherwise: Option<Expr>,
    pub added: Option<Expr>,
    pub removed: Option<Expr>,
    pub default: Option<Expr>,
    pub before: Vec<Marker>,
    pub after: Vec<Marker>,
    pub name: Option<LitStr>,
    pub skip: bool,
    pub version: bool,
    /// `arbitrary = path`: valid values of a `with` field, for the
    /// generated `Arbitrary` implementation.
    pub arbitrary: Option<Path>,
    /// `valid = path`: the rule a `with` field's values keep, a
    /// `fn(&T) -> bool` stated apart from its hand-written code.
    pub valid: Option<Path>,
    /// Where the attribute stands, for errors about the whole of it.
    pub span: Option<Span>,
}

/// What `#[serialize(...)]` may say of a struct or enum.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `versions = first..=latest`: a versioned save.
    pub versions: Option<(Expr, Expr)>,
    /// `upgrade = path`: called by a reader after every field is read.
    pub upgrade: Option<Path>,
}

const FIELD_KEYS: &str = "range, bits, compressed, fixed, bytes, wide, quaternion, subset, with, \
     arbitrary, valid, max_len, when, otherwise, added, removed, default, before, after, name, skip, \
     version";

const MARKER_KEYS: &str = "align, check, integrity";

const SUBSET_STRATEGIES: [&str; 6] = [
    "bools", "counted", "sentinel", "relative", "golomb", "adaptive",
];

fn is_serialize(attr: &Attribute) -> bool {
    attr.path().is_ident("serialize")
}

fn set_leaf(attrs: &mut FieldAttrs, leaf: Leaf, meta: &ParseNestedMeta) -> Result<()> {
    if attrs.leaf.is_some() {
        return Err(meta.error(
            "a field has one wire form: this attribute conflicts with one given before it",
        ));
    }
    attrs.leaf = Some((leaf, meta.path.span()));
    Ok(())
}

fn once<T>(slot: &mut Option<T>, value: T, meta: &ParseNestedMeta) -> Result<()> {
    if slot.is_some() {
        return Err(meta.error("this attribute is given twice"));
    }
    *slot = Some(value);
    Ok(())
}

/// `key = value` pairs inside `name(...)`, all required.
fn keyed<const N: usize>(meta: &ParseNestedMeta, keys: [&str; N]) -> Result<[Expr; N]> {
    let mut values: [Option<Expr>; N] = std::array::from_fn(|_| None);
    let what = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default();
    meta.parse_nested_meta(|inner| {
        let Some(position) = keys.iter().position(|k| inner.path.is_ident(k)) else {
            return Err(inner.error(format!(
                "unknown key in `{what}(...)`; expected {}",
                keys.join(", ")
            )));
        };
        let value: Expr = inner.value()?.parse()?;
        once(&mut values[position], value, &inner)
    })?;
    let mut out = Vec::with_capacity(N);
    for (value, key) in values.into_iter().zip(keys) {
        match value {
            Some(v) => out.push(v),
            None => {
                return Err(meta.error(format!(
                    "`{what}(...)` needs `{key} = ..` ({} all required)",
                    keys.join(", ")
                )))
            }
        }
    }
    out.try_into()
        .map_err(|_| meta.error("internal: key count"))
}

fn markers(meta: &ParseNestedMeta) -> Result<Vec<Marker>> {
    let mut markers = Vec::new();
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("align") {
            markers.push(Marker::Align);
        } else if inner.path.is_ident("check") {
            markers.push(Marker::Check(inner.value()?.parse()?));
        } else if inner.path.is_ident("integrity") {
            markers.push(Marker::Integrity(inner.path.span()));
        } else {
            return Err(inner.error(format!("unknown marker; expected one of: {MARKER_KEYS}")));
        }
        Ok(())
    })?;
    Ok(markers)
}

/// The range `min..=max` of a `range = ` attribute.
fn inclusive_range(meta: &ParseNestedMeta) -> Result<(Expr, Expr)> {
    let expr: Expr = meta.value()?.parse()?;
    let Expr::Range(range) = &expr else {
        return Err(syn::Error::new(
            expr.span(),
            "`range` takes an inclusive range: `range = min..=max`",
        ));
    };
    let (Some(min), Some(max), syn::RangeLimits::Closed(_)) =
        (&range.start, &range.end, &range.limits)
    else {
        return Err(syn::Error::new(
            expr.span(),
            "`range` takes an inclusive range with both ends: `range = min..=max`",
        ));
    };
    if let (Some(lo), Some(hi)) = (literal::int(min), literal::int(max)) {
        if lo > hi {
            return Err(syn::Error::new_spanned(
                &expr,
                format!("empty range: min {lo} is greater than max {hi}"),
            ));
        }
    }
    Ok(((**min).clone(), (**max).clone()))
}

fn bits(meta: &ParseNestedMeta) -> Result<Expr> {
    let expr: Expr = meta.value()?.parse()?;
    if let Some(n) = literal::int(&expr) {
        if !(1..=64).contains(&n) {
            return Err(syn::Error::new_spanned(
                &expr,
                format!("`bits = {n}`: a raw field is 1 to 64 bits wide"),
            ));
        }
    }
    Ok(expr)
}

/// Refuses, when the bounds are literals, a compressed float whose range
/// and resolution need more than 32 bits (the format would clamp it).
fn compressed(meta: &ParseNestedMeta) -> Result<Leaf> {
    let [min, max, res] = keyed(meta, ["min", "max", "res"])?;
    if let (Some(lo), Some(hi), Some(step)) = (
        literal::float(&min),
        literal::float(&max),
        literal::float(&res),
    ) {
        if lo >= hi {
            return Err(meta.error(format!("`compressed`: min {lo} must be below max {hi}")));
        }
        if step <= 0.0 {
            return Err(meta.error(format!("`compressed`: res {step} must be positive")));
        }
        // The format's own arithmetic: f32, each step rounded.
        let values = (hi - lo) / step;
        if values > 4_294_967_040.0 {
            return Err(meta.error(format!(
                "`compressed`: [{lo}, {hi}] at {step} needs {values:e} steps, more than 32 bits hold; \
                 raise `res` or narrow the range"
            )));
        }
    }
    Ok(Leaf::Compressed { min, max, res })
}

fn subset(meta: &ParseNestedMeta) -> Result<Leaf> {
    let mut strategy = None;
    let mut size = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("size") {
            return once(&mut size, inner.value()?.parse::<Expr>()?, &inner);
        }
        match inner.path.get_ident() {
            Some(ident) if SUBSET_STRATEGIES.contains(&ident.to_string().as_str()) => {
                once(&mut strategy, ident.clone(), &inner)
            }
            _ => Err(inner.error(format!(
                "unknown subset strategy; expected one of: {}, and `size = N`",
                SUBSET_STRATEGIES.join(", ")
            ))),
        }
    })?;
    match (strategy, size) {
        (Some(strategy), Some(size)) => Ok(Leaf::Subset { strategy, size }),
        _ => Err(meta.error(format!(
            "`subset` needs a strategy ({}) and `size = N`",
            SUBSET_STRATEGIES.join(", ")
        ))),
    }
}

/// The `#[serialize(...)]` attributes of a field, merged.
pub fn field(attrs: &[Attribute]) -> Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    for attr in attrs.iter().filter(|a| is_serialize(a)) {
        out.span.get_or_insert(attr.span());
        attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match key.as_str() {
                "range" => {
                    let (min, max) = inclusive_range(&meta)?;
                    set_leaf(&mut out, Leaf::Range { min, max }, &meta)
                }
                "bits" => {
                    let n = bits(&meta)?;
                    set_leaf(&mut out, Leaf::Bits(n), &meta)
                }
                "compressed" => {
                    let leaf = compressed(&meta)?;
                    set_leaf(&mut out, leaf, &meta)
                }
                "fixed" => {
                    let [integer_bits, fraction_bits, min, max] =
                        keyed(&meta, ["integer_bits", "fraction_bits", "min", "max"])?;
                    let leaf = Leaf::Fixed {
                        integer_bits,
                        fraction_bits,
                        min,
                        max,
                    };
                    set_leaf(&mut out, leaf, &meta)
                }
                "bytes" => set_leaf(&mut out, Leaf::Bytes, &meta),
                "wide" => set_leaf(&mut out, Leaf::Wide, &meta),
                "quaternion" => set_leaf(&mut out, Leaf::Quaternion, &meta),
                "subset" => {
                    let leaf = subset(&meta)?;
                    set_leaf(&mut out, leaf, &meta)
                }
                "with" => {
                    let path: Path = meta.value()?.parse()?;
                    set_leaf(&mut out, Leaf::With(path), &meta)
                }
                "max_len" => {
                    let expr: Expr = meta.value()?.parse()?;
                    once(&mut out.max_len, expr, &meta)
                }
                "when" => once(&mut out.when, meta.value()?.parse()?, &meta),
                "otherwise" => once(&mut out.otherwise, meta.value()?.parse()?, &meta),
                "added" => once(&mut out.added, meta.value()?.parse()?, &meta),
                "removed" => once(&mut out.removed, meta.value()?.parse()?, &meta),
                "default" => once(&mut out.default, meta.value()?.parse()?, &meta),
                "name" => once(&mut out.name, meta.value()?.parse()?, &meta),
                "arbitrary" => once(&mut out.arbitrary, meta.value()?.parse()?, &meta),
                "valid" => once(&mut out.valid, meta.value()?.parse()?, &meta),
                "before" => {
                    out.before.extend(markers(&meta)?);
                    Ok(())
                }
                "after" => {
                    out.after.extend(markers(&meta)?);
                    Ok(())
                }
                "skip" => {
                    out.skip = true;
                    Ok(())
                }
                "version" => {
                    out.version = true;
                    Ok(())
                }
                _ => Err(meta.error(format!(
                    "unknown attribute `{key}`; a field takes: {FIELD_KEYS}"
                ))),
            }
        })?;
    }
    if let (Some(path), false) = (&out.arbitrary, matches!(out.leaf, Some((Leaf::With(_), _)))) {
        return Err(syn::Error::new(
            path.span(),
            "`arbitrary = path` generates the values of a `with = path` field; \
             every other declaration generates its own",
        ));
    }
    if let (Some(path), false) = (&out.valid, matches!(out.leaf, Some((Leaf::With(_), _)))) {
        return Err(syn::Error::new(
            path.span(),
            "`valid = path` states the rule of a `with = path` field; \
             every other declaration is its own rule",
        ));
    }
    if out.otherwise.is_some() && out.when.is_none() {
        return Err(syn::Error::new(
            out.span.unwrap_or_else(Span::call_site),
            "`otherwise` is the value of a field that `when` leaves out: add `when = condition`",
        ));
    }
    Ok(out)
}

/// The `#[serialize(...)]` attributes of a struct or enum.
pub fn container(attrs: &[Attribute]) -> Result<ContainerAttrs> {
    let mut out = ContainerAttrs::default();
    for attr in attrs.iter().filter(|a| is_serialize(a)) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("versions") {
                let (first, latest) = inclusive_range(&meta)?;
                once(&mut out.versions, (first, latest), &meta)
            } else if meta.path.is_ident("upgrade") {
                once(&mut out.upgrade, meta.value()?.parse()?, &meta)
            } else {
                Err(meta.error(
                    "unknown attribute; a struct or enum takes: versions = first..=latest, upgrade = path",
                ))
            }
        })?;
    }
    Ok(out)
}

/// `#[packet(protocol_id = .., max_bytes = ..)]` of a `Packet` enum.
pub struct PacketAttrs {
    pub protocol_id: Expr,
    pub max_bytes: Expr,
}

/// Parses the `#[packet(...)]` attribute; both keys are required.
pub fn packet(attrs: &[Attribute], span: Span) -> Result<PacketAttrs> {
    let mut protocol_id = None;
    let mut max_bytes = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("packet")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("protocol_id") {
                once(&mut protocol_id, meta.value()?.parse::<Expr>()?, &meta)
            } else if meta.path.is_ident("max_bytes") {
                once(&mut max_bytes, meta.value()?.parse::<Expr>()?, &meta)
            } else {
                Err(meta.error("unknown attribute; `packet` takes: protocol_id, max_bytes"))
            }
        })?;
    }
    match (protocol_id, max_bytes) {
        (Some(protocol_id), Some(max_bytes)) => Ok(PacketAttrs {
            protocol_id,
            max_bytes,
        }),
        _ => Err(syn::Error::new(
            span,
            "a `Packet` needs #[packet(protocol_id = 0x.., max_bytes = N)]",
        )),
    }
}
