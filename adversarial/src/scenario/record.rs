//! A scenario as a file: the datagrams in order, each with its owed
//! verdict, the packets sent and the ones owed delivery, as JSON that
//! `replay` runs again against the endpoint it names. The file states the
//! conversation itself, not the randomness it was built from, so it
//! replays the same whatever the generator becomes.

use super::{Failure, Owed, Own, Scenario, StateClass};
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
    let scenario = Scenario {
        class,
        datagrams,
        sent,
        must_deliver,
        peer_start: sequence(&document["peer_start"], "peer_start")?,
        own,
    };
    Ok((target, scenario))
}
