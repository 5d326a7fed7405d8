//! Scene E on the concrete streams: the adaptive subset code and the
//! objects in one pass over a copy of the bit reader, or a storing writer,
//! that the compiler keeps in registers, beside the generic `adaptive`
//! function, which stays the specification.
//!
//! Where a read stops at an item (a code or object not whole in the
//! input, an object out of range), the generic code reads that one item
//! from there: everything before it is what the generic code would have
//! read, so its refusal is the one owed, and the scene is not read twice.
//! Where the generic code reads the item after all, and where a write
//! meets slots that break the subset's rules or a buffer without room, the
//! pass gives up with nothing consumed or written and the generic code
//! starts from the scene's first bit. The code's every bit string decodes
//! to a subset, so nothing else stops a read. `codec/tests/hot_paths.rs`
//! holds both passes equal to the generic code on any input.

use super::hot::{read_slot, write_slot};
use super::{Object, Slot, MAX_OBJECTS};
use crate::bits::{BitReader, StoringWriter, WideWrite};
use crate::error::DecodeError;
use crate::stream::ops::truncated::{
    binary_from, binary_word, golomb_from, golomb_word, serialize_truncated_binary,
    serialize_truncated_golomb, unary_from, unary_word,
};
use crate::stream::{HotPath, ReadStream, Stream, WriteStream, TOKEN};
use crate::subset::adaptive::{
    count_parameter, full, gap_parameter, rank, subsets, unrank, uses_blocks, CountOrder, BLOCK,
};
use crate::subset::Indexed;

/// What [`serialize`] did.
#[derive(Debug)]
pub(super) enum Done {
    /// The slots read whole into `slots` (or written whole from them), the
    /// stream past them.
    Whole,
    /// The read stopped at an item the generic code refuses too, and
    /// refused it there, as the generic code would have: the stream is
    /// poisoned with this error, `slots` as it was.
    Refused(DecodeError),
    /// Nothing read or written and `slots` as it was: on every other
    /// stream, and where the pass gives up; the generic code goes on.
    Declined,
}

/// Scene E's slots on the concrete streams ([`Done`]).
#[inline(always)]
pub(super) fn serialize<S: Stream>(stream: &mut S, slots: &mut Vec<Slot>) -> Done {
    stream
        .concrete(TOKEN, Pass(slots))
        .unwrap_or(Done::Declined)
}

/// [`serialize`]'s path.
struct Pass<'s>(&'s mut Vec<Slot>);

impl HotPath for Pass<'_> {
    type Output = Done;

    /// Where the pass stops at an item, the generic code would have read
    /// everything before it as the pass did, and stands at that item: it
    /// reads that one item there. A refusal is then the generic code's own
    /// (cause, bit and all), without reading the scene again; an item it
    /// reads after all sends the generic code back to the first bit.
    #[inline(always)]
    fn read(self, stream: &mut ReadStream<'_>) -> Done {
        let reader = stream.reader();
        let start = reader.bits_read();
        let mut ahead = reader.clone();
        // Room as the generic reader reserves it: what the bits left hold.
        let room = ahead
            .bits_remaining()
            .checked_div(u64::from(Object::AT_REST_BITS))
            .unwrap_or(0);
        let mut slots = Vec::with_capacity(room.min(u64::from(MAX_OBJECTS)) as usize);
        let read = scene(&mut ahead, &mut slots);
        // Past the scene, or up to the item the pass stopped at.
        reader.seek_forward(ahead.bits_read());
        let stop = match read {
            Ok(()) => {
                *self.0 = slots;
                return Done::Whole;
            }
            Err(stop) => stop,
        };
        match stop.read(stream) {
            Err(why) => Done::Refused(why),
            Ok(()) => {
                stream.reader().seek_back(start);
                Done::Declined
            }
        }
    }

    #[inline(always)]
    fn write(self, stream: &mut WriteStream<'_>) -> Done {
        let before = stream.bit_offset();
        let Some(mut writer) = stream.writer().storing() else {
            return Done::Declined;
        };
        let start = writer.bits_written();
        if write_scene(&mut writer, self.0).is_none() {
            return Done::Declined;
        }
        let wrote = writer.bits_written().wrapping_sub(start);
        let state = writer.state();
        stream.writer().catch_up(state);
        // A pass past the stream's room is not taken over: the generic
        // code writes from the first bit again, and refuses.
        if stream.bit_offset() == before.wrapping_add(wrote) {
            Done::Whole
        } else {
            Done::Declined
        }
    }
}

/// The item a read pass stopped at, with its reader at the item's first
/// bit: a code not whole in the input, or an object not whole or refused.
#[derive(Clone, Copy, Debug)]
enum Stop {
    /// A truncated binary code over this span.
    Binary(u64),
    /// A cut Golomb code.
    Golomb { m: u32, max: u32 },
    /// The object of this slot.
    Object(u32),
}

impl Stop {
    /// The item, read by the generic code from where the stream stands.
    #[inline(never)]
    fn read(self, stream: &mut ReadStream<'_>) -> Result<(), DecodeError> {
        match self {
            Self::Binary(span) => serialize_truncated_binary(stream, &mut 0, span),
            Self::Golomb { m, max } => serialize_truncated_golomb(stream, &mut 0, m, max),
            Self::Object(index) => Slot::at(index).serialize_value(stream),
        }
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

/// A Golomb code of parameter `m` cut to `max`; with `UNARY`, in unary
/// where `m` is 1 (the same bits, without the Golomb code's arithmetic).
#[inline(always)]
fn golomb<const UNARY: bool>(reader: &mut BitReader<'_>, m: u32, max: u32) -> Result<u32, Stop> {
    let decode = |w| {
        if UNARY && m <= 1 {
            unary_from(w, max)
        } else {
            golomb_from(w, m.max(1), max)
        }
    };
    let value = code(reader, window(reader), decode).ok_or(Stop::Golomb { m, max })?;
    // Within `0..=max`.
    Ok(value as u32)
}

/// A value in truncated binary over `span`, up to 64 bits long (a block's
/// rank takes up to 61): from the wide window, or what is left.
#[inline(always)]
fn binary(reader: &mut BitReader<'_>, span: u64) -> Result<u64, Stop> {
    let window = match reader.window() {
        Some(window) => window as u64,
        None => reader.window_to_end() as u64,
    };
    code(reader, window, |w| binary_from(w, span, u64::BITS)).ok_or(Stop::Binary(span))
}

/// The whole scene: the count, then gaps or blocks, each object after the
/// step that places it.
#[inline(always)]
fn scene(reader: &mut BitReader<'_>, slots: &mut Vec<Slot>) -> Result<(), Stop> {
    let size = MAX_OBJECTS;
    // In `0..=size`.
    let k = binary(reader, u64::from(size).wrapping_add(1))? as u32;
    let present = k.wrapping_mul(2) <= size;
    let r = if present { k } else { size.wrapping_sub(k) };
    if uses_blocks(r, size) {
        return blocks(reader, slots, present, size, r);
    }
    // Each set's own loop: no test of which set is coded in every gap; and
    // sets near half full, whose gaps go in unary, a loop of their own
    // (`write_gaps` says why).
    let at = match (present, unary_gaps(size, r)) {
        (true, true) => gaps::<true, true>(reader, slots, size, r)?,
        (true, false) => gaps::<true, false>(reader, slots, size, r)?,
        (false, true) => gaps::<false, true>(reader, slots, size, r)?,
        (false, false) => gaps::<false, false>(reader, slots, size, r)?,
    };
    if !present {
        run(reader, slots, at, size)?;
    }
    Ok(())
}

/// Whether a coded set of `r` among `size` slots takes the gap loops'
/// unary form: where its first gap's parameter is 1. Either form reads and
/// writes every gap; this only picks the faster.
#[inline(always)]
fn unary_gaps(size: u32, r: u32) -> bool {
    gap_parameter(size, r) == 1
}

/// The objects of slots `from..to`, every one present.
#[inline(always)]
fn run(reader: &mut BitReader<'_>, slots: &mut Vec<Slot>, from: u32, to: u32) -> Result<(), Stop> {
    for index in from..to {
        slot(reader, slots, index)?;
    }
    Ok(())
}

/// The object of slot `index`, read whole ([`read_slot`]).
#[inline(always)]
fn slot(reader: &mut BitReader<'_>, slots: &mut Vec<Slot>, index: u32) -> Result<(), Stop> {
    if read_slot(reader, slots, index) {
        Ok(())
    } else {
        Err(Stop::Object(index))
    }
}

/// One gap for each of the `r` coded slots among `n`; the next slot after
/// the last coded one ([`golomb`] says what `UNARY` does).
#[inline(always)]
fn gaps<const PRESENT: bool, const UNARY: bool>(
    reader: &mut BitReader<'_>,
    slots: &mut Vec<Slot>,
    mut n: u32,
    r: u32,
) -> Result<u32, Stop> {
    let mut at = 0u32;
    // A countdown, not `(1..=r).rev()`, whose end check costs more.
    let mut left = r;
    while left > 0 {
        let z = golomb::<UNARY>(reader, gap_parameter(n, left), n.wrapping_sub(left))?;
        // `z <= n - left`: the coded slot is below the slots' end.
        let coded = at.wrapping_add(z);
        if PRESENT {
            slot(reader, slots, coded)?;
        } else {
            run(reader, slots, at, coded)?;
        }
        at = coded.wrapping_add(1);
        n = n.wrapping_sub(z).wrapping_sub(1);
        left = left.wrapping_sub(1);
    }
    Ok(at)
}

/// One count and rank for each block of the `n` slots, `r` of them coded.
#[inline(always)]
fn blocks(
    reader: &mut BitReader<'_>,
    slots: &mut Vec<Slot>,
    present: bool,
    mut n: u32,
    mut r: u32,
) -> Result<(), Stop> {
    let mut at = 0u32;
    for _ in 0..n.div_ceil(BLOCK) {
        let b = n.min(BLOCK);
        let order = CountOrder::new(n, r, b);
        let place = golomb::<false>(reader, count_parameter(n, r, b), order.last())?;
        let c = order.count(place);
        let coded = unrank(binary(reader, subsets(b, c))?, c, b);
        let mut mask = if present { coded } else { !coded & full(b) };
        for _ in 0..mask.count_ones() {
            slot(reader, slots, at.wrapping_add(mask.trailing_zeros()))?;
            mask &= mask.wrapping_sub(1);
        }
        at = at.wrapping_add(b);
        n = n.wrapping_sub(b);
        r = r.wrapping_sub(c);
    }
    Ok(())
}

/// The items a writer has sent, and the next. Nothing here checks an
/// index: a gap must not go back or past the slots left, and a run or a
/// block writes exactly the items at its slots, so items that are not
/// strictly increasing below the end stop the pass or are left unsent.
struct Next<'s> {
    slots: &'s [Slot],
    sent: usize,
}

impl Next<'_> {
    /// The next item's index, if any.
    #[inline(always)]
    fn index(&self) -> Option<u32> {
        self.slots.get(self.sent).map(|slot| u32::from(slot.index))
    }

    /// Writes the next item's object, branching on whether it rests
    /// ([`write_slot`]): fewer instructions, and no slower in the peers
    /// bench's scenes than the write without the branch.
    #[inline(always)]
    fn write(&mut self, writer: &mut StoringWriter<'_>) -> Option<()> {
        let slot = self.slots.get(self.sent)?;
        write_slot(writer, slot, false).then_some(())?;
        self.sent = self.sent.wrapping_add(1);
        Some(())
    }

    /// The first slot from `at` on that the items from the next one on do
    /// not hold, one after another (the slots' end where they hold all).
    #[inline(always)]
    fn first_free(&self, at: u32) -> u32 {
        let items = self.slots.get(self.sent..).unwrap_or_default();
        for (slot, item) in (at..MAX_OBJECTS).zip(items) {
            if u32::from(item.index) != slot {
                return slot;
            }
        }
        at.saturating_add(u32::try_from(items.len()).unwrap_or(u32::MAX))
            .min(MAX_OBJECTS)
    }

    /// Writes the objects of slots `from..to`, each of which must be the
    /// next item.
    #[inline(always)]
    fn run(&mut self, writer: &mut StoringWriter<'_>, from: u32, to: u32) -> Option<()> {
        for index in from..to {
            (self.index()? == index).then_some(())?;
            self.write(writer)?;
        }
        Some(())
    }
}

/// The count, then gaps or blocks, each object after the step that places
/// it: what the generic writer writes.
#[inline(always)]
fn write_scene(writer: &mut StoringWriter<'_>, slots: &[Slot]) -> Option<()> {
    let size = MAX_OBJECTS;
    let k = u32::try_from(slots.len()).ok().filter(|&k| k <= size)?;
    let (word, bits) = binary_word(u64::from(k), u64::from(size).wrapping_add(1));
    writer.put(word, bits).then_some(())?;
    let present = k.wrapping_mul(2) <= size;
    let r = if present { k } else { size.wrapping_sub(k) };
    let mut next = Next { slots, sent: 0 };
    if uses_blocks(r, size) {
        write_blocks(writer, &mut next, present, size, r)?;
    } else {
        // Sets near half full send their gaps in unary (a parameter of 1),
        // from a loop of their own: sparse sets' loop keeps its counters in
        // registers without that case.
        let at = if unary_gaps(size, r) {
            write_gaps::<true>(writer, &mut next, present, size, r)?
        } else {
            write_gaps::<false>(writer, &mut next, present, size, r)?
        };
        if !present {
            next.run(writer, at, size)?;
        }
    }
    // Every item placed: none left over past the coded set.
    (next.sent == slots.len()).then_some(())
}

/// One gap for each of the `r` coded slots among `n`; the next slot after
/// the last coded one. `UNARY`: a gap whose parameter is 1 is written in
/// unary, without the Golomb code's arithmetic (the same bits).
#[inline(always)]
fn write_gaps<const UNARY: bool>(
    writer: &mut StoringWriter<'_>,
    next: &mut Next<'_>,
    present: bool,
    mut n: u32,
    r: u32,
) -> Option<u32> {
    let mut at = 0u32;
    let mut left = r;
    while left > 0 {
        let coded = if present {
            next.index()?
        } else {
            next.first_free(at)
        };
        let most = n.wrapping_sub(left);
        let z = coded.checked_sub(at).filter(|&z| z <= most)?;
        let m = gap_parameter(n, left).max(1);
        let (word, bits) = if UNARY && m == 1 {
            unary_word(z, most)?
        } else {
            golomb_word(z, m, most)?
        };
        writer.put(word, bits).then_some(())?;
        if present {
            next.write(writer)?;
        } else {
            next.run(writer, at, coded)?;
        }
        at = coded.wrapping_add(1);
        n = n.wrapping_sub(z).wrapping_sub(1);
        left = left.wrapping_sub(1);
    }
    Some(at)
}

/// One count and rank for each block of the `n` slots, `r` of them coded.
#[inline(always)]
fn write_blocks(
    writer: &mut StoringWriter<'_>,
    next: &mut Next<'_>,
    present: bool,
    mut n: u32,
    mut r: u32,
) -> Option<()> {
    let mut at = 0u32;
    for _ in 0..n.div_ceil(BLOCK) {
        let b = n.min(BLOCK);
        // The block's present slots, from the next items on; each is
        // checked as it is written.
        let mut held = 0u64;
        for slot in next.slots.get(next.sent..).unwrap_or_default() {
            let offset = u32::from(slot.index).wrapping_sub(at);
            if offset >= b {
                break;
            }
            held |= 1u64 << (offset & 63);
        }
        let coded = if present { held } else { !held & full(b) };
        let c = coded.count_ones();
        let order = CountOrder::new(n, r, b);
        let place = order.place(c);
        let (word, bits) = golomb_word(place, count_parameter(n, r, b).max(1), order.last())?;
        writer.put(word, bits).then_some(())?;
        let (word, bits) = binary_word(rank(coded), subsets(b, c));
        writer.put(word, bits).then_some(())?;
        let mut mask = held;
        for _ in 0..held.count_ones() {
            let index = at.wrapping_add(mask.trailing_zeros());
            (next.index()? == index).then_some(())?;
            next.write(writer)?;
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

    /// Scenes at densities that take each path of the code: gaps of the
    /// present set (1/97, 1/9, 1/2), blocks of either set (1/4, 1/3 and
    /// their complements), gaps of the absent set (8/9, 96/97), none and
    /// every slot.
    fn scenes() -> Vec<Scene> {
        let moving = Object::new(
            [1.5, -2.0, 3.0],
            [0.1, 0.2, 0.3, 0.9],
            [1.0, 0.0, -2.0],
            [0.0, 0.5, 0.0],
        );
        let mut scenes = Vec::new();
        for every in [1u32, 97, 9, 4, 3, 2] {
            for kept in [true, false] {
                let slots: Vec<Slot> = (0..MAX_OBJECTS)
                    .filter(|i| ((i * 7 + 3) % every == 0) == kept)
                    .map(|i| Slot {
                        index: i as u16,
                        object: if i % 2 == 0 {
                            Object::default()
                        } else {
                            moving
                        },
                    })
                    .collect();
                scenes.push(Scene { slots });
            }
        }
        scenes
    }

    /// The pass is taken: on a scene's encoding (after lead bits that make
    /// it end on the input's last bit, so that its last code or object
    /// does), it reads the whole scene the subset code wrote, to its last
    /// bit. A pass that always gave up would be equal to the generic code
    /// too, only slower.
    #[test]
    fn the_pass_reads_a_whole_scene_to_its_last_bit() {
        for scene in scenes() {
            let bits = crate::measure(&mut SceneE::new(scene.clone())).unwrap();
            let lead = (8 - bits % 8) % 8;
            let mut buf = vec![0u8; 1 << 16];
            let mut stream = WriteStream::new(&mut buf);
            stream.serialize_bits(&mut 0, lead as u32).unwrap();
            let mut slots = scene.slots.clone();
            crate::subset::adaptive(&mut stream, &mut slots, MAX_OBJECTS).unwrap();
            let len = stream.finish();
            assert_eq!(len as u64 * 8, lead + bits);
            let mut stream = ReadStream::new(&buf[..len]);
            stream.serialize_bits(&mut 0, lead as u32).unwrap();
            let mut slots = Vec::new();
            let read = serialize(&mut stream, &mut slots);
            assert!(matches!(read, Done::Whole), "{} objects", scene.slots.len());
            assert_eq!(slots, scene.slots);
            assert_eq!(stream.bit_offset(), lead + bits);
        }
    }

    /// The pass is taken on writes too: it writes every scene whole, the
    /// very bits the subset code writes, and leaves the stream after them.
    #[test]
    fn the_pass_writes_a_whole_scene_as_the_subset_code_does() {
        for scene in scenes() {
            let mut expected = vec![0u8; 1 << 16];
            let mut stream = WriteStream::new(&mut expected);
            let mut slots = scene.slots.clone();
            crate::subset::adaptive(&mut stream, &mut slots, MAX_OBJECTS).unwrap();
            let bits = stream.bit_offset();
            stream.finish();
            let mut buf = vec![0u8; 1 << 16];
            let mut stream = WriteStream::new(&mut buf);
            let wrote = serialize(&mut stream, &mut scene.slots.clone());
            assert!(matches!(wrote, Done::Whole), "{}", scene.slots.len());
            assert_eq!(stream.bit_offset(), bits);
            stream.finish();
            assert_eq!(buf, expected, "{} objects", scene.slots.len());
        }
    }

    /// A scene the generic code refuses is refused by the pass where it
    /// stopped, not read again: with the generic code's error, the stream
    /// poisoned at the same bit and the slots left as they were. Each scene
    /// is refused twice: its last object's position out of range, and cut
    /// short in the middle of its encoding.
    #[test]
    fn the_pass_refuses_where_it_stops() {
        for scene in scenes().into_iter().filter(|s| !s.slots.is_empty()) {
            let mut buf = vec![0u8; 1 << 16];
            let mut stream = WriteStream::new(&mut buf);
            let mut slots = scene.slots.clone();
            crate::subset::adaptive(&mut stream, &mut slots, MAX_OBJECTS).unwrap();
            let bits = stream.bit_offset();
            let len = stream.finish();
            let last = scene.slots.last().unwrap().object;
            let object_bits = crate::measure(&mut last.clone()).unwrap();
            // The encoding ends with the last object: its x code, all ones,
            // is above the range's top code.
            let mut out_of_range = buf[..len].to_vec();
            for bit in bits - object_bits..bits - object_bits + 21 {
                out_of_range[(bit / 8) as usize] |= 1 << (bit % 8);
            }
            let cut = &buf[..len / 2];
            for bytes in [&out_of_range[..], cut] {
                let mut generic = ReadStream::new(bytes);
                let mut generic_slots = vec![Slot::default()];
                let owed = crate::subset::adaptive(&mut generic, &mut generic_slots, MAX_OBJECTS)
                    .unwrap_err();
                let mut stream = ReadStream::new(bytes);
                let mut slots = vec![Slot::default()];
                let done = serialize(&mut stream, &mut slots);
                assert!(
                    matches!(done, Done::Refused(why) if why == owed),
                    "{} objects: {done:?}, owed {owed:?}",
                    scene.slots.len()
                );
                assert_eq!(slots, generic_slots);
                assert_eq!(stream.bit_offset(), generic.bit_offset());
                assert_eq!(stream.bits_remaining(), generic.bits_remaining());
            }
        }
    }

    /// A code the pass cannot read from one window though the input holds
    /// it (the first gap of 40 objects at the slots' end: 57 ones at
    /// parameter 17, then a remainder) sends the read back to the first
    /// bit, for the generic code, which reads the scene whole.
    #[test]
    fn a_code_longer_than_a_window_goes_back_to_the_first_bit() {
        use crate::Serialize;
        let slots: Vec<Slot> = (984..MAX_OBJECTS).map(Slot::at).collect();
        assert_eq!(gap_parameter(MAX_OBJECTS, 40), 17);
        let mut scene = SceneE::new(Scene { slots });
        let mut buf = vec![0u8; 1 << 16];
        let mut stream = WriteStream::new(&mut buf);
        scene.serialize(&mut stream).unwrap();
        let bits = stream.bit_offset();
        let len = stream.finish();
        let mut stream = ReadStream::new(&buf[..len]);
        let mut slots = Vec::new();
        assert!(matches!(serialize(&mut stream, &mut slots), Done::Declined));
        assert_eq!(stream.bit_offset(), 0);
        assert!(slots.is_empty());
        let mut read = SceneE::default();
        read.serialize(&mut stream).unwrap();
        assert_eq!(read, scene);
        assert_eq!(stream.bit_offset(), bits);
    }

    /// Slots that break the subset's rules are left to the generic writer,
    /// which refuses them: the pass writes nothing.
    #[test]
    fn the_pass_declines_broken_slots() {
        let at = |index: u16| Slot {
            index,
            object: Object::default(),
        };
        let dense: Vec<Slot> = (0..600).map(at).collect();
        for slots in [
            vec![at(5), at(3)],
            vec![at(7), at(7)],
            vec![at(1024)],
            [dense.clone(), vec![at(5)]].concat(),
            [dense, vec![at(599)]].concat(),
            (0..1023).map(at).chain([at(1022)]).collect(),
        ] {
            let mut buf = vec![0u8; 1 << 16];
            let mut stream = WriteStream::new(&mut buf);
            let wrote = serialize(&mut stream, &mut slots.clone());
            assert!(matches!(wrote, Done::Declined), "{slots:?}");
            assert_eq!(stream.bit_offset(), 0);
        }
    }
}
