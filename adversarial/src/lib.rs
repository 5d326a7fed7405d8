//! The adversarial harness: generators that build valid packets and then
//! break them on purpose, an oracle that knows the verdict each broken
//! packet is owed, and the campaign that runs them all.
//!
//! Its promise, checked for every case: the reader either accepts a packet
//! that re-encodes to the same bytes, or refuses it with the error it
//! deserves; it never panics and never allocates more than a small constant
//! times the packet's length.

#![warn(missing_docs)]
pub mod alloc;
pub mod campaign;
pub mod case;
pub mod check;
pub mod cli;
pub mod configs;
pub mod conversation;
pub mod corpus;
pub mod digest;
pub mod draw;
pub mod field_map;
pub mod files;
pub mod fixtures;
pub mod flood;
#[cfg(feature = "serde")]
pub mod formats;
pub mod fuzz;
pub mod generate;
pub mod golomb_fields;
pub mod kinds;
pub mod mutate;
pub mod oracle;
pub mod page;
pub mod panics;
pub mod picture;
pub mod plain;
pub mod rebuild;
pub mod replay;
pub mod report;
pub mod scenario;
pub mod schedule;
pub mod shards;
pub mod shrink;
pub mod tally;
pub mod target;
pub mod targets;
pub mod value;
pub mod window;
pub mod worker;
