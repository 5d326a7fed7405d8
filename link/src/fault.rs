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
}

impl Fault {
    /// Every planted bug.
    pub const ALL: [Self; 5] = [
        Self::TrustLaterCount,
        Self::UnboundedCopy,
        Self::KeepPartialReassembly,
        Self::NoWrap,
        Self::AckUnsent,
    ];
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
