//! Which panics a command prints. A reader's panic that the harness catches
//! is a verdict, reported with its message, so it stays quiet; any other
//! panic prints as Rust's default hook prints it; and a panic from writing
//! to a standard output whose reader has gone (`... | head`) ends the
//! command quietly, as a closed pipe ends other Unix tools.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The exit status of a command whose standard output was closed: the one
/// a shell reports for a process that SIGPIPE ended (128 + 13).
pub const CLOSED_PIPE_STATUS: i32 = 141;

thread_local! {
    /// How many [`caught`] calls this thread is inside.
    static CATCHING: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f` under `catch_unwind`; a panic inside it is the caller's to
/// report, so the hook of [`install`] says nothing of it.
pub fn caught<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    CATCHING.with(|c| c.set(c.get().saturating_add(1)));
    let result = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(c.get().saturating_sub(1)));
    result
}

/// A panic's message, from its payload.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".to_string())
}

/// Whether a panic's message is the standard library's for a write to a
/// closed standard output or error.
#[must_use]
pub fn is_closed_pipe(message: &str) -> bool {
    message.starts_with("failed printing to std") && message.contains("Broken pipe")
}

/// The panic hook of a command: silent inside [`caught`], exits with
/// [`CLOSED_PIPE_STATUS`] on a closed pipe, else the default hook.
pub fn install() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if CATCHING.with(Cell::get) > 0 {
            return;
        }
        if is_closed_pipe(&panic_message(info.payload())) {
            std::process::exit(CLOSED_PIPE_STATUS);
        }
        default(info);
    }));
}
