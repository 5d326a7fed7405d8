//! A value as the harness writes it: every map's entries in the order of
//! their keys, whatever order the map iterates in. A `HashMap` iterates in
//! an order its random hasher picks anew for every map, so its honest
//! encoding is not one sequence of bytes; the harness writes each message
//! through [`sorted()`], so that the same seed makes the same messages and
//! a value read back writes the very bytes it was written as.
//!
//! [`sorted()`] records the calls a value makes on a serializer (serde's
//! data model, names and variant indices included) into a [`Content`]
//! tree, sorting each map's entries by [`Content::order`] as it goes; the
//! tree then makes the same calls on the real serializer. The order is the
//! one `#[derive(Ord)]` and the standard keys have (numbers by value,
//! strings by bytes, enums by variant then payload, sequences and structs
//! field by field), so a `BTreeMap` keeps the order it iterates in.

use serde::ser::{
    self, Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant,
    SerializeTuple, SerializeTupleStruct, SerializeTupleVariant, Serializer,
};
use std::cmp::Ordering;
use std::fmt;

/// One value of serde's data model, as a serializer was asked to write it.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    /// A bool.
    Bool(bool),
    /// A signed integer and its width's name (`i32`).
    Signed(i128, Width),
    /// An unsigned integer and its width's name (`u16`).
    Unsigned(u128, Width),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A `char`.
    Char(char),
    /// A string.
    Str(String),
    /// A byte string.
    Bytes(Vec<u8>),
    /// An option's `None`.
    None,
    /// An option's `Some`.
    Some(Box<Content>),
    /// `()`.
    Unit,
    /// A unit struct.
    UnitStruct(&'static str),
    /// A unit variant: its enum, index and name.
    UnitVariant(&'static str, u32, &'static str),
    /// A newtype struct.
    NewtypeStruct(&'static str, Box<Content>),
    /// A newtype variant.
    NewtypeVariant(&'static str, u32, &'static str, Box<Content>),
    /// A sequence, and whether its length was given up front.
    Seq(Option<usize>, Vec<Content>),
    /// A tuple.
    Tuple(Vec<Content>),
    /// A tuple struct.
    TupleStruct(&'static str, Vec<Content>),
    /// A tuple variant.
    TupleVariant(&'static str, u32, &'static str, Vec<Content>),
    /// A map's entries, sorted by key, and whether its length was given.
    Map(Option<usize>, Vec<(Content, Content)>),
    /// A struct's fields (`None`: a field it skipped).
    Struct(&'static str, Vec<(&'static str, Option<Content>)>),
    /// A struct variant's fields.
    StructVariant(
        &'static str,
        u32,
        &'static str,
        Vec<(&'static str, Option<Content>)>,
    ),
}

/// The width of an integer, so that it is written as the type it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// 8 bits.
    W8,
    /// 16 bits.
    W16,
    /// 32 bits.
    W32,
    /// 64 bits.
    W64,
    /// 128 bits.
    W128,
}

/// `value` as a tree of serde calls, each map's entries in key order.
///
/// # Errors
///
/// The value's own serialization error (a writer that refuses its value),
/// in words.
pub fn sorted<T: Serialize + ?Sized>(value: &T) -> Result<Content, String> {
    value.serialize(Capture).map_err(|e| e.0)
}

/// A serialization error, in words.
#[derive(Debug)]
pub struct Failed(String);

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failed {}

impl ser::Error for Failed {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

impl Content {
    /// The order of two keys, as `#[derive(Ord)]` would give it.
    #[must_use]
    pub fn order(&self, other: &Self) -> Ordering {
        use Content as C;
        let many = |a: &[Self], b: &[Self]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| x.order(y))
                .find(|o| o.is_ne())
                .unwrap_or_else(|| a.len().cmp(&b.len()))
        };
        let fields = |a: &[(&str, Option<Self>)], b: &[(&str, Option<Self>)]| {
            let a: Vec<Self> = a.iter().filter_map(|(_, v)| v.clone()).collect();
            let b: Vec<Self> = b.iter().filter_map(|(_, v)| v.clone()).collect();
            many(&a, &b)
        };
        match (self, other) {
            (C::Bool(a), C::Bool(b)) => a.cmp(b),
            (C::Signed(a, _), C::Signed(b, _)) => a.cmp(b),
            (C::Unsigned(a, _), C::Unsigned(b, _)) => a.cmp(b),
            (C::F32(a), C::F32(b)) => a.total_cmp(b),
            (C::F64(a), C::F64(b)) => a.total_cmp(b),
            (C::Char(a), C::Char(b)) => a.cmp(b),
            (C::Str(a), C::Str(b)) => a.cmp(b),
            (C::Bytes(a), C::Bytes(b)) => a.cmp(b),
            (C::Some(a), C::Some(b)) | (C::NewtypeStruct(_, a), C::NewtypeStruct(_, b)) => {
                a.order(b)
            }
            (C::Seq(_, a), C::Seq(_, b))
            | (C::Tuple(a), C::Tuple(b))
            | (C::TupleStruct(_, a), C::TupleStruct(_, b)) => many(a, b),
            (C::Map(_, a), C::Map(_, b)) => {
                let flat = |m: &[(Self, Self)]| -> Vec<Self> {
                    m.iter().flat_map(|(k, v)| [k.clone(), v.clone()]).collect()
                };
                many(&flat(a), &flat(b))
            }
            (C::Struct(_, a), C::Struct(_, b)) => fields(a, b),
            _ => match (self.variant(), other.variant()) {
                (Some(a), Some(b)) if a != b => a.cmp(&b),
                (Some(_), Some(_)) => match (self, other) {
                    (C::NewtypeVariant(.., a), C::NewtypeVariant(.., b)) => a.order(b),
                    (C::TupleVariant(.., a), C::TupleVariant(.., b)) => many(a, b),
                    (C::StructVariant(.., a), C::StructVariant(.., b)) => fields(a, b),
                    _ => Ordering::Equal,
                },
                _ => self.rank().cmp(&other.rank()),
            },
        }
    }

    /// A variant's index, for the variants.
    const fn variant(&self) -> Option<u32> {
        match self {
            Self::UnitVariant(_, i, _)
            | Self::NewtypeVariant(_, i, _, _)
            | Self::TupleVariant(_, i, _, _)
            | Self::StructVariant(_, i, _, _) => Some(*i),
            _ => None,
        }
    }

    /// Where a kind stands among kinds that differ (`None` before `Some`).
    const fn rank(&self) -> u8 {
        match self {
            Self::None => 0,
            Self::Some(_) => 1,
            _ => 2,
        }
    }
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use Content as C;
        match self {
            C::Bool(v) => s.serialize_bool(*v),
            C::Signed(v, width) => signed(s, *v, *width),
            C::Unsigned(v, width) => unsigned(s, *v, *width),
            C::F32(v) => s.serialize_f32(*v),
            C::F64(v) => s.serialize_f64(*v),
            C::Char(v) => s.serialize_char(*v),
            C::Str(v) => s.serialize_str(v),
            C::Bytes(v) => s.serialize_bytes(v),
            C::None => s.serialize_none(),
            C::Some(v) => s.serialize_some(&**v),
            C::Unit => s.serialize_unit(),
            C::UnitStruct(name) => s.serialize_unit_struct(name),
            C::UnitVariant(name, index, variant) => s.serialize_unit_variant(name, *index, variant),
            C::NewtypeStruct(name, v) => s.serialize_newtype_struct(name, &**v),
            C::NewtypeVariant(name, index, variant, v) => {
                s.serialize_newtype_variant(name, *index, variant, &**v)
            }
            C::Seq(len, items) => {
                let mut seq = s.serialize_seq(*len)?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            C::Tuple(items) => {
                let mut tuple = s.serialize_tuple(items.len())?;
                for item in items {
                    tuple.serialize_element(item)?;
                }
                tuple.end()
            }
            C::TupleStruct(name, items) => {
                let mut tuple = s.serialize_tuple_struct(name, items.len())?;
                for item in items {
                    tuple.serialize_field(item)?;
                }
                tuple.end()
            }
            C::TupleVariant(name, index, variant, items) => {
                let mut tuple = s.serialize_tuple_variant(name, *index, variant, items.len())?;
                for item in items {
                    tuple.serialize_field(item)?;
                }
                tuple.end()
            }
            C::Map(len, entries) => {
                let mut map = s.serialize_map(*len)?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
            C::Struct(name, fields) => {
                let mut out = s.serialize_struct(name, fields.len())?;
                for (key, value) in fields {
                    match value {
                        Some(value) => out.serialize_field(key, value)?,
                        None => out.skip_field(key)?,
                    }
                }
                out.end()
            }
            C::StructVariant(name, index, variant, fields) => {
                let mut out = s.serialize_struct_variant(name, *index, variant, fields.len())?;
                for (key, value) in fields {
                    match value {
                        Some(value) => out.serialize_field(key, value)?,
                        None => out.skip_field(key)?,
                    }
                }
                out.end()
            }
        }
    }
}

/// A signed integer written at its own width (it fits: it was captured
/// from that width).
fn signed<S: Serializer>(s: S, v: i128, width: Width) -> Result<S::Ok, S::Error> {
    use serde::ser::Error as _;
    let wrong = || S::Error::custom("a captured integer no longer fits its width");
    match width {
        Width::W8 => s.serialize_i8(i8::try_from(v).map_err(|_| wrong())?),
        Width::W16 => s.serialize_i16(i16::try_from(v).map_err(|_| wrong())?),
        Width::W32 => s.serialize_i32(i32::try_from(v).map_err(|_| wrong())?),
        Width::W64 => s.serialize_i64(i64::try_from(v).map_err(|_| wrong())?),
        Width::W128 => s.serialize_i128(v),
    }
}

/// An unsigned integer written at its own width.
fn unsigned<S: Serializer>(s: S, v: u128, width: Width) -> Result<S::Ok, S::Error> {
    use serde::ser::Error as _;
    let wrong = || S::Error::custom("a captured integer no longer fits its width");
    match width {
        Width::W8 => s.serialize_u8(u8::try_from(v).map_err(|_| wrong())?),
        Width::W16 => s.serialize_u16(u16::try_from(v).map_err(|_| wrong())?),
        Width::W32 => s.serialize_u32(u32::try_from(v).map_err(|_| wrong())?),
        Width::W64 => s.serialize_u64(u64::try_from(v).map_err(|_| wrong())?),
        Width::W128 => s.serialize_u128(v),
    }
}

/// The serializer that records: every call becomes a [`Content`].
struct Capture;

/// A compound being recorded: its items so far, and how it closes.
pub struct Items {
    items: Vec<Content>,
    close: Close,
}

/// A map or a struct being recorded.
pub struct Entries {
    len: Option<usize>,
    entries: Vec<(Content, Content)>,
    key: Option<Content>,
}

/// A struct or a struct variant being recorded.
pub struct Fields {
    fields: Vec<(&'static str, Option<Content>)>,
    variant: Option<(&'static str, u32, &'static str)>,
    name: &'static str,
}

/// What a sequence-like compound becomes.
enum Close {
    Seq(Option<usize>),
    Tuple,
    TupleStruct(&'static str),
    TupleVariant(&'static str, u32, &'static str),
}

macro_rules! captured {
    ($method:ident, $ty:ty, |$v:ident| $content:expr) => {
        fn $method(self, $v: $ty) -> Result<Content, Failed> {
            Ok($content)
        }
    };
}

impl Serializer for Capture {
    type Ok = Content;
    type Error = Failed;
    type SerializeSeq = Items;
    type SerializeTuple = Items;
    type SerializeTupleStruct = Items;
    type SerializeTupleVariant = Items;
    type SerializeMap = Entries;
    type SerializeStruct = Fields;
    type SerializeStructVariant = Fields;

    captured!(serialize_bool, bool, |v| Content::Bool(v));
    captured!(serialize_i8, i8, |v| Content::Signed(v.into(), Width::W8));
    captured!(serialize_i16, i16, |v| Content::Signed(
        v.into(),
        Width::W16
    ));
    captured!(serialize_i32, i32, |v| Content::Signed(
        v.into(),
        Width::W32
    ));
    captured!(serialize_i64, i64, |v| Content::Signed(
        v.into(),
        Width::W64
    ));
    captured!(serialize_i128, i128, |v| Content::Signed(v, Width::W128));
    captured!(serialize_u8, u8, |v| Content::Unsigned(v.into(), Width::W8));
    captured!(serialize_u16, u16, |v| Content::Unsigned(
        v.into(),
        Width::W16
    ));
    captured!(serialize_u32, u32, |v| Content::Unsigned(
        v.into(),
        Width::W32
    ));
    captured!(serialize_u64, u64, |v| Content::Unsigned(
        v.into(),
        Width::W64
    ));
    captured!(serialize_u128, u128, |v| Content::Unsigned(v, Width::W128));
    captured!(serialize_f32, f32, |v| Content::F32(v));
    captured!(serialize_f64, f64, |v| Content::F64(v));
    captured!(serialize_char, char, |v| Content::Char(v));
    captured!(serialize_str, &str, |v| Content::Str(v.to_string()));
    captured!(serialize_bytes, &[u8], |v| Content::Bytes(v.to_vec()));

    fn serialize_none(self) -> Result<Content, Failed> {
        Ok(Content::None)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Content, Failed> {
        Ok(Content::Some(Box::new(value.serialize(Self)?)))
    }

    fn serialize_unit(self) -> Result<Content, Failed> {
        Ok(Content::Unit)
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<Content, Failed> {
        Ok(Content::UnitStruct(name))
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<Content, Failed> {
        Ok(Content::UnitVariant(name, index, variant))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Content, Failed> {
        Ok(Content::NewtypeStruct(
            name,
            Box::new(value.serialize(Self)?),
        ))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Content, Failed> {
        let inner = Box::new(value.serialize(Self)?);
        Ok(Content::NewtypeVariant(name, index, variant, inner))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Items, Failed> {
        Ok(Items::new(Close::Seq(len)))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Items, Failed> {
        Ok(Items::new(Close::Tuple))
    }

    fn serialize_tuple_struct(self, name: &'static str, _len: usize) -> Result<Items, Failed> {
        Ok(Items::new(Close::TupleStruct(name)))
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Items, Failed> {
        Ok(Items::new(Close::TupleVariant(name, index, variant)))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Entries, Failed> {
        Ok(Entries {
            len,
            entries: Vec::new(),
            key: None,
        })
    }

    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Fields, Failed> {
        Ok(Fields {
            fields: Vec::new(),
            variant: None,
            name,
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Fields, Failed> {
        Ok(Fields {
            fields: Vec::new(),
            variant: Some((name, index, variant)),
            name,
        })
    }

    fn is_human_readable(&self) -> bool {
        // The formats written through this are binary ones.
        false
    }
}

impl Items {
    const fn new(close: Close) -> Self {
        Self {
            items: Vec::new(),
            close,
        }
    }

    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
        self.items.push(value.serialize(Capture)?);
        Ok(())
    }

    fn close(self) -> Content {
        match self.close {
            Close::Seq(len) => Content::Seq(len, self.items),
            Close::Tuple => Content::Tuple(self.items),
            Close::TupleStruct(name) => Content::TupleStruct(name, self.items),
            Close::TupleVariant(name, index, variant) => {
                Content::TupleVariant(name, index, variant, self.items)
            }
        }
    }
}

macro_rules! items {
    ($trait:ident, $method:ident) => {
        impl $trait for Items {
            type Ok = Content;
            type Error = Failed;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
                self.push(value)
            }

            fn end(self) -> Result<Content, Failed> {
                Ok(self.close())
            }
        }
    };
}

items!(SerializeSeq, serialize_element);
items!(SerializeTuple, serialize_element);
items!(SerializeTupleStruct, serialize_field);
items!(SerializeTupleVariant, serialize_field);

impl SerializeMap for Entries {
    type Ok = Content;
    type Error = Failed;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Failed> {
        self.key = Some(key.serialize(Capture)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Failed("a map's value came before its key".into()))?;
        self.entries.push((key, value.serialize(Capture)?));
        Ok(())
    }

    fn end(mut self) -> Result<Content, Failed> {
        // Stable: keys that compare equal (none, in a real map) keep their order.
        self.entries.sort_by(|a, b| a.0.order(&b.0));
        Ok(Content::Map(self.len, self.entries))
    }
}

impl Fields {
    fn push<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Failed> {
        self.fields.push((key, Some(value.serialize(Capture)?)));
        Ok(())
    }

    fn close(self) -> Content {
        match self.variant {
            Some((name, index, variant)) => {
                Content::StructVariant(name, index, variant, self.fields)
            }
            None => Content::Struct(self.name, self.fields),
        }
    }
}

macro_rules! fields {
    ($trait:ident) => {
        impl $trait for Fields {
            type Ok = Content;
            type Error = Failed;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Failed> {
                self.push(key, value)
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), Failed> {
                self.fields.push((key, None));
                Ok(())
            }

            fn end(self) -> Result<Content, Failed> {
                Ok(self.close())
            }
        }
    };
}

fields!(SerializeStruct);
fields!(SerializeStructVariant);
