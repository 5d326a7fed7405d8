//! Scene objects and the Golomb scene's subset on the concrete streams:
//! straight code over the bit reader and writer, beside the generic
//! `serialize` functions, which stay the specification.
//!
//! An object is read as two records (head, then velocities), each from one
//! window and checked field by field with constant shifts and masks; it is
//! written as two wide writes. The Golomb scene's loop reads and writes its
//! gaps and objects on a copy of the reader or writer that the compiler keeps
//! in registers, and hands the position back when it stops. Nothing here
//! refuses: where a record is out of range or not whole in the input, a
//! code is not in the table or not within eight bytes of input, or the
//! buffer nears its end, it stops, and the generic code goes on from that
//! item, reading, writing or refusing it as it always does.
//! The differential tests (`codec/tests/hot_paths.rs`) hold every path
//! here equal to the generic code on any input.

use super::object::{Object, ANGULAR_VELOCITY, LINEAR_VELOCITY, POSITION};
use super::quaternion::SmallestThree;
use super::Slot;
use crate::bits::{BitReader, StoringWriter, WideWrite};
use crate::stream::ops::golomb::{code, GolombTable};
use crate::stream::{HotPath, ReadStream, Stream, WriteStream, TOKEN};
use crate::subset::golomb::{Progress, Shortcut, WriteProgress};
use crate::subset::Indexed;

/// An object's first eight fields: three position codes, the quaternion's
/// four fields, the at-rest flag.
const HEAD_WIDTHS: [u32; 8] = {
    let [l, a, b, c] = SmallestThree::FIELD_WIDTHS;
    let p = POSITION.bits();
    [p, p, p, l, a, b, c, 1]
};
/// Their largest values: the largest component's index is 0 to 3 (the
/// writer refuses another); its three codes may hold any value of their
/// width (`SmallestThree::is_valid` checks them apart), as may the flag.
const HEAD_MAXES: [u32; 8] = {
    let p = POSITION.max_integer_value();
    [p, p, p, 3, u32::MAX, u32::MAX, u32::MAX, u32::MAX]
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

const HEAD_BITS: u32 = record_bits(&HEAD_WIDTHS);
const VELOCITY_BITS: u32 = record_bits(&VELOCITY_WIDTHS);

// `read_record` takes each record from one window.
const _: () = assert!(HEAD_BITS <= BitReader::WINDOW_BITS);
const _: () = assert!(VELOCITY_BITS <= BitReader::WINDOW_BITS);

/// The bits of a record whose fields are `widths` wide (each at most 32).
#[inline(always)]
const fn record_bits<const N: usize>(widths: &[u32; N]) -> u32 {
    let mut total = 0u32;
    let mut rest: &[u32] = widths;
    while let [width, tail @ ..] = rest {
        total = total.saturating_add(*width);
        rest = tail;
    }
    total
}

/// How far a hot path got through an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reached {
    /// Nothing read or written.
    Nothing,
    /// Position, orientation and the at-rest flag; the velocities are the
    /// generic code's ([`Object::serialize_velocities`]).
    Head,
    /// The whole object.
    Whole,
}

/// A scene slot's object on the concrete streams, as far as it goes; on
/// every other stream, [`Reached::Nothing`].
#[inline(always)]
pub(super) fn object<S: Stream>(stream: &mut S, object: &mut Object) -> Reached {
    stream
        .concrete(TOKEN, ObjectPath(object))
        .unwrap_or(Reached::Nothing)
}

/// [`object`]'s path.
struct ObjectPath<'o>(&'o mut Object);

impl HotPath for ObjectPath<'_> {
    type Output = Reached;

    #[inline(always)]
    fn read(self, stream: &mut ReadStream<'_>) -> Reached {
        read_object(stream.reader(), self.0)
    }

    #[inline(always)]
    fn write(self, stream: &mut WriteStream<'_>) -> Reached {
        write_object(stream.writer(), self.0, false)
    }
}

/// The fields of a record (at most a window wide) from one window, when the
/// input holds the record, consumed only when each is at most its `maxes`
/// and `accept` approves them. The widths and bounds are constants, so
/// each field costs a shift, a mask and a comparison, and no branch is
/// taken until all are read.
#[inline(always)]
fn read_record<const N: usize>(
    reader: &mut BitReader<'_>,
    widths: [u32; N],
    maxes: [u32; N],
    accept: impl FnOnce(&[u32; N]) -> bool,
) -> Option<[u32; N]> {
    let total = record_bits(&widths);
    let window = match reader.window() {
        Some(window) => window,
        // Within the last sixteen bytes, from what is left when the record
        // is in it, so that a packet's last objects are read here too, in
        // the read-ahead loop as well: handing them to the generic code
        // cost more than the branch costs the loop.
        None if u64::from(total) <= reader.bits_remaining() => reader.window_to_end(),
        None => return None,
    };
    let mut shift = 0u32;
    let mut fits = true;
    let mut read = [0u32; N];
    for ((value, width), max) in read.iter_mut().zip(widths).zip(maxes) {
        let width = width.min(32);
        let mask = (1u64 << width).wrapping_sub(1);
        *value = ((window >> (shift & 127)) as u64 & mask) as u32;
        fits &= *value <= max;
        shift = shift.wrapping_add(width);
    }
    if !fits || !accept(&read) {
        return None;
    }
    reader.advance(total);
    Some(read)
}

/// An object as two records, the velocities only when it moves: what its
/// `serialize` reads, as far as the records are whole in the input, in
/// range, and the quaternion valid.
#[inline(always)]
fn read_object(reader: &mut BitReader<'_>, object: &mut Object) -> Reached {
    let orientation = |f: &[u32; 8]| {
        let [_, _, _, largest, a, b, c, _] = *f;
        SmallestThree::from_fields([largest, a, b, c])
    };
    let head = read_record::<8>(reader, HEAD_WIDTHS, HEAD_MAXES, |f| {
        orientation(f).is_valid()
    });
    let Some(fields) = head else {
        return Reached::Nothing;
    };
    let [x, y, z, _, _, _, _, at_rest] = fields;
    object.position = [x, y, z];
    object.orientation = orientation(&fields);
    object.at_rest = at_rest != 0;
    if object.at_rest {
        object.linear_velocity = Object::AT_REST_AT_ORIGIN.linear_velocity;
        object.angular_velocity = Object::AT_REST_AT_ORIGIN.angular_velocity;
        return Reached::Whole;
    }
    let Some([a, b, c, d, e, f]) =
        read_record::<6>(reader, VELOCITY_WIDTHS, VELOCITY_MAXES, |_| true)
    else {
        return Reached::Head;
    };
    object.linear_velocity = [a, b, c];
    object.angular_velocity = [d, e, f];
    Reached::Whole
}

/// `values` packed with constant shifts, first field lowest, and whether
/// each is at most its `maxes`.
#[inline(always)]
fn pack<const N: usize>(values: &[u32; N], widths: [u32; N], maxes: [u32; N]) -> (u128, bool) {
    let mut packed = 0u128;
    let mut shift = 0u32;
    let mut fits = true;
    for ((value, width), max) in values.iter().zip(widths).zip(maxes) {
        // 1 to 32 bits: the mask keeps the low `width`.
        let width = width.clamp(1, 32);
        let mask = u128::MAX
            .checked_shr(u128::BITS.wrapping_sub(width))
            .unwrap_or(0);
        fits &= *value <= max;
        packed |= (u128::from(*value) & mask) << (shift & 127);
        shift = shift.wrapping_add(width);
    }
    (packed, fits)
}

/// An object as two wide writes, as far as its fields are in range, the
/// quaternion valid and the room enough. Where `select`, a resting
/// object's velocities are written as zero bits, without a branch on the
/// flag, which a scene's mix of resting and moving objects makes a coin
/// toss; elsewhere the branch costs less: in runs of objects with nothing
/// between them, and on the stream's `BitWriter` (scenes A-D), where a
/// write of zero bits still pays for its room check and word test.
#[inline(always)]
fn write_object(writer: &mut impl WideWrite, object: &Object, select: bool) -> Reached {
    let [x, y, z] = object.position;
    let orientation = object.orientation;
    let [a, b, c] = orientation.codes.map(u32::from);
    let largest = u32::from(orientation.largest);
    if !orientation.is_valid() {
        return Reached::Nothing;
    }
    let head = [x, y, z, largest, a, b, c, u32::from(object.at_rest)];
    let (head, head_fits) = pack(&head, HEAD_WIDTHS, HEAD_MAXES);
    if !(head_fits && writer.put_wide(head, HEAD_BITS)) {
        return Reached::Nothing;
    }
    let moving = !object.at_rest;
    let [d, e, f] = object.linear_velocity;
    let [g, h, i] = object.angular_velocity;
    let velocities = [d, e, f, g, h, i];
    let written = if select {
        let (velocities, fit) = pack(&velocities, VELOCITY_WIDTHS, VELOCITY_MAXES);
        let velocities = velocities & 0u128.wrapping_sub(u128::from(moving));
        let bits = VELOCITY_BITS & 0u32.wrapping_sub(u32::from(moving));
        (fit | !moving) && writer.put_wide(velocities, bits)
    } else {
        !moving || {
            let (velocities, fit) = pack(&velocities, VELOCITY_WIDTHS, VELOCITY_MAXES);
            fit && writer.put_wide(velocities, VELOCITY_BITS)
        }
    };
    if written {
        Reached::Whole
    } else {
        Reached::Head
    }
}

/// A gap of a coded set from one window: looked up in `table`, or, for a
/// code longer than the table holds, its quotient's ones counted and the
/// rest looked up (`zero`, the lookup of a lone zero bit, where the
/// parameter is 1 and no remainder follows). `None`, with nothing
/// consumed, where the code is not whole in the window or the table, or
/// its gap is outside `1..=room`.
#[inline(always)]
fn read_gap(
    reader: &mut BitReader<'_>,
    table: &GolombTable,
    zero: Option<(u32, u32)>,
    room: u32,
) -> Option<u32> {
    let window = reader.window64()?;
    let (mut gap, mut bits) = match zero {
        Some(_) => (0, 0),
        None => table.decode(window),
    };
    if bits == 0 {
        let ones = window.trailing_ones();
        let (rest, rest_bits) = zero.unwrap_or_else(|| table.decode(window >> (ones & 63)));
        let quotient = u64::from(ones).wrapping_mul(u64::from(table.m()));
        let whole = quotient.wrapping_add(u64::from(rest));
        bits = ones.wrapping_add(rest_bits);
        if rest_bits == 0 || bits > BitReader::MAX_WIDE_BITS {
            return None;
        }
        gap = u32::try_from(whole).ok()?;
    }
    if gap.wrapping_sub(1) >= room {
        return None;
    }
    reader.advance(bits);
    Some(gap)
}

/// A gap in `1..=room` as one write: the table's code, or the code built
/// from [`code`] where it takes at most 64 bits; false, with nothing
/// written, otherwise.
#[inline(always)]
fn write_gap(writer: &mut impl WideWrite, table: &GolombTable, gap: u32, room: u32) -> bool {
    if !(1..=room).contains(&gap) {
        return false;
    }
    let (word, bits) = table.encode(gap);
    if bits != 0 {
        return writer.put(u64::from(word), bits);
    }
    match code(gap.wrapping_sub(1), table.m()).word() {
        Some((word, bits)) => writer.put(word, bits),
        None => false,
    }
}

/// Appends the slot at `index` and reads its object in place; false, with
/// the slot taken back and nothing consumed, where [`read_object`] does
/// not read it whole.
#[inline(always)]
pub(super) fn read_slot(reader: &mut BitReader<'_>, slots: &mut Vec<Slot>, index: u32) -> bool {
    let start = reader.bits_read();
    slots.push(Slot::at(index));
    let read = slots
        .last_mut()
        .is_some_and(|slot| read_object(reader, &mut slot.object) == Reached::Whole);
    if !read {
        reader.seek_back(start);
        slots.pop();
    }
    read
}

/// An object written whole ([`write_object`]), or nothing.
#[inline(always)]
pub(super) fn write_slot(writer: &mut StoringWriter<'_>, slot: &Slot, select: bool) -> bool {
    let mark = writer.state();
    let written = write_object(writer, &slot.object, select) == Reached::Whole;
    if !written {
        writer.rewind(mark);
    }
    written
}

/// The Golomb scene's subset on the concrete streams.
pub(super) struct GolombScene;

impl Shortcut<Slot> for GolombScene {
    #[inline(always)]
    fn read<S: Stream>(&self, stream: &mut S, slots: &mut Vec<Slot>, progress: &mut Progress) {
        stream.concrete(TOKEN, ReadAhead { slots, progress });
    }

    #[inline(always)]
    fn write_present<S: Stream>(
        &self,
        stream: &mut S,
        slots: &mut [Slot],
        progress: &mut WriteProgress,
    ) {
        let what = Ahead::Present(progress);
        stream.concrete(TOKEN, WriteAhead { slots, what });
    }

    #[inline(always)]
    fn write_run<S: Stream>(
        &self,
        stream: &mut S,
        slots: &mut [Slot],
        next: &mut usize,
        coded: u32,
    ) {
        let what = Ahead::Run { next, coded };
        stream.concrete(TOKEN, WriteAhead { slots, what });
    }

    #[inline(always)]
    fn write_gap<S: Stream>(
        &self,
        stream: &mut S,
        table: &'static GolombTable,
        gap: u32,
        room: u32,
    ) -> bool {
        let path = GapPath { table, gap, room };
        stream.concrete(TOKEN, path).unwrap_or(false)
    }
}

/// One gap of the Golomb scene's coded set, written as one code
/// ([`write_gap`]).
struct GapPath {
    table: &'static GolombTable,
    gap: u32,
    room: u32,
}

impl HotPath for GapPath {
    type Output = bool;

    #[inline(always)]
    fn read(self, _: &mut ReadStream<'_>) -> bool {
        false
    }

    #[inline(always)]
    fn write(self, stream: &mut WriteStream<'_>) -> bool {
        write_gap(stream.writer(), self.table, self.gap, self.room)
    }
}

/// The Golomb scene's gaps and objects read ahead ([`read_ahead`]).
struct ReadAhead<'p> {
    slots: &'p mut Vec<Slot>,
    progress: &'p mut Progress,
}

impl HotPath for ReadAhead<'_> {
    type Output = ();

    #[inline(always)]
    fn read(self, stream: &mut ReadStream<'_>) {
        let reader = stream.reader();
        let (slots, progress) = (self.slots, self.progress);
        match (progress.present, progress.table.m() == 1) {
            (true, true) => read_ahead::<true, true>(reader, slots, progress),
            (true, false) => read_ahead::<true, false>(reader, slots, progress),
            (false, true) => read_ahead::<false, true>(reader, slots, progress),
            (false, false) => read_ahead::<false, false>(reader, slots, progress),
        }
    }

    #[inline(always)]
    fn write(self, _: &mut WriteStream<'_>) {}
}

/// The Golomb scene's items written ahead on a [`StoringWriter`] kept in
/// registers, then handed back to the stream's writer.
struct WriteAhead<'p> {
    slots: &'p [Slot],
    what: Ahead<'p>,
}

/// What [`WriteAhead`] writes.
enum Ahead<'p> {
    /// The present set: each gap and its object, as far as [`write_gap`]
    /// and [`write_slot`] go.
    Present(&'p mut WriteProgress),
    /// A run of the absent set's present objects, those from
    /// `slots[*next]` on below `coded`, as far as [`write_slot`] goes.
    Run { next: &'p mut usize, coded: u32 },
}

impl HotPath for WriteAhead<'_> {
    type Output = ();

    #[inline(always)]
    fn read(self, _: &mut ReadStream<'_>) {}

    #[inline(always)]
    fn write(self, stream: &mut WriteStream<'_>) {
        let Some(mut writer) = stream.writer().storing() else {
            return;
        };
        match self.what {
            Ahead::Present(progress) => write_present(&mut writer, self.slots, progress),
            Ahead::Run { next, coded } => {
                while let Some(slot) = self.slots.get(*next).filter(|slot| slot.index() < coded) {
                    if !write_slot(&mut writer, slot, false) {
                        break;
                    }
                    *next = next.saturating_add(1);
                }
            }
        }
        let state = writer.state();
        stream.writer().catch_up(state);
    }
}

/// The present set's gaps and objects from `progress` on.
#[inline(always)]
fn write_present(writer: &mut StoringWriter<'_>, slots: &[Slot], progress: &mut WriteProgress) {
    let WriteProgress {
        table,
        size,
        mut written,
        mut next,
    } = *progress;
    for slot in slots.get(written..).unwrap_or_default() {
        let mark = writer.state();
        let gap = slot.index().wrapping_sub(next).wrapping_add(1);
        let room = size.wrapping_sub(next).saturating_add(1);
        if !(write_gap(writer, table, gap, room) && write_slot(writer, slot, true)) {
            writer.rewind(mark);
            break;
        }
        next = slot.index().wrapping_add(1);
        written = written.wrapping_add(1);
    }
    progress.written = written;
    progress.next = next;
}

/// Reads the coded set's gaps and objects (the present set where
/// `PRESENT`, else the absent set) on a copy of `reader` that stays in
/// registers, as far as [`read_gap`] and [`read_object`] go; then moves
/// `reader` and `progress` past what it read. One function per set and
/// per kind of code (`UNARY` where the parameter is 1), so that no loop
/// tests which it reads.
#[inline(always)]
fn read_ahead<const PRESENT: bool, const UNARY: bool>(
    reader: &mut BitReader<'_>,
    slots: &mut Vec<Slot>,
    progress: &mut Progress,
) {
    let mut ahead = reader.clone();
    let mut at = *progress;
    let table = at.table;
    // A unary code (m = 1) is counted faster than looked up.
    let zero = UNARY.then(|| table.decode(0));
    loop {
        if !PRESENT {
            if let Some((mut index, coded)) = at.run {
                // The run's objects in a loop of their own, whose state
                // is one index.
                while index < coded && read_slot(&mut ahead, slots, index) {
                    index = index.wrapping_add(1);
                }
                if index < coded {
                    at.run = Some((index, coded));
                    break;
                }
                at.run = None;
                at.finish(coded);
                if at.done {
                    break;
                }
                continue;
            }
        }
        let mark = ahead.bits_read();
        let Some(gap) = read_gap(&mut ahead, table, zero, at.room()) else {
            break;
        };
        // The gap is in 1..=room, so `coded` is in start..=size.
        let coded = at.start.wrapping_add(gap).wrapping_sub(1);
        if PRESENT {
            if coded != at.size && !read_slot(&mut ahead, slots, coded) {
                ahead.seek_back(mark);
                break;
            }
            at.finish(coded);
            if at.done {
                break;
            }
        } else {
            at.run = Some((at.start, coded));
        }
    }
    reader.seek_forward(ahead.bits_read());
    *progress = at;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::ops::golomb::serialize_golomb;
    use crate::Serialize;

    /// Objects at rest and moving, at the ends of their ranges.
    fn objects() -> Vec<Object> {
        let turned = [0.1, -0.7, 0.5, 0.5];
        vec![
            Object::AT_REST_AT_ORIGIN,
            Object::new([999.9, -1000.0, 0.0], turned, [0.0; 3], [0.0; 3]),
            Object::new(
                [-1000.0, 1000.0, 3.5],
                turned,
                [10.0, -10.0, 0.5],
                [20.0, -20.0, 1.0],
            ),
            Object::new(
                [1.0, 2.0, 3.0],
                [0.0, 0.0, 0.0, 1.0],
                [0.0, 0.01, 0.0],
                [0.0; 3],
            ),
        ]
    }

    /// The hot path is equal to the generic one (`tests/hot_paths.rs`), and
    /// it is taken: where the window holds an object, the object is read
    /// whole from it, as the generic code wrote it, and the reader moves
    /// past exactly its bits. A hot path that always declined would be
    /// equal to the generic code too, only slower.
    #[test]
    fn an_object_in_the_window_is_read_whole() {
        for object in objects() {
            let (buf, bits) = generic_bits(&object);
            let mut reader = BitReader::new(&buf);
            let mut read = Object {
                at_rest: !object.at_rest,
                ..Object::default()
            };
            assert_eq!(read_object(&mut reader, &mut read), Reached::Whole);
            assert_eq!((read, reader.bits_read()), (object, bits));
        }
    }

    /// Within the last sixteen bytes, where there is no window, an object
    /// that ends on the input's last bit is still read whole; one bit
    /// later, what no longer fits is declined: the head of an object at
    /// rest, the velocities of a moving one, with the reader left before
    /// them.
    #[test]
    fn an_object_at_the_end_of_the_input_is_read_as_far_as_it_fits() {
        for object in objects() {
            let (_, bits) = generic_bits(&object);
            // Bits before the object, so that it ends on a byte boundary.
            let lead = (8 - bits % 8) % 8;
            let len = usize::try_from((lead + bits) / 8).unwrap();
            // One bit later, a moving object's head still fits.
            let (late, late_bits) = if object.at_rest {
                (Reached::Nothing, 0)
            } else {
                (Reached::Head, u64::from(HEAD_BITS))
            };
            for (before, reached, stops) in [
                (lead, Reached::Whole, lead + bits),
                (lead + 1, late, lead + 1 + late_bits),
            ] {
                let (buf, _) = generic_bits_after(before as u32, &object);
                let mut reader = BitReader::new(&buf[..len]);
                reader.read_bits(before as u32).unwrap();
                let mut read = Object {
                    at_rest: !object.at_rest,
                    ..Object::default()
                };
                assert_eq!(read_object(&mut reader, &mut read), reached, "{object:?}");
                assert_eq!(reader.bits_read(), stops, "{object:?}");
                if reached == Reached::Whole {
                    assert_eq!(read, object);
                } else if reached == Reached::Head {
                    assert_eq!(
                        (read.position, read.orientation, read.at_rest),
                        (object.position, object.orientation, object.at_rest)
                    );
                }
            }
        }
    }

    /// The hot writer writes what the generic one writes, and declines
    /// what it refuses: a largest-component index past 3, which 2 bits
    /// would silently truncate.
    #[test]
    fn the_object_writer_declines_a_largest_index_past_3() {
        for object in objects() {
            let mut buf = [0u8; 64];
            let mut writer = crate::bits::BitWriter::new(&mut buf);
            assert_eq!(write_object(&mut writer, &object, false), Reached::Whole);
            let mut broken = object;
            broken.orientation.largest = 4;
            let mut buf = [0u8; 64];
            let mut writer = crate::bits::BitWriter::new(&mut buf);
            assert_eq!(write_object(&mut writer, &broken, false), Reached::Nothing);
        }
    }

    /// Likewise a gap whose code lies in the window: read from the table
    /// (or its long quotient counted), equal to the generic read.
    #[test]
    fn a_gap_in_the_window_is_read_from_the_table() {
        for m in [1, 2, 3, 8, 82, 128] {
            let table = GolombTable::new(m);
            let zero = (m == 1).then(|| table.decode(0));
            for gap in [1, 2, 5, 40, 200, 1000] {
                let mut buf = [0u8; 192];
                let mut stream = WriteStream::new(&mut buf);
                serialize_golomb(&mut stream, &mut { gap }, m, 1024).unwrap();
                let bits = stream.bit_offset();
                stream.finish();
                if bits > u64::from(BitReader::MAX_WIDE_BITS) {
                    continue;
                }
                let mut reader = BitReader::new(&buf);
                assert_eq!(
                    read_gap(&mut reader, &table, zero, 1024),
                    Some(gap),
                    "m {m}"
                );
                assert_eq!(reader.bits_read(), bits, "m {m} gap {gap}");
                let mut reader = BitReader::new(&buf);
                assert_eq!(read_gap(&mut reader, &table, zero, gap - 1), None);
                assert_eq!(reader.bits_read(), 0);
            }
        }
    }

    /// The bits the generic code writes for `object`.
    fn generic_bits(object: &Object) -> (Vec<u8>, u64) {
        generic_bits_after(0, object)
    }

    /// The same after `lead` zero bits, and the bits in all.
    fn generic_bits_after(lead: u32, object: &Object) -> (Vec<u8>, u64) {
        let mut buf = vec![0u8; 64];
        let mut stream = WriteStream::new(&mut buf);
        stream.serialize_bits(&mut 0, lead).unwrap();
        object.clone().serialize(&mut stream).unwrap();
        let bits = stream.bit_offset();
        stream.finish();
        (buf, bits)
    }

    /// The hot writer writes the generic writer's bits, branching on the
    /// at-rest flag or not, and reaches the end of every object.
    #[test]
    fn the_object_writer_writes_the_generic_bits() {
        for object in objects() {
            for select in [false, true] {
                let mut buf = vec![0u8; 64];
                let mut writer = crate::bits::BitWriter::new(&mut buf);
                assert_eq!(write_object(&mut writer, &object, select), Reached::Whole);
                let bits = writer.bits_written();
                writer.finish();
                assert_eq!((buf, bits), generic_bits(&object), "select {select}");
            }
        }
    }

    /// A gap in `1..=room` is written as the generic code's bits in one
    /// write; a gap outside is declined with nothing written.
    #[test]
    fn a_gap_is_written_as_one_code() {
        for m in [1, 2, 3, 8, 82, 128] {
            let table = GolombTable::new(m);
            for gap in [1, 2, 5, 40, 63, 200, 1000] {
                let mut expected = vec![0u8; 192];
                let mut stream = WriteStream::new(&mut expected);
                serialize_golomb(&mut stream, &mut { gap }, m, 1024).unwrap();
                let bits = stream.bit_offset();
                stream.finish();
                if bits > 64 {
                    continue;
                }
                let mut buf = vec![0u8; 192];
                let mut writer = crate::bits::BitWriter::new(&mut buf);
                assert!(write_gap(&mut writer, &table, gap, 1024), "m {m} gap {gap}");
                assert_eq!(writer.bits_written(), bits);
                writer.finish();
                assert_eq!(buf, expected, "m {m} gap {gap}");
                for (gap, room) in [(0, 1024), (gap + 1, gap)] {
                    let mut buf = vec![0u8; 192];
                    let mut writer = crate::bits::BitWriter::new(&mut buf);
                    assert!(!write_gap(&mut writer, &table, gap, room));
                    assert_eq!(writer.bits_written(), 0);
                }
            }
        }
    }

    /// A unary code as long as a wide read takes is read from the window;
    /// one bit longer, the window may not hold it, and the reader declines.
    #[test]
    fn a_code_of_the_widest_read_is_read_and_a_longer_one_declined() {
        let table = GolombTable::new(1);
        let zero = Some(table.decode(0));
        let widest = BitReader::MAX_WIDE_BITS;
        for (gap, read) in [(widest, true), (widest + 1, false)] {
            let mut buf = [0u8; 32];
            let mut stream = WriteStream::new(&mut buf);
            serialize_golomb(&mut stream, &mut { gap }, 1, 1024).unwrap();
            assert_eq!(stream.bit_offset(), u64::from(gap));
            stream.finish();
            let mut reader = BitReader::new(&buf);
            let expected = read.then_some(gap);
            assert_eq!(read_gap(&mut reader, &table, zero, 1024), expected);
            assert_eq!(reader.bits_read(), if read { u64::from(gap) } else { 0 });
        }
    }

    /// `n` slots spread over the scene, the last at its end, the objects
    /// of [`objects`] in turn.
    fn spread(n: u32) -> Vec<Slot> {
        let objects = objects();
        (0..n)
            .map(|i| Slot {
                index: ((i + 1) * 1024 / n - 1) as u16,
                object: objects[i as usize % objects.len()],
            })
            .collect()
    }

    /// `slots` as the Golomb scene codes them with the generic code, its
    /// best parameter first; with the bits written and that parameter's table.
    fn coded(slots: &[Slot]) -> (Vec<u8>, u64, u8, &'static GolombTable) {
        let mut parameter = crate::subset::golomb::best_parameter(slots, 1024);
        let mut buf = vec![0u8; 32768];
        let mut stream = WriteStream::new(&mut buf);
        crate::subset::golomb::golomb_with(&mut stream, &mut slots.to_vec(), 1024, &mut parameter)
            .unwrap();
        let bits = stream.bit_offset();
        stream.finish();
        let (_, m) = crate::subset::GOLOMB_PARAMETERS[usize::from(parameter)];
        let table: &'static GolombTable = Box::leak(Box::new(GolombTable::new(m)));
        (buf, bits, parameter, table)
    }

    fn present(parameter: u8) -> bool {
        crate::subset::GOLOMB_PARAMETERS[usize::from(parameter)].0
            == crate::subset::CodedSet::Present
    }

    /// The Golomb scene's reader, with the input running on past the set,
    /// reads the whole set ahead, sparse or dense, to the sentinel, and leaves the
    /// stream where the generic code would.
    #[test]
    fn scene_e_reads_ahead_to_the_sentinel() {
        for n in [0, 1, 30, 200, 700, 1000, 1023, 1024] {
            let slots = spread(n);
            let (buf, bits, parameter, table) = coded(&slots);
            let mut stream = ReadStream::new(&buf);
            let mut wire = 0;
            stream.serialize_bits(&mut wire, 4).unwrap();
            assert_eq!(wire, u32::from(parameter));
            let mut progress = Progress {
                table,
                size: 1024,
                present: present(parameter),
                start: 0,
                run: None,
                done: false,
            };
            let mut read = Vec::new();
            GolombScene.read(&mut stream, &mut read, &mut progress);
            assert!(progress.done, "{n} slots");
            assert_eq!((read, stream.bit_offset()), (slots, bits), "{n} slots");
        }
    }

    /// The Golomb scene's writer writes a present set's gaps and objects
    /// ahead, all of them when the buffer has room, as the generic code does.
    #[test]
    fn scene_e_writes_a_present_set_ahead() {
        for n in [1, 30, 200] {
            let mut slots = spread(n);
            let (expected, bits, parameter, table) = coded(&slots);
            assert!(present(parameter), "{n} slots");
            let mut buf = vec![0u8; 32768];
            let mut stream = WriteStream::new(&mut buf);
            stream.serialize_bits(&mut u32::from(parameter), 4).unwrap();
            let mut progress = WriteProgress {
                table,
                size: 1024,
                written: 0,
                next: 0,
            };
            GolombScene.write_present(&mut stream, &mut slots, &mut progress);
            assert_eq!((progress.written, progress.next), (n as usize, 1024));
            let mut sentinel = 1;
            serialize_golomb(&mut stream, &mut sentinel, table.m(), 1).unwrap();
            assert_eq!(stream.bit_offset(), bits);
            stream.finish();
            assert_eq!(buf, expected, "{n} slots");
        }
    }

    /// The Golomb scene's writer writes a run of the absent set's objects
    /// ahead, up to the coded index that ends it; a gap, as one code.
    #[test]
    fn scene_e_writes_a_run_and_a_gap_ahead() {
        let mut slots = spread(1000);
        let coded = (0..1024u32)
            .find(|&i| slots.iter().all(|s| s.index() != i))
            .unwrap();
        let mut buf = vec![0u8; 32768];
        let mut stream = WriteStream::new(&mut buf);
        let mut next = 0;
        GolombScene.write_run(&mut stream, &mut slots, &mut next, coded);
        assert_eq!(next, coded as usize);
        let objects: u64 = slots[..next]
            .iter()
            .map(|s| generic_bits(&s.object).1)
            .sum();
        assert_eq!(stream.bit_offset(), objects);

        let table: &'static GolombTable = Box::leak(Box::new(GolombTable::new(8)));
        assert!(GolombScene.write_gap(&mut stream, table, 12, 1024));
        assert_eq!(stream.bit_offset(), objects + 5);
        // A reader has no gap to write.
        let mut reader = ReadStream::new(&buf);
        assert!(!GolombScene.write_gap(&mut reader, table, 12, 1024));
    }
}
