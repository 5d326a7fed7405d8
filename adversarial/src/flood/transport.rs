//! How a flood's packets travel: each in a datagram of its own, or over a
//! `link` endpoint (reliable 1.0), which puts a header on each and sends a
//! large one as fragments.

use link::{Endpoint, Header, SendError};

/// What the server says of a fragment it stored, before its packet is
/// whole: neither accepted nor refused yet.
pub const STORED: &str = "stored";

/// One sender's way of putting packets on the wire.
pub struct Transport {
    endpoint: Option<Endpoint>,
}

/// How a packet went out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carried {
    /// In datagrams as the transport sends them; the last one carries the
    /// packet's verdict.
    Sent,
    /// Larger than the link may carry: sent in one datagram under a link
    /// header anyway, which a receiver owes `packet-too-large`.
    Oversized,
}

impl Transport {
    /// Packets as they are (`None`), or over an endpoint with `link`.
    ///
    /// # Errors
    ///
    /// A link configuration the endpoint refuses.
    pub fn new(link: Option<&link::Config>) -> Result<Self, link::ConfigError> {
        let endpoint = link
            .map(|config| Endpoint::new(config.clone(), 0.0))
            .transpose()?;
        Ok(Self { endpoint })
    }

    /// Sends `packet`: `send` gets each datagram and whether it is the
    /// last of the packet's. An empty packet goes out as an empty datagram
    /// either way (the link sends none, and a receiver refuses one as
    /// `empty` at both layers).
    pub fn carry(&mut self, packet: &[u8], mut send: impl FnMut(&[u8], bool)) -> Carried {
        let Some(endpoint) = self.endpoint.as_mut() else {
            send(packet, true);
            return Carried::Sent;
        };
        if packet.is_empty() {
            send(packet, true);
            return Carried::Sent;
        }
        let mut pending: Option<Vec<u8>> = None;
        let sent = endpoint.send(packet, |datagram| {
            if let Some(previous) = pending.replace(datagram.to_vec()) {
                send(&previous, false);
            }
        });
        match sent {
            Ok(_) => {
                if let Some(last) = pending {
                    send(&last, true);
                }
                Carried::Sent
            }
            Err(
                SendError::TooLarge { .. } | SendError::TooManyFragments { .. } | SendError::Empty,
            ) => {
                let sequence = endpoint.next_sequence();
                endpoint.set_next_sequence(sequence.wrapping_add(1));
                let header = Header {
                    sequence,
                    ack: sequence.wrapping_sub(1),
                    ack_bits: 0,
                };
                let mut datagram = vec![0u8; link::MAX_HEADER_BYTES];
                let len = header.write(&mut datagram).unwrap_or(0);
                datagram.truncate(len);
                datagram.extend_from_slice(packet);
                send(&datagram, true);
                Carried::Oversized
            }
        }
    }
}
