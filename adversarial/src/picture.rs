//! A packet's bit layout as an SVG picture: one row per 32 bits, each
//! field a coloured span labelled with its name and value, padding and
//! checks marked, bits no field covers in grey, and the field the reader
//! refused in red with the error beneath. `inspect --svg` writes it; the
//! campaign's page draws its failing cases with it.

use crate::field_map::{Field, Kind};
use crate::report;
use crate::target::{Inspection, Verdict};
use svg::node::element::{Group, Line, Rectangle, Text, Title};
use svg::Document;

/// Bits drawn on one row.
pub const ROW_BITS: u64 = 32;
/// Width of one bit, in pixels.
const CELL: u64 = 26;
/// Height of one row.
const ROW_HEIGHT: u64 = 44;
/// Room on the left for the byte offsets, and above for the title.
const LEFT: u64 = 78;
const TOP: u64 = 40;

/// The fill of a field, by what it is.
fn fill(kind: &Kind) -> &'static str {
    match kind {
        Kind::Padding => "#d9d9d9",
        Kind::Check { .. } => "#b39ddb",
        Kind::Bool => "#ffe082",
        Kind::Ranged { .. } => "#90caf9",
        Kind::Compressed { .. } | Kind::Float | Kind::Double => "#a5d6a7",
        Kind::Bytes | Kind::StringPayload | Kind::WideUnit => "#ffcc80",
        Kind::StringLength { .. } | Kind::WideLength { .. } => "#80deea",
        Kind::Bits | Kind::Wide | Kind::WideTop { .. } => "#bcaaa4",
    }
}

/// Where the reader refused, if it did: the offset and the words.
fn refusal(inspection: &Inspection) -> Option<(Option<u64>, String)> {
    match &inspection.verdict {
        Verdict::Refused(r) => Some((r.at, report::verdict_text(inspection))),
        Verdict::Accepted { .. } => None,
    }
}

/// The pieces of `[offset, end)` on each row: (row, first bit, last bit + 1).
fn row_spans(offset: u64, end: u64) -> Vec<(u64, u64, u64)> {
    let mut spans = Vec::new();
    let mut at = offset;
    while at < end {
        let row = at / ROW_BITS;
        let row_end = ((row + 1) * ROW_BITS).min(end);
        spans.push((row, at % ROW_BITS, row_end - row * ROW_BITS));
        at = row_end;
    }
    spans
}

fn span_rect(row: u64, from: u64, to: u64, fill: &str, class: &str) -> Rectangle {
    Rectangle::new()
        .set("class", class)
        .set("x", LEFT + from * CELL)
        .set("y", TOP + row * ROW_HEIGHT + 4)
        .set("width", (to - from) * CELL)
        .set("height", ROW_HEIGHT - 8)
        .set("fill", fill)
        .set("stroke", "#37474f")
        .set("stroke-width", 1)
}

/// One field as a group of spans, labelled on its first span.
fn field_group(field: &Field, refused_here: bool, error: &str) -> Group {
    let shown = report::shown_value(field);
    let label = format!("{} = {shown}", field.name);
    let mut group = Group::new()
        .set(
            "class",
            if refused_here {
                "field refused"
            } else {
                "field"
            },
        )
        .set("data-name", field.name)
        .set("data-offset", field.offset)
        .set("data-width", field.width)
        .add(Title::new(format!(
            "{label}\nbits {}..{} ({} bits), {}, {}{}",
            field.offset,
            field.end(),
            field.width,
            field.kind.label(),
            field.role.label(),
            if refused_here {
                format!("\n{error}")
            } else {
                String::new()
            }
        )));
    let colour = if refused_here {
        "#ef5350"
    } else {
        fill(&field.kind)
    };
    let spans = row_spans(field.offset, field.end().max(field.offset + 1));
    for (i, (row, from, to)) in spans.iter().enumerate() {
        group = group.add(span_rect(*row, *from, *to, colour, "span"));
        if i == 0 {
            // As much of the label as the span has room for.
            let room = (((to - from) * CELL) / 7).max(1) as usize;
            let text: String = if label.chars().count() > room {
                label
                    .chars()
                    .take(room.saturating_sub(1))
                    .chain(['…'])
                    .collect()
            } else {
                label.clone()
            };
            group = group.add(
                Text::new(text)
                    .set("x", LEFT + from * CELL + 3)
                    .set("y", TOP + row * ROW_HEIGHT + ROW_HEIGHT / 2 + 4)
                    .set("font-size", 11)
                    .set("font-family", "monospace"),
            );
        }
    }
    group
}

/// The picture of `bytes` as `inspection` mapped them.
#[must_use]
pub fn packet_svg(title: &str, bytes: &[u8], inspection: &Inspection) -> String {
    let total_bits = bytes.len() as u64 * 8;
    let fields = &inspection.map.fields;
    let drawn_bits = fields
        .iter()
        .map(Field::end)
        .chain([total_bits])
        .max()
        .unwrap_or(0);
    let rows = drawn_bits.div_ceil(ROW_BITS).max(1);
    let refused = refusal(inspection);
    let error = refused.as_ref().map(|(_, e)| e.clone()).unwrap_or_default();
    let width = LEFT + ROW_BITS * CELL + 20;
    let height = TOP + rows * ROW_HEIGHT + 50;
    let mut document = Document::new()
        .set("viewBox", (0, 0, width, height))
        .set("width", width)
        .set("height", height)
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "white"),
        )
        .add(
            Text::new(format!("{title}: {} bytes", bytes.len()))
                .set("x", 10)
                .set("y", 24)
                .set("font-size", 15)
                .set("font-family", "sans-serif"),
        );
    // The bits, in grey where no field covers them, with byte offsets.
    for row in 0..rows {
        let bits_here = total_bits.saturating_sub(row * ROW_BITS).min(ROW_BITS);
        if bits_here > 0 {
            document = document.add(span_rect(row, 0, bits_here, "#f5f5f5", "bits"));
        }
        document = document.add(
            Text::new(format!("byte {}", row * ROW_BITS / 8))
                .set("x", 8)
                .set("y", TOP + row * ROW_HEIGHT + ROW_HEIGHT / 2 + 4)
                .set("font-size", 11)
                .set("font-family", "monospace"),
        );
        for byte in 1..4 {
            let x = LEFT + byte * 8 * CELL;
            document = document.add(
                Line::new()
                    .set("x1", x)
                    .set("x2", x)
                    .set("y1", TOP + row * ROW_HEIGHT)
                    .set("y2", TOP + (row + 1) * ROW_HEIGHT)
                    .set("stroke", "#90a4ae")
                    .set("stroke-dasharray", "2,3"),
            );
        }
    }
    // The field the reader refused: the one holding the refusal's bit. A
    // read that ran past the end left no field; the bar and the error
    // (which names the field) say where.
    let refused_field = refused.as_ref().and_then(|(at, _)| {
        let at = at.unwrap_or(0);
        fields.iter().rposition(|f| f.offset <= at && at < f.end())
    });
    for (i, field) in fields.iter().enumerate() {
        document = document.add(field_group(field, refused_field == Some(i), &error));
    }
    if let Some((at, _)) = &refused {
        let at = at.unwrap_or(0);
        let (row, bit) = (at / ROW_BITS, at % ROW_BITS);
        let x = LEFT + bit * CELL;
        document = document
            .add(
                Line::new()
                    .set("class", "refusal-mark")
                    .set("x1", x)
                    .set("x2", x)
                    .set("y1", TOP + row * ROW_HEIGHT)
                    .set("y2", TOP + (row + 1) * ROW_HEIGHT)
                    .set("stroke", "#c62828")
                    .set("stroke-width", 3),
            )
            .add(
                Text::new(error)
                    .set("class", "refusal")
                    .set("x", 10)
                    .set("y", TOP + rows * ROW_HEIGHT + 30)
                    .set("font-size", 13)
                    .set("fill", "#c62828")
                    .set("font-family", "sans-serif"),
            );
    }
    document.to_string()
}
