//! `campaign --shard I/N` and `merge`: a campaign cut into shards and
//! merged gives the same table, failures, crash files and exit code as the
//! campaign run whole, and so do one job and two; for packet targets and
//! endpoint targets, with and without failures.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Packet targets (one with a planted bug) and endpoint targets (one with
/// a forgotten check), so that failures are kept, shrunk and written.
const TARGETS: [&str; 5] = [
    "packets",
    "save",
    "broken-scene-d",
    "link",
    "link-accepts-replays",
];

fn adversarial(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adversarial"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `campaign` on the targets with `--cases 1500 --seed 11` and
/// `extra`, writing failures under `crashes`; its exit code and JSON.
fn campaign(crashes: &Path, json: &Path, extra: &[&str]) -> i32 {
    let mut args = vec!["campaign", "--quiet", "--cases", "1500", "--seed", "11"];
    for target in TARGETS {
        args.extend(["--target", target]);
    }
    let (crashes, json) = (crashes.to_str().unwrap(), json.to_str().unwrap());
    args.extend(["--crash-dir", crashes, "--json", json]);
    args.extend(extra);
    let out = adversarial(&args);
    assert!(
        out.status.code() != Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.status.code().unwrap()
}

/// The JSON without what depends on time or on the crash directory's
/// path: the seconds, the rates, and each file's directory.
fn comparable(value: Value) -> Value {
    match value {
        Value::Object(object) => Value::Object(
            object
                .into_iter()
                .filter(|(k, _)| k != "seconds" && k != "cases_per_second")
                .map(|(k, v)| match (k.as_str(), v) {
                    ("file", Value::String(path)) => {
                        let name = Path::new(&path).file_name().unwrap().to_str().unwrap();
                        (k, Value::String(name.to_string()))
                    }
                    (_, v) => (k, comparable(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(comparable).collect()),
        other => other,
    }
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every file under `dir`, by its path below it, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                found.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    found
}

#[test]
fn shards_merged_and_any_number_of_jobs_give_the_whole_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);

    let whole = campaign(&at("crashes-1"), &at("whole-1.json"), &["--jobs", "1"]);
    let two_jobs = campaign(&at("crashes-2"), &at("whole-2.json"), &["--jobs", "2"]);
    assert_eq!(whole, 1, "the planted bugs fail the campaign");
    assert_eq!(two_jobs, whole);
    let expected = comparable(read(&at("whole-1.json")));
    assert_eq!(comparable(read(&at("whole-2.json"))), expected);

    let mut shards = Vec::new();
    for i in 0..3 {
        let json = at(&format!("shard-{i}.json"));
        let shard = format!("{i}/3");
        campaign(&at("unused"), &json, &["--jobs", "2", "--shard", &shard]);
        let document = read(&json);
        assert_eq!(document["shard"]["index"], i);
        shards.push(json);
    }
    assert!(
        !at("unused").exists(),
        "a shard writes no crash file: merge does"
    );
    // Given in any order.
    let mut args = vec!["merge", "--crash-dir"];
    let crashes = at("crashes-merged");
    let merged = at("merged.json");
    args.push(crashes.to_str().unwrap());
    args.extend(["--json", merged.to_str().unwrap()]);
    for shard in shards.iter().rev() {
        args.push(shard.to_str().unwrap());
    }
    let out = adversarial(&args);
    assert_eq!(
        out.status.code(),
        Some(whole),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged = comparable(read(&merged));
    assert_eq!(merged, expected);

    // The rows hold packet and conversation targets, and failures of both.
    let rows = merged["rows"].as_array().unwrap();
    assert!(rows.iter().any(|r| r["target"] == "broken-scene-d"));
    assert!(merged["failures"].as_array().unwrap().len() > 3);
    let talks = &merged["conversations"];
    assert!(talks["rows"].as_array().unwrap().len() > 20);
    assert!(!talks["failures"].as_array().unwrap().is_empty());

    let written = files(&at("crashes-1"));
    assert!(written.len() > 3);
    assert_eq!(files(&at("crashes-2")), written);
    assert_eq!(files(&crashes), written);
}

#[test]
fn merge_refuses_an_incomplete_or_mixed_set_of_shards() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let shard = |i: u64, seed: &str| {
        let json = at(&format!("shard-{i}-{seed}.json"));
        let out = adversarial(&[
            "campaign",
            "--quiet",
            "--target",
            "packets",
            "--cases",
            "200",
            "--seed",
            seed,
            "--shard",
            &format!("{i}/2"),
            "--json",
            json.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0));
        json
    };
    let (zero, one, other_seed) = (shard(0, "1"), shard(1, "1"), shard(1, "2"));
    let merge = |files: &[&PathBuf]| {
        let mut args = vec!["merge".to_string()];
        args.extend(files.iter().map(|f| f.to_str().unwrap().to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = adversarial(&args);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, why) = merge(&[&zero]);
    assert_eq!(code, Some(2));
    assert!(why.contains("missing shards: 1/2"), "{why}");
    let (code, why) = merge(&[&zero, &zero, &one]);
    assert_eq!(code, Some(2));
    assert!(why.contains("given twice"), "{why}");
    let (code, why) = merge(&[&zero, &other_seed]);
    assert_eq!(code, Some(2));
    assert!(why.contains("another campaign"), "{why}");
    let whole = at("whole.json");
    let out = adversarial(&[
        "campaign",
        "--quiet",
        "--target",
        "packets",
        "--cases",
        "200",
        "--json",
        whole.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let (code, why) = merge(&[&whole]);
    assert_eq!(code, Some(2));
    assert!(why.contains("no \"shard\" object"), "{why}");
    let out = adversarial(&["campaign", "--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(2), "--shard needs --json");
    let out = adversarial(&["campaign", "--shard", "2/2", "--json", "x.json"]);
    assert_eq!(out.status.code(), Some(2), "2/2 is no shard");
}
