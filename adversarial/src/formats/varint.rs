//! The two varint encodings of these formats, written here so that a lie
//! can hold a form the format crates never write: a value beyond its type,
//! or the same value in more bytes than it needs.

/// A varint encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Varint {
    /// postcard's: seven bits a byte, low first, the top bit set on every
    /// byte but the last.
    Leb128,
    /// bincode's (1.3 `DefaultOptions`, 2 `standard()`): one byte below
    /// 251; else a marker (251, 252, 253, 254) and the value as a u16,
    /// u32, u64 or u128, little-endian.
    Bincode,
}

/// bincode's markers, each with its width in bytes.
const MARKERS: [(u8, usize); 4] = [(251, 2), (252, 4), (253, 8), (254, 16)];

impl Varint {
    /// `value` in its shortest form.
    #[must_use]
    pub fn encode(self, value: u128) -> Vec<u8> {
        match self {
            Self::Leb128 => {
                let mut out = Vec::new();
                let mut rest = value;
                loop {
                    let low = (rest & 0x7F) as u8;
                    rest >>= 7;
                    if rest == 0 {
                        out.push(low);
                        return out;
                    }
                    out.push(low | 0x80);
                }
            }
            Self::Bincode => {
                if value < 251 {
                    return vec![value as u8];
                }
                let (marker, width) = MARKERS
                    .iter()
                    .copied()
                    .find(|(_, width)| *width == 16 || value >> (8 * width) == 0)
                    .unwrap_or((254, 16));
                let mut out = vec![marker];
                out.extend_from_slice(value.to_le_bytes().get(..width).unwrap_or_default());
                out
            }
        }
    }

    /// `value` in one form longer than its shortest that a type of `bits`
    /// still allows, if the encoding has one: a zero byte more for LEB128
    /// (within the type's most bytes), the next wider marker for bincode
    /// (no wider than the type).
    #[must_use]
    pub fn overlong(self, value: u128, bits: u32) -> Option<Vec<u8>> {
        let most_bytes = usize::try_from(bits.div_ceil(7)).unwrap_or(usize::MAX);
        let type_bytes = usize::try_from(bits / 8).unwrap_or(usize::MAX);
        match self {
            Self::Leb128 => {
                let mut out = self.encode(value);
                if out.len() >= most_bytes {
                    return None;
                }
                if let Some(last) = out.last_mut() {
                    *last |= 0x80;
                }
                out.push(0);
                Some(out)
            }
            Self::Bincode => {
                let shortest = self.encode(value).len();
                let (marker, width) = MARKERS
                    .iter()
                    .copied()
                    .find(|(_, width)| width + 1 > shortest && *width <= type_bytes)?;
                let mut out = vec![marker];
                out.extend_from_slice(value.to_le_bytes().get(..width).unwrap_or_default());
                Some(out)
            }
        }
    }
}

impl Varint {
    /// Zero in one form longer than any a type of `bits` allows: a byte past
    /// the type's most for LEB128 (continuation bits on every byte before),
    /// the next marker wider than the type for bincode. `None` when the
    /// encoding has no wider form.
    #[must_use]
    pub fn too_long(self, bits: u32) -> Option<Vec<u8>> {
        let most_bytes = usize::try_from(bits.div_ceil(7)).unwrap_or(usize::MAX);
        let type_bytes = usize::try_from(bits / 8).unwrap_or(usize::MAX);
        match self {
            Self::Leb128 => {
                let mut out = vec![0x80; most_bytes];
                out.push(0);
                Some(out)
            }
            Self::Bincode => {
                let (marker, width) = MARKERS.iter().copied().find(|(_, w)| *w > type_bytes)?;
                let mut out = vec![marker];
                out.resize(width.saturating_add(1), 0);
                Some(out)
            }
        }
    }
}

/// A signed value as both formats write it: zigzag, so that small
/// magnitudes stay short.
#[must_use]
pub const fn zigzag(value: i128) -> u128 {
    ((value << 1) ^ (value >> 127)) as u128
}
