//! The field map of a message as it is read (`Format::trace`, feature
//! `serde`): for honest messages of the example's types under every
//! adapter, the spans of the read are the spans of the write, leaf for
//! leaf; a refused read says where it stopped and in which field, and
//! keeps the type's own words where the format drops them.

use adversarial::formats::game::{Input, Snapshot};
use adversarial::formats::{
    field_map, Bincode1, Bincode1Varint, Bincode2, Bincode2Strict, Format, Postcard, PostcardStrict,
};
use arbitrary::{Arbitrary, Unstructured};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The read's spans are the write's, for `count` random values of `T`.
fn same_spans<T, F>(format: &F, count: usize) -> usize
where
    T: for<'a> Arbitrary<'a> + Serialize + DeserializeOwned,
    F: Format,
{
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut entropy = vec![0u8; 4096];
    let mut checked = 0;
    for _ in 0..count {
        rng.fill_bytes(&mut entropy);
        let Ok(value) = T::arbitrary(&mut Unstructured::new(&entropy)) else {
            continue;
        };
        let Ok((bytes, written)) = field_map(format, &value) else {
            continue;
        };
        let (read, trace) = format.trace::<T>(&bytes).expect("the adapter traces");
        assert!(read.is_ok(), "{}: {:?}", format.name(), read.err());
        // Compared as written out, so that a NaN equals itself.
        let shown = |spans: &[adversarial::formats::Span]| -> Vec<String> {
            spans.iter().map(|s| format!("{s:?}")).collect()
        };
        let (read, write) = (shown(&trace.spans), shown(&written));
        let first = read.iter().zip(&write).position(|(r, w)| r != w);
        assert!(
            first.is_none() && read.len() == write.len(),
            "{}: read {:?}, written {:?}",
            format.name(),
            first.and_then(|i| read.get(i)),
            first.and_then(|i| write.get(i))
        );
        assert_eq!(trace.taken, bytes.len(), "{}", format.name());
        checked += written.len();
    }
    checked
}

#[test]
fn an_honest_message_reads_as_it_was_written_under_every_adapter() {
    fn both<F: Format>(format: &F) {
        let leaves = same_spans::<Input, _>(format, 100) + same_spans::<Snapshot, _>(format, 100);
        assert!(leaves > 1000, "{}: {leaves} leaves", format.name());
    }
    both(&Postcard);
    both(&PostcardStrict);
    both(&Bincode1);
    both(&Bincode1Varint);
    both(&Bincode2);
    both(&Bincode2Strict);
}

#[test]
fn a_refused_read_says_where_it_stopped_in_the_types_own_words() {
    let input = Input::<0> {
        tick: 7,
        player: "kart9".into(),
        throttle: 100,
        ready: true,
        commands: Vec::new(),
        placing: None,
        aim: None,
        emote: None,
    };
    let mut bytes = PostcardStrict.to_bytes(&input).unwrap();
    // tick (1 byte), player (1 + 5), then the throttle.
    bytes[7] = 101;
    let (read, trace) = PostcardStrict.trace::<Input>(&bytes).unwrap();
    assert!(read.is_err());
    let (words, path, byte) = trace.error.expect("an error");
    assert!(words.contains("throttle"), "the game's own words: {words}");
    assert_eq!(path, "throttle");
    assert_eq!(byte, 8, "the throttle's byte was read");
    // The fields before it are mapped.
    let paths: Vec<&str> = trace.spans.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(&paths[..3], ["tick", "player", "player"]);
}
