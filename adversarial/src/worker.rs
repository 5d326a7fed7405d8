//! Cases run in a worker process, so that what `catch_unwind` cannot catch
//! (an abort, an allocation failure, a stack overflow, an endless loop) is
//! a verdict about one case instead of the end of the campaign.
//!
//! The worker is the campaign's own binary started again with a hidden
//! command (`adversarial::cli` uses `__worker --target NAME`): it reads
//! inputs from standard input, runs [`observe`] on each (or a
//! conversation, for an endpoint target), and answers on standard output.
//! The parent sends a batch in one write; the worker holds its answers
//! back until its input runs dry (or for at most 1,024 answers or 20 ms), so
//! a batch costs a few system calls, not a few per case. When the worker
//! dies or misses the per-case deadline, the inputs it left unanswered run
//! again one at a time in a fresh worker until one dies or hangs too: that
//! is the case that did it ([`Observation::Died`] with the exit status and
//! the end of the worker's standard error, or [`Observation::TimedOut`]),
//! and the rest go on in a batch: the way libFuzzer's `-fork` mode
//! survives its targets.
//!
//! Parent to worker: each input as a 4-byte little-endian length and the
//! bytes. Worker to parent: one line per input, `@adversarial ` and a JSON
//! object (an accepted input that writes back to itself says `"same"`
//! rather than the bytes); any other line on standard output (the codec
//! under attack may print) is ignored.

use crate::oracle::{observe, Observation};
use crate::target::{Refusal, Target, Verdict};
use serde_json::{json, Value};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What starts every answer line.
const PREFIX: &str = "@adversarial ";

/// The longest a worker holds an answer back while more input waits.
const FLUSH_EVERY: Duration = Duration::from_millis(20);

/// The most answers a worker holds back while more input waits: what a
/// death or a hang makes the parent run again, one at a time.
const FLUSH_AFTER: usize = 1024;

/// How a worker that would not start is described.
const NO_START: &str = "could not start a worker";

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
    /// The same workers, each held to `mb` MiB of heap (by default
    /// [`crate::alloc::DEFAULT_WORKER_MEMORY_MB`]): a read that asks for
    /// more dies of it, an `oom` verdict on its case.
    #[must_use]
    pub fn memory_mb(self, mb: u64) -> Self {
        let Self { command, deadline } = self;
        Self {
            command: Box::new(move |target| {
                let mut command = command(target);
                command.env(crate::alloc::WORKER_MEMORY_ENV, mb.to_string());
                command
            }),
            deadline,
        }
    }

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

/// One job's workers: one per unit of the campaign (a target or an
/// endpoint), each started on first use; none when cases run in process.
pub(crate) struct Pool<'a> {
    isolation: Option<&'a Isolation>,
    slots: Vec<Option<Worker<'a>>>,
}

impl<'a> Pool<'a> {
    /// Room for `units` workers, under `isolation` if any.
    pub(crate) fn new(isolation: Option<&'a Isolation>, units: usize) -> Self {
        Self {
            isolation,
            slots: (0..units).map(|_| None).collect(),
        }
    }

    /// Unit `unit`'s worker, for the target called `name`; `None` in
    /// process.
    pub(crate) fn get(&mut self, unit: usize, name: &str) -> Option<&mut Worker<'a>> {
        let isolation = self.isolation?;
        let slot = self.slots.get_mut(unit)?;
        Some(slot.get_or_insert_with(|| Worker::new(isolation, name)))
    }
}

/// A running worker process for one target.
pub struct Worker<'a> {
    isolation: &'a Isolation,
    target: String,
    running: Option<Running>,
    traffic: Traffic,
}

/// What went between a parent and its worker processes: the costs per
/// case that are neither the harness's work nor the reader's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Inputs sent.
    pub inputs: u64,
    /// Bytes sent, lengths included.
    pub bytes_out: u64,
    /// Writes to the workers' input (one per batch).
    pub writes: u64,
    /// Bytes of answer lines received.
    pub bytes_back: u64,
    /// Worker processes started.
    pub started: u64,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<Vec<(usize, String)>>,
    stderr: JoinHandle<Vec<u8>>,
}

/// What a worker made of one input: its answer, or how it ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The worker's answer: the JSON after the prefix of its line.
    Said(String),
    /// The worker died on this input; the words say how.
    Died(String),
    /// No answer within the deadline; the worker was killed.
    TimedOut(Duration),
}

impl<'a> Worker<'a> {
    /// A worker for `target`, started on first use.
    #[must_use]
    pub fn new(isolation: &'a Isolation, target: &str) -> Self {
        Self {
            isolation,
            target: target.to_string(),
            running: None,
            traffic: Traffic::default(),
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
            // Answers are handed on in chunks, when no more are waiting in
            // the pipe: one wake-up of the parent per chunk, not per case.
            let mut reader = BufReader::with_capacity(1 << 16, stdout);
            let mut chunk = Vec::new();
            let mut line = String::new();
            loop {
                line.clear();
                let ended = !matches!(reader.read_line(&mut line), Ok(n) if n > 0);
                if let Some(answer) = line.trim_end().strip_prefix(PREFIX) {
                    chunk.push((line.len(), answer.to_string()));
                }
                let dry = ended || reader.buffer().is_empty();
                if dry && !chunk.is_empty() && send.send(std::mem::take(&mut chunk)).is_err() {
                    break;
                }
                if ended {
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

    /// What has gone between this parent and its worker processes so far.
    #[must_use]
    pub const fn traffic(&self) -> Traffic {
        self.traffic
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
        self.ask_all(inputs)
            .into_iter()
            .zip(inputs)
            .map(|(answer, input)| match answer {
                Answer::Said(line) => from_line(&line, input)
                    .unwrap_or_else(|| Observation::Died(format!("garbled answer: {line}"))),
                Answer::Died(how) => Observation::Died(how),
                Answer::TimedOut(after) => Observation::TimedOut(after),
            })
            .collect()
    }

    /// Sends each input in turn to the worker, in one batch; one answer per
    /// input, in order. A death or a hang is the answer to the input that
    /// caused it; the inputs after it go to a fresh worker.
    pub fn ask_all(&mut self, inputs: &[&[u8]]) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(inputs.len());
        while let Some(pending) = inputs.get(answers.len()..).filter(|p| !p.is_empty()) {
            let before = answers.len();
            let Err(ended) = self.exchange(pending, &mut answers) else {
                continue;
            };
            let unanswered = pending.get(answers.len() - before..).unwrap_or_default();
            if unanswered.len() <= 1
                || matches!(&ended, Answer::Died(how) if how.starts_with(NO_START))
            {
                answers.push(ended);
                continue;
            }
            // The worker holds answers back (see `serve_with`), so the
            // first input unanswered is not known to be the one that ended
            // it: the unanswered ones run alone, each in turn, until one
            // ends its worker too; that one is blamed, and the rest go on
            // in a batch again. Each costs a round trip, not a deadline.
            for input in unanswered {
                if let Err(ended) = self.exchange(&[*input], &mut answers) {
                    answers.push(ended);
                    break;
                }
            }
        }
        answers
    }

    /// Sends `pending` to the worker (started if none runs) in one write
    /// and pushes its answers onto `answers`; `Err` with how it ended when
    /// it died, hung or could not start before answering them all (the
    /// worker is then gone).
    fn exchange(&mut self, pending: &[&[u8]], answers: &mut Vec<Answer>) -> Result<(), Answer> {
        let mut running = match self.running.take() {
            Some(running) => running,
            None => {
                self.traffic.started += 1;
                self.start()
                    .map_err(|e| Answer::Died(format!("{NO_START}: {e}")))?
            }
        };
        let mut batch = Vec::with_capacity(pending.iter().map(|b| b.len() + 4).sum());
        for bytes in pending {
            let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
            batch.extend_from_slice(&len.to_le_bytes());
            batch.extend_from_slice(bytes);
        }
        let _ = running
            .stdin
            .write_all(&batch)
            .and_then(|()| running.stdin.flush());
        self.traffic.inputs += pending.len() as u64;
        self.traffic.bytes_out += batch.len() as u64;
        self.traffic.writes += 1;
        let mut answered = 0;
        while answered < pending.len() {
            match running.answers.recv_timeout(self.isolation.deadline) {
                Ok(chunk) => {
                    for (len, said) in chunk {
                        self.traffic.bytes_back += len as u64;
                        answers.push(Answer::Said(said));
                        answered += 1;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = running.child.kill();
                    let _ = running.child.wait();
                    return Err(Answer::TimedOut(self.isolation.deadline));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Answer::Died(death(running))),
            }
        }
        self.running = Some(running);
        Ok(())
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

/// A packet reader's answer: a JSON array whose first item names it
/// (arrays cost the parent less to read than objects, per case).
fn to_line(observation: &Observation, input: &[u8]) -> String {
    let line = match observation {
        Observation::Panicked(message) => serde_json::to_string(&("panic", message)),
        Observation::Died(how) => serde_json::to_string(&("died", how)),
        Observation::TimedOut(after) => {
            let ms = u64::try_from(after.as_millis()).unwrap_or(u64::MAX);
            serde_json::to_string(&("timed_out_ms", ms))
        }
        Observation::Read { peak, verdict } => match verdict {
            // Most accepted inputs write back to themselves: one word.
            Verdict::Accepted {
                reencoded: Ok(again),
            } if again == input => serde_json::to_string(&("same", peak)),
            Verdict::Accepted {
                reencoded: Ok(again),
            } => serde_json::to_string(&("accepted", peak, crate::digest::hex(again))),
            Verdict::Accepted {
                reencoded: Err(why),
            } => serde_json::to_string(&("unencodable", peak, why)),
            Verdict::Refused(refusal) => serde_json::to_string(&(
                "refused",
                peak,
                &refusal.cause,
                refusal.at,
                &refusal.message,
            )),
        },
    };
    line.unwrap_or_else(|e| json!(["died", format!("unwritable answer: {e}")]).to_string())
}

/// The observation a [`to_line`] answer for `input` holds.
fn from_line(line: &str, input: &[u8]) -> Option<Observation> {
    let fields: Vec<Value> = serde_json::from_str(line).ok()?;
    let text = |i: usize| fields.get(i).and_then(Value::as_str).map(str::to_string);
    let number = |i: usize| fields.get(i).and_then(Value::as_u64);
    let peak = || usize::try_from(number(1)?).ok();
    let accepted = |reencoded| Verdict::Accepted { reencoded };
    let verdict = match fields.first()?.as_str()? {
        "panic" => return Some(Observation::Panicked(text(1)?)),
        "died" => return Some(Observation::Died(text(1)?)),
        "timed_out_ms" => return Some(Observation::TimedOut(Duration::from_millis(number(1)?))),
        "same" => accepted(Ok(input.to_vec())),
        "accepted" => accepted(Ok(crate::digest::unhex(&text(2)?)?)),
        "unencodable" => accepted(Err(text(2)?)),
        "refused" => Verdict::Refused(Refusal {
            cause: text(2)?,
            at: number(3),
            message: text(4)?,
        }),
        _ => return None,
    };
    Some(Observation::Read {
        peak: peak()?,
        verdict,
    })
}

/// The worker's side: reads inputs from standard input until it closes,
/// and answers each with what `target` did with it.
///
/// # Errors
///
/// When standard input or output fails.
pub fn serve(target: &dyn Target) -> io::Result<()> {
    serve_with(|bytes| to_line(&observe(target, bytes), bytes))
}

/// The worker's side for any kind of work: reads inputs from standard
/// input until it closes, and answers each with `answer` of it.
///
/// # Errors
///
/// When standard input or output fails.
pub fn serve_with(mut answer: impl FnMut(&[u8]) -> String) -> io::Result<()> {
    // An allocation bomb ends this worker (an `oom` verdict), not the host.
    crate::alloc::limit_memory(crate::alloc::worker_limit());
    // Caught panics are answers; the default hook would also print them.
    std::panic::set_hook(Box::new(|_| {}));
    let mut input = io::BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut output = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut flushed = Instant::now();
    let mut held = 0;
    let mut len = [0u8; 4];
    loop {
        match input.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return output.flush(),
            Err(e) => return Err(e),
        }
        let mut bytes = vec![0u8; u32::from_le_bytes(len) as usize];
        input.read_exact(&mut bytes)?;
        let said = answer(&bytes);
        writeln!(output, "{PREFIX}{said}")?;
        // Answers go out when the input runs dry (the parent is waiting),
        // every FLUSH_AFTER answers or FLUSH_EVERY, not one write per answer.
        held += 1;
        if input.buffer().is_empty() || held >= FLUSH_AFTER || flushed.elapsed() >= FLUSH_EVERY {
            output.flush()?;
            flushed = Instant::now();
            held = 0;
        }
    }
}
