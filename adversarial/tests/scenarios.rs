//! Lies told across packets, against link's endpoint: every class, from
//! many seeds, gets the verdict it is owed at every datagram, with the
//! cause's counter moved by one, deliveries intact and once, allocations
//! within the bound, and the honest packets around the lie delivered.

use adversarial::alloc::allocated_during;
use adversarial::scenario::{config, run, scenario, Owed, StateClass};
use arbitrary::Unstructured;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

adversarial::count_allocations!();

#[test]
fn every_class_gets_its_owed_verdicts_from_the_link_endpoint() {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let mut entropy = vec![0u8; 8192];
    // The endpoint's own packets sent as fragments, over every class.
    let mut own_fragmented = 0;
    for class in StateClass::ALL {
        let (mut built, mut refusals) = (0, 0);
        for _ in 0..200 {
            rng.fill_bytes(&mut entropy);
            let Ok(scenario) = scenario(class, &config(), &mut Unstructured::new(&entropy)) else {
                continue;
            };
            let (endpoint, made) = allocated_during(|| link::Endpoint::new(config(), 0.0));
            let mut endpoint = endpoint.unwrap();
            if let Err(failure) = run(&mut endpoint, made.bytes, &scenario) {
                panic!("{}: {failure:?}", class.name());
            }
            built += 1;
            own_fragmented += scenario
                .own
                .lengths
                .iter()
                .filter(|len| usize::from(**len) > config().fragment_above)
                .count();
            refusals += scenario
                .datagrams
                .iter()
                .filter(|(_, owed)| matches!(owed, Owed::Refuse(_)))
                .count();
        }
        assert!(built >= 100, "{}: only {built} scenarios", class.name());
        // Each class but the three told inside accepted datagrams owes
        // refusals.
        let accepting = matches!(
            class,
            StateClass::ReassemblyBomb | StateClass::SequenceWrap | StateClass::AckForUnsent
        );
        assert_eq!(
            refusals == 0,
            accepting,
            "{}: {refusals} refusals owed",
            class.name()
        );
    }
    assert!(own_fragmented > 0, "no own packet went as fragments");
}

#[test]
fn the_campaign_tables_every_class_for_the_link_endpoint_alike_on_any_jobs() {
    let run = |jobs| {
        adversarial::check::endpoints(adversarial::targets::endpoints())
            .cases(400)
            .jobs(jobs)
            .run()
    };
    let (one, two) = (run(1), run(2));
    let rows = |report: &adversarial::campaign::Report| -> Vec<(String, &'static str, u64, u64)> {
        report
            .conversations
            .rows
            .iter()
            .map(|(t, c, tally)| (t.to_string(), c.name(), tally.cases, tally.as_owed))
            .collect()
    };
    assert_eq!(rows(&one), rows(&two));
    let classes: Vec<&str> = one
        .conversations
        .rows
        .iter()
        .map(|(_, c, _)| c.name())
        .collect();
    let all: Vec<&str> = StateClass::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(classes, all);
    for (target, class, tally) in &one.conversations.rows {
        assert_eq!(*target, "link");
        assert!(tally.cases >= 15, "{}: {} cases", class.name(), tally.cases);
        assert!(tally.clean(), "{}: {tally:?}", class.name());
    }
    let table = adversarial::report::campaign_table(&one, adversarial::report::Listed::Above);
    assert!(table.contains("link (conversations)"), "{table}");
    let total = one.conversations.cases();
    assert!(total > 360, "{total} conversations built of 400");
    assert!(
        table.contains(&format!("and {total} conversations in")),
        "{table}"
    );
}

#[test]
fn every_lie_is_built_without_a_call_into_the_read_path_it_attacks() {
    let config = adversarial::scenario::config();
    for class in StateClass::ALL {
        let mut built = 0;
        for seed in 0..40u8 {
            let entropy: Vec<u8> = (0..4096u32)
                .map(|i| (i as u8).wrapping_mul(31) ^ seed.wrapping_mul(97))
                .collect();
            let before = link::fault::reads();
            let made = adversarial::scenario::scenario(
                class,
                &config,
                &mut arbitrary::Unstructured::new(&entropy),
            );
            assert_eq!(link::fault::reads(), before, "{} read", class.name());
            built += usize::from(made.is_ok());
        }
        assert!(built > 0, "{} was never built", class.name());
    }
    // The count is real: a header read and a datagram received move it.
    let before = link::fault::reads();
    let _ = link::Header::read(&[0, 0, 0, 0]);
    let mut endpoint = link::Endpoint::new(config, 0.0).unwrap();
    let _ = endpoint.receive(&[0, 0, 0, 0], |_, _| true);
    assert!(link::fault::reads() >= before + 2);
}

/// Link's endpoint whose outgoing headers report one packet of the peer's
/// too few: the top bit of its ack bits is cleared as a whole packet's
/// header is written (written again, so the prefix matches).
struct DropsOldestAck(link::Endpoint);

impl adversarial::scenario::Connection for DropsOldestAck {
    fn receive(
        &mut self,
        datagram: &[u8],
        deliver: &mut dyn FnMut(u16, &[u8]) -> bool,
    ) -> Result<(), &'static str> {
        adversarial::scenario::Connection::receive(&mut self.0, datagram, deliver)
    }

    fn refused(&self, cause: &str) -> u64 {
        adversarial::scenario::Connection::refused(&self.0, cause)
    }

    fn take_acks(&mut self) -> Vec<u16> {
        adversarial::scenario::Connection::take_acks(&mut self.0)
    }

    fn memory_bound(&self) -> usize {
        self.0.memory_bound()
    }

    fn expect_peer_from(&mut self, sequence: u16) {
        self.0.expect_peer_from(sequence);
    }

    fn send_own(
        &mut self,
        first: u16,
        payload: &[u8],
        transmit: &mut dyn FnMut(&[u8]),
    ) -> Option<u16> {
        let (ack, ack_bits) = self.0.next_acks();
        adversarial::scenario::Connection::send_own(&mut self.0, first, payload, &mut |datagram| {
            // Fragments go as they are: the header judged is a whole packet's.
            if datagram[0] & 1 == 1 {
                transmit(datagram);
                return;
            }
            let header = link::Header {
                sequence: u16::from_le_bytes([datagram[1], datagram[2]]),
                ack,
                ack_bits,
            };
            let len = header.write(&mut [0; link::MAX_HEADER_BYTES]).unwrap();
            let wrong = link::Header {
                ack_bits: ack_bits & !(1 << 31),
                ..header
            };
            // On the stack: the campaign counts what the endpoint allocates.
            let mut out = [0u8; 1024];
            let wrong_len = wrong.write(&mut out).unwrap();
            let rest = &datagram[len..];
            out[wrong_len..wrong_len + rest.len()].copy_from_slice(rest);
            transmit(&out[..wrong_len + rest.len()]);
        })
    }
}

#[test]
fn an_own_header_that_drops_an_ack_of_the_peer_breaks_the_header_acks_promise() {
    let target = adversarial::target::endpoint("drops-oldest-ack", config(), |config| {
        DropsOldestAck(link::Endpoint::new(config.clone(), 0.0).unwrap())
    });
    let report = adversarial::check::endpoints(vec![Box::new(target)])
        .cases(2_000)
        .report();
    let failures = &report.conversations.failures;
    assert!(!failures.is_empty(), "the dropped ack went unseen");
    let kinds: Vec<_> = failures.iter().map(|kept| &kept.failure).collect();
    assert!(
        kinds
            .iter()
            .all(|failure| failure.kind == adversarial::scenario::Broken::HeaderAcks),
        "{kinds:?}"
    );
}
