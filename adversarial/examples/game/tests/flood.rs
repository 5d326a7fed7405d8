//! The game server keeps serving its honest clients through a flood of
//! every malicious class, with real sockets on 127.0.0.1: nothing owed a
//! refusal is accepted, every honest packet that reached the server is
//! acknowledged, and the server thread ends cleanly.

use adversarial::flood::{flood, FloodConfig};
use game_protocol::server::Server;
use std::time::{Duration, Instant};

#[test]
fn the_server_serves_honest_clients_through_a_flood_of_every_class() {
    let mut server = Server::bind(0, 0).unwrap();
    let (endpoint, control) = (server.addr().unwrap(), server.control_addr().unwrap());
    let until = Instant::now() + Duration::from_secs(4);
    let serving = std::thread::spawn(move || {
        server.serve_until(until).unwrap();
        server
    });
    let config = FloodConfig {
        endpoint,
        control: Some(control),
        seconds: 2.0,
        rate: 60,
        honest_clients: 4,
        seed: 1,
    };
    let report = flood(&game_protocol::attack::game(), &config).unwrap();
    let server = serving.join().expect("the server thread did not panic");
    let stats = server.stats();
    println!("{report:#?}\n{stats:#?}");

    assert!(report.honest_sent >= 4 * 60, "{report:?}");
    assert!(report.malicious_sent > 1000, "{report:?}");
    assert_eq!(
        report.wrongly_accepted, 0,
        "accepted where a refusal was owed"
    );
    assert!(report.passed(), "{report:?}");
    // Every datagram the server read was either accepted or refused with a
    // cause, and it refused for the causes the lies aim at.
    let refused: u64 = stats.refused.values().sum();
    assert_eq!(stats.received, stats.accepted + refused);
    for cause in [
        "bad-crc",
        "check-mismatch",
        "past-end",
        "out-of-range",
        "too-large",
    ] {
        assert!(
            stats.refused.get(cause).is_some_and(|n| *n > 0),
            "no {cause}: {stats:?}"
        );
    }
    // The honest clients are known, and the attacker too (it sends valid
    // packets among its lies).
    assert!(server.clients().len() >= 4);
    assert!(report.server_stats.is_some(), "the control socket answered");
}

#[test]
fn a_full_client_table_refuses_a_new_address_as_unknown_client() {
    use codec::packet;
    use game_protocol::server::MAX_CLIENTS;
    use game_protocol::{GamePacket, Input};
    let mut server = Server::bind(0, 0).unwrap();
    let bytes = packet::encode_to_vec(&mut GamePacket::Input(Input::default())).unwrap();
    // Loopback addresses nobody listens on: the acknowledgements go nowhere.
    let address =
        |i: usize| -> std::net::SocketAddr { format!("127.0.0.1:{}", 40_000 + i).parse().unwrap() };
    for i in 0..MAX_CLIENTS {
        server.handle(&bytes, address(i));
    }
    assert_eq!(server.stats().accepted, MAX_CLIENTS as u64);
    server.handle(&bytes, address(MAX_CLIENTS));
    assert_eq!(server.stats().refused.get("unknown-client"), Some(&1));
    // A known client is still served.
    server.handle(&bytes, address(0));
    assert_eq!(server.stats().accepted, MAX_CLIENTS as u64 + 1);
    assert_eq!(server.clients().len(), MAX_CLIENTS);
}
