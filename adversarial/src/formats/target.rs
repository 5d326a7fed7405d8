//! A serde type under a format adapter as a [`Target`]: valid values from
//! `Arbitrary` (or the generator given), written by the real format crate,
//! mapped field by field ([`field_map`]), and attacked with the serde
//! classes ([`Class::SERDE`]), each owed what the format's contract or the
//! target's [`Policy`] says.

use super::maps::{maps, same_up_to_order};
use super::{field_map, lies_of, Format, MapOrder, Owed, Policy, Seen, Span};
use crate::alloc::peak_during;
use crate::case::{Case, Class, Failing};
use crate::field_map::FieldMap;
use crate::target::{Framing, Inspection, Refusal, Sample, Target, Verdict};
use arbitrary::{Arbitrary, Unstructured};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::any::TypeId;
use std::cell::RefCell;
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::OnceLock;

/// Builds a valid value from fuzzer bytes.
pub type Generator<T> = fn(&mut Unstructured<'_>) -> arbitrary::Result<T>;

/// A serde type `T` read and written by format `F`; see [`target`].
pub struct SerdeTarget<T, F> {
    name: &'static str,
    about: &'static str,
    format: F,
    policy: Policy,
    generator: Generator<T>,
    seen: OnceLock<Seen>,
    unmade: std::sync::Mutex<Option<String>>,
    _type: PhantomData<fn() -> T>,
}

/// Honest messages generated once per target to learn the range of each
/// integer field ([`Seen`]), and the randomness behind each.
const LEARNING_SAMPLES: u64 = 64;
const LEARNING_ENTROPY: usize = 4096;

/// A target for the serde type `T` under `format`, its values from
/// `Arbitrary`, with the default [`Policy`] (trailing bytes and over-long
/// varints refused):
///
/// ```
/// # #[derive(serde::Serialize, serde::Deserialize, arbitrary::Arbitrary)]
/// # struct Input { tick: u32, keys: Vec<u8> }
/// use adversarial::formats::{target, PostcardStrict};
/// let input = target::<Input, _>("input", PostcardStrict);
/// ```
#[must_use]
pub fn target<T, F>(name: &'static str, format: F) -> SerdeTarget<T, F>
where
    T: for<'a> Arbitrary<'a> + Serialize + DeserializeOwned + 'static,
    F: Format + Send + Sync + 'static,
{
    SerdeTarget {
        name,
        about: "a serde type under a binary format",
        format,
        policy: Policy::default(),
        generator: |u| T::arbitrary(u),
        seen: OnceLock::new(),
        unmade: std::sync::Mutex::new(None),
        _type: PhantomData,
    }
}

impl<T, F> SerdeTarget<T, F> {
    /// Its one line in `adversarial targets`.
    #[must_use]
    pub const fn about(mut self, about: &'static str) -> Self {
        self.about = about;
        self
    }

    /// What it declares where the format leaves the verdict open.
    #[must_use]
    pub const fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Valid values from this generator instead of `Arbitrary`.
    #[must_use]
    pub const fn generator(mut self, generator: Generator<T>) -> Self {
        self.generator = generator;
        self
    }
}

/// What serde's own maps do with entries out of order.
const KEYS_RESORTED: &str = "serde's BTreeMap and HashMap take a map's entries in any order and \
keep them in their own (a BTreeMap re-sorts them), by design, and so does a reader that compares \
the re-encoding entry for entry: under MapOrder::Sorted, read the map with a `deserialize_with` \
that refuses a key not above the one before (as the example's scores are read)";

/// Why `format` could not write a value, in its words and, where they
/// say a length was not known up front, what in a type does that.
fn unwritable(format: &str, why: &str) -> String {
    let lower = why.to_lowercase();
    let no_length = ["length", "size"].iter().any(|w| lower.contains(w))
        && ["known", "knowable", "must have"]
            .iter()
            .any(|w| lower.contains(w));
    if no_length {
        format!(
            "{format}: {why}; a `#[serde(flatten)]` field, an `untagged` or internally tagged \
             enum, or a map or sequence written without its length: these formats need every \
             length up front, and read such types only through `deserialize_any`, which they \
             refuse"
        )
    } else {
        format!("{format}: {why}")
    }
}

/// The field map of the last message mapped on this thread, by target
/// and bytes: a sample is mapped once, when generated, for all its classes.
struct Mapped {
    key: (TypeId, &'static str),
    bytes: Vec<u8>,
    spans: Rc<Vec<Span>>,
}

thread_local! {
    static LAST: RefCell<Option<Mapped>> = const { RefCell::new(None) };
}

impl<T, F> SerdeTarget<T, F>
where
    T: Serialize + DeserializeOwned + 'static,
    F: Format,
{
    fn key(&self) -> (TypeId, &'static str) {
        (TypeId::of::<T>(), self.name)
    }

    fn remember(&self, bytes: &[u8], spans: Rc<Vec<Span>>) {
        LAST.with(|last| {
            *last.borrow_mut() = Some(Mapped {
                key: self.key(),
                bytes: bytes.to_vec(),
                spans,
            });
        });
    }

    /// The field map of the valid message `bytes`: remembered from its
    /// generation, else read and mapped again.
    fn spans(&self, bytes: &[u8]) -> Option<Rc<Vec<Span>>> {
        let remembered = LAST.with(|last| {
            last.borrow()
                .as_ref()
                .filter(|m| m.key == self.key() && m.bytes == bytes)
                .map(|m| Rc::clone(&m.spans))
        });
        if remembered.is_some() {
            return remembered;
        }
        let value: T = self.format.decode(bytes).ok()?;
        let (again, spans) = field_map(&self.format, &value).ok()?;
        (again == bytes).then(|| {
            let spans = Rc::new(spans);
            self.remember(bytes, Rc::clone(&spans));
            spans
        })
    }

    /// The ranges honest messages hold, learned from
    /// [`LEARNING_SAMPLES`] values of the generator from a fixed seed.
    fn seen(&self) -> &Seen {
        self.seen.get_or_init(|| {
            use rand::{RngCore, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5EE7);
            let mut entropy = vec![0u8; LEARNING_ENTROPY];
            let mut seen = Seen::default();
            for _ in 0..LEARNING_SAMPLES {
                rng.fill_bytes(&mut entropy);
                let value = (self.generator)(&mut Unstructured::new(&entropy));
                if let Ok((_, spans)) = value.and_then(|v| {
                    field_map(&self.format, &v).map_err(|_| arbitrary::Error::IncorrectFormat)
                }) {
                    seen.learn(&spans);
                }
            }
            seen
        })
    }

    /// The verdict on what a read of `bytes` gave: the value written again
    /// (unless the read wrote it), or the refusal.
    fn verdict(&self, bytes: &[u8], read: Result<(T, Option<Vec<u8>>), String>) -> Verdict {
        match read {
            Ok((value, again)) => Verdict::Accepted {
                reencoded: again
                    .map_or_else(|| self.format.to_bytes(&value), Ok)
                    .map(|again| self.as_read(bytes, again, &value)),
            },
            Err(message) => Verdict::Refused(Refusal {
                cause: "refused".into(),
                at: None,
                message,
            }),
        }
    }

    /// The re-encoding `again` of the value read from `bytes`, as the
    /// policy counts it: `bytes` themselves when the two differ only in the
    /// order of a map's entries and that order does not count.
    fn as_read(&self, bytes: &[u8], again: Vec<u8>, value: &T) -> Vec<u8> {
        if again == bytes || again.len() != bytes.len() || self.policy.map_order != MapOrder::Any {
            return again;
        }
        match field_map(&self.format, value) {
            Ok((written, spans)) if same_up_to_order(bytes, &written, &maps(&spans)) => {
                bytes.to_vec()
            }
            _ => again,
        }
    }

    /// What a lie's verdict is, in the oracle's terms, for `honest`, the
    /// lie's bytes being `told`.
    fn owed(owed: Owed, honest: &[u8], told: &[u8]) -> crate::case::Owed {
        match owed {
            Owed::Refused => crate::case::Owed::AnyRefusal,
            Owed::AcceptedAsBefore => crate::case::Owed::AcceptAs(honest.to_vec()),
            Owed::AcceptedAsRead => crate::case::Owed::AcceptAs(told.to_vec()),
            Owed::Canonical => crate::case::Owed::Anything,
            Owed::Unharmed => crate::case::Owed::Unharmed,
        }
    }

    /// Whether the policy takes a value in more than one encoding.
    const fn permissive(&self) -> bool {
        !(self.policy.refuse_trailing_bytes && self.policy.canonical)
    }
}

impl<T, F> Target for SerdeTarget<T, F>
where
    T: Serialize + DeserializeOwned + 'static,
    F: Format + Send + Sync + 'static,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn about(&self) -> &'static str {
        self.about
    }

    fn framing(&self) -> Framing {
        Framing {
            refuses_trailing_bytes: self.policy.refuse_trailing_bytes,
            ..Framing::default()
        }
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        let value = (self.generator)(u)?;
        let (bytes, spans) = field_map(&self.format, &value).map_err(|why| {
            if let Ok(mut first) = self.unmade.lock() {
                first.get_or_insert_with(|| unwritable(self.format.name(), &why));
            }
            arbitrary::Error::IncorrectFormat
        })?;
        self.remember(&bytes, Rc::new(spans));
        Ok(Sample {
            bytes,
            map: FieldMap::default(),
        })
    }

    fn generate_bytes(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u8>> {
        let value = (self.generator)(u)?;
        self.format
            .to_bytes(&value)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        self.verdict(bytes, self.format.read::<T>(bytes))
    }

    fn read_and_decode(&self, bytes: &[u8]) -> Option<(usize, Verdict)> {
        let (read, peak) = peak_during(|| self.format.read::<T>(bytes));
        Some((peak, self.verdict(bytes, read)))
    }

    fn read_only(&self, bytes: &[u8]) {
        let _ = self.format.decode::<T>(bytes);
    }

    fn decode_value(&self, bytes: &[u8]) -> Option<serde_json::Value> {
        let value: T = self.format.decode(bytes).ok()?;
        serde_json::to_value(&value).ok()
    }

    fn encode_value(&self, value: &serde_json::Value) -> Option<Result<Vec<u8>, String>> {
        let value = serde_json::from_value::<T>(value.clone()).map_err(|e| e.to_string());
        Some(value.and_then(|value| self.format.to_bytes(&value)))
    }

    /// The field map of `bytes` as they were read (up to where a refused
    /// read stopped, which the refusal then names with the type's own
    /// words), when the format traces its reads; else of the value's
    /// re-encoding, for an accepted message.
    fn inspect(&self, bytes: &[u8]) -> Inspection {
        let mut verdict = self.decode(bytes);
        let listed = match self.format.trace::<T>(bytes) {
            Some((_, trace)) => {
                if let (Verdict::Refused(refusal), Some((words, path, byte))) =
                    (&mut verdict, &trace.error)
                {
                    if *words != refusal.message {
                        refusal.message = format!("{}: {words}", refusal.message);
                    }
                    let place = if path.is_empty() {
                        format!("byte {byte}")
                    } else {
                        format!("{path}, byte {byte}")
                    };
                    refusal.message = format!("{} (stopped in {place})", refusal.message);
                    refusal.at = u64::try_from(*byte).ok().map(|b| b.saturating_mul(8));
                }
                trace.spans.iter().map(Span::listed).collect()
            }
            None => match (&verdict, self.format.decode::<T>(bytes)) {
                (Verdict::Accepted { .. }, Ok(value)) => field_map(&self.format, &value)
                    .map(|(_, spans)| spans.iter().map(Span::listed).collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            },
        };
        Inspection {
            map: FieldMap::default(),
            failed_in: None,
            packet_type: None,
            verdict,
            shown: None,
            listed,
        }
    }

    fn classes(&self) -> &'static [Class] {
        &Class::SERDE
    }

    fn unmade_why(&self) -> Option<String> {
        self.unmade.lock().ok()?.clone()
    }

    fn allocation_bound(&self, len: usize) -> usize {
        self.policy.allocation_bound(len)
    }

    fn known_cause(&self, class: Class) -> Option<&'static str> {
        match class {
            Class::KeysOutOfOrder => Some(KEYS_RESORTED),
            _ => self.format.known_cause(class),
        }
    }

    /// A known cause explains a failure the format's allowances can make:
    /// an accept whose input is longer than the value's own encoding
    /// (bytes after it, an over-long varint, a key given twice), an
    /// allocation, another refusal. An input read as a value that writes
    /// as many bytes or more (a value clamped, a tag mapped to another)
    /// is the reader's own, as is an accept owed a refusal.
    fn explains(
        &self,
        class: Class,
        bytes: &[u8],
        failing: Failing,
        detail: &str,
    ) -> Option<&'static str> {
        if matches!(
            failing,
            Failing::Panicked | Failing::Aborted | Failing::OutOfMemory
        ) {
            return self.format.known_crash(class, detail);
        }
        let why = self.known_cause(class)?;
        match failing {
            // Entries swapped read as the map they were: serde's, re-sorted.
            Failing::NonCanonical if class == Class::KeysOutOfOrder => Some(why),
            Failing::NonCanonical => match self.decode(bytes) {
                Verdict::Accepted {
                    reencoded: Ok(again),
                } if again.len() < bytes.len() => Some(why),
                _ => None,
            },
            Failing::OverAllocated | Failing::OtherError => Some(why),
            _ => None,
        }
    }

    fn own_cases(
        &self,
        class: Class,
        sample: &Sample,
        u: &mut Unstructured<'_>,
    ) -> Option<Vec<Case>> {
        let honest = &sample.bytes;
        let mut cases = match class {
            // Whole-message classes, as for any codec: the honest message,
            // and bit flips.
            Class::Valid | Class::BitFlip => {
                crate::mutate::cases(class, sample, &self.framing(), u)
            }
            _ => {
                let spans = self.spans(honest)?;
                let seen = self.seen();
                lies_of(&self.format, self.policy, honest, &spans, seen, |c| {
                    c == class
                })
                .into_iter()
                .map(|lie| Case {
                    class,
                    owed: Self::owed(lie.owed, honest, &lie.bytes),
                    lie: if lie.path.is_empty() {
                        class.name().to_string()
                    } else {
                        format!("{} in {}", class.name(), lie.path)
                    },
                    bytes: lie.bytes,
                })
                .collect()
            }
        };
        if self.permissive() {
            for case in &mut cases {
                if case.owed == crate::case::Owed::Anything {
                    case.owed = crate::case::Owed::Unharmed;
                }
            }
        }
        Some(cases)
    }
}
