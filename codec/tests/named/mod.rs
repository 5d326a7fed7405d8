//! A stream wrapper that remembers which named field each bit belongs to:
//! where a field lies when written, and which field a refusal came from
//! when read.

use crate::one_by_one::forward_position;
use codec::{DecodeError, Role, Stream};

pub struct Named<S> {
    inner: S,
    current: &'static str,
    role: Role,
    /// (name, first bit, bit past the end, role) of every primitive.
    spans: Vec<(&'static str, u64, u64, Role)>,
    refused_in: Option<&'static str>,
}

impl<S: Stream> Named<S> {
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            current: "",
            role: Role::Value,
            spans: Vec::new(),
            refused_in: None,
        }
    }

    /// The first and past-the-end bits of the primitives named `name`,
    /// from the first to the last (or only the first).
    pub fn span_of(&self, name: &str, first_only: bool) -> Option<(u64, u64)> {
        let mut spans = self.spans.iter().filter(|(n, ..)| *n == name);
        let first = spans.next()?;
        let last = if first_only {
            first
        } else {
            spans.next_back().unwrap_or(first)
        };
        Some((first.1, last.2))
    }

    /// The name and role of every primitive, in order.
    pub fn primitives(&self) -> impl Iterator<Item = (&'static str, Role)> + '_ {
        self.spans.iter().map(|&(name, .., role)| (name, role))
    }

    /// The field that was being read when the stream refused.
    pub fn refused_in(&self) -> Option<&'static str> {
        self.refused_in
    }

    fn track<T>(&mut self, at: u64, result: Result<T, S::Error>) -> Result<T, S::Error> {
        let end = self.inner.bit_offset();
        if result.is_err() {
            self.refused_in.get_or_insert(self.current);
        } else if end > at {
            self.spans.push((self.current, at, end, self.role));
        }
        result
    }
}

impl<S: Stream> Stream for Named<S> {
    const IS_READING: bool = S::IS_READING;
    type Error = S::Error;

    forward_position!(inner);

    fn refuse(&mut self, why: DecodeError) -> S::Error {
        self.refused_in.get_or_insert(self.current);
        self.inner.refuse(why)
    }

    fn serialize_bits(&mut self, value: &mut u32, bits: u32) -> Result<(), S::Error> {
        let at = self.bit_offset();
        let result = self.inner.serialize_bits(value, bits);
        self.track(at, result)
    }

    fn serialize_align(&mut self) -> Result<(), S::Error> {
        let at = self.bit_offset();
        let result = self.inner.serialize_align();
        self.track(at, result)
    }

    fn serialize_bytes(&mut self, bytes: &mut [u8]) -> Result<(), S::Error> {
        let at = self.bit_offset();
        let result = self.inner.serialize_bytes(bytes);
        self.track(at, result)
    }

    fn serialize_str_payload(&mut self, value: &mut String, len: usize) -> Result<(), S::Error> {
        let at = self.bit_offset();
        let result = self.inner.serialize_str_payload(value, len);
        self.track(at, result)
    }

    fn field_name(&mut self, name: &'static str) {
        self.current = name;
        self.role = Role::Value;
    }

    fn field_role(&mut self, role: Role) {
        self.role = role;
    }
}
