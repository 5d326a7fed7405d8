//! `decode --json` shows the whole value: a test rebuilds every built-in
//! protocol's samples from their JSON documents alone (printed and parsed
//! again, as a script would) and encodes the very same bytes.

use adversarial::target::Target;
use adversarial::targets;
use arbitrary::Unstructured;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// Entropy for sample `i`, so samples differ in shape.
fn entropy(i: u64, len: usize) -> Vec<u8> {
    let mut bytes = vec![0; len];
    ChaCha8Rng::seed_from_u64(i).fill_bytes(&mut bytes);
    bytes
}

/// The value of `bytes` as `decode --json` prints it, printed and parsed.
fn shown(target: &dyn Target, bytes: &[u8]) -> Value {
    let value = target
        .decode_value(bytes)
        .unwrap_or_else(|| panic!("{}: a valid sample has a value", target.name()));
    serde_json::from_str(&serde_json::to_string(&value).unwrap()).unwrap()
}

#[test]
fn every_built_in_sample_re_encodes_from_its_json() {
    for target in targets::all() {
        let mut rebuilt = 0;
        for i in 0..200 {
            let entropy = entropy(i, 4096);
            let Ok(sample) = target.generate(&mut Unstructured::new(&entropy)) else {
                continue;
            };
            let value = shown(target.as_ref(), &sample.bytes);
            let again = target
                .encode_value(&value)
                .unwrap_or_else(|| panic!("{}: cannot encode a value", target.name()));
            assert_eq!(
                again.as_deref(),
                Ok(sample.bytes.as_slice()),
                "{} sample {i}: {value}",
                target.name()
            );
            rebuilt += 1;
        }
        assert!(rebuilt >= 100, "{}: only {rebuilt} samples", target.name());
    }
}

fn scene_sample(name: &str, wanted_type: Option<&str>) -> Value {
    let target = targets::by_name(name).unwrap();
    for i in 0..500 {
        let entropy = entropy(i, 8192);
        let Ok(sample) = target.generate(&mut Unstructured::new(&entropy)) else {
            continue;
        };
        let value = shown(target.as_ref(), &sample.bytes);
        let slots = value["payload"]["slot"].as_array().map_or(0, Vec::len);
        let type_ok = wanted_type.is_none_or(|t| value["type"]["name"] == t);
        if slots >= 2 && type_ok {
            return value;
        }
    }
    panic!("no {name} sample with two objects");
}

#[test]
fn a_scene_shows_each_object_at_its_index_with_floats_and_codes() {
    for (target, wanted) in [
        ("scenes", Some("A")),
        ("scenes", Some("D")),
        ("scenes-entropy", None),
        ("scenes-golomb", None),
    ] {
        let value = scene_sample(target, wanted);
        if let Some(wanted) = wanted {
            assert_eq!(value["type"]["name"], wanted, "{value}");
        }
        let slots = value["payload"]["slot"].as_array().unwrap();
        let mut previous = None;
        for slot in slots {
            // The index is given by position (A) or a ladder (D), never
            // read as such: assigned.
            let index = slot["index"]["assigned"].as_u64().expect("an index");
            assert!(previous < Some(index), "indices increase: {value}");
            previous = Some(index);
            let position = slot["position"].as_array().expect("three codes");
            assert_eq!(position.len(), 3);
            for axis in position {
                let code = axis["wire"].as_u64().unwrap();
                let real = axis["value"].as_f64().unwrap();
                let expected = codec::protocols::scenes::POSITION.dequantize(code as u32);
                assert_eq!(real as f32, expected, "{axis}");
            }
            let quaternion = slot["quaternion"]["assigned"].as_array().unwrap();
            let norm: f64 = quaternion
                .iter()
                .map(|c| c["value"].as_f64().unwrap().powi(2))
                .sum();
            assert!(
                (norm - 1.0).abs() < 1e-3,
                "a unit quaternion: {quaternion:?}"
            );
            let at_rest = slot["at_rest"].as_bool().unwrap();
            let velocity = &slot["linear_velocity"];
            // At rest, the reader sets the velocities itself.
            assert_eq!(velocity.get("assigned").is_some(), at_rest, "{slot}");
        }
    }
}

#[test]
fn a_packet_shows_its_type_by_name_and_floats_with_their_bits() {
    let target = targets::by_name("packets").unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..300 {
        let entropy = entropy(i, 1024);
        let Ok(sample) = target.generate(&mut Unstructured::new(&entropy)) else {
            continue;
        };
        let value = shown(target.as_ref(), &sample.bytes);
        let name = value["type"]["name"].as_str().unwrap().to_owned();
        let payload = &value["payload"];
        match name.as_str() {
            "A" => assert!(payload["a"].is_i64() && payload["c"].is_i64(), "{value}"),
            "B" => {
                let count = payload["items"]["count"].as_u64().unwrap();
                let items = &payload["items"]["item"];
                let shown = match items {
                    Value::Array(items) => items.len() as u64,
                    Value::Null => 0,
                    _ => 1,
                };
                assert_eq!(shown, count, "{value}");
            }
            "C" => {
                for axis in payload["position"].as_array().unwrap() {
                    let bits = axis["ieee754"].as_str().unwrap();
                    let bits = u32::from_str_radix(bits.trim_start_matches("0x"), 16).unwrap();
                    if let Some(real) = axis["value"].as_f64() {
                        assert_eq!(real as f32, f32::from_bits(bits), "{axis}");
                    }
                }
                let at_rest = payload["at_rest"].as_bool().unwrap();
                assert_eq!(payload["velocity"].get("assigned").is_some(), at_rest);
            }
            other => panic!("packet type {other:?}"),
        }
        seen.insert(name);
    }
    assert_eq!(seen.len(), 3, "every packet type seen: {seen:?}");
}

#[test]
fn a_document_that_breaks_a_rule_is_refused_by_name() {
    let target = targets::by_name("packets").unwrap();
    let mut value = serde_json::json!({
        "crc": 0,
        "type": {"name": "A", "wire": 0},
        "payload": {"a": 4, "b": -6, "c": 30}
    });
    assert!(target.encode_value(&value).unwrap().is_ok());
    value["payload"]["c"] = 31.into();
    let error = target.encode_value(&value).unwrap().unwrap_err();
    assert!(
        error.contains("\"c\"") && error.contains("range"),
        "{error}"
    );
    value["payload"].as_object_mut().unwrap().remove("b");
    let error = target.encode_value(&value).unwrap().unwrap_err();
    assert!(
        error.contains("\"b\"") && error.contains("missing"),
        "{error}"
    );
}

#[derive(Debug, Default, PartialEq, codec::Serialize)]
struct Chat {
    #[serialize(range = 0..=99)]
    from: u8,
    #[serialize(max_len = 32)]
    chat: Option<String>,
    #[serialize(range = 1..=9)]
    mood: Option<u8>,
}

#[test]
fn an_optional_value_is_null_when_absent_and_itself_when_present() {
    let target = adversarial::target::protocol::message::<Chat>("chat");
    let cases = [
        (
            None,
            None,
            serde_json::json!({ "from": 7, "chat": null, "mood": null }),
        ),
        (
            Some("gg".to_owned()),
            Some(3),
            serde_json::json!({ "from": 7, "chat": "gg", "mood": 3 }),
        ),
    ];
    for (chat, mood, shown_as) in cases {
        let mut message = Chat {
            from: 7,
            chat,
            mood,
        };
        let bytes = codec::to_vec(&mut message).unwrap();
        let value = target.decode_value(&bytes).unwrap();
        assert_eq!(value, shown_as);
        assert_eq!(target.encode_value(&value), Some(Ok(bytes)));
    }
    let absent = target
        .decode_value(&codec::to_vec(&mut Chat::default()).unwrap())
        .unwrap();
    let text = adversarial::value::text(&absent);
    assert!(text.contains("chat: absent"), "{text}");
    assert!(!text.contains("false"), "{text}");
    // A missing key is not an absent value.
    let refused = target.encode_value(&serde_json::json!({ "from": 7, "mood": null }));
    assert!(matches!(refused, Some(Err(why)) if why.contains("\"chat\"")));
}
