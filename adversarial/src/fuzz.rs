//! The bodies of the fuzz targets, here where they are type-checked, unit
//! tested and runnable on stable (the bolero tests call them too). Each
//! panics when the promise breaks: that is how a fuzzer sees a failure.

use crate::alloc::peak_during;
use crate::generate;
use crate::mutate::{self, Class};
use crate::oracle::{allocation_bound, judge, Outcome};
use crate::target::{Target, Verdict};
use crate::targets;
use arbitrary::Unstructured;
use codec::{MeasureStream, ReadStream, Serialize, Stream, WriteStream};

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
    let ((), peak) = peak_during(|| target.read_only(data));
    let bound = allocation_bound(data.len());
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
    let all = targets::all();
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Some(target) = all.get(usize::from(pick) % all.len()) {
        roundtrip_target(target.as_ref(), rest);
    }
}

/// A valid packet of `target`, generated from `data`: it must be accepted
/// and re-encode to its own bytes.
pub fn roundtrip_target(target: &dyn Target, data: &[u8]) {
    let Ok(sample) = target.generate(&mut Unstructured::new(data)) else {
        return;
    };
    match target.decode(&sample.bytes) {
        Verdict::Accepted {
            reencoded: Ok(again),
        } => {
            assert_eq!(
                again,
                sample.bytes,
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

/// A valid packet of the target chosen by the first byte, and a mutation
/// class chosen by the second: every case must get the verdict it is owed.
pub fn mutate_protocols(data: &[u8]) {
    let all = targets::all();
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Some(target) = all.get(usize::from(pick) % all.len()) {
        mutate_target(target.as_ref(), rest);
    }
}

/// A valid packet of `target`, and a mutation class chosen by the first
/// byte: every case must get the verdict it is owed.
pub fn mutate_target(target: &dyn Target, data: &[u8]) {
    let Some((&pick_class, rest)) = data.split_first() else {
        return;
    };
    let class = Class::ALL[usize::from(pick_class) % Class::ALL.len()];
    let mut u = Unstructured::new(rest);
    let Ok(sample) = target.generate(&mut u) else {
        return;
    };
    for case in mutate::cases(class, &sample, &target.framing(), &mut u) {
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
}
