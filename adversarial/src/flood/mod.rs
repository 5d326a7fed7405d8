//! A live UDP endpoint under attack: honest clients send valid packets at a
//! fixed rate while an attacker sends the campaign's malicious cases as
//! fast as the machine allows, all on 127.0.0.1 and for a bounded time.
//!
//! The server under attack acknowledges every packet it accepts with the
//! packet's 64-bit FNV-1a fingerprint (8 bytes, little-endian): the
//! datagram's, or over `link` the packet's it delivered. Its
//! control socket answers `stats` with its counters as JSON, and
//! `verdicts` with the verdicts it gave since the last such request, one
//! line each: the sender's port, the fingerprint in 16 hex digits, and
//! `accepted` or the refusal's cause (an empty reply: no more). The game
//! example's server does all three. The flood then knows, datagram by
//! datagram, whether each malicious one got the verdict it was owed, and
//! where each lost honest packet was lost.

mod bombers;
mod ledger;
mod transport;

pub use ledger::{verdict_is_owed, Ledger, WrongVerdict};
pub use transport::{Carried, Transport, STORED};

use crate::digest::fnv1a;
use crate::mutate::{self, Class, Owed};
use crate::target::Target;
use arbitrary::Unstructured;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

/// The most datagrams a flood sends, whatever its duration (about half an
/// hour at the rate this machine reaches).
const MAX_DATAGRAMS: u64 = 500_000_000;

/// At the end, the honest clients wait for late acknowledgements until
/// none has come for `QUIET`, and at most `DRAIN`.
const QUIET: Duration = Duration::from_secs(1);
const DRAIN: Duration = Duration::from_secs(10);

/// At the end, the flood waits for the server to have read all it will:
/// its `received` counter the same `QUIET` apart, at most `SETTLE`.
const SETTLE: Duration = Duration::from_secs(30);

/// How often the flood asks for the server's verdicts.
const VERDICT_POLL: Duration = Duration::from_millis(20);

/// How long a malicious datagram may wait for its verdict (one to two of
/// these) before the flood gives up on it as dropped by the kernel.
const VERDICT_AGE: Duration = Duration::from_secs(2);

/// How long the flood waits at the end for the server's last verdicts,
/// and then for its counters.
const FINAL_WAIT: Duration = Duration::from_secs(2);

/// What to flood and for how long.
#[derive(Clone, Debug)]
pub struct FloodConfig {
    /// The server's game socket (must be on 127.0.0.1).
    pub endpoint: SocketAddr,
    /// Its control socket, for the `stats` and `verdicts` requests.
    pub control: SocketAddr,
    /// How long to send.
    pub seconds: f64,
    /// Packets per second from each honest client.
    pub rate: u32,
    /// Honest clients, each on its own socket.
    pub honest_clients: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// Send every packet over a `link` endpoint with this configuration
    /// (the server must speak it too), fragments included; `None` sends
    /// each packet in a datagram of its own.
    pub link: Option<link::Config>,
    /// With `link`: this many more source ports send reassembly bombs
    /// (first fragments, never the rest) and each fragment again with other
    /// bytes, beside the packet-by-packet lies. 0 for none.
    pub bombers: usize,
}

/// What a flood saw.
#[derive(Debug, Default)]
pub struct FloodReport {
    /// Honest packets sent.
    pub honest_sent: u64,
    /// Honest packets acknowledged.
    pub honest_acked: u64,
    /// Honest packets the server said it accepted.
    pub honest_accepted: u64,
    /// Honest packets the server refused, by cause.
    pub honest_refused: BTreeMap<String, u64>,
    /// Malicious datagrams sent.
    pub malicious_sent: u64,
    /// Malicious datagrams owed a refusal.
    pub owed_refusal: u64,
    /// Of the malicious datagrams, those the stateful attacker sent.
    pub stateful_sent: u64,
    /// Malicious datagrams owed a refusal that the server acknowledged.
    pub wrongly_accepted: u64,
    /// The malicious datagrams' verdicts, checked one by one.
    pub malicious: Ledger,
    /// Datagrams the kernel dropped at the server's socket during the
    /// flood (its receive buffer was full), from `/proc/net/udp`.
    pub kernel_drops: Option<u64>,
    /// Datagrams the kernel dropped at the honest clients' sockets:
    /// acknowledgements lost on their way back.
    pub client_kernel_drops: Option<u64>,
    /// Whether the server answered `stats` at the end.
    pub server_answered: bool,
    /// The server's counters, as it reported them at the end.
    pub server_stats: Option<String>,
    /// The server's resident memory in KiB, asked once a second: (seconds
    /// into the flood, KiB).
    pub memory: Vec<(f64, u64)>,
    /// Honest ticks sent late: more than one period after they were due.
    pub late_ticks: u64,
    /// Wall-clock time spent sending.
    pub elapsed: Duration,
}

impl FloodReport {
    /// Honest packets not acknowledged.
    #[must_use]
    pub const fn honest_lost(&self) -> u64 {
        self.honest_sent.saturating_sub(self.honest_acked)
    }

    /// Honest packets refused by the server.
    #[must_use]
    pub fn honest_refused_total(&self) -> u64 {
        self.honest_refused.values().sum()
    }

    /// Honest packets the server never judged: lost before it read them.
    #[must_use]
    pub fn honest_unseen(&self) -> u64 {
        self.honest_sent
            .saturating_sub(self.honest_accepted)
            .saturating_sub(self.honest_refused_total())
    }

    /// Honest packets the server accepted whose acknowledgement did not
    /// come back.
    #[must_use]
    pub const fn honest_ack_lost(&self) -> u64 {
        self.honest_accepted.saturating_sub(self.honest_acked)
    }

    /// A counter of the server's final stats.
    #[must_use]
    pub fn server_counter(&self, key: &str) -> Option<u64> {
        serde_json::from_str::<serde_json::Value>(self.server_stats.as_deref()?)
            .ok()?
            .get(key)?
            .as_u64()
    }

    /// Whether the server kept its promise: it answered to the end; every
    /// malicious datagram it judged got the verdict it was owed and none
    /// owed a refusal was acknowledged; it refused no honest packet; and
    /// every honest packet lost is explained by the kernel, dropped at the
    /// server's socket before it was read (or at the client's, for its
    /// acknowledgement).
    #[must_use]
    pub fn passed(&self) -> bool {
        let server_side =
            self.kernel_drops.unwrap_or(0) + self.server_counter("unlogged").unwrap_or(0);
        self.server_answered
            && self.malicious.wrong == 0
            && self.wrongly_accepted == 0
            && self.honest_refused_total() == 0
            && self.honest_unseen() <= server_side
            && self.honest_ack_lost() <= self.client_kernel_drops.unwrap_or(0)
    }
}

/// The drop counter of the UDP socket bound to `port` on 127.0.0.1, from
/// `/proc/net/udp` (Linux).
#[must_use]
pub fn kernel_drops(port: u16) -> Option<u64> {
    let table = std::fs::read_to_string("/proc/net/udp").ok()?;
    let local = format!("0100007F:{port:04X}");
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.get(1) == Some(&local.as_str()))
            .then(|| fields.last()?.parse().ok())
            .flatten()
    })
}

fn drops_at(ports: &[u16]) -> Option<u64> {
    ports.iter().map(|port| kernel_drops(*port)).sum()
}

/// Datagrams sent and not yet acknowledged, by fingerprint, with how many
/// of each (identical packets are acknowledged once each).
#[derive(Default)]
struct Pending(HashMap<u64, u32>);

impl Pending {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn add(&mut self, fingerprint: u64) {
        *self.0.entry(fingerprint).or_default() += 1;
    }

    fn remove(&mut self, fingerprint: u64) -> bool {
        match self.0.get_mut(&fingerprint) {
            Some(count) if *count > 1 => {
                *count -= 1;
                true
            }
            Some(_) => self.0.remove(&fingerprint).is_some(),
            None => false,
        }
    }
}

/// Acknowledgements waiting on `socket`, removed from `pending`; returns
/// how many matched.
fn take_acks(socket: &UdpSocket, pending: &mut Pending) -> u64 {
    let mut ack = [0u8; 16];
    let mut matched = 0;
    while let Ok(len) = socket.recv(&mut ack) {
        if let Some(bytes) = ack.get(..len).and_then(|a| a.first_chunk::<8>()) {
            if pending.remove(u64::from_le_bytes(*bytes)) {
                matched += 1;
            }
        }
    }
    matched
}

fn loopback_socket(to: SocketAddr) -> io::Result<UdpSocket> {
    let socket = UdpSocket::bind("127.0.0.1:0")?;
    socket.connect(to)?;
    socket.set_nonblocking(true)?;
    Ok(socket)
}

fn port(socket: &UdpSocket) -> io::Result<u16> {
    Ok(socket.local_addr()?.port())
}

/// The server's control socket. During the flood its requests do not
/// wait: replies are taken as they come, so the attacker never stalls on a
/// server that is busy reading. At the end, requests wait (bounded).
struct Control {
    socket: UdpSocket,
    reply: Vec<u8>,
    /// When the `verdicts` request still unanswered was sent.
    verdicts_asked: Option<Instant>,
}

/// What one reply of the control socket held.
enum Reply<'a> {
    Stats(&'a str),
    Verdicts(&'a str),
}

impl Control {
    fn connect(to: SocketAddr) -> io::Result<Self> {
        let socket = UdpSocket::bind("127.0.0.1:0")?;
        socket.connect(to)?;
        socket.set_nonblocking(true)?;
        Ok(Self {
            socket,
            reply: vec![0u8; 64 * 1024],
            verdicts_asked: None,
        })
    }

    fn ask_stats(&self) {
        let _ = self.socket.send(b"stats");
    }

    /// Asks for verdicts unless a request is on its way (one unanswered
    /// for a second is taken as lost and asked again).
    fn ask_verdicts(&mut self) {
        if self
            .verdicts_asked
            .is_some_and(|at| at.elapsed() < Duration::from_secs(1))
        {
            return;
        }
        if self.socket.send(b"verdicts").is_ok() {
            self.verdicts_asked = Some(Instant::now());
        }
    }

    /// The next reply waiting, if any.
    fn next_reply(&mut self) -> Option<Reply<'_>> {
        let len = self.socket.recv(&mut self.reply).ok()?;
        let text = std::str::from_utf8(self.reply.get(..len)?).ok()?;
        if text.starts_with('{') {
            Some(Reply::Stats(text))
        } else {
            self.verdicts_asked = None;
            Some(Reply::Verdicts(text))
        }
    }

    /// Handles every reply waiting: stats go to `stats`, verdict lines to
    /// `verdict` as (port, fingerprint, verdict). A non-empty verdicts
    /// reply is followed by a new request at once, since more may wait.
    /// Returns the verdict lines handled and whether an empty verdicts
    /// reply (none left) came.
    fn take_replies(
        &mut self,
        mut verdict: impl FnMut(u16, u64, &str),
        mut stats: impl FnMut(&str),
    ) -> (u64, bool) {
        let (mut lines, mut drained) = (0, false);
        while let Some(reply) = self.next_reply() {
            match reply {
                Reply::Stats(text) => stats(text),
                Reply::Verdicts("") => drained = true,
                Reply::Verdicts(text) => {
                    for line in text.lines() {
                        lines += 1;
                        let mut fields = line.split(' ');
                        let port = fields.next().and_then(|p| p.parse().ok());
                        let print = fields.next().and_then(|f| u64::from_str_radix(f, 16).ok());
                        if let (Some(port), Some(print), Some(said)) = (port, print, fields.next())
                        {
                            verdict(port, print, said);
                        }
                    }
                    self.ask_verdicts();
                }
            }
        }
        (lines, drained)
    }
}

/// A valid sample of `target` from fresh entropy; a generator may turn
/// some entropy down, so it gets a few tries.
fn generate(
    target: &dyn Target,
    rng: &mut ChaCha8Rng,
    entropy: &mut [u8],
) -> Option<crate::target::Sample> {
    (0..16).find_map(|_| {
        rng.fill_bytes(entropy);
        target.generate(&mut Unstructured::new(entropy)).ok()
    })
}

/// What the honest clients did.
#[derive(Default)]
struct HonestTally {
    sent: u64,
    acked: u64,
    late_ticks: u64,
}

/// The honest clients, on their own thread as a game's clients would be:
/// every `period` each socket sends a valid packet of `target`, and the
/// acknowledgements are matched, until `deadline` and a short drain after.
fn honest_clients(
    target: &dyn Target,
    sockets: &[UdpSocket],
    link: Option<&link::Config>,
    seed: u64,
    period: Duration,
    deadline: Instant,
) -> HonestTally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut entropy = vec![0u8; 4096];
    let mut unacked = Pending::default();
    let mut tally = HonestTally::default();
    let mut transports: Vec<Transport> = sockets
        .iter()
        .filter_map(|_| Transport::new(link).ok())
        .collect();
    let mut next_tick = Instant::now();
    while next_tick < deadline {
        let now = Instant::now();
        if now < next_tick {
            std::thread::sleep(next_tick - now);
        } else if now > next_tick + period {
            tally.late_ticks += 1;
        }
        next_tick += period;
        for (socket, transport) in sockets.iter().zip(&mut transports) {
            let Some(sample) = generate(target, &mut rng, &mut entropy) else {
                continue;
            };
            // A packet is acknowledged once, by its own fingerprint.
            let print = fnv1a(&sample.bytes);
            transport.carry(&sample.bytes, |datagram, last| {
                if socket.send(datagram).is_ok() && last {
                    unacked.add(print);
                    tally.sent += 1;
                }
            });
        }
        for socket in sockets {
            tally.acked += take_acks(socket, &mut unacked);
        }
    }
    // A server slowed by a busy machine acknowledges late: wait while
    // acknowledgements keep coming.
    let drain_until = Instant::now() + DRAIN;
    let mut last_ack = Instant::now();
    while Instant::now() < drain_until && last_ack.elapsed() < QUIET && !unacked.is_empty() {
        for socket in sockets {
            let acked = take_acks(socket, &mut unacked);
            if acked > 0 {
                last_ack = Instant::now();
            }
            tally.acked += acked;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    tally
}

/// The ports the honest clients send from, whose verdicts are theirs.
type HonestPorts = HashSet<u16>;

/// Handles the control socket's waiting replies: honest verdicts by port,
/// the attacker's through the ledger, memory samples into the report.
/// Returns whether an empty verdicts reply (none left) came.
fn take_replies(
    control: &mut Control,
    honest: &HonestPorts,
    started: Instant,
    report: &mut FloodReport,
) -> bool {
    let mut stats = None;
    let (_, drained) = control.take_replies(
        |port, print, verdict| {
            if honest.contains(&port) {
                // A fragment stored says nothing yet of its packet.
                if verdict == STORED {
                } else if verdict == "accepted" {
                    report.honest_accepted += 1;
                } else {
                    *report
                        .honest_refused
                        .entry(verdict.to_string())
                        .or_default() += 1;
                }
            } else {
                report.malicious.judged(print, verdict);
            }
        },
        |text| stats = Some(text.to_string()),
    );
    if let Some(text) = stats {
        if let Some(rss) = rss_kb(&text) {
            report.memory.push((started.elapsed().as_secs_f64(), rss));
        }
        report.server_stats = Some(text);
    }
    drained
}

/// What a fragment before the last is owed: to be stored.
pub(crate) const STORED_OWED: Owed = Owed::Refusal {
    causes: &[STORED],
    at: None,
};

/// The verdict a malicious datagram is owed by a server that refuses an
/// empty datagram before decoding it.
fn owed_by_server(case: &mutate::Case) -> Owed {
    if case.bytes.is_empty() && case.owed != Owed::Anything {
        Owed::Refusal {
            causes: &["empty"],
            at: None,
        }
    } else {
        case.owed.clone()
    }
}

/// The attacker's side of a flood: its socket, the control socket, and the
/// clocks of its periodic chores.
struct Attacker<'a> {
    socket: UdpSocket,
    transport: Transport,
    bombers: Option<bombers::Bombers>,
    control: Control,
    honest: &'a HonestPorts,
    owed_refusal: Pending,
    started: Instant,
    next_sample: Instant,
    next_poll: Instant,
    next_age: Instant,
}

impl Attacker<'_> {
    /// Sends one case and records what it is owed.
    fn send(&mut self, class: Class, case: &mutate::Case, report: &mut FloodReport) {
        let socket = &self.socket;
        let owed_refusal = &mut self.owed_refusal;
        let mut datagrams = Vec::new();
        let carried = self.transport.carry(&case.bytes, |datagram, last| {
            if socket.send(datagram).is_ok() {
                datagrams.push((fnv1a(datagram), last));
            }
        });
        let owed = match carried {
            Carried::Sent => owed_by_server(case),
            Carried::Oversized => Owed::Refusal {
                causes: &["packet-too-large"],
                at: None,
            },
        };
        for (print, last) in datagrams {
            if !last {
                // A fragment before the last is stored; its packet's
                // verdict comes with the last.
                report.malicious.sent(print, &STORED_OWED, class.name());
                continue;
            }
            if matches!(owed, Owed::Refusal { .. } | Owed::AnyRefusal) {
                // Acknowledged, it would be by the packet's fingerprint.
                owed_refusal.add(fnv1a(&case.bytes));
                report.owed_refusal += 1;
            }
            report.malicious.sent(print, &owed, class.name());
            report.malicious_sent += 1;
        }
    }

    /// One round of the stateful attacker's partial packets, if any.
    fn bomb(&mut self, report: &mut FloodReport) {
        if let Some(bombers) = self.bombers.as_mut() {
            bombers.round(|print, owed, class| {
                report.malicious.sent(print, owed, class);
                report.malicious_sent += 1;
                report.stateful_sent += 1;
            });
        }
    }

    /// The periodic chores: acknowledgements of lies, the control
    /// socket's replies, requests for verdicts and memory, and giving up on
    /// old datagrams. None of them waits.
    fn chores(&mut self, report: &mut FloodReport) {
        report.wrongly_accepted += take_acks(&self.socket, &mut self.owed_refusal);
        take_replies(&mut self.control, self.honest, self.started, report);
        let now = Instant::now();
        if now >= self.next_sample {
            self.next_sample += Duration::from_secs(1);
            self.control.ask_stats();
        }
        if now >= self.next_poll {
            self.next_poll = now + VERDICT_POLL;
            self.control.ask_verdicts();
        }
        if now >= self.next_age {
            self.next_age += VERDICT_AGE;
            report.malicious.age();
        }
    }

    /// Waits until the server has read all it will (its `received`
    /// counter unchanged over [`QUIET`]), taking verdicts meanwhile, at
    /// most [`SETTLE`]: a server behind on a busy machine is judged on
    /// what it read, not on how fast.
    fn settle(&mut self, report: &mut FloodReport) {
        let until = Instant::now() + SETTLE;
        let mut last: Option<u64> = None;
        while Instant::now() < until {
            report.server_stats = None;
            self.control.ask_stats();
            let asked = Instant::now();
            while report.server_stats.is_none() && asked.elapsed() < QUIET {
                take_replies(&mut self.control, self.honest, self.started, report);
                self.control.ask_verdicts();
                std::thread::sleep(Duration::from_millis(5));
            }
            let received = report.server_counter("received");
            if received.is_some() && received == last {
                return;
            }
            last = received;
            let pause = Instant::now() + QUIET;
            while Instant::now() < pause {
                take_replies(&mut self.control, self.honest, self.started, report);
                self.control.ask_verdicts();
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// After the flood: waits (bounded) for the server's last verdicts,
    /// until it says there are none left, then for its final counters.
    fn finish(&mut self, report: &mut FloodReport) {
        report.wrongly_accepted += take_acks(&self.socket, &mut self.owed_refusal);
        self.settle(report);
        report.wrongly_accepted += take_acks(&self.socket, &mut self.owed_refusal);
        let until = Instant::now() + FINAL_WAIT;
        self.control.verdicts_asked = None;
        self.control.ask_verdicts();
        while Instant::now() < until {
            if take_replies(&mut self.control, self.honest, self.started, report) {
                break;
            }
            self.control.ask_verdicts();
            std::thread::sleep(Duration::from_millis(1));
        }
        report.server_stats = None;
        self.control.ask_stats();
        let until = Instant::now() + FINAL_WAIT;
        while report.server_stats.is_none() && Instant::now() < until {
            take_replies(&mut self.control, self.honest, self.started, report);
            std::thread::sleep(Duration::from_millis(1));
        }
        report.server_answered = report.server_stats.is_some();
    }
}

/// Floods the endpoint with `target`'s samples (honest) and cases
/// (malicious), and reports.
///
/// # Errors
///
/// When the endpoint is not on 127.0.0.1, or a socket fails.
pub fn flood(target: &dyn Target, config: &FloodConfig) -> io::Result<FloodReport> {
    if !config.endpoint.ip().is_loopback() || !config.control.ip().is_loopback() {
        return Err(io::Error::other("a flood only goes to 127.0.0.1"));
    }
    let framing = target.framing();
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut entropy = vec![0u8; 4096];
    let mut choices = vec![0u8; 4096];
    let sockets: Vec<UdpSocket> = (0..config.honest_clients.max(1))
        .map(|_| loopback_socket(config.endpoint))
        .collect::<io::Result<_>>()?;
    let honest_ports: Vec<u16> = sockets.iter().map(port).collect::<io::Result<_>>()?;
    let honest_set: HonestPorts = honest_ports.iter().copied().collect();
    let drops_before = kernel_drops(config.endpoint.port());
    let client_drops_before = drops_at(&honest_ports);
    let mut report = FloodReport::default();
    let period = Duration::from_secs_f64(1.0 / f64::from(config.rate.max(1)));
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(config.seconds.max(0.0));
    let mut attacker = Attacker {
        socket: loopback_socket(config.endpoint)?,
        transport: Transport::new(config.link.as_ref()).map_err(io::Error::other)?,
        bombers: match &config.link {
            Some(link) if config.bombers > 0 => Some(bombers::Bombers::new(
                config.endpoint,
                config.bombers,
                link,
            )?),
            _ => None,
        },
        control: Control::connect(config.control)?,
        honest: &honest_set,
        owed_refusal: Pending::default(),
        started,
        next_sample: started,
        next_poll: started,
        next_age: started + VERDICT_AGE,
    };
    let honest_seed = rng.next_u64();
    let tally = std::thread::scope(|scope| {
        let honest = scope.spawn(|| {
            honest_clients(
                target,
                &sockets,
                config.link.as_ref(),
                honest_seed,
                period,
                deadline,
            )
        });
        'flood: while Instant::now() < deadline && report.malicious_sent < MAX_DATAGRAMS {
            attacker.chores(&mut report);
            let Some(sample) = generate(target, &mut rng, &mut entropy) else {
                continue;
            };
            for &class in target.classes() {
                rng.fill_bytes(&mut choices);
                let mut u = Unstructured::new(&choices);
                let cases = mutate::target_cases(target, class, &sample, &framing, &mut u);
                for (i, case) in cases.iter().enumerate() {
                    attacker.send(class, case, &mut report);
                    if i % 64 == 63 {
                        attacker.chores(&mut report);
                        if Instant::now() >= deadline {
                            break 'flood;
                        }
                    }
                }
                attacker.chores(&mut report);
            }
            attacker.bomb(&mut report);
        }
        report.elapsed = started.elapsed();
        honest.join().unwrap_or_default()
    });
    report.honest_sent = tally.sent;
    report.honest_acked = tally.acked;
    report.late_ticks = tally.late_ticks;
    // The honest thread drained its acknowledgements; the server has read
    // all it will: its last verdicts and counters come now.
    attacker.finish(&mut report);
    report.malicious.close();
    report.kernel_drops = drops_before
        .zip(kernel_drops(config.endpoint.port()))
        .map(|(before, after)| after.saturating_sub(before));
    report.client_kernel_drops = client_drops_before
        .zip(drops_at(&honest_ports))
        .map(|(before, after)| after.saturating_sub(before));
    Ok(report)
}

/// The `rss_kb` a server's stats report.
fn rss_kb(stats: &str) -> Option<u64> {
    serde_json::from_str::<serde_json::Value>(stats)
        .ok()?
        .get("rss_kb")?
        .as_u64()
}
