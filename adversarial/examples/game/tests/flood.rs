//! The game server keeps serving its honest clients through a flood of
//! every malicious class, with real sockets on 127.0.0.1: nothing owed a
//! refusal is accepted, every honest packet that reached the server is
//! acknowledged, and the server thread ends cleanly.

use adversarial::flood::{flood, FloodConfig, FloodReport};
use game_protocol::server::{fingerprint, Server};
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long any server of these tests may live: a bound on the loop, not a
/// budget the flood is expected to meet. Servers stop when told to.
const AT_MOST: Duration = Duration::from_secs(120);

/// A server thread that serves until `stop` is set (after the flood
/// returns, however slow the machine), and hands the server back.
fn serving(mut server: Server, stop: &Arc<AtomicBool>) -> JoinHandle<Server> {
    let stop = Arc::clone(stop);
    std::thread::spawn(move || {
        server
            .serve_until_stopped(&stop, Instant::now() + AT_MOST)
            .unwrap();
        server
    })
}

/// Floods a server (over `link` or not) for 2 s from four honest clients
/// and the attacker, and checks what must hold whatever the machine's
/// speed; returns the report and the server.
fn flood_the_server(link: Option<link::Config>, causes: &[&str]) -> (FloodReport, Server) {
    let mut server = Server::bind(0, 0).unwrap();
    if let Some(config) = &link {
        server = server.with_link(config.clone()).unwrap();
    }
    let (endpoint, control) = (server.addr().unwrap(), server.control_addr().unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let serving = serving(server, &stop);
    let config = FloodConfig {
        endpoint,
        control,
        seconds: 2.0,
        rate: 60,
        honest_clients: 4,
        seed: 1,
        bombers: if link.is_some() { 16 } else { 0 },
        link,
    };
    let report = flood(&game_protocol::attack::game(), &config).unwrap();
    stop.store(true, Ordering::Relaxed);
    let server = serving.join().expect("the server thread did not panic");
    let stats = server.stats();
    println!("{report:#?}\n{stats:#?}");

    // Honest clients kept their rate: 2 s at 60 Hz, four clients.
    assert!(report.honest_sent >= 4 * 118, "{report:?}");
    assert!(report.malicious_sent > 1000, "{report:?}");
    // Every malicious datagram the server read was checked, one by one,
    // against the verdict its case is owed: none judged otherwise.
    let ledger = &report.malicious;
    assert_eq!(ledger.wrong, 0, "{:?}", ledger.examples);
    assert_eq!(report.wrongly_accepted, 0, "acknowledged a lie");
    assert!(
        ledger.judged + ledger.unjudged >= report.malicious_sent,
        "every datagram sent is judged or given up on: {ledger:?}"
    );
    // Those given up on were lost before the server read them.
    let server_side = report.kernel_drops.unwrap() + stats.unlogged;
    assert!(
        ledger.unjudged + report.honest_unseen() <= server_side,
        "{report:?}"
    );
    assert!(ledger.judged > 500, "{ledger:?}");
    assert_eq!(ledger.unmatched, 0, "verdicts on datagrams never sent");
    // No honest packet refused; every loss is explained by the kernel.
    assert!(report.honest_refused.is_empty(), "{report:?}");
    assert!(report.passed(), "{report:?}");
    // The server's counters agree with the verdicts it reported.
    let refused: u64 = stats.refused.values().sum();
    assert_eq!(stats.received, stats.accepted + stats.stored + refused);
    assert_eq!(
        report.honest_accepted + ledger.accepted,
        stats.accepted,
        "accepted packets"
    );
    for cause in causes {
        assert!(
            ledger.refused.get(*cause).is_some_and(|n| *n > 0),
            "no {cause}: {ledger:?}"
        );
        assert_eq!(
            ledger.refused.get(*cause),
            stats.refused.get(cause),
            "{cause} refusals seen by the flood and counted by the server"
        );
    }
    // The honest clients are known, and the attacker too (it sends valid
    // packets among its lies).
    assert!(server.clients().len() >= 4);
    assert!(report.server_answered, "the control socket answered");
    (report, server)
}

#[test]
fn the_server_serves_honest_clients_through_a_flood_of_every_class() {
    let causes = [
        "bad-crc",
        "check-mismatch",
        "past-end",
        "out-of-range",
        "too-large",
        "empty",
    ];
    flood_the_server(None, &causes);
}

/// The same flood with every packet over `link`: each datagram carries a
/// reliable 1.0 header, the large snapshots travel as fragments that the
/// server's per-client endpoint puts back together, and every lie inside a
/// packet still gets the verdict it is owed.
#[test]
fn over_the_link_layer_fragments_included_the_flood_holds_the_same() {
    // An oversized packet cannot be fragmented: it arrives whole under a
    // link header, and the link refuses it before the game's reader.
    let causes = [
        "bad-crc",
        "check-mismatch",
        "past-end",
        "out-of-range",
        "packet-too-large",
        "empty",
    ];
    let (report, server) = flood_the_server(Some(game_protocol::link_config()), &causes);
    let stats = server.stats();
    assert!(stats.stored > 100, "snapshots went as fragments: {stats:?}");
    // A packet left incomplete lost a fragment on the way, which is
    // among the datagrams never judged (and explained by the kernel).
    let ledger = &report.malicious;
    assert!(ledger.incomplete <= ledger.unjudged, "{ledger:?}");
    // The stateful attacker's partial packets, from 16 more ports: each
    // first fragment stored, each again with other bytes refused, and the
    // server's memory bound by its clients' endpoints.
    assert!(report.stateful_sent > 1000, "{report:?}");
    assert!(
        ledger
            .refused
            .get("duplicate-fragment")
            .is_some_and(|n| *n > 500),
        "{ledger:?}"
    );
    assert!(
        server.clients().len() >= 4 + 16
            && server.clients().len() <= game_protocol::server::MAX_CLIENTS
    );
    for client in server.clients().values() {
        let endpoint = client
            .endpoint
            .as_ref()
            .expect("every client has its endpoint");
        // Only the lies told at the link layer: a packet too large to
        // fragment, a fragment again with other bytes.
        let counters = endpoint.counters();
        assert_eq!(
            counters.refused_total(),
            counters.refused(link::Cause::PacketTooLarge)
                + counters.refused(link::Cause::DuplicateFragment)
        );
    }
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

/// A server that says `verdict` of every datagram on its control socket
/// and acknowledges every one: the flood must catch it.
fn lying_server(
    verdict: &'static str,
    stop: &Arc<AtomicBool>,
) -> (SocketAddr, SocketAddr, JoinHandle<()>) {
    let stop = Arc::clone(stop);
    let until = Instant::now() + AT_MOST;
    let game = UdpSocket::bind("127.0.0.1:0").unwrap();
    let control = UdpSocket::bind("127.0.0.1:0").unwrap();
    let addrs = (game.local_addr().unwrap(), control.local_addr().unwrap());
    game.set_read_timeout(Some(Duration::from_millis(5)))
        .unwrap();
    control.set_nonblocking(true).unwrap();
    let serving = std::thread::spawn(move || {
        let mut buf = vec![0u8; 65_536];
        let mut log = String::new();
        let mut request = [0u8; 16];
        while Instant::now() < until && !stop.load(Ordering::Relaxed) {
            if let Ok((len, from)) = game.recv_from(&mut buf) {
                let print = fingerprint(&buf[..len]);
                let _ = game.send_to(&print.to_le_bytes(), from);
                if log.len() < 40_000 {
                    log.push_str(&format!("{} {print:016x} {verdict}\n", from.port()));
                }
            }
            while let Ok((len, from)) = control.recv_from(&mut request) {
                let reply = match &request[..len] {
                    b"stats" => "{\"received\":0}".to_string(),
                    _ => std::mem::take(&mut log),
                };
                let _ = control.send_to(reply.as_bytes(), from);
            }
        }
    });
    (addrs.0, addrs.1, serving)
}

#[test]
fn a_server_that_accepts_lies_or_names_the_wrong_cause_fails_the_flood() {
    for verdict in ["accepted", "past-end"] {
        let stop = Arc::new(AtomicBool::new(false));
        let (endpoint, control, serving) = lying_server(verdict, &stop);
        let config = FloodConfig {
            endpoint,
            control,
            seconds: 0.5,
            rate: 60,
            honest_clients: 1,
            seed: 2,
            link: None,
            bombers: 0,
        };
        let report = flood(&game_protocol::attack::game(), &config).unwrap();
        stop.store(true, Ordering::Relaxed);
        serving.join().unwrap();
        assert!(report.malicious.wrong > 0, "{verdict}: {report:?}");
        assert!(!report.passed(), "{verdict}");
        let example = &report.malicious.examples[0];
        assert_eq!(example.got, verdict);
        assert_ne!(example.owed, verdict);
        if verdict == "past-end" {
            assert!(!report.honest_refused.is_empty(), "honest packets refused");
        } else {
            assert!(report.wrongly_accepted > 0, "lies acknowledged");
        }
    }
}

/// `attack flood` for 0.5 s from one client at `endpoint`, with `more`
/// arguments.
fn flood_command(endpoint: SocketAddr, control: SocketAddr, more: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_attack"))
        .args([
            "flood",
            "--target",
            "game",
            "--seconds",
            "0.5",
            "--clients",
            "1",
        ])
        .args(more)
        .args(["--endpoint", &endpoint.to_string()])
        .args(["--control", &control.to_string()])
        .output()
        .unwrap()
}

/// `flood` on the command line: 0 against the real server, 1 against one
/// that accepts lies, 2 for an endpoint off loopback.
#[test]
fn the_flood_command_exits_0_1_or_2() {
    let server = Server::bind(0, 0).unwrap();
    let (endpoint, control) = (server.addr().unwrap(), server.control_addr().unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let server = serving(server, &stop);
    let output = flood_command(endpoint, control, &[]);
    stop.store(true, Ordering::Relaxed);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    server.join().unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let (endpoint, control, serving) = lying_server("accepted", &stop);
    let output = flood_command(endpoint, control, &[]);
    stop.store(true, Ordering::Relaxed);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains("WRONG"));
    serving.join().unwrap();

    let off_loopback: SocketAddr = "10.0.0.1:4000".parse().unwrap();
    assert_eq!(
        flood_command(off_loopback, control, &[]).status.code(),
        Some(2)
    );
}

/// `flood --link --stateful` on the command line against the server
/// speaking link.
#[test]
fn the_flood_command_speaks_link_with_a_link_server() {
    let server = Server::bind(0, 0)
        .unwrap()
        .with_link(game_protocol::link_config())
        .unwrap();
    let (endpoint, control) = (server.addr().unwrap(), server.control_addr().unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let server = serving(server, &stop);
    let size = game_protocol::LINK_FRAGMENT_SIZE.to_string();
    let output = flood_command(
        endpoint,
        control,
        &["--link", "--link-fragment-size", &size, "--stateful"],
    );
    stop.store(true, Ordering::Relaxed);
    let server = server.join().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(server.stats().stored > 0, "{:?}", server.stats());
    assert!(server.clients().len() > 16, "the stateful attacker's ports");
}
