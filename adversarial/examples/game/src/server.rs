//! The game's server loop, as a game programmer would write it on
//! `std::net`: one UDP socket on 127.0.0.1, every datagram decoded with
//! `packet::decode`, refusals counted by cause, per-client state, and an
//! acknowledgement for every accepted packet.
//!
//! An acknowledgement is the accepted datagram's 64-bit FNV-1a fingerprint
//! (8 bytes, little-endian), so a sender knows exactly which of its packets
//! got through, whatever the packet type. Over `link` it is the packet's
//! (the payload the endpoint delivered), not its last datagram's. A second socket, the control
//! socket, answers two requests for a load generator:
//!
//! - `stats`: the server's counters as JSON;
//! - `verdicts`: the verdicts given since the last such request, oldest
//!   first, one line each: the sender's port, the datagram's fingerprint in
//!   16 hex digits and `accepted` or the refusal's cause, separated by
//!   spaces. One reply holds at most [`VERDICTS_PER_REPLY`] lines; an
//!   empty reply means there are no more. The server keeps at most
//!   [`VERDICT_LOG`] of them and counts the ones it had to drop, so a
//!   reader that stops asking costs it no memory.

use crate::GamePacket;
use codec::packet;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Write as _;
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the server says of a fragment it stored (over `link`), before its
/// packet is whole. Only a whole packet accepted is acknowledged.
pub const STORED: &str = "stored";

/// Clients the server keeps state for; a datagram from any other address
/// once the table is full is refused as `unknown-client`.
pub const MAX_CLIENTS: usize = 64;

/// Verdicts kept for the control socket's `verdicts` request.
pub const VERDICT_LOG: usize = 1 << 16;

/// Verdict lines in one reply: each is at most 44 bytes, so a reply fits
/// one datagram.
pub const VERDICTS_PER_REPLY: usize = 1200;

/// The largest datagram UDP carries: the receive buffer holds any datagram
/// whole, so a datagram's fingerprint is that of the bytes its sender sent.
const DATAGRAM_BYTES: usize = 65_536;

/// The fingerprint a server acknowledges a datagram with: FNV-1a, 64 bits.
#[must_use]
pub fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What the server keeps per client.
#[derive(Debug, Default)]
pub struct Client {
    /// Packets accepted from it.
    pub accepted: u64,
    /// The latest input tick it sent.
    pub last_tick: Option<u16>,
    /// Its end of the connection layer, when the server speaks `link`.
    pub endpoint: Option<link::Endpoint>,
}

/// The server's counters.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Datagrams received.
    pub received: u64,
    /// Datagrams decoded and accepted.
    pub accepted: u64,
    /// Accepted datagrams whose acknowledgement the socket did not send.
    pub ack_failed: u64,
    /// Datagrams refused, by cause (`DecodeError::cause`, `empty`,
    /// `unknown-client`).
    pub refused: BTreeMap<&'static str, u64>,
    /// Verdicts dropped from a full log before anyone asked for them.
    pub unlogged: u64,
    /// Fragments stored (over `link`), not yet a whole packet.
    pub stored: u64,
}

impl Stats {
    /// The counters as a JSON object, with the process's CPU time and
    /// resident memory (Linux; absent elsewhere).
    #[must_use]
    pub fn to_json(&self) -> String {
        let refused: Vec<String> = self
            .refused
            .iter()
            .map(|(cause, n)| format!("\"{cause}\":{n}"))
            .collect();
        let (rss, peak) = memory_kb();
        let number = |v: Option<u64>| v.map_or("null".to_string(), |v| v.to_string());
        format!(
            "{{\"received\":{},\"accepted\":{},\"stored\":{},\"ack_failed\":{},\"refused\":{{{}}},\"unlogged\":{},\"cpu_ms\":{},\"rss_kb\":{},\"peak_rss_kb\":{}}}",
            self.received,
            self.accepted,
            self.stored,
            self.ack_failed,
            refused.join(","),
            self.unlogged,
            number(cpu_ms()),
            number(rss),
            number(peak)
        )
    }
}

/// A game server on two loopback sockets: the game's and the one that
/// answers `stats`.
pub struct Server {
    socket: UdpSocket,
    control: UdpSocket,
    clients: HashMap<SocketAddr, Client>,
    stats: Stats,
    /// (sender's port, fingerprint, verdict), oldest first.
    verdicts: VecDeque<(u16, u64, &'static str)>,
    /// The connection layer every client speaks, if any.
    link: Option<link::Config>,
    /// Endpoints made and reserved at start, one for each client still to
    /// come: the server's memory is all taken when it starts.
    spare: Vec<link::Endpoint>,
}

impl Server {
    /// Binds the game socket to `game` and the stats socket to `control`
    /// (both on 127.0.0.1; port 0 picks a free one).
    ///
    /// # Errors
    ///
    /// When a socket cannot be bound or configured.
    pub fn bind(game: u16, control: u16) -> io::Result<Self> {
        let socket = UdpSocket::bind(("127.0.0.1", game))?;
        let control = UdpSocket::bind(("127.0.0.1", control))?;
        // Short, so the control socket is answered soon when no game
        // datagram comes.
        socket.set_read_timeout(Some(Duration::from_millis(2)))?;
        control.set_nonblocking(true)?;
        Ok(Self {
            socket,
            control,
            clients: HashMap::new(),
            stats: Stats::default(),
            verdicts: VecDeque::with_capacity(VERDICT_LOG),
            link: None,
            spare: Vec::new(),
        })
    }

    /// Speaks `link` with every client: each datagram goes through that
    /// client's endpoint, which refuses what breaks the connection layer's
    /// rules, stores fragments (`stored`) and hands whole
    /// packets to the game's decoder. Memory: [`MAX_CLIENTS`] endpoints,
    /// each within its `memory_bound`, made and reserved
    /// (`link::Endpoint::reserve`) here, so that it does not grow as
    /// clients come and send larger packets.
    ///
    /// # Errors
    ///
    /// A configuration the endpoint refuses.
    pub fn with_link(mut self, config: link::Config) -> Result<Self, link::ConfigError> {
        self.spare = (0..MAX_CLIENTS)
            .map(|_| {
                let mut endpoint = link::Endpoint::new(config.clone(), 0.0)?;
                endpoint.reserve();
                Ok(endpoint)
            })
            .collect::<Result<_, link::ConfigError>>()?;
        self.clients.reserve(MAX_CLIENTS);
        self.link = Some(config);
        Ok(self)
    }

    /// The game socket's address.
    ///
    /// # Errors
    ///
    /// When the socket has none.
    pub fn addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// The stats socket's address.
    ///
    /// # Errors
    ///
    /// When the socket has none.
    pub fn control_addr(&self) -> io::Result<SocketAddr> {
        self.control.local_addr()
    }

    /// The counters so far.
    #[must_use]
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The clients the server keeps state for.
    #[must_use]
    pub fn clients(&self) -> &HashMap<SocketAddr, Client> {
        &self.clients
    }

    /// Handles one datagram from `from`, and logs its verdict.
    pub fn handle(&mut self, bytes: &[u8], from: SocketAddr) {
        self.stats.received += 1;
        let fingerprint = fingerprint(bytes);
        let verdict = if self.link.is_some() {
            self.judge_link(bytes, from, fingerprint)
        } else {
            self.judge(bytes, from, fingerprint)
        };
        if verdict == "accepted" {
            self.stats.accepted += 1;
        } else if verdict == STORED {
            self.stats.stored += 1;
        } else {
            *self.stats.refused.entry(verdict).or_default() += 1;
        }
        if self.verdicts.len() >= VERDICT_LOG {
            self.verdicts.pop_front();
            self.stats.unlogged += 1;
        }
        self.verdicts.push_back((from.port(), fingerprint, verdict));
    }

    /// Decodes, keeps the client's state and acknowledges: `accepted`, or
    /// the cause of the refusal.
    fn judge(&mut self, bytes: &[u8], from: SocketAddr, fingerprint: u64) -> &'static str {
        if bytes.is_empty() {
            return "empty";
        }
        let packet = match packet::decode::<GamePacket>(bytes) {
            Ok(packet) => packet,
            Err(error) => return error.cause(),
        };
        if !self.clients.contains_key(&from) && self.clients.len() >= MAX_CLIENTS {
            return "unknown-client";
        }
        let client = self.clients.entry(from).or_default();
        client.accepted += 1;
        if let GamePacket::Input(input) = &packet {
            client.last_tick = Some(input.tick);
        }
        if self
            .socket
            .send_to(&fingerprint.to_le_bytes(), from)
            .is_err()
        {
            self.stats.ack_failed += 1;
        }
        "accepted"
    }

    /// As [`Server::judge`], through the client's `link` endpoint: a
    /// refusal of the connection layer (its cause), a fragment stored
    /// (`stored`, not acknowledged), or a whole packet the game decodes (`accepted`, or the
    /// decoder's cause, and the endpoint does not count it as received).
    fn judge_link(&mut self, bytes: &[u8], from: SocketAddr, fingerprint: u64) -> &'static str {
        if bytes.is_empty() {
            return "empty";
        }
        let known = self.clients.contains_key(&from);
        if !known && self.clients.len() >= MAX_CLIENTS {
            return "unknown-client";
        }
        let mut client = self.clients.remove(&from).unwrap_or_default();
        if client.endpoint.is_none() {
            // One is spare for every client below MAX_CLIENTS.
            client.endpoint = self.spare.pop();
        }
        let Some(endpoint) = client.endpoint.as_mut() else {
            return "unknown-client";
        };
        let mut decoded = Err("accepted");
        let mut packet_print = fingerprint;
        let received = endpoint.receive(bytes, |_, payload| {
            decoded = packet::decode::<GamePacket>(payload).map_err(|e| e.cause());
            packet_print = crate::server::fingerprint(payload);
            decoded.is_ok()
        });
        let verdict = match received {
            Err(refusal) => refusal.cause.label(),
            Ok(link::Received::Stored { .. }) => STORED,
            Ok(link::Received::Declined { .. }) => decoded.err().unwrap_or("accepted"),
            Ok(link::Received::Delivered { .. }) => {
                client.accepted += 1;
                if let Ok(GamePacket::Input(input)) = &decoded {
                    client.last_tick = Some(input.tick);
                }
                "accepted"
            }
        };
        // A new address whose first datagram was refused gets no state;
        // its endpoint, which a refusal leaves as it was, is spare again.
        if known || verdict == "accepted" || verdict == STORED {
            self.clients.insert(from, client);
        } else if let Some(endpoint) = client.endpoint.take() {
            self.spare.push(endpoint);
        }
        // The packet's fingerprint, not its last datagram's: a sender's
        // sequences wrap, and a short last fragment can repeat exactly.
        if verdict == "accepted"
            && self
                .socket
                .send_to(&packet_print.to_le_bytes(), from)
                .is_err()
        {
            self.stats.ack_failed += 1;
        }
        verdict
    }

    /// The oldest logged verdicts, at most [`VERDICTS_PER_REPLY`], as the
    /// `verdicts` reply's lines; they leave the log.
    pub fn take_verdicts(&mut self) -> String {
        let mut lines = String::new();
        let count = self.verdicts.len().min(VERDICTS_PER_REPLY);
        for (port, fingerprint, verdict) in self.verdicts.drain(..count) {
            let _ = writeln!(lines, "{port} {fingerprint:016x} {verdict}");
        }
        lines
    }

    fn answer_control(&mut self) {
        let mut request = [0u8; 16];
        while let Ok((len, from)) = self.control.recv_from(&mut request) {
            let reply = match request.get(..len) {
                Some(b"stats") => self.stats.to_json(),
                Some(b"verdicts") => self.take_verdicts(),
                _ => continue,
            };
            let _ = self.control.send_to(reply.as_bytes(), from);
        }
    }

    /// Serves until `deadline`, answering the control socket's requests as
    /// they come; returns the counters.
    ///
    /// # Errors
    ///
    /// When the game socket fails with anything but a timeout.
    pub fn serve_until(&mut self, deadline: Instant) -> io::Result<&Stats> {
        self.serve_until_stopped(&AtomicBool::new(false), deadline)
    }

    /// Serves until `stop` is set (by whoever drives the clients, when they
    /// are done, however long that took) or `deadline` passes.
    ///
    /// # Errors
    ///
    /// When the game socket fails with anything but a timeout.
    pub fn serve_until_stopped(
        &mut self,
        stop: &AtomicBool,
        deadline: Instant,
    ) -> io::Result<&Stats> {
        let mut buf = vec![0u8; DATAGRAM_BYTES];
        while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
            match self.socket.recv_from(&mut buf) {
                Ok((len, from)) => self.handle(buf.get(..len).unwrap_or_default(), from),
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => return Err(e),
            }
            self.answer_control();
        }
        Ok(&self.stats)
    }
}

/// This process's CPU time (user and system), from `/proc/self/stat`.
fn cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // Linux reports 100 ticks a second to user space.
    Some(ticks * 10)
}

/// This process's resident memory and its peak, in KiB, from
/// `/proc/self/status`.
fn memory_kb() -> (Option<u64>, Option<u64>) {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return (None, None);
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    };
    (field("VmRSS:"), field("VmHWM:"))
}
