//! The decoded value as JSON, named as its types declare it: what
//! `decode --json` prints and the corpus's golden files hold.
//!
//! [`ValueRecorder`] wraps a reading stream and builds the value's shape
//! from the hooks the codec calls ([`codec::Stream::enter`],
//! [`codec::Stream::leave`], [`codec::Stream::assigned`]) and from each
//! typed operation that passes through it. A part of the value is a JSON
//! object keyed by the names inside it; a name met more than once (a list's
//! elements, a scene's slots, the three codes of a position) holds an array
//! in the order read. A part that holds nothing but values under one name
//! (a plain field, an array) is those values, under the part's name.
//!
//! Leaves: integers and bools as JSON numbers and bools (128-bit integers
//! beyond 64 bits as decimal strings), strings as strings, byte runs as hex,
//! and four shapes that keep the wire beside what a program sees:
//!
//! | leaf | JSON |
//! |---|---|
//! | `f32`, `f64` | `{"value": 1.5, "ieee754": "0x3FC00000"}` (`value` null when not finite) |
//! | compressed float | `{"value": 12.5, "wire": 12500}`: the dequantized float and its code |
//! | fixed point | `{"value": 2.25, "wire": 9}`: the real value and the stored integer |
//! | wide string | `{"value": "text", "utf16": [116, ...]}` |
//!
//! An absent optional value is `null`; a present one is the value. A value
//! the reader set without reading it is `{"assigned": value}`. The
//! packet target adds the type's name: `{"name": "A", "wire": 0}`.
//! Padding and serialize checks are not part of the value and do not
//! appear. [`crate::rebuild`] reads this JSON back into the value.

use codec::{CompressedFloat, Fixed, MeasureStream, Serialize, Stream};
use serde_json::{json, Map, Value};

/// One thing read inside a part of the value.
#[derive(Debug)]
enum Item {
    Leaf(&'static str, Value),
    Part(Part),
    Assigned(&'static str, Value),
}

impl Item {
    const fn name(&self) -> &'static str {
        match self {
            Self::Leaf(name, _) | Self::Assigned(name, _) => name,
            Self::Part(part) => part.name,
        }
    }

    fn render(self) -> Value {
        match self {
            Self::Leaf(_, value) => value,
            Self::Part(part) => part.render(),
            Self::Assigned(_, value) => json!({ "assigned": value }),
        }
    }
}

/// A part of the value opened by [`Stream::enter`].
#[derive(Debug, Default)]
struct Part {
    name: &'static str,
    /// The name its own values go by: the first field name given inside it
    /// before anything was read (a field renamed for reports), else its
    /// name.
    own: Option<&'static str>,
    items: Vec<Item>,
}

impl Part {
    /// The part as an object keyed by the names inside it, in the order
    /// first met; a name met more than once holds an array.
    fn render(self) -> Value {
        let mut grouped: Vec<(&'static str, Vec<Value>)> = Vec::new();
        for item in self.items {
            let name = item.name();
            let rendered = item.render();
            match grouped.iter_mut().find(|(n, _)| *n == name) {
                Some((_, values)) => values.push(rendered),
                None => grouped.push((name, vec![rendered])),
            }
        }
        let mut object = Map::new();
        for (name, mut values) in grouped {
            let value = if values.len() == 1 {
                values.pop().unwrap_or(Value::Null)
            } else {
                Value::Array(values)
            };
            object.insert(name.to_owned(), value);
        }
        Value::Object(object)
    }

    /// Whether the part holds only values under its own name (a plain
    /// field, an array), so that it is shown as those values, under its
    /// name, in its parent. A list holds its count besides: never plain.
    fn is_plain(&self) -> bool {
        let own = self.own.unwrap_or(self.name);
        !self.items.is_empty()
            && self
                .items
                .iter()
                .all(|item| matches!(item, Item::Leaf(name, _) if *name == own))
    }
}

/// A stream that does what its inner stream does and builds the value's
/// shape from what passes through it.
#[derive(Debug)]
pub struct ValueRecorder<S> {
    inner: S,
    name: &'static str,
    /// The role of the field named last, until its first leaf.
    role: codec::Role,
    /// The open parts, the whole value first.
    open: Vec<Part>,
}

impl<S: Stream> ValueRecorder<S> {
    /// Shows what passes through `inner`.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            name: "",
            role: codec::Role::Value,
            open: vec![Part::default()],
        }
    }

    /// The inner stream and the value read, as JSON. Parts a refusal left
    /// open are closed first.
    pub fn finish(mut self) -> (S, Value) {
        while self.open.len() > 1 {
            self.leave();
        }
        let whole = self.open.pop().unwrap_or_default();
        (self.inner, whole.render())
    }

    fn push(&mut self, item: Item) {
        if let Some(part) = self.open.last_mut() {
            part.items.push(item);
        }
    }

    fn leaf(&mut self, value: Value) {
        self.role = codec::Role::Value;
        self.push(Item::Leaf(self.name, value));
    }
}

/// A float with its IEEE-754 bits; `value` is null when not finite (JSON
/// has no NaN or infinity).
fn ieee754(shown: Value, bits: String) -> Value {
    json!({ "value": shown, "ieee754": bits })
}

/// An `f32` as the shortest decimal that reads back as it, or null when
/// not finite.
pub(crate) fn real32(value: f32) -> Value {
    format!("{value}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// An `f64`, or null when not finite.
pub(crate) fn real64(value: f64) -> Value {
    serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// A fixed-point value's real value, from its stored integer.
pub(crate) fn fixed_real(raw: i128, format: &Fixed) -> Value {
    real64(raw as f64 / f64::from(format.fraction_bits()).exp2())
}

/// A 128-bit integer: a JSON number when it fits 64 bits, else a string.
fn wide(value: i128) -> Value {
    if let Ok(small) = i64::try_from(value) {
        json!(small)
    } else if let Ok(unsigned) = u64::try_from(value) {
        json!(unsigned)
    } else {
        json!(value.to_string())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl<S: Stream> Stream for ValueRecorder<S> {
    const IS_READING: bool = S::IS_READING;
    const SHOWS_VALUES: bool = true;
    type Error = S::Error;

    fn bit_offset(&self) -> u64 {
        self.inner.bit_offset()
    }

    fn bits_remaining(&self) -> u64 {
        self.inner.bits_remaining()
    }

    fn refuse(&mut self, why: codec::DecodeError) -> S::Error {
        self.inner.refuse(why)
    }

    fn field_name(&mut self, name: &'static str) {
        self.name = name;
        self.role = codec::Role::Value;
        if let Some(part) = self.open.last_mut() {
            if part.items.is_empty() && part.own.is_none() {
                part.own = Some(name);
            }
        }
        self.inner.field_name(name);
    }

    fn field_role(&mut self, role: codec::Role) {
        self.role = role;
        self.inner.field_role(role);
    }

    fn enter(&mut self, name: &'static str) {
        self.name = name;
        self.open.push(Part {
            name,
            own: None,
            items: Vec::new(),
        });
    }

    fn leave(&mut self) {
        if self.open.len() < 2 {
            return;
        }
        let Some(part) = self.open.pop() else { return };
        self.name = part.name;
        if part.is_plain() {
            for item in part.items {
                if let Item::Leaf(_, value) = item {
                    self.push(Item::Leaf(part.name, value));
                }
            }
        } else {
            self.push(Item::Part(part));
        }
    }

    fn assigned<T: Serialize>(&mut self, name: &'static str, value: &mut T) {
        // Shown through a measure: the value's own serialize, without a bit
        // of the input.
        let mut shown = ValueRecorder::new(MeasureStream::new());
        shown.enter(name);
        shown.field_name(name);
        let shown_ok = value.serialize(&mut shown).is_ok();
        shown.leave();
        let (_, whole) = shown.finish();
        let value = match whole {
            Value::Object(mut object) if shown_ok => object.remove(name).unwrap_or(json!({})),
            _ => Value::Null,
        };
        self.push(Item::Assigned(name, value));
    }

    fn serialize_bits(&mut self, value: &mut u32, bits: u32) -> Result<(), S::Error> {
        self.inner.serialize_bits(value, bits)?;
        if bits > 0 {
            self.leaf(json!(*value));
        }
        Ok(())
    }

    fn serialize_align(&mut self) -> Result<(), S::Error> {
        self.inner.serialize_align()
    }

    fn serialize_bytes(&mut self, bytes: &mut [u8]) -> Result<(), S::Error> {
        self.inner.serialize_bytes(bytes)?;
        self.leaf(json!(hex(bytes)));
        Ok(())
    }

    fn serialize_str_payload(&mut self, value: &mut String, len: usize) -> Result<(), S::Error> {
        self.inner.serialize_str_payload(value, len)?;
        self.leaf(json!(value));
        Ok(())
    }

    fn serialize_bool(&mut self, value: &mut bool) -> Result<(), S::Error> {
        self.inner.serialize_bool(value)?;
        if self.role == codec::Role::Optional {
            // An optional value is itself, or null when absent: the flag is
            // what the JSON's null says.
            self.role = codec::Role::Value;
            if !*value {
                self.leaf(Value::Null);
            }
            return Ok(());
        }
        self.leaf(json!(*value));
        Ok(())
    }

    fn serialize_bits64(&mut self, value: &mut u64, bits: u32) -> Result<(), S::Error> {
        self.inner.serialize_bits64(value, bits)?;
        self.leaf(json!(*value));
        Ok(())
    }

    fn serialize_u128(&mut self, value: &mut u128) -> Result<(), S::Error> {
        self.inner.serialize_u128(value)?;
        let shown = u64::try_from(*value).map_or_else(|_| json!(value.to_string()), |v| json!(v));
        self.leaf(shown);
        Ok(())
    }

    fn serialize_int(&mut self, value: &mut i32, min: i32, max: i32) -> Result<(), S::Error> {
        self.inner.serialize_int(value, min, max)?;
        self.leaf(json!(*value));
        Ok(())
    }

    fn serialize_int64(&mut self, value: &mut i64, min: i64, max: i64) -> Result<(), S::Error> {
        self.inner.serialize_int64(value, min, max)?;
        self.leaf(json!(*value));
        Ok(())
    }

    fn serialize_int128(&mut self, value: &mut i128, min: i128, max: i128) -> Result<(), S::Error> {
        self.inner.serialize_int128(value, min, max)?;
        self.leaf(wide(*value));
        Ok(())
    }

    fn serialize_fixed(&mut self, raw: &mut i128, format: &Fixed) -> Result<(), S::Error> {
        self.inner.serialize_fixed(raw, format)?;
        self.leaf(json!({ "value": fixed_real(*raw, format), "wire": wide(*raw) }));
        Ok(())
    }

    fn serialize_float(&mut self, value: &mut f32) -> Result<(), S::Error> {
        self.inner.serialize_float(value)?;
        let bits = format!("0x{:08X}", value.to_bits());
        self.leaf(ieee754(real32(*value), bits));
        Ok(())
    }

    fn serialize_double(&mut self, value: &mut f64) -> Result<(), S::Error> {
        self.inner.serialize_double(value)?;
        let bits = format!("0x{:016X}", value.to_bits());
        self.leaf(ieee754(real64(*value), bits));
        Ok(())
    }

    fn serialize_compressed_code(
        &mut self,
        code: &mut u32,
        format: &CompressedFloat,
    ) -> Result<(), S::Error> {
        self.inner.serialize_compressed_code(code, format)?;
        let shown = real32(format.dequantize(*code));
        self.leaf(json!({ "value": shown, "wire": *code }));
        Ok(())
    }

    fn serialize_string(&mut self, value: &mut String, buffer_size: u32) -> Result<(), S::Error> {
        self.inner.serialize_string(value, buffer_size)?;
        self.leaf(json!(value));
        Ok(())
    }

    fn serialize_wstring(
        &mut self,
        units: &mut Vec<u16>,
        buffer_size: u32,
    ) -> Result<(), S::Error> {
        self.inner.serialize_wstring(units, buffer_size)?;
        let text = String::from_utf16_lossy(units);
        self.leaf(json!({ "value": text, "utf16": units }));
        Ok(())
    }

    fn serialize_int_relative(&mut self, previous: i32, current: &mut i32) -> Result<(), S::Error> {
        self.inner.serialize_int_relative(previous, current)?;
        self.leaf(json!(*current));
        Ok(())
    }

    fn serialize_int_relative_canonical(
        &mut self,
        previous: i32,
        current: &mut i32,
    ) -> Result<(), S::Error> {
        self.inner
            .serialize_int_relative_canonical(previous, current)?;
        self.leaf(json!(*current));
        Ok(())
    }

    fn serialize_check(&mut self, label: &'static str) -> Result<(), S::Error> {
        self.inner.serialize_check(label)
    }
}

/// The value for people: one line per leaf, indented by part, arrays of
/// leaves on one line (`decode` without `--json`).
#[must_use]
pub fn text(value: &Value) -> String {
    let mut out = String::new();
    write_text(&mut out, value, 0);
    out
}

/// A leaf on one line: a float as `1.5 (0x3FC00000)`, a compressed float
/// as `12.5 (code 12500)`, an assigned value as `= value (assigned)`.
fn leaf_text(value: &Value) -> String {
    match value {
        Value::Null => "absent".into(),
        Value::Object(o) if o.contains_key("ieee754") => {
            format!(
                "{} ({})",
                o["value"],
                o["ieee754"].as_str().unwrap_or_default()
            )
        }
        Value::Object(o) if o.contains_key("utf16") => o["value"].to_string(),
        Value::Object(o) if o.contains_key("name") && o.contains_key("wire") => {
            format!("{} ({})", o["name"].as_str().unwrap_or_default(), o["wire"])
        }
        Value::Object(o) if o.contains_key("wire") => {
            format!("{} (code {})", o["value"], o["wire"])
        }
        // A long run of flags (a scene A's 1024) as where they are set.
        Value::Array(items) if items.len() > 32 && items.iter().all(Value::is_boolean) => {
            let set: Vec<String> = (0..items.len())
                .filter(|&i| items.get(i) == Some(&Value::Bool(true)))
                .map(|i| i.to_string())
                .collect();
            format!("{} flags, set at [{}]", items.len(), set.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(leaf_text).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

fn is_leafy(value: &Value) -> bool {
    match value {
        Value::Object(o) => {
            o.contains_key("ieee754") || o.contains_key("wire") || o.contains_key("utf16")
        }
        Value::Array(items) => items.iter().all(is_leafy),
        _ => true,
    }
}

fn write_text(out: &mut String, value: &Value, depth: usize) {
    let indent = "  ".repeat(depth);
    let Value::Object(object) = value else {
        out.push_str(&format!("{indent}{}\n", leaf_text(value)));
        return;
    };
    for (name, item) in object {
        match item {
            Value::Object(o) if o.len() == 1 && o.contains_key("assigned") => {
                let shown = &o["assigned"];
                if is_leafy(shown) {
                    out.push_str(&format!(
                        "{indent}{name}: {} (assigned)\n",
                        leaf_text(shown)
                    ));
                } else {
                    out.push_str(&format!("{indent}{name}: (assigned)\n"));
                    write_text(out, shown, depth + 1);
                }
            }
            leaf if is_leafy(leaf) => {
                out.push_str(&format!("{indent}{name}: {}\n", leaf_text(leaf)));
            }
            Value::Array(parts) => {
                for (i, part) in parts.iter().enumerate() {
                    out.push_str(&format!("{indent}{name}[{i}]:\n"));
                    write_text(out, part, depth + 1);
                }
            }
            part => {
                out.push_str(&format!("{indent}{name}:\n"));
                write_text(out, part, depth + 1);
            }
        }
    }
}
