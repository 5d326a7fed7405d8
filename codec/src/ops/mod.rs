//! The format's operations, each written once against [`Stream`](crate::Stream).
//!
//! The [`Stream`](crate::Stream) trait's provided methods call into these
//! modules; a module holds one operation and the rules its reader enforces.

pub mod check;
pub mod compressed_float;
pub mod fixed;
pub(crate) mod int;
pub(crate) mod int_relative;
pub(crate) mod string;
pub(crate) mod wide;
pub(crate) mod wstring;
