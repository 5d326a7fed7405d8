//! A packet's bit layout as an SVG picture: one row per 32 bits, each
//! field a coloured span labelled with its name and value, padding and
//! checks marked, bits no field covers in grey, and the field the reader
//! refused in red with the error beneath. `inspect --svg` writes it; the
//! campaign's page draws its failing cases with it.
//!
//! A refused packet is drawn up to the row of its refusal and
//! [`ROWS_AFTER_REFUSAL`] rows after it, whatever its length, and the
//! picture is written as it is drawn: the memory it takes does not grow
//! with the packet.

use crate::field_map::{Field, Kind};
use crate::report;
use crate::target::{Inspection, ListedField, Verdict};
use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};
use std::io::{self, Write};

/// Bits drawn on one row.
pub const ROW_BITS: u64 = 32;
/// Rows drawn past the one the reader refused in: enough to show what
/// followed, few enough that a long refused input draws small.
pub const ROWS_AFTER_REFUSAL: u64 = 4;
/// Width of one bit, in pixels.
const CELL: u64 = 26;
/// Height of one row.
const ROW_HEIGHT: u64 = 44;
/// Room on the left for the byte offsets, and above for the title.
const LEFT: u64 = 78;
const TOP: u64 = 40;
/// Room below the rows for the note of what is not drawn and the error.
const BOTTOM: u64 = 70;

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

/// The fill of a listed field (a serde leaf), by its role's first word.
fn listed_fill(role: &str) -> &'static str {
    match role.split(' ').next().unwrap_or_default() {
        "seq-length" | "map-length" | "str-length" | "bytes-length" => "#80deea",
        "variant-tag" | "option-tag" => "#b39ddb",
        "bool" => "#ffe082",
        "int" => "#90caf9",
        "float" => "#a5d6a7",
        _ => "#ffcc80",
    }
}

/// One field as drawn: a `codec` field, or a field another target lists.
struct Drawn {
    name: String,
    offset: u64,
    end: u64,
    shown: String,
    detail: String,
    fill: &'static str,
}

impl Drawn {
    fn of_field(field: &Field) -> Self {
        Self {
            name: field.name.to_string(),
            offset: field.offset,
            end: field.end(),
            shown: format!("{} = {}", field.name, report::shown_value(field)),
            detail: format!(
                "bits {}..{} ({} bits), {}, {}",
                field.offset,
                field.end(),
                field.width,
                field.kind.label(),
                field.role.label()
            ),
            fill: fill(&field.kind),
        }
    }

    fn of_listed(field: &ListedField) -> Self {
        let end = field.offset.saturating_add(field.width);
        Self {
            name: field.path.clone(),
            offset: field.offset,
            end,
            shown: format!("{} = {}", field.path, field.value),
            detail: format!(
                "bits {}..{end} ({} bits), {}",
                field.offset, field.width, field.role
            ),
            fill: listed_fill(&field.role),
        }
    }
}

/// The fields of `inspection` as drawn: its field map's, else the ones it
/// lists (a serde target's leaves).
fn drawn(inspection: &Inspection) -> Vec<Drawn> {
    if inspection.map.fields.is_empty() {
        inspection.listed.iter().map(Drawn::of_listed).collect()
    } else {
        inspection.map.fields.iter().map(Drawn::of_field).collect()
    }
}

/// Where the reader refused, if it did: the bit (0 when it names none)
/// and the words.
fn refusal(inspection: &Inspection) -> Option<(u64, String)> {
    match &inspection.verdict {
        Verdict::Refused(r) => Some((r.at.unwrap_or(0), report::verdict_text(inspection))),
        Verdict::Accepted { .. } => None,
    }
}

/// The pieces of `[offset, end)` on each row: (row, first bit, last bit + 1).
fn row_spans(offset: u64, end: u64) -> impl Iterator<Item = (u64, u64, u64)> {
    let mut at = offset;
    std::iter::from_fn(move || {
        (at < end).then(|| {
            let row = at / ROW_BITS;
            let row_end = ((row + 1) * ROW_BITS).min(end);
            let span = (row, at % ROW_BITS, row_end - row * ROW_BITS);
            at = row_end;
            span
        })
    })
}

fn span_rect(out: &mut impl Write, row: u64, from: u64, to: u64, fill: &str) -> io::Result<()> {
    writeln!(
        out,
        r##"<rect class="span" x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="#37474f" stroke-width="1"/>"##,
        LEFT + from * CELL,
        TOP + row * ROW_HEIGHT + 4,
        (to - from) * CELL,
        ROW_HEIGHT - 8,
    )
}

fn label(out: &mut impl Write, x: u64, row: u64, words: &str) -> io::Result<()> {
    writeln!(
        out,
        r#"<text x="{x}" y="{}" font-size="11" font-family="monospace">{}</text>"#,
        TOP + row * ROW_HEIGHT + ROW_HEIGHT / 2 + 4,
        text(words)
    )
}

/// One field as a group of spans on the rows below `rows`, labelled on its
/// first span.
fn field_group(
    out: &mut impl Write,
    field: &Drawn,
    rows: u64,
    refused_here: bool,
    error: &str,
) -> io::Result<()> {
    let shown = &field.shown;
    let title = format!(
        "{shown}\n{}{}",
        field.detail,
        if refused_here {
            format!("\n{error}")
        } else {
            String::new()
        }
    );
    writeln!(
        out,
        r#"<g class="{}" data-name="{}" data-offset="{}" data-width="{}"><title>{}</title>"#,
        if refused_here {
            "field refused"
        } else {
            "field"
        },
        attr(&field.name),
        field.offset,
        field.end.saturating_sub(field.offset),
        text(&title)
    )?;
    let colour = if refused_here { "#ef5350" } else { field.fill };
    let spans = row_spans(field.offset, field.end.max(field.offset + 1));
    for (i, (row, from, to)) in spans.take_while(|(row, _, _)| *row < rows).enumerate() {
        span_rect(out, row, from, to, colour)?;
        if i == 0 {
            // As much of the label as the span has room for.
            let room = (((to - from) * CELL) / 7).max(1) as usize;
            let words: String = if shown.chars().count() > room {
                shown
                    .chars()
                    .take(room.saturating_sub(1))
                    .chain(['…'])
                    .collect()
            } else {
                shown.clone()
            };
            label(out, LEFT + from * CELL + 3, row, &words)?;
        }
    }
    writeln!(out, "</g>")
}

/// Writes the picture of `bytes`, as `inspection` mapped them, to `out`.
///
/// # Errors
///
/// When `out` fails.
pub fn write_packet_svg(
    out: &mut impl Write,
    title: &str,
    bytes: &[u8],
    inspection: &Inspection,
) -> io::Result<()> {
    let total_bits = bytes.len() as u64 * 8;
    let fields = drawn(inspection);
    let mapped_bits = fields
        .iter()
        .map(|f| f.end)
        .chain([total_bits])
        .max()
        .unwrap_or(0);
    let all_rows = mapped_bits.div_ceil(ROW_BITS).max(1);
    let refused = refusal(inspection);
    let rows = match &refused {
        Some((at, _)) => all_rows.min(at / ROW_BITS + 1 + ROWS_AFTER_REFUSAL),
        None => all_rows,
    };
    let error = refused
        .as_ref()
        .map(|(_, e)| e.as_str())
        .unwrap_or_default();
    let width = LEFT + ROW_BITS * CELL + 20;
    let height = TOP + rows * ROW_HEIGHT + BOTTOM;
    writeln!(
        out,
        r#"<svg height="{height}" viewBox="0 0 {width} {height}" width="{width}" xmlns="http://www.w3.org/2000/svg">"#
    )?;
    writeln!(out, r#"<rect fill="white" height="100%" width="100%"/>"#)?;
    writeln!(
        out,
        r#"<text font-family="sans-serif" font-size="15" x="10" y="24">{}: {} bytes</text>"#,
        text(title),
        bytes.len()
    )?;
    // The bits, in grey where no field covers them, with byte offsets.
    for row in 0..rows {
        let bits_here = total_bits.saturating_sub(row * ROW_BITS).min(ROW_BITS);
        if bits_here > 0 {
            writeln!(
                out,
                r##"<rect class="bits" x="{LEFT}" y="{}" width="{}" height="{}" fill="#f5f5f5" stroke="#37474f" stroke-width="1"/>"##,
                TOP + row * ROW_HEIGHT + 4,
                bits_here * CELL,
                ROW_HEIGHT - 8,
            )?;
        }
        label(out, 8, row, &format!("byte {}", row * ROW_BITS / 8))?;
        for byte in 1..4 {
            let x = LEFT + byte * 8 * CELL;
            writeln!(
                out,
                r##"<line x1="{x}" x2="{x}" y1="{}" y2="{}" stroke="#90a4ae" stroke-dasharray="2,3"/>"##,
                TOP + row * ROW_HEIGHT,
                TOP + (row + 1) * ROW_HEIGHT,
            )?;
        }
    }
    // The field the reader refused: the one holding the refusal's bit. A
    // read that ran past the end left no field; the bar and the error
    // (which names the field) say where.
    let refused_field = refused
        .as_ref()
        .and_then(|(at, _)| fields.iter().rposition(|f| f.offset <= *at && *at < f.end));
    for (i, field) in fields.iter().enumerate() {
        if field.offset < rows * ROW_BITS {
            field_group(out, field, rows, refused_field == Some(i), error)?;
        }
    }
    let below = TOP + rows * ROW_HEIGHT;
    if rows < all_rows {
        let undrawn = bytes.len() as u64 - (rows * ROW_BITS / 8).min(bytes.len() as u64);
        writeln!(
            out,
            r##"<text class="undrawn" x="10" y="{}" font-size="13" fill="#546e7a" font-family="sans-serif">{undrawn} more bytes after the refusal are not drawn</text>"##,
            below + 22
        )?;
    }
    if let Some((at, _)) = &refused {
        let (row, bit) = (at / ROW_BITS, at % ROW_BITS);
        let x = LEFT + bit * CELL;
        writeln!(
            out,
            r##"<line class="refusal-mark" x1="{x}" x2="{x}" y1="{}" y2="{}" stroke="#c62828" stroke-width="3"/>"##,
            TOP + row * ROW_HEIGHT,
            TOP + (row + 1) * ROW_HEIGHT,
        )?;
        writeln!(
            out,
            r##"<text class="refusal" x="10" y="{}" font-size="13" fill="#c62828" font-family="sans-serif">{}</text>"##,
            below + 48,
            text(error)
        )?;
    }
    writeln!(out, "</svg>")
}

/// The picture of `bytes` as `inspection` mapped them, as a string.
#[must_use]
pub fn packet_svg(title: &str, bytes: &[u8], inspection: &Inspection) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail, and the picture is UTF-8 throughout.
    let _ = write_packet_svg(&mut out, title, bytes, inspection);
    String::from_utf8(out).unwrap_or_default()
}
