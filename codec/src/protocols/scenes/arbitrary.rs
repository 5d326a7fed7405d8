//! Valid scenes from `arbitrary` bytes (feature `arbitrary`): objects with
//! any legal codes, resting or moving, at every density.

use super::{GolombScene, Object, Scene, SceneE, ScenePacket, Slot, Strategy, MAX_OBJECTS};
use super::{ANGULAR_VELOCITY, LINEAR_VELOCITY, POSITION};
use crate::arbitrary::{self, Arbitrary, ArbitraryIndexed, Result, Unstructured};
use crate::stream::ops::compressed_float::CompressedFloat;

fn codes(u: &mut Unstructured<'_>, format: &CompressedFloat) -> Result<[u32; 3]> {
    arbitrary::array(u, |u| arbitrary::ranged(u, 0, format.max_integer_value()))
}

impl<'a> Arbitrary<'a> for Object {
    /// Any legal codes; a resting object has the zero velocities a reader
    /// gives it.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let position = codes(u, &POSITION)?;
        let orientation = arbitrary::quaternion(u)?;
        let at_rest: bool = u.arbitrary()?;
        let (linear_velocity, angular_velocity) = if at_rest {
            (
                Object::AT_REST_AT_ORIGIN.linear_velocity,
                Object::AT_REST_AT_ORIGIN.angular_velocity,
            )
        } else {
            (codes(u, &LINEAR_VELOCITY)?, codes(u, &ANGULAR_VELOCITY)?)
        };
        Ok(Self {
            position,
            orientation,
            at_rest,
            linear_velocity,
            angular_velocity,
        })
    }
}

impl<'a> ArbitraryIndexed<'a> for Slot {
    fn arbitrary_at(u: &mut Unstructured<'a>, index: u32) -> Result<Self> {
        Ok(Self {
            index: u16::try_from(index).map_err(|_| arbitrary::Error::IncorrectFormat)?,
            object: Object::arbitrary(u)?,
        })
    }
}

impl<'a> Arbitrary<'a> for Scene {
    /// Empty, one object, every object, or a random share of them.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(Self {
            slots: arbitrary::subset(u, MAX_OBJECTS)?,
        })
    }
}

impl<'a> Arbitrary<'a> for ScenePacket {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(Self {
            strategy: *u.choose(&Strategy::ALL)?,
            scene: Scene::arbitrary(u)?,
        })
    }
}

impl<'a> Arbitrary<'a> for GolombScene {
    /// The writer's best parameter, or one time in four any other (a
    /// reader accepts any, and the packet re-encodes with it).
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut packet = Self::new(Scene::arbitrary(u)?);
        if u.ratio(1, 4)? {
            packet.parameter = u.int_in_range(0..=15u8)?;
        }
        Ok(packet)
    }
}

impl<'a> Arbitrary<'a> for SceneE {
    /// Any valid scene: the code has nothing else to choose.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(Self::new(Scene::arbitrary(u)?))
    }
}
