//! Short forms of bytes: a stable hash that names an input, and hex to
//! print it. A leaf, so that every command names and prints inputs alike.

/// A stable name for an input: FNV-1a, 64 bits.
#[must_use]
pub fn fingerprint(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a(bytes))
}

/// FNV-1a, 64 bits: the hash behind [`fingerprint`], and what a flooded
/// server acknowledges a datagram with.
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Bytes as upper-case hex pairs.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Hex pairs back to bytes, as [`hex`] prints them or run together;
/// `None` for anything else.
#[must_use]
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = text.bytes().filter(|b| *b != b' ').collect();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}
