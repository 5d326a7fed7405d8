//! Cases run in a worker process, so that what `catch_unwind` cannot catch
//! (an abort, an allocation failure, a stack overflow, an endless loop) is
//! a verdict about one case instead of the end of the campaign.
//!
//! The worker is the campaign's own binary started again with a hidden
//! command (`adversarial::cli` uses `__worker --target NAME`): it reads
//! inputs from standard input, runs [`observe`] on each, and answers on
//! standard output, flushing after every case. When it dies or misses the
//! per-case deadline, the parent knows the case that did it, records it
//! ([`Observation::Died`] with the exit status and the end of the worker's
//! standard error, or [`Observation::TimedOut`]), starts a fresh worker and
//! goes on: the way libFuzzer's `-fork` mode survives its targets.
//!
//! Parent to worker: each input as a 4-byte little-endian length and the
//! bytes. Worker to parent: one line per input, `@adversarial ` and a JSON
//! object; any other line on standard output (the codec under attack may
//! print) is ignored.

use crate::oracle::{observe, Observation};
use crate::target::{Refusal, Target, Verdict};
use serde_json::{json, Value};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

/// What starts every answer line.
const PREFIX: &str = "@adversarial ";

/// The most of a dead worker's standard error kept to say how it died.
const STDERR_TAIL: usize = 2048;

/// How a campaign starts workers, and how long a case may take.
pub struct Isolation {
    /// The command that starts a worker for the target called by name.
    pub command: Box<dyn Fn(&str) -> Command + Send + Sync>,
    /// The per-case deadline: a case still running after it is killed.
    pub deadline: Duration,
}

impl Isolation {
    /// Workers that are this very binary, run with `args` and then
    /// `--target NAME`.
    ///
    /// # Errors
    ///
    /// When the path of the running binary cannot be found.
    pub fn this_binary(args: &[&str], deadline: Duration) -> io::Result<Self> {
        let exe = std::env::current_exe()?;
        let args: Vec<String> = args.iter().map(ToString::to_string).collect();
        Ok(Self {
            command: Box::new(move |target| {
                let mut command = Command::new(&exe);
                command.args(&args).args(["--target", target]);
                command
            }),
            deadline,
        })
    }
}

/// A running worker process for one target.
pub struct Worker<'a> {
    isolation: &'a Isolation,
    target: String,
    running: Option<Running>,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<Observation>,
    stderr: JoinHandle<Vec<u8>>,
}

impl<'a> Worker<'a> {
    /// A worker for `target`, started on first use.
    #[must_use]
    pub fn new(isolation: &'a Isolation, target: &str) -> Self {
        Self {
            isolation,
            target: target.to_string(),
            running: None,
        }
    }

    fn start(&self) -> io::Result<Running> {
        let mut child = (self.isolation.command)(&self.target)
            // The runtime's one-line reason is what is kept of a death.
            .env("RUST_BACKTRACE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let mut stderr = child
            .stderr
            .take()
            .ok_or_else(|| io::Error::other("no stderr"))?;
        let (send, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let Some(answer) = line.strip_prefix(PREFIX) else {
                    continue;
                };
                let observation = serde_json::from_str(answer)
                    .ok()
                    .and_then(|v: Value| from_json(&v))
                    .unwrap_or_else(|| Observation::Died(format!("garbled answer: {answer}")));
                if send.send(observation).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            // The first and the last STDERR_TAIL bytes: the reason a
            // runtime gives comes first, a codec's own last words last.
            let (mut head, mut tail) = (Vec::new(), Vec::new());
            let mut chunk = [0u8; 1024];
            while let Ok(n) = stderr.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let room = STDERR_TAIL.saturating_sub(head.len()).min(n);
                head.extend_from_slice(&chunk[..room]);
                tail.extend_from_slice(&chunk[room..n]);
                if tail.len() > STDERR_TAIL {
                    tail.drain(..tail.len() - STDERR_TAIL);
                }
            }
            head.push(b'\n');
            head.extend_from_slice(&tail);
            head
        });
        Ok(Running {
            child,
            stdin,
            answers,
            stderr,
        })
    }

    /// Runs the target on `bytes` in the worker, starting one when none is
    /// running, and replacing it when it dies or hangs.
    pub fn observe(&mut self, bytes: &[u8]) -> Observation {
        self.observe_all(&[bytes])
            .pop()
            .unwrap_or(Observation::Died("the worker gave no answer".into()))
    }

    /// Runs the target on each input in turn, sent to the worker in one
    /// batch; one observation per input, in order. A death or a hang is the
    /// observation of the input that caused it; the inputs after it go to
    /// a fresh worker.
    pub fn observe_all(&mut self, inputs: &[&[u8]]) -> Vec<Observation> {
        let mut observations = Vec::with_capacity(inputs.len());
        while observations.len() < inputs.len() {
            let pending = inputs.get(observations.len()..).unwrap_or_default();
            let mut running = match self.running.take() {
                Some(running) => running,
                None => match self.start() {
                    Ok(running) => running,
                    Err(e) => {
                        let how = format!("could not start a worker: {e}");
                        observations.resize(inputs.len(), Observation::Died(how));
                        break;
                    }
                },
            };
            let sent = pending.iter().try_for_each(|bytes| {
                let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
                running.stdin.write_all(&len.to_le_bytes())?;
                running.stdin.write_all(bytes)
            });
            let _ = sent.and_then(|()| running.stdin.flush());
            let mut ended = None;
            for _ in pending {
                match running.answers.recv_timeout(self.isolation.deadline) {
                    Ok(observation) => observations.push(observation),
                    Err(why) => {
                        ended = Some(why);
                        break;
                    }
                }
            }
            match ended {
                None => self.running = Some(running),
                Some(RecvTimeoutError::Timeout) => {
                    let _ = running.child.kill();
                    let _ = running.child.wait();
                    observations.push(Observation::TimedOut(self.isolation.deadline));
                }
                Some(RecvTimeoutError::Disconnected) => {
                    observations.push(Observation::Died(death(running)));
                }
            }
        }
        observations
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        if let Some(mut running) = self.running.take() {
            // Closing its input ends the worker's loop.
            drop(running.stdin);
            let _ = running.child.wait();
        }
    }
}

/// How a worker died: its exit status and the end of its standard error.
fn death(mut running: Running) -> String {
    drop(running.stdin);
    let status = running
        .child
        .wait()
        .map_or_else(|e| format!("unknown status: {e}"), describe);
    let tail = running.stderr.join().unwrap_or_default();
    let text = String::from_utf8_lossy(&tail);
    // The runtime's own words when it has some (an allocation failure, a
    // stack overflow), else the last line that is not a backtrace note.
    let known = [
        "memory allocation of",
        "overflowed its stack",
        "stack overflow",
    ];
    let last = text
        .lines()
        .find(|line| known.iter().any(|k| line.contains(k)))
        .or_else(|| {
            text.lines()
                .rev()
                .find(|line| !line.trim().is_empty() && !line.starts_with("note:"))
        })
        .unwrap_or("")
        .trim();
    if last.is_empty() {
        status
    } else {
        format!("{status}: {last}")
    }
}

#[cfg(unix)]
fn describe(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (_, Some(6)) => "killed by SIGABRT".into(),
        (_, Some(11)) => "killed by SIGSEGV".into(),
        (_, Some(9)) => "killed by SIGKILL".into(),
        (_, Some(signal)) => format!("killed by signal {signal}"),
        (Some(code), None) => format!("exited with status {code}"),
        (None, None) => "ended".into(),
    }
}

#[cfg(not(unix))]
fn describe(status: std::process::ExitStatus) -> String {
    format!("exited: {status}")
}

fn to_json(observation: &Observation) -> Value {
    match observation {
        Observation::Panicked(message) => json!({ "panic": message }),
        Observation::Died(how) => json!({ "died": how }),
        Observation::TimedOut(after) => json!({ "timed_out_ms": after.as_millis() as u64 }),
        Observation::Read { peak, verdict } => match verdict {
            Verdict::Accepted { reencoded } => json!({
                "peak": peak,
                "reencoded": reencoded.as_ref().ok().map(|b| crate::digest::hex(b)),
                "encode_error": reencoded.as_ref().err(),
            }),
            Verdict::Refused(refusal) => json!({
                "peak": peak,
                "refused": { "cause": refusal.cause, "at": refusal.at, "message": refusal.message },
            }),
        },
    }
}

fn from_json(value: &Value) -> Option<Observation> {
    if let Some(message) = value.get("panic") {
        return Some(Observation::Panicked(message.as_str()?.to_string()));
    }
    if let Some(how) = value.get("died") {
        return Some(Observation::Died(how.as_str()?.to_string()));
    }
    if let Some(ms) = value.get("timed_out_ms") {
        return Some(Observation::TimedOut(Duration::from_millis(ms.as_u64()?)));
    }
    let peak = usize::try_from(value.get("peak")?.as_u64()?).ok()?;
    let verdict = if let Some(refused) = value.get("refused") {
        Verdict::Refused(Refusal {
            cause: refused.get("cause")?.as_str()?.to_string(),
            at: refused.get("at")?.as_u64(),
            message: refused.get("message")?.as_str()?.to_string(),
        })
    } else {
        let reencoded = match value.get("reencoded").and_then(Value::as_str) {
            Some(hex) => Ok(crate::digest::unhex(hex)?),
            None => Err(value.get("encode_error")?.as_str()?.to_string()),
        };
        Verdict::Accepted { reencoded }
    };
    Some(Observation::Read { peak, verdict })
}

/// The worker's side: reads inputs from standard input until it closes,
/// and answers each with what `target` did with it.
///
/// # Errors
///
/// When standard input or output fails.
pub fn serve(target: &dyn Target) -> io::Result<()> {
    // Caught panics are answers; the default hook would also print them.
    std::panic::set_hook(Box::new(|_| {}));
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut len = [0u8; 4];
    loop {
        match input.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        }
        let mut bytes = vec![0u8; u32::from_le_bytes(len) as usize];
        input.read_exact(&mut bytes)?;
        let answer = to_json(&observe(target, &bytes));
        writeln!(output, "{PREFIX}{answer}")?;
        output.flush()?;
    }
}
