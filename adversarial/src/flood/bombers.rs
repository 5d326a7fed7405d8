//! The flood's stateful attacker, for a server that speaks `link`: from
//! many source ports at once, the first fragment of packet after packet and
//! never the rest (a reassembly bomb: the server holds each partial packet
//! until its window moves on), and each such fragment again with other
//! bytes. What it is owed: the first fragment `stored`, the second
//! `duplicate-fragment`; and the server's memory stays what its
//! configuration fixes.

use crate::digest::fnv1a;
use crate::mutate::Owed;
use link::{FragmentHeader, Header, FRAGMENT_HEADER_BYTES, MAX_HEADER_BYTES};
use std::io;
use std::net::{SocketAddr, UdpSocket};

/// The class names its lies are tallied under.
pub const BOMB: &str = "reassembly-bomb";
/// The class name of a fragment sent again with other bytes.
pub const DIFFERENT_BYTES: &str = "duplicate-fragment-different-bytes";

/// What a repeated fragment is owed.
const DUPLICATE: Owed = Owed::Refusal {
    causes: &["duplicate-fragment"],
    at: None,
};

/// Sockets sending partial packets, each with its next sequence.
pub struct Bombers {
    sockets: Vec<UdpSocket>,
    next: Vec<u16>,
    config: link::Config,
}

impl Bombers {
    /// `ports` sockets on 127.0.0.1, connected to `endpoint`.
    ///
    /// # Errors
    ///
    /// When a socket cannot be bound or connected.
    pub fn new(endpoint: SocketAddr, ports: usize, config: &link::Config) -> io::Result<Self> {
        let sockets = (0..ports)
            .map(|_| {
                let socket = UdpSocket::bind("127.0.0.1:0")?;
                socket.connect(endpoint)?;
                Ok(socket)
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok(Self {
            next: vec![0; sockets.len()],
            sockets,
            config: config.clone(),
        })
    }

    /// Fragment 0 of a packet of `max_fragments` fragments, `sequence`,
    /// its data all `fill`.
    fn first_fragment(&self, sequence: u16, fill: u8) -> Vec<u8> {
        let count = u16::try_from(self.config.max_fragments).unwrap_or(1);
        let mut datagram = vec![0u8; FRAGMENT_HEADER_BYTES + MAX_HEADER_BYTES];
        let fragment = FragmentHeader {
            sequence,
            id: 0,
            count,
        };
        let _ = fragment.write(&mut datagram[..FRAGMENT_HEADER_BYTES]);
        let header = Header {
            sequence,
            ack: u16::MAX,
            ack_bits: 0,
        };
        let len = header
            .write(&mut datagram[FRAGMENT_HEADER_BYTES..])
            .unwrap_or(0);
        datagram.truncate(FRAGMENT_HEADER_BYTES + len);
        datagram.resize(datagram.len() + self.config.fragment_size, fill);
        datagram
    }

    /// One round: from each socket, the first fragment of a new packet,
    /// then the same fragment with its last byte changed. `sent` gets each
    /// datagram sent: its fingerprint, what it is owed and its class.
    pub fn round(&mut self, mut sent: impl FnMut(u64, &Owed, &'static str)) {
        if self.config.max_fragments < 2 {
            return;
        }
        for i in 0..self.sockets.len() {
            let sequence = self.next[i];
            self.next[i] = sequence.wrapping_add(1);
            let first = self.first_fragment(sequence, sequence as u8);
            let mut again = first.clone();
            if let Some(last) = again.last_mut() {
                *last ^= 0xFF;
            }
            let socket = &self.sockets[i];
            if socket.send(&first).is_ok() {
                sent(fnv1a(&first), &super::STORED_OWED, BOMB);
                if socket.send(&again).is_ok() {
                    sent(fnv1a(&again), &DUPLICATE, DIFFERENT_BYTES);
                }
            }
        }
    }
}
