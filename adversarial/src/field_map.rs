//! Field maps: where every field of a packet lies.
//!
//! [`RecordingStream`] wraps any codec stream and notes each primitive that
//! passes through it: bit offset, width, the name the codec gave it
//! ([`codec::Stream::field_name`]), its role in the protocol (count, index,
//! version, ...: [`codec::Stream::field_role`]), its kind (ranged integer
//! with its span, padding, check with its label, ...) and its value. Written through a
//! writer, the map tells the mutation classes where to lie; read through a
//! reader, it is what `adversarial inspect` prints, up to the failing field.

use codec::ops;
use codec::{CompressedFloat, DecodeError, Fixed, Role, Stream};

/// What a field is, as far as the rules that a reader enforces go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Raw bits with no rule of their own (CRC, type, flags, codes).
    Bits,
    /// A bool.
    Bool,
    /// A ranged integer sent as an offset in `[0, span]` above `min`.
    Ranged {
        /// The range's minimum, which offset 0 stands for.
        min: i64,
        /// The largest offset the range allows.
        span: u32,
    },
    /// A compressed float's code in `[0, max_code]`.
    Compressed {
        /// The float's declaration: range, resolution, code width.
        format: CompressedFloat,
    },
    /// A 32-bit IEEE float.
    Float,
    /// One 32-bit group of a 64-bit IEEE float (low group first).
    Double,
    /// One 32-bit group of a wider integer.
    Wide,
    /// The most significant (or only) group of a ranged integer that
    /// travels in 32-bit groups (64- and 128-bit ranges, fixed point), when
    /// some values of its width lie above the range: a value above `max`
    /// here puts the whole offset out of range, which a reader refuses at
    /// `from`, the integer's first bit.
    WideTop {
        /// The largest value this group may hold.
        max: u32,
        /// The bit offset of the integer's first group.
        from: u64,
    },
    /// Alignment padding, which must be zero.
    Padding,
    /// A serialize check of `label`.
    Check {
        /// The label whose hash the check carries.
        label: &'static str,
    },
    /// Raw aligned bytes.
    Bytes,
    /// The length of a string of at most `max` bytes.
    StringLength {
        /// The most bytes the string may hold.
        max: u32,
    },
    /// A string's payload bytes.
    StringPayload,
    /// The length of a wide string of at most `max` units.
    WideLength {
        /// The most units the wide string may hold.
        max: u32,
    },
    /// One UTF-16 unit of a wide string, as a 32-bit group.
    WideUnit,
}

impl Kind {
    /// A short name for tables and JSON.
    #[must_use]
    pub const fn label(&self) -> &'static str {
        match self {
            Self::Bits => "bits",
            Self::Bool => "bool",
            Self::Ranged { .. } => "ranged",
            Self::Compressed { .. } => "compressed",
            Self::Float => "float",
            Self::Double => "double",
            Self::Wide => "wide",
            Self::WideTop { .. } => "wide-top",
            Self::Padding => "padding",
            Self::Check { .. } => "check",
            Self::Bytes => "bytes",
            Self::StringLength { .. } => "string-length",
            Self::StringPayload => "string-payload",
            Self::WideLength { .. } => "wstring-length",
            Self::WideUnit => "wstring-unit",
        }
    }

    /// The largest legal wire value of a ranged field, if it has one.
    #[must_use]
    pub fn max_legal(&self) -> Option<u64> {
        match *self {
            Self::Ranged { span, .. } => Some(u64::from(span)),
            Self::WideTop { max, .. } => Some(u64::from(max)),
            Self::Compressed { format } => Some(u64::from(format.max_integer_value())),
            Self::StringLength { max } | Self::WideLength { max } => Some(u64::from(max)),
            _ => None,
        }
    }
}

/// One recorded field.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Bit offset from the start of the packet.
    pub offset: u64,
    /// Width in bits (payload bytes count 8 each).
    pub width: u64,
    /// The name the codec gave it.
    pub name: &'static str,
    /// What it does in its protocol.
    pub role: Role,
    /// What rule applies to it.
    pub kind: Kind,
    /// Its wire value (for byte runs, the first up to 8 bytes, little-endian).
    pub value: u64,
    /// Which part of the value holds it (see [`Stream::enter`]): fields
    /// of one part share the number, 0 is outside every part. A subset's
    /// indices share the part of the field that holds the subset, so two
    /// subsets one after the other are told apart.
    pub part: u32,
}

impl Field {
    /// The offset just past the field.
    #[must_use]
    pub const fn end(&self) -> u64 {
        self.offset.saturating_add(self.width)
    }
}

/// Every field of one packet, in stream order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldMap {
    /// The fields.
    pub fields: Vec<Field>,
    /// Where the stream aligned to a byte, in order: every alignment, also
    /// those that found the stream aligned and left no padding field.
    pub aligns: Vec<u64>,
}

impl FieldMap {
    /// Fields called `name`, in order.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Field> + 'a {
        self.fields.iter().filter(move |f| f.name == name)
    }

    /// Fields with the role `role`, in order.
    pub fn with_role(&self, role: Role) -> impl Iterator<Item = &Field> + '_ {
        self.fields.iter().filter(move |f| f.role == role)
    }
}

/// A stream that does what its inner stream does and records every field.
#[derive(Debug)]
pub struct RecordingStream<S> {
    inner: S,
    name: &'static str,
    role: Role,
    /// The kind the next `serialize_bits` gets, set by the operation that
    /// is running (a ranged int, a check, ...).
    kind: Option<Kind>,
    map: FieldMap,
    /// The parts open, innermost last, and the number the next gets.
    parts: Vec<u32>,
    next_part: u32,
}

impl<S: Stream> RecordingStream<S> {
    /// Records what passes through `inner`.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            name: "",
            role: Role::Value,
            kind: None,
            map: FieldMap::default(),
            parts: Vec::new(),
            next_part: 1,
        }
    }

    /// The inner stream and the fields recorded.
    pub fn finish(self) -> (S, FieldMap) {
        (self.inner, self.map)
    }

    /// The name of the field being processed.
    #[must_use]
    pub const fn current_name(&self) -> &'static str {
        self.name
    }

    /// The fields recorded so far.
    #[must_use]
    pub const fn map(&self) -> &FieldMap {
        &self.map
    }

    fn record(&mut self, offset: u64, width: u64, kind: Kind, value: u64) {
        self.map.fields.push(Field {
            offset,
            width,
            name: self.name,
            role: self.role,
            kind,
            value,
            part: self.parts.last().copied().unwrap_or(0),
        });
    }

    /// Runs `op` with `kind` for the first primitive it serializes.
    fn with_kind<T>(&mut self, kind: Kind, op: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.kind.replace(kind);
        let result = op(self);
        self.kind = saved;
        result
    }

    /// Gives every field recorded from index `start` on the kind `kind`.
    fn mark_from(&mut self, start: usize, kind: Kind) {
        for field in self.map.fields.iter_mut().skip(start) {
            field.kind = kind;
        }
    }

    fn record_padding(&mut self, start: u64) {
        self.map.aligns.push(start);
        let pad = start.wrapping_neg() & 7;
        if pad > 0 {
            // Padding that was read (or written) is zero on success.
            self.record(start, pad, Kind::Padding, 0);
        }
    }
}

fn first_bytes(bytes: &[u8]) -> u64 {
    let mut le = [0u8; 8];
    for (dst, src) in le.iter_mut().zip(bytes) {
        *dst = *src;
    }
    u64::from_le_bytes(le)
}

impl<S: Stream> Stream for RecordingStream<S> {
    const IS_READING: bool = S::IS_READING;
    type Error = S::Error;

    fn bit_offset(&self) -> u64 {
        self.inner.bit_offset()
    }

    fn bits_remaining(&self) -> u64 {
        self.inner.bits_remaining()
    }

    fn refuse(&mut self, why: DecodeError) -> S::Error {
        self.inner.refuse(why)
    }

    fn field_name(&mut self, name: &'static str) {
        self.name = name;
        self.role = Role::Value;
    }

    fn field_role(&mut self, role: Role) {
        self.role = role;
    }

    fn enter(&mut self, name: &'static str) {
        self.parts.push(self.next_part);
        self.next_part = self.next_part.wrapping_add(1);
        self.inner.enter(name);
    }

    fn leave(&mut self) {
        self.parts.pop();
        self.inner.leave();
    }

    fn serialize_bits(&mut self, value: &mut u32, bits: u32) -> Result<(), S::Error> {
        let at = self.bit_offset();
        self.inner.serialize_bits(value, bits)?;
        let kind = self.kind.take().unwrap_or(Kind::Bits);
        if bits > 0 {
            self.record(at, u64::from(bits), kind, u64::from(*value));
        }
        Ok(())
    }

    fn serialize_align(&mut self) -> Result<(), S::Error> {
        let at = self.bit_offset();
        self.inner.serialize_align()?;
        self.record_padding(at);
        Ok(())
    }

    fn serialize_bytes(&mut self, bytes: &mut [u8]) -> Result<(), S::Error> {
        let at = self.bit_offset();
        self.inner.serialize_bytes(bytes)?;
        self.record_padding(at);
        let start = at.saturating_add(at.wrapping_neg() & 7);
        if !bytes.is_empty() {
            self.record(
                start,
                bytes.len() as u64 * 8,
                Kind::Bytes,
                first_bytes(bytes),
            );
        }
        Ok(())
    }

    fn serialize_str_payload(&mut self, value: &mut String, len: usize) -> Result<(), S::Error> {
        let at = self.bit_offset();
        self.inner.serialize_str_payload(value, len)?;
        self.record_padding(at);
        let start = at.saturating_add(at.wrapping_neg() & 7);
        if len > 0 {
            let value = first_bytes(value.as_bytes());
            self.record(start, len as u64 * 8, Kind::StringPayload, value);
        }
        Ok(())
    }

    fn serialize_bool(&mut self, value: &mut bool) -> Result<(), S::Error> {
        self.with_kind(Kind::Bool, |s| {
            let mut bit = u32::from(*value);
            s.serialize_bits(&mut bit, 1)?;
            *value = bit != 0;
            Ok(())
        })
    }

    fn serialize_int(&mut self, value: &mut i32, min: i32, max: i32) -> Result<(), S::Error> {
        let span = (max as u32).wrapping_sub(min as u32);
        let kind = Kind::Ranged {
            min: i64::from(min),
            span,
        };
        self.with_kind(kind, |s| ops::int::serialize_int(s, value, min, max))
    }

    fn serialize_compressed_code(
        &mut self,
        code: &mut u32,
        format: &CompressedFloat,
    ) -> Result<(), S::Error> {
        let max = format.max_integer_value();
        self.with_kind(Kind::Compressed { format: *format }, |s| {
            ops::int::serialize_offset(s, code, max)
        })
    }

    fn serialize_float(&mut self, value: &mut f32) -> Result<(), S::Error> {
        self.with_kind(Kind::Float, |s| {
            let mut bits = value.to_bits();
            s.serialize_bits(&mut bits, 32)?;
            *value = f32::from_bits(bits);
            Ok(())
        })
    }

    fn serialize_double(&mut self, value: &mut f64) -> Result<(), S::Error> {
        let mut bits = value.to_bits();
        let mut low = bits as u32;
        let mut high = (bits >> 32) as u32;
        self.with_kind(Kind::Double, |s| s.serialize_bits(&mut low, 32))?;
        self.with_kind(Kind::Double, |s| s.serialize_bits(&mut high, 32))?;
        bits = u64::from(low) | (u64::from(high) << 32);
        *value = f64::from_bits(bits);
        Ok(())
    }

    fn serialize_int64(&mut self, value: &mut i64, min: i64, max: i64) -> Result<(), S::Error> {
        let mut wide = i128::from(*value);
        self.serialize_int128(&mut wide, i128::from(min), i128::from(max))?;
        *value = wide as i64;
        Ok(())
    }

    fn serialize_int128(&mut self, value: &mut i128, min: i128, max: i128) -> Result<(), S::Error> {
        let start = self.map.fields.len();
        let result = ops::wide::serialize_ranged(self, value, min, max);
        self.mark_from(start, Kind::Wide);
        // The span's top group, below all ones of its width, is the most
        // a lie in that group may write and stay in range.
        let span = (max as u128).wrapping_sub(min as u128);
        let bits = ops::wide::bits_for_span128(span);
        let top_bits = bits.wrapping_sub(1) % 32 + 1;
        let top_max = span.checked_shr(bits.saturating_sub(top_bits)).unwrap_or(0) as u32;
        let all_ones = u32::MAX >> (32 - top_bits);
        let from = self.map.fields.get(start).map(|f| f.offset);
        if let (true, Some(from), Some(top)) = (
            result.is_ok() && bits > 0 && top_max < all_ones,
            from,
            self.map.fields.last_mut(),
        ) {
            top.kind = Kind::WideTop { max: top_max, from };
        }
        result
    }

    fn serialize_fixed(&mut self, raw: &mut i128, format: &Fixed) -> Result<(), S::Error> {
        self.serialize_int128(raw, format.raw_min(), format.raw_max())
    }

    fn serialize_check(&mut self, label: &'static str) -> Result<(), S::Error> {
        self.with_kind(Kind::Check { label }, |s| {
            ops::check::serialize_check(s, label)
        })
    }

    fn serialize_string(&mut self, value: &mut String, buffer_size: u32) -> Result<(), S::Error> {
        let max = buffer_size.saturating_sub(1);
        self.with_kind(Kind::StringLength { max }, |s| {
            ops::string::serialize_string(s, value, buffer_size)
        })
    }

    fn serialize_wstring(
        &mut self,
        units: &mut Vec<u16>,
        buffer_size: u32,
    ) -> Result<(), S::Error> {
        let max = buffer_size.saturating_sub(1);
        let start = self.map.fields.len();
        let result = self.with_kind(Kind::WideLength { max }, |s| {
            ops::wstring::serialize_wstring(s, units, buffer_size)
        });
        // Every group after the length is a unit.
        self.mark_from(start.saturating_add(1), Kind::WideUnit);
        result
    }
}
