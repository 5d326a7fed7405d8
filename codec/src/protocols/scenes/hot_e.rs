//! Scene E's read on the concrete reading stream: the adaptive subset code
//! and the objects in one pass over a copy of the bit reader that the
//! compiler keeps in registers, beside the generic `adaptive` function,
//! which stays the specification.
//!
//! All or nothing: where any code or object does not lie whole in the
//! input, or an object is out of range, the pass gives up, the stream
//! stays where it was and the generic code reads the scene from its first
//! bit, reading or refusing it as it always does. The code's every bit
//! string decodes to a subset, so nothing else can stop the pass.
//! `codec/tests/hot_paths.rs` holds the pass equal to the generic code on
//! any input.

use super::hot::read_slot;
use super::{Object, Slot, MAX_OBJECTS};
use crate::bits::BitReader;
use crate::stream::ops::truncated::{binary_from, golomb_from};
use crate::stream::{HotPath, ReadStream, Stream, WriteStream, TOKEN};
use crate::subset::adaptive::{
    count_parameter, full, gap_parameter, subsets, unrank, uses_blocks, CountOrder, BLOCK,
};

/// Scene E's slots read whole into `slots` on the concrete reading stream:
/// true, with the stream past them; false, with nothing read and `slots`
/// as it was, elsewhere and where the pass gives up.
#[inline(always)]
pub(super) fn read<S: Stream>(stream: &mut S, slots: &mut Vec<Slot>) -> bool {
    stream.concrete(TOKEN, Pass(slots)).unwrap_or(false)
}

/// [`read`]'s path.
struct Pass<'s>(&'s mut Vec<Slot>);

impl HotPath for Pass<'_> {
    type Output = bool;

    #[inline(always)]
    fn read(self, stream: &mut ReadStream<'_>) -> bool {
        let reader = stream.reader();
        let mut ahead = reader.clone();
        // Room as the generic reader reserves it: what the bits left hold.
        let room = ahead
            .bits_remaining()
            .checked_div(u64::from(Object::AT_REST_BITS))
            .unwrap_or(0);
        let mut slots = Vec::with_capacity(room.min(u64::from(MAX_OBJECTS)) as usize);
        if scene(&mut ahead, &mut slots).is_none() {
            return false;
        }
        reader.seek_forward(ahead.bits_read());
        *self.0 = slots;
        true
    }

    #[inline(always)]
    fn write(self, _: &mut WriteStream<'_>) -> bool {
        false
    }
}

/// The bits from the next one, the next one lowest: eight bytes' worth
/// where the input has them, else what is left and zeros above.
#[inline(always)]
fn window(reader: &BitReader<'_>) -> u64 {
    match reader.window64() {
        Some(window) => window,
        None => reader.window_to_end() as u64,
    }
}

/// A code's value from `decode` (its value and length from a window),
/// consumed when the code lies inside the input.
#[inline(always)]
fn code(
    reader: &mut BitReader<'_>,
    window: u64,
    decode: impl FnOnce(u64) -> Option<(u64, u32)>,
) -> Option<u64> {
    let (value, bits) = decode(window)?;
    if u64::from(bits) > reader.bits_remaining() {
        return None;
    }
    reader.advance(bits);
    Some(value)
}

/// A Golomb code of parameter `m` cut to `max`.
#[inline(always)]
fn golomb(reader: &mut BitReader<'_>, m: u32, max: u32) -> Option<u32> {
    let value = code(reader, window(reader), |w| golomb_from(w, m.max(1), max))?;
    // Within `0..=max`.
    Some(value as u32)
}

/// A value in truncated binary over `span`, up to 64 bits long (a block's
/// rank takes up to 61): from the wide window, or what is left.
#[inline(always)]
fn binary(reader: &mut BitReader<'_>, span: u64) -> Option<u64> {
    let window = match reader.window() {
        Some(window) => window as u64,
        None => reader.window_to_end() as u64,
    };
    code(reader, window, |w| binary_from(w, span, u64::BITS))
}

/// The whole scene: the count, then gaps or blocks, each object after the
/// step that places it.
#[inline(always)]
fn scene(reader: &mut BitReader<'_>, slots: &mut Vec<Slot>) -> Option<()> {
    let size = MAX_OBJECTS;
    // In `0..=size`.
    let k = binary(reader, u64::from(size).wrapping_add(1))? as u32;
    let present = k.wrapping_mul(2) <= size;
    let r = if present { k } else { size.wrapping_sub(k) };
    if uses_blocks(r, size) {
        return blocks(reader, slots, present, size, r);
    }
    let at = gaps(reader, slots, present, size, r)?;
    if !present {
        run(reader, slots, at, size)?;
    }
    Some(())
}

/// The objects of slots `from..to`, every one present.
#[inline(always)]
fn run(reader: &mut BitReader<'_>, slots: &mut Vec<Slot>, from: u32, to: u32) -> Option<()> {
    for index in from..to {
        read_slot(reader, slots, index).then_some(())?;
    }
    Some(())
}

/// One gap for each of the `r` coded slots among `n`; the next slot after
/// the last coded one.
#[inline(always)]
fn gaps(
    reader: &mut BitReader<'_>,
    slots: &mut Vec<Slot>,
    present: bool,
    mut n: u32,
    r: u32,
) -> Option<u32> {
    let mut at = 0u32;
    for left in (1..=r).rev() {
        let z = golomb(reader, gap_parameter(n, left), n.wrapping_sub(left))?;
        // `z <= n - left`: the coded slot is below the slots' end.
        let coded = at.wrapping_add(z);
        if present {
            read_slot(reader, slots, coded).then_some(())?;
        } else {
            run(reader, slots, at, coded)?;
        }
        at = coded.wrapping_add(1);
        n = n.wrapping_sub(z).wrapping_sub(1);
    }
    Some(at)
}

/// One count and rank for each block of the `n` slots, `r` of them coded.
#[inline(always)]
fn blocks(
    reader: &mut BitReader<'_>,
    slots: &mut Vec<Slot>,
    present: bool,
    mut n: u32,
    mut r: u32,
) -> Option<()> {
    let mut at = 0u32;
    for _ in 0..n.div_ceil(BLOCK) {
        let b = n.min(BLOCK);
        let order = CountOrder::new(n, r, b);
        let place = golomb(reader, count_parameter(n, r, b), order.last())?;
        let c = order.count(place);
        let coded = unrank(binary(reader, subsets(b, c))?, c, b);
        let mut mask = if present { coded } else { !coded & full(b) };
        for _ in 0..mask.count_ones() {
            let slot = at.wrapping_add(mask.trailing_zeros());
            read_slot(reader, slots, slot).then_some(())?;
            mask &= mask.wrapping_sub(1);
        }
        at = at.wrapping_add(b);
        n = n.wrapping_sub(b);
        r = r.wrapping_sub(c);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::scenes::{Scene, SceneE};
    use crate::stream::Serialize;

    /// Scenes at densities that take each path of the code: gaps of the
    /// present set, blocks of either set, gaps of the absent set.
    fn scenes() -> Vec<Scene> {
        [1000u32, 97, 9, 4, 3, 2, 1]
            .into_iter()
            .map(|every| Scene {
                slots: (0..MAX_OBJECTS)
                    .filter(|i| (i * 7 + 3) % every != 0 || every == 1000 && *i < 10)
                    .map(|i| Slot {
                        index: i as u16,
                        object: Object::default(),
                    })
                    .collect(),
            })
            .collect()
    }

    /// The pass is taken: on a scene's encoding with nothing after it, it
    /// reads the whole scene the generic code wrote, to its last bit. A
    /// pass that always gave up would be equal to the generic code too,
    /// only slower.
    #[test]
    fn the_pass_reads_a_whole_scene_to_its_last_bit() {
        for scene in scenes() {
            let mut buf = vec![0u8; 1 << 16];
            let mut stream = WriteStream::new(&mut buf);
            SceneE::new(scene.clone()).serialize(&mut stream).unwrap();
            let bits = stream.bit_offset();
            let len = stream.finish();
            let mut stream = ReadStream::new(&buf[..len]);
            let mut slots = Vec::new();
            assert!(
                read(&mut stream, &mut slots),
                "{} objects",
                scene.slots.len()
            );
            assert_eq!(slots, scene.slots);
            assert_eq!(stream.bit_offset(), bits);
        }
    }
}
