//! The one door from generic code to the concrete streams, for hot paths.
//!
//! A protocol that wants a faster path than its generic `serialize` hands
//! the stream a [`HotPath`] ([`Stream::concrete`](super::Stream::concrete)):
//! on a [`ReadStream`] or a [`WriteStream`] it runs there, does what it can
//! and leaves the rest to the generic code; every other stream declines.
//! Nothing outside the crate can open the door: [`Token`] has no public
//! constructor.

use super::{ReadStream, WriteStream};

/// What a hot path does on each concrete stream. (A trait, not a closure:
/// its methods are forced inline into the stream's loop.)
#[doc(hidden)]
pub trait HotPath {
    /// What it reports back.
    type Output;
    /// On the reading stream.
    fn read(self, stream: &mut ReadStream<'_>) -> Self::Output;
    /// On the writing stream.
    fn write(self, stream: &mut WriteStream<'_>) -> Self::Output;
}

/// What [`Stream::concrete`](super::Stream::concrete) takes, so that only
/// the codec calls it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Token(());

/// The codec's token.
pub(crate) const TOKEN: Token = Token(());
