//! The bodies of the fuzz targets, here where they are type-checked, unit
//! tested and runnable on stable (the bolero tests call them too). Each
//! panics when the promise breaks: that is how a fuzzer sees a failure.
//! Each also panics, on the first input, in a binary that does not count
//! allocations (`adversarial::count_allocations!()`), whose allocation
//! bound would otherwise hold trivially.

use crate::alloc::{peak_during, require_counting};
use crate::generate;
use crate::mutate;
use crate::oracle::{judge, Outcome};
use crate::target::{EndpointTarget, Target, Verdict};
use crate::targets;
use arbitrary::Unstructured;
use codec::{MeasureStream, ReadStream, Serialize, Stream, WriteStream};

/// The built-in targets, made once: a fuzz execution should not pay for
/// building them.
fn built_in() -> &'static [Box<dyn Target>] {
    static ALL: std::sync::OnceLock<Vec<Box<dyn Target>>> = std::sync::OnceLock::new();
    ALL.get_or_init(targets::all)
}

fn target(name: &str) -> Box<dyn Target> {
    targets::by_name(name).unwrap_or_else(|| panic!("no target {name}"))
}

/// Raw bytes into a target's reader: a refusal is fine; an accept must
/// re-encode to the same bytes; a panic is the crash.
pub fn read(target_name: &str, data: &[u8]) {
    read_target(target(target_name).as_ref(), data);
}

/// Raw bytes into `target`'s reader: a refusal is fine; an accept must
/// re-encode to the same bytes; a panic, or a read that allocates beyond
/// the bound for this many bytes (when the binary counts allocations), is
/// the crash. One line in a user's fuzz target:
///
/// ```ignore
/// fuzz_target!(|data: &[u8]| adversarial::fuzz::read_target(&my_game::target(), data));
/// ```
pub fn read_target(target: &dyn Target, data: &[u8]) {
    require_counting("adversarial::fuzz::read_target");
    let ((), peak) = peak_during(|| target.read_only(data));
    let bound = target.allocation_bound(data.len());
    assert!(
        peak <= bound,
        "{}: reading {} bytes allocated {peak} bytes at the peak (bound {bound})",
        target.name(),
        data.len()
    );
    match target.decode(data) {
        Verdict::Refused(_) => {}
        Verdict::Accepted {
            reencoded: Ok(again),
        } => {
            assert_eq!(again, data, "accepted input re-encodes to other bytes");
        }
        Verdict::Accepted {
            reencoded: Err(why),
        } => panic!("accepted input does not re-encode: {why}"),
    }
}

/// A valid packet of the target chosen by the first byte, generated from
/// the rest: it must be accepted and re-encode to its own bytes.
pub fn roundtrip_protocols(data: &[u8]) {
    require_counting("adversarial::fuzz::roundtrip_protocols");
    let all = built_in();
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Some(target) = all.get(usize::from(pick) % all.len()) {
        roundtrip_target(target.as_ref(), rest);
    }
}

/// Lists, strings and subsets a structure-aware target builds hold at most
/// this many items, unless the input's size byte is [`FULL_SIZE`]: a scene
/// of 16 objects reaches every path a scene of 1024 does but density, at a
/// sixtieth of the cost. A full-size input that reaches new code stays in
/// the fuzzer's corpus and is mutated like any other, so full-size samples
/// need not be common to be explored.
pub const SMALL_SAMPLE_ITEMS: u32 = 16;

/// The size byte that lets a sample grow to its declared maximum.
pub const FULL_SIZE: u8 = 0xFF;

/// Runs `generate` under the item cap `size` picks (see
/// [`SMALL_SAMPLE_ITEMS`]).
fn small<T>(size: u8, generate: impl FnOnce() -> T) -> T {
    let cap = if size == FULL_SIZE {
        codec::arbitrary::MAX_GENERATED_LEN
    } else {
        SMALL_SAMPLE_ITEMS
    };
    codec::arbitrary::with_length_cap(cap, generate)
}

/// A valid packet of `target`, generated from `data` (its first byte says
/// how large it may grow): it must be accepted and re-encode to its own
/// bytes.
pub fn roundtrip_target(target: &dyn Target, data: &[u8]) {
    require_counting("adversarial::fuzz::roundtrip_target");
    let Some((&size, rest)) = data.split_first() else {
        return;
    };
    let Ok(bytes) = small(size, || target.generate_bytes(&mut Unstructured::new(rest))) else {
        return;
    };
    match target.decode(&bytes) {
        Verdict::Accepted {
            reencoded: Ok(again),
        } => {
            assert_eq!(
                again,
                bytes,
                "{}: round trip changed the bytes",
                target.name()
            );
        }
        other => panic!("{}: valid sample not accepted: {other:?}", target.name()),
    }
}

/// A random stream program: written, read back equal, the same bytes again,
/// and measured at least as long as written.
pub fn roundtrip_stream_program(data: &[u8]) {
    require_counting("adversarial::fuzz::roundtrip_stream_program");
    let Ok(mut program) = generate::any_program(&mut Unstructured::new(data)) else {
        return;
    };
    let mut measure = MeasureStream::new();
    program
        .serialize(&mut measure)
        .expect("a valid program measures");
    let mut buf = vec![0u8; (measure.bits() / 8 + 1) as usize];
    let mut writer = WriteStream::new(&mut buf);
    program
        .serialize(&mut writer)
        .expect("a valid program writes");
    let written = writer.bit_offset();
    let len = writer.finish();
    assert!(
        measure.bits() >= written,
        "measure {} < written {written}",
        measure.bits()
    );
    let bytes = &buf[..len];
    let mut read = program.blank();
    let mut reader = ReadStream::new(bytes);
    read.serialize(&mut reader)
        .expect("a written program reads back");
    assert_eq!(
        reader.bit_offset(),
        written,
        "bits read differ from bits written"
    );
    assert_eq!(read, program, "read back a different program");
    let mut again = vec![0u8; buf.len()];
    let mut rewriter = WriteStream::new(&mut again);
    read.serialize(&mut rewriter).expect("rewrite");
    let len_again = rewriter.finish();
    assert_eq!(&again[..len_again], bytes, "re-encoding differs");
}

/// One case an execution: the first byte picks the target, the rest is as
/// [`mutate_target`] reads it.
pub fn mutate_protocols(data: &[u8]) {
    require_counting("adversarial::fuzz::mutate_protocols");
    let all = built_in();
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Some(target) = all.get(usize::from(pick) % all.len()) {
        mutate_target(target.as_ref(), rest);
    }
}

/// One case of `target` an execution, all of it picked by the input: its
/// first byte picks the class, the next two which of the class's cases, the
/// fourth how large the sample may grow (see [`SMALL_SAMPLE_ITEMS`]); the
/// rest builds the sample, then the lie. The case must get the verdict it is
/// owed. Only the picked case is built and judged, so an execution costs
/// one sample and one read, not a class's hundreds.
pub fn mutate_target(target: &dyn Target, data: &[u8]) {
    require_counting("adversarial::fuzz::mutate_target");
    let Some((&[class, pick_low, pick_high, size], rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let classes = target.classes();
    let Some(&class) = classes.get(usize::from(class) % classes.len().max(1)) else {
        return;
    };
    let pick = usize::from(u16::from_le_bytes([pick_low, pick_high]));
    let mut u = Unstructured::new(rest);
    let Ok(sample) = small(size, || target.generate(&mut u)) else {
        return;
    };
    let choices = u.take_rest();
    let framing = target.framing();
    let Some(case) = mutate::target_one_case(target, class, &sample, &framing, choices, pick)
    else {
        return;
    };
    let outcome = judge(target, &case);
    assert!(
        outcome == Outcome::AsOwed,
        "{} / {}: {} gave {outcome:?}, owed {:?}",
        target.name(),
        class.name(),
        case.lie,
        case.owed
    );
}

/// A script of steps over two `link` endpoints wired back to back (send a
/// packet of any size from either side; deliver, drop, duplicate or
/// corrupt a datagram in flight; inject bytes; let time pass), with the
/// connection layer's promises checked after every step
/// ([`crate::conversation`]).
pub fn link_conversation(data: &[u8]) {
    require_counting("adversarial::fuzz::link_conversation");
    crate::conversation::run(data);
}

/// Raw bytes as datagrams (a length byte, then that many bytes) into one
/// `link` endpoint with no honest peer: refusals counted once under their
/// cause, nothing delivered twice, no ack for a packet never sent,
/// allocations within the endpoint's bound ([`crate::conversation::run_raw`]).
pub fn link_datagrams(data: &[u8]) {
    require_counting("adversarial::fuzz::link_datagrams");
    crate::conversation::run_raw(data, &crate::conversation::endpoint);
}

/// Your endpoint against one conversation with a lie in it: the first
/// byte picks the lie across packets, the rest builds the honest
/// conversation around it ([`crate::scenario`]); panics, with what went
/// wrong, when a datagram does not get its owed verdict or a promise
/// breaks (delivery intact and once, counters, acks, memory):
///
/// ```ignore
/// // fuzz/fuzz_targets/endpoint.rs of a game's crate (built by cargo-fuzz)
/// #![no_main]
/// adversarial::count_allocations!();
///
/// libfuzzer_sys::fuzz_target!(|data: &[u8]| {
///     let config = adversarial::scenario::config();
///     let target = adversarial::target::endpoint("link", config, |config| {
///         link::Endpoint::new(config.clone(), 0.0).expect("a valid configuration")
///     });
///     adversarial::fuzz::endpoint(&target, data);
/// });
/// ```
pub fn endpoint(target: &dyn EndpointTarget, data: &[u8]) {
    require_counting("adversarial::fuzz::endpoint");
    let Some((&pick, entropy)) = data.split_first() else {
        return;
    };
    let classes = crate::scenario::StateClass::ALL;
    let Some(&class) = classes.get(usize::from(pick) % classes.len()) else {
        return;
    };
    if let Some((scenario, Err(failure))) =
        crate::scenario::campaign::attempt(target, class, entropy)
    {
        panic!(
            "{} / {}: {} at datagram {} of {}",
            target.name(),
            class.name(),
            failure.what,
            failure.step,
            scenario.datagrams.len()
        );
    }
}
