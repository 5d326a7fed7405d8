//! The field map of a message as it is read: a `Deserializer` wrapper
//! that lets the real format read the type and, around each call, notes
//! how many bytes the format's reader had taken ([`took`], counted by the
//! adapter's reader), so that every byte read belongs to one leaf of the
//! value; where a read stops, the path it was in; and the words of the
//! type's own error (`Error::custom`), which some formats do not keep.
//! `inspect` maps a file's own bytes with it, a refused one up to where
//! its reader stopped.

use super::{Leaf, Role, Span};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use std::cell::{Cell, RefCell};
use std::fmt;

thread_local! {
    static TAKEN: Cell<usize> = const { Cell::new(0) };
    static TRACE: RefCell<Trace> = RefCell::new(Trace::default());
}

/// Counts `n` more bytes taken by the format's reader (the adapters'
/// counting readers call it).
pub fn took(n: usize) {
    TAKEN.with(|t| t.set(t.get().saturating_add(n)));
}

/// Bytes the format's reader has taken so far in this trace.
fn taken() -> usize {
    TAKEN.with(Cell::get)
}

/// What a traced read found.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Each leaf read, in the order read, with the bytes it was read from.
    pub spans: Vec<Span>,
    /// Where the read is: the path's segments.
    path: Vec<String>,
    /// The variant index an enum's identifier was read as.
    ident: Option<u32>,
    /// Whether an enum's identifier is being read: the number read then
    /// is its index, whatever call reads it.
    in_variant: bool,
    /// The first error's words, and the path and byte it was raised at.
    pub error: Option<(String, String, usize)>,
    /// The bytes the reader took in all.
    pub taken: usize,
}

impl Trace {
    fn joined(&self) -> String {
        let joined = self.path.concat();
        joined.strip_prefix('.').unwrap_or(&joined).to_string()
    }
}

/// Runs `read` (a read of a [`Traced`] value through a counting reader)
/// and gives what it traced with its result.
pub fn traced<R>(read: impl FnOnce() -> R) -> (R, Trace) {
    TAKEN.with(|t| t.set(0));
    TRACE.with(|t| *t.borrow_mut() = Trace::default());
    let result = read();
    let mut trace = TRACE.with(|t| std::mem::take(&mut *t.borrow_mut()));
    trace.taken = taken();
    (result, trace)
}

fn record(start: usize, end: usize, role: Role, leaf: Leaf) {
    if end <= start {
        return;
    }
    TRACE.with(|t| {
        let mut t = t.borrow_mut();
        let path = t.joined();
        t.spans.push(Span {
            path,
            role,
            bytes: start..end,
            leaf,
        });
    });
}

fn push(segment: String) {
    TRACE.with(|t| t.borrow_mut().path.push(segment));
}

fn pop() {
    TRACE.with(|t| {
        t.borrow_mut().path.pop();
    });
}

/// An error inside a traced read, in words: the type's own, or the
/// format's.
#[derive(Debug)]
pub struct Captured(pub String);

impl Captured {
    /// Keeps the first error's words and where it was raised.
    fn noted(words: String) -> Self {
        TRACE.with(|t| {
            let mut t = t.borrow_mut();
            if t.error.is_none() {
                let path = t.joined();
                t.error = Some((words.clone(), path, taken()));
            }
        });
        Self(words)
    }

    fn from<E: fmt::Display>(error: E) -> Self {
        Self::noted(error.to_string())
    }

    fn into<E: de::Error>(self) -> E {
        E::custom(self.0)
    }
}

impl fmt::Display for Captured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Captured {}

impl de::Error for Captured {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::noted(msg.to_string())
    }
}

/// `T` read through the tracing wrapper.
pub struct Traced<T>(pub T);

impl<'de, T: de::Deserialize<'de>> de::Deserialize<'de> for Traced<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(Recording(deserializer))
            .map(Traced)
            .map_err(Captured::into)
    }
}

/// The format's deserializer, watched.
struct Recording<D>(D);

/// What a visit records: the role the call asked for and where it began.
#[derive(Clone, Copy)]
enum Asked {
    Leaf(Role),
    Str,
    Bytes,
    Option,
    Seq,
    Map,
    Fields(&'static [&'static str]),
    Tuple,
    Enum(&'static str, &'static [&'static str]),
    Ident,
    Any,
}

/// The visitor, watched.
struct Visit<V> {
    inner: V,
    asked: Asked,
    start: usize,
}

/// `inner` watched for a call that asked for `asked`, from here.
fn visit<V>(inner: V, asked: Asked) -> Visit<V> {
    Visit {
        inner,
        asked,
        start: taken(),
    }
}

macro_rules! forward {
    ($($method:ident => $asked:expr;)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Captured> {
                let visit = visit(visitor, $asked);
                self.0.$method(visit).map_err(Captured::from)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Recording<D> {
    type Error = Captured;

    forward! {
        deserialize_any => Asked::Any;
        deserialize_bool => Asked::Leaf(Role::Bool);
        deserialize_i8 => Asked::Leaf(Role::Int("i8"));
        deserialize_i16 => Asked::Leaf(Role::Int("i16"));
        deserialize_i32 => Asked::Leaf(Role::Int("i32"));
        deserialize_i64 => Asked::Leaf(Role::Int("i64"));
        deserialize_i128 => Asked::Leaf(Role::Int("i128"));
        deserialize_u8 => Asked::Leaf(Role::Int("u8"));
        deserialize_u16 => Asked::Leaf(Role::Int("u16"));
        deserialize_u32 => Asked::Leaf(Role::Int("u32"));
        deserialize_u64 => Asked::Leaf(Role::Int("u64"));
        deserialize_u128 => Asked::Leaf(Role::Int("u128"));
        deserialize_f32 => Asked::Leaf(Role::Float("f32"));
        deserialize_f64 => Asked::Leaf(Role::Float("f64"));
        deserialize_char => Asked::Leaf(Role::Char);
        deserialize_str => Asked::Str;
        deserialize_string => Asked::Str;
        deserialize_bytes => Asked::Bytes;
        deserialize_byte_buf => Asked::Bytes;
        deserialize_option => Asked::Option;
        deserialize_unit => Asked::Any;
        deserialize_seq => Asked::Seq;
        deserialize_map => Asked::Map;
        deserialize_identifier => Asked::Ident;
        deserialize_ignored_any => Asked::Any;
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Captured> {
        let visit = visit(visitor, Asked::Any);
        self.0
            .deserialize_unit_struct(name, visit)
            .map_err(Captured::from)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Captured> {
        let visit = visit(visitor, Asked::Any);
        self.0
            .deserialize_newtype_struct(name, visit)
            .map_err(Captured::from)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Captured> {
        let visit = visit(visitor, Asked::Tuple);
        self.0.deserialize_tuple(len, visit).map_err(Captured::from)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Captured> {
        let visit = visit(visitor, Asked::Tuple);
        self.0
            .deserialize_tuple_struct(name, len, visit)
            .map_err(Captured::from)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Captured> {
        let visit = visit(visitor, Asked::Fields(fields));
        self.0
            .deserialize_struct(name, fields, visit)
            .map_err(Captured::from)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Captured> {
        let visit = Visit {
            inner: visitor,
            asked: Asked::Enum(name, variants),
            start: taken(),
        };
        self.0
            .deserialize_enum(name, variants, visit)
            .map_err(Captured::from)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

impl<V> Visit<V> {
    /// Records a leaf read as `role` (the call's, when it asked for one).
    fn leaf(&self, role: Role, leaf: Leaf) {
        let role = match self.asked {
            Asked::Leaf(asked) => asked,
            _ => role,
        };
        record(self.start, taken(), role, leaf);
    }

    /// Records a length and the bytes after it, `len` of them.
    fn prefixed(&self, len: usize, length: Role, body: Role, leaf: Leaf) {
        let end = taken();
        let body_start = end.saturating_sub(len).max(self.start);
        record(self.start, body_start, length, Leaf::Length(len));
        record(body_start, end, body, leaf);
    }
}

macro_rules! number {
    ($($method:ident: $ty:ty => $role:expr, $leaf:expr;)*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                let variant = TRACE.with(|t| t.borrow().in_variant);
                if matches!(self.asked, Asked::Ident) || variant {
                    TRACE.with(|t| t.borrow_mut().ident = u32::try_from(v).ok());
                } else {
                    self.leaf($role, $leaf(v));
                }
                self.inner.$method::<Captured>(v).map_err(Captured::into)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Visit<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        self.leaf(Role::Bool, Leaf::Bool(v));
        self.inner.visit_bool::<Captured>(v).map_err(Captured::into)
    }

    number! {
        visit_i8: i8 => Role::Int("i8"), |v| Leaf::Signed(i128::from(v));
        visit_i16: i16 => Role::Int("i16"), |v| Leaf::Signed(i128::from(v));
        visit_i32: i32 => Role::Int("i32"), |v| Leaf::Signed(i128::from(v));
        visit_i64: i64 => Role::Int("i64"), |v| Leaf::Signed(i128::from(v));
        visit_i128: i128 => Role::Int("i128"), Leaf::Signed;
        visit_u8: u8 => Role::Int("u8"), |v| Leaf::Unsigned(u128::from(v));
        visit_u16: u16 => Role::Int("u16"), |v| Leaf::Unsigned(u128::from(v));
        visit_u32: u32 => Role::Int("u32"), |v| Leaf::Unsigned(u128::from(v));
        visit_u64: u64 => Role::Int("u64"), |v| Leaf::Unsigned(u128::from(v));
        visit_u128: u128 => Role::Int("u128"), Leaf::Unsigned;
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<Self::Value, E> {
        self.leaf(Role::Float("f32"), Leaf::F32(v));
        self.inner.visit_f32::<Captured>(v).map_err(Captured::into)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.leaf(Role::Float("f64"), Leaf::F64(v));
        self.inner.visit_f64::<Captured>(v).map_err(Captured::into)
    }

    fn visit_char<E: de::Error>(self, v: char) -> Result<Self::Value, E> {
        self.leaf(Role::Char, Leaf::Char(v));
        self.inner.visit_char::<Captured>(v).map_err(Captured::into)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        self.text(v);
        self.inner.visit_str::<Captured>(v).map_err(Captured::into)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        self.text(v);
        self.inner
            .visit_borrowed_str::<Captured>(v)
            .map_err(Captured::into)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        self.text(&v);
        self.inner
            .visit_string::<Captured>(v)
            .map_err(Captured::into)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        self.raw(v);
        self.inner
            .visit_bytes::<Captured>(v)
            .map_err(Captured::into)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
        self.raw(v);
        self.inner
            .visit_borrowed_bytes::<Captured>(v)
            .map_err(Captured::into)
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Self::Value, E> {
        self.raw(&v);
        self.inner
            .visit_byte_buf::<Captured>(v)
            .map_err(Captured::into)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        record(self.start, taken(), Role::OptionTag, Leaf::Present(false));
        self.inner.visit_none::<Captured>().map_err(Captured::into)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        record(self.start, taken(), Role::OptionTag, Leaf::Present(true));
        self.inner
            .visit_some(Recording(deserializer))
            .map_err(Captured::into)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit::<Captured>().map_err(Captured::into)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        self.inner
            .visit_newtype_struct(Recording(deserializer))
            .map_err(Captured::into)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let names = match self.asked {
            Asked::Fields(fields) => Segments::Fields(fields),
            Asked::Tuple => Segments::Numbered,
            _ => {
                let len = seq.size_hint().unwrap_or(0);
                record(self.start, taken(), Role::SeqLength, Leaf::Length(len));
                Segments::Indexed
            }
        };
        self.inner
            .visit_seq(Seq {
                inner: seq,
                names,
                index: 0,
            })
            .map_err(Captured::into)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let len = map.size_hint().unwrap_or(0);
        record(self.start, taken(), Role::MapLength, Leaf::Length(len));
        self.inner
            .visit_map(Map {
                inner: map,
                index: 0,
            })
            .map_err(Captured::into)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        let (name, variants) = match self.asked {
            Asked::Enum(name, variants) => (name, variants),
            _ => ("", &[][..]),
        };
        self.inner
            .visit_enum(Enum {
                inner: data,
                name,
                variants,
                start: self.start,
            })
            .map_err(Captured::into)
    }
}

impl<V> Visit<V> {
    fn text(&self, v: &str) {
        match self.asked {
            Asked::Ident => {}
            _ => self.prefixed(
                v.len(),
                Role::StrLength,
                Role::StrBytes,
                Leaf::Text(v.into()),
            ),
        }
    }

    fn raw(&self, v: &[u8]) {
        self.prefixed(
            v.len(),
            Role::BytesLength,
            Role::Bytes,
            Leaf::Raw(v.to_vec()),
        );
    }
}

/// How a sequence's elements are named in the path.
#[derive(Clone, Copy)]
enum Segments {
    Indexed,
    Numbered,
    Fields(&'static [&'static str]),
}

struct Seq<A> {
    inner: A,
    names: Segments,
    index: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<A> {
    type Error = Captured;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Captured> {
        let segment = match self.names {
            Segments::Indexed => format!("[{}]", self.index),
            Segments::Numbered => format!(".{}", self.index),
            Segments::Fields(fields) => match fields.get(self.index) {
                Some(field) => format!(".{field}"),
                None => format!(".{}", self.index),
            },
        };
        self.index = self.index.saturating_add(1);
        push(segment);
        let next = self.inner.next_element_seed(Seed(seed));
        pop();
        next.map_err(Captured::from)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

struct Map<A> {
    inner: A,
    index: usize,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Map<A> {
    type Error = Captured;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Captured> {
        push(format!("[{}].key", self.index));
        let key = self.inner.next_key_seed(Seed(seed));
        pop();
        key.map_err(Captured::from)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Captured> {
        push(format!("[{}].value", self.index));
        self.index = self.index.saturating_add(1);
        let value = self.inner.next_value_seed(Seed(seed));
        pop();
        value.map_err(Captured::from)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// A seed whose deserializer is watched.
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0
            .deserialize(Recording(deserializer))
            .map_err(Captured::into)
    }
}

struct Enum<A> {
    inner: A,
    name: &'static str,
    variants: &'static [&'static str],
    start: usize,
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Enum<A> {
    type Error = Captured;
    type Variant = Variant<A::Variant>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), Captured> {
        TRACE.with(|t| {
            let mut t = t.borrow_mut();
            t.ident = None;
            t.in_variant = true;
        });
        let read = self.inner.variant_seed(Seed(seed));
        TRACE.with(|t| t.borrow_mut().in_variant = false);
        let (value, variant) = read.map_err(Captured::from)?;
        let index = TRACE.with(|t| t.borrow().ident);
        let role = Role::VariantTag(self.name);
        record(self.start, taken(), role, Leaf::Tag(index.unwrap_or(0)));
        let name = index
            .and_then(|i| self.variants.get(usize::try_from(i).ok()?))
            .copied()
            .unwrap_or("?");
        Ok((
            value,
            Variant {
                inner: variant,
                segment: format!(".{name}"),
            },
        ))
    }
}

struct Variant<A> {
    inner: A,
    segment: String,
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Variant<A> {
    type Error = Captured;

    fn unit_variant(self) -> Result<(), Captured> {
        self.inner.unit_variant().map_err(Captured::from)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Captured> {
        push(self.segment);
        let value = self.inner.newtype_variant_seed(Seed(seed));
        pop();
        value.map_err(Captured::from)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Captured> {
        push(self.segment);
        let visit = visit(visitor, Asked::Tuple);
        let value = self.inner.tuple_variant(len, visit);
        pop();
        value.map_err(Captured::from)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Captured> {
        push(self.segment);
        let visit = visit(visitor, Asked::Fields(fields));
        let value = self.inner.struct_variant(fields, visit);
        pop();
        value.map_err(Captured::from)
    }
}
