//! A serde type under a format as a [`PlainCodec`]: the byte-level
//! baseline that serde targets are measured against (no field map: the
//! valid round trip, truncation, trailing bytes and bit flips).

use super::Format;
use crate::plain::{Plain, PlainCodec};
use arbitrary::{Arbitrary, Unstructured};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::marker::PhantomData;

/// The type `T` read and written by format `F`, seen from outside; see
/// [`baseline`].
pub struct Baseline<T, F> {
    name: &'static str,
    format: F,
    refuses_trailing_bytes: bool,
    _type: PhantomData<fn() -> T>,
}

/// The byte-level baseline of [`super::target`]: the same type, format and
/// values, attacked through [`PlainCodec`] (trailing bytes refused, as the
/// default [`super::Policy`] refuses them, and the policy's allocation
/// bound).
#[must_use]
pub fn baseline<T, F>(name: &'static str, format: F) -> Plain<Baseline<T, F>>
where
    T: for<'a> Arbitrary<'a> + Serialize + DeserializeOwned + 'static,
    F: Format + Send + Sync + 'static,
{
    Plain(Baseline {
        name,
        format,
        refuses_trailing_bytes: true,
        _type: PhantomData,
    })
}

impl<T, F> PlainCodec for Baseline<T, F>
where
    T: for<'a> Arbitrary<'a> + Serialize + DeserializeOwned + 'static,
    F: Format + Send + Sync + 'static,
{
    type Value = T;
    type Error = String;

    fn name(&self) -> &'static str {
        self.name
    }

    fn decode(&self, bytes: &[u8]) -> Result<T, String> {
        self.format.decode(bytes)
    }

    fn encode(&self, value: &T) -> Result<Vec<u8>, String> {
        self.format.to_bytes(value)
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<T> {
        T::arbitrary(u)
    }

    fn refuses_trailing_bytes(&self) -> bool {
        self.refuses_trailing_bytes
    }

    fn allocation_bound(&self, len: usize) -> usize {
        super::Policy::default().allocation_bound(len)
    }
}
