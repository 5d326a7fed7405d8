//! One conversation with an endpoint: in this process, under
//! `catch_unwind`, or in a worker process ([`crate::worker`]), where an
//! endpoint that aborts, overflows its stack, runs out of memory or hangs
//! is a failure of that conversation ([`Broken::Died`],
//! [`Broken::OutOfMemory`], [`Broken::Hung`]) and the campaign goes on.
//!
//! A worker's input names the conversation: `0`, the class, the seed and
//! the case's index (the worker draws the randomness itself, as the
//! campaign would), or `1`, the class and the randomness (what a shrink
//! tries). Its answer is JSON: `{"none": true}` when the randomness builds
//! no conversation, `{"kept": true}` when every promise held, else the
//! broken promise, the step and the words.

use super::{run, scenario, scenario_drawn, Broken, Connection, Failure, Scenario, StateClass};
use crate::alloc::allocated_during;
use crate::configs::Family;
use crate::draw::case_rng;
use crate::panics::{caught, panic_message};
use crate::target::EndpointTarget;
use crate::worker::{Answer, Worker};
use arbitrary::Unstructured;
use rand::RngCore;
use serde_json::{json, Value};

/// Bytes of randomness behind each conversation.
const ENTROPY_BYTES: usize = 8192;

/// The conversation built from `entropy` for `class`, and what `target`
/// made of it (a panic caught as [`Broken::Panicked`]); `None` when
/// `entropy` builds none.
pub fn attempt(
    target: &dyn EndpointTarget,
    class: StateClass,
    entropy: &[u8],
) -> Option<(Scenario, Result<(), Failure>)> {
    let scenario = built(target, class, entropy)?;
    let outcome = judged(target, &scenario);
    Some((scenario, outcome))
}

/// The conversation `entropy` builds for `class` against `target`: for a
/// configuration it draws when the target takes any.
fn built(target: &dyn EndpointTarget, class: StateClass, entropy: &[u8]) -> Option<Scenario> {
    let u = &mut Unstructured::new(entropy);
    let own = target.config();
    if target.draws_configs() {
        scenario_drawn(class, &own, u).ok()
    } else {
        scenario(class, &own, u).ok()
    }
}

/// What a fresh endpoint of `target` made of `scenario`, in this process.
pub(crate) fn judged(target: &dyn EndpointTarget, scenario: &Scenario) -> Result<(), Failure> {
    // A file written before configurations were drawn states none: the
    // target's own.
    let own;
    let scenario = if scenario.config.is_none() {
        own = Scenario {
            config: Some(target.config()),
            ..scenario.clone()
        };
        &own
    } else {
        scenario
    };
    caught(|| {
        let (mut connection, made) = fresh(target, scenario.config.as_ref());
        run(connection.as_mut(), made, scenario)
    })
    .unwrap_or_else(|payload| Err(panicked(scenario, payload.as_ref())))
}

/// A fresh endpoint of `target` for `config` (its own when `None`), and
/// the bytes making it allocated, but for the box the harness holds it in:
/// the bound is on the endpoint's own memory.
fn fresh(
    target: &dyn EndpointTarget,
    config: Option<&link::Config>,
) -> (Box<dyn Connection>, usize) {
    let (connection, made) = allocated_during(|| match config {
        Some(config) if target.draws_configs() => target.make_with(config),
        _ => target.make(),
    });
    let boxed = std::mem::size_of_val(connection.as_ref());
    (connection, made.bytes.saturating_sub(boxed))
}

/// The failure of an endpoint that panicked in `scenario`.
fn panicked(scenario: &Scenario, payload: &(dyn std::any::Any + Send)) -> Failure {
    Failure {
        class: scenario.class,
        step: scenario.datagrams.len(),
        kind: Broken::Panicked,
        what: format!("panicked: {}", panic_message(payload)),
    }
}

/// The randomness behind case `index` of `target`.
pub fn entropy(seed: u64, target: &str, index: u64) -> Vec<u8> {
    let mut bytes = vec![0u8; ENTROPY_BYTES];
    case_rng(seed, target, index).fill_bytes(&mut bytes);
    bytes
}

/// A class as one byte: its place in [`StateClass::ALL`].
fn class_byte(class: StateClass) -> u8 {
    let place = StateClass::ALL.iter().position(|c| *c == class);
    place.and_then(|p| u8::try_from(p).ok()).unwrap_or(u8::MAX)
}

/// The worker's input for case `index` of the campaign seeded `seed`.
pub fn by_index(class: StateClass, seed: u64, index: u64) -> Vec<u8> {
    let mut input = vec![0, class_byte(class)];
    input.extend_from_slice(&seed.to_le_bytes());
    input.extend_from_slice(&index.to_le_bytes());
    input
}

/// The worker's input for the conversation `entropy` builds.
pub(crate) fn by_entropy(class: StateClass, entropy: &[u8]) -> Vec<u8> {
    let mut input = vec![1, class_byte(class)];
    input.extend_from_slice(entropy);
    input
}

/// The worker's input for a conversation kept in a file: the file's JSON.
pub(crate) fn by_record(document: &[u8]) -> Vec<u8> {
    let mut input = vec![2, 0];
    input.extend_from_slice(document);
    input
}

/// The worker's side: what `target` made of the conversation `input`
/// names.
#[must_use]
pub fn answer(target: &dyn EndpointTarget, input: &[u8]) -> Value {
    let (tag, class, rest) = match input {
        [tag, class, rest @ ..] => (*tag, *class, rest),
        _ => return json!({ "error": "an input of fewer than two bytes" }),
    };
    let Some(&class) = StateClass::ALL.get(usize::from(class)) else {
        return json!({ "error": format!("no class {class}") });
    };
    let drawn;
    let entropy = match (tag, rest.get(..8), rest.get(8..16)) {
        (0, Some(seed), Some(index)) => {
            let number = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or_default());
            drawn = entropy(number(seed), target.name(), number(index));
            &drawn[..]
        }
        (1, ..) => rest,
        (2, ..) => {
            let recorded = serde_json::from_slice(rest)
                .map_err(|e| e.to_string())
                .and_then(|document| super::record::from_json(&document));
            return match recorded {
                Ok((_, scenario)) => said(judged(target, &scenario)),
                Err(why) => json!({ "error": why }),
            };
        }
        _ => return json!({ "error": format!("no input of tag {tag}") }),
    };
    match attempt(target, class, entropy) {
        None => json!({ "none": true }),
        Some((scenario, outcome)) => {
            let mut said = said(outcome);
            said["family"] = json!(scenario.family.name());
            said
        }
    }
}

/// An outcome as the worker's answer.
fn said(outcome: Result<(), Failure>) -> Value {
    match outcome {
        Ok(()) => json!({ "kept": true }),
        Err(failure) => json!({
            "broken": failure.kind.name(),
            "step": failure.step,
            "what": failure.what,
        }),
    }
}

/// The configuration family a worker's answer names; the target's own
/// when it names none (it died before it could say).
pub(crate) fn family_said(answer: &Answer) -> Family {
    let Answer::Said(line) = answer else {
        return Family::Own;
    };
    serde_json::from_str::<Value>(line)
        .ok()
        .and_then(|value| value["family"].as_str().and_then(Family::named))
        .unwrap_or(Family::Own)
}

/// What a worker's answer says of a conversation of `class` with `steps`
/// datagrams (the step a death is pinned on): `None` when no conversation
/// was built.
pub(crate) fn outcome(
    answer: Answer,
    class: StateClass,
    steps: usize,
) -> Option<Result<(), Failure>> {
    let fail = |kind: Broken, step: usize, what: String| {
        Some(Err(Failure {
            class,
            step,
            kind,
            what,
        }))
    };
    match answer {
        Answer::Died(how) if how.contains("memory allocation of") => {
            fail(Broken::OutOfMemory, steps, format!("died: {how}"))
        }
        Answer::Died(how) => fail(Broken::Died, steps, format!("died: {how}")),
        Answer::TimedOut(after) => fail(
            Broken::Hung,
            steps,
            format!("no answer within {} ms", after.as_millis()),
        ),
        Answer::Said(line) => {
            let Ok(value) = serde_json::from_str::<Value>(&line) else {
                return fail(Broken::Died, steps, format!("garbled answer: {line}"));
            };
            if value.get("none").is_some() {
                return None;
            }
            if value.get("kept").is_some() {
                return Some(Ok(()));
            }
            let kind = value["broken"]
                .as_str()
                .and_then(|name| Broken::ALL.into_iter().find(|b| b.name() == name));
            let step = value["step"].as_u64().and_then(|s| usize::try_from(s).ok());
            match (kind, step, value["what"].as_str()) {
                (Some(kind), Some(step), Some(what)) => fail(kind, step, what.to_string()),
                _ => fail(Broken::Died, steps, format!("garbled answer: {value}")),
            }
        }
    }
}

/// The conversation `entropy` builds for `class`, and what `target` made
/// of it: in `worker` when there is one, else in this process.
pub(crate) fn attempt_in(
    target: &dyn EndpointTarget,
    worker: Option<&mut Worker<'_>>,
    class: StateClass,
    entropy: &[u8],
) -> Option<(Scenario, Result<(), Failure>)> {
    let Some(worker) = worker else {
        return attempt(target, class, entropy);
    };
    // The conversation is built here too: the harness's own code, which
    // the kept failure shows.
    let scenario = built(target, class, entropy)?;
    let input = by_entropy(class, entropy);
    let answer = worker.ask_all(&[&input]).pop()?;
    let outcome = outcome(answer, class, scenario.datagrams.len())?;
    Some((scenario, outcome))
}
