//! The packet picture (`inspect --svg`), checked as a document: every
//! field drawn once with its name, offset and width, on spans that cover
//! exactly its bits; the refusing field in red with the error beneath.

use adversarial::mutate::{cases, Class};
use adversarial::picture::{packet_svg, ROW_BITS};
use adversarial::target::{Sample, Target};
use adversarial::targets;
use arbitrary::Unstructured;

fn packets() -> Box<dyn Target> {
    targets::all()
        .into_iter()
        .find(|t| t.name() == "packets")
        .unwrap()
}

fn sample(target: &dyn Target) -> Sample {
    let entropy = [7u8; 512];
    target.generate(&mut Unstructured::new(&entropy)).unwrap()
}

/// (name, offset, width, total span width in bits, class) of every field
/// group in the picture.
fn drawn_fields(svg: &str) -> Vec<(String, u64, u64, u64, String)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    doc.descendants()
        .filter(|n| n.tag_name().name() == "g")
        .map(|g| {
            let attr = |name: &str| g.attribute(name).unwrap().to_string();
            let spans: u64 = g
                .children()
                .filter(|c| c.tag_name().name() == "rect")
                .map(|r| r.attribute("width").unwrap().parse::<u64>().unwrap())
                .sum();
            (
                attr("data-name"),
                attr("data-offset").parse().unwrap(),
                attr("data-width").parse().unwrap(),
                spans / 26,
                attr("class"),
            )
        })
        .collect()
}

#[test]
fn every_field_is_drawn_once_over_exactly_its_bits() {
    let target = packets();
    let sample = sample(target.as_ref());
    let inspection = target.inspect(&sample.bytes);
    let svg = packet_svg("packets", &sample.bytes, &inspection);
    let drawn = drawn_fields(&svg);
    assert_eq!(drawn.len(), inspection.map.fields.len());
    for (field, (name, offset, width, spans, class)) in inspection.map.fields.iter().zip(&drawn) {
        assert_eq!(
            (name.as_str(), *offset, *width),
            (field.name, field.offset, field.width)
        );
        assert_eq!(*spans, field.width, "{name} covers its bits");
        assert_eq!(class, "field");
    }
    // Wide fields wrap onto the next row.
    assert!(inspection.map.fields.iter().any(|f| f.width >= ROW_BITS));
    assert!(
        !svg.contains("class=\"refusal\""),
        "accepted: no refusal drawn"
    );
}

#[test]
fn the_refusing_field_is_red_and_the_error_is_written() {
    let target = packets();
    let sample = sample(target.as_ref());
    let entropy = [3u8; 256];
    let case = cases(
        Class::OutOfRangeCount,
        &sample,
        &target.framing(),
        &mut Unstructured::new(&entropy),
    )
    .into_iter()
    .next()
    .expect("a count to lie in");
    let inspection = target.inspect(&case.bytes);
    let svg = packet_svg("packets", &case.bytes, &inspection);
    let refused: Vec<_> = drawn_fields(&svg)
        .into_iter()
        .filter(|f| f.4 == "field refused")
        .collect();
    assert_eq!(refused.len(), 1, "{svg}");
    assert_eq!(refused[0].0, "count");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let red = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("field refused"))
        .and_then(|g| g.children().find(|c| c.tag_name().name() == "rect"))
        .and_then(|r| r.attribute("fill"))
        .unwrap();
    assert_eq!(red, "#ef5350");
    let error = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("refusal"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(error.contains("out-of-range"), "{error}");
}
