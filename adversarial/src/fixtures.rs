//! Deliberately broken readers, kept to prove the harness has teeth. Never
//! used by the codec.

use crate::target::{Framing, Refusal, Sample, Target, Verdict};
use arbitrary::{Arbitrary, Unstructured};
use codec::packet::{self, Packet};
use codec::protocols::packets::TestPacket;
use codec::protocols::scenes::{Object, Scene, ScenePacket, Slot, Strategy, MAX_OBJECTS};
use codec::{DecodeError, ReadStream, Serialize, Stream};

/// The articles' scene D reader as the sample code has it: it stores each
/// object at `objects[index]` in an array of `MAX_OBJECTS` without checking
/// that the relative index stayed below the maximum. In C++ that writes
/// past the array; here the bounds check panics, which is what the harness
/// must catch.
pub struct BrokenSceneD;

/// The sample's relative index ladder (no clamp on the result).
fn read_difference(s: &mut ReadStream<'_>) -> Result<i32, DecodeError> {
    let tiers = [(2, 5), (6, 13), (14, 29), (30, 61), (62, 125)];
    let mut flag = false;
    s.serialize_bool(&mut flag)?;
    if flag {
        return Ok(1);
    }
    for (lo, hi) in tiers {
        s.serialize_bool(&mut flag)?;
        if flag {
            let mut d = lo;
            s.serialize_int(&mut d, lo, hi)?;
            return Ok(d);
        }
    }
    let mut d = 126;
    s.serialize_int(&mut d, 126, MAX_OBJECTS as i32 + 1)?;
    Ok(d)
}

/// Everything as the real reader does it (size, CRC, type, objects, end
/// check, trailing bytes) but the clamp, so that the clamp is the only bug.
fn read_broken(bytes: &[u8]) -> Result<Scene, DecodeError> {
    packet::check_framing::<ScenePacket>(bytes)?;
    let mut s = ReadStream::new(bytes);
    let mut crc = 0;
    s.serialize_bits(&mut crc, 32)?;
    let mut packet_type = 0;
    s.serialize_bits(&mut packet_type, 2)?;
    if packet_type != 3 {
        return Err(DecodeError::UnknownPacketType {
            at: 32,
            found: packet_type,
        });
    }
    let mut objects: Vec<Option<Object>> = vec![None; MAX_OBJECTS as usize];
    let mut index: i32 = -1;
    loop {
        index += read_difference(&mut s)?;
        if index == MAX_OBJECTS as i32 {
            break;
        }
        // The sample reads the object straight into `objects[index]`.
        #[allow(clippy::indexing_slicing)] // the sample's bug, kept on purpose
        let slot = objects[index as usize].insert(Object::default());
        slot.serialize(&mut s)?;
    }
    s.serialize_check(packet::END_OF_PACKET)?;
    codec::stream::expect_end(&mut s)?;
    let slots = objects
        .into_iter()
        .enumerate()
        .filter_map(|(i, o)| {
            o.map(|object| Slot {
                index: i as u16,
                object,
            })
        })
        .collect();
    Ok(Scene { slots })
}

impl Target for BrokenSceneD {
    fn name(&self) -> &'static str {
        "broken-scene-d"
    }

    fn about(&self) -> &'static str {
        "FIXTURE: the articles' scene D reader without its index clamp"
    }

    fn framing(&self) -> Framing {
        Framing {
            crc: Some(ScenePacket::PROTOCOL_ID),
            packet_types: Some(ScenePacket::PACKET_TYPES),
            latest_version: None,
            refuses_trailing_bytes: true,
            max_bytes: Some(ScenePacket::MAX_PACKET_BYTES),
        }
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        let mut packet = ScenePacket {
            strategy: Strategy::D,
            scene: Scene::arbitrary(u)?,
        };
        crate::target::protocol::packet_sample(&mut packet)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        match read_broken(bytes) {
            Ok(scene) => Verdict::Accepted {
                reencoded: packet::encode_to_vec(&mut ScenePacket {
                    strategy: Strategy::D,
                    scene,
                })
                .map_err(|e| e.to_string()),
            },
            Err(error) => Verdict::Refused(Refusal::from(error)),
        }
    }
}

/// How a [`Dying`] reader dies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    /// `std::process::abort` where it should refuse a serialize check.
    Abort,
    /// Unbounded recursion where it should refuse a cut packet.
    StackOverflow,
    /// An endless loop where it should refuse an unknown packet type.
    Hang,
    /// An allocation of 64 TiB where it should refuse a bad CRC.
    OutOfMemory,
}

/// The "packets" reader, except that one refusal is replaced by a death
/// that `catch_unwind` cannot catch. Only a campaign that runs its cases in
/// a worker process ([`crate::worker`]) survives these, and counts each
/// death as the case's verdict.
pub struct Dying(pub Death);

/// Recurses without end; `black_box` keeps the frames.
#[allow(unconditional_recursion)]
fn recurse(depth: u64) -> u64 {
    let frame = std::hint::black_box([depth; 64]);
    recurse(depth + 1) + frame[0]
}

impl Target for Dying {
    fn name(&self) -> &'static str {
        match self.0 {
            Death::Abort => "aborts",
            Death::StackOverflow => "overflows-stack",
            Death::Hang => "hangs",
            Death::OutOfMemory => "runs-out-of-memory",
        }
    }

    fn about(&self) -> &'static str {
        "fixture: the packets reader with one refusal replaced by a death"
    }

    fn framing(&self) -> Framing {
        crate::target::packet::<TestPacket>("packets").framing()
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        crate::target::packet::<TestPacket>("packets").generate(u)
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        let verdict = crate::target::packet::<TestPacket>("packets").decode(bytes);
        if let Verdict::Refused(refusal) = &verdict {
            match (self.0, refusal.cause.as_str()) {
                (Death::Abort, "check-mismatch") => std::process::abort(),
                (Death::StackOverflow, "past-end") => {
                    std::hint::black_box(recurse(0));
                }
                (Death::Hang, "unknown-packet-type") => loop {
                    std::hint::spin_loop();
                    std::hint::black_box(bytes);
                },
                (Death::OutOfMemory, "bad-crc") => {
                    std::hint::black_box(vec![0u8; 1 << 46]);
                }
                _ => {}
            }
        }
        verdict
    }
}

/// The methods of [`crate::scenario::Connection`] but `receive`, handed to
/// the `link::Endpoint` in field `$field` of a fixture that changes only
/// what it receives.
macro_rules! link_but_receive {
    ($field:tt) => {
        fn refused(&self, cause: &str) -> u64 {
            crate::scenario::Connection::refused(&self.$field, cause)
        }

        fn take_acks(&mut self) -> Vec<u16> {
            crate::scenario::Connection::take_acks(&mut self.$field)
        }

        fn memory_bound(&self) -> usize {
            self.$field.memory_bound()
        }

        fn expect_peer_from(&mut self, sequence: u16) {
            self.$field.expect_peer_from(sequence);
        }

        fn send_own(
            &mut self,
            first: u16,
            payload: &[u8],
            transmit: &mut dyn FnMut(&[u8]),
        ) -> Option<u16> {
            crate::scenario::Connection::send_own(&mut self.$field, first, payload, transmit)
        }
    };
}

/// `link`'s endpoint with the duplicate check forgotten: a replayed
/// datagram is taken as if it were new (the refusal swallowed), so a
/// replay of a packet passes as a second, fresh one. The lie
/// `replayed-datagram` must catch it.
pub struct AcceptsReplays(pub link::Endpoint);

impl crate::scenario::Connection for AcceptsReplays {
    fn receive(
        &mut self,
        datagram: &[u8],
        deliver: &mut dyn FnMut(u16, &[u8]) -> bool,
    ) -> Result<(), &'static str> {
        match crate::scenario::Connection::receive(&mut self.0, datagram, deliver) {
            Err("duplicate-packet") => Ok(()),
            verdict => verdict,
        }
    }

    link_but_receive!(0);
}

/// `link`'s endpoint, except that one refusal is replaced by a death that
/// `catch_unwind` cannot catch: an abort where it refuses reserved bits, a
/// stack overflow where it refuses an empty datagram, an allocation of 64
/// TiB where it refuses a truncated header, an endless loop where it
/// refuses a fragment prefix. Only a campaign that runs conversations in
/// a worker process survives these, and counts each death as the
/// conversation's failure.
pub struct DyingEndpoint(pub Death, pub link::Endpoint);

impl DyingEndpoint {
    /// The fixture's name: `link-` and how it dies.
    #[must_use]
    pub const fn name(death: Death) -> &'static str {
        match death {
            Death::Abort => "link-aborts",
            Death::StackOverflow => "link-overflows-stack",
            Death::Hang => "link-hangs",
            Death::OutOfMemory => "link-runs-out-of-memory",
        }
    }
}

impl crate::scenario::Connection for DyingEndpoint {
    fn receive(
        &mut self,
        datagram: &[u8],
        deliver: &mut dyn FnMut(u16, &[u8]) -> bool,
    ) -> Result<(), &'static str> {
        let verdict = crate::scenario::Connection::receive(&mut self.1, datagram, deliver);
        match (self.0, verdict) {
            (Death::Abort, Err("reserved-bits")) => std::process::abort(),
            (Death::StackOverflow, Err("empty")) => {
                std::hint::black_box(recurse(0));
            }
            (Death::OutOfMemory, Err("too-short")) => {
                std::hint::black_box(vec![0u8; 1 << 46]);
            }
            (Death::Hang, Err("fragment-prefix")) => loop {
                std::hint::spin_loop();
                std::hint::black_box(datagram);
            },
            _ => {}
        }
        verdict
    }

    link_but_receive!(1);
}
