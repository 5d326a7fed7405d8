//! The campaign as one self-contained HTML page (`campaign --html FILE`):
//! its settings and seed, a chart of cases and verdicts by class, the
//! class table of every target, and every failing case drawn as a packet
//! picture with the command that replays it. No script, no network: the
//! chart and the pictures are inline SVG.

use crate::campaign::{Failure, Report, Tally};
use crate::field_map::FieldMap;
use crate::oracle::Failing;
use crate::oracle::Outcome;
use crate::panics::panic_message;
use crate::report::{hex, outcome_text};
use crate::scenario::campaign::Report as ConversationReport;
use crate::scenario::table::failure_line;
use crate::scenario::Broken;
use crate::target::{Inspection, Refusal, Target, Verdict};
use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};
use plotters::prelude::*;
use std::fmt::Write as _;

/// How the campaign was run, for the page's header.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The budget as the command line gave it (`60 s`, `10000 cases per target`).
    pub budget: String,
    /// `workers` or `in process`.
    pub isolation: String,
    /// The command that reruns the campaign.
    pub command: String,
    /// The program as it was run (`adversarial`, `target/release/attack`),
    /// for the replay commands.
    pub program: String,
}

/// The columns of a class row, as in the terminal table.
const COLUMNS: [&str; 11] = [
    "class",
    "cases",
    "as owed",
    "other",
    "accepted",
    "panics",
    "non-canon",
    "over-mem",
    "died",
    "hung",
    "cases/s",
];

fn row_cells(class: &str, tally: &Tally) -> [String; 11] {
    [
        class.to_string(),
        tally.cases.to_string(),
        tally.as_owed.to_string(),
        tally.count(Failing::OtherError).to_string(),
        tally.count(Failing::Accepted).to_string(),
        tally.count(Failing::Panicked).to_string(),
        tally.count(Failing::NonCanonical).to_string(),
        tally.count(Failing::OverAllocated).to_string(),
        (tally.count(Failing::Aborted) + tally.count(Failing::OutOfMemory)).to_string(),
        tally.count(Failing::TimedOut).to_string(),
        format!("{:.0}", tally.rate()),
    ]
}

/// The panel type of [`chart`]: a log scale across, one row per slot. The
/// rows are segments, so that a row's label sits at its middle, beside its
/// bar, not on the edge between two rows.
type Panel<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<
        plotters::coord::combinators::LogCoord<f64>,
        plotters::coord::ranged1d::SegmentedCoord<plotters::coord::types::RangedCoordusize>,
    >,
>;

/// Row `i`'s bar, from 0.5 to `value` across.
fn bar(i: usize, value: f64, style: ShapeStyle) -> Rectangle<(f64, SegmentValue<usize>)> {
    Rectangle::new(
        [
            (0.5, SegmentValue::Exact(i)),
            (value, SegmentValue::Exact(i + 1)),
        ],
        style,
    )
}

/// A tick's number with its thousands grouped: `1,000,000`.
fn grouped(v: f64) -> String {
    let digits = format!("{v:.0}");
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The power of ten at or above `most` (at least 10): a log axis that ends
/// on a labelled tick, so that no bar runs past the last number shown.
fn axis_end(most: f64) -> f64 {
    let mut end = 10.0;
    while end < most {
        end *= 10.0;
    }
    end
}

/// The labels a log axis up to [`axis_end`] of `most` needs for one at
/// each power of ten, its end included.
fn decades(most: f64) -> usize {
    let mut n = 2;
    let mut end = 10.0;
    while end < most {
        end *= 10.0;
        n += 1;
    }
    n
}

/// One panel of [`chart`]: `slots` rows, from 0.5 to the power of ten at
/// or above `most` across.
fn panel<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    caption: &str,
    label_width: u32,
    most: f64,
    slots: usize,
) -> Option<Panel<'a, 'b>> {
    ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 15))
        .margin(10)
        // Room for the last tick's number, centred on the axis's end.
        .margin_right(36)
        .x_label_area_size(30)
        .y_label_area_size(label_width)
        .build_cartesian_2d(
            (0.5..axis_end(most)).log_scale(),
            (0..slots).into_segmented(),
        )
        .ok()
}

/// The chart: one row per target and class, in two panels that share the
/// rows. On the left the cases judged (log scale); on the right, in red,
/// the verdicts other than owed, on a log scale of their own that starts
/// below one, so that a single failure among millions of cases is a bar a
/// reader sees.
fn chart(report: &Report) -> String {
    let rows: Vec<(String, u64, u64)> = report
        .rows
        .iter()
        .map(|(target, class, tally)| {
            (
                format!("{target} / {}", class.name()),
                tally.cases,
                tally.cases.saturating_sub(tally.as_owed),
            )
        })
        .collect();
    let slots = rows.len().max(1);
    let height = 70 + 18 * slots as u32;
    let most_cases = rows.iter().map(|r| r.1).max().unwrap_or(1).max(10) as f64;
    let most_other = rows.iter().map(|r| r.2 + 1).max().unwrap_or(0).max(10) as f64;
    let labels: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let (left, right) = root.split_horizontally(640);
        if let Some(mut chart) = panel(&left, "cases judged (log scale)", 260, most_cases, slots) {
            let _ = chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(slots)
                .y_label_formatter(&|row| match row {
                    SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
                    _ => String::new(),
                })
                .x_labels(decades(most_cases))
                .x_label_formatter(&|v| grouped(*v))
                .draw();
            let _ = chart.draw_series(
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| bar(i, (r.1 as f64).max(0.5), GREEN.mix(0.6).filled())),
            );
        }
        let caption = "verdicts not owed (red; log scale)";
        if let Some(mut chart) = panel(&right, caption, 0, most_other, slots) {
            let _ = chart
                .configure_mesh()
                .disable_y_mesh()
                .x_labels(decades(most_other))
                .x_label_formatter(&|v| grouped(*v))
                .draw();
            let _ = chart.draw_series(
                rows.iter()
                    .enumerate()
                    .filter(|(_, r)| r.2 > 0)
                    .map(|(i, r)| bar(i, r.2 as f64 + 0.5, RED.filled())),
            );
        }
        let _ = root.present();
    }
    svg
}

fn failure_section(out: &mut String, failure: &Failure, picture: Option<String>, program: &str) {
    let _ = writeln!(
        out,
        "<section class=\"failure\"><h3>{} / {}: {}</h3>",
        text(failure.target),
        text(failure.class.name()),
        text(&outcome_text(&failure.outcome))
    );
    let _ = writeln!(
        out,
        "<p>Lie: {}. Owed: {}.</p>",
        text(&failure.lie),
        text(&format!("{:?}", failure.owed))
    );
    match &failure.file {
        Some(file) => {
            let _ = writeln!(
                out,
                "<p>Replay: <code class=\"replay\">{} replay --target {} {}</code></p>",
                text(program),
                text(failure.target),
                text(&file.display().to_string())
            );
        }
        None => {
            let _ = writeln!(out, "<p>Not written to disk (no crash directory).</p>");
        }
    }
    let _ = writeln!(
        out,
        "<details><summary>{} bytes</summary><pre>{}</pre></details>",
        failure.bytes.len(),
        text(&hex(&failure.bytes))
    );
    if let Some(picture) = picture {
        let _ = writeln!(out, "<div class=\"picture\">{picture}</div>");
    }
    let _ = writeln!(out, "</section>");
}

/// The packet picture of a failing input, read again by its target in
/// this process. A reader that panics is drawn with no field and the panic
/// as its refusal; one that killed or hung its worker would do the same
/// here, so it gets no picture.
#[must_use]
pub fn failure_picture(targets: &[Box<dyn Target>], failure: &Failure) -> Option<String> {
    if matches!(
        failure.outcome,
        Outcome::Aborted(_) | Outcome::OutOfMemory(_) | Outcome::TimedOut(_)
    ) {
        return None;
    }
    let target = targets.iter().find(|t| t.name() == failure.target)?;
    let inspected = crate::panics::caught(|| target.inspect(&failure.bytes));
    let inspection = inspected.unwrap_or_else(|panic| Inspection {
        map: FieldMap::default(),
        failed_in: None,
        packet_type: None,
        verdict: Verdict::Refused(Refusal {
            cause: "panicked".to_string(),
            at: None,
            message: panic_message(&*panic),
        }),
        shown: None,
        listed: Vec::new(),
    });
    let title = format!("{} / {}", failure.target, failure.class.name());
    Some(crate::picture::packet_svg(
        &title,
        &failure.bytes,
        &inspection,
    ))
}

/// The page. `picture` draws a failing input (the packet picture of
/// [`crate::picture`]), or gives `None` when it cannot.
#[must_use]
pub fn campaign_html(
    report: &Report,
    settings: &Settings,
    picture: impl Fn(&Failure) -> Option<String>,
) -> String {
    let total: u64 = report.rows.iter().map(|(_, _, t)| t.cases).sum();
    let verdict = if report.passed() {
        "every verdict as owed, no panic"
    } else {
        "FAILURES"
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>campaign: {}</title>\n<style>\
         body{{font-family:sans-serif;margin:2em;max-width:1100px}}\
         table{{border-collapse:collapse;margin-bottom:1.5em}}\
         td,th{{border:1px solid #bbb;padding:2px 8px;text-align:right}}\
         td:first-child,th:first-child{{text-align:left}}\
         tr.failing{{background:#ffebee}}\
         .passed{{color:#2e7d32}}.failed{{color:#c62828}}\
         section.failure{{border-left:4px solid #c62828;padding-left:1em;margin:1em 0}}\
         </style></head><body>",
        text(verdict)
    );
    let _ = writeln!(
        out,
        "<h1>Campaign: <span class=\"{}\" id=\"verdict\">{}</span></h1>",
        if report.passed() { "passed" } else { "failed" },
        text(verdict)
    );
    let _ = writeln!(
        out,
        "<table id=\"settings\"><tr><th>seed</th><td>{}</td></tr>\
         <tr><th>budget</th><td>{}</td></tr><tr><th>isolation</th><td>{}</td></tr>\
         <tr><th>cases</th><td>{total}</td></tr><tr><th>samples</th><td>{}</td></tr>\
         <tr><th>seconds</th><td>{:.1}</td></tr>\
         <tr><th>rerun</th><td><code>{}</code></td></tr></table>",
        report.seed,
        text(&settings.budget),
        text(&settings.isolation),
        report.samples,
        report.elapsed.as_secs_f64(),
        text(&settings.command)
    );
    let _ = writeln!(out, "<div id=\"chart\">{}</div>", chart(report));
    let heads: String = COLUMNS.iter().map(|c| format!("<th>{c}</th>")).collect();
    grouped_tables(
        &mut out,
        report.rows.iter().map(|(target, class, tally)| {
            (
                *target,
                row_cells(class.name(), tally).to_vec(),
                tally.clean(),
            )
        }),
        |target| {
            format!(
                "<h2>{}</h2>\n<table class=\"classes\" data-target=\"{}\"><tr>{heads}</tr>",
                text(target),
                attr(target),
            )
        },
    );
    for unmade in &report.unmade {
        let _ = writeln!(
            out,
            "<p class=\"unmade\" data-target=\"{}\">{}</p>",
            attr(unmade.target),
            text(&unmade.text())
        );
    }
    conversation_tables(&mut out, &report.conversations);
    let _ = writeln!(
        out,
        "<h2>Failing cases</h2>\n<p id=\"failure-count\">{}</p>",
        report.failures.len() + report.conversations.failures.len()
    );
    let (shown, left_out) = crate::report::shown_failures(report);
    for failure in shown {
        failure_section(&mut out, failure, picture(failure), &settings.program);
    }
    if left_out > 0 {
        let _ = writeln!(
            out,
            "<p class=\"left-out\">And {left_out} more in other fields, each explained the same \
             way as those above (the JSON lists them).</p>"
        );
    }
    for kept in &report.conversations.failures {
        let _ = writeln!(
            out,
            "<section class=\"failure conversation\"><h3>{} / {}</h3><p>{}</p>",
            text(kept.target),
            text(kept.failure.class.name()),
            text(&failure_line(kept))
        );
        if let Some(file) = &kept.file {
            let _ = writeln!(
                out,
                "<p>Replay: <code>{} replay {}</code></p>",
                text(&settings.program),
                text(&file.display().to_string())
            );
        }
        let _ = writeln!(out, "</section>");
    }
    let _ = writeln!(out, "</body></html>");
    out
}

/// A table per endpoint target: a row per lie across packets, a column per
/// broken promise.
fn conversation_tables(out: &mut String, report: &ConversationReport) {
    let heads: String = ["class", "cases", "as owed"]
        .into_iter()
        .chain(Broken::ALL.iter().map(|k| k.name()))
        .map(|c| format!("<th>{}</th>", text(c)))
        .collect();
    let rows = report.rows.iter().map(|(target, class, tally)| {
        let cells: Vec<String> = [
            class.name().to_string(),
            tally.cases.to_string(),
            tally.as_owed.to_string(),
        ]
        .into_iter()
        .chain(Broken::ALL.iter().map(|k| tally.broken(*k).to_string()))
        .collect();
        (*target, cells, tally.clean())
    });
    grouped_tables(out, rows, |target| {
        format!(
            "<h2>{} (conversations)</h2>\n<table class=\"conversations\" data-endpoint=\"{}\"><tr>{heads}</tr>",
            text(target),
            attr(target),
        )
    });
}

/// Rows of (target, cells, clean) as a table per target, each opened by
/// `open(target)`.
fn grouped_tables<'a>(
    out: &mut String,
    rows: impl Iterator<Item = (&'a str, Vec<String>, bool)>,
    open: impl Fn(&str) -> String,
) {
    let mut current = None;
    for (target, cells, clean) in rows {
        if current != Some(target) {
            if current.is_some() {
                let _ = writeln!(out, "</table>");
            }
            current = Some(target);
            let _ = writeln!(out, "{}", open(target));
        }
        table_row(out, &cells, clean);
    }
    if current.is_some() {
        let _ = writeln!(out, "</table>");
    }
}

/// A table row of `cells`, marked clean or failing.
fn table_row(out: &mut String, cells: &[String], clean: bool) {
    let cells: String = cells
        .iter()
        .map(|c| format!("<td>{}</td>", text(c)))
        .collect();
    let _ = writeln!(
        out,
        "<tr class=\"{}\">{cells}</tr>",
        if clean { "clean" } else { "failing" }
    );
}
