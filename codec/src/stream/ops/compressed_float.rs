//! Compressed floats: a float quantized over `[min, max]` at a resolution.
//!
//! All arithmetic is `f32`, each step rounded on its own (Rust never fuses a
//! multiply and an add unless asked to with `mul_add`), so the codes match
//! the reference library bit for bit.

use crate::error::DecodeError;
use crate::stream::Stream;

/// The largest `f32` below `2^32`: the cap on the number of quanta, which
/// keeps the field within 32 bits.
const MAX_VALUES: f32 = 4_294_967_040.0;

/// A compressed-float declaration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompressedFloat {
    min: f32,
    delta: f32,
    max_integer_value: u32,
}

impl CompressedFloat {
    /// Quantizes `[min, max]` in steps of `res`: `values = (max - min) / res`
    /// clamped to `[1, 4294967040]`, and `max_integer_value = ceil(values)`.
    #[must_use]
    pub const fn new(min: f32, max: f32, res: f32) -> Self {
        let delta = max - min;
        let values = delta / res;
        let values = if values.is_nan() || values < 1.0 {
            1.0
        } else if values > MAX_VALUES {
            MAX_VALUES
        } else {
            values
        };
        // `values` is in [1, 4294967040], so truncation is exact and the
        // ceiling is one more when a fraction was dropped.
        let truncated = values as u32;
        let max_integer_value = if (truncated as f32) < values {
            truncated.saturating_add(1)
        } else {
            truncated
        };
        Self {
            min,
            delta,
            max_integer_value,
        }
    }

    /// The largest code a reader accepts.
    #[must_use]
    pub const fn max_integer_value(&self) -> u32 {
        self.max_integer_value
    }

    /// Bits on the wire: `bits_required(0, max_integer_value)`.
    #[must_use]
    pub const fn bits(&self) -> u32 {
        super::int::bits_for_span(self.max_integer_value)
    }

    /// The writer's code for `value`: the normalized value clamped to
    /// `[0, 1]` (NaN counts as 0), times `max_integer_value`, rounded half up
    /// and capped at `max_integer_value`.
    #[must_use]
    pub const fn quantize(&self, value: f32) -> u32 {
        let normalized = (value - self.min) / self.delta;
        // NaN fails the test and quantizes as 0. Above 1 is left to the cap.
        let normalized = if normalized >= 0.0 { normalized } else { 0.0 };
        let scaled = normalized * self.max_integer_value as f32;
        // `scaled + 0.5` is positive, so truncation is the floor (and
        // avoids a libm call), saturating where it is too large or
        // infinite; the cap keeps the code legal.
        let code = (scaled + 0.5) as u32;
        if code > self.max_integer_value {
            self.max_integer_value
        } else {
            code
        }
    }

    /// The reader's value for `code`: `(code / max_integer_value) * delta +
    /// min`, every step rounded to `f32`.
    #[must_use]
    pub fn dequantize(&self, code: u32) -> f32 {
        let normalized = code as f32 / self.max_integer_value as f32;
        let product = normalized * self.delta;
        product + self.min
    }
}

/// A float over a [`CompressedFloat`] declaration of `[min, max]`, for
/// callers that promise their values lie in it: a writer refuses NaN and any
/// value outside `[min, max]` ([`DecodeError::OutOfRange`]) instead of
/// clamping it, so a value never changes silently on the wire. A reader
/// refuses a code above the declaration's maximum.
#[inline]
pub fn serialize_in_range<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut f32,
    format: &CompressedFloat,
    min: f32,
    max: f32,
) -> Result<(), S::Error> {
    if S::IS_WRITING && !(min..=max).contains(value) {
        let at = stream.bit_offset();
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    stream.serialize_compressed_float(value, format)
}

/// A field that travels as a compressed float: an `f32` (quantized by the
/// writer, dequantized by the reader) or a `u32` holding the wire code
/// itself, which re-encodes to the very bits it was read from.
#[diagnostic::on_unimplemented(
    message = "`compressed(..)` declares an `f32` or a `u32` code, and `{Self}` is neither",
    label = "`compressed` needs an f32 (the value) or a u32 (its wire code)"
)]
pub trait Compressed {
    /// Serializes `value` over `format`, declared as `[min, max]`.
    fn serialize_compressed<S: Stream + ?Sized>(
        stream: &mut S,
        value: &mut Self,
        format: &CompressedFloat,
        min: f32,
        max: f32,
    ) -> Result<(), S::Error>;
}

impl Compressed for f32 {
    #[inline]
    fn serialize_compressed<S: Stream + ?Sized>(
        stream: &mut S,
        value: &mut Self,
        format: &CompressedFloat,
        min: f32,
        max: f32,
    ) -> Result<(), S::Error> {
        serialize_in_range(stream, value, format, min, max)
    }
}

impl Compressed for u32 {
    #[inline]
    fn serialize_compressed<S: Stream + ?Sized>(
        stream: &mut S,
        code: &mut Self,
        format: &CompressedFloat,
        _min: f32,
        _max: f32,
    ) -> Result<(), S::Error> {
        stream.serialize_compressed_code(code, format)
    }
}
