//! Serde types over the binary formats Rust games ship (feature `serde`):
//! postcard 1, bincode 1.3 and bincode 2. A [`Format`] writes a value with
//! the real format crate; [`field_map`] watches it write and maps every
//! byte to the value that wrote it ([`span`]), so that a lie can be told in
//! one field of a real encoding.

mod adapters;
mod baseline;
pub mod game;
pub mod lies;
pub mod maps;
mod nesting;
pub mod sorted;
pub mod span;
mod target;
pub mod trace;
pub mod varint;

pub use adapters::{
    Bincode1, Bincode1Varint, Bincode1VarintLimited, Bincode2, Bincode2Limited, Bincode2Strict,
    Postcard, PostcardCanonical, PostcardStrict, LIMIT,
};
pub use baseline::{baseline, Baseline};
pub use lies::{lies, lies_of, Lie, MapOrder, Owed, Policy, Seen};
pub use sorted::{sorted, Content};
pub use span::{field_map, Leaf, Role, Span};
pub use target::{target, Generator, SerdeTarget};

use crate::target::Target;

/// Targets, boxed.
type Targets = Vec<Box<dyn Target>>;

/// The example's messages with the bug `fault` planted, read with
/// postcard's `take_from_bytes` and nothing left (postcard-strict: it does
/// not write a value back, so it cannot refuse what its writer would not
/// write, as postcard-canonical does, and hide the bug), named
/// `input-<fault>` and `snapshot-<fault>`; and the same as byte-level
/// baselines (`plain-input-<fault>`, `plain-snapshot-<fault>`).
#[cfg(feature = "faults")]
#[must_use]
pub fn planted_targets(fault: game::Fault) -> (Targets, Targets) {
    use game::Fault;
    macro_rules! planted {
        ($($fault:ident: $input:literal, $snapshot:literal;)*) => {
            match fault {
                $(Fault::$fault => {
                    const ID: u8 = Fault::$fault.id();
                    (
                        vec![
                            Box::new(target::<game::Input<ID>, _>($input, PostcardStrict).policy(game::policy()))
                                as Box<dyn Target>,
                            Box::new(target::<game::Snapshot<ID>, _>($snapshot, PostcardStrict).policy(game::policy())),
                        ],
                        vec![
                            Box::new(baseline::<game::Input<ID>, _>(
                                concat!("plain-", $input),
                                PostcardStrict,
                            )) as Box<dyn Target>,
                            Box::new(baseline::<game::Snapshot<ID>, _>(
                                concat!("plain-", $snapshot),
                                PostcardStrict,
                            )),
                        ],
                    )
                })*
            }
        };
    }
    planted! {
        ThrottleOffByOne: "input-throttle-off-by-one", "snapshot-throttle-off-by-one";
        InventoryAllocatedFirst: "input-inventory-allocated-first", "snapshot-inventory-allocated-first";
        UnknownKindIsPlayer: "input-unknown-kind-is-player", "snapshot-unknown-kind-is-player";
        NameUsedUnchecked: "input-name-used-unchecked", "snapshot-name-used-unchecked";
        UnlimitedNesting: "input-unlimited-nesting", "snapshot-unlimited-nesting";
    }
}

/// The example's messages as byte-level baselines ([`baseline`]) under
/// every adapter, named `plain-<message>-<adapter>`: what `PlainCodec`
/// reaches without a field map, beside the serde targets.
#[must_use]
pub fn game_baselines() -> Targets {
    macro_rules! both {
        ($($adapter:ident: $input:literal, $snapshot:literal;)*) => {
            vec![$(
                Box::new(baseline::<game::Input, _>($input, $adapter)) as Box<dyn Target>,
                Box::new(baseline::<game::Snapshot, _>($snapshot, $adapter)),
            )*]
        };
    }
    both! {
        Postcard: "plain-input-postcard", "plain-snapshot-postcard";
        PostcardStrict: "plain-input-postcard-strict", "plain-snapshot-postcard-strict";
        PostcardCanonical: "plain-input-postcard-canonical", "plain-snapshot-postcard-canonical";
        Bincode1: "plain-input-bincode1", "plain-snapshot-bincode1";
        Bincode1Varint: "plain-input-bincode1-varint", "plain-snapshot-bincode1-varint";
        Bincode1VarintLimited: "plain-input-bincode1-varint-limited", "plain-snapshot-bincode1-varint-limited";
        Bincode2: "plain-input-bincode2", "plain-snapshot-bincode2";
        Bincode2Limited: "plain-input-bincode2-limited", "plain-snapshot-bincode2-limited";
        Bincode2Strict: "plain-input-bincode2-strict", "plain-snapshot-bincode2-strict";
    }
}

/// The example's serde targets: [`game::Input`] and [`game::Snapshot`]
/// under every adapter, with the game's [`Policy`] ([`game::policy`]).
#[must_use]
pub fn game_targets() -> Targets {
    macro_rules! both {
        ($($adapter:ident: $input:literal, $snapshot:literal;)*) => {
            vec![$(
                Box::new(
                    target::<game::Input, _>($input, $adapter)
                        .policy(game::policy())
                        .about(concat!("the example's serde Input, under ", stringify!($adapter))),
                ) as Box<dyn Target>,
                Box::new(
                    target::<game::Snapshot, _>($snapshot, $adapter)
                        .policy(game::policy())
                        .about(concat!("the example's serde Snapshot, under ", stringify!($adapter))),
                ),
            )*]
        };
    }
    both! {
        Postcard: "input-postcard", "snapshot-postcard";
        PostcardStrict: "input-postcard-strict", "snapshot-postcard-strict";
        PostcardCanonical: "input-postcard-canonical", "snapshot-postcard-canonical";
        Bincode1: "input-bincode1", "snapshot-bincode1";
        Bincode1Varint: "input-bincode1-varint", "snapshot-bincode1-varint";
        Bincode1VarintLimited: "input-bincode1-varint-limited", "snapshot-bincode1-varint-limited";
        Bincode2: "input-bincode2", "snapshot-bincode2";
        Bincode2Limited: "input-bincode2-limited", "snapshot-bincode2-limited";
        Bincode2Strict: "input-bincode2-strict", "snapshot-bincode2-strict";
    }
}
pub use varint::Varint;

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;

/// A binary serde format as a game uses it: how it writes a value, and
/// the call (with its options) that reads one.
pub trait Format {
    /// Its name in tables, e.g. `postcard`.
    fn name(&self) -> &'static str;

    /// Writes `value` into `tape` through the format crate, byte by byte
    /// as it goes (the field map watches the tape's length), in the order
    /// the value makes its calls: [`field_map`] hands it a value whose maps
    /// are [`sorted()`] already.
    ///
    /// # Errors
    ///
    /// The format's own error, in words.
    fn encode<T: Serialize + ?Sized>(&self, value: &T, tape: &mut Tape) -> Result<(), String>;

    /// Reads a value from `bytes` as the game's call does, with whatever
    /// that call lets through by design (trailing bytes, lengths unlimited).
    ///
    /// # Errors
    ///
    /// The refusal, in the format's words.
    fn decode<T: Serialize + DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, String>;

    /// Reads a value as [`Format::decode`] does, with the bytes the value
    /// writes when the read wrote them (a reader that checks a message
    /// against the value's own encoding): what the oracle measures, so
    /// that such a value is not written twice.
    ///
    /// # Errors
    ///
    /// The refusal, in the format's words.
    fn read<T: Serialize + DeserializeOwned>(
        &self,
        bytes: &[u8],
    ) -> Result<(T, Option<Vec<u8>>), String> {
        self.decode(bytes).map(|value| (value, None))
    }

    /// Whether its call takes a message with bytes after it, by design.
    fn accepts_trailing_bytes(&self) -> bool;

    /// Reads `bytes` as its call does, through a reader that counts the
    /// bytes it takes ([`trace::took`]), with the value wrapped in
    /// [`trace::Traced`], inside [`trace::traced`]: the field map of the
    /// bytes as read, where a refused read stopped, and the type's own
    /// error words. `None` (the default) when the format cannot count.
    fn trace<T: Serialize + DeserializeOwned>(
        &self,
        _bytes: &[u8],
    ) -> Option<(Result<T, String>, trace::Trace)> {
        None
    }

    /// How it writes integers wider than a byte, lengths and variant
    /// indices: `None` when at fixed width.
    fn varint(&self) -> Option<Varint>;

    /// Why its call lets the lies of `class` through, when that is known
    /// (its design, a known bug), and which call or configuration refuses
    /// them: printed under a failing row of the campaign's table.
    fn known_cause(&self, _class: crate::case::Class) -> Option<&'static str> {
        None
    }

    /// Why its call crashes on lies of `class` (a panic, a death: their
    /// words are `detail`), when that is the call's own known behaviour
    /// (a known bug) and not the type's: a crash is the reader's own
    /// unless this says otherwise.
    fn known_crash(&self, _class: crate::case::Class, _detail: &str) -> Option<&'static str> {
        None
    }

    /// `value` as the format writes it, each map's entries in key order
    /// ([`sorted()`]): the one encoding the harness holds a message to.
    ///
    /// # Errors
    ///
    /// The format's own error, in words.
    fn to_bytes<T: Serialize + ?Sized>(&self, value: &T) -> Result<Vec<u8>, String> {
        crate::alloc::aside(|| {
            let mut tape = Tape::default();
            self.encode(&sorted(value)?, &mut tape)?;
            Ok(tape.bytes())
        })
    }
}

/// The bytes a format has written so far, shared with the field map that
/// watches their count.
#[derive(Clone, Debug, Default)]
pub struct Tape(Rc<RefCell<Vec<u8>>>);

impl Tape {
    /// How many bytes were written.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.borrow().len()
    }

    /// Whether none were.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A copy of the bytes written.
    #[must_use]
    pub fn bytes(&self) -> Vec<u8> {
        self.0.borrow().clone()
    }
}

impl std::io::Write for Tape {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
