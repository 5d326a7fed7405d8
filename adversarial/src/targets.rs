//! This crate's targets: every protocol of the codec.

use crate::field_map::{FieldMap, RecordingStream};
use crate::generate;
use crate::target::{Framing, Inspection, Refusal, Sample, Target, Verdict};
use arbitrary::Unstructured;
use codec::packet::{self, Packet};
use codec::program::Program;
use codec::protocols::packets::TestPacket;
use codec::protocols::scenes::{SceneE, ScenePacket};
use codec::protocols::score_save::{self, ScoreState, LATEST_VERSION};
use codec::stream::expect_end;
use codec::{DecodeError, ReadStream, Serialize, Stream, WriteStream};
use std::fmt::Debug;

/// Every target of this crate, in the order tables list them.
#[must_use]
pub fn all() -> Vec<Box<dyn Target>> {
    vec![
        Box::new(PacketTarget::<TestPacket>::new(
            "packets",
            "protocol \"packets\": packets A, B, C of Reading and Writing Packets",
            generate::test_packet,
        )),
        Box::new(PacketTarget::<ScenePacket>::new(
            "scenes",
            "protocol \"scenes\": scenes A-D of Serialization Strategies",
            generate::scene_packet,
        )),
        Box::new(PacketTarget::<SceneE>::new(
            "scenes-entropy",
            "protocol \"scenes-entropy\": scene E, Golomb-coded indices",
            generate::scene_e,
        )),
        Box::new(SaveTarget),
        Box::new(StreamTarget),
    ]
}

/// Deliberately broken readers that prove the harness has teeth; named on
/// the command line, never part of the default campaign.
#[must_use]
pub fn fixtures() -> Vec<Box<dyn Target>> {
    vec![Box::new(crate::fixtures::BrokenSceneD)]
}

/// The target (or fixture) called `name`.
#[must_use]
pub fn by_name(name: &str) -> Option<Box<dyn Target>> {
    all()
        .into_iter()
        .chain(fixtures())
        .find(|t| t.name() == name)
}

/// Writes `value` through a recording write stream into a buffer of `max`
/// bytes, with `write` doing the serializing.
fn record<T>(
    value: &mut T,
    max: usize,
    write: impl FnOnce(&mut T, &mut RecordingStream<WriteStream<'_>>) -> Result<(), codec::EncodeError>,
) -> Result<(Vec<u8>, FieldMap), codec::EncodeError> {
    let mut buf = vec![0u8; max];
    let mut stream = RecordingStream::new(WriteStream::new(&mut buf));
    write(value, &mut stream)?;
    let (inner, map) = stream.finish();
    let len = inner.finish();
    buf.truncate(len);
    Ok((buf, map))
}

/// Writes `packet` framed and sealed, mapping its fields as they are written.
pub fn packet_sample<P: Packet>(packet: &mut P) -> Result<Sample, codec::EncodeError> {
    let (mut bytes, map) = record(packet, P::MAX_PACKET_BYTES, |p, s| {
        packet::serialize_packet(p, s)
    })?;
    Framing {
        crc: Some(P::PROTOCOL_ID),
        ..Framing::default()
    }
    .seal(&mut bytes);
    Ok(Sample { bytes, map })
}

/// Reads `bytes` through a recording read stream with `read`, after the
/// whole-input rules `before` (size and CRC for packets), then refuses
/// bytes left after the value.
fn inspect_with<T: Debug>(
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
    }
}

/// A CRC-framed packet protocol of the codec.
pub struct PacketTarget<P> {
    name: &'static str,
    about: &'static str,
    generate: fn(&mut Unstructured<'_>) -> arbitrary::Result<P>,
}

impl<P> PacketTarget<P> {
    fn new(
        name: &'static str,
        about: &'static str,
        generate: fn(&mut Unstructured<'_>) -> arbitrary::Result<P>,
    ) -> Self {
        Self {
            name,
            about,
            generate,
        }
    }
}

impl<P: Packet + Debug + Send + Sync> Target for PacketTarget<P> {
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
        }
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        let mut value = (self.generate)(u)?;
        packet_sample(&mut value).map_err(|_| arbitrary::Error::IncorrectFormat)
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
            .with_role(codec::Role::PacketType)
            .next()
            .map(|f| f.value.to_string())
            .or_else(|| (P::PACKET_TYPES == 1).then(|| "0".to_string()));
        inspection
    }
}

/// The score save: any revision is read; the writer writes the latest.
pub struct SaveTarget;

impl SaveTarget {
    /// A save of an older revision is migrated, so it cannot re-encode to
    /// its own bytes; its canonical form is the latest revision's save of
    /// the migrated state, which must read back to the same state.
    fn reencode(bytes: &[u8], state: &mut ScoreState) -> Result<Vec<u8>, String> {
        let latest = score_save::encode(state).map_err(|e| e.to_string())?;
        let version = bytes.first_chunk::<4>().map(|v| u32::from_le_bytes(*v));
        if version == Some(LATEST_VERSION) {
            return Ok(latest);
        }
        match score_save::decode(&latest) {
            Ok(again) if again == *state => Ok(bytes.to_vec()),
            Ok(again) => Err(format!("migrated state {state:?} reads back as {again:?}")),
            Err(e) => Err(format!("migrated state does not read back: {e}")),
        }
    }
}

impl Target for SaveTarget {
    fn name(&self) -> &'static str {
        "save"
    }

    fn about(&self) -> &'static str {
        "the versioned game score save (LBP method), revisions 1 to 5"
    }

    fn framing(&self) -> Framing {
        Framing {
            latest_version: Some(LATEST_VERSION),
            refuses_trailing_bytes: true,
            ..Framing::default()
        }
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        let mut state = generate::score_state(u)?;
        let (bytes, map) = record(&mut state, 256, |v, s| v.serialize(s))
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        Ok(Sample { bytes, map })
    }

    fn read_only(&self, bytes: &[u8]) {
        let _ = score_save::decode(bytes);
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        match score_save::decode(bytes) {
            Ok(mut state) => Verdict::Accepted {
                reencoded: Self::reencode(bytes, &mut state),
            },
            Err(error) => Verdict::Refused(error.into()),
        }
    }

    fn inspect(&self, bytes: &[u8]) -> Inspection {
        inspect_with(
            bytes,
            |s| {
                let mut state = ScoreState::default();
                state.serialize(s)?;
                Ok(state)
            },
            |state| Self::reencode(bytes, state),
            Ok(()),
        )
    }
}

/// One fixed message that holds every operation of format 1.1, read as a
/// whole stream: zero padding to the last byte, nothing after it.
pub struct StreamTarget;

impl StreamTarget {
    fn read(stream: &mut impl Stream<Error = DecodeError>) -> Result<Program, DecodeError> {
        let mut program = generate::stream_message_layout();
        program.serialize(stream)?;
        stream.field_name("padding");
        stream.serialize_align()?;
        Ok(program)
    }

    fn write(program: &mut Program) -> Result<Vec<u8>, String> {
        let (bytes, _) = record(program, 1024, |p, s| {
            p.serialize(s)?;
            s.serialize_align()
        })
        .map_err(|e| e.to_string())?;
        Ok(bytes)
    }
}

impl Target for StreamTarget {
    fn name(&self) -> &'static str {
        "stream"
    }

    fn about(&self) -> &'static str {
        "every operation of serialize format 1.1 in one message (golden message plus two checks)"
    }

    fn framing(&self) -> Framing {
        Framing {
            refuses_trailing_bytes: true,
            ..Framing::default()
        }
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        let mut program = generate::stream_message(u)?;
        let (bytes, map) = record(&mut program, 1024, |p, s| {
            p.serialize(s)?;
            s.field_name("padding");
            s.serialize_align()
        })
        .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        Ok(Sample { bytes, map })
    }

    fn read_only(&self, bytes: &[u8]) {
        let mut stream = ReadStream::new(bytes);
        let _ = Self::read(&mut stream).and_then(|_| expect_end(&mut stream));
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        let mut stream = ReadStream::new(bytes);
        let result =
            Self::read(&mut stream).and_then(|program| expect_end(&mut stream).map(|()| program));
        match result {
            Ok(mut program) => Verdict::Accepted {
                reencoded: Self::write(&mut program),
            },
            Err(error) => Verdict::Refused(error.into()),
        }
    }

    fn inspect(&self, bytes: &[u8]) -> Inspection {
        inspect_with(bytes, |s| Self::read(s), Self::write, Ok(()))
    }
}
