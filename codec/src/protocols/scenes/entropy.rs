//! Scene E, version 2: the scene's object indices as an adaptive subset of
//! the 1024 slots ([`crate::subset::adaptive`] documents the code, version
//! 1): the count, then gaps or ranked blocks coded from the slots and
//! objects left. The code is complete, so the packet has nothing to keep
//! beside the scene (version 1's Golomb parameter is gone) and every
//! packet a reader accepts re-encodes to the bits it was read from.

use super::hot_e::Done;
use super::{Scene, MAX_OBJECTS};
use crate::stream::{Serialize, Stream};
use crate::subset::adaptive;

/// A scene E packet: the scene alone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SceneE {
    /// What is sent.
    pub scene: Scene,
}

impl SceneE {
    /// Scene E for `scene`.
    #[must_use]
    pub fn new(scene: Scene) -> Self {
        Self { scene }
    }
}

impl Serialize for SceneE {
    /// The adaptive subset ([`adaptive::adaptive`]), read or written in one
    /// pass on the concrete streams where it can be (`hot_e.rs`).
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        match super::hot_e::serialize(stream, &mut self.scene.slots) {
            Done::Whole => Ok(()),
            // The stream keeps its first failure: this is `why` again.
            Done::Refused(why) => Err(stream.refuse(why)),
            Done::Declined => adaptive::adaptive(stream, &mut self.scene.slots, MAX_OBJECTS),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::scenes::{Object, Slot};
    use crate::subset::Indexed;

    /// An index with no payload.
    struct Bare(u32);

    impl Indexed for Bare {
        fn index(&self) -> u32 {
            self.0
        }
        fn at(index: u32) -> Self {
            Self(index)
        }
        fn serialize_value<S: Stream>(&mut self, _: &mut S) -> Result<(), S::Error> {
            Ok(())
        }
    }

    /// The index part is the adaptive code's, bit for bit: the packet's
    /// bits are the code's over unit payloads plus the objects'.
    #[test]
    fn the_index_part_is_the_adaptive_code() {
        for indices in [
            vec![],
            vec![3u16, 4, 100, 101, 640, 1023],
            (0..1024).step_by(3).collect(),
            (0..1024).step_by(2).collect(),
            (0..1024).filter(|i| i % 7 != 0).collect(),
            (0..1024).collect(),
        ] {
            let slots: Vec<Slot> = indices
                .iter()
                .map(|&index| Slot {
                    index,
                    object: Object::default(),
                })
                .collect();
            let mut bare: Vec<Bare> = indices.iter().map(|&i| Bare(u32::from(i))).collect();
            let mut measure = crate::MeasureStream::new();
            adaptive::adaptive(&mut measure, &mut bare, MAX_OBJECTS).unwrap();
            let objects = slots.len() as u64 * crate::measure(&mut Object::default()).unwrap();
            let written = crate::measure(&mut SceneE::new(Scene { slots })).unwrap();
            assert_eq!(measure.bits() + objects, written);
        }
    }
}
