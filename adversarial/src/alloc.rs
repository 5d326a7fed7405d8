//! A counting global allocator: how many bytes a read allocates at its peak,
//! and how many it asks for in all.
//!
//! The `adversarial` binary installs [`CountingAllocator`]; the oracle asks
//! [`peak_during`] for the peak a decode reaches above what was allocated
//! before it. The benchmarks install it too and ask [`allocated_during`] for
//! the bytes a decode requests. Where the allocator is not installed (the
//! library's tests), both read as zero and the bound holds trivially.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Bytes requested since start: every allocation's size, and a growing
/// reallocation's growth.
static REQUESTED: AtomicUsize = AtomicUsize::new(0);
/// Allocations and growing reallocations since start (a shrink asks for
/// nothing new).
static CALLS: AtomicUsize = AtomicUsize::new(0);

/// Counts a request for `bytes` more.
#[inline]
fn count(bytes: usize) {
    let now = CURRENT.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
    REQUESTED.fetch_add(bytes, Ordering::Relaxed);
    CALLS.fetch_add(1, Ordering::Relaxed);
}

/// The system allocator, counting live bytes and their peak.
pub struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counters are plain atomics and never affect what is allocated.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            count(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            if new_size >= layout.size() {
                count(new_size - layout.size());
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        new
    }
}

/// Runs `f` and returns its result with the peak bytes allocated during it,
/// above what was live when it started. Single-threaded use only: other
/// threads' allocations would be counted too.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let result = f();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    (result, peak)
}

/// What a piece of code asked of the allocator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Allocated {
    /// Bytes requested: allocation sizes plus reallocation growth.
    pub bytes: usize,
    /// Allocations and growing reallocations.
    pub calls: usize,
}

/// Runs `f` and returns its result with what it asked of the allocator.
/// Single-threaded use only, as [`peak_during`].
pub fn allocated_during<T>(f: impl FnOnce() -> T) -> (T, Allocated) {
    let bytes = REQUESTED.load(Ordering::Relaxed);
    let calls = CALLS.load(Ordering::Relaxed);
    let result = f();
    let allocated = Allocated {
        bytes: REQUESTED.load(Ordering::Relaxed).wrapping_sub(bytes),
        calls: CALLS.load(Ordering::Relaxed).wrapping_sub(calls),
    };
    (result, allocated)
}
