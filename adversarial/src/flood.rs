//! A live UDP endpoint under attack: honest clients send valid packets at a
//! fixed rate while an attacker sends the campaign's malicious cases as
//! fast as the machine allows, all on 127.0.0.1 and for a bounded time.
//!
//! The server under attack acknowledges every packet it accepts with the
//! datagram's 64-bit FNV-1a fingerprint (8 bytes, little-endian), and
//! answers `stats` on a control socket with its counters as JSON. The flood
//! then knows which honest packets got through, and whether a malicious
//! one that was owed a refusal got accepted.

use crate::campaign::fnv1a;
use crate::mutate::{self, Class, Owed};
use crate::target::Target;
use arbitrary::Unstructured;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

/// The most datagrams a flood sends, whatever its duration (about half an
/// hour at the rate this machine reaches).
const MAX_DATAGRAMS: u64 = 500_000_000;

/// How long the flood waits for late acknowledgements at the end.
const DRAIN: Duration = Duration::from_millis(300);

/// What to flood and for how long.
#[derive(Clone, Debug)]
pub struct FloodConfig {
    /// The server's game socket (must be on 127.0.0.1).
    pub endpoint: SocketAddr,
    /// Its control socket, for the `stats` request.
    pub control: Option<SocketAddr>,
    /// How long to send.
    pub seconds: f64,
    /// Packets per second from each honest client.
    pub rate: u32,
    /// Honest clients, each on its own socket.
    pub honest_clients: usize,
    /// The seed of every random choice.
    pub seed: u64,
}

/// What a flood saw.
#[derive(Clone, Debug, Default)]
pub struct FloodReport {
    /// Honest packets sent.
    pub honest_sent: u64,
    /// Honest packets acknowledged.
    pub honest_acked: u64,
    /// Malicious datagrams sent.
    pub malicious_sent: u64,
    /// Malicious datagrams owed a refusal.
    pub owed_refusal: u64,
    /// Malicious datagrams owed a refusal that the server acknowledged:
    /// accepted where it should have refused.
    pub wrongly_accepted: u64,
    /// Datagrams the kernel dropped at the server's socket during the flood
    /// (its receive buffer was full), from `/proc/net/udp`, when readable.
    pub kernel_drops: Option<u64>,
    /// The server's counters, as it reported them at the end.
    pub server_stats: Option<String>,
    /// The server's resident memory in KiB, asked once a second: (seconds
    /// into the flood, KiB).
    pub memory: Vec<(f64, u64)>,
    /// Wall-clock time spent sending.
    pub elapsed: Duration,
}

impl FloodReport {
    /// Honest packets not acknowledged.
    #[must_use]
    pub const fn honest_lost(&self) -> u64 {
        self.honest_sent.saturating_sub(self.honest_acked)
    }

    /// Whether the server kept its promise: nothing owed a refusal was
    /// accepted, and every honest packet was acknowledged unless the kernel
    /// dropped at least as many datagrams as were lost before they reached
    /// the server.
    #[must_use]
    pub fn passed(&self) -> bool {
        let explained = self.kernel_drops.unwrap_or(0);
        self.wrongly_accepted == 0 && self.honest_lost() <= explained
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

/// Datagrams sent and not yet acknowledged, by fingerprint, with how many
/// of each (identical packets are acknowledged once each).
#[derive(Default)]
struct Pending(HashMap<u64, u32>);

impl Pending {
    fn add(&mut self, bytes: &[u8]) {
        *self.0.entry(fnv1a(bytes)).or_default() += 1;
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

/// Floods the endpoint with `target`'s samples (honest) and cases
/// (malicious), and reports.
///
/// # Errors
///
/// When the endpoint is not on 127.0.0.1, or a socket fails.
pub fn flood(target: &dyn Target, config: &FloodConfig) -> io::Result<FloodReport> {
    if !config.endpoint.ip().is_loopback() {
        return Err(io::Error::other("a flood only goes to 127.0.0.1"));
    }
    let framing = target.framing();
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut entropy = vec![0u8; 4096];
    let mut choices = vec![0u8; 4096];
    let honest: Vec<UdpSocket> = (0..config.honest_clients.max(1))
        .map(|_| loopback_socket(config.endpoint))
        .collect::<io::Result<_>>()?;
    let attacker = loopback_socket(config.endpoint)?;
    let drops_before = kernel_drops(config.endpoint.port());
    let mut report = FloodReport::default();
    let mut honest_pending = Pending::default();
    let mut owed_refusal = Pending::default();
    let period = Duration::from_secs_f64(1.0 / f64::from(config.rate.max(1)));
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(config.seconds.max(0.0));
    let mut next_honest = started;
    let mut next_sample = started;
    let mut sent = 0u64;
    while Instant::now() < deadline && sent < MAX_DATAGRAMS {
        if let (Some(control), true) = (config.control, Instant::now() >= next_sample) {
            next_sample += Duration::from_secs(1);
            if let Some(rss) = fetch_stats(control).ok().and_then(|s| rss_kb(&s)) {
                report.memory.push((started.elapsed().as_secs_f64(), rss));
            }
        }
        // Every honest tick that is due (a long malicious burst may have
        // let a few pass), at most a few at once.
        let mut due = 0;
        while Instant::now() >= next_honest && due < 4 {
            due += 1;
            next_honest += period;
            for socket in &honest {
                rng.fill_bytes(&mut entropy);
                let Ok(sample) = target.generate(&mut Unstructured::new(&entropy)) else {
                    continue;
                };
                if socket.send(&sample.bytes).is_ok() {
                    honest_pending.add(&sample.bytes);
                    report.honest_sent += 1;
                    sent += 1;
                }
            }
        }
        for socket in &honest {
            report.honest_acked += take_acks(socket, &mut honest_pending);
        }
        // Malicious cases of one sample until the next honest tick is due.
        rng.fill_bytes(&mut entropy);
        if let Ok(sample) = target.generate(&mut Unstructured::new(&entropy)) {
            'classes: for class in Class::ALL {
                rng.fill_bytes(&mut choices);
                let mut u = Unstructured::new(&choices);
                for (i, case) in mutate::cases(class, &sample, &framing, &mut u)
                    .into_iter()
                    .enumerate()
                {
                    if matches!(case.owed, Owed::Refusal { .. } | Owed::AnyRefusal) {
                        owed_refusal.add(&case.bytes);
                        report.owed_refusal += 1;
                    }
                    if attacker.send(&case.bytes).is_ok() {
                        report.malicious_sent += 1;
                        sent += 1;
                    }
                    if i % 64 == 63 && Instant::now() >= next_honest {
                        break 'classes;
                    }
                }
                report.wrongly_accepted += take_acks(&attacker, &mut owed_refusal);
                if Instant::now() >= next_honest {
                    break;
                }
            }
            report.wrongly_accepted += take_acks(&attacker, &mut owed_refusal);
        }
    }
    report.elapsed = started.elapsed();
    let drain_until = Instant::now() + DRAIN;
    while Instant::now() < drain_until {
        for socket in &honest {
            report.honest_acked += take_acks(socket, &mut honest_pending);
        }
        report.wrongly_accepted += take_acks(&attacker, &mut owed_refusal);
        std::thread::sleep(Duration::from_millis(5));
    }
    report.kernel_drops = drops_before
        .zip(kernel_drops(config.endpoint.port()))
        .map(|(before, after)| after.saturating_sub(before));
    if let Some(control) = config.control {
        report.server_stats = fetch_stats(control).ok();
    }
    Ok(report)
}

/// The `rss_kb` a server's stats report.
fn rss_kb(stats: &str) -> Option<u64> {
    serde_json::from_str::<serde_json::Value>(stats)
        .ok()?
        .get("rss_kb")?
        .as_u64()
}

/// Asks the server's control socket for its counters.
fn fetch_stats(control: SocketAddr) -> io::Result<String> {
    let socket = UdpSocket::bind("127.0.0.1:0")?;
    socket.set_read_timeout(Some(Duration::from_millis(200)))?;
    let mut reply = vec![0u8; 64 * 1024];
    for _ in 0..4 {
        socket.send_to(b"stats", control)?;
        if let Ok((len, _)) = socket.recv_from(&mut reply) {
            return Ok(String::from_utf8_lossy(reply.get(..len).unwrap_or_default()).into_owned());
        }
    }
    Err(io::Error::other("the server did not answer stats"))
}
