//! A short campaign over every target and class must come out clean, with
//! allocations counted, and every class must have cases in some target.

use adversarial::mutate::Class;
use adversarial::{check, targets};

adversarial::count_allocations!();

#[test]
fn a_short_campaign_finds_every_verdict_owed() {
    let report = check::campaign(targets::all()).cases(400).run();
    for class in Class::CODEC {
        assert!(
            report
                .rows
                .iter()
                .any(|(_, c, t)| *c == class && t.cases > 0),
            "class {} had no case in any target",
            class.name()
        );
    }
}

/// A kept failure, shrunk or not, is described by the bytes in its file:
/// judging the file again gives the outcome the FAIL line names, every
/// bit the line names lies within the file, and a panic replays with the
/// same message.
#[test]
fn a_fail_line_describes_the_file_it_names() {
    use adversarial::campaign::{self, Budget, Config};
    use adversarial::fixtures::BrokenSceneD;
    use adversarial::mutate::Case;
    use adversarial::oracle::{judge, Outcome};
    use adversarial::replay::{replay, Replayed};

    let crashes = tempfile::tempdir().unwrap();
    let config = Config {
        targets: vec![Box::new(BrokenSceneD)],
        classes: Class::ALL.to_vec(),
        endpoints: Vec::new(),
        state_classes: Vec::new(),
        seed: 1,
        budget: Budget::Cases(3000),
        crash_dir: Some(crashes.path().to_path_buf()),
        progress: false,
        shrink: true,
        isolation: None,
        jobs: 1,
    };
    let report = campaign::run(&config);
    let text = adversarial::report::failures_text(&report);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), report.failures.len());
    let mut shrunk = 0;
    for (failure, line) in report.failures.iter().zip(lines) {
        let file = failure.file.as_ref().expect("every failure is written");
        let bytes = std::fs::read(file).unwrap();
        assert_eq!(bytes, failure.bytes, "{line}");
        let bits = bytes.len() as u64 * 8;
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            if pair[0] == "bit" {
                if let Ok(at) = pair[1]
                    .trim_end_matches([',', ';', ':', ')'])
                    .parse::<u64>()
                {
                    assert!(at < bits, "bit {at} of a {bits}-bit file: {line}");
                }
            }
        }
        let again = Case {
            class: failure.class,
            bytes: bytes.clone(),
            owed: failure.owed.clone(),
            lie: failure.lie.clone(),
        };
        assert_eq!(judge(&BrokenSceneD, &again), failure.outcome, "{line}");
        if let Outcome::Panicked(message) = &failure.outcome {
            assert_eq!(
                replay(&BrokenSceneD, &bytes),
                Replayed::Panicked(message.clone())
            );
        }
        shrunk += usize::from(failure.lie.starts_with("shrunk to "));
    }
    assert!(shrunk > 0, "no failure was shrunk:\n{text}");
}
