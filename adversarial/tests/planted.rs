//! Readers that check only part of a field, or skip a rule, planted around
//! the real "packets" reader: each is caught by the class aimed at that
//! field, because the class lies in every bit and every byte of it (or, for
//! the size rule, owes the exact error).

use adversarial::check;
use adversarial::mutate::Class;
use adversarial::oracle::Outcome;
use adversarial::target::{self, Framing, PacketTarget, Sample, Target, Verdict};
use arbitrary::Unstructured;
use codec::packet::{self, Packet, END_OF_PACKET};
use codec::protocols::packets::TestPacket;
use codec::stream::expect_end;
use codec::{check_hash, DecodeError, ReadStream};

adversarial::count_allocations!();

/// The bug a planted reader has.
#[derive(Clone, Copy)]
enum Bug {
    /// Compares only the low 16 bits of the CRC.
    LowCrcBits,
    /// Compares only the low 16 bits of the end-of-packet check.
    LowCheckBits,
    /// Has no size limit.
    NoSizeLimit,
}

struct Planted(Bug);

fn real() -> PacketTarget<TestPacket> {
    target::packet::<TestPacket>("packets")
}

fn crc_of(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[..4].try_into().unwrap())
}

/// The real reader's steps, with the planted bug in one of them.
fn decode_planted(bug: Bug, bytes: &[u8]) -> Result<TestPacket, DecodeError> {
    let mut bytes = bytes.to_vec();
    match bug {
        Bug::LowCrcBits if bytes.len() >= 4 => {
            let expected = TestPacket::PROTOCOL_ID.crc32(&bytes);
            if crc_of(&bytes) & 0xFFFF == expected & 0xFFFF {
                // Close enough: the planted reader takes it as correct.
                bytes[..4].copy_from_slice(&expected.to_le_bytes());
            }
        }
        Bug::LowCheckBits if bytes.len() >= 8 => {
            let end = bytes.len() - 4;
            let check = u32::from_le_bytes(bytes[end..].try_into().unwrap());
            let expected = check_hash(END_OF_PACKET);
            let crc_ok = crc_of(&bytes) == TestPacket::PROTOCOL_ID.crc32(&bytes);
            if crc_ok && check & 0xFFFF == expected & 0xFFFF {
                // Close enough: the planted reader reads on as if it matched.
                bytes[end..].copy_from_slice(&expected.to_le_bytes());
                let crc = TestPacket::PROTOCOL_ID.crc32(&bytes);
                bytes[..4].copy_from_slice(&crc.to_le_bytes());
            }
        }
        Bug::NoSizeLimit => {
            // Everything `packet::decode` does but the size rule.
            if bytes.len() < 4 || crc_of(&bytes) != TestPacket::PROTOCOL_ID.crc32(&bytes) {
                return Err(DecodeError::BadCrc {
                    found: 0,
                    expected: 0,
                });
            }
            let mut stream = ReadStream::new(&bytes);
            let value = packet::read_fields::<TestPacket, _>(&mut stream)?;
            expect_end(&mut stream)?;
            return Ok(value);
        }
        _ => {}
    }
    packet::decode::<TestPacket>(&bytes)
}

impl Target for Planted {
    fn name(&self) -> &'static str {
        match self.0 {
            Bug::LowCrcBits => "low-crc-bits",
            Bug::LowCheckBits => "low-check-bits",
            Bug::NoSizeLimit => "no-size-limit",
        }
    }

    fn about(&self) -> &'static str {
        "the packets reader with a planted bug"
    }

    fn framing(&self) -> Framing {
        real().framing()
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        real().generate(u)
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        match decode_planted(self.0, bytes) {
            Ok(mut value) => Verdict::Accepted {
                reencoded: packet::encode_to_vec(&mut value).map_err(|e| e.to_string()),
            },
            Err(error) => Verdict::Refused(error.into()),
        }
    }
}

/// Runs `classes` against the planted reader and returns the classes in
/// which it failed a case.
fn caught_in(bug: Bug, classes: &[Class]) -> Vec<(Class, Outcome)> {
    let report = check::campaign(vec![Box::new(Planted(bug))])
        .classes(classes)
        .cases(10_000)
        .report();
    report
        .failures
        .into_iter()
        .map(|f| (f.class, f.outcome))
        .collect()
}

#[test]
fn a_reader_comparing_half_the_crc_is_caught_by_bad_crc() {
    // Accepted: the re-encoding carries the right CRC, not the lie.
    let caught = caught_in(Bug::LowCrcBits, &[Class::BadCrc]);
    assert!(
        caught
            .iter()
            .any(|(c, o)| *c == Class::BadCrc && matches!(o, Outcome::NonCanonical(_))),
        "{caught:?}"
    );
}

#[test]
fn a_reader_comparing_half_the_end_check_is_caught_by_bad_check() {
    let caught = caught_in(Bug::LowCheckBits, &[Class::BadCheck]);
    assert!(
        caught.iter().any(|(c, _)| *c == Class::BadCheck),
        "{caught:?}"
    );
}

#[test]
fn a_reader_without_a_size_limit_is_caught_by_oversized_packet() {
    let caught = caught_in(Bug::NoSizeLimit, &[Class::OversizedPacket]);
    assert!(
        caught
            .iter()
            .any(|(c, o)| *c == Class::OversizedPacket && matches!(o, Outcome::OtherError(_))),
        "{caught:?}"
    );
}

#[test]
fn the_real_reader_passes_the_same_classes() {
    check::campaign(vec![Box::new(real())])
        .classes(&[Class::BadCrc, Class::BadCheck, Class::OversizedPacket])
        .cases(10_000)
        .run();
}
