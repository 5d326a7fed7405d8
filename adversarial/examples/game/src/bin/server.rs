//! The game's server on 127.0.0.1, for a flood from another process:
//!
//! ```sh
//! cargo run --release -p game-protocol --bin server -- 4000 4001 600
//! ```
//!
//! serves the game socket on port 4000 and `stats` on port 4001 for 600
//! seconds, then prints its counters. A fourth argument, `link`, makes it
//! speak the connection layer (`game_protocol::link_config`) with every
//! client: flood it with `flood --link`.

use game_protocol::server::Server;
use std::process::ExitCode;
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let link = args.last().is_some_and(|a| a == "link");
    if link {
        args.pop();
    }
    let numbers: Vec<u64> = args.iter().map(|a| a.parse().unwrap_or(0)).collect();
    let (game, control, seconds) = match numbers.as_slice() {
        [game, control, seconds] => (*game, *control, *seconds),
        _ => {
            eprintln!("usage: server GAME_PORT CONTROL_PORT SECONDS [link]");
            return ExitCode::from(2);
        }
    };
    let ports = (u16::try_from(game), u16::try_from(control));
    let (Ok(game), Ok(control)) = ports else {
        eprintln!("ports are 0 to 65535");
        return ExitCode::from(2);
    };
    let bound = Server::bind(game, control).map_err(|e| e.to_string());
    let bound = bound.and_then(|server| match link {
        true => server
            .with_link(game_protocol::link_config())
            .map_err(|e| e.to_string()),
        false => Ok(server),
    });
    let mut server = match bound {
        Ok(server) => server,
        Err(e) => {
            eprintln!("server: {e}");
            return ExitCode::from(2);
        }
    };
    let until = Instant::now() + Duration::from_secs(seconds);
    match server.serve_until(until) {
        Ok(stats) => {
            println!("{}", stats.to_json());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("server: {e}");
            ExitCode::FAILURE
        }
    }
}
