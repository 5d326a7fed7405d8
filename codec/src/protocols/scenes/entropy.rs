//! Scene E: the object indices entropy-coded, after the *sparse array*
//! article's advice to replace the hand-built ladder with a real code.
//!
//! # Code, version 1
//!
//! The gaps between present indices (from `previous = -1`, the last gap
//! reaching the sentinel 1024) are close to geometric at any density, and
//! Golomb codes are the optimal prefix codes for geometric sources. So:
//!
//! 1. `parameter int[0, 15]`: an index into [`GOLOMB_PARAMETERS`]. The
//!    writer picks the entry that makes the packet's index part shortest
//!    (ties go to the smaller entry); the packet keeps it, so a decoded
//!    packet re-encodes to the same bits.
//! 2. For each object, then for the sentinel: `v = gap - 1` as a Golomb code
//!    with `m = GOLOMB_PARAMETERS[parameter]`: `v / m` one-bits and a
//!    zero-bit, then `v % m` in truncated binary (`b = bits_required(0,
//!    m - 1)`, `u = 2^b - m`; a remainder below `u` takes `b - 1` bits, any
//!    other `r` is sent as `(r + u) >> 1` in `b - 1` bits then `(r + u) & 1`
//!    in one bit; `m = 1` sends no remainder).
//!
//! Every bit pattern decodes to at most one gap sequence, and every gap
//! sequence encodes to exactly one pattern, so a reader that refuses indices
//! above the sentinel accepts only canonical packets. The unary part is
//! bounded: a reader refuses as soon as the gap would pass the sentinel.

use super::{read_slot, Scene, Slot, SENTINEL};
use crate::error::DecodeError;
use crate::ops::int::bits_for_span;
use crate::stream::{Serialize, Stream};

/// The Golomb parameters a packet can choose from: roughly geometric, from
/// `m = 1` (density 50 % and up) to `m = 100` (density near 0.7 %). Fixed
/// by version 1 of the code.
pub const GOLOMB_PARAMETERS: [u32; 16] = [1, 2, 3, 4, 5, 6, 8, 10, 13, 17, 22, 29, 38, 50, 69, 100];

/// The highest parameter index.
const LAST_PARAMETER: i32 = GOLOMB_PARAMETERS.len() as i32 - 1;

/// A scene E packet: the scene and the Golomb parameter its indices use.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SceneE {
    /// An index into [`GOLOMB_PARAMETERS`].
    pub parameter: u8,
    /// What is sent.
    pub scene: Scene,
}

impl SceneE {
    /// Scene E for `scene`, with the parameter that codes its indices in the
    /// fewest bits.
    #[must_use]
    pub fn new(scene: Scene) -> Self {
        let parameter = best_parameter(&scene);
        Self { parameter, scene }
    }

    /// Bits the index part costs with parameter `m`: the parameter field and
    /// every gap, the sentinel's included.
    #[must_use]
    pub fn index_bits(scene: &Scene, parameter: u8) -> u64 {
        let m = GOLOMB_PARAMETERS
            .get(usize::from(parameter))
            .copied()
            .unwrap_or(1);
        let field = u64::from(bits_for_span(LAST_PARAMETER as u32));
        gaps(scene)
            .map(|gap| u64::from(code_bits(gap.saturating_sub(1), m)))
            .fold(field, u64::saturating_add)
    }
}

/// The gaps between consecutive indices from -1, then to the sentinel.
fn gaps(scene: &Scene) -> impl Iterator<Item = u32> + '_ {
    let indices = scene
        .slots
        .iter()
        .map(|s| u32::from(s.index))
        .chain([SENTINEL]);
    indices.scan(0u32, |next, index| {
        // `next` is previous + 1, so the gap is index - previous.
        let gap = index.wrapping_sub(*next).wrapping_add(1);
        *next = index.wrapping_add(1);
        Some(gap)
    })
}

/// Bits of the Golomb code of `v` with parameter `m >= 1`.
fn code_bits(v: u32, m: u32) -> u32 {
    let quotient = v.checked_div(m).unwrap_or(0);
    let remainder = v.checked_rem(m).unwrap_or(0);
    let b = bits_for_span(m.saturating_sub(1));
    let short = (1u32 << b).wrapping_sub(m);
    let remainder_bits = if m == 1 {
        0
    } else if remainder < short {
        b.saturating_sub(1)
    } else {
        b
    };
    quotient.saturating_add(1).saturating_add(remainder_bits)
}

fn best_parameter(scene: &Scene) -> u8 {
    (0..GOLOMB_PARAMETERS.len() as u8)
        .min_by_key(|&p| SceneE::index_bits(scene, p))
        .unwrap_or(0)
}

/// The Golomb code of `v` with parameter `m`. A reader refuses the gap as
/// soon as `previous + gap` would pass the sentinel.
fn serialize_gap<S: Stream>(
    stream: &mut S,
    m: u32,
    previous: i32,
    gap: &mut u32,
) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    let v = gap.saturating_sub(1);
    let mut quotient = v.checked_div(m).unwrap_or(0);
    let mut remainder = v.checked_rem(m).unwrap_or(0);
    // The largest gap that stays at or below the sentinel.
    let room = (SENTINEL as i32).wrapping_sub(previous) as u32;
    let too_far = |stream: &mut S| stream.refuse(DecodeError::OutOfRange { at });

    // Unary quotient: ones, then a zero.
    let mut count = 0u32;
    loop {
        let mut one = count < quotient;
        stream.serialize_bool(&mut one)?;
        if !one {
            break;
        }
        count = count.saturating_add(1);
        if S::IS_READING && count.saturating_mul(m) >= room {
            return Err(too_far(stream));
        }
    }
    quotient = count;

    if m > 1 {
        let b = bits_for_span(m.wrapping_sub(1));
        let short = (1u32 << b).wrapping_sub(m);
        let mut high = if remainder < short {
            remainder
        } else {
            remainder.wrapping_add(short) >> 1
        };
        stream.serialize_bits(&mut high, b.wrapping_sub(1))?;
        if high >= short {
            let mut low = remainder.wrapping_add(short) & 1;
            stream.serialize_bits(&mut low, 1)?;
            remainder = ((high << 1) | low).wrapping_sub(short);
        } else {
            remainder = high;
        }
    }

    let read = quotient
        .saturating_mul(m)
        .saturating_add(remainder)
        .saturating_add(1);
    if S::IS_READING {
        if read > room {
            return Err(too_far(stream));
        }
        *gap = read;
    }
    Ok(())
}

impl Serialize for SceneE {
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        let mut parameter = i32::from(self.parameter);
        stream.serialize_int(&mut parameter, 0, LAST_PARAMETER)?;
        let m = GOLOMB_PARAMETERS
            .get(parameter as usize)
            .copied()
            .unwrap_or(1);

        if S::IS_WRITING {
            if let Some(why) = self.scene.broken_rule(stream.bit_offset()) {
                return Err(stream.refuse(why));
            }
            let mut previous = -1;
            for slot in self.scene.slots.iter_mut() {
                let index = i32::from(slot.index);
                let mut gap = index.wrapping_sub(previous) as u32;
                serialize_gap(stream, m, previous, &mut gap)?;
                slot.object.serialize(stream)?;
                previous = index;
            }
            let mut gap = (SENTINEL as i32).wrapping_sub(previous) as u32;
            return serialize_gap(stream, m, previous, &mut gap);
        }

        let mut read: Vec<Slot> = Vec::new();
        let mut previous: i32 = -1;
        loop {
            let mut gap = 0;
            serialize_gap(stream, m, previous, &mut gap)?;
            // gap <= SENTINEL - previous, checked by serialize_gap.
            let index = previous.wrapping_add(gap as i32);
            if index == SENTINEL as i32 {
                break;
            }
            read_slot(stream, &mut read, index as u32)?;
            previous = index;
        }
        self.parameter = parameter as u8;
        self.scene.slots = read;
        Ok(())
    }
}
