//! Runs of fields sent one after the other, field by field: what every
//! stream does with a run, and where a stream that reads or writes a run
//! at once falls back to.

use super::compressed_float::CompressedFloat;
use crate::stream::Stream;

/// `N` compressed-float codes over one declaration, one by one.
#[inline(always)]
pub fn codes_one_by_one<S: Stream + ?Sized, const N: usize>(
    stream: &mut S,
    codes: &mut [u32; N],
    format: &CompressedFloat,
) -> Result<(), S::Error> {
    for code in codes {
        stream.serialize_compressed_code(code, format)?;
    }
    Ok(())
}

/// `N` raw fields, `values[i]` in `widths[i]` bits, one by one.
#[inline(always)]
pub fn bits_one_by_one<S: Stream + ?Sized, const N: usize>(
    stream: &mut S,
    values: &mut [u32; N],
    widths: [u32; N],
) -> Result<(), S::Error> {
    for (value, width) in values.iter_mut().zip(widths) {
        stream.serialize_bits(value, width)?;
    }
    Ok(())
}
