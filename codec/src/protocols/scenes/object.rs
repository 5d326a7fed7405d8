//! The scenes' object: a cube's compressed position, smallest-three
//! orientation and, unless at rest, its velocities.

use super::quaternion::{SmallestThree, COMPONENT_BITS};
use crate::stream::ops::compressed_float::CompressedFloat;
use crate::stream::{Serialize, Stream};

/// Position: `[-1000, 1000]` at 0.001, 21 bits per axis.
pub const POSITION: CompressedFloat = CompressedFloat::new(-1000.0, 1000.0, 0.001);
/// Linear velocity: `[-10, 10]` at 0.01, 11 bits per axis.
pub const LINEAR_VELOCITY: CompressedFloat = CompressedFloat::new(-10.0, 10.0, 0.01);
/// Angular velocity: `[-20, 20]` at 0.01, 12 bits per axis.
pub const ANGULAR_VELOCITY: CompressedFloat = CompressedFloat::new(-20.0, 20.0, 0.01);

/// An object as its wire integers: compressed-float codes and the
/// quaternion's codes. The float views are computed from them, so a decoded
/// object re-encodes to the very bits it was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Object {
    /// Position codes over [`POSITION`].
    pub position: [u32; 3],
    /// Orientation.
    pub orientation: SmallestThree,
    /// When set, the velocities are not sent and read as zero.
    pub at_rest: bool,
    /// Linear velocity codes over [`LINEAR_VELOCITY`].
    pub linear_velocity: [u32; 3],
    /// Angular velocity codes over [`ANGULAR_VELOCITY`].
    pub angular_velocity: [u32; 3],
}

impl Default for Object {
    /// [`Object::AT_REST_AT_ORIGIN`].
    fn default() -> Self {
        Self::AT_REST_AT_ORIGIN
    }
}

impl Object {
    /// At the origin, not rotated, at rest: `Object::new` of zeros and the
    /// identity, computed by the compiler, since every object a reader
    /// fills starts from it.
    pub const AT_REST_AT_ORIGIN: Self = Self {
        position: [POSITION.quantize(0.0); 3],
        orientation: SmallestThree::IDENTITY,
        at_rest: true,
        linear_velocity: [LINEAR_VELOCITY.quantize(0.0); 3],
        angular_velocity: [ANGULAR_VELOCITY.quantize(0.0); 3],
    };

    /// The bits of an object at rest, the fewest an object takes: three
    /// position codes, the quaternion, the at-rest flag.
    pub const AT_REST_BITS: u32 = 3 * POSITION.bits() + 2 + 3 * COMPONENT_BITS + 1;

    /// Quantizes a simulated object. It is at rest exactly when both of its
    /// velocities are zero vectors (the sample's rule).
    #[must_use]
    pub fn new(
        position: [f32; 3],
        orientation: [f32; 4],
        linear: [f32; 3],
        angular: [f32; 3],
    ) -> Self {
        Self {
            position: position.map(|v| POSITION.quantize(v)),
            orientation: SmallestThree::from_quaternion(orientation),
            at_rest: linear == [0.0; 3] && angular == [0.0; 3],
            linear_velocity: linear.map(|v| LINEAR_VELOCITY.quantize(v)),
            angular_velocity: angular.map(|v| ANGULAR_VELOCITY.quantize(v)),
        }
    }

    /// The position as floats.
    #[must_use]
    pub fn position(&self) -> [f32; 3] {
        self.position.map(|code| POSITION.dequantize(code))
    }

    /// The linear velocity as floats.
    #[must_use]
    pub fn linear_velocity(&self) -> [f32; 3] {
        self.linear_velocity.map(|c| LINEAR_VELOCITY.dequantize(c))
    }

    /// The angular velocity as floats.
    #[must_use]
    pub fn angular_velocity(&self) -> [f32; 3] {
        self.angular_velocity
            .map(|c| ANGULAR_VELOCITY.dequantize(c))
    }
}

impl Serialize for Object {
    /// Position, orientation, the at-rest flag, then both velocities unless
    /// at rest; a reader sets the velocities of a resting object to zero.
    /// (A scene's slot reads and writes its object on the concrete streams
    /// in `hot.rs`, which the tests hold equal to this.)
    #[inline]
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        stream.field_name("position");
        for code in &mut self.position {
            stream.serialize_compressed_code(code, &POSITION)?;
        }
        stream.field_name("orientation");
        self.orientation.serialize(stream)?;
        if S::SHOWS_VALUES {
            stream.assigned("quaternion", &mut self.orientation.to_quaternion());
        }
        stream.field_name("at_rest");
        stream.serialize_bool(&mut self.at_rest)?;
        self.serialize_velocities(stream)
    }
}

impl Object {
    /// Both velocities unless at rest; at rest, a reader sets them to zero.
    #[inline]
    pub(super) fn serialize_velocities<S: Stream>(
        &mut self,
        stream: &mut S,
    ) -> Result<(), S::Error> {
        let (linear, angular) = (&mut self.linear_velocity, &mut self.angular_velocity);
        if !self.at_rest {
            stream.field_name("linear_velocity");
            Codes(linear, &LINEAR_VELOCITY).serialize(stream)?;
            stream.field_name("angular_velocity");
            Codes(angular, &ANGULAR_VELOCITY).serialize(stream)?;
        } else if S::IS_READING {
            *linear = Self::AT_REST_AT_ORIGIN.linear_velocity;
            *angular = Self::AT_REST_AT_ORIGIN.angular_velocity;
            stream.assigned("linear_velocity", &mut Codes(linear, &LINEAR_VELOCITY));
            stream.assigned("angular_velocity", &mut Codes(angular, &ANGULAR_VELOCITY));
        }
        Ok(())
    }
}

/// Three compressed-float codes over one declaration: a velocity, and how
/// one the reader set itself is shown, like one it read.
struct Codes<'a>(&'a mut [u32; 3], &'a CompressedFloat);

impl Serialize for Codes<'_> {
    #[inline]
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        for code in self.0.iter_mut() {
            stream.serialize_compressed_code(code, self.1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formats are the ones documented: range, resolution, width.
    #[test]
    fn the_formats_span_their_documented_ranges() {
        for (format, min, max, bits) in [
            (POSITION, -1000.0, 1000.0, 21),
            (LINEAR_VELOCITY, -10.0, 10.0, 11),
            (ANGULAR_VELOCITY, -20.0, 20.0, 12),
        ] {
            assert_eq!(format.bits(), bits, "{min}..{max}");
            assert_eq!(format.dequantize(0), min);
            assert_eq!(format.dequantize(format.max_integer_value()), max);
        }
    }

    /// The float views give back what `new` was given, to the resolution.
    #[test]
    fn the_float_views_give_back_the_floats() {
        let position = [999.9, -1000.0, 3.25];
        let linear = [-9.5, 0.5, 10.0];
        let angular = [20.0, -0.25, -17.5];
        let object = Object::new(position, [0.0, 0.0, 0.0, 1.0], linear, angular);
        let near = |a: [f32; 3], b: [f32; 3], res: f32| {
            a.iter()
                .zip(b)
                .all(|(a, b)| (a - b).abs() <= res / 2.0 + 1e-4)
        };
        assert!(
            near(object.position(), position, 0.001),
            "{:?}",
            object.position()
        );
        assert!(near(object.linear_velocity(), linear, 0.01));
        assert!(near(object.angular_velocity(), angular, 0.01));
    }
}
