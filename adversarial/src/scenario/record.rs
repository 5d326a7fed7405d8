//! A scenario as a file: the datagrams in order, each with its owed
//! verdict, the packets sent and the ones owed delivery, as JSON that
//! `replay` runs again against the endpoint it names. The file states the
//! conversation itself, not the randomness it was built from, so it
//! replays the same whatever the generator becomes.

use super::{Application, Failure, Owed, Own, Scenario, StateClass};
use crate::configs::Family;
use crate::digest::{hex, unhex};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

/// The ending of a scenario file's name, which `replay` recognises.
pub const EXTENSION: &str = ".conversation.json";

/// The file's document: `scenario` against the endpoint target `target`,
/// with the failure it showed, if any.
#[must_use]
pub fn to_json(target: &str, scenario: &Scenario, failure: Option<&Failure>) -> Value {
    let datagrams: Vec<Value> = scenario
        .datagrams
        .iter()
        .map(|(bytes, owed)| {
            json!({
                "owed": match owed {
                    Owed::Accept => "accept".to_string(),
                    Owed::Refuse(cause) => format!("refuse {cause}"),
                },
                "bytes": hex(bytes),
            })
        })
        .collect();
    let mut sent: Vec<(&u16, &Vec<u8>)> = scenario.sent.iter().collect();
    sent.sort_unstable();
    let mut must_deliver: Vec<u16> = scenario.must_deliver.iter().copied().collect();
    must_deliver.sort_unstable();
    let mut received: Vec<u16> = scenario.own.received.iter().copied().collect();
    received.sort_unstable();
    let mut declines: Vec<u16> = scenario.app.declines.iter().copied().collect();
    declines.sort_unstable();
    json!({
        "endpoint": target,
        "class": scenario.class.name(),
        "peer_start": scenario.peer_start,
        "failure": failure.map(|f| json!({
            "step": f.step,
            "broken": f.kind.name(),
            "what": f.what,
        })),
        "datagrams": datagrams,
        "sent": sent
            .into_iter()
            .map(|(sequence, payload)| json!({"sequence": sequence, "payload": hex(payload)}))
            .collect::<Vec<_>>(),
        "must_deliver": must_deliver,
        "family": scenario.family.name(),
        "config": scenario.config.as_ref().map(config_json),
        "application": {
            "declines": declines,
            "takes_acks_every": scenario.app.takes_acks_every,
        },
        "own": {
            "count": scenario.own.count,
            "first": scenario.own.first,
            "received": received,
            "lengths": scenario.own.lengths,
        },
    })
}

/// The endpoint target's name and the scenario a file's document states.
///
/// # Errors
///
/// What the document lacks or gets wrong.
pub fn from_json(document: &Value) -> Result<(String, Scenario), String> {
    let text = |value: &Value, what: &str| -> Result<String, String> {
        value
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("{what}: not a string"))
    };
    let sequence = |value: &Value, what: &str| -> Result<u16, String> {
        value
            .as_u64()
            .and_then(|n| u16::try_from(n).ok())
            .ok_or_else(|| format!("{what}: not a sequence number"))
    };
    let bytes = |value: &Value, what: &str| -> Result<Vec<u8>, String> {
        unhex(&text(value, what)?).ok_or_else(|| format!("{what}: not hex"))
    };
    let list = |name: &str| -> Result<&Vec<Value>, String> {
        document[name]
            .as_array()
            .ok_or_else(|| format!("{name}: not a list"))
    };
    let target = text(&document["endpoint"], "endpoint")?;
    let class_name = text(&document["class"], "class")?;
    let class = StateClass::ALL
        .into_iter()
        .find(|c| c.name() == class_name)
        .ok_or_else(|| format!("class: no class named {class_name:?}"))?;
    let mut datagrams = Vec::new();
    for (i, datagram) in list("datagrams")?.iter().enumerate() {
        let what = format!("datagrams[{i}]");
        let owed = match text(&datagram["owed"], &what)?.as_str() {
            "accept" => Owed::Accept,
            other => {
                let cause = other
                    .strip_prefix("refuse ")
                    .and_then(|label| link::Cause::ALL.into_iter().find(|c| c.label() == label))
                    .ok_or_else(|| format!("{what}: owed {other:?} is no verdict"))?;
                Owed::Refuse(cause.label())
            }
        };
        datagrams.push((bytes(&datagram["bytes"], &what)?, owed));
    }
    let mut sent = HashMap::new();
    for (i, packet) in list("sent")?.iter().enumerate() {
        let what = format!("sent[{i}]");
        sent.insert(
            sequence(&packet["sequence"], &what)?,
            bytes(&packet["payload"], &what)?,
        );
    }
    let must_deliver = list("must_deliver")?
        .iter()
        .map(|s| sequence(s, "must_deliver"))
        .collect::<Result<HashSet<u16>, String>>()?;
    // Written before the endpoint sent packets of its own: none.
    let own = match document.get("own") {
        None => Own::default(),
        Some(own) => Own {
            count: sequence(&own["count"], "own.count")?,
            first: sequence(&own["first"], "own.first")?,
            received: own["received"]
                .as_array()
                .ok_or("own.received: not a list")?
                .iter()
                .map(|s| sequence(s, "own.received"))
                .collect::<Result<HashSet<u16>, String>>()?,
            // Written before own packets had lengths: 2 bytes each.
            lengths: match own.get("lengths") {
                None => Vec::new(),
                Some(lengths) => lengths
                    .as_array()
                    .ok_or("own.lengths: not a list")?
                    .iter()
                    .map(|len| sequence(len, "own.lengths"))
                    .collect::<Result<Vec<u16>, String>>()?,
            },
        },
    };
    // Written before configurations were drawn and applications declined:
    // the target's own, and an application that takes everything.
    let family = match document.get("family") {
        None => Family::Own,
        Some(name) => {
            let name = text(name, "family")?;
            Family::named(&name).ok_or_else(|| format!("family: no family named {name:?}"))?
        }
    };
    let config = match document.get("config") {
        None | Some(Value::Null) => None,
        Some(config) => Some(config_from_json(config)?),
    };
    let app = match document.get("application") {
        None => Application::default(),
        Some(app) => Application {
            declines: app["declines"]
                .as_array()
                .ok_or("application.declines: not a list")?
                .iter()
                .map(|s| sequence(s, "application.declines"))
                .collect::<Result<HashSet<u16>, String>>()?,
            takes_acks_every: sequence(&app["takes_acks_every"], "application.takes_acks_every")?,
        },
    };
    let scenario = Scenario {
        class,
        datagrams,
        sent,
        must_deliver,
        peer_start: sequence(&document["peer_start"], "peer_start")?,
        own,
        config,
        family,
        app,
    };
    Ok((target, scenario))
}

/// A configuration as JSON, every field by its name.
#[must_use]
pub fn config_json(config: &link::Config) -> Value {
    json!({
        "max_packet_size": config.max_packet_size,
        "fragment_above": config.fragment_above,
        "fragment_size": config.fragment_size,
        "max_fragments": config.max_fragments,
        "sent_packets_buffer_size": config.sent_packets_buffer_size,
        "received_packets_buffer_size": config.received_packets_buffer_size,
        "fragment_reassembly_buffer_size": config.fragment_reassembly_buffer_size,
        "ack_buffer_size": config.ack_buffer_size,
        "rtt_smoothing_factor": config.rtt_smoothing_factor,
        "rtt_history_size": config.rtt_history_size,
        "packet_loss_smoothing_factor": config.packet_loss_smoothing_factor,
    })
}

/// A configuration from JSON: each field named, the defaults for those
/// missing; one `link::Config::validate` refuses is an error.
///
/// # Errors
///
/// A field of the wrong kind, or a configuration no endpoint takes.
pub fn config_from_json(value: &Value) -> Result<link::Config, String> {
    let mut config = link::Config::default();
    let size = |name: &str, into: &mut usize| -> Result<(), String> {
        if let Some(v) = value.get(name) {
            *into = v
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("config.{name}: not a size"))?;
        }
        Ok(())
    };
    let window = |name: &str, into: &mut u16| -> Result<(), String> {
        if let Some(v) = value.get(name) {
            *into = v
                .as_u64()
                .and_then(|n| u16::try_from(n).ok())
                .ok_or_else(|| format!("config.{name}: not a window size"))?;
        }
        Ok(())
    };
    let factor = |name: &str, into: &mut f32| -> Result<(), String> {
        if let Some(v) = value.get(name) {
            *into = v
                .as_f64()
                .ok_or_else(|| format!("config.{name}: not a number"))? as f32;
        }
        Ok(())
    };
    size("max_packet_size", &mut config.max_packet_size)?;
    size("fragment_above", &mut config.fragment_above)?;
    size("fragment_size", &mut config.fragment_size)?;
    size("max_fragments", &mut config.max_fragments)?;
    window(
        "sent_packets_buffer_size",
        &mut config.sent_packets_buffer_size,
    )?;
    window(
        "received_packets_buffer_size",
        &mut config.received_packets_buffer_size,
    )?;
    window(
        "fragment_reassembly_buffer_size",
        &mut config.fragment_reassembly_buffer_size,
    )?;
    size("ack_buffer_size", &mut config.ack_buffer_size)?;
    factor("rtt_smoothing_factor", &mut config.rtt_smoothing_factor)?;
    size("rtt_history_size", &mut config.rtt_history_size)?;
    factor(
        "packet_loss_smoothing_factor",
        &mut config.packet_loss_smoothing_factor,
    )?;
    config.validate().map_err(|e| format!("config: {e}"))?;
    Ok(config)
}
