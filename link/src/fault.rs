//! Bugs planted on purpose (feature `faults`, off by default): each makes
//! an endpoint wrong in one way that connection layers have been wrong
//! before, so that the harness can show it catches each. Never enable the
//! feature outside tests of the harness. With it, calls into the read path
//! are counted too ([`reads`]), so that the harness can show that its lies
//! are built without the code they attack.

use std::cell::Cell;

/// One planted bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Takes the fragment count of every fragment as true, not only the
    /// first one's.
    TrustLaterCount,
    /// Copies a fragment's data whatever its length, growing the buffer to
    /// fit instead of refusing a fragment longer than `fragment_size`.
    UnboundedCopy,
    /// Never frees a partial reassembly: a slot reused for a new packet
    /// leaks the old buffer and allocates a new one.
    KeepPartialReassembly,
    /// Calls a packet stale when its sequence is below the newest's minus
    /// the window, as plain numbers, without the wrap.
    NoWrap,
    /// Reports every sequence a peer's header acks, sent or not.
    AckUnsent,
    /// Moves the reassembly window across the wrap (a jump from near 65535
    /// to past 0) without emptying the slots it passes: a packet the
    /// window left behind, partly received, still takes its fragments.
    WrapKeepsWindow,
    /// Refuses a last fragment of exactly `fragment_size` bytes as too
    /// long (`>=` for `>`): every packet whose length is a multiple of the
    /// fragment size, honest or not, is lost.
    FullLastFragment,
    /// Maps a header's ack bit `i` to the packet `ack - i - 1`, one before
    /// the one it names: each ack reported is for the wrong packet.
    AckOffByOne,
    /// Rebuilds a one-byte ack from the wrong base, the packet's sequence
    /// less one: every short header's ack names the packet before.
    ShortAckBase,
    /// Delivers a packet put together from fragments without recording it
    /// as received: its sender's acks never name it, and its fragments,
    /// arriving again, deliver it again.
    FragmentedNotRecorded,
    /// Finds a window slot by `sequence % len`, as the reference does: in a
    /// window whose size does not divide 65,536, the packet received just
    /// before the wrap is forgotten when the next arrives, its replay is
    /// delivered again and later headers leave its ack out.
    ModuloSlots,
    /// Records a packet the application declined as received: it is
    /// acknowledged to its sender, and refused as a duplicate when it
    /// comes again.
    DeclinedRecorded,
    /// With the ack buffer full, marks an acknowledged packet as acked
    /// without reporting it: the application never hears that it arrived.
    FullAckBufferMarksAcked,
    /// Calls a packet stale when the window's oldest sequence is exactly
    /// half the range from it, whichever number is larger (the tie broken
    /// one way, not by the reference's rule): a packet 32,768 - len + 1
    /// ahead of the newest is lost.
    HalfRangeStale,
}

impl Fault {
    /// Every planted bug.
    pub const ALL: [Self; 14] = [
        Self::TrustLaterCount,
        Self::UnboundedCopy,
        Self::KeepPartialReassembly,
        Self::NoWrap,
        Self::AckUnsent,
        Self::WrapKeepsWindow,
        Self::FullLastFragment,
        Self::AckOffByOne,
        Self::ShortAckBase,
        Self::FragmentedNotRecorded,
        Self::ModuloSlots,
        Self::DeclinedRecorded,
        Self::FullAckBufferMarksAcked,
        Self::HalfRangeStale,
    ];
}

/// Whether a window whose next sequence is `next`, moving to `sequence`,
/// crosses the wrap: the `WrapKeepsWindow` fault's condition.
pub(crate) const fn crosses_wrap(next: u16, sequence: u16) -> bool {
    sequence < next && crate::sequence::newer(sequence, next)
}

thread_local! {
    /// Calls into the read path on this thread.
    static READS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one call into the read path (a header read, a datagram received).
pub fn count_read() {
    READS.with(|reads| reads.set(reads.get().wrapping_add(1)));
}

/// Calls into the read path on this thread so far.
#[must_use]
pub fn reads() -> u64 {
    READS.with(Cell::get)
}
