//! The formats as games call them: postcard 1 (`from_bytes`, and strict:
//! `take_from_bytes` with nothing left), bincode 1.3 (`serialize` and
//! `deserialize`; `DefaultOptions` with and without a limit) and bincode 2
//! (`config::standard()` with and without a limit).

use super::{Format, Tape, Varint};
use crate::case::Class;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The most bytes a limited reader lets a message claim: a datagram's.
pub const LIMIT: usize = 65_536;

fn words(error: impl std::fmt::Display) -> String {
    error.to_string()
}

fn postcard_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    postcard::to_io(value, tape.clone())
        .map(|_| ())
        .map_err(words)
}

fn bincode1_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    bincode::serialize_into(tape.clone(), value).map_err(words)
}

fn bincode1_varint_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    use bincode::Options;
    bincode::DefaultOptions::new()
        .serialize_into(tape.clone(), value)
        .map_err(words)
}

fn bincode2_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    bincode2::serde::encode_into_std_write(value, tape, bincode2::config::standard())
        .map(|_| ())
        .map_err(words)
}

fn bincode2_fixint_encode<T: Serialize + ?Sized>(value: &T, tape: &mut Tape) -> Result<(), String> {
    let config = bincode2::config::standard().with_fixed_int_encoding();
    bincode2::serde::encode_into_std_write(value, tape, config)
        .map(|_| ())
        .map_err(words)
}

/// bincode 2 without a limit on a claimed length: its issue 764.
const BINCODE2_CLAIMS: &str = "bincode 2.0.1 without a limit takes a claimed length at its word: \
near u64::MAX a string panics with 'capacity overflow' (its issue 764), and at u32::MAX it asks \
for 4 GiB at once, which a worker's memory limit refuses (out of memory): `with_limit` refuses \
both";

/// The crashes a call's design or a known bug makes of lies of `class`,
/// by the adapter's name and the crash's words.
fn crash_cause(adapter: &str, class: Class, detail: &str) -> Option<&'static str> {
    let claims = matches!(
        class,
        Class::LengthBomb | Class::LengthOffByOne | Class::BitFlip | Class::EveryValue
    );
    let crashed = detail.contains("capacity overflow") || detail.contains("memory allocation of");
    (adapter == "bincode2" && claims && crashed).then_some(BINCODE2_CLAIMS)
}

/// What serde's own maps do with a key given twice.
const DUPLICATE_KEY: &str = "serde's HashMap and BTreeMap keep the last value of a key given \
twice, by design, so the message reads as a value that writes one entry fewer: deserialize the \
map with a `deserialize_with` that refuses a key already present, or compare the value's \
re-encoding with the message (postcard-canonical)";

/// What a varint reader of these crates takes by design.
const OVERLONG: &str = "it reads a varint in more bytes than the value needs, by design, and no \
option refuses it: compare the value's re-encoding with the message (postcard-canonical), or \
use fixed-width integers";

/// What a lie that moves where the fields fall may make of a message that such a
/// reader then takes by design.
const ANOTHER_SPELLING: &str = "a lie that moves where the fields fall (a flip, a length one off, \
a count given another value) can make an over-long varint or leave bytes after the message, which \
this call takes by design, or claim a map length that serde preallocates for (see those classes)";

/// postcard's map lengths, which it does not clamp as it clamps a sequence's.
const MAP_PREALLOCATION: &str =
    "postcard holds a sequence's claimed length to the bytes left, but \
passes a map's on as it was claimed, and serde's HashMap preallocates up to 1 MiB for it \
(serde::de::size_hint::cautious): a 6-byte message can claim thousands of entries; bound the \
map's length yourself (a `deserialize_with` that reads entries without the hint) or budget 1 MiB \
per read";

/// Likewise, for a reader that also passes claimed lengths on.
const ANY_OF_THEM: &str = "a lie that moves where the fields fall (a flip, a length one off, a \
count given another value) can make an over-long varint, leave bytes after the message, or claim a \
length that serde preallocates for: see those classes";

/// bincode 1.3's varint reader, on an integer in a wider form than its type.
const WIDE_MARKER: &str = "bincode 1.3 reads an integer written with a marker wider than its \
type (a u64's for a u32) when the value fits, where bincode 2 refuses it: no option refuses it; \
compare the value's re-encoding with the message, or use fixed-width integers";

/// serde's preallocation, which only postcard clamps.
const PREALLOCATION: &str = "serde's Vec visitor preallocates up to 1 MiB for a claimed length \
(serde::de::size_hint::cautious) and this reader passes the claim on without holding it against \
the bytes left, limit or not: postcard clamps it; here, bound the datagram's claims yourself or \
budget 1 MiB per read";

/// postcard's slice reader, counting the bytes it takes for a trace.
struct Counted<'de>(postcard::de_flavors::Slice<'de>);

impl<'de> postcard::de_flavors::Flavor<'de> for Counted<'de> {
    type Remainder = &'de [u8];
    type Source = &'de [u8];

    fn pop(&mut self) -> postcard::Result<u8> {
        let byte = self.0.pop()?;
        super::trace::took(1);
        Ok(byte)
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }

    fn try_take_n(&mut self, ct: usize) -> postcard::Result<&'de [u8]> {
        let taken = self.0.try_take_n(ct)?;
        super::trace::took(ct);
        Ok(taken)
    }

    fn finalize(self) -> postcard::Result<&'de [u8]> {
        self.0.finalize()
    }
}

/// A slice as an `io::Read` that counts the bytes it gives, for a trace.
struct CountingRead<'a>(&'a [u8]);

impl std::io::Read for CountingRead<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        super::trace::took(n);
        Ok(n)
    }
}

type Traced<T> = super::trace::Traced<T>;

fn postcard_trace<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    use serde::Deserialize;
    let flavor = Counted(postcard::de_flavors::Slice::new(bytes));
    let mut deserializer = postcard::Deserializer::from_flavor(flavor);
    Traced::<T>::deserialize(&mut deserializer)
        .map(|t| t.0)
        .map_err(words)
}

fn bincode1_trace<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    use bincode::Options;
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .allow_trailing_bytes()
        .deserialize_from::<_, Traced<T>>(CountingRead(bytes))
        .map(|t| t.0)
        .map_err(words)
}

fn bincode1_varint_trace<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    use bincode::Options;
    bincode::DefaultOptions::new()
        .deserialize_from::<_, Traced<T>>(CountingRead(bytes))
        .map(|t| t.0)
        .map_err(words)
}

fn bincode2_trace<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let config = bincode2::config::standard();
    bincode2::serde::decode_from_std_read::<Traced<T>, _, _>(&mut CountingRead(bytes), config)
        .map(|t| t.0)
        .map_err(words)
}

fn bincode2_fixint_trace<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let config = bincode2::config::standard().with_fixed_int_encoding();
    bincode2::serde::decode_from_std_read::<Traced<T>, _, _>(&mut CountingRead(bytes), config)
        .map(|t| t.0)
        .map_err(words)
}

fn postcard_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(value).map_err(words)
}

fn bincode1_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, String> {
    bincode::serialize(value).map_err(words)
}

fn bincode1_varint_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, String> {
    use bincode::Options;
    bincode::DefaultOptions::new()
        .serialize(value)
        .map_err(words)
}

fn bincode2_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, String> {
    bincode2::serde::encode_to_vec(value, bincode2::config::standard()).map_err(words)
}

fn bincode2_fixint_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, String> {
    let config = bincode2::config::standard().with_fixed_int_encoding();
    bincode2::serde::encode_to_vec(value, config).map_err(words)
}

/// An adapter: a unit struct and its `Format`, from its name, how it
/// writes (into the field map's tape, and straight into a vector: the
/// crate's own fastest call), how it reads, and what its call lets through
/// by design.
macro_rules! adapter {
    (
        $(#[$doc:meta])*
        $adapter:ident, $name:literal, $encode:ident, $to_vec:ident, $trace:ident,
        trailing: $trailing:literal, varint: $varint:expr,
        known: { $($class:pat => $why:expr,)* },
        |$bytes:ident| $decode:expr
        $(, read: |$read_bytes:ident| $read:expr)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $adapter;

        impl Format for $adapter {
            fn name(&self) -> &'static str {
                $name
            }

            fn encode<T: Serialize + ?Sized>(
                &self,
                value: &T,
                tape: &mut Tape,
            ) -> Result<(), String> {
                $encode(value, tape)
            }

            fn decode<T: Serialize + DeserializeOwned>(&self, $bytes: &[u8]) -> Result<T, String> {
                $decode
            }

            fn to_bytes<T: Serialize + ?Sized>(&self, value: &T) -> Result<Vec<u8>, String> {
                // Sorting is the harness's work, not a read's: inside a
                // measured read, only the bytes written count.
                crate::alloc::aside(|| $to_vec(&super::sorted(value)?))
            }

            $(
                fn read<T: Serialize + DeserializeOwned>(
                    &self,
                    $read_bytes: &[u8],
                ) -> Result<(T, Option<Vec<u8>>), String> {
                    $read
                }
            )?

            fn accepts_trailing_bytes(&self) -> bool {
                $trailing
            }

            fn trace<T: Serialize + DeserializeOwned>(
                &self,
                bytes: &[u8],
            ) -> Option<(Result<T, String>, super::trace::Trace)> {
                Some(super::trace::traced(|| $trace(bytes)))
            }

            fn known_cause(&self, class: Class) -> Option<&'static str> {
                match class {
                    $($class => Some($why),)*
                    _ => None,
                }
            }

            fn known_crash(&self, class: Class, detail: &str) -> Option<&'static str> {
                crash_cause($name, class, detail)
            }

            fn varint(&self) -> Option<Varint> {
                $varint
            }
        }
    };
}

adapter!(
    /// postcard 1 read with `from_bytes`, which ignores bytes after the
    /// message.
    Postcard, "postcard", postcard_encode, postcard_vec, postcard_trace,
    trailing: true, varint: Some(Varint::Leb128),
    known: {
        Class::DuplicateKey => DUPLICATE_KEY,
        Class::LengthBomb => MAP_PREALLOCATION,
        Class::TrailingBytes => "`postcard::from_bytes` ignores bytes after the message, by design: \
            use `take_from_bytes` and refuse a rest that is not empty (postcard-strict)",
        Class::OverlongVarint => OVERLONG,
        Class::BitFlip | Class::LengthOffByOne | Class::EveryValue => ANOTHER_SPELLING,
    },
    |bytes| postcard::from_bytes(bytes).map_err(words)
);

adapter!(
    /// postcard 1 read with `take_from_bytes`, refusing any byte left over.
    PostcardStrict, "postcard-strict", postcard_encode, postcard_vec, postcard_trace,
    trailing: false, varint: Some(Varint::Leb128),
    known: {
        Class::DuplicateKey => DUPLICATE_KEY,
        Class::LengthBomb => MAP_PREALLOCATION,
        Class::OverlongVarint => OVERLONG,
        Class::BitFlip | Class::LengthOffByOne | Class::EveryValue => ANOTHER_SPELLING,
    },
    |bytes| match postcard::take_from_bytes(bytes).map_err(words)? {
        (value, []) => Ok(value),
        (_, rest) => Err(format!("{} bytes after the message", rest.len())),
    }
);

adapter!(
    /// postcard 1 read as [`PostcardStrict`] reads, and then written again:
    /// a message that is not the value's own encoding (a varint in more
    /// bytes than it needs, a key given twice) is refused; a map's entries
    /// may come in any order. The configuration that passes every
    /// class of the example at the default policy.
    PostcardCanonical, "postcard-canonical", postcard_encode, postcard_vec, postcard_trace,
    trailing: false, varint: Some(Varint::Leb128),
    known: {
        Class::LengthBomb | Class::BitFlip | Class::LengthOffByOne => MAP_PREALLOCATION,
    },
    |bytes| canonical(bytes).map(|(value, _)| value),
    read: |bytes| canonical(bytes).map(|(value, again)| (value, Some(again)))
);

/// [`PostcardCanonical`]'s read: the value, and the bytes it writes, which
/// are the message's up to the order of a map's entries (a `HashMap`'s
/// honest order is its hasher's).
fn canonical<T: Serialize + DeserializeOwned>(bytes: &[u8]) -> Result<(T, Vec<u8>), String> {
    let value = PostcardStrict.decode(bytes)?;
    let again = postcard_vec(&value)?;
    // The order check is the harness's rule, not the reader's work: its
    // allocations are not the read's.
    let in_order = || -> Result<bool, String> {
        let (sorted, spans) = super::field_map(&PostcardStrict, &value)?;
        Ok(super::maps::same_up_to_order(
            bytes,
            &sorted,
            &super::maps::maps(&spans),
        ))
    };
    if again == bytes || (again.len() == bytes.len() && crate::alloc::aside(in_order)?) {
        Ok((value, again))
    } else {
        Err(format!(
            "not the value's own encoding: it writes {} bytes, the message has {}",
            again.len(),
            bytes.len()
        ))
    }
}

adapter!(
    /// bincode 1.3's `serialize` and `deserialize`: fixed-width
    /// little-endian integers, lengths as u64, no limit, bytes after the
    /// message accepted.
    Bincode1, "bincode1", bincode1_encode, bincode1_vec, bincode1_trace,
    trailing: true, varint: None,
    known: {
        Class::DuplicateKey => DUPLICATE_KEY,
        Class::TrailingBytes => "`bincode::deserialize` allows bytes after the message, by design: \
            `DefaultOptions::new().with_fixint_encoding()` refuses them",
        Class::LengthBomb => PREALLOCATION,
        Class::BitFlip | Class::LengthOffByOne | Class::EveryValue => "a lie that moves where the fields fall (a \
            flip, a length one off, a count given another value) can leave bytes after the \
            message, which this call takes by design, or claim a length that serde preallocates \
            for (see length-bomb)",
    },
    |bytes| bincode::deserialize(bytes).map_err(words)
);

adapter!(
    /// bincode 1.3's `DefaultOptions::new()`: varints, bytes after the
    /// message refused, no limit.
    Bincode1Varint, "bincode1-varint", bincode1_varint_encode, bincode1_varint_vec, bincode1_varint_trace,
    trailing: false, varint: Some(Varint::Bincode),
    known: {
        Class::DuplicateKey => DUPLICATE_KEY,
        Class::IntBeyondType => WIDE_MARKER,
        Class::OverlongVarint => OVERLONG,
        Class::LengthBomb | Class::BitFlip | Class::LengthOffByOne | Class::EveryValue => PREALLOCATION,
    },
    |bytes| {
        use bincode::Options;
        bincode::DefaultOptions::new().deserialize(bytes).map_err(words)
    }
);

adapter!(
    /// As [`Bincode1Varint`], `.with_limit(LIMIT)`. bincode 1.3.3 reads a
    /// slice with no limit whatever this says (the slice bounds what it
    /// reads): the limit counts only for `deserialize_from` a reader.
    Bincode1VarintLimited, "bincode1-varint-limited", bincode1_varint_encode, bincode1_varint_vec, bincode1_varint_trace,
    trailing: false, varint: Some(Varint::Bincode),
    known: {
        Class::DuplicateKey => DUPLICATE_KEY,
        Class::IntBeyondType => WIDE_MARKER,
        Class::OverlongVarint => OVERLONG,
        Class::LengthBomb | Class::BitFlip | Class::LengthOffByOne | Class::EveryValue => PREALLOCATION,
    },
    |bytes| {
        use bincode::Options;
        bincode::DefaultOptions::new()
            .with_limit(LIMIT as u64)
            .deserialize(bytes)
            .map_err(words)
    }
);

adapter!(
    /// bincode 2's `serde::decode_from_slice` with `config::standard()`: the
    /// count it read is the caller's to check, and this caller does not.
    Bincode2, "bincode2", bincode2_encode, bincode2_vec, bincode2_trace,
    trailing: true, varint: Some(Varint::Bincode),
    known: {
        Class::DuplicateKey => DUPLICATE_KEY,
        Class::TrailingBytes => "`bincode::serde::decode_from_slice` returns the count of bytes \
            it read and leaves the check to the caller: refuse a count short of the message",
        Class::OverlongVarint => OVERLONG,
        Class::LengthBomb => "without a limit, a string length near u64::MAX panics with \
            'capacity overflow' (bincode issue 764): `with_limit` refuses it; and serde \
            preallocates up to 1 MiB for a claimed sequence length, which no option bounds",
        Class::BitFlip | Class::LengthOffByOne | Class::EveryValue => ANY_OF_THEM,
    },
    |bytes| {
        bincode2::serde::decode_from_slice(bytes, bincode2::config::standard())
            .map(|(value, _)| value)
            .map_err(words)
    }
);

adapter!(
    /// As [`Bincode2`], `.with_limit::<LIMIT>()`.
    Bincode2Limited, "bincode2-limited", bincode2_encode, bincode2_vec, bincode2_trace,
    trailing: true, varint: Some(Varint::Bincode),
    known: {
        Class::DuplicateKey => DUPLICATE_KEY,
        Class::TrailingBytes => "`bincode::serde::decode_from_slice` returns the count of bytes \
            it read and leaves the check to the caller: refuse a count short of the message",
        Class::OverlongVarint => OVERLONG,
        Class::LengthBomb => PREALLOCATION,
        Class::BitFlip | Class::LengthOffByOne | Class::EveryValue => ANY_OF_THEM,
    },
    |bytes| {
        let config = bincode2::config::standard().with_limit::<LIMIT>();
        bincode2::serde::decode_from_slice(bytes, config)
            .map(|(value, _)| value)
            .map_err(words)
    }
);

adapter!(
    /// bincode 2's `serde::decode_from_slice` with `config::standard()`,
    /// fixed-width integers and `.with_limit::<LIMIT>()`, refusing any byte
    /// left over: no varint to spell two ways, no claim past the limit.
    Bincode2Strict, "bincode2-strict", bincode2_fixint_encode, bincode2_fixint_vec, bincode2_fixint_trace,
    trailing: false, varint: None,
    known: {
        Class::DuplicateKey => DUPLICATE_KEY,
        Class::LengthBomb | Class::BitFlip | Class::LengthOffByOne | Class::EveryValue => PREALLOCATION,
    },
    |bytes| {
        let config = bincode2::config::standard()
            .with_fixed_int_encoding()
            .with_limit::<LIMIT>();
        match bincode2::serde::decode_from_slice(bytes, config).map_err(words)? {
            (value, read) if read == bytes.len() => Ok(value),
            (_, read) => Err(format!("{} bytes after the message", bytes.len().saturating_sub(read))),
        }
    }
);
