//! Field maps of serde encodings: a `Serializer` wrapper that lets the real
//! format write the value and, around each call, counts the bytes the
//! format wrote, so that every byte of the encoding belongs to one leaf of
//! the value: a length prefix, an enum or option tag, a number, a string's
//! bytes. Nothing in the format crates changes.

use super::{Format, Tape};
use serde::ser::{
    Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};
use std::cell::RefCell;
use std::fmt::Display;
use std::ops::Range;
use std::rc::Rc;

/// What a span's bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The length before a sequence's items.
    SeqLength,
    /// The length before a map's entries.
    MapLength,
    /// The length before a string's bytes.
    StrLength,
    /// The length before a byte string's bytes.
    BytesLength,
    /// The variant index of the enum of the named type.
    VariantTag(&'static str),
    /// An option's tag: 0 none, 1 some.
    OptionTag,
    /// A bool's byte.
    Bool,
    /// An integer of the named type.
    Int(&'static str),
    /// A float of the named type.
    Float(&'static str),
    /// A `char`.
    Char,
    /// A string's UTF-8 bytes.
    StrBytes,
    /// A byte string's bytes.
    Bytes,
}

/// The value a span holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Leaf {
    /// A bool.
    Bool(bool),
    /// An unsigned integer.
    Unsigned(u128),
    /// A signed integer.
    Signed(i128),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A `char`.
    Char(char),
    /// A length prefix's count.
    Length(usize),
    /// A variant index.
    Tag(u32),
    /// An option's tag: whether a value follows.
    Present(bool),
    /// A string's text.
    Text(String),
    /// A byte string's bytes.
    Raw(Vec<u8>),
}

/// One leaf of a value and the bytes the format wrote for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    /// Where in the value, e.g. `input.commands[3].Jump.height`.
    pub path: String,
    /// What its bytes are.
    pub role: Role,
    /// Its bytes in the encoding.
    pub bytes: Range<usize>,
    /// The value it holds.
    pub leaf: Leaf,
}

impl Role {
    /// Its name in `inspect`'s table: `seq-length`, `int u16`,
    /// `variant-tag Command`, ...
    #[must_use]
    pub fn label(self) -> String {
        match self {
            Self::SeqLength => "seq-length".into(),
            Self::MapLength => "map-length".into(),
            Self::StrLength => "str-length".into(),
            Self::BytesLength => "bytes-length".into(),
            Self::VariantTag(name) => format!("variant-tag {name}"),
            Self::OptionTag => "option-tag".into(),
            Self::Bool => "bool".into(),
            Self::Int(ty) => format!("int {ty}"),
            Self::Float(ty) => format!("float {ty}"),
            Self::Char => "char".into(),
            Self::StrBytes => "str-bytes".into(),
            Self::Bytes => "bytes".into(),
        }
    }
}

impl Leaf {
    /// Its value for people.
    #[must_use]
    pub fn shown(&self) -> String {
        match self {
            Self::Bool(v) => v.to_string(),
            Self::Unsigned(v) => v.to_string(),
            Self::Signed(v) => v.to_string(),
            Self::F32(v) => format!("{v:?}"),
            Self::F64(v) => format!("{v:?}"),
            Self::Char(v) => format!("{v:?}"),
            Self::Length(n) => n.to_string(),
            Self::Tag(index) => index.to_string(),
            Self::Present(present) => if *present { "some" } else { "none" }.into(),
            Self::Text(text) => format!("{text:?}"),
            Self::Raw(raw) => raw.iter().map(|b| format!("{b:02x}")).collect(),
        }
    }
}

impl Span {
    /// The span as `inspect` lists it.
    #[must_use]
    pub fn listed(&self) -> crate::target::ListedField {
        let bits = self.bits();
        crate::target::ListedField {
            offset: bits.start,
            width: bits.end.saturating_sub(bits.start),
            path: self.path.clone(),
            role: self.role.label(),
            value: self.leaf.shown(),
        }
    }

    /// Its bits in the encoding (these formats are byte-aligned).
    #[must_use]
    pub fn bits(&self) -> Range<u64> {
        let bit = |byte: usize| u64::try_from(byte).unwrap_or(u64::MAX).saturating_mul(8);
        bit(self.bytes.start)..bit(self.bytes.end)
    }
}

/// `value` as `format` writes it, each map's entries in key order
/// ([`super::sorted()`]), and the span of each of its leaves, in the order
/// written.
///
/// # Errors
///
/// The format's own error, in words.
pub fn field_map<F: Format, T: Serialize + ?Sized>(
    format: &F,
    value: &T,
) -> Result<(Vec<u8>, Vec<Span>), String> {
    let mut tape = Tape::default();
    let state = Rc::new(RefCell::new(State {
        tape: tape.clone(),
        path: Vec::new(),
        spans: Vec::new(),
    }));
    let value = super::sorted(value)?;
    let recorded = Recorded {
        value: &value,
        state: Rc::clone(&state),
        segment: None,
        tag: None,
    };
    format.encode(&recorded, &mut tape)?;
    let spans = std::mem::take(&mut state.borrow_mut().spans);
    Ok((tape.bytes(), spans))
}

/// What the recorder keeps while the format writes.
struct State {
    tape: Tape,
    path: Vec<String>,
    spans: Vec<Span>,
}

type Shared = Rc<RefCell<State>>;

fn position(state: &Shared) -> usize {
    state.borrow().tape.len()
}

/// Records the bytes from `start` to where the tape is now, if any.
fn record(state: &Shared, start: usize, role: Role, leaf: Leaf) {
    let end = position(state);
    record_range(state, start..end, role, leaf);
}

fn record_range(state: &Shared, bytes: Range<usize>, role: Role, leaf: Leaf) {
    if bytes.is_empty() {
        return;
    }
    let mut state = state.borrow_mut();
    let joined = state.path.concat();
    let path = joined.strip_prefix('.').unwrap_or(&joined).to_string();
    state.spans.push(Span {
        path,
        role,
        bytes,
        leaf,
    });
}

/// A tag the format wrote before a value (an option's or a variant's),
/// recorded when the value begins.
struct TagAt {
    start: usize,
    role: Role,
    leaf: Leaf,
}

/// A value handed to the format in place of the real one: it records the
/// tag before it, names its place in the path, and writes the real value
/// through a [`Recorder`].
struct Recorded<'a, T: ?Sized> {
    value: &'a T,
    state: Shared,
    segment: Option<String>,
    tag: Option<TagAt>,
}

impl<T: Serialize + ?Sized> Serialize for Recorded<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(tag) = &self.tag {
            record(&self.state, tag.start, tag.role, tag.leaf.clone());
        }
        if let Some(segment) = &self.segment {
            self.state.borrow_mut().path.push(segment.clone());
        }
        let result = self.value.serialize(Recorder {
            inner: serializer,
            state: Rc::clone(&self.state),
        });
        if self.segment.is_some() {
            self.state.borrow_mut().path.pop();
        }
        result
    }
}

fn recorded<'a, T: ?Sized>(value: &'a T, state: &Shared, segment: String) -> Recorded<'a, T> {
    Recorded {
        value,
        state: Rc::clone(state),
        segment: Some(segment),
        tag: None,
    }
}

/// The format's serializer, watched.
struct Recorder<S> {
    inner: S,
    state: Shared,
}

/// A compound value's serializer, watched: each element gets its segment
/// of the path, `prefix` then its own.
struct Compound<C> {
    inner: C,
    state: Shared,
    prefix: String,
    index: usize,
}

impl<C> Compound<C> {
    fn new(inner: C, state: Shared, prefix: String) -> Self {
        Self {
            inner,
            state,
            prefix,
            index: 0,
        }
    }

    /// The next element's segment, `[i]` or `.i`.
    fn next(&mut self, bracket: bool) -> String {
        let segment = if bracket {
            format!("{}[{}]", self.prefix, self.index)
        } else {
            format!("{}.{}", self.prefix, self.index)
        };
        self.index = self.index.saturating_add(1);
        segment
    }
}

macro_rules! leaf {
    ($method:ident, $ty:ty, $role:expr, $leaf:expr) => {
        fn $method(self, v: $ty) -> Result<S::Ok, S::Error> {
            let start = position(&self.state);
            let result = self.inner.$method(v)?;
            record(&self.state, start, $role, $leaf(v));
            Ok(result)
        }
    };
}

impl<S: Serializer> Serializer for Recorder<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<S::SerializeSeq>;
    type SerializeTuple = Compound<S::SerializeTuple>;
    type SerializeTupleStruct = Compound<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<S::SerializeTupleVariant>;
    type SerializeMap = Compound<S::SerializeMap>;
    type SerializeStruct = Compound<S::SerializeStruct>;
    type SerializeStructVariant = Compound<S::SerializeStructVariant>;

    leaf!(serialize_bool, bool, Role::Bool, Leaf::Bool);
    leaf!(serialize_i8, i8, Role::Int("i8"), |v| Leaf::Signed(
        i128::from(v)
    ));
    leaf!(serialize_i16, i16, Role::Int("i16"), |v| Leaf::Signed(
        i128::from(v)
    ));
    leaf!(serialize_i32, i32, Role::Int("i32"), |v| Leaf::Signed(
        i128::from(v)
    ));
    leaf!(serialize_i64, i64, Role::Int("i64"), |v| Leaf::Signed(
        i128::from(v)
    ));
    leaf!(serialize_i128, i128, Role::Int("i128"), Leaf::Signed);
    leaf!(serialize_u8, u8, Role::Int("u8"), |v| Leaf::Unsigned(
        u128::from(v)
    ));
    leaf!(serialize_u16, u16, Role::Int("u16"), |v| Leaf::Unsigned(
        u128::from(v)
    ));
    leaf!(serialize_u32, u32, Role::Int("u32"), |v| Leaf::Unsigned(
        u128::from(v)
    ));
    leaf!(serialize_u64, u64, Role::Int("u64"), |v| Leaf::Unsigned(
        u128::from(v)
    ));
    leaf!(serialize_u128, u128, Role::Int("u128"), Leaf::Unsigned);
    leaf!(serialize_f32, f32, Role::Float("f32"), Leaf::F32);
    leaf!(serialize_f64, f64, Role::Float("f64"), Leaf::F64);
    leaf!(serialize_char, char, Role::Char, Leaf::Char);

    fn serialize_str(self, v: &str) -> Result<S::Ok, S::Error> {
        let start = position(&self.state);
        let result = self.inner.serialize_str(v)?;
        let end = position(&self.state);
        let text = end.saturating_sub(v.len()).max(start);
        let length = Leaf::Length(v.len());
        record_range(&self.state, start..text, Role::StrLength, length);
        record_range(
            &self.state,
            text..end,
            Role::StrBytes,
            Leaf::Text(v.to_string()),
        );
        Ok(result)
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<S::Ok, S::Error> {
        let start = position(&self.state);
        let result = self.inner.serialize_bytes(v)?;
        let end = position(&self.state);
        let raw = end.saturating_sub(v.len()).max(start);
        let length = Leaf::Length(v.len());
        record_range(&self.state, start..raw, Role::BytesLength, length);
        record_range(&self.state, raw..end, Role::Bytes, Leaf::Raw(v.to_vec()));
        Ok(result)
    }

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        let start = position(&self.state);
        let result = self.inner.serialize_none()?;
        record(&self.state, start, Role::OptionTag, Leaf::Present(false));
        Ok(result)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        let tag = TagAt {
            start: position(&self.state),
            role: Role::OptionTag,
            leaf: Leaf::Present(true),
        };
        self.inner.serialize_some(&Recorded {
            value,
            state: Rc::clone(&self.state),
            segment: None,
            tag: Some(tag),
        })
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit()
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit_struct(name)
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        let start = position(&self.state);
        let result = self.inner.serialize_unit_variant(name, index, variant)?;
        record(&self.state, start, Role::VariantTag(name), Leaf::Tag(index));
        Ok(result)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.inner.serialize_newtype_struct(
            name,
            &Recorded {
                value,
                state: Rc::clone(&self.state),
                segment: None,
                tag: None,
            },
        )
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        let tag = TagAt {
            start: position(&self.state),
            role: Role::VariantTag(name),
            leaf: Leaf::Tag(index),
        };
        self.inner.serialize_newtype_variant(
            name,
            index,
            variant,
            &Recorded {
                value,
                state: Rc::clone(&self.state),
                segment: Some(format!(".{variant}")),
                tag: Some(tag),
            },
        )
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        let start = position(&self.state);
        let inner = self.inner.serialize_seq(len)?;
        let length = Leaf::Length(len.unwrap_or(0));
        record(&self.state, start, Role::SeqLength, length);
        Ok(Compound::new(inner, self.state, String::new()))
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        let inner = self.inner.serialize_tuple(len)?;
        Ok(Compound::new(inner, self.state, String::new()))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        let inner = self.inner.serialize_tuple_struct(name, len)?;
        Ok(Compound::new(inner, self.state, String::new()))
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        let start = position(&self.state);
        let inner = self
            .inner
            .serialize_tuple_variant(name, index, variant, len)?;
        record(&self.state, start, Role::VariantTag(name), Leaf::Tag(index));
        Ok(Compound::new(inner, self.state, format!(".{variant}")))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        let start = position(&self.state);
        let inner = self.inner.serialize_map(len)?;
        let length = Leaf::Length(len.unwrap_or(0));
        record(&self.state, start, Role::MapLength, length);
        Ok(Compound::new(inner, self.state, String::new()))
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        let inner = self.inner.serialize_struct(name, len)?;
        Ok(Compound::new(inner, self.state, String::new()))
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        let start = position(&self.state);
        let inner = self
            .inner
            .serialize_struct_variant(name, index, variant, len)?;
        record(&self.state, start, Role::VariantTag(name), Leaf::Tag(index));
        Ok(Compound::new(inner, self.state, format!(".{variant}")))
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.serialize_str(&value.to_string())
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The compounds whose elements come one after another: a sequence's get
/// `[i]`, a tuple's `.i`.
macro_rules! elements {
    ($trait:ident, $method:ident, $bracket:expr) => {
        impl<C: $trait> $trait for Compound<C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
                let segment = self.next($bracket);
                self.inner.$method(&recorded(value, &self.state, segment))
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                self.inner.end()
            }
        }
    };
}

elements!(SerializeSeq, serialize_element, true);
elements!(SerializeTuple, serialize_element, false);
elements!(SerializeTupleStruct, serialize_field, false);
elements!(SerializeTupleVariant, serialize_field, false);

impl<C: SerializeMap> SerializeMap for Compound<C> {
    type Ok = C::Ok;
    type Error = C::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        let segment = format!("{}[{}].key", self.prefix, self.index);
        self.inner
            .serialize_key(&recorded(key, &self.state, segment))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        let segment = format!("{}[{}].value", self.prefix, self.index);
        self.index = self.index.saturating_add(1);
        self.inner
            .serialize_value(&recorded(value, &self.state, segment))
    }

    fn end(self) -> Result<C::Ok, C::Error> {
        self.inner.end()
    }
}

/// The compounds of named fields: each gets `.name`.
macro_rules! fields {
    ($trait:ident) => {
        impl<C: $trait> $trait for Compound<C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), C::Error> {
                let segment = format!("{}.{key}", self.prefix);
                self.inner
                    .serialize_field(key, &recorded(value, &self.state, segment))
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                self.inner.skip_field(key)
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                self.inner.end()
            }
        }
    };
}

fields!(SerializeStruct);
fields!(SerializeStructVariant);
