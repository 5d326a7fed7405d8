//! One `serialize` function for reading, writing and measuring.
//!
//! A type describes its layout once, generic over [`Stream`]; the same code
//! then writes it ([`WriteStream`]), reads it ([`ReadStream`]) and bounds its
//! size ([`MeasureStream`]), so the reader and the writer cannot drift apart.
//! `?` plays the part of the C++ library's `return false` macros.

mod concrete;
mod measure;
pub mod ops;
mod plain;
mod read;
mod write;

pub(crate) use concrete::TOKEN;
#[doc(hidden)]
pub use concrete::{HotPath, Token};
pub use measure::MeasureStream;
pub use read::ReadStream;
pub use write::WriteStream;

use crate::error::DecodeError;
use crate::role::Role;

// Each of the crate's streams either reads or writes (a measure writes),
// never both nor neither: the subsets' loops take one branch or the other,
// and a reading loop ends only because reads make progress.
const _: () = {
    assert!(<ReadStream<'static> as Stream>::IS_READING);
    assert!(!<ReadStream<'static> as Stream>::IS_WRITING);
    assert!(<WriteStream<'static> as Stream>::IS_WRITING);
    assert!(!<WriteStream<'static> as Stream>::IS_READING);
    assert!(<MeasureStream as Stream>::IS_WRITING);
    assert!(!<MeasureStream as Stream>::IS_READING);
};
use ops::compressed_float::CompressedFloat;
use ops::fixed::Fixed;

/// A stream that a [`Serialize`] type is written to, read from or measured by.
///
/// Implementors supply a handful of primitives; every operation of the format
/// is a provided method written once against those primitives (in
/// [`ops`]), so the three streams share every rule.
///
/// Reading streams set a value only when its read succeeds: a refused read
/// leaves its destination as it was.
pub trait Stream {
    /// True for [`ReadStream`].
    const IS_READING: bool;
    /// True for [`WriteStream`] and [`MeasureStream`]: the values are inputs.
    const IS_WRITING: bool = !Self::IS_READING;

    /// True for streams that show the value they read (the harness's
    /// `decode --json`): code that computes something only to hand it to
    /// [`Stream::assigned`] (a quaternion from its codes) checks it first, so
    /// that the codec's own readers never pay for it.
    const SHOWS_VALUES: bool = false;

    /// What a refused operation returns: [`DecodeError`] for a reader,
    /// [`crate::EncodeError`] for a writer and a measure.
    type Error: Copy + core::fmt::Debug;

    /// Bits processed so far, counted from the start of the stream.
    fn bit_offset(&self) -> u64;

    /// Bits that may still be processed: what is left of a reader's input or
    /// a writer's buffer, and `u64::MAX` for a measure.
    fn bits_remaining(&self) -> u64;

    /// Turns a rule broken at the current field into this stream's error. A
    /// reading stream also fails for good: every later operation refuses.
    fn refuse(&mut self, why: DecodeError) -> Self::Error;

    /// The low `bits` bits of `value` (`bits` in `0..=32`). The crate's
    /// reading, writing and measuring streams take a wider width as 32.
    fn serialize_bits(&mut self, value: &mut u32, bits: u32) -> Result<(), Self::Error>;

    /// Zero bits up to the next byte boundary; a reader refuses set padding.
    fn serialize_align(&mut self) -> Result<(), Self::Error>;

    /// Aligns, then `bytes.len()` raw bytes. The count is not sent.
    fn serialize_bytes(&mut self, bytes: &mut [u8]) -> Result<(), Self::Error>;

    /// Aligns, then the `len` bytes of a string payload. A reader refuses a
    /// payload that is not UTF-8 or holds a NUL before it replaces `value`; a
    /// writer writes `value`'s bytes (the caller has checked them).
    fn serialize_str_payload(&mut self, value: &mut String, len: usize) -> Result<(), Self::Error>;

    /// Names the fields that follow, until the next call, and gives them
    /// the role [`Role::Value`]. Streams that record what passes through
    /// them (the harness's field maps) keep the name; the codec's own
    /// streams ignore it, at no cost.
    #[inline]
    fn field_name(&mut self, _name: &'static str) {}

    /// Gives the fields that follow, up to the next [`Stream::field_name`],
    /// a [`Role`] other than [`Role::Value`]: the operations that know a
    /// field is a count, an index, a version, ... call it after naming the
    /// field. Recording streams keep it; the codec's own streams ignore it.
    #[inline]
    fn field_role(&mut self, _role: Role) {}

    /// Opens a named part of the value (a struct's field, a list's element,
    /// a subset's slot, a packet's payload) until the matching
    /// [`Stream::leave`], and names the fields that follow `name`. Streams
    /// that rebuild the value's shape (the harness's `decode --json`) nest
    /// what follows under it; the codec's own streams ignore it, at no cost.
    /// A refusal may leave a part open: the value is then abandoned.
    #[inline]
    fn enter(&mut self, _name: &'static str) {}

    /// Closes the part the last [`Stream::enter`] opened.
    #[inline]
    fn leave(&mut self) {}

    /// Tells a reading stream that `value`, a part of the value named
    /// `name`, was set by the reader without being read (a field absent
    /// from this version, a velocity not sent for an object at rest, an
    /// index given by position). Streams that show the value mark it as
    /// assigned; the codec's own streams ignore it.
    #[inline]
    fn assigned<T: Serialize>(&mut self, _name: &'static str, _value: &mut T) {}

    /// One bit.
    #[inline(always)]
    fn serialize_bool(&mut self, value: &mut bool) -> Result<(), Self::Error> {
        let mut bit = u32::from(*value);
        self.serialize_bits(&mut bit, 1)?;
        if Self::IS_READING {
            *value = bit != 0;
        }
        Ok(())
    }

    /// The low `bits` bits of a 64-bit value (`bits` in `1..=64`), as 32-bit
    /// groups from the least significant end.
    #[inline(always)]
    fn serialize_bits64(&mut self, value: &mut u64, bits: u32) -> Result<(), Self::Error> {
        ops::wide::serialize_u64(self, value, bits)
    }

    /// An 8-bit unsigned integer.
    #[inline(always)]
    fn serialize_u8(&mut self, value: &mut u8) -> Result<(), Self::Error> {
        let mut wide = u32::from(*value);
        self.serialize_bits(&mut wide, 8)?;
        if Self::IS_READING {
            *value = wide as u8;
        }
        Ok(())
    }

    /// A 16-bit unsigned integer.
    #[inline(always)]
    fn serialize_u16(&mut self, value: &mut u16) -> Result<(), Self::Error> {
        let mut wide = u32::from(*value);
        self.serialize_bits(&mut wide, 16)?;
        if Self::IS_READING {
            *value = wide as u16;
        }
        Ok(())
    }

    /// A 32-bit unsigned integer.
    #[inline(always)]
    fn serialize_u32(&mut self, value: &mut u32) -> Result<(), Self::Error> {
        self.serialize_bits(value, 32)
    }

    /// A 64-bit unsigned integer.
    #[inline(always)]
    fn serialize_u64(&mut self, value: &mut u64) -> Result<(), Self::Error> {
        self.serialize_bits64(value, 64)
    }

    /// A 128-bit unsigned integer, as four 32-bit groups from the bottom.
    #[inline]
    fn serialize_u128(&mut self, value: &mut u128) -> Result<(), Self::Error> {
        ops::wide::serialize_groups(self, value, 128)
    }

    /// An `i32` in `[min, max]`, as `value - min` in
    /// [`bits_required(min, max)`](crate::bits_required) bits.
    #[inline(always)]
    fn serialize_int(&mut self, value: &mut i32, min: i32, max: i32) -> Result<(), Self::Error> {
        ops::int::serialize_int(self, value, min, max)
    }

    /// An `i64` in `[min, max]`.
    #[inline]
    fn serialize_int64(&mut self, value: &mut i64, min: i64, max: i64) -> Result<(), Self::Error> {
        let mut wide = i128::from(*value);
        ops::wide::serialize_ranged(self, &mut wide, i128::from(min), i128::from(max))?;
        if Self::IS_READING {
            // In range, so it fits.
            *value = wide as i64;
        }
        Ok(())
    }

    /// An `i128` in `[min, max]`.
    #[inline]
    fn serialize_int128(
        &mut self,
        value: &mut i128,
        min: i128,
        max: i128,
    ) -> Result<(), Self::Error> {
        ops::wide::serialize_ranged(self, value, min, max)
    }

    /// A fixed-point value, as its raw stored integer (real value times
    /// `2^fraction_bits`).
    #[inline]
    fn serialize_fixed(&mut self, raw: &mut i128, format: &Fixed) -> Result<(), Self::Error> {
        ops::wide::serialize_ranged(self, raw, format.raw_min(), format.raw_max())
    }

    /// An `f32` as its 32 raw bits.
    #[inline(always)]
    fn serialize_float(&mut self, value: &mut f32) -> Result<(), Self::Error> {
        let mut bits = value.to_bits();
        self.serialize_bits(&mut bits, 32)?;
        if Self::IS_READING {
            *value = f32::from_bits(bits);
        }
        Ok(())
    }

    /// An `f64` as its 64 raw bits, low group first.
    #[inline(always)]
    fn serialize_double(&mut self, value: &mut f64) -> Result<(), Self::Error> {
        let mut bits = value.to_bits();
        self.serialize_bits64(&mut bits, 64)?;
        if Self::IS_READING {
            *value = f64::from_bits(bits);
        }
        Ok(())
    }

    /// A float quantized over a [`CompressedFloat`] declaration. The writer
    /// quantizes; the reader dequantizes. To keep the wire integer, use
    /// [`Stream::serialize_compressed_code`].
    #[inline]
    fn serialize_compressed_float(
        &mut self,
        value: &mut f32,
        format: &CompressedFloat,
    ) -> Result<(), Self::Error> {
        let mut code = if Self::IS_WRITING {
            format.quantize(*value)
        } else {
            0
        };
        self.serialize_compressed_code(&mut code, format)?;
        if Self::IS_READING {
            *value = format.dequantize(code);
        }
        Ok(())
    }

    /// The integer code of a compressed float, refused above the
    /// declaration's `max_integer_value`.
    #[inline]
    fn serialize_compressed_code(
        &mut self,
        code: &mut u32,
        format: &CompressedFloat,
    ) -> Result<(), Self::Error> {
        ops::int::serialize_offset(self, code, format.max_integer_value())
    }

    /// A UTF-8 string of at most `buffer_size - 1` bytes, without NUL: its
    /// length as `int(0, buffer_size - 1)`, then its bytes, aligned.
    #[inline]
    fn serialize_string(
        &mut self,
        value: &mut String,
        buffer_size: u32,
    ) -> Result<(), Self::Error> {
        ops::string::serialize_string(self, value, buffer_size)
    }

    /// A wide string as UTF-16 code units, at most `buffer_size - 1` of them:
    /// its length as `int(0, buffer_size - 1)`, then one 32-bit group per
    /// unit, with no alignment.
    #[inline]
    fn serialize_wstring(
        &mut self,
        units: &mut Vec<u16>,
        buffer_size: u32,
    ) -> Result<(), Self::Error> {
        ops::wstring::serialize_wstring(self, units, buffer_size)
    }

    /// `current`, known to be greater than `previous`, as the format's
    /// relative-integer ladder. Values live in `0..=i32::MAX`.
    #[inline]
    fn serialize_int_relative(
        &mut self,
        previous: i32,
        current: &mut i32,
    ) -> Result<(), Self::Error> {
        ops::int_relative::serialize_int_relative(self, previous, current)
    }

    /// As [`Stream::serialize_int_relative`], but a reader refuses a value
    /// sent in the absolute tier that a shorter tier holds: one encoding per
    /// value, for protocols that promise it.
    #[inline]
    fn serialize_int_relative_canonical(
        &mut self,
        previous: i32,
        current: &mut i32,
    ) -> Result<(), Self::Error> {
        ops::int_relative::serialize_int_relative_canonical(self, previous, current)
    }

    /// Aligns, then the 32-bit hash of `label`; a reader refuses a mismatch
    /// and reports the label.
    #[inline(always)]
    fn serialize_check(&mut self, label: &'static str) -> Result<(), Self::Error> {
        ops::check::serialize_check(self, label)
    }

    /// A nested object: adds no bits of its own. A failed reader refuses it
    /// even when it has no fields.
    #[inline]
    fn serialize_object<T: Serialize>(&mut self, object: &mut T) -> Result<(), Self::Error>
    where
        Self: Sized,
    {
        consult(self)?;
        object.serialize(self)
    }

    /// Runs a protocol's hot path (`crate::protocols::scenes::hot`) on
    /// the concrete stream behind this one, a [`ReadStream`] or a
    /// [`WriteStream`], and returns what it reports; every other stream
    /// returns `None`, and the caller takes the generic path. Only the
    /// codec can call it ([`Token`] has no public constructor); the
    /// differential tests hold every hot path equal to the generic code.
    #[doc(hidden)]
    #[inline(always)]
    fn concrete<H: HotPath>(&mut self, _: Token, _hot: H) -> Option<H::Output> {
        None
    }
}

/// Refuses when a reading stream has failed, and passes otherwise: a
/// zero-bit read, which every stream answers from its failure state.
/// Operations that may touch no bits at all (a zero-width field, an empty
/// object, the end of a message) call it, so that every operation consults
/// the stream whatever its width.
#[inline]
pub(crate) fn consult<S: Stream + ?Sized>(stream: &mut S) -> Result<(), S::Error> {
    stream.serialize_bits(&mut 0, 0)
}

/// The end of a whole message on a reading stream: refuses any byte left
/// after it ([`DecodeError::TrailingBytes`], at the end offset), so that two
/// byte strings never decode to one value. Writing streams pass.
pub fn expect_end<S: Stream>(stream: &mut S) -> Result<(), S::Error> {
    consult(stream)?;
    if S::IS_READING && stream.bits_remaining() > 0 {
        let at = stream.bit_offset();
        return Err(stream.refuse(DecodeError::TrailingBytes { at }));
    }
    Ok(())
}

/// A type whose layout is one generic `serialize` function.
///
/// Derive it (`#[derive(Serialize)]`, see [`crate::attributes`]) or write it
/// by hand for what attributes cannot say.
///
/// The function receives `&mut self` on every stream: a writer reads the
/// fields, a reader assigns them, a measure only counts.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no wire form of its own",
    label = "declare how this field travels",
    note = "derive `Serialize` for your own types; a signed integer takes `#[serialize(range = min..=max)]`, a `String` or `Vec` takes `#[serialize(max_len = N)]` (see `codec::attributes`)"
)]
pub trait Serialize {
    /// The most bits any value of the type writes, where the type can say
    /// so when it is declared (the derive does, for fields of fixed width).
    /// [`crate::write_to`] then checks the buffer's room once and writes
    /// into exactly that many bytes, where every field's room check is a
    /// constant; a declaration that is too small costs a second write into
    /// the whole buffer (`serialize` runs twice), never a wrong one.
    const MAX_BITS: Option<u64> = None;

    /// Writes, reads or measures `self` through `stream`.
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error>;
}
