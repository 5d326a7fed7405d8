//! The `#[serialize(...)]` attributes of `#[derive(Serialize)]`, and
//! `#[derive(Packet)]`.
//!
//! A type is declared once; the derive generates its one generic
//! [`Serialize::serialize`](crate::Serialize::serialize), which writes,
//! reads and measures it. Fields travel in declaration order, each under
//! its declared name (or `name = "..."`), so field maps, `inspect` and the
//! harness's reports name them. Every declared bound binds both ways: a
//! writer refuses a value outside it with [`EncodeError::Invalid`], and a
//! reader refuses its wire form with [`DecodeError::OutOfRange`] (or the
//! error the rule owes) at the field's bit offset.
//!
//! Mistakes in a declaration are compile errors at the attribute: a range
//! on a `String`, `min > max`, `bits` above 64 or above the field's type,
//! a `Vec` or `String` without `max_len`, an unknown attribute, a
//! compressed float whose steps need more than 32 bits, an invalid
//! fixed-point format. Literals are checked by the macro; constants by
//! `const` assertions beside the generated impl, still at compile time.
//!
//! [`EncodeError::Invalid`]: crate::EncodeError::Invalid
//! [`DecodeError::OutOfRange`]: crate::DecodeError::OutOfRange
//!
//! # Types that need no attribute
//!
//! `bool` (one bit), `u8` to `u128` (their full width), `f32` and `f64`
//! (raw IEEE bits), arrays and `Option` of those (element by element; a
//! presence bit), and any type that implements `Serialize` (nested types).
//! Signed integers, `String` and `Vec` have no wire form until a range or a
//! maximum is declared.
//!
//! ```
//! use codec::Serialize;
//!
//! #[derive(Debug, Default, PartialEq, Serialize)]
//! struct Header { sequence: u16, ack: u16, ack_bits: u32 }
//!
//! let mut header = Header { sequence: 7, ack: 5, ack_bits: 0b1011 };
//! let bytes = codec::to_vec(&mut header)?;
//! assert_eq!(bytes.len(), 8);
//! assert_eq!(codec::from_slice::<Header>(&bytes)?, header);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Values
//!
//! | attribute | on | wire |
//! |---|---|---|
//! | `range = min..=max` | any integer, `i8` to `u128` | `value - min` in `bits_required(min, max)` bits |
//! | `bits = N` | `u8`, `u16`, `u32`, `u64` | the low N bits (1 to the type's width); a writer refuses a value that needs more |
//! | `compressed(min = , max = , res = )` | `f32` (quantized; a writer refuses NaN and values outside `[min, max]`), or `u32` holding the code | the format's compressed float |
//! | `fixed(integer_bits = , fraction_bits = , min = , max = )` | `i128` holding the raw fixed-point integer | a ranged integer over the raw bounds |
//! | `quaternion` | [`SmallestThree`](crate::protocols::scenes::SmallestThree) | smallest-three, 2 + 3 x 10 bits; a reader refuses a non-unit triple |
//! | `with = path` | anything | `path(stream, &mut field)`, a hand-written `fn<S: Stream>(&mut S, &mut T) -> Result<(), S::Error>` |
//!
//! ```
//! use codec::{DecodeError, EncodeError, Serialize};
//!
//! #[derive(Debug, Default, PartialEq, Serialize)]
//! struct Input {
//!     #[serialize(range = -100..=100)]
//!     steer: i8,                              // 8 bits
//!     #[serialize(bits = 3)]
//!     buttons: u8,                            // 3 bits
//!     #[serialize(compressed(min = 0.0, max = 1.0, res = 0.01))]
//!     throttle: f32,                          // 7 bits
//!     #[serialize(range = 0..=5_000_000_000)]
//!     tick: u64,                              // 33 bits, as 32-bit groups
//!     #[serialize(fixed(integer_bits = 8, fraction_bits = 4, min = -10, max = 10))]
//!     trim: i128,                             // raw Q8.4 in [-160, 160]: 9 bits
//! }
//!
//! let mut input = Input { steer: -40, buttons: 0b101, throttle: 0.5, tick: 4_000_000_000, trim: -33 };
//! let bytes = codec::to_vec(&mut input)?;
//! let read: Input = codec::from_slice(&bytes)?;
//! assert_eq!((read.steer, read.buttons, read.tick, read.trim), (-40, 0b101, 4_000_000_000, -33));
//! assert!((read.throttle - 0.5).abs() <= 0.01);
//!
//! input.steer = 101; // outside its declared range: the writer refuses it
//! assert!(matches!(codec::to_vec(&mut input), Err(EncodeError::Invalid(DecodeError::OutOfRange { .. }))));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Strings, bytes and lists
//!
//! | attribute | on | wire |
//! |---|---|---|
//! | `max_len = N` | `String` | length `int(0, N)` in bytes, then the UTF-8 bytes, aligned; a reader refuses bad UTF-8 and NUL |
//! | `wide, max_len = N` | `String` or `Vec<u16>` | length `int(0, N)` in UTF-16 units, each unit in a 32-bit group |
//! | `bytes` | `[u8; N]` | aligned raw bytes, no count |
//! | `bytes, max_len = N` | `Vec<u8>` | count `int(0, N)`, then aligned raw bytes; a reader checks the bits left before it allocates |
//! | `max_len = N` | `Vec<T>` | count `int(0, N)` (named `count`), then each element; other attributes apply to the elements |
//!
//! ```
//! use codec::Serialize;
//!
//! #[derive(Debug, Default, PartialEq, Serialize)]
//! struct Chat {
//!     #[serialize(max_len = 64)]
//!     line: String,
//!     #[serialize(wide, max_len = 16)]
//!     sender: String,
//!     #[serialize(bytes)]
//!     token: [u8; 4],
//!     #[serialize(max_len = 8, range = 0..=1023)]
//!     mentions: Vec<u16>,                     // a count, then 10 bits each
//!     #[serialize(range = 1..=9)]
//!     mood: Option<u8>,                       // a presence bit, then 4 bits
//! }
//!
//! let mut chat = Chat {
//!     line: "gg wp".into(),
//!     sender: "Ünïcode".into(),
//!     token: *b"\x01\x02\x03\x04",
//!     mentions: vec![3, 900],
//!     mood: Some(7),
//! };
//! let bytes = codec::to_vec(&mut chat)?;
//! assert_eq!(codec::from_slice::<Chat>(&bytes)?, chat);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Subsets of a fixed-size array
//!
//! `subset(strategy, size = N)` on a `Vec` of [`Indexed`](crate::subset::Indexed)
//! items (such as [`Entry<T>`](crate::subset::Entry)), by strictly increasing
//! index below N. The strategies are the articles' scenes A to D and our
//! scenes' codes: `bools`, `counted`, `sentinel`, `relative` and `golomb`
//! (its parameter is always the best one for the set, and a reader refuses
//! any other, so a set has one encoding); and `adaptive`, the count first
//! and then codes that follow the slots and items left, the fewest bits of
//! them all at every density (within about 1 % of the least any code that
//! says the count can spend, from 1 % to 50 % density). See
//! [`crate::subset`].
//!
//! ```
//! use codec::subset::Entry;
//! use codec::Serialize;
//!
//! #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
//! struct Cube {
//!     #[serialize(range = 0..=255)]
//!     health: u8,
//! }
//!
//! #[derive(Debug, Default, PartialEq, Serialize)]
//! struct Snapshot {
//!     #[serialize(subset(relative, size = 1024))]
//!     changed: Vec<Entry<Cube>>,
//! }
//!
//! let cube = |index, health| Entry { index, value: Cube { health } };
//! let mut snapshot = Snapshot { changed: vec![cube(3, 100), cube(4, 90), cube(700, 5)] };
//! let bytes = codec::to_vec(&mut snapshot)?;
//! assert_eq!(codec::from_slice::<Snapshot>(&bytes)?, snapshot);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Conditions, markers and enums
//!
//! | attribute | meaning |
//! |---|---|
//! | `when = expr, otherwise = value` | the field travels only when `expr` (over earlier fields, as `self.x`) holds; a reader assigns `value` (default: `Default::default()`) when it does not |
//! | `before(align, check = "label")`, `after(...)` | zero padding to a byte boundary, a serialize check of `label`, before or after the field |
//! | `skip` | not on the wire; a reader leaves it as it is |
//! | `name = "..."` | the name the field goes by in field maps and reports |
//!
//! An enum travels as its variant index, `int(0, variants - 1)`, then the
//! variant's fields; a reader that reads another variant starts it from
//! `Default` values. In a variant, `when` refers to earlier fields by name.
//!
//! ```
//! use codec::Serialize;
//!
//! #[derive(Debug, Default, PartialEq, Serialize)]
//! struct Body {
//!     #[serialize(compressed(min = -1000.0, max = 1000.0, res = 0.001))]
//!     position: [u32; 3],                     // the wire codes, which re-encode exactly
//!     at_rest: bool,
//!     #[serialize(when = !self.at_rest, otherwise = [0; 3])]
//!     #[serialize(compressed(min = -10.0, max = 10.0, res = 0.01))]
//!     velocity: [u32; 3],
//!     #[serialize(before(check = "body end"))]
//!     mode: Mode,
//! }
//!
//! #[derive(Debug, Default, PartialEq, Serialize)]
//! enum Mode {
//!     #[default]
//!     Idle,
//!     Jump { #[serialize(range = 1..=3)] height: u8 },
//! }
//!
//! let mut body = Body { position: [1, 2, 3], at_rest: true, velocity: [0; 3], mode: Mode::Jump { height: 2 } };
//! let bytes = codec::to_vec(&mut body)?;
//! assert_eq!(codec::from_slice::<Body>(&bytes)?, body);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Versioned saves (the LBP method)
//!
//! `#[serialize(versions = first..=latest)]` on a struct makes it a save:
//! the version travels first as 32 bits, a reader refuses a newer one
//! ([`DecodeError::VersionTooNew`](crate::DecodeError::VersionTooNew)) and
//! reads every older one; a writer writes the latest.
//!
//! | attribute | meaning |
//! |---|---|
//! | `added = N`, `default = value` | the field exists from version N; a reader of an older save assigns `value` (default: `Default::default()`) |
//! | `removed = N` | the field exists before version N only; the latest writer never writes it |
//! | `before(integrity)`, `after(integrity)` | the running integrity counter (0, 1, 2, ...), refused when it does not match |
//! | `version` | a `u32` field a reader sets to the save's version (not on the wire of its own) |
//! | `upgrade = path` (on the struct) | `path(&mut self, version)`, called by a reader after every field, to convert removed fields into new ones |
//!
//! ```
//! use codec::Serialize;
//!
//! #[derive(Debug, Default, PartialEq, Serialize)]
//! #[serialize(versions = 1..=2, upgrade = Profile::upgrade)]
//! struct Profile {
//!     #[serialize(removed = 2, range = 0..=9, after(integrity))]
//!     stars: u8,
//!     #[serialize(added = 2, range = 0..=90, after(integrity, align))]
//!     score: u8,
//! }
//!
//! impl Profile {
//!     fn upgrade(&mut self, version: u32) {
//!         if version < 2 {
//!             self.score = self.stars * 10; // a star was worth ten points
//!         }
//!     }
//! }
//!
//! // A version 1 save: version 1 (32 bits), stars 4 (4 bits), integrity
//! // 0 and 1 (32 bits each), padding.
//! let old = [1, 0, 0, 0, 0x04, 0, 0, 0, 0x10, 0, 0, 0, 0];
//! let read: Profile = codec::from_slice(&old)?;
//! assert_eq!(read.score, 40);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Packets
//!
//! `#[derive(Packet)]` on an enum whose variants each hold one payload
//! (`Serialize + Default`) or nothing; variant order is the packet type.
//! `#[packet(protocol_id = .., max_bytes = ..)]` takes a literal id (32-bit
//! when it fits, else 64-bit) or a [`ProtocolId`](crate::packet::ProtocolId)
//! constant. [`packet::encode`](crate::packet::encode) and
//! [`packet::decode`](crate::packet::decode) frame it: CRC32 over the
//! protocol id, the type, the payload, the end check.
//!
//! ```
//! use codec::{packet, Packet, Serialize};
//!
//! #[derive(Debug, Default, PartialEq, Serialize)]
//! struct Ping { #[serialize(bits = 16)] sequence: u16 }
//!
//! #[derive(Debug, Default, PartialEq, Serialize)]
//! struct Say { #[serialize(max_len = 100)] line: String }
//!
//! #[derive(Debug, PartialEq, Packet)]
//! #[packet(protocol_id = 0xC0DE_0001, max_bytes = 1200)]
//! enum Game { Ping(Ping), Say(Say), Leave }
//!
//! let mut message = Game::Say(Say { line: "hello".into() });
//! let bytes = packet::encode_to_vec(&mut message)?;
//! assert_eq!(packet::decode::<Game>(&bytes)?, message);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Valid values (feature `arbitrary`)
//!
//! With `codec`'s feature `arbitrary` (on whenever the `adversarial`
//! harness is a dependency), both derives also implement
//! `arbitrary::Arbitrary`: every generated
//! value obeys its declarations (ranges, widths, lengths, subsets, `when`
//! with its `otherwise`, the latest version), leaning toward range ends,
//! empty and full lists and every subset density. That is where the harness
//! takes its valid samples from. Only a `with = path` field needs help: by
//! default it takes its type's own `Arbitrary` value, and
//! `arbitrary = path` names a `fn(&mut Unstructured) -> arbitrary::Result<T>`
//! that makes valid ones. See `codec::arbitrary`.
//!
//! ```
//! use codec::arbitrary::{ranged, Arbitrary, Result, Unstructured};
//! use codec::{DecodeError, Serialize, Stream};
//!
//! /// An odd number in 16 bits, which no attribute can say.
//! fn odd<S: Stream>(stream: &mut S, value: &mut u32) -> core::result::Result<(), S::Error> {
//!     if S::IS_WRITING && (*value % 2 == 0 || *value > 0x1_FFFF) {
//!         let at = stream.bit_offset();
//!         return Err(stream.refuse(DecodeError::OutOfRange { at }));
//!     }
//!     let mut half = *value / 2;
//!     stream.serialize_bits(&mut half, 16)?;
//!     *value = half * 2 + 1;
//!     Ok(())
//! }
//!
//! fn odd_value(u: &mut Unstructured<'_>) -> Result<u32> {
//!     Ok(ranged(u, 0u32, 0xFFFF)? * 2 + 1)
//! }
//!
//! #[derive(Debug, Default, Serialize)]
//! struct Key {
//!     #[serialize(with = odd, arbitrary = odd_value)]
//!     code: u32,
//! }
//!
//! let mut key = Key::arbitrary(&mut Unstructured::new(&[3, 5, 8]))?;
//! assert_eq!(key.code % 2, 1);
//! codec::to_vec(&mut key)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # A hand-written field's rule (`valid = path`)
//!
//! A `with = path` field's reader and writer are both yours, and a bug they
//! share is invisible to a round trip: if both send a percentage in 7 bits
//! and neither checks it, 101 reads and writes back. `valid = path` (a
//! `fn(&T) -> bool`) states the rule apart from them. The writer then
//! refuses a value that breaks it ([`DecodeError::OutOfRange`], as for a
//! range); the reader stays yours, and the harness lies in every value the
//! field's bits can hold: one your reader accepts against the rule cannot
//! be written back, and the campaign reports it.
//!
//! ```
//! use codec::{Serialize, Stream};
//!
//! fn percent<S: Stream>(stream: &mut S, value: &mut u8) -> Result<(), S::Error> {
//!     let mut bits = u32::from(*value);
//!     stream.serialize_bits(&mut bits, 7)?;
//!     *value = bits as u8;
//!     Ok(())
//! }
//!
//! fn at_most_100(value: &u8) -> bool {
//!     *value <= 100
//! }
//!
//! #[derive(Debug, Default, Serialize)]
//! struct Status {
//!     #[serialize(with = percent, valid = at_most_100)]
//!     health: u8,
//! }
//!
//! assert!(codec::to_vec(&mut Status { health: 100 }).is_ok());
//! assert!(codec::to_vec(&mut Status { health: 101 }).is_err());
//! ```
