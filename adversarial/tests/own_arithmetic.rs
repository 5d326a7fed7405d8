//! The oracle owns its arithmetic: the verdicts a conversation owes (which
//! sequence is newer, what a window holds, which acks are owed) are
//! computed by the harness's own rules (`src/window.rs`), never by
//! calling link's sequence or window code, so that a slip there is not
//! also a slip in what the harness expects. The planted faults in that
//! code (`ModuloSlots`, `HalfRangeStale`, `NoWrap`, `WrapKeepsWindow`) are
//! caught (`tests/endpoint_teeth.rs`); this test holds the line in the
//! source, for every module that judges or states what is owed.

use std::path::Path;

/// The modules that judge conversations or build what they are owed.
const ORACLE: [&str; 5] = [
    "src/window.rs",
    "src/configs.rs",
    "src/scenario/mod.rs",
    "src/scenario/classes.rs",
    "src/conversation.rs",
];

/// Link's sequence and window code, by the names that reach it.
const LINK_ARITHMETIC: [&str; 7] = [
    "link::sequence",
    "sequence::newer",
    "SequenceBuffer",
    "is_stale(",
    "ack_bits()",
    "crosses_wrap",
    "next_sequence()",
];

#[test]
fn no_oracle_module_calls_links_sequence_or_window_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for module in ORACLE {
        let text = std::fs::read_to_string(root.join(module)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for name in LINK_ARITHMETIC {
                if code.contains(name) {
                    found.push(format!("{module}:{}: {name}", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the oracle calls link's arithmetic: {found:?}"
    );
}

#[test]
fn the_scan_sees_a_call_where_there_is_one() {
    // The names are the ones link exports: a rename there would leave this
    // test scanning for nothing.
    let link_src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../link/src");
    let sequence = std::fs::read_to_string(link_src.join("sequence.rs")).unwrap();
    assert!(sequence.contains("pub const fn newer("));
    assert!(sequence.contains("pub struct SequenceBuffer"));
    assert!(sequence.contains("pub fn is_stale("));
    assert!(sequence.contains("pub fn ack_bits("));
    let endpoint = std::fs::read_to_string(link_src.join("endpoint.rs")).unwrap();
    assert!(endpoint.contains("pub const fn next_sequence("));
}
