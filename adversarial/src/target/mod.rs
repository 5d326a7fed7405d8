//! The plug-in point: what a decoder must offer to be attacked.
//!
//! A [`Target`] turns bytes into a [`Verdict`], re-encodes what it accepts,
//! and builds valid samples from `arbitrary` bytes. Targets that can also
//! map their fields (every target of this crate) unlock the mutation classes
//! that lie in one field; any other codec still gets truncation, trailing
//! bytes and bit flips. `docs/HARNESS.md` shows how to plug one in, with
//! [`crate::plain::PlainCodec`] doing most of the work.

pub mod endpoint;
pub mod protocol;

pub use endpoint::{endpoint, EndpointTarget};
pub use protocol::{message, packet, save, MessageTarget, PacketTarget};

use crate::case::{Case, Class, Failing};
use crate::field_map::FieldMap;
use arbitrary::Unstructured;
use codec::packet::ProtocolId;
use codec::DecodeError;

/// A valid packet, as bytes, with the map of its fields (empty when the
/// target cannot map them).
#[derive(Clone, Debug, Default)]
pub struct Sample {
    /// The packet.
    pub bytes: Vec<u8>,
    /// Where each field lies.
    pub map: FieldMap,
}

/// Why a decoder refused its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// A stable name of the cause (`codec::DecodeError::cause` for ours).
    pub cause: String,
    /// The bit offset of the refusal: always given by this codec (bit 0
    /// for a packet's size and CRC); `None` only from a foreign decoder that
    /// does not say.
    pub at: Option<u64>,
    /// The decoder's own words.
    pub message: String,
}

impl From<DecodeError> for Refusal {
    fn from(error: DecodeError) -> Self {
        // Every refusal of this codec has an offset: the rules on the whole
        // packet (its size, its CRC) are refused at bit 0, where the CRC
        // field starts.
        Self {
            cause: error.cause().to_string(),
            at: Some(error.bit_offset()),
            message: error.to_string(),
        }
    }
}

/// What a decoder made of some bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Decoded; `reencoded` is what the value encodes to (or why it could
    /// not be encoded).
    Accepted {
        /// The re-encoding of the decoded value.
        reencoded: Result<Vec<u8>, String>,
    },
    /// Refused.
    Refused(Refusal),
}

/// A read through a recording stream: the fields up to the end or the
/// failure, and the verdict.
#[derive(Clone, Debug)]
pub struct Inspection {
    /// Fields read before the end or the failure.
    pub map: FieldMap,
    /// The field being read when the reader refused, if it did.
    pub failed_in: Option<&'static str>,
    /// The packet type's name, when the reader got that far.
    pub packet_type: Option<String>,
    /// The same verdict [`Target::decode`] gives.
    pub verdict: Verdict,
    /// The decoded value, for people, when accepted.
    pub shown: Option<String>,
    /// The fields of a foreign encoding that has no [`FieldMap`] (a serde
    /// format's): printed by `inspect` in its place.
    pub listed: Vec<ListedField>,
}

/// One field of a foreign encoding, as `inspect` prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedField {
    /// Its first bit.
    pub offset: u64,
    /// Its width in bits.
    pub width: u64,
    /// Where in the value, e.g. `commands[3].Jump.height`.
    pub path: String,
    /// What its bits are, e.g. `seq-length` or `int u16`.
    pub role: String,
    /// Its value, for people.
    pub value: String,
}

/// Facts about a target's framing that some mutation classes need.
#[derive(Clone, Copy, Debug, Default)]
pub struct Framing {
    /// The protocol id of a CRC-framed packet: mutations refresh the CRC so
    /// that they reach the fields behind it.
    pub crc: Option<ProtocolId>,
    /// How many packet types there are, when a type field is sent.
    pub packet_types: Option<u32>,
    /// The newest version a versioned save's reader knows.
    pub latest_version: Option<u32>,
    /// Whether the reader refuses bytes after the value.
    pub refuses_trailing_bytes: bool,
    /// The most bytes a packet may take, when the protocol says.
    pub max_bytes: Option<usize>,
}

impl Framing {
    /// Makes a mutated packet's CRC match its bytes again, so the mutation
    /// is judged by the rule it breaks rather than by the CRC.
    pub fn seal(&self, bytes: &mut [u8]) {
        if let Some(id) = self.crc {
            let crc = id.crc32(bytes);
            if let Some(field) = bytes.first_chunk_mut::<4>() {
                *field = crc.to_le_bytes();
            }
        }
    }
}

/// A decoder under attack.
pub trait Target: Send + Sync {
    /// A short name: used on the command line and as the corpus directory.
    fn name(&self) -> &'static str;

    /// One line on what it decodes.
    fn about(&self) -> &'static str;

    /// Facts about its framing.
    fn framing(&self) -> Framing {
        Framing::default()
    }

    /// A valid packet built from `u`, with its field map when available.
    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample>;

    /// A valid packet built from `u`, as [`Target::generate`] builds it,
    /// without its field map: for a fuzz target that only round-trips it,
    /// and should not pay for mapping every field. Defaults to
    /// `generate`'s bytes.
    fn generate_bytes(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u8>> {
        self.generate(u).map(|sample| sample.bytes)
    }

    /// Decodes `bytes`, and re-encodes what it accepts.
    fn decode(&self, bytes: &[u8]) -> Verdict;

    /// The classes its cases come in: a `codec` protocol's
    /// ([`Class::CODEC`]) unless it tells its own lies.
    fn classes(&self) -> &'static [Class] {
        &Class::CODEC
    }

    /// Why this target's reader lets the lies of `class` through, when that
    /// is known (its format's design, a known bug), and which call or
    /// configuration refuses them: printed under a failing row of the
    /// campaign's table.
    fn known_cause(&self, _class: Class) -> Option<&'static str> {
        None
    }

    /// Why a draw of its generator made no sample, when it knows: the
    /// writer's own words for the first value that did not encode.
    fn unmade_why(&self) -> Option<String> {
        None
    }

    /// The known cause ([`Target::known_cause`]) of one failure of
    /// `class` on `bytes`, of kind `failing` (its words `detail`), when it
    /// explains that failure: what the format takes by design makes a
    /// reader accept, re-encode otherwise, refuse otherwise or allocate;
    /// a panic, a death or a hang is the reader's own unless the target
    /// knows it for its format's (a known bug, by its words).
    fn explains(
        &self,
        class: Class,
        _bytes: &[u8],
        failing: Failing,
        _detail: &str,
    ) -> Option<&'static str> {
        let format_made = matches!(
            failing,
            Failing::Accepted
                | Failing::NonCanonical
                | Failing::OtherError
                | Failing::OverAllocated
        );
        self.known_cause(class).filter(|_| format_made)
    }

    /// The most a read of `len` bytes may allocate at its peak: the
    /// default [`crate::alloc::allocation_bound`] unless the target
    /// declares its own (a serde target's `Policy` does).
    fn allocation_bound(&self, len: usize) -> usize {
        crate::alloc::allocation_bound(len)
    }

    /// The cases of `class` for `sample`, when this target tells its own
    /// lies (a serde target lies in the fields of its format's encoding);
    /// `None` leaves them to the codec classes of [`crate::mutate`], which
    /// lie in the sample's field map.
    fn own_cases(
        &self,
        _class: Class,
        _sample: &Sample,
        _u: &mut Unstructured<'_>,
    ) -> Option<Vec<Case>> {
        None
    }

    /// The read and its verdict in one pass, when the target can measure
    /// its read's allocation peak inside its decode (a serde target reads
    /// the value once, then writes it again outside the measure): the peak
    /// and the verdict. `None` leaves them to [`Target::read_only`], then
    /// [`Target::decode`]: two reads.
    fn read_and_decode(&self, _bytes: &[u8]) -> Option<(usize, Verdict)> {
        None
    }

    /// Only the read, with nothing around it (no re-encoding, no display):
    /// the whole read, trailing-byte rule included, that the oracle measures
    /// allocations of and the refusal benchmark times. Defaults to
    /// [`Target::decode`].
    fn read_only(&self, bytes: &[u8]) {
        let _ = self.decode(bytes);
    }

    /// The decoded value as JSON, named as its types declare it
    /// ([`crate::value`]), when the reader accepts `bytes`. `None` for a
    /// refusal, and from targets that cannot show their values.
    fn decode_value(&self, _bytes: &[u8]) -> Option<serde_json::Value> {
        None
    }

    /// Encodes the value a [`Target::decode_value`] document describes
    /// ([`crate::rebuild`]): the same bytes, when the document is the whole
    /// value. `None` from targets that cannot.
    fn encode_value(&self, _value: &serde_json::Value) -> Option<Result<Vec<u8>, String>> {
        None
    }

    /// Decodes `bytes` while mapping the fields read. Targets that cannot
    /// map fields return an empty map.
    fn inspect(&self, bytes: &[u8]) -> Inspection {
        Inspection {
            map: FieldMap::default(),
            failed_in: None,
            packet_type: None,
            verdict: self.decode(bytes),
            shown: None,
            listed: Vec::new(),
        }
    }
}
