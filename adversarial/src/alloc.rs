//! A counting global allocator: how many bytes a read allocates at its peak,
//! and how many it asks for in all.
//!
//! The oracle asks [`peak_during`] for the peak a decode reaches above what
//! was live before it; the benchmarks ask [`allocated_during`] for the bytes
//! a decode requests. Counts are kept per thread, so they hold under the
//! parallel test runner: each test's reads are measured on its own thread.
//!
//! A binary (the `adversarial` command, a test file, a fuzz target) counts
//! once it installs [`CountingAllocator`], which
//! [`count_allocations!`](crate::count_allocations) does in one line.
//! Without it every count reads zero; [`is_counting`] says which, and the
//! entry points that judge a read's allocations ([`crate::check`],
//! [`crate::cli::main`], [`crate::fuzz`]) refuse to run, since their bound
//! would hold trivially.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

/// The most bytes the whole process may hold, once [`limit_memory`] set
/// it (0: no limit): an allocation past it fails, and the process aborts
/// with the runtime's "memory allocation of N bytes failed".
static LIMIT: AtomicUsize = AtomicUsize::new(0);

/// Bytes the process holds, counted from when the limit was set.
static LIVE: AtomicIsize = AtomicIsize::new(0);

/// The environment variable a worker reads its memory limit from, in MiB.
pub const WORKER_MEMORY_ENV: &str = "ADVERSARIAL_WORKER_MEMORY_MB";

/// A worker's memory limit when its parent names none: room for any read
/// the bounds allow (a 1 MiB message at 64 bytes a byte), far from a
/// 2-core machine's 24 GiB with a worker per core.
pub const DEFAULT_WORKER_MEMORY_MB: u64 = 2048;

/// Holds the whole process to `bytes` of heap from now on: a larger
/// allocation fails (the process aborts, which a worker's parent reports
/// as `oom`) instead of pressing on the host. Needs [`CountingAllocator`].
pub fn limit_memory(bytes: usize) {
    LIVE.store(0, Ordering::Relaxed);
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// The limit a worker takes: [`WORKER_MEMORY_ENV`] when set, else
/// [`DEFAULT_WORKER_MEMORY_MB`], in bytes.
#[must_use]
pub fn worker_limit() -> usize {
    let mb = std::env::var(WORKER_MEMORY_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_WORKER_MEMORY_MB);
    usize::try_from(mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
}

/// Whether `bytes` more fit under the limit; counts them if so.
#[inline]
fn admit(bytes: usize) -> bool {
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit == 0 {
        return true;
    }
    let live = usize::try_from(LIVE.load(Ordering::Relaxed).max(0)).unwrap_or(0);
    if live.saturating_add(bytes) > limit {
        return false;
    }
    LIVE.fetch_add(signed(bytes), Ordering::Relaxed);
    true
}

/// Counts `bytes` given back under the limit.
#[inline]
fn release(bytes: usize) {
    if LIMIT.load(Ordering::Relaxed) != 0 {
        LIVE.fetch_sub(signed(bytes), Ordering::Relaxed);
    }
}

/// The most a read may allocate per input byte, at its peak. A scene object
/// of 12 or more input bytes decodes into a 52-byte slot, and a vector may
/// hold twice what it uses: 16 bytes per input byte covers both.
pub const ALLOC_BYTES_PER_INPUT_BYTE: usize = 16;

/// Allocation every read may make whatever its input, for small fixed
/// buffers.
pub const ALLOC_SLACK_BYTES: usize = 4096;

/// The allocation bound for an input of `len` bytes.
#[must_use]
pub const fn allocation_bound(len: usize) -> usize {
    len.saturating_mul(ALLOC_BYTES_PER_INPUT_BYTE)
        .saturating_add(ALLOC_SLACK_BYTES)
}

/// This thread's counts. Plain `Cell`s with const initializers: reaching
/// them never allocates and registers no destructor, so the allocator may
/// touch them.
#[derive(Clone, Copy)]
struct Counts {
    /// Live bytes allocated by this thread, minus what it freed (a block
    /// freed here that another thread allocated can take it below zero).
    current: isize,
    /// The highest `current` since the last reset.
    peak: isize,
    /// Bytes requested: every allocation's size, and a growing
    /// reallocation's growth.
    requested: usize,
    /// Allocations and growing reallocations (a shrink asks for nothing).
    calls: usize,
}

thread_local! {
    static COUNTS: Cell<Counts> = const {
        Cell::new(Counts { current: 0, peak: 0, requested: 0, calls: 0 })
    };
}

/// Applies `change` to this thread's counts, if the thread still has them
/// (not during its teardown).
#[inline]
fn update(change: impl FnOnce(&mut Counts)) {
    let _ = COUNTS.try_with(|cell| {
        let mut counts = cell.get();
        change(&mut counts);
        cell.set(counts);
    });
}

fn counts() -> Counts {
    COUNTS.try_with(Cell::get).unwrap_or(Counts {
        current: 0,
        peak: 0,
        requested: 0,
        calls: 0,
    })
}

fn signed(bytes: usize) -> isize {
    isize::try_from(bytes).unwrap_or(isize::MAX)
}

/// Counts a request for `bytes` more.
#[inline]
fn grow(bytes: usize) {
    update(|c| {
        c.current = c.current.saturating_add(signed(bytes));
        c.peak = c.peak.max(c.current);
        c.requested = c.requested.saturating_add(bytes);
        c.calls = c.calls.saturating_add(1);
    });
}

/// Counts `bytes` given back.
#[inline]
fn shrink(bytes: usize) {
    update(|c| c.current = c.current.saturating_sub(signed(bytes)));
}

/// The system allocator, counting live bytes and their peak per thread.
pub struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counters are thread-local cells that never allocate and never affect
// what is allocated.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !admit(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc(layout) };
        if ptr.is_null() {
            release(layout.size());
        } else {
            grow(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !admit(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if ptr.is_null() {
            release(layout.size());
        } else {
            grow(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        release(layout.size());
        shrink(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let growth = new_size.saturating_sub(layout.size());
        if !admit(growth) {
            return std::ptr::null_mut();
        }
        // SAFETY: same contract as the caller's.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if new.is_null() {
            release(growth);
        } else if new_size >= layout.size() {
            grow(growth);
        } else {
            release(layout.size() - new_size);
            shrink(layout.size() - new_size);
        }
        new
    }
}

/// Installs [`CountingAllocator`] as this binary's global allocator: one
/// line at the top of a test file, a fuzz target or a `main.rs`.
///
/// ```ignore
/// adversarial::count_allocations!();
/// ```
#[macro_export]
macro_rules! count_allocations {
    () => {
        #[global_allocator]
        static ADVERSARIAL_COUNTING_ALLOCATOR: $crate::alloc::CountingAllocator =
            $crate::alloc::CountingAllocator;
    };
}

/// Whether this binary counts allocations (has installed
/// [`CountingAllocator`]). Asked once: the allocator is the whole binary's.
#[must_use]
pub fn is_counting() -> bool {
    static COUNTING: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *COUNTING.get_or_init(|| {
        let ((), allocated) = allocated_during(|| {
            std::hint::black_box(vec![0u8; 64]);
        });
        allocated.bytes > 0
    })
}

/// Why `entry` refuses to run in a binary that does not count allocations.
#[must_use]
pub fn not_counting(entry: &str) -> String {
    format!(
        "{entry} judges what each read allocates, and this binary does not count \
         allocations, so that bound would hold trivially: add \
         `adversarial::count_allocations!();` at the top of the file with the test, \
         the fuzz target or `main`"
    )
}

/// Panics with [`not_counting`] unless this binary counts allocations.
#[track_caller]
pub(crate) fn require_counting(entry: &str) {
    assert!(is_counting(), "{}", not_counting(entry));
}

/// Runs `f` and returns its result with the peak bytes this thread
/// allocated during it, above what was live when it started.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = counts().current;
    update(|c| c.peak = base);
    let result = f();
    let peak = counts().peak.saturating_sub(base);
    (result, usize::try_from(peak).unwrap_or(0))
}

/// Runs `f` as the harness's own work inside a measured read: what it
/// allocates and frees again leaves this thread's peak as it was.
pub fn aside<T>(f: impl FnOnce() -> T) -> T {
    let before = counts().peak;
    let result = f();
    let now = counts().current;
    update(|c| c.peak = before.max(now));
    result
}

/// What a piece of code asked of the allocator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Allocated {
    /// Bytes requested: allocation sizes plus reallocation growth.
    pub bytes: usize,
    /// Allocations and growing reallocations.
    pub calls: usize,
}

/// Runs `f` and returns its result with what this thread asked of the
/// allocator during it.
pub fn allocated_during<T>(f: impl FnOnce() -> T) -> (T, Allocated) {
    let before = counts();
    let result = f();
    let after = counts();
    let allocated = Allocated {
        bytes: after.requested.wrapping_sub(before.requested),
        calls: after.calls.wrapping_sub(before.calls),
    };
    (result, allocated)
}
