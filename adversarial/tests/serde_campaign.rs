//! The example's serde targets under every adapter (feature `serde`),
//! attacked with the serde classes: the canonical configuration gets every
//! verdict owed, and every other fails only where its reader is known to
//! (its design, or a known bug), with the cause it names.
//!
//! A test binary of its own making (`harness = false`): cases run in worker
//! processes, which are this binary started again with `__worker`, so a
//! reader that aborts on an allocation is a verdict and the test goes on.

use adversarial::campaign::{self, Budget, Config};
use adversarial::check;
use adversarial::formats::game_targets;
use adversarial::mutate::Class;
use adversarial::report::{campaign_table, Listed};
use adversarial::worker::Isolation;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

adversarial::count_allocations!();

fn main() -> std::process::ExitCode {
    // This binary is also the command line on the example's targets: the
    // campaign's workers, and the commands the last test runs.
    let command = std::env::args().nth(1);
    let commands = ["__worker", "inspect", "decode", "encode", "replay"];
    if command.is_some_and(|c| commands.contains(&c.as_str())) {
        return adversarial::cli::main(game_targets());
    }
    // `cargo test -- --list` and filters: this file is one test, run whole.
    if std::env::args().any(|a| a == "--list") {
        println!("serde_campaign: test");
        return std::process::ExitCode::SUCCESS;
    }
    the_canonical_configuration_gets_every_verdict_owed();
    every_other_configuration_fails_only_where_its_reader_is_known_to();
    the_command_line_inspects_decodes_encodes_and_replays_a_serde_message();
    decode_inspect_and_replay_say_what_the_campaign_says();
    println!("serde_campaign: 4 passed");
    std::process::ExitCode::SUCCESS
}

fn named(names: &[&str]) -> Vec<Box<dyn adversarial::target::Target>> {
    game_targets()
        .into_iter()
        .filter(|t| names.contains(&t.name()))
        .collect()
}

fn the_canonical_configuration_gets_every_verdict_owed() {
    let report = check::campaign(named(&[
        "input-postcard-canonical",
        "snapshot-postcard-canonical",
    ]))
    .classes(&Class::SERDE)
    .cases(12_000)
    .run();
    for class in Class::SERDE {
        assert!(
            report
                .rows
                .iter()
                .any(|(_, c, t)| *c == class && t.cases > 0),
            "class {} had no case",
            class.name()
        );
    }
}

/// The classes each target failed in, by target.
fn failing(report: &campaign::Report) -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let mut out: BTreeMap<_, BTreeSet<_>> = BTreeMap::new();
    for (target, class, tally) in &report.rows {
        let entry = out.entry(*target).or_default();
        if !tally.clean() {
            entry.insert(class.name());
        }
    }
    out
}

fn every_other_configuration_fails_only_where_its_reader_is_known_to() {
    let isolation = Isolation::this_binary(&["__worker"], Duration::from_secs(10)).unwrap();
    let config = Config {
        targets: game_targets(),
        classes: Class::SERDE.to_vec(),
        endpoints: Vec::new(),
        state_classes: Vec::new(),
        seed: 1,
        budget: Budget::Cases(1500),
        crash_dir: None,
        progress: false,
        shrink: false,
        isolation: Some(isolation),
        jobs: 2,
    };
    let report = campaign::run(&config);
    let table = campaign_table(&report, Listed::Above);
    let targets = game_targets();
    for (target, class, tally) in &report.rows {
        let reader = targets.iter().find(|t| t.name() == *target).unwrap();
        assert!(
            tally.clean() || reader.known_cause(*class).is_some(),
            "{target} failed {} with no known cause\n{table}",
            class.name()
        );
    }
    let failed = failing(&report);
    // The table of docs/HARNESS.md: the lies each configuration lets
    // through, whichever the sample. A lie that moves where the fields fall
    // (a flip, a length one off, a count given another value) fails only
    // where it happens to make one of these, so only there may it fail.
    let as_documented = |format: &str| -> Vec<&str> {
        let (overlong, bomb, trailing) = ("overlong-varint", "length-bomb", "trailing-bytes");
        match format {
            "postcard" => vec![overlong, trailing],
            "postcard-strict" => vec![overlong],
            "postcard-canonical" => vec![],
            "bincode1" => vec![bomb, trailing],
            "bincode1-varint" | "bincode1-varint-limited" => {
                vec![bomb, "int-beyond-type", overlong]
            }
            "bincode2" | "bincode2-limited" => vec![bomb, overlong, trailing],
            "bincode2-strict" => vec![bomb],
            other => panic!("no documented row for {other}"),
        }
    };
    let by_chance = ["bit-flip", "length-off-by-one", "every-value"];
    for (target, classes) in &failed {
        let format = target.split_once('-').map_or("", |(_, format)| format);
        let mut documented = as_documented(format);
        documented.sort_unstable();
        let lies: Vec<&str> = classes
            .iter()
            .copied()
            .filter(|c| !by_chance.contains(c))
            .collect();
        assert_eq!(lies, documented, "{target}\n{table}");
        let chance: Vec<&&str> = classes.iter().filter(|c| by_chance.contains(c)).collect();
        assert!(
            chance.is_empty() || !documented.is_empty(),
            "{target} failed {chance:?} though it lets no lie through\n{table}"
        );
    }
    // The finding about bincode 2.0.1 (its issue 764): without a limit, a
    // length near u64::MAX panics, in both messages.
    for target in ["input-bincode2", "snapshot-bincode2"] {
        let bombs = report
            .rows
            .iter()
            .find(|(t, c, _)| *t == target && *c == Class::LengthBomb)
            .map(|(_, _, tally)| tally.count(adversarial::campaign::Failing::Panicked));
        assert!(bombs.is_some_and(|n| n > 0), "{target}\n{table}");
    }
}

/// Runs this binary as the command line with `args`: exit code and output.
fn cli(args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

fn the_command_line_inspects_decodes_encodes_and_replays_a_serde_message() {
    use adversarial::formats::{game::Input, PostcardCanonical};
    let name = "input-postcard-canonical";
    let input = Input::<0> {
        tick: 7,
        player: "kart9".into(),
        throttle: 100,
        ready: true,
        commands: vec![adversarial::formats::game::Command::Say("gg".into())],
        placing: None,
        aim: Some((1.5, -2.0)),
        emote: Some('w'),
    };
    let bytes = adversarial::formats::Format::to_bytes(&PostcardCanonical, &input).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name).join("input.bin");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, &bytes).unwrap();
    let path = file.to_str().unwrap();

    // inspect: the field map with paths and roles, as a table and as JSON.
    let (code, table) = cli(&["inspect", path, "--target", name]);
    assert_eq!(code, 0, "{table}");
    for line in [
        "player",
        "str-bytes",
        "\"kart9\"",
        "commands[0]",
        "variant-tag Command",
    ] {
        assert!(table.contains(line), "{line} missing from\n{table}");
    }
    let (code, json) = cli(&["inspect", "--json", path, "--target", name]);
    assert_eq!(code, 0, "{json}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let throttle = json["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "throttle")
        .unwrap();
    assert_eq!(
        (throttle["role"].as_str(), throttle["value"].as_str()),
        (Some("int u8"), Some("100"))
    );
    assert_eq!(
        throttle["offset"],
        8 * 7,
        "tick 1 byte, player 6, then throttle"
    );

    // decode --json, then encode: the same bytes.
    let (code, decoded) = cli(&["decode", "--json", path, "--target", name]);
    assert_eq!(code, 0, "{decoded}");
    let document = dir.path().join("input.json");
    std::fs::write(&document, &decoded).unwrap();
    let again = dir.path().join("again.bin");
    let (code, said) = cli(&[
        "encode",
        document.to_str().unwrap(),
        "--output",
        again.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{said}");
    assert_eq!(std::fs::read(&again).unwrap(), bytes);

    // replay: the target from the directory's name; a throttle of 101 is
    // refused by the rule the example writes by hand.
    let mut over = bytes.clone();
    over[7] = 101;
    std::fs::write(file.with_file_name("over.bin"), &over).unwrap();
    let (code, replayed) = cli(&["replay", dir.path().join(name).to_str().unwrap()]);
    assert_eq!(code, 0, "{replayed}");
    assert!(
        replayed.contains("input.bin [input-postcard-canonical]: accepted"),
        "{replayed}"
    );
    assert!(
        replayed.contains("over.bin [input-postcard-canonical]: refused"),
        "{replayed}"
    );
}

/// The campaign's verdict on `bytes` read by `target`: its words.
fn campaign_words(target: &str, bytes: &[u8]) -> String {
    let target = named(&[target]).pop().unwrap();
    let case = adversarial::mutate::Case {
        class: Class::Valid,
        bytes: bytes.to_vec(),
        owed: adversarial::mutate::Owed::Anything,
        lie: String::new(),
    };
    let outcome = adversarial::oracle::judge(target.as_ref(), &case);
    let words = match &outcome {
        adversarial::oracle::Outcome::NonCanonical(why) => format!("accepted, but {why}"),
        adversarial::oracle::Outcome::OverAllocated { peak, bound } => {
            format!("allocated {peak} bytes, bound {bound}")
        }
        adversarial::oracle::Outcome::AsOwed => "as owed".to_string(),
        other => format!("{other:?}"),
    };
    words
}

fn decode_inspect_and_replay_say_what_the_campaign_says() {
    let dir = tempfile::tempdir().unwrap();
    let write = |target: &str, name: &str, bytes: &[u8]| {
        let file = dir.path().join(target).join(name);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, bytes).unwrap();
        file.to_str().unwrap().to_string()
    };
    let input = adversarial::formats::game::Input::<0> {
        tick: 7,
        player: "kart9".into(),
        throttle: 100,
        ready: true,
        commands: Vec::new(),
        placing: None,
        aim: None,
        emote: None,
    };
    let strict = "input-postcard-strict";
    let honest =
        adversarial::formats::Format::to_bytes(&adversarial::formats::PostcardStrict, &input)
            .unwrap();

    // Non-canonical: the tick 7 in two bytes, which postcard takes.
    let mut long = vec![0x87, 0x00];
    long.extend_from_slice(&honest[1..]);
    let path = write(strict, "long.bin", &long);
    let words = campaign_words(strict, &long);
    assert!(words.starts_with("accepted, but re-encodes to"), "{words}");
    for command in ["decode", "inspect"] {
        let (code, said) = cli(&[command, &path]);
        assert_eq!(code, 1, "{command}: {said}");
        assert!(
            said.contains(&words),
            "{command} said {said}, the campaign {words}"
        );
    }
    let (code, json) = cli(&["decode", "--json", &path]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["reencodes"], false, "{json}");
    let (code, said) = cli(&["replay", &path]);
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains(&format!("FAIL {words}")),
        "replay said {said}"
    );
    // inspect maps the file's own bytes: the tick in the two it took.
    let (_, json) = cli(&["inspect", "--json", &path]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let tick = &json["fields"][0];
    assert_eq!(
        (tick["path"].as_str(), tick["width"].as_u64()),
        (Some("tick"), Some(16))
    );

    // Refused: a throttle of 101; the cause is said once.
    let mut over = honest.clone();
    over[7] = 101;
    let path = write(strict, "over.bin", &over);
    for (command, owed) in [("decode", 1), ("inspect", 1), ("replay", 0)] {
        let (code, said) = cli(&[command, &path]);
        assert_eq!(code, owed, "{command}: {said}");
        assert!(said.contains("refused"), "{command}: {said}");
        assert!(!said.contains("refused: refused"), "{command}: {said}");
    }
    // inspect maps what was read up to the refusal, and says where it
    // stopped, in the game's own words.
    let (_, table) = cli(&["inspect", &path]);
    for line in [
        "tick",
        "player",
        "throttle 101 above 100",
        "stopped in throttle, byte 8",
    ] {
        assert!(table.contains(line), "{line} missing from\n{table}");
    }

    // Over-allocating: bincode 1.3 passes a claimed entity count on to
    // serde, which preallocates for it.
    let snapshot = "snapshot-bincode1";
    let mut claim = 1u64.to_le_bytes().to_vec();
    claim.extend_from_slice(&u64::from(u32::MAX).to_le_bytes());
    let path = write(snapshot, "claim.bin", &claim);
    let words = campaign_words(snapshot, &claim);
    assert!(words.starts_with("allocated"), "{words}");
    for command in ["decode", "inspect", "replay"] {
        let (code, said) = cli(&[command, &path]);
        assert_eq!(code, 1, "{command}: {said}");
        assert!(
            said.contains(&format!("FAIL {words}")),
            "{command} said {said}, the campaign {words}"
        );
    }
}
