//! The Golomb scene, scene E's version 1: the scene's object indices as a
//! Golomb-coded subset of the 1024 slots ([`crate::subset::golomb`]
//! documents the code, version 1), with the packet's parameter kept, so a
//! decoded packet re-encodes to the very bits it was read from.

use super::{Scene, MAX_OBJECTS};
use crate::role::Role;
use crate::stream::{Serialize, Stream};
use crate::subset::golomb;

/// A Golomb scene packet (what scene E sent before version 2): the scene
/// and the Golomb parameter its indices use.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GolombScene {
    /// An index into [`GOLOMB_PARAMETERS`](crate::subset::GOLOMB_PARAMETERS).
    pub parameter: u8,
    /// What is sent.
    pub scene: Scene,
}

impl GolombScene {
    /// The packet for `scene`, with the parameter that codes its indices in the
    /// fewest bits.
    #[must_use]
    pub fn new(scene: Scene) -> Self {
        let parameter = Self::best_parameter(&scene);
        Self { parameter, scene }
    }

    /// The parameter that codes `scene`'s indices in the fewest bits (ties
    /// go to the lower entry): what a sender calls on each new scene before
    /// encoding it into the packet it reuses.
    #[must_use]
    pub fn best_parameter(scene: &Scene) -> u8 {
        golomb::best_parameter(&scene.slots, MAX_OBJECTS)
    }

    /// Bits the index part costs with `parameter`: the parameter field and
    /// every gap, the sentinel's included.
    #[must_use]
    pub fn index_bits(scene: &Scene, parameter: u8) -> u64 {
        golomb::index_bits(&scene.slots, MAX_OBJECTS, parameter)
    }
}

impl Serialize for GolombScene {
    /// The Golomb-coded subset ([`golomb::golomb_with`]), with its hot
    /// path on the concrete streams.
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        golomb::golomb_with_shortcut(
            stream,
            &mut self.scene.slots,
            MAX_OBJECTS,
            &mut self.parameter,
            Role::Parameter,
            &super::hot::GolombScene,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::scenes::{Object, Slot};
    use crate::subset::{CodedSet, GOLOMB_PARAMETERS};
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn scene_of(indices: impl Iterator<Item = u16>) -> Scene {
        Scene {
            slots: indices
                .map(|index| Slot {
                    index,
                    object: Object::default(),
                })
                .collect(),
        }
    }

    #[test]
    fn best_parameter_is_the_first_shortest_entry() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x2545_F491_4F6C_DD1Du64);
        let mut next = move || rng.next_u64();
        for density in [
            0, 1, 2, 5, 10, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 90, 99, 100,
        ] {
            for _ in 0..20 {
                let scene = scene_of((0..1024u16).filter(|_| next() % 100 < density));
                let shortest = (0..GOLOMB_PARAMETERS.len() as u8)
                    .min_by_key(|&p| GolombScene::index_bits(&scene, p))
                    .unwrap();
                assert_eq!(
                    GolombScene::best_parameter(&scene),
                    shortest,
                    "{} objects",
                    scene.slots.len()
                );
            }
        }
    }

    /// Objects at 341 to 1023: the absent set's gaps cost exactly the
    /// present set's unary code (entry 0, 1025 bits) with `m = 2`, and no
    /// present entry can do better; the tie goes to entry 0.
    #[test]
    fn an_absent_entry_that_ties_the_unary_code_loses_to_it() {
        let scene = scene_of(341..1024u16);
        assert_eq!(GolombScene::index_bits(&scene, 0), 4 + 1025);
        let absent_two = GOLOMB_PARAMETERS
            .iter()
            .position(|&entry| entry == (CodedSet::Absent, 2))
            .unwrap() as u8;
        assert_eq!(GolombScene::index_bits(&scene, absent_two), 4 + 1025);
        assert_eq!(GolombScene::best_parameter(&scene), 0);
    }

    /// Scenes a writer refuses still get a parameter and a bit count, by
    /// the same walk: no panic and no loop on broken indices.
    #[test]
    fn broken_scenes_are_counted_without_a_panic() {
        for indices in [
            vec![5u16, 3],
            vec![7, 7, 7],
            vec![2000, 1],
            vec![1023, 1024, 0],
        ] {
            let scene = scene_of(indices.into_iter());
            let parameter = GolombScene::best_parameter(&scene);
            assert!(usize::from(parameter) < GOLOMB_PARAMETERS.len());
            for parameter in 0..GOLOMB_PARAMETERS.len() as u8 {
                assert!(GolombScene::index_bits(&scene, parameter) >= 4);
            }
        }
    }

    #[test]
    fn index_bits_counts_what_the_writer_writes() {
        let scene = scene_of([3u16, 4, 100, 101, 640, 1023].into_iter());
        for parameter in 0..GOLOMB_PARAMETERS.len() as u8 {
            let mut packet = GolombScene {
                parameter,
                scene: scene.clone(),
            };
            let objects =
                scene.slots.len() as u64 * crate::measure(&mut Object::default()).unwrap();
            let written = crate::measure(&mut packet).unwrap();
            assert_eq!(
                GolombScene::index_bits(&scene, parameter) + objects,
                written
            );
        }
    }
}
