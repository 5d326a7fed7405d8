//! `encode`: a `decode --json` document back to its bytes. Every corpus
//! file goes through a real pipe between the two commands; a value edited
//! without its wire is refused by name; a value given alone is encoded.

use adversarial::files::{files_under, target_for_path};
use adversarial::target::Target;
use adversarial::targets;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_adversarial"))
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// `adversarial decode --json FILE | adversarial encode`, as a shell runs it.
fn decode_then_encode(file: &Path) -> (Output, Output) {
    let mut decode = binary()
        .args(["decode", "--json"])
        .arg(file)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let encode = binary()
        .arg("encode")
        .stdin(decode.stdout.take().unwrap())
        .output()
        .unwrap();
    (decode.wait_with_output().unwrap(), encode)
}

fn encode_document(document: &Value) -> Output {
    let mut encode = binary()
        .args(["encode", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let text = serde_json::to_vec(document).unwrap();
    encode.stdin.take().unwrap().write_all(&text).unwrap();
    encode.wait_with_output().unwrap()
}

#[test]
fn every_corpus_file_goes_through_decode_json_and_encode_to_the_same_bytes() {
    let all = targets::all();
    let refs: Vec<&dyn Target> = all.iter().map(AsRef::as_ref).collect();
    let (mut same, mut refused) = (0, 0);
    for file in files_under(&[corpus()]).unwrap() {
        let target = target_for_path(&file, &refs).unwrap();
        let bytes = std::fs::read(&file).unwrap();
        let (decoded, encoded) = decode_then_encode(&file);
        let stderr = String::from_utf8_lossy(&encoded.stderr);
        if target.decode_value(&bytes).is_some() {
            assert_eq!(decoded.status.code(), Some(0), "{}", file.display());
            assert_eq!(
                encoded.status.code(),
                Some(0),
                "{}: {stderr}",
                file.display()
            );
            assert!(encoded.stdout == bytes, "{}: other bytes", file.display());
            same += 1;
        } else {
            // A refused file's document holds no value to encode.
            assert_eq!(
                encoded.status.code(),
                Some(1),
                "{}: {stderr}",
                file.display()
            );
            assert!(
                stderr.contains("no \"value\""),
                "{}: {stderr}",
                file.display()
            );
            refused += 1;
        }
    }
    assert!(same >= 100, "{same} files re-encoded");
    assert!(refused >= 1, "the crash corpus has a refused file");
}

/// The leaves of `value` that keep their wire beside the value, by path,
/// leaving out values the reader assigns (they are not read).
fn wire_leaves(value: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Value)>) {
    match value {
        Value::Object(o) if o.contains_key("assigned") => {}
        Value::Object(o) if o.contains_key("value") && o.len() == 2 => {
            out.push((path.clone(), value.clone()));
        }
        Value::Object(o) => {
            for (key, item) in o {
                path.push(key.clone());
                wire_leaves(item, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                wire_leaves(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(value: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(value, |v, key| match v {
        Value::Array(items) => &mut items[key.parse::<usize>().unwrap()],
        other => &mut other[key.as_str()],
    })
}

/// The name a leaf is refused under: the last key of its path that is not
/// an array position.
fn field_of(path: &[String]) -> &str {
    path.iter()
        .rev()
        .find(|k| k.parse::<usize>().is_err())
        .unwrap()
}

#[test]
fn a_value_edited_without_its_wire_is_refused_naming_the_field() {
    let (mut kinds_seen, mut leaves_seen) = (Vec::new(), 0);
    for file in files_under(&[corpus()]).unwrap() {
        let all = targets::all();
        let refs: Vec<&dyn Target> = all.iter().map(AsRef::as_ref).collect();
        let target = target_for_path(&file, &refs).unwrap();
        let Some(value) = target.decode_value(&std::fs::read(&file).unwrap()) else {
            continue;
        };
        let mut leaves = Vec::new();
        wire_leaves(&value, &mut Vec::new(), &mut leaves);
        // One leaf of each shape per file keeps the test short.
        leaves.dedup_by_key(|(_, leaf)| {
            leaf.as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        });
        for (path, leaf) in leaves {
            let wire_key = ["wire", "ieee754", "utf16"]
                .into_iter()
                .find(|k| leaf.get(k).is_some())
                .unwrap();
            if leaf["value"].is_null() {
                continue;
            }
            let mut edited = value.clone();
            *at(&mut edited, &path).get_mut("value").unwrap() = match &leaf["value"] {
                Value::String(s) => Value::String(format!("{s}x")),
                other => serde_json::json!(other.as_f64().unwrap() * 1.5 + 0.5),
            };
            let refused = target
                .encode_value(&edited)
                .unwrap()
                .err()
                .unwrap_or_else(|| panic!("{}: {path:?} {leaf}", file.display()));
            assert!(
                refused.contains(&format!("field \"{}\"", field_of(&path)))
                    && refused.contains(&format!("\"{wire_key}\"")),
                "{}: {path:?}: {refused}",
                file.display()
            );
            if !kinds_seen.contains(&wire_key) {
                kinds_seen.push(wire_key);
            }
            leaves_seen += 1;
        }
    }
    assert_eq!(kinds_seen.len(), 3, "every shape met: {kinds_seen:?}");
    assert!(leaves_seen >= 50, "{leaves_seen} leaves edited");
}

#[test]
fn the_binary_refuses_an_edited_value_and_encodes_a_value_given_alone() {
    let file = corpus().join("scenes/seed-000.bin");
    let bytes = std::fs::read(&file).unwrap();
    let decoded = binary()
        .args(["decode", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    let document: Value = serde_json::from_slice(&decoded.stdout).unwrap();
    let position = ["value", "payload", "slot", "0", "position", "0"].map(String::from);

    let mut edited = document.clone();
    let leaf = at(&mut edited, &position);
    let code = leaf["wire"].as_u64().unwrap();
    leaf["value"] = serde_json::json!(leaf["value"].as_f64().unwrap() + 1.0);
    let out = encode_document(&edited);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("field \"position\"") && stderr.contains("\"wire\""),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    // The wire alone, changed: encoded, and read back with the new code.
    let mut rewired = document.clone();
    *at(&mut rewired, &position) = serde_json::json!({ "wire": code - 1000 });
    let out = encode_document(&rewired);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(out.stdout, bytes);
    let again = targets::by_name("scenes")
        .unwrap()
        .decode_value(&out.stdout)
        .unwrap();
    assert_eq!(at(&mut again.clone(), &position[1..])["wire"], code - 1000);

    // The value alone: quantized as a writer would, one step lower.
    let mut revalued = document.clone();
    let step_lower = at(&mut revalued, &position)["value"].as_f64().unwrap() - 1.0;
    *at(&mut revalued, &position) = serde_json::json!({ "value": step_lower });
    let out = encode_document(&revalued);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again = targets::by_name("scenes")
        .unwrap()
        .decode_value(&out.stdout)
        .unwrap();
    let shown = at(&mut again.clone(), &position[1..])["value"]
        .as_f64()
        .unwrap();
    assert!(
        (shown - step_lower).abs() < 0.001,
        "{shown} for {step_lower}"
    );

    // A type's name edited without its wire.
    let mut renamed = document;
    renamed["value"]["type"]["name"] = "B".into();
    let out = encode_document(&renamed);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("field \"type\""), "{stderr}");
}

#[test]
fn a_document_without_a_target_or_not_json_is_a_usage_error() {
    let out = encode_document(&serde_json::json!({ "value": {} }));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--target"));
    let out = binary()
        .args(["encode", "/nonexistent/doc.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/doc.json"));
}
