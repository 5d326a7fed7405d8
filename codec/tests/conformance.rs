//! Runs every record of every file in `tests/conformance/` (the reference
//! library's public vectors for serialize format 1.1; see `SOURCE.md` and
//! `FORMAT.md` there) and prints a pass count per file.
//!
//! A record whose operation, parameter or declaration this runner cannot
//! build is a failure, never a skip.

use codec::program::Field;
use codec::{CompressedFloat, Fixed, MeasureStream, ReadStream, Serialize, Stream, WriteStream};
use std::collections::BTreeMap;
use std::path::Path;

/// Bytes placed after each vector, as the upstream runner does: the reader
/// is told the real length and must not look at them.
const SLACK: [u8; 8] = [0xA5; 8];

#[derive(Debug, Default)]
struct Record {
    operation: String,
    name: String,
    params: Vec<(String, String)>,
    bytes: Vec<u8>,
    expect: String,
    consumed: Option<u64>,
    measure_at_least: Option<u64>,
    writer_canonical: bool,
}

fn parse_records(text: &str) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    let mut current: Option<Record> = None;
    for line in text.lines() {
        if line.starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            records.extend(current.take());
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let record = current.get_or_insert_with(Record::default);
        match key {
            "operation" => record.operation = rest.to_string(),
            "name" => record.name = rest.to_string(),
            "param" => {
                let (name, value) = rest
                    .split_once(" = ")
                    .ok_or_else(|| format!("bad param line {line:?}"))?;
                record.params.push((name.to_string(), value.to_string()));
            }
            "bytes" => {
                record.bytes = rest
                    .split_whitespace()
                    .map(|b| u8::from_str_radix(b, 16).map_err(|e| format!("{b}: {e}")))
                    .collect::<Result<_, _>>()?;
            }
            "expect" => record.expect = rest.to_string(),
            "consumed" => record.consumed = Some(rest.parse().map_err(|e| format!("{e}"))?),
            "measure_at_least" => {
                record.measure_at_least = Some(rest.parse().map_err(|e| format!("{e}"))?)
            }
            "writer" if rest == "canonical" => record.writer_canonical = true,
            other => return Err(format!("unknown key {other:?}")),
        }
    }
    records.extend(current);
    Ok(records)
}

/// A signed or unsigned number of up to 128 bits, decimal or `0x` hex.
fn number(text: &str) -> Result<i128, String> {
    wide_number(text).and_then(|(negative, magnitude)| {
        match (negative, i128::try_from(magnitude)) {
            (false, Ok(value)) => Ok(value),
            (true, Ok(value)) => Ok(-value),
            (true, Err(_)) if magnitude == i128::MIN.unsigned_abs() => Ok(i128::MIN),
            _ => Err(format!("{text} overflows i128")),
        }
    })
}

fn wide_number(text: &str) -> Result<(bool, u128), String> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = match digits.strip_prefix("0x") {
        Some(hex) => u128::from_str_radix(hex, 16),
        None => digits.parse(),
    }
    .map_err(|e| format!("{text}: {e}"))?;
    Ok((negative, magnitude))
}

fn narrow<T: TryFrom<i128>>(text: &str) -> Result<T, String> {
    T::try_from(number(text)?).map_err(|_| format!("{text} out of range"))
}

/// Builds one field from an operation name and its arguments (in the
/// order of the sequence step spellings).
fn field(op: &str, args: &[&str]) -> Result<Field, String> {
    let arg = |i: usize| {
        args.get(i)
            .copied()
            .ok_or(format!("{op}: missing argument {i}"))
    };
    let float =
        |i: usize| -> Result<f32, String> { arg(i)?.parse::<f32>().map_err(|e| format!("{e}")) };
    let built = match op {
        "bits" => Field::Bits {
            bits: narrow(arg(0)?)?,
            value: 0,
        },
        "bool" => Field::Bool(false),
        "align" => Field::Align,
        "float" => Field::Float { bits: 0 },
        "double" => Field::Double { bits: 0 },
        "uint128" => Field::Uint128(0),
        "bytes" => Field::Bytes(vec![0; narrow::<usize>(arg(0)?)?]),
        "string" => Field::String {
            buffer_size: narrow(arg(0)?)?,
            value: String::new(),
        },
        "wstring" => Field::WString {
            buffer_size: narrow(arg(0)?)?,
            units: Vec::new(),
        },
        "int" => Field::Int {
            min: narrow(arg(0)?)?,
            max: narrow(arg(1)?)?,
            value: 0,
        },
        "int64" => Field::Int64 {
            min: narrow(arg(0)?)?,
            max: narrow(arg(1)?)?,
            value: 0,
        },
        "int128" => Field::Int128 {
            min: number(arg(0)?)?,
            max: number(arg(1)?)?,
            value: 0,
        },
        "int_relative" => Field::IntRelative {
            previous: narrow(arg(0)?)?,
            value: 0,
        },
        "compressed_float" => Field::CompressedFloat {
            format: CompressedFloat::new(float(0)?, float(1)?, float(2)?),
            bits: 0,
        },
        "fixed" => Field::Fixed {
            format: Fixed::new(
                narrow(arg(0)?)?,
                narrow(arg(1)?)?,
                number(arg(2)?)?,
                number(arg(3)?)?,
            )
            .ok_or(format!("fixed declaration {args:?} cannot be built"))?,
            raw: 0,
        },
        other => return Err(format!("unknown operation {other:?}")),
    }
    .blank();
    // The program names each operation as the vectors spell it: reports and
    // field maps show that name.
    if built.operation() != op {
        return Err(format!("{op} is named {:?}", built.operation()));
    }
    Ok(built)
}

/// Parses sequence steps; `object n` swallows the next `n` steps.
fn steps<'a>(
    spellings: &mut impl Iterator<Item = &'a str>,
    count: Option<usize>,
) -> Result<Vec<Field>, String> {
    let mut fields = Vec::new();
    while count.is_none_or(|n| fields.len() < n) {
        let Some(spelling) = spellings.next() else {
            return match count {
                None => Ok(fields),
                Some(_) => Err("object runs past the last step".into()),
            };
        };
        let mut words = spelling.split_whitespace();
        let op = words.next().ok_or("empty step")?;
        let args: Vec<&str> = words.collect();
        if op == "object" {
            let n = narrow::<usize>(args.first().ok_or("object without count")?)?;
            fields.push(Field::Object(steps(spellings, Some(n))?));
        } else {
            fields.push(field(op, &args)?);
        }
    }
    Ok(fields)
}

fn param<'r>(record: &'r Record, name: &str) -> Result<&'r str, String> {
    record
        .params
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
        .ok_or(format!("missing param {name}"))
}

/// The fields a record reads, and how many leading ones are only there to
/// place the stream (`preceding_bits`) and carry no expected value.
fn fields(record: &Record) -> Result<(Vec<Field>, usize), String> {
    let mut fields = Vec::new();
    let mut placing = 0;
    if let Ok(pre) = param(record, "preceding_bits") {
        let bits: u32 = narrow(pre)?;
        if bits > 0 {
            fields.push(Field::Bits { bits, value: 0 });
            placing = 1;
        }
    }
    let p = |name: &str| param(record, name);
    let op = record.operation.as_str();
    match op {
        "sequence" => {
            let spellings: Vec<&str> = record
                .params
                .iter()
                .filter(|(key, _)| key == "step")
                .map(|(_, value)| value.as_str())
                .collect();
            fields.extend(steps(&mut spellings.into_iter(), None)?);
        }
        "bits" => fields.push(field(op, &[p("bits")?])?),
        "bytes" => fields.push(field(op, &[p("count")?])?),
        "string" | "wstring" => fields.push(field(op, &[p("buffer_size")?])?),
        "int" | "int64" | "int128" => fields.push(field(op, &[p("min")?, p("max")?])?),
        "int_relative" => fields.push(field(op, &[p("previous")?])?),
        "compressed_float" => fields.push(field(op, &[p("min")?, p("max")?, p("res")?])?),
        "fixed" => fields.push(field(
            op,
            &[
                p("integer_bits")?,
                p("fraction_bits")?,
                p("min")?,
                p("max")?,
            ],
        )?),
        _ => fields.push(field(op, &[])?),
    }
    Ok((fields, placing))
}

/// Each field in reading order, objects before their contents.
fn flatten(fields: &[Field]) -> Vec<&Field> {
    let mut out = Vec::new();
    for field in fields {
        out.push(field);
        if let Field::Object(inner) = field {
            out.extend(flatten(inner));
        }
    }
    out
}

fn hex_bytes(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `field`'s value is the vector's spelling `expected`.
fn matches(field: &Field, expected: &str, in_sequence: bool) -> Result<bool, String> {
    let expected = expected.trim();
    let int = |value: i128| number(expected).map(|e| e == value);
    Ok(match field {
        Field::Bits { value, .. } => int(i128::from(*value))?,
        Field::Int { value, .. } => int(i128::from(*value))?,
        Field::Int64 { value, .. } => int(i128::from(*value))?,
        Field::IntRelative { value, .. } | Field::IntRelativeCanonical { value, .. } => {
            int(i128::from(*value))?
        }
        Field::Int128 { value, .. } => int(*value)?,
        Field::Fixed { raw, .. } => int(*raw)?,
        Field::Uint128(value) => wide_number(expected)? == (false, *value),
        Field::Bool(value) => expected == value.to_string(),
        Field::Float { bits } | Field::CompressedFloat { bits, .. } => {
            let spelled = expected.strip_prefix("bits = ").unwrap_or(expected);
            number(spelled)? == i128::from(*bits)
        }
        Field::CompressedCode { format, code } => {
            let spelled = expected.strip_prefix("bits = ").unwrap_or(expected);
            number(spelled)? == i128::from(format.dequantize(*code).to_bits())
        }
        Field::Double { bits } => {
            let spelled = expected.strip_prefix("bits = ").unwrap_or(expected);
            number(spelled)? == i128::from(*bits)
        }
        Field::Unary { .. } | Field::Golomb { .. } => {
            return Err(
                "unary and Golomb codes are this crate's operations; no vector names one".into(),
            )
        }
        Field::Align => expected == if in_sequence { "-" } else { "0" },
        Field::Object(_) | Field::Check(_) => expected == "-",
        Field::Bytes(bytes) => expected == hex_bytes(bytes),
        Field::String { value, .. } => expected == hex_bytes(value.as_bytes()),
        Field::WString { units, .. } => {
            let spelled: Vec<String> = units.iter().map(|u| format!("{u:04X}")).collect();
            expected == spelled.join(" ")
        }
    })
}

/// A value a refused read must leave in place: different from what the
/// stream would most plausibly write.
fn sentinel(field: &Field) -> Field {
    match field.clone() {
        Field::Bits { bits, .. } => Field::Bits {
            bits,
            value: 0x5A5A_5A5A_5A5A_5A5A >> (64 - bits.clamp(1, 64)),
        },
        Field::Bool(_) => Field::Bool(true),
        Field::Int { min, max, .. } => Field::Int {
            min,
            max,
            value: max,
        },
        Field::Int64 { min, max, .. } => Field::Int64 {
            min,
            max,
            value: max,
        },
        Field::Int128 { min, max, .. } => Field::Int128 {
            min,
            max,
            value: max,
        },
        Field::Uint128(_) => Field::Uint128(0x5A5A_5A5A_5A5A_5A5A_5A5A_5A5A_5A5A_5A5A),
        Field::Fixed { format, .. } => Field::Fixed {
            format,
            raw: format.raw_max(),
        },
        Field::Float { .. } => Field::Float { bits: 0x7FC1_2345 },
        Field::Double { .. } => Field::Double {
            bits: 0x7FF8_0000_1234_5678,
        },
        Field::CompressedFloat { format, .. } => Field::CompressedFloat {
            format,
            bits: 0x7FC1_2345,
        },
        Field::IntRelative { previous, .. } => Field::IntRelative {
            previous,
            value: 12345,
        },
        other => other,
    }
}

/// Whether a refused read is allowed to have changed `field` (buffers).
fn is_buffer(field: &Field) -> bool {
    matches!(
        field,
        Field::Bytes(_) | Field::String { .. } | Field::WString { .. }
    )
}

fn run(record: &Record) -> Result<(), String> {
    let (mut fields, placing) = fields(record)?;
    let mut input = record.bytes.clone();
    input.extend_from_slice(&SLACK);
    let input = input.get(..record.bytes.len()).ok_or("slice")?;
    let mut stream = ReadStream::new(input);

    if record.expect == "refused" {
        let mut refused_at = None;
        for (index, field) in fields.iter_mut().enumerate() {
            let before = sentinel(field);
            *field = before.clone();
            if field.serialize(&mut stream).is_err() {
                if !is_buffer(&before) && *field != before {
                    return Err(format!("refused read changed its destination: {field:?}"));
                }
                refused_at = Some(index);
                break;
            }
        }
        let Some(index) = refused_at else {
            return Err(format!("accepted a refused record: {fields:?}"));
        };
        // The stream stays failed: the same read again, and every later one.
        for field in fields.iter().skip(index) {
            let before = sentinel(field);
            let mut again = before.clone();
            let offset = stream.bit_offset();
            if again.serialize(&mut stream).is_ok() {
                return Err(format!("read after a refusal succeeded: {again:?}"));
            }
            if stream.bit_offset() != offset {
                return Err("read after a refusal consumed bits".into());
            }
            if !is_buffer(&before) && again != before {
                return Err("read after a refusal changed its destination".into());
            }
        }
        return Ok(());
    }

    for field in &mut fields {
        field
            .serialize(&mut stream)
            .map_err(|e| format!("refused an accepted record: {e}"))?;
    }
    let consumed = record.consumed.ok_or("accepted record without consumed")?;
    if stream.bit_offset() != consumed {
        return Err(format!(
            "consumed {} bits, expected {consumed}",
            stream.bit_offset()
        ));
    }

    let expected = record
        .expect
        .strip_prefix("value = ")
        .or_else(|| record.expect.strip_prefix("value ="))
        .map(str::to_string)
        .unwrap_or_else(|| record.expect.clone());
    let sequence = record.operation == "sequence";
    let checked = &flatten(&fields)[placing..];
    let entries: Vec<&str> = if sequence {
        expected.split(" | ").collect()
    } else {
        vec![expected.as_str()]
    };
    if entries.len() != checked.len() {
        return Err(format!(
            "{} values expected, {} fields read",
            entries.len(),
            checked.len()
        ));
    }
    for (field, entry) in checked.iter().zip(&entries) {
        if !matches(field, entry, sequence)? {
            return Err(format!("read {field:?}, expected {entry:?}"));
        }
    }

    let mut measure = MeasureStream::new();
    for field in &mut fields {
        field
            .serialize(&mut measure)
            .map_err(|e| format!("measure failed: {e}"))?;
    }
    // A reader-only record may use a longer encoding than the writer's, so
    // only canonical records bound the measure by what was consumed.
    let floor = record
        .measure_at_least
        .or(record.writer_canonical.then_some(consumed))
        .unwrap_or(0);
    if measure.bits() < floor {
        return Err(format!("measure {} below the floor", measure.bits()));
    }

    if record.writer_canonical {
        let mut buf = vec![0u8; record.bytes.len() + 16];
        let mut writer = WriteStream::new(&mut buf);
        for field in &mut fields {
            field
                .serialize(&mut writer)
                .map_err(|e| format!("writer refused: {e}"))?;
        }
        let len = writer.finish();
        if buf.get(..len) != Some(record.bytes.as_slice()) {
            return Err(format!(
                "writer produced {}",
                hex_bytes(buf.get(..len).unwrap_or(&[]))
            ));
        }
    }
    Ok(())
}

#[test]
fn every_conformance_record_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("conformance directory")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no vector files in {}", dir.display());

    let mut failures = Vec::new();
    let mut totals: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut names = std::collections::HashSet::new();
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).expect("read vectors");
        let records = parse_records(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!records.is_empty(), "{file} holds no record");
        for record in &records {
            assert!(
                names.insert(record.name.clone()),
                "duplicate name {}",
                record.name
            );
            let entry = totals.entry(file.clone()).or_default();
            entry.1 += 1;
            match run(record) {
                Ok(()) => entry.0 += 1,
                Err(why) => failures.push(format!("{file} {}: {why}", record.name)),
            }
        }
    }
    let mut passed_all = 0;
    let mut total_all = 0;
    for (file, (passed, total)) in &totals {
        println!("{file:24} {passed:3}/{total:3} passed");
        passed_all += passed;
        total_all += total;
    }
    println!("{:24} {passed_all:3}/{total_all:3} passed", "all files");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(total_all, 350, "the vectors hold 350 records (SOURCE.md)");
}
