//! The connection layer under game packets, wire-compatible with the
//! reliable 1.0 C library: every datagram acknowledges the peer's last 32
//! packets, and packets larger than `fragment_above` travel as fragments
//! that the receiver puts back together.
//!
//! An [`Endpoint`] sends and receives; what it refuses, it refuses with a
//! [`Cause`] and counts. Its memory is fixed by its [`Config`] when it is
//! made: no datagram makes it hold more.
//!
//! ```
//! use link::{Config, Endpoint, Received};
//!
//! let mut client = Endpoint::new(Config::default(), 0.0).unwrap();
//! let mut server = Endpoint::new(Config::default(), 0.0).unwrap();
//! let mut wire = Vec::new();
//! client.send(&[7; 3000], |datagram| wire.push(datagram.to_vec())).unwrap();
//! assert_eq!(wire.len(), 3); // three fragments of at most 1024 bytes
//! let mut got = Vec::new();
//! for datagram in &wire {
//!     server.receive(datagram, |_, payload| { got = payload.to_vec(); true }).unwrap();
//! }
//! assert_eq!(got, vec![7; 3000]);
//! // The server's next packet acknowledges the client's.
//! let mut reply = Vec::new();
//! server.send(b"ack", |d| reply = d.to_vec()).unwrap();
//! assert_eq!(client.receive(&reply, |_, _| true), Ok(Received::Delivered { sequence: 0 }));
//! assert_eq!(client.acks(), &[0]);
//! ```

#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::arithmetic_side_effects
    )
)]
#![warn(missing_docs)]

pub mod config;
pub mod endpoint;
pub mod estimates;
#[cfg(feature = "faults")]
pub mod fault;
pub mod fragment;
pub mod header;
pub mod reassembly;
pub mod refusal;
pub mod sequence;

pub use config::{Config, ConfigError};
pub use endpoint::{Endpoint, Received, SendError};
#[cfg(feature = "faults")]
pub use fault::Fault;
pub use fragment::{FragmentHeader, FRAGMENT_HEADER_BYTES};
pub use header::{Header, MAX_HEADER_BYTES};
pub use refusal::{Cause, Counters, Refusal};
