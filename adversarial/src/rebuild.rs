//! The value back from its JSON: a reading stream that answers every
//! operation from the document [`crate::value`] prints, so that a type's own
//! `serialize` rebuilds the value a `decode --json` document describes, and
//! the codec's writer encodes it again. The walk is led by the names: each
//! operation takes the next value under the name it is read by, so the
//! document's key order does not matter, only the order of each array.

use crate::digest::unhex;
use codec::{CompressedFloat, DecodeError, Fixed, Serialize, Stream};
use serde_json::Value;
use std::collections::HashMap;

/// Why a document does not describe a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The name the value was wanted under.
    pub field: &'static str,
    /// What was wrong with it.
    pub why: &'static str,
    /// The rule of the format the value broke, when that was it.
    pub rule: Option<DecodeError>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.rule {
            Some(rule) => write!(f, "field {:?}: {}: {rule}", self.field, self.why),
            None => write!(f, "field {:?}: {}", self.field, self.why),
        }
    }
}

/// An open part of the value.
#[derive(Debug)]
enum Frame<'a> {
    /// A part shown as an object: each name's next value is taken in turn.
    Object {
        /// The name it was entered under.
        name: &'static str,
        object: &'a serde_json::Map<String, Value>,
        taken: HashMap<&'static str, usize>,
    },
    /// A part shown as values under its name in its parent: its values are
    /// taken from the parent, under the outermost such part's name.
    Through(&'static str),
}

/// A reading stream over a `decode --json` value.
#[derive(Debug)]
pub struct Rebuild<'a> {
    name: &'static str,
    /// The role of the field named last, until its first leaf.
    role: codec::Role,
    open: Vec<Frame<'a>>,
    broken: Option<Mismatch>,
    /// The leaf taken last, for [`Rebuild::agrees`].
    last: Option<&'a Value>,
}

/// The keys that keep the wire beside a value.
const WIRE_KEYS: [&str; 3] = ["wire", "ieee754", "utf16"];

/// Whether `value` is a leaf: not an object, or one of the leaf shapes of
/// [`crate::value`], possibly with its wire or its value left out.
fn is_leaf(value: &Value) -> bool {
    match value {
        Value::Object(object) => {
            let known = object
                .keys()
                .all(|k| k == "value" || k == "name" || WIRE_KEYS.contains(&k.as_str()));
            let wire = WIRE_KEYS.iter().any(|k| object.contains_key(*k));
            known && (1..=2).contains(&object.len()) && (wire || object.contains_key("value"))
        }
        _ => true,
    }
}

/// A leaf's value, when it is given alone (no wire beside it): the writer
/// encodes it, as a program's own value would be.
fn value_alone(leaf: &Value) -> Option<&Value> {
    match leaf {
        Value::Object(object) if object.len() == 1 => object.get("value"),
        _ => None,
    }
}

fn is_assigned(value: &Value) -> bool {
    matches!(value, Value::Object(o) if o.len() == 1 && o.contains_key("assigned"))
}

/// A leaf's wire integer: the number itself, or its `wire`.
fn wire(value: &Value) -> Option<&Value> {
    match value {
        Value::Object(object) => object.get("wire"),
        other => Some(other),
    }
}

fn as_i128(value: &Value) -> Option<i128> {
    match value {
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from)),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn ieee754_bits(value: &Value) -> Option<u64> {
    let text = value.get("ieee754")?.as_str()?;
    u64::from_str_radix(text.strip_prefix("0x")?, 16).ok()
}

impl<'a> Rebuild<'a> {
    /// Walks `value`, the `value` of a `decode --json` document.
    #[must_use]
    pub fn new(value: &'a Value) -> Self {
        let open = match value {
            Value::Object(object) => vec![Frame::Object {
                name: "",
                object,
                taken: HashMap::new(),
            }],
            _ => Vec::new(),
        };
        Self {
            name: "",
            role: codec::Role::Value,
            open,
            broken: None,
            last: None,
        }
    }

    fn fail(&mut self, why: &'static str) -> Mismatch {
        let mismatch = Mismatch {
            field: self.name,
            why,
            rule: None,
        };
        *self.broken.get_or_insert(mismatch)
    }

    /// The error of a stream already broken, if it is.
    const fn still(&self) -> Result<(), Mismatch> {
        match self.broken {
            Some(broken) => Err(broken),
            None => Ok(()),
        }
    }

    /// Whether the last leaf's `"value"`, when it shows one beside its wire
    /// (`"wire"`, `"ieee754"`, `"utf16"`), is `shown`: what the wire holds,
    /// as [`crate::value`] prints it. The wire is what is sent, so an edit
    /// to the value alone would be lost without a word.
    fn agrees(&mut self, shown: &Value) -> Result<(), Mismatch> {
        let Some(Value::Object(leaf)) = self.last else {
            return Ok(());
        };
        let Some(given) = leaf.get("value") else {
            return Ok(());
        };
        let same = match (given.as_f64(), shown.as_f64()) {
            (Some(a), Some(b)) => a == b,
            _ => given == shown,
        };
        if same {
            return Ok(());
        }
        let why = if leaf.contains_key("ieee754") {
            "its \"value\" is not what its \"ieee754\" bits hold; the bits are what is sent: \
             edit \"ieee754\", or give \"value\" alone and it is encoded"
        } else if leaf.contains_key("utf16") {
            "its \"value\" is not what its \"utf16\" units spell; the units are what is sent: \
             edit \"utf16\", or give \"value\" alone and it is encoded"
        } else {
            "its \"value\" is not what its \"wire\" integer holds; the wire is what is sent: \
             edit \"wire\", or give \"value\" alone and it is encoded"
        };
        Err(self.fail(why))
    }

    /// The next value under `name` in the innermost object; with `take`,
    /// it counts as taken.
    fn next(&mut self, name: &'static str, take: bool) -> Option<&'a Value> {
        let frame = self
            .open
            .iter_mut()
            .rev()
            .find(|f| matches!(f, Frame::Object { .. }))?;
        let Frame::Object { object, taken, .. } = frame else {
            return None;
        };
        let object: &'a serde_json::Map<String, Value> = object;
        let count = taken.entry(name).or_insert(0);
        let found = match object.get(name)? {
            Value::Array(values) => values.get(*count),
            single if *count == 0 => Some(single),
            _ => None,
        };
        if take && found.is_some() {
            *count += 1;
        }
        found
    }

    /// The name the next leaf is shown under: the outermost plain part's
    /// inside the innermost object, else the field's own.
    fn leaf_name(&self) -> &'static str {
        let inside = self
            .open
            .iter()
            .rposition(|f| matches!(f, Frame::Object { .. }))
            .map_or(0, |i| i + 1);
        match self.open.get(inside) {
            Some(Frame::Through(name)) => name,
            _ => self.name,
        }
    }

    /// The next leaf under the current name, not taken.
    fn peek_leaf(&mut self) -> Option<&'a Value> {
        self.next(self.leaf_name(), false).filter(|v| is_leaf(v))
    }

    /// The next leaf under the current name.
    fn leaf(&mut self) -> Result<&'a Value, Mismatch> {
        self.still()?;
        self.role = codec::Role::Value;
        self.last = None;
        match self.next(self.leaf_name(), true) {
            Some(value) if is_leaf(value) => {
                self.last = Some(value);
                Ok(value)
            }
            Some(_) => Err(self.fail("expected a value, found an object")),
            None => Err(self.fail("missing")),
        }
    }

    fn integer_of(&mut self, leaf: &Value) -> Result<i128, Mismatch> {
        match wire(leaf).and_then(as_i128) {
            Some(v) => Ok(v),
            None if leaf.is_boolean() => Ok(i128::from(leaf.as_bool() == Some(true))),
            None => Err(self.fail("expected an integer")),
        }
    }

    fn in_range<T: TryFrom<i128>>(&mut self, min: i128, max: i128) -> Result<T, Mismatch> {
        let leaf = self.leaf()?;
        self.in_range_of(leaf, min, max)
    }

    fn in_range_of<T: TryFrom<i128>>(
        &mut self,
        leaf: &Value,
        min: i128,
        max: i128,
    ) -> Result<T, Mismatch> {
        let value = self.integer_of(leaf)?;
        if !(min..=max).contains(&value) {
            return Err(self.fail("out of its declared range"));
        }
        T::try_from(value).map_err(|_| self.fail("too wide for its type"))
    }

    /// A float given as its value alone: finite, as JSON numbers are.
    fn real_alone(&mut self, value: &Value) -> Result<f64, Mismatch> {
        value.as_f64().ok_or_else(|| {
            self.fail("expected a number (a value that is not finite needs its wire)")
        })
    }

    fn float_bits(&mut self) -> Result<u64, Mismatch> {
        let leaf = self.leaf()?;
        ieee754_bits(leaf).ok_or_else(|| self.fail("expected {\"value\", \"ieee754\"}"))
    }
}

impl Stream for Rebuild<'_> {
    const IS_READING: bool = true;
    type Error = Mismatch;

    fn bit_offset(&self) -> u64 {
        0
    }

    fn bits_remaining(&self) -> u64 {
        u64::MAX
    }

    fn refuse(&mut self, why: DecodeError) -> Mismatch {
        let mismatch = Mismatch {
            field: self.name,
            why: "the value breaks a rule of the format",
            rule: Some(why),
        };
        *self.broken.get_or_insert(mismatch)
    }

    fn field_name(&mut self, name: &'static str) {
        self.name = name;
        self.role = codec::Role::Value;
    }

    fn field_role(&mut self, role: codec::Role) {
        self.role = role;
    }

    fn enter(&mut self, name: &'static str) {
        self.name = name;
        let through = matches!(self.open.last(), Some(Frame::Through(_)));
        let frame = match self.next(name, false) {
            Some(found @ Value::Object(object)) if !through && !is_leaf(found) => {
                self.next(name, true);
                Frame::Object {
                    name,
                    object,
                    taken: HashMap::new(),
                }
            }
            _ => Frame::Through(name),
        };
        self.open.push(frame);
    }

    fn leave(&mut self) {
        self.open.pop();
    }

    fn assigned<T: Serialize>(&mut self, name: &'static str, _value: &mut T) {
        // Shown for people; the reader sets it again itself.
        if self.next(name, false).is_some_and(is_assigned) {
            self.next(name, true);
        }
    }

    fn serialize_bits(&mut self, value: &mut u32, bits: u32) -> Result<(), Mismatch> {
        if bits == 0 {
            return self.still();
        }
        let max = (1u64 << bits) - 1;
        *value = self.in_range(0, i128::from(max))?;
        Ok(())
    }

    fn serialize_align(&mut self) -> Result<(), Mismatch> {
        self.still()
    }

    fn serialize_bytes(&mut self, bytes: &mut [u8]) -> Result<(), Mismatch> {
        let leaf = self.leaf()?;
        match leaf.as_str().and_then(unhex) {
            Some(read) if read.len() == bytes.len() => {
                bytes.copy_from_slice(&read);
                Ok(())
            }
            _ => Err(self.fail("expected hex of the declared length")),
        }
    }

    fn serialize_str_payload(&mut self, value: &mut String, len: usize) -> Result<(), Mismatch> {
        let leaf = self.leaf()?;
        match leaf.as_str() {
            Some(text) if text.len() == len => {
                text.clone_into(value);
                Ok(())
            }
            _ => Err(self.fail("expected a string of the declared length")),
        }
    }

    fn serialize_bool(&mut self, value: &mut bool) -> Result<(), Mismatch> {
        if std::mem::take(&mut self.role) == codec::Role::Optional {
            // Present unless null; a present value is left for its own read.
            self.still()?;
            let entered = matches!(
                self.open.last(),
                Some(Frame::Object { name, taken, .. }) if *name == self.name && taken.is_empty()
            );
            *value = match self.next(self.leaf_name(), false) {
                // The flag of a part just entered: the part is the value.
                None if entered => true,
                None => return Err(self.fail("missing (null when absent)")),
                Some(Value::Null) => {
                    self.next(self.leaf_name(), true);
                    false
                }
                Some(_) => true,
            };
            return Ok(());
        }
        let leaf = self.leaf()?;
        *value = leaf.as_bool().ok_or_else(|| self.fail("expected a bool"))?;
        Ok(())
    }

    fn serialize_bits64(&mut self, value: &mut u64, bits: u32) -> Result<(), Mismatch> {
        let max = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        *value = self.in_range(0, i128::from(max))?;
        Ok(())
    }

    fn serialize_u128(&mut self, value: &mut u128) -> Result<(), Mismatch> {
        let leaf = self.leaf()?;
        let parsed = match wire(leaf) {
            Some(Value::String(s)) => s.parse().ok(),
            Some(Value::Number(n)) => n.as_u64().map(u128::from),
            _ => None,
        };
        *value = parsed.ok_or_else(|| self.fail("expected an unsigned integer"))?;
        Ok(())
    }

    fn serialize_int(&mut self, value: &mut i32, min: i32, max: i32) -> Result<(), Mismatch> {
        *value = self.in_range(i128::from(min), i128::from(max))?;
        Ok(())
    }

    fn serialize_int64(&mut self, value: &mut i64, min: i64, max: i64) -> Result<(), Mismatch> {
        *value = self.in_range(i128::from(min), i128::from(max))?;
        Ok(())
    }

    fn serialize_int128(&mut self, value: &mut i128, min: i128, max: i128) -> Result<(), Mismatch> {
        *value = self.in_range(min, max)?;
        Ok(())
    }

    fn serialize_fixed(&mut self, raw: &mut i128, format: &Fixed) -> Result<(), Mismatch> {
        let leaf = self.leaf()?;
        if let Some(value) = value_alone(leaf) {
            let scaled = self.real_alone(value)? * f64::from(format.fraction_bits()).exp2();
            let (min, max) = (format.raw_min() as f64, format.raw_max() as f64);
            if scaled.fract() != 0.0 {
                return Err(self.fail("not a whole number of its steps"));
            }
            if !(min..=max).contains(&scaled) {
                return Err(self.fail("out of its declared range"));
            }
            *raw = scaled as i128;
            return Ok(());
        }
        *raw = self.in_range_of(leaf, format.raw_min(), format.raw_max())?;
        self.agrees(&crate::value::fixed_real(*raw, format))
    }

    fn serialize_float(&mut self, value: &mut f32) -> Result<(), Mismatch> {
        if let Some(alone) = self.peek_leaf().and_then(value_alone) {
            self.leaf()?;
            *value = self.real_alone(alone)? as f32;
            return Ok(());
        }
        let bits = self.float_bits()?;
        let bits = u32::try_from(bits).map_err(|_| self.fail("more than 32 bits"))?;
        *value = f32::from_bits(bits);
        self.agrees(&crate::value::real32(*value))
    }

    fn serialize_double(&mut self, value: &mut f64) -> Result<(), Mismatch> {
        if let Some(alone) = self.peek_leaf().and_then(value_alone) {
            self.leaf()?;
            *value = self.real_alone(alone)?;
            return Ok(());
        }
        *value = f64::from_bits(self.float_bits()?);
        self.agrees(&crate::value::real64(*value))
    }

    fn serialize_compressed_code(
        &mut self,
        code: &mut u32,
        format: &CompressedFloat,
    ) -> Result<(), Mismatch> {
        let leaf = self.leaf()?;
        if let Some(value) = value_alone(leaf) {
            let real = self.real_alone(value)? as f32;
            let (min, max) = (
                format.dequantize(0),
                format.dequantize(format.max_integer_value()),
            );
            if !(min..=max).contains(&real) {
                return Err(self.fail("out of its declared range"));
            }
            *code = format.quantize(real);
            return Ok(());
        }
        *code = self.in_range_of(leaf, 0, i128::from(format.max_integer_value()))?;
        self.agrees(&crate::value::real32(format.dequantize(*code)))
    }

    fn serialize_string(&mut self, value: &mut String, buffer_size: u32) -> Result<(), Mismatch> {
        let leaf = self.leaf()?;
        let max = buffer_size.saturating_sub(1) as usize;
        match leaf.as_str() {
            Some(text) if text.len() <= max => {
                text.clone_into(value);
                Ok(())
            }
            _ => Err(self.fail("expected a string within its maximum")),
        }
    }

    fn serialize_wstring(
        &mut self,
        units: &mut Vec<u16>,
        buffer_size: u32,
    ) -> Result<(), Mismatch> {
        let leaf = self.leaf()?;
        let max = buffer_size.saturating_sub(1) as usize;
        if let Some(text) = value_alone(leaf).and_then(Value::as_str) {
            let read: Vec<u16> = text.encode_utf16().collect();
            if read.len() > max {
                return Err(self.fail("longer than its maximum"));
            }
            *units = read;
            return Ok(());
        }
        let read: Option<Vec<u16>> = leaf.get("utf16").and_then(Value::as_array).and_then(|a| {
            a.iter()
                .map(|u| u.as_u64().and_then(|u| u16::try_from(u).ok()))
                .collect()
        });
        match read {
            Some(read) if read.len() <= max => {
                let text = String::from_utf16_lossy(&read);
                *units = read;
                self.agrees(&Value::String(text))
            }
            _ => Err(self.fail("expected {\"value\", \"utf16\"} within its maximum")),
        }
    }

    fn serialize_int_relative(&mut self, previous: i32, current: &mut i32) -> Result<(), Mismatch> {
        *current = self.in_range(i128::from(previous) + 1, i128::from(i32::MAX))?;
        Ok(())
    }

    fn serialize_int_relative_canonical(
        &mut self,
        previous: i32,
        current: &mut i32,
    ) -> Result<(), Mismatch> {
        self.serialize_int_relative(previous, current)
    }

    fn serialize_check(&mut self, _label: &'static str) -> Result<(), Mismatch> {
        self.still()
    }
}

/// Rebuilds a value of `T` with `read`, a function that reads it from a
/// stream (its `serialize`, or a packet's framing around it), from `value`.
pub fn value<T>(
    value: &Value,
    read: impl FnOnce(&mut Rebuild<'_>) -> Result<T, Mismatch>,
) -> Result<T, String> {
    let mut stream = Rebuild::new(value);
    read(&mut stream).map_err(|m| m.to_string())
}
