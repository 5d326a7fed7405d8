//! An endpoint's clock, acks and estimates: the round trip of an acked
//! packet, and the packet loss over the older half of the sent window.

use link::{Config, Endpoint};

fn config() -> Config {
    Config {
        sent_packets_buffer_size: 16,
        ..Config::default()
    }
}

/// `count` packets from `from`, every datagram kept.
fn sent(from: &mut Endpoint, count: usize) -> Vec<Vec<u8>> {
    let mut datagrams = Vec::new();
    for _ in 0..count {
        from.send(b"x", |d| datagrams.push(d.to_vec())).unwrap();
    }
    datagrams
}

#[test]
fn an_acked_packet_gives_its_round_trip_and_acks_can_be_cleared() {
    let mut a = Endpoint::new(config(), 0.0).unwrap();
    let mut b = Endpoint::new(config(), 0.0).unwrap();
    assert_eq!(a.rtt(), 0.0);
    for datagram in sent(&mut a, 1) {
        b.receive(&datagram, |_, _| true).unwrap();
    }
    // The reply arrives 100 ms after the packet left.
    a.update(0.1);
    for datagram in sent(&mut b, 1) {
        a.receive(&datagram, |_, _| true).unwrap();
    }
    assert_eq!(a.acks(), &[0]);
    assert!((a.rtt() - 100.0).abs() < 0.01, "{}", a.rtt());
    assert_eq!(a.rtt(), a.estimates().rtt());
    a.clear_acks();
    assert!(a.acks().is_empty());
}

#[test]
fn packet_loss_counts_the_older_half_of_the_sent_window() {
    // 16 packets sent; the peer gets (and acks) only the newest 7.
    let mut a = Endpoint::new(config(), 0.0).unwrap();
    let mut b = Endpoint::new(config(), 0.0).unwrap();
    let datagrams = sent(&mut a, 16);
    for datagram in &datagrams[9..] {
        b.receive(datagram, |_, _| true).unwrap();
    }
    for datagram in sent(&mut b, 1) {
        a.receive(&datagram, |_, _| true).unwrap();
    }
    assert_eq!(a.acks(), &[15, 14, 13, 12, 11, 10, 9]);
    // The older half of the window (sequences 1 to 8) went unacked: a loss
    // of 100 %, of which the first update takes a tenth (the smoothing).
    a.update(1.0);
    assert_eq!(a.estimates().packet_loss(), 10.0);
    // The next update moves it another tenth of the way.
    a.update(2.0);
    assert_eq!(a.estimates().packet_loss(), 19.0);
}
