//! The campaign page (`campaign --html`), checked structurally with an HTML
//! parser, so that `cargo test` needs no browser: self-contained, one
//! table row per row of the JSON report, the chart, the settings and
//! seed, and every failing case with its picture and replay command.

use adversarial::campaign::{run, Budget, Config, Report};
use adversarial::fixtures::BrokenSceneD;
use adversarial::mutate::Class;
use adversarial::page::{campaign_html, failure_picture, Settings};
use adversarial::report::campaign_json;
use adversarial::scenario::StateClass;
use adversarial::target::Target;
use adversarial::targets;
use scraper::{Html, Selector};

/// The settings of a 60 s campaign in workers.
fn settings() -> Settings {
    Settings {
        budget: "60 s".into(),
        isolation: "workers".into(),
        command: "adversarial campaign".into(),
        program: "adversarial".into(),
    }
}

fn select(page: &Html, css: &str) -> usize {
    page.select(&Selector::parse(css).unwrap()).count()
}

fn campaign(crash_dir: &std::path::Path) -> (Report, Vec<Box<dyn Target>>) {
    let mut all = targets::all();
    all.retain(|t| t.name() == "packets");
    all.push(Box::new(BrokenSceneD));
    let mut endpoints = targets::endpoints();
    // The fixture that breaks a promise (the others die: workers only).
    endpoints.extend(
        targets::endpoint_fixtures()
            .into_iter()
            .filter(|e| e.name() == "link-accepts-replays"),
    );
    let config = Config {
        targets: all,
        classes: vec![
            Class::OutOfRangeSentinel,
            Class::OutOfRangeValue,
            Class::BadCrc,
        ],
        endpoints,
        state_classes: vec![StateClass::ReplayedDatagram, StateClass::StaleSequence],
        seed: 5,
        budget: Budget::Cases(2000),
        crash_dir: Some(crash_dir.to_path_buf()),
        progress: false,
        shrink: false,
        isolation: None,
        jobs: 1,
    };
    let report = run(&config);
    (report, config.targets)
}

#[test]
fn the_page_has_every_row_of_the_report_and_every_failure_drawn() {
    // The broken reader's panics are caught on purpose; keep them quiet.
    std::panic::set_hook(Box::new(|info| {
        if !info.to_string().contains("index out of bounds") {
            eprintln!("{info}");
        }
    }));
    let crashes = tempfile::tempdir().unwrap();
    let (report, targets) = campaign(crashes.path());
    assert!(!report.passed(), "the broken reader fails");
    let settings = Settings {
        budget: "2000 cases per target".into(),
        isolation: "in process".into(),
        command: "adversarial campaign --cases 2000 --seed 5".into(),
        program: "attack".into(),
    };
    let html = campaign_html(&report, &settings, |failure| {
        failure_picture(&targets, failure)
    });
    let page = Html::parse_document(&html);
    assert!(page.errors.is_empty(), "{:?}", page.errors);
    // Self-contained: no script, nothing fetched.
    assert_eq!(select(&page, "script"), 0);
    assert_eq!(select(&page, "[src]"), 0);
    assert_eq!(select(&page, "link"), 0);
    // One table row per JSON row, and one table per target.
    let json = campaign_json(&report);
    let json_rows = json["rows"].as_array().unwrap().len();
    assert_eq!(
        select(&page, "table.classes tr.clean, table.classes tr.failing"),
        json_rows
    );
    assert_eq!(select(&page, "table.classes"), 2);
    assert_eq!(
        select(&page, "table.classes tr.failing"),
        report.rows.iter().filter(|r| !r.2.clean()).count()
    );
    // The settings and the seed, the verdict, the chart.
    let settings_text: String = page
        .select(&Selector::parse("#settings").unwrap())
        .flat_map(|t| t.text())
        .collect();
    assert!(settings_text.contains("seed5"), "{settings_text}");
    assert!(settings_text.contains("2000 cases per target"));
    let verdict: String = page
        .select(&Selector::parse("#verdict").unwrap())
        .flat_map(|v| v.text())
        .collect();
    assert_eq!(verdict, "FAILURES");
    assert_eq!(select(&page, "#chart svg"), 1);
    // Each class with other verdicts has a red bar a reader sees, however
    // few they are beside the cases.
    let red: Vec<f64> = page
        .select(&Selector::parse("#chart svg rect[fill=\"#FF0000\"]").unwrap())
        .map(|r| r.value().attr("width").unwrap().parse().unwrap())
        .collect();
    let failing = report
        .rows
        .iter()
        .filter(|r| r.2.cases > r.2.as_owed)
        .count();
    assert!(failing > 0);
    assert_eq!(red.len(), failing, "{red:?}");
    assert!(red.iter().all(|w| *w >= 5.0), "{red:?}");
    // Every failing case with its picture (the broken reader panics: no
    // field, the panic written beneath).
    assert!(!report.failures.is_empty());
    assert_eq!(
        select(&page, "section.failure:not(.conversation)"),
        report.failures.len()
    );
    assert_eq!(
        select(&page, "section.failure .picture svg"),
        report.failures.len()
    );
    assert_eq!(
        select(&page, "section.failure .picture svg text.refusal"),
        report.failures.len()
    );
    // A table per endpoint, a row per lie, one per JSON row; the fixture's
    // failing lie in red, with its conversation and replay command.
    let conversations = &report.conversations;
    assert_eq!(select(&page, "table.conversations"), 2);
    assert_eq!(
        select(
            &page,
            "table.conversations tr.clean, table.conversations tr.failing"
        ),
        json["conversations"]["rows"].as_array().unwrap().len()
    );
    // The fixture fails the lies that replay a packet: replayed-datagram
    // and window-edges, each a failing row with its conversation.
    let failing = conversations.rows.iter().filter(|r| !r.2.clean()).count();
    assert!(failing >= 1);
    assert_eq!(select(&page, "table.conversations tr.failing"), failing);
    assert_eq!(conversations.failures.len(), failing);
    assert_eq!(select(&page, "section.failure.conversation"), failing);
    let replay: String = page
        .select(&Selector::parse("section.failure.conversation code").unwrap())
        .flat_map(|c| c.text())
        .collect();
    assert!(
        replay.starts_with("attack replay ") && replay.ends_with(".conversation.json"),
        "{replay}"
    );
    let count: String = page
        .select(&Selector::parse("#failure-count").unwrap())
        .flat_map(|c| c.text())
        .collect();
    assert_eq!(count, (report.failures.len() + failing).to_string());
}

#[test]
fn one_failure_among_millions_of_cases_is_a_red_bar_a_reader_sees() {
    use adversarial::campaign::{Failing, Tally};
    let tally = |cases: u64, as_owed| Tally {
        cases,
        as_owed,
        failing: [(Failing::Panicked, cases - as_owed)].into(),
        ..Tally::default()
    };
    let report = Report {
        rows: vec![
            ("packets", Class::BitFlip, tally(4_000_000, 3_999_999)),
            ("packets", Class::TrailingBytes, tally(3_000_000, 3_000_000)),
            ("save", Class::BitFlip, tally(2_000_000, 1_000_000)),
        ],
        ..Report::default()
    };
    let settings = settings();
    let page = Html::parse_document(&campaign_html(&report, &settings, |_| None));
    let red: Vec<f64> = page
        .select(&Selector::parse("#chart svg rect[fill=\"#FF0000\"]").unwrap())
        .map(|r| r.value().attr("width").unwrap().parse().unwrap())
        .collect();
    assert_eq!(red.len(), 2, "{red:?}");
    assert!(red.iter().all(|w| *w >= 5.0), "{red:?}");
    assert!(
        red[0] < red[1],
        "one failure draws shorter than a million: {red:?}"
    );
}

#[test]
fn every_bar_ends_within_the_numbers_its_axis_shows() {
    use adversarial::campaign::{Failing, Tally};
    let tally = |cases: u64, failing: u64| Tally {
        cases,
        as_owed: cases - failing,
        failing: [(Failing::NonCanonical, failing)].into(),
        ..Tally::default()
    };
    let report = Report {
        rows: vec![
            ("packets", Class::BitFlip, tally(3_000_000, 1_100_000)),
            ("packets", Class::TrailingBytes, tally(1_500_000, 0)),
            ("save", Class::BitFlip, tally(30, 2)),
        ],
        ..Report::default()
    };
    let settings = settings();
    let page = Html::parse_document(&campaign_html(&report, &settings, |_| None));
    let number = |s: &str| s.trim().replace(',', "").parse::<f64>().ok();
    // Each panel's largest tick number, and where it stands.
    let ticks: Vec<(f64, f64)> = page
        .select(&Selector::parse("#chart svg text").unwrap())
        .filter_map(|t| {
            let value = number(&t.text().collect::<String>())?;
            Some((t.value().attr("x")?.parse().ok()?, value))
        })
        .collect();
    for (fill, most) in [("#00FF00", 3_000_000.0), ("#FF0000", 1_100_000.0)] {
        let bars: Vec<(f64, f64)> = page
            .select(&Selector::parse(&format!("#chart svg rect[fill=\"{fill}\"]")).unwrap())
            .map(|r| {
                let x: f64 = r.value().attr("x").unwrap().parse().unwrap();
                let w: f64 = r.value().attr("width").unwrap().parse().unwrap();
                (x, x + w)
            })
            .collect();
        let left = bars.iter().map(|b| b.0).fold(f64::MAX, f64::min);
        let right = bars.iter().map(|b| b.1).fold(0.0, f64::max);
        // The panel's ticks: the chart is 960 wide, its left panel 640.
        let panel: Vec<&(f64, f64)> = ticks
            .iter()
            .filter(|(x, _)| *x >= left && (left >= 640.0 || *x < 640.0))
            .collect();
        let (last_x, last) = panel
            .iter()
            .copied()
            .fold((0.0, 0.0), |a, b| if b.0 > a.0 { *b } else { a });
        assert!(
            last >= most,
            "{fill}: the axis shows up to {last}, a bar is {most}"
        );
        assert!(
            right <= last_x + 1.0,
            "{fill}: a bar ends at {right}, the last number at {last_x}"
        );
    }
}
