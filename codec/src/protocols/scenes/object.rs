//! The scenes' object: a cube's compressed position, smallest-three
//! orientation and, unless at rest, its velocities.

use super::quaternion::{SmallestThree, COMPONENT_BITS};
use crate::ops::compressed_float::CompressedFloat;
use crate::stream::{left_behind, Serialize, Stream};

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

/// An object's first eight fields: three position codes, the quaternion's
/// four fields, the at-rest flag.
const HEAD_WIDTHS: [u32; 8] = {
    let [l, a, b, c] = SmallestThree::FIELD_WIDTHS;
    let p = POSITION.bits();
    [p, p, p, l, a, b, c, 1]
};
const HEAD_MAXES: [u32; 8] = {
    let p = POSITION.max_integer_value();
    let [l, a, b, c] = SmallestThree::FIELD_WIDTHS;
    [
        p,
        p,
        p,
        (1 << l) - 1,
        (1 << a) - 1,
        (1 << b) - 1,
        (1 << c) - 1,
        1,
    ]
};

/// A moving object's six velocity codes.
const VELOCITY_WIDTHS: [u32; 6] = {
    let (l, a) = (LINEAR_VELOCITY.bits(), ANGULAR_VELOCITY.bits());
    [l, l, l, a, a, a]
};
const VELOCITY_MAXES: [u32; 6] = {
    let (l, a) = (
        LINEAR_VELOCITY.max_integer_value(),
        ANGULAR_VELOCITY.max_integer_value(),
    );
    [l, l, l, a, a, a]
};

impl Object {
    /// The head (position, quaternion, flag) as one record, where the
    /// stream reads records and every field of it is in range and the
    /// quaternion valid: what reading its fields one by one gives, from
    /// one window instead of three. False, with nothing read, otherwise.
    #[inline(always)]
    fn read_head<S: Stream>(&mut self, stream: &mut S) -> bool {
        let orientation = |f: &[u32; 8]| {
            let [_, _, _, largest, a, b, c, _] = *f;
            SmallestThree::from_fields([largest, a, b, c])
        };
        let head = stream.read_record(HEAD_WIDTHS, HEAD_MAXES, |f| orientation(f).is_valid());
        let Some(fields) = head else {
            return false;
        };
        let [x, y, z, _, _, _, _, at_rest] = fields;
        self.position = [x, y, z];
        self.orientation = orientation(&fields);
        self.at_rest = at_rest != 0;
        true
    }

    /// Both velocities as one record, where the stream reads records and
    /// every code is in range. False, with nothing read, otherwise.
    #[inline(always)]
    fn read_velocities<S: Stream>(&mut self, stream: &mut S) -> bool {
        let Some([a, b, c, d, e, f]) =
            stream.read_record(VELOCITY_WIDTHS, VELOCITY_MAXES, |_| true)
        else {
            return false;
        };
        self.linear_velocity = [a, b, c];
        self.angular_velocity = [d, e, f];
        true
    }

    /// The head as one record, where the stream writes records, every
    /// code is in range, the quaternion valid and the room enough: what
    /// writing its fields one by one writes. False, with nothing written,
    /// otherwise.
    #[inline(always)]
    fn write_head<S: Stream>(&self, stream: &mut S) -> bool {
        let [x, y, z] = self.position;
        let orientation = self.orientation;
        let [a, b, c] = orientation.codes.map(u32::from);
        let fields = [
            x,
            y,
            z,
            u32::from(orientation.largest),
            a,
            b,
            c,
            u32::from(self.at_rest),
        ];
        orientation.is_valid() && stream.write_record(&fields, HEAD_WIDTHS, HEAD_MAXES)
    }

    /// Both velocities as one record unless at rest, where the stream
    /// writes records, every code is in range and the room enough: what
    /// the velocities one by one, or nothing, write. No branch on the
    /// flag ([`Stream::write_record_when`]).
    #[inline(always)]
    fn write_velocities<S: Stream>(&self, stream: &mut S) -> bool {
        let [a, b, c] = self.linear_velocity;
        let [d, e, f] = self.angular_velocity;
        let values = [a, b, c, d, e, f];
        stream.write_record_when(!self.at_rest, &values, VELOCITY_WIDTHS, VELOCITY_MAXES)
    }
}

impl Serialize for Object {
    /// Position, orientation, the at-rest flag, then both velocities unless
    /// at rest; a reader sets the velocities of a resting object to zero.
    /// A [`ReadStream`](crate::ReadStream) reads, and a
    /// [`WriteStream`](crate::WriteStream) writes, the head and the
    /// velocities as two records where it can (the names are then not
    /// announced: streams that show values never take records).
    ///
    /// Always inlined, so a subset's read loop holds the records and keeps
    /// the reader's state in registers: left to the compiler, the object
    /// was a call per item, and a scene decode at 100 % density took twice
    /// as long. The fields one by one, which every other stream takes, are
    /// functions of their own, which the compiler keeps out of the loop.
    /// They are left `#[inline]`: forced out of line, they made the scene
    /// encode up to 18 % slower (100 % density; peers bench, alternating
    /// builds).
    #[inline(always)]
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        let records = !S::SHOWS_VALUES;
        let head = records
            && if S::IS_READING {
                self.read_head(stream)
            } else {
                self.write_head(stream)
            };
        if !head {
            if S::FAST_PATHS_ONLY {
                return Err(left_behind(stream));
            }
            self.head_by_fields(stream)?;
        }
        if S::IS_WRITING && records {
            // The record, or nothing at rest, written without a branch on
            // the flag, which mispredicted every other object. Peers bench,
            // scene E's encode, us an iteration: 1 % 301 -> 271, 10 % 220 ->
            // 189, 50 % 198 -> 173; but 100 % 168 -> 194, where every object
            // then stores twice and nothing else separates the stores, so
            // a subset's runs of items branch there (WriteAhead::branching).
            if self.write_velocities(stream) {
                return Ok(());
            }
            if S::FAST_PATHS_ONLY {
                return Err(left_behind(stream));
            }
            if !self.at_rest {
                self.velocities_by_fields(stream)?;
            }
            return Ok(());
        }
        if !self.at_rest {
            let velocities = records && S::IS_READING && self.read_velocities(stream);
            if !velocities {
                if S::FAST_PATHS_ONLY {
                    return Err(left_behind(stream));
                }
                self.velocities_by_fields(stream)?;
            }
        } else if S::IS_READING {
            self.linear_velocity = Self::AT_REST_AT_ORIGIN.linear_velocity;
            self.angular_velocity = Self::AT_REST_AT_ORIGIN.angular_velocity;
            let (linear, angular) = (&mut self.linear_velocity, &mut self.angular_velocity);
            stream.assigned("linear_velocity", &mut Codes(linear, &LINEAR_VELOCITY));
            stream.assigned("angular_velocity", &mut Codes(angular, &ANGULAR_VELOCITY));
        }
        Ok(())
    }
}

impl Object {
    /// Position, orientation and the at-rest flag, field by field.
    #[inline]
    fn head_by_fields<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        stream.field_name("position");
        stream.serialize_compressed_codes(&mut self.position, &POSITION)?;
        stream.field_name("orientation");
        self.orientation.serialize(stream)?;
        if S::IS_READING && S::SHOWS_VALUES {
            stream.assigned("quaternion", &mut self.orientation.to_quaternion());
        }
        stream.field_name("at_rest");
        stream.serialize_bool(&mut self.at_rest)
    }

    /// Both velocities, field by field.
    #[inline]
    fn velocities_by_fields<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        stream.field_name("linear_velocity");
        stream.serialize_compressed_codes(&mut self.linear_velocity, &LINEAR_VELOCITY)?;
        stream.field_name("angular_velocity");
        stream.serialize_compressed_codes(&mut self.angular_velocity, &ANGULAR_VELOCITY)
    }
}

/// Three compressed-float codes over one declaration: how a velocity the
/// reader set itself is shown, like one it read.
struct Codes<'a>(&'a mut [u32; 3], &'a CompressedFloat);

impl Serialize for Codes<'_> {
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        for code in self.0.iter_mut() {
            stream.serialize_compressed_code(code, self.1)?;
        }
        Ok(())
    }
}
