//! The format's operations, each written once against [`Stream`](crate::Stream).
//!
//! The [`Stream`](crate::Stream) trait's provided methods call into these
//! modules; a module holds one operation and the rules its reader enforces.
//! They are public for streams that override a provided method (to record
//! what passes through, say) and still need the operation itself.

pub mod check;
pub mod compressed_float;
pub mod fixed;
pub mod golomb;
pub mod int;
pub mod int_relative;
pub mod list;
pub mod ranged;
pub mod ruled;
pub mod string;
pub mod truncated;
pub mod unary;
pub mod wide;
pub mod wstring;
