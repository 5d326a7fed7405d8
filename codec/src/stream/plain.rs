//! [`Serialize`] for the types that have one natural wire form: `bool` as a
//! bit, unsigned integers at their full width, floats as their raw IEEE
//! bits, arrays element by element and `Option` as a presence bit.
//!
//! Signed integers, strings and `Vec` have none: their wire form depends on
//! a range or a maximum the program must declare (`range = min..=max`,
//! `max_len = N` in the derive, or a hand-written call), so they implement
//! no `Serialize` of their own.

use super::{Serialize, Stream};

impl Serialize for bool {
    const MAX_BITS: Option<u64> = Some(1);

    #[inline]
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        stream.serialize_bool(self)
    }
}

macro_rules! full_width {
    ($($t:ty => $method:ident),*) => {$(
        impl Serialize for $t {
            const MAX_BITS: Option<u64> = Some(8 * core::mem::size_of::<$t>() as u64);

            #[inline]
            fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
                stream.$method(self)
            }
        }
    )*};
}
full_width!(
    u8 => serialize_u8,
    u16 => serialize_u16,
    u32 => serialize_u32,
    u64 => serialize_u64,
    u128 => serialize_u128,
    f32 => serialize_float,
    f64 => serialize_double
);

impl<T: Serialize, const N: usize> Serialize for [T; N] {
    const MAX_BITS: Option<u64> = crate::max_bits::times(T::MAX_BITS, N);

    #[inline]
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        self.iter_mut().try_for_each(|item| item.serialize(stream))
    }
}

impl<T: Serialize + Default> Serialize for Option<T> {
    const MAX_BITS: Option<u64> = crate::max_bits::sum(Some(1), T::MAX_BITS);

    #[inline]
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        crate::stream::ops::list::serialize_option(stream, self, |stream, inner| {
            inner.serialize(stream)
        })
    }
}
