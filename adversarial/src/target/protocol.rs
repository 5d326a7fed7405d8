//! Targets for any protocol built on `codec`, with full field maps: a
//! framed packet protocol ([`packet()`]), a bare message ([`message()`]) and a
//! versioned save ([`save`]). Valid samples come from the type's
//! `Arbitrary` implementation, which `#[derive(Serialize)]` and
//! `#[derive(Packet)]` write (feature `arbitrary` of `codec`, on whenever
//! this crate is used).
//!
//! ```
//! use adversarial::target::{self, Target};
//! use codec::{Packet, Serialize};
//!
//! #[derive(Clone, Debug, Default, PartialEq, Serialize)]
//! struct Input {
//!     #[serialize(range = -100..=100)]
//!     steer: i8,
//! }
//!
//! #[derive(Clone, Debug, PartialEq, Packet)]
//! #[packet(protocol_id = 0x600D_6A3E, max_bytes = 64)]
//! enum GamePacket {
//!     Input(Input),
//! }
//!
//! let game = target::packet::<GamePacket>("my-game").about("my game's packets");
//! assert_eq!(game.name(), "my-game");
//! ```

use crate::field_map::{FieldMap, RecordingStream};
use crate::rebuild;
use crate::target::{Framing, Inspection, Refusal, Sample, Target, Verdict};
use crate::value::ValueRecorder;
use arbitrary::{Arbitrary, Unstructured};
use codec::packet::{self, Packet};
use codec::stream::expect_end;
use codec::{DecodeError, EncodeError, ReadStream, Role, Serialize, Stream, WriteStream};
use std::fmt::Debug;
use std::marker::PhantomData;

/// Writes `value` through a recording write stream into a buffer of `max`
/// bytes, with `write` doing the serializing.
pub(crate) fn record<T>(
    value: &mut T,
    max: usize,
    write: impl FnOnce(&mut T, &mut RecordingStream<WriteStream<'_>>) -> Result<(), EncodeError>,
) -> Result<(Vec<u8>, FieldMap), EncodeError> {
    let mut buf = vec![0u8; max];
    let mut stream = RecordingStream::new(WriteStream::new(&mut buf));
    write(value, &mut stream)?;
    let (inner, map) = stream.finish();
    let len = inner.finish();
    buf.truncate(len);
    Ok((buf, map))
}

/// Writes `packet` framed and sealed, mapping its fields as they are written.
pub fn packet_sample<P: Packet>(packet: &mut P) -> Result<Sample, EncodeError> {
    // A buffer of the packet's measured size, not of the protocol's
    // maximum: a scene protocol allows 64 KiB, and zeroing that for every
    // small sample was most of what a fuzz execution cost.
    let measured = usize::try_from(packet::measure(packet)?).unwrap_or(usize::MAX);
    let (mut bytes, map) = record(packet, measured.min(P::MAX_PACKET_BYTES), |p, s| {
        packet::serialize_packet(p, s)
    })?;
    Framing {
        crc: Some(P::PROTOCOL_ID),
        ..Framing::default()
    }
    .seal(&mut bytes);
    Ok(Sample { bytes, map })
}

/// A whole message: the value, then zero padding to the byte boundary,
/// which the writer leaves and a reader must find zero.
fn serialize_message<T: Serialize, S: Stream>(
    value: &mut T,
    stream: &mut S,
) -> Result<(), S::Error> {
    value.serialize(stream)?;
    stream.field_name("padding");
    stream.serialize_align()
}

/// Writes a whole message, mapping its fields.
fn message_sample<T: Serialize>(value: &mut T) -> Result<Sample, EncodeError> {
    let bits = codec::measure(value)?;
    let max = usize::try_from(bits.div_ceil(8)).unwrap_or(usize::MAX);
    let (bytes, map) = record(value, max, |v, s| serialize_message(v, s))?;
    Ok(Sample { bytes, map })
}

/// Reads `bytes` through a recording read stream with `read`, after the
/// whole-input rules `before` (size and CRC for packets), then refuses
/// bytes left after the value.
pub(crate) fn inspect_with<T: Debug>(
    bytes: &[u8],
    read: impl FnOnce(&mut RecordingStream<ReadStream<'_>>) -> Result<T, DecodeError>,
    reencode: impl FnOnce(&mut T) -> Result<Vec<u8>, String>,
    before: Result<(), DecodeError>,
) -> Inspection {
    let mut stream = RecordingStream::new(ReadStream::new(bytes));
    let result = before.and_then(|()| read(&mut stream));
    let failed_in = result.is_err().then(|| stream.current_name());
    let result = result.and_then(|value| expect_end(&mut stream).map(|()| value));
    let (_, map) = stream.finish();
    let (verdict, shown) = match result {
        Ok(mut value) => {
            let shown = format!("{value:#?}");
            (
                Verdict::Accepted {
                    reencoded: reencode(&mut value),
                },
                Some(shown),
            )
        }
        Err(error) => (Verdict::Refused(Refusal::from(error)), None),
    };
    Inspection {
        map,
        failed_in,
        packet_type: None,
        verdict,
        shown,
        listed: Vec::new(),
    }
}

/// A whole message read from `bytes`: the value, zero padding to the
/// byte boundary, then nothing after it.
fn read_message<T: Serialize + Default>(bytes: &[u8]) -> Result<T, DecodeError> {
    let mut value = T::default();
    let mut stream = ReadStream::new(bytes);
    serialize_message(&mut value, &mut stream)?;
    expect_end(&mut stream)?;
    Ok(value)
}

/// A CRC-framed packet protocol (a [`Packet`]), such as an enum with
/// `#[derive(Packet)]`: every class, the CRC and packet-type ones included.
pub fn packet<P>(name: &'static str) -> PacketTarget<P> {
    PacketTarget {
        name,
        about: "a packet protocol built on codec",
        packet: PhantomData,
    }
}

/// A message with no framing, read whole: any type with a `Serialize`
/// layout, then zero padding to the byte boundary. Set padding and bytes
/// after it are refused.
pub fn message<T>(name: &'static str) -> MessageTarget<T> {
    MessageTarget {
        name,
        about: "a message built on codec",
        latest_version: None,
        message: PhantomData,
    }
}

/// A versioned save (a struct with `#[serialize(versions = first..=latest)]`)
/// whose newest version is `latest`: a message whose version header gets
/// the `future-version` lies, and whose older revisions, once migrated,
/// must read back as the state they were migrated to.
pub fn save<T>(name: &'static str, latest: u32) -> MessageTarget<T> {
    MessageTarget {
        name,
        about: "a versioned save built on codec",
        latest_version: Some(latest),
        message: PhantomData,
    }
}

/// The target [`packet()`] returns.
pub struct PacketTarget<P> {
    name: &'static str,
    about: &'static str,
    packet: PhantomData<fn() -> P>,
}

impl<P> PacketTarget<P> {
    /// One line on what it decodes, for `adversarial list` and reports.
    #[must_use]
    pub fn about(mut self, about: &'static str) -> Self {
        self.about = about;
        self
    }
}

impl<P> Target for PacketTarget<P>
where
    P: Packet + Debug + for<'a> Arbitrary<'a>,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn about(&self) -> &'static str {
        self.about
    }

    fn framing(&self) -> Framing {
        Framing {
            crc: Some(P::PROTOCOL_ID),
            packet_types: (P::PACKET_TYPES > 1).then_some(P::PACKET_TYPES),
            latest_version: None,
            refuses_trailing_bytes: true,
            max_bytes: Some(P::MAX_PACKET_BYTES),
        }
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        let mut value = P::arbitrary(u)?;
        packet_sample(&mut value).map_err(|_| arbitrary::Error::IncorrectFormat)
    }

    fn generate_bytes(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u8>> {
        let mut value = P::arbitrary(u)?;
        packet::encode_to_vec(&mut value).map_err(|_| arbitrary::Error::IncorrectFormat)
    }

    fn read_only(&self, bytes: &[u8]) {
        let _ = packet::decode::<P>(bytes);
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        match packet::decode::<P>(bytes) {
            Ok(mut value) => Verdict::Accepted {
                reencoded: packet::encode_to_vec(&mut value).map_err(|e| e.to_string()),
            },
            Err(error) => Verdict::Refused(error.into()),
        }
    }

    fn inspect(&self, bytes: &[u8]) -> Inspection {
        let mut inspection = inspect_with(
            bytes,
            |s| packet::read_fields::<P, _>(s),
            |p| packet::encode_to_vec(p).map_err(|e| e.to_string()),
            packet::check_framing::<P>(bytes),
        );
        inspection.packet_type = inspection
            .map
            .with_role(Role::PacketType)
            .next()
            .map(|f| f.value)
            .or_else(|| (P::PACKET_TYPES == 1).then_some(0))
            .map(|wire| type_name::<P>(wire as u32));
        inspection
    }

    fn decode_value(&self, bytes: &[u8]) -> Option<serde_json::Value> {
        packet::check_framing::<P>(bytes).ok()?;
        let mut stream = ValueRecorder::new(ReadStream::new(bytes));
        let read = packet::read_fields::<P, _>(&mut stream);
        let ended = read.is_ok() && expect_end(&mut stream).is_ok();
        let (_, mut value) = stream.finish();
        let wire = value.get("type").and_then(serde_json::Value::as_u64);
        if let Some(wire) = wire.and_then(|w| u32::try_from(w).ok()) {
            value["type"] = serde_json::json!({ "name": type_name::<P>(wire), "wire": wire });
        }
        ended.then_some(value)
    }

    fn encode_value(&self, value: &serde_json::Value) -> Option<Result<Vec<u8>, String>> {
        let kind = &value["type"];
        if let (Some(name), Some(wire)) = (kind["name"].as_str(), kind["wire"].as_u64()) {
            let named = u32::try_from(wire).map(type_name::<P>);
            if named.as_deref() != Ok(name) {
                return Some(Err(format!(
                    "field \"type\": its \"name\" {name:?} is not the type its \"wire\" {wire} \
                     sends; edit \"wire\" to change the type, or make \"name\" agree"
                )));
            }
        }
        Some(
            rebuild::value(value, |s| packet::read_fields::<P, _>(s))
                .and_then(|mut p| packet::encode_to_vec(&mut p).map_err(|e| e.to_string())),
        )
    }
}

/// A packet type's name, or its number when the protocol names none.
fn type_name<P: Packet>(wire: u32) -> String {
    P::type_name(wire).map_or_else(|| wire.to_string(), str::to_owned)
}

/// Reads a whole message from `bytes` through a value recorder: the value
/// as JSON when the read succeeds.
fn message_value<T: Serialize + Default>(bytes: &[u8]) -> Option<serde_json::Value> {
    let mut stream = ValueRecorder::new(ReadStream::new(bytes));
    let read = serialize_message(&mut T::default(), &mut stream);
    let ended = read.is_ok() && expect_end(&mut stream).is_ok();
    let (_, value) = stream.finish();
    ended.then_some(value)
}

/// The target [`message`] and [`save`] return.
pub struct MessageTarget<T> {
    name: &'static str,
    about: &'static str,
    latest_version: Option<u32>,
    message: PhantomData<fn() -> T>,
}

impl<T> MessageTarget<T> {
    /// One line on what it decodes, for `adversarial list` and reports.
    #[must_use]
    pub fn about(mut self, about: &'static str) -> Self {
        self.about = about;
        self
    }
}

impl<T: Serialize + Default + PartialEq + Debug> MessageTarget<T> {
    /// The canonical form of what was read from `bytes`. A save of an older
    /// revision is migrated, so it cannot re-encode to its own bytes: it
    /// counts as canonical when the latest revision's save of the migrated
    /// state reads back and re-encodes to the very same bytes (the state
    /// itself may differ in a field that records the revision read).
    fn reencode(&self, bytes: &[u8], value: &mut T) -> Result<Vec<u8>, String> {
        let latest = codec::to_vec(value).map_err(|e| e.to_string())?;
        let Some(newest) = self.latest_version else {
            return Ok(latest);
        };
        // A versioned save starts with its version, 32 bits.
        let version = bytes.first_chunk::<4>().map(|v| u32::from_le_bytes(*v));
        if version == Some(newest) {
            return Ok(latest);
        }
        let mut again = read_message::<T>(&latest)
            .map_err(|e| format!("migrated state does not read back: {e}"))?;
        match codec::to_vec(&mut again) {
            Ok(twice) if twice == latest => Ok(bytes.to_vec()),
            Ok(_) => Err(format!(
                "migrated state {value:?} reads back as {again:?}, which saves differently"
            )),
            Err(e) => Err(format!("migrated state reads back but does not save: {e}")),
        }
    }
}

impl<T> Target for MessageTarget<T>
where
    T: Serialize + Default + PartialEq + Debug + for<'a> Arbitrary<'a>,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn about(&self) -> &'static str {
        self.about
    }

    fn framing(&self) -> Framing {
        Framing {
            latest_version: self.latest_version,
            refuses_trailing_bytes: true,
            ..Framing::default()
        }
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        let mut value = T::arbitrary(u)?;
        message_sample(&mut value).map_err(|_| arbitrary::Error::IncorrectFormat)
    }

    fn generate_bytes(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u8>> {
        let mut value = T::arbitrary(u)?;
        codec::to_vec(&mut value).map_err(|_| arbitrary::Error::IncorrectFormat)
    }

    fn read_only(&self, bytes: &[u8]) {
        let _ = read_message::<T>(bytes);
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        match read_message::<T>(bytes) {
            Ok(mut value) => Verdict::Accepted {
                reencoded: self.reencode(bytes, &mut value),
            },
            Err(error) => Verdict::Refused(error.into()),
        }
    }

    fn decode_value(&self, bytes: &[u8]) -> Option<serde_json::Value> {
        message_value::<T>(bytes)
    }

    fn encode_value(&self, value: &serde_json::Value) -> Option<Result<Vec<u8>, String>> {
        Some(
            rebuild::value(value, |s| {
                let mut rebuilt = T::default();
                serialize_message(&mut rebuilt, s)?;
                Ok(rebuilt)
            })
            .and_then(|mut v| codec::to_vec(&mut v).map_err(|e| e.to_string())),
        )
    }

    fn inspect(&self, bytes: &[u8]) -> Inspection {
        inspect_with(
            bytes,
            |s| {
                let mut value = T::default();
                serialize_message(&mut value, s)?;
                Ok(value)
            },
            |value| self.reencode(bytes, value),
            Ok(()),
        )
    }
}
