//! This crate's targets: every protocol of the codec.

use crate::generate;
use crate::kinds::KindsPacket;
use crate::target::protocol::{self, inspect_with, record};
use crate::target::{endpoint, EndpointTarget, Framing, Inspection, Sample, Target, Verdict};
use crate::value::ValueRecorder;
use arbitrary::Unstructured;
use codec::program::Program;
use codec::protocols::packets::TestPacket;
use codec::protocols::scenes::{GolombScene, SceneE, ScenePacket};
use codec::protocols::score_save::{ScoreState, LATEST_VERSION};
use codec::stream::expect_end;
use codec::{ReadStream, Serialize, Stream};

/// Every target of this crate, in the order tables list them.
#[must_use]
pub fn all() -> Vec<Box<dyn Target>> {
    vec![
        Box::new(
            protocol::packet::<TestPacket>("packets")
                .about("protocol \"packets\": packets A, B, C of Reading and Writing Packets"),
        ),
        Box::new(
            protocol::packet::<ScenePacket>("scenes")
                .about("protocol \"scenes\": scenes A-D of Serialization Strategies"),
        ),
        Box::new(
            protocol::packet::<SceneE>("scenes-entropy")
                .about("protocol \"scenes-entropy\": scene E, the adaptive subset code"),
        ),
        Box::new(
            protocol::packet::<GolombScene>("scenes-golomb")
                .about("protocol \"scenes-golomb\": scene E's version 1, Golomb-coded indices"),
        ),
        Box::new(
            protocol::save::<ScoreState>("save", LATEST_VERSION)
                .about("the versioned game score save (LBP method), revisions 1 to 5"),
        ),
        Box::new(StreamTarget),
        Box::new(
            protocol::packet::<KindsPacket>("kinds")
                .about("protocol \"kinds\": a field of every kind the derive declares"),
        ),
    ]
}

/// Deliberately broken readers that prove the harness has teeth; named on
/// the command line, never part of the default campaign.
#[must_use]
pub fn fixtures() -> Vec<Box<dyn Target>> {
    use crate::fixtures::{BrokenSceneD, Death, Dying};
    vec![
        Box::new(BrokenSceneD),
        Box::new(Dying(Death::Abort)),
        Box::new(Dying(Death::StackOverflow)),
        Box::new(Dying(Death::Hang)),
        Box::new(Dying(Death::OutOfMemory)),
    ]
}

/// This crate's endpoint targets: `link`'s endpoint, with the scenarios'
/// configuration.
#[must_use]
pub fn endpoints() -> Vec<Box<dyn EndpointTarget>> {
    vec![Box::new(
        endpoint("link", crate::scenario::config(), link_endpoint)
            .about("link's endpoint (reliable 1.0): acks, fragments, reassembly"),
    )]
}

/// Deliberately broken endpoints, named on the command line only.
#[must_use]
pub fn endpoint_fixtures() -> Vec<Box<dyn EndpointTarget>> {
    use crate::fixtures::{Death, DyingEndpoint};
    let mut fixtures: Vec<Box<dyn EndpointTarget>> = vec![Box::new(
        endpoint(
            "link-accepts-replays",
            crate::scenario::config(),
            |config| crate::fixtures::AcceptsReplays(link_endpoint(config)),
        )
        .about("link's endpoint with its duplicate check forgotten (fixture)"),
    )];
    for death in [
        Death::Abort,
        Death::StackOverflow,
        Death::OutOfMemory,
        Death::Hang,
    ] {
        fixtures.push(Box::new(
            endpoint(
                DyingEndpoint::name(death),
                crate::scenario::config(),
                move |config| DyingEndpoint(death, link_endpoint(config)),
            )
            .about("link's endpoint with one refusal replaced by a death (fixture)"),
        ));
    }
    fixtures
}

/// `link`'s endpoint for `config`, which the scenarios' configuration is.
fn link_endpoint(config: &link::Config) -> link::Endpoint {
    #[allow(clippy::expect_used)]
    link::Endpoint::new(config.clone(), 0.0).expect("the scenarios' configuration is valid")
}

/// The target (or fixture) called `name`.
#[must_use]
pub fn by_name(name: &str) -> Option<Box<dyn Target>> {
    all()
        .into_iter()
        .chain(fixtures())
        .find(|t| t.name() == name)
}

/// One fixed message that holds every operation of format 1.1, read as a
/// whole stream: zero padding to the last byte, nothing after it.
pub struct StreamTarget;

impl StreamTarget {
    fn read<S: Stream>(stream: &mut S) -> Result<Program, S::Error> {
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

    fn decode_value(&self, bytes: &[u8]) -> Option<serde_json::Value> {
        let mut stream = ValueRecorder::new(ReadStream::new(bytes));
        let read = Self::read(&mut stream);
        let ended = read.is_ok() && expect_end(&mut stream).is_ok();
        let (_, value) = stream.finish();
        ended.then_some(value)
    }

    fn encode_value(&self, value: &serde_json::Value) -> Option<Result<Vec<u8>, String>> {
        Some(crate::rebuild::value(value, |s| Self::read(s)).and_then(|mut p| Self::write(&mut p)))
    }

    fn inspect(&self, bytes: &[u8]) -> Inspection {
        inspect_with(bytes, |s| Self::read(s), Self::write, Ok(()))
    }
}
