//! The smallest-three quaternion of *Snapshot Compression*: the index of the
//! largest component in 2 bits, then the other three in 10 bits each.

use crate::error::DecodeError;
use crate::stream::{Serialize, Stream};

/// Bits per transmitted component.
pub const COMPONENT_BITS: u32 = 10;

/// The largest transmitted code, `2^10 - 1`.
const SCALE: f32 = 1023.0;

/// The sample code's approximation of the square root of two. The wire
/// format depends on this exact constant, not on `SQRT_2`.
#[allow(clippy::approx_constant)]
const SAMPLE_SQRT_2: f32 = 1.414_214;

/// The smallest a transmitted component can be: `-1 / 1.414214`.
const MINIMUM: f32 = -1.0 / SAMPLE_SQRT_2;

/// The largest a transmitted component can be.
const MAXIMUM: f32 = 1.0 / SAMPLE_SQRT_2;

/// The component a 10-bit code stands for, as [`SmallestThree::components`]
/// computes it.
const fn component(code: u16) -> f32 {
    code as f32 / SCALE * (MAXIMUM - MINIMUM) + MINIMUM
}

/// Codes a component can take.
const CODES: usize = 1 << COMPONENT_BITS;

/// The square of every code's component, computed once by the compiler with
/// the same `f32` operations the runtime would do (IEEE-754, no fused
/// multiply-add), so [`SmallestThree::is_valid`] gives the same verdict.
// Evaluated by the compiler: an index out of bounds would fail the build.
#[allow(clippy::indexing_slicing)]
pub(crate) const SQUARES: [f32; CODES] = {
    let mut squares = [0.0; CODES];
    let mut code = 0;
    while code < CODES {
        let c = component(code as u16);
        squares[code] = c * c;
        code = code.wrapping_add(1);
    }
    squares
};

/// A quaternion as its wire integers. The float view is computed from them,
/// so re-encoding a decoded quaternion always writes the same bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SmallestThree {
    /// Which component was dropped: x = 0, y = 1, z = 2, w = 3.
    pub largest: u8,
    /// The other three components in x, y, z, w order, each a 10-bit code.
    pub codes: [u16; 3],
}

impl SmallestThree {
    /// The identity rotation, `(0, 0, 0, 1)`: `w` dropped, and each other
    /// component, 0, at the middle code `floor(0.5 * 1023 + 0.5)`. A
    /// constant, since every object a reader starts from holds it.
    pub const IDENTITY: Self = Self {
        largest: 3,
        codes: [512; 3],
    };

    /// The identity rotation, `(0, 0, 0, 1)`.
    #[must_use]
    pub const fn identity() -> Self {
        Self::IDENTITY
    }

    /// Quantizes `[x, y, z, w]`: normalized first, the largest component
    /// dropped (ties keep the earlier one), the others negated when it is
    /// negative, then each mapped from `[MINIMUM, MAXIMUM]` to
    /// `floor(normal * 1023 + 0.5)`, in `f32` arithmetic.
    #[must_use]
    pub fn from_quaternion(q: [f32; 4]) -> Self {
        let norm = q.iter().map(|c| c * c).sum::<f32>().sqrt();
        let q = if norm > 0.0 && norm.is_finite() {
            q.map(|c| c / norm)
        } else {
            [0.0, 0.0, 0.0, 1.0]
        };
        let mut largest = 0;
        for (index, component) in q.iter().enumerate() {
            if component.abs() > q.get(largest).map_or(0.0, |c: &f32| c.abs()) {
                largest = index;
            }
        }
        let negative = q.get(largest).is_some_and(|c| *c < 0.0);
        let mut codes = [0u16; 3];
        for (code, component) in codes
            .iter_mut()
            .zip(q.iter().enumerate().filter(|(i, _)| *i != largest))
        {
            let component = if negative { -component.1 } else { *component.1 };
            let normal = (component - MINIMUM) / (MAXIMUM - MINIMUM);
            // Saturating conversion, then capped: out-of-range inputs clamp.
            *code = ((normal * SCALE + 0.5).floor() as u16).min(SCALE as u16);
        }
        Self {
            largest: largest as u8,
            codes,
        }
    }

    /// The three transmitted components as floats.
    #[must_use]
    pub fn components(&self) -> [f32; 3] {
        self.codes.map(component)
    }

    /// Whether the three components can belong to a unit quaternion: their
    /// squares, summed in `f32` in order, are at most 1. The squares come
    /// from `SQUARES`: the same `f32` operations, done by the compiler
    /// (every reader checks every quaternion, and the three divisions were a
    /// third of a scene's decode). A code past 10 bits is never valid: each
    /// code's low 10 bits look its square up, and the high bits of all
    /// three are checked together, so that a writer, whose codes the
    /// compiler cannot bound, takes no branch per code.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        let square = |code: u16| {
            SQUARES
                .get(usize::from(code) % CODES)
                .copied()
                .unwrap_or(f32::INFINITY)
        };
        let [a, b, c] = self.codes;
        let in_range = (a | b | c) >> COMPONENT_BITS == 0;
        in_range & (square(a) + square(b) + square(c) <= 1.0)
    }

    /// The rotation as `[x, y, z, w]`: the dropped component rebuilt as
    /// `sqrt(1 - a^2 - b^2 - c^2)`, then normalized.
    #[must_use]
    pub fn to_quaternion(&self) -> [f32; 4] {
        let small = self.components();
        let rebuilt = (1.0 - small.iter().map(|c| c * c).sum::<f32>())
            .max(0.0)
            .sqrt();
        let mut q = [0.0f32; 4];
        let mut rest = small.iter();
        for (index, slot) in q.iter_mut().enumerate() {
            *slot = if index == usize::from(self.largest) {
                rebuilt
            } else {
                rest.next().copied().unwrap_or(0.0)
            };
        }
        // Never zero: no code stands for a component of 0 (a test holds it).
        let norm = q.iter().map(|c| c * c).sum::<f32>().sqrt();
        q.map(|c| c / norm)
    }
}

impl SmallestThree {
    /// The wire fields: the largest index, then the three codes.
    pub(super) const FIELD_WIDTHS: [u32; 4] = [2, COMPONENT_BITS, COMPONENT_BITS, COMPONENT_BITS];

    /// The quaternion of wire fields of [`SmallestThree::FIELD_WIDTHS`]
    /// bits (wider values are cut to their low bits).
    #[inline(always)]
    pub(super) const fn from_fields([largest, a, b, c]: [u32; 4]) -> Self {
        const CODE: u32 = (1 << COMPONENT_BITS) - 1;
        Self {
            largest: (largest & 3) as u8,
            codes: [(a & CODE) as u16, (b & CODE) as u16, (c & CODE) as u16],
        }
    }
}

impl Serialize for SmallestThree {
    /// The largest index in 2 bits, then three 10-bit codes. Both sides
    /// refuse a triple that no unit quaternion has
    /// ([`DecodeError::InvalidQuaternion`], at the quaternion's first bit).
    #[inline]
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        let at = stream.bit_offset();
        let mut wire = *self;
        if S::IS_WRITING && (wire.largest > 3 || !wire.is_valid()) {
            return Err(stream.refuse(DecodeError::InvalidQuaternion { at }));
        }
        stream.field_role(crate::role::Role::Quaternion);
        let [a, b, c] = wire.codes.map(u32::from);
        let mut fields = [u32::from(wire.largest), a, b, c];
        for (field, width) in fields.iter_mut().zip(Self::FIELD_WIDTHS) {
            stream.serialize_bits(field, width)?;
        }
        wire = Self::from_fields(fields);
        if S::IS_READING {
            if !wire.is_valid() {
                return Err(stream.refuse(DecodeError::InvalidQuaternion { at }));
            }
            *self = wire;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check as first written: components computed at run time.
    fn valid_by_components(q: &SmallestThree) -> bool {
        q.components().iter().map(|c| c * c).sum::<f32>() <= 1.0
    }

    #[test]
    fn squares_table_matches_run_time_arithmetic() {
        for code in 0..CODES as u16 {
            let c = std::hint::black_box(f32::from(code)) / SCALE * (MAXIMUM - MINIMUM) + MINIMUM;
            assert_eq!(
                SQUARES[usize::from(code)].to_bits(),
                (c * c).to_bits(),
                "code {code}"
            );
        }
    }

    /// A code past 10 bits is refused in any place, even where its low 10
    /// bits, which the check looks up, would be valid.
    #[test]
    fn codes_past_ten_bits_are_never_valid() {
        let valid = SmallestThree::IDENTITY;
        assert!(valid.is_valid());
        for place in 0..3 {
            for high in [1024u16, 1024 + 512, 2048 + 512, u16::MAX] {
                let mut q = valid;
                q.codes[place] = high;
                assert!(!q.is_valid(), "{:?}", q.codes);
            }
        }
        // Two equal codes past 10 bits, whose low bits are valid.
        for pair in [[1, 2], [0, 2], [0, 1]] {
            let mut q = valid;
            for place in pair {
                q.codes[place] = 1024 + 512;
            }
            assert!(!q.is_valid(), "{:?}", q.codes);
        }
    }

    /// No code stands for a component of 0, so a rebuilt quaternion never
    /// has a norm of 0; it is normalized, also where its three codes are
    /// too large for a unit quaternion.
    #[test]
    fn a_rebuilt_quaternion_has_unit_norm() {
        assert!(SQUARES.iter().all(|&s| s > 0.0));
        for codes in [[0, 0, 0], [1023, 0, 512], [512, 512, 512], [300, 700, 100]] {
            for largest in 0..4 {
                let q = SmallestThree { largest, codes }.to_quaternion();
                let norm: f32 = q.iter().map(|c| c * c).sum::<f32>().sqrt();
                assert!((norm - 1.0).abs() < 1e-6, "{codes:?}: {q:?}");
            }
        }
    }

    /// The writer refuses what the reader would: a largest index past 3,
    /// which 2 bits would silently cut, even with valid codes.
    #[test]
    fn the_writer_refuses_a_largest_index_past_3() {
        let mut buf = [0u8; 8];
        for largest in [4, 7, 255] {
            let mut q = SmallestThree {
                largest,
                ..SmallestThree::IDENTITY
            };
            let mut stream = crate::stream::WriteStream::new(&mut buf);
            assert_eq!(
                q.serialize(&mut stream),
                Err(crate::EncodeError::Invalid(
                    DecodeError::InvalidQuaternion { at: 0 }
                ))
            );
        }
    }

    /// A quaternion with no direction (zero, or a norm that is not finite)
    /// quantizes to the identity; ties between the largest components keep
    /// the earliest.
    #[test]
    fn quantizing_a_degenerate_quaternion_gives_the_identity() {
        for q in [
            [0.0; 4],
            [f32::NAN, 0.0, 0.0, 1.0],
            [1e30, 1e30, 0.0, 0.0],
            [f32::INFINITY, 0.0, 0.0, 0.0],
        ] {
            assert_eq!(
                SmallestThree::from_quaternion(q),
                SmallestThree::IDENTITY,
                "{q:?}"
            );
        }
        for (q, largest) in [
            ([0.5, 0.5, 0.5, 0.5], 0),
            ([0.1, -0.7, 0.7, 0.1], 1),
            ([0.0, 0.0, -0.6, 0.6], 2),
        ] {
            assert_eq!(SmallestThree::from_quaternion(q).largest, largest, "{q:?}");
        }
    }

    #[test]
    fn table_check_agrees_with_components_near_the_unit_sphere() {
        // A grid over all triples; it must reach the unit sphere, where the
        // two could disagree, a thousand times and more.
        let mut near = 0;
        for a in (0..CODES as u16).step_by(3) {
            for b in (0..CODES as u16).step_by(5) {
                for c in (0..CODES as u16).step_by(11) {
                    let q = SmallestThree {
                        largest: 0,
                        codes: [a, b, c],
                    };
                    let sum: f32 = q.components().iter().map(|x| x * x).sum();
                    if (sum - 1.0).abs() < 1e-3 {
                        near += 1;
                    }
                    assert_eq!(q.is_valid(), valid_by_components(&q), "{:?}", q.codes);
                }
            }
        }
        assert!(
            near > 1000,
            "the sweep must reach the boundary ({near} triples)"
        );
    }
}
