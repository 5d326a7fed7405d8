//! Golomb-coded subsets (the Golomb scene's code): the indices entropy-coded, after
//! the *sparse array* article's advice to replace the hand-built ladder
//! with a real code. Scene E is this code over 1024 slots.
//!
//! # Code, version 1
//!
//! The gaps between present indices are close to geometric at any density,
//! and Golomb codes are the optimal prefix codes for geometric sources. Above
//! half density the absent indices are the sparse set, so a packet may code
//! those instead. So:
//!
//! 1. `parameter int[0, 15]`: an entry of [`GOLOMB_PARAMETERS`], a coded set
//!    (present or absent indices) and a Golomb parameter `m`. The writer
//!    picks the entry that makes the packet's index part shortest (ties go to
//!    the lower entry); the packet keeps it, so a decoded packet re-encodes to
//!    the same bits.
//! 2. For each index of the coded set in order, then for the sentinel `size`:
//!    `v = gap - 1` (the gap from the previous coded index, starting from -1)
//!    as a Golomb code: `v / m` one-bits and a zero-bit, then `v % m` in
//!    truncated binary (`b = bits_required(0, m - 1)`, `u = 2^b - m`; a
//!    remainder below `u` takes `b - 1` bits, any other `r` is sent as
//!    `(r + u) >> 1` in `b - 1` bits then `(r + u) & 1` in one bit; `m = 1`
//!    sends no remainder).
//! 3. Objects follow in index order: when present indices are coded, each
//!    object right after its gap; when absent indices are coded, after each
//!    gap the objects of every index strictly between the previous coded
//!    index and this one.
//!
//! Every bit pattern decodes to at most one gap sequence, and every gap
//! sequence encodes to exactly one pattern, so a reader that refuses indices
//! above the sentinel accepts only canonical packets. The unary part is
//! bounded: a reader refuses as soon as the gap would pass the sentinel.

use super::code_length::{CodeLength, Rows, Totals, MAX_EXACT_PARAMETER};
use super::{check_items, payload, read_item, read_vec, Indexed};
use crate::error::DecodeError;
use crate::role::Role;
use crate::stream::ops::golomb::{serialize_golomb, GolombTable};
use crate::stream::ops::int::bits_for_span;
use crate::stream::Stream;

/// Which indices a Golomb-coded subset codes as gaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodedSet {
    /// The indices of the objects sent.
    Present,
    /// The indices of the objects not sent (every other index is sent).
    Absent,
}

/// The entries a packet can choose from. Present sets cover densities from
/// 50 % (`m = 1`) down to about 0.7 % (`m = 100`), roughly geometrically;
/// absent sets cover the dense end, up to every object sent. Fixed by
/// version 1 of the code.
pub const GOLOMB_PARAMETERS: [(CodedSet, u32); 16] = [
    (CodedSet::Present, 1),
    (CodedSet::Present, 2),
    (CodedSet::Present, 3),
    (CodedSet::Present, 4),
    (CodedSet::Present, 6),
    (CodedSet::Present, 8),
    (CodedSet::Present, 11),
    (CodedSet::Present, 15),
    (CodedSet::Present, 21),
    (CodedSet::Present, 29),
    (CodedSet::Present, 41),
    (CodedSet::Present, 58),
    (CodedSet::Present, 82),
    (CodedSet::Absent, 2),
    (CodedSet::Absent, 8),
    (CodedSet::Absent, 128),
];

/// The highest parameter index.
const LAST_PARAMETER: i32 = GOLOMB_PARAMETERS.len() as i32 - 1;

/// The parameter that codes `items`' indices in the fewest bits (ties go
/// to the lower entry): what a sender calls on each new set before
/// encoding it.
///
/// At most one coded set is counted, in one pass that totals each of its
/// entries. Entry 0 (the present set, `m = 1`) sends each present gap `g`
/// as `g` bits, and valid items' gaps add up to `size + 1`, so it costs
/// exactly `size + 1` bits; every other entry spends at least 2 bits on a
/// gap (`m >= 2`; `obligations.rs` holds the table to both). A set of `n` gaps can therefore beat entry 0 only
/// where `2n < size + 1`, and since the two sets' gap counts add up to
/// `size + 2`, at most one set can: that one is counted, and at half
/// density neither is and entry 0 wins. (Broken items, which a writer
/// refuses, get some parameter.)
#[must_use]
pub fn best_parameter<T: Indexed>(items: &[T], size: u32) -> u8 {
    let present_gaps = items.len().saturating_add(1);
    let absent_gaps = (size as usize)
        .saturating_add(1)
        .saturating_sub(items.len());
    let unary = u64::from(size).saturating_add(1);
    let may_beat_unary = |gaps: usize| may_beat(gaps, unary);
    let first_least = |totals: &[u32]| {
        let least = totals.iter().copied().min().unwrap_or(u32::MAX);
        let at = totals.iter().position(|&t| t == least).unwrap_or(0);
        (at, least)
    };
    if may_beat_unary(present_gaps) {
        // Entry 0 is among the present totals.
        return first_least(&count_present(items, size)).0 as u8;
    }
    if !may_beat_unary(absent_gaps) {
        return 0;
    }
    // An absent entry must beat entry 0 strictly: entry 0 comes first.
    let (at, least) = first_least(&count_absent(items, size));
    if u64::from(least) < unary {
        PRESENT_ENTRIES.wrapping_add(at) as u8
    } else {
        0
    }
}

/// Whether a coded set of `gaps` gaps may cost fewer than `unary` bits
/// under some entry but entry 0: each of them spends at least 2 bits a gap.
#[inline(always)]
fn may_beat(gaps: usize, unary: u64) -> bool {
    (gaps as u64).saturating_mul(2) < unary
}

/// Bits the index part costs with `parameter`: the parameter field and
/// every gap, the sentinel's included.
#[must_use]
pub fn index_bits<T: Indexed>(items: &[T], size: u32, parameter: u8) -> u64 {
    let (set, _) = entry(i32::from(parameter));
    let length = CODE_LENGTHS
        .get(usize::from(parameter))
        .copied()
        .unwrap_or(CodeLength::new(1));
    let mut total = u64::from(bits_for_span(LAST_PARAMETER as u32));
    each_gap(items, size, set, |gap, times| {
        let bits = u64::from(length.bits(gap.wrapping_sub(1)));
        total = total.saturating_add(bits.saturating_mul(u64::from(times)));
    });
    total
}

/// The coded set and Golomb parameter of a parameter field value.
fn entry(parameter: i32) -> (CodedSet, u32) {
    usize::try_from(parameter)
        .ok()
        .and_then(|p| GOLOMB_PARAMETERS.get(p))
        .copied()
        .unwrap_or((CodedSet::Present, 1))
}

/// The decoding table of each entry of [`GOLOMB_PARAMETERS`] (8 KiB an
/// entry, computed by the compiler).
// Evaluated by the compiler: an index out of bounds would fail the build,
// never a run.
#[allow(clippy::indexing_slicing)]
static GOLOMB_TABLES: [GolombTable; GOLOMB_PARAMETERS.len()] = {
    let mut tables = [const { GolombTable::new(1) }; GOLOMB_PARAMETERS.len()];
    let mut p = 0;
    while p < GOLOMB_PARAMETERS.len() {
        tables[p] = GolombTable::new(GOLOMB_PARAMETERS[p].1);
        p = p.wrapping_add(1);
    }
    tables
};

/// The decoding table of a parameter field value, which [`entry`]'s
/// parameter matches (a value past the entries, which no reader passes on,
/// gets `m = 1`'s, as in [`entry`]).
fn table_of_entry(parameter: i32) -> &'static GolombTable {
    const UNARY: &GolombTable = &GolombTable::new(1);
    usize::try_from(parameter)
        .ok()
        .and_then(|p| GOLOMB_TABLES.get(p))
        .unwrap_or(UNARY)
}

/// The bits of the present set's gaps under each present entry.
#[inline(always)]
pub(super) fn count_present<T: Indexed>(items: &[T], size: u32) -> [u32; PRESENT_ENTRIES] {
    let all = count_entries(items, size, CodedSet::Present);
    std::array::from_fn(|lane| all.get(lane).copied().unwrap_or(u32::MAX))
}

/// The bits of the absent set's gaps under each absent entry.
#[inline(always)]
pub(super) fn count_absent<T: Indexed>(items: &[T], size: u32) -> [u32; ABSENT_ENTRIES] {
    let all = count_entries(items, size, CodedSet::Absent);
    std::array::from_fn(|lane| {
        all.get(PRESENT_ENTRIES.wrapping_add(lane))
            .copied()
            .unwrap_or(u32::MAX)
    })
}

/// The bits of the gaps of `set` under every entry's parameter, counted
/// in one pass: each gap adds its row of [`CODE_ROWS`] (only the entries
/// of `set` mean anything).
#[inline(always)]
fn count_entries<T: Indexed>(
    items: &[T],
    size: u32,
    set: CodedSet,
) -> [u32; GOLOMB_PARAMETERS.len()] {
    let mut totals = Totals::new();
    let mut slow = [0u32; GOLOMB_PARAMETERS.len()];
    match set {
        // The sparse scenes' set, walked here rather than by `each_gap`,
        // whose five calls of its closure keep that out of line: here the
        // totals stay in registers from gap to gap.
        CodedSet::Present => {
            let mut next = 0u32;
            for item in items {
                let index = item.index();
                let gap = index.wrapping_sub(next).wrapping_add(1);
                add_gap(&mut totals, &mut slow, gap, 1);
                next = index.wrapping_add(1);
            }
            let sentinel = size.wrapping_sub(next).wrapping_add(1);
            add_gap(&mut totals, &mut slow, sentinel, 1);
        }
        CodedSet::Absent => each_gap(items, size, set, |gap, times| {
            add_gap(&mut totals, &mut slow, gap, times);
        }),
    }
    let mut totals = totals.finish();
    for (total, slow) in totals.iter_mut().zip(slow) {
        *total = total.saturating_add(slow);
    }
    totals
}

/// Adds `times` gaps of `gap` to every entry's total: its row of
/// [`CODE_ROWS`], or, past the rows, its lengths computed into `slow`.
#[inline(always)]
fn add_gap(
    totals: &mut Totals<{ GOLOMB_PARAMETERS.len() }>,
    slow: &mut [u32; GOLOMB_PARAMETERS.len()],
    gap: u32,
    times: u32,
) {
    let v = gap.wrapping_sub(1);
    match CODE_ROWS.row(v) {
        Some(row) if times == 1 => totals.add(row),
        Some(row) => totals.add_times(row, times),
        None => {
            // Only sets over more than 1024 slots, or with broken indices,
            // get here.
            for (total, length) in slow.iter_mut().zip(&CODE_LENGTHS) {
                *total = total.saturating_add(length.bits(v).saturating_mul(times));
            }
        }
    }
}

/// Calls `each(gap, times)` for the gaps between `set`'s coded indices, in
/// order, from -1 to the sentinel `size` (whose gap comes last): `times`
/// equal gaps in a row. The absent indices between two items come as one
/// gap and a run of gaps of 1, so either set costs one walk of the items,
/// however many indices are absent. Items that break the subset's rules
/// give some gaps, never a panic; a writer refuses them anyway.
#[inline(always)]
fn each_gap<T: Indexed>(items: &[T], size: u32, set: CodedSet, mut each: impl FnMut(u32, u32)) {
    // The previous coded index plus one.
    let mut next = 0u32;
    match set {
        CodedSet::Present => {
            for item in items {
                let index = item.index();
                each(index.wrapping_sub(next).wrapping_add(1), 1);
                next = index.wrapping_add(1);
            }
        }
        CodedSet::Absent => {
            // The absent indices `cursor..end` form a run: its first gap
            // from `next`, then gaps of 1.
            let mut absent_run = |cursor: u32, end: u32, next: &mut u32| {
                if cursor < end {
                    each(cursor.wrapping_sub(*next).wrapping_add(1), 1);
                    let rest = end.wrapping_sub(cursor).wrapping_sub(1);
                    if rest > 0 {
                        each(1, rest);
                    }
                    *next = end;
                }
            };
            // The first index no item has yet been seen to hold.
            let mut cursor = 0u32;
            for item in items {
                let index = item.index().min(size);
                absent_run(cursor, index, &mut next);
                cursor = cursor.max(index.saturating_add(1));
            }
            absent_run(cursor, size, &mut next);
        }
    }
    each(size.wrapping_sub(next).wrapping_add(1), 1);
}

/// The absent index after `previous` (the sentinel `size` when none is
/// left), where `items[next..]` are the items not yet written: the next
/// index no item holds. (The present set's writer walks its items
/// directly, in `write_present`.)
fn next_absent<T: Indexed>(items: &[T], next: usize, previous: i64, size: u32) -> u32 {
    let mut candidate = u32::try_from(previous.saturating_add(1)).unwrap_or(0);
    let mut held = items.get(next..).unwrap_or_default().iter();
    while candidate < size && held.next().is_some_and(|item| item.index() == candidate) {
        candidate = candidate.saturating_add(1);
    }
    candidate.min(size)
}

/// Entries `0..PRESENT_ENTRIES` code the present set, the rest the absent
/// set (the split is checked when the crate is built, the order by a test
/// in `obligations.rs`).
const PRESENT_ENTRIES: usize = 13;
const ABSENT_ENTRIES: usize = 3;
const _: () = assert!(PRESENT_ENTRIES + ABSENT_ENTRIES == GOLOMB_PARAMETERS.len());

/// Every entry's code length of every value a set of 1024 slots has, a
/// row per value (32 KiB, computed by the compiler).
static CODE_ROWS: Rows<{ GOLOMB_PARAMETERS.len() }> = Rows::new(&CODE_LENGTHS);

/// The code length of every entry of [`GOLOMB_PARAMETERS`].
// Evaluated by the compiler: an index out of bounds would fail the build,
// never a run.
#[allow(clippy::indexing_slicing)]
const CODE_LENGTHS: [CodeLength; GOLOMB_PARAMETERS.len()] = {
    let mut lengths = [CodeLength::new(1); GOLOMB_PARAMETERS.len()];
    let mut p = 0;
    while p < GOLOMB_PARAMETERS.len() {
        assert!(GOLOMB_PARAMETERS[p].1 <= MAX_EXACT_PARAMETER);
        lengths[p] = CodeLength::new(GOLOMB_PARAMETERS[p].1);
        p = p.wrapping_add(1);
    }
    lengths
};

/// A faster way through some of a Golomb-coded subset's gaps and items,
/// on the concrete streams (the Golomb scene's, `crate::protocols::scenes::hot`).
/// The generic loops below hand it the stream where they stand; it reads
/// or writes as far as it can, moves the stream past that, and the loops
/// go on from there, reading, writing or refusing as they always do. It
/// never refuses: where it is unsure, it stops. `()` takes no shortcut.
pub(crate) trait Shortcut<T> {
    /// Reads the gaps and items that follow `progress` into `items`, and
    /// moves `progress` past them.
    #[inline(always)]
    fn read<S: Stream>(&self, _stream: &mut S, _items: &mut Vec<T>, _progress: &mut Progress) {}

    /// Writes the present set's gaps and items from
    /// `items[progress.written]` on, and moves `progress` past them.
    #[inline(always)]
    fn write_present<S: Stream>(
        &self,
        _stream: &mut S,
        _items: &mut [T],
        _progress: &mut WriteProgress,
    ) {
    }

    /// Writes the items from `items[*next]` on whose index is below
    /// `coded` (a run of the absent set's present items), and moves
    /// `*next` past them.
    #[inline(always)]
    fn write_run<S: Stream>(
        &self,
        _stream: &mut S,
        _items: &mut [T],
        _next: &mut usize,
        _coded: u32,
    ) {
    }

    /// Writes one gap in `1..=room` with `table`'s code and returns true;
    /// false, with nothing written, where it takes no shortcut.
    #[inline(always)]
    fn write_gap<S: Stream>(
        &self,
        _stream: &mut S,
        _table: &'static GolombTable,
        _gap: u32,
        _room: u32,
    ) -> bool {
        false
    }
}

/// A gap in `1..=room`: by `shortcut` where it takes it, else by
/// [`serialize_golomb`], which also refuses a gap outside the room.
#[inline(always)]
fn write_gap<S: Stream, T>(
    stream: &mut S,
    shortcut: &impl Shortcut<T>,
    table: &'static GolombTable,
    gap: &mut u32,
    room: u32,
) -> Result<(), S::Error> {
    if shortcut.write_gap(stream, table, *gap, room) {
        return Ok(());
    }
    serialize_golomb(stream, gap, table.m(), room)
}

impl<T> Shortcut<T> for () {}

/// A Golomb-coded subset with the parameter `parameter` (an index into
/// [`GOLOMB_PARAMETERS`]) as its first field. A writer writes the parameter
/// it is given; a reader accepts any and returns it, so a decoded packet
/// that keeps its parameter re-encodes to the same bits.
pub fn golomb_with<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    size: u32,
    parameter: &mut u8,
) -> Result<(), S::Error> {
    golomb_with_shortcut(stream, items, size, parameter, Role::Parameter, &())
}

/// [`golomb_with`], taking `shortcut` where it goes; the parameter field
/// gets `role`, which says whether the packet keeps it or it must be the
/// best.
#[inline(always)]
pub(crate) fn golomb_with_shortcut<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    size: u32,
    parameter: &mut u8,
    role: Role,
    shortcut: &impl Shortcut<T>,
) -> Result<(), S::Error> {
    let mut wire = i32::from(*parameter);
    stream.field_name("parameter");
    stream.field_role(role);
    stream.serialize_int(&mut wire, 0, LAST_PARAMETER)?;
    let (set, _) = entry(wire);
    let table = table_of_entry(wire);

    if S::IS_WRITING {
        check_items(stream, items, size)?;
        if set == CodedSet::Present {
            return write_present(stream, items, size, table, shortcut);
        }
        // The absent set. `next` is the first item not yet written; the
        // coded indices are walked without a second borrow of the items.
        let mut next = 0usize;
        let mut previous = -1i64;
        loop {
            let coded = next_absent(items, next, previous, size);
            if coded == size {
                stream.field_name("sentinel");
                stream.field_role(Role::Sentinel);
            } else {
                stream.field_name("gap");
                stream.field_role(Role::Gap);
            }
            let mut gap =
                u32::try_from(i64::from(coded).saturating_sub(previous)).unwrap_or(u32::MAX);
            // The largest gap that stays at or below the sentinel.
            let room = u32::try_from(i64::from(size).saturating_sub(previous)).unwrap_or(u32::MAX);
            write_gap(stream, shortcut, table, &mut gap, room)?;
            // The items strictly between the previous coded index and
            // this one (the present set went to `write_present`).
            next = write_items_below(stream, items, next, coded, shortcut)?;
            if coded == size {
                return Ok(());
            }
            previous = i64::from(coded);
        }
    }

    let mut read: Vec<T> = read_vec(stream, size);
    let mut progress = Progress {
        table,
        size,
        present: set == CodedSet::Present,
        start: 0,
        run: None,
        done: false,
    };
    while !progress.done {
        shortcut.read(stream, &mut read, &mut progress);
        if progress.done {
            break;
        }
        progress = read_step(stream, &mut read, progress)?;
    }
    *parameter = wire as u8;
    *items = read;
    Ok(())
}

/// How far a reader is through a Golomb-coded subset, and what it reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Progress {
    /// The coded set's parameter.
    pub(crate) table: &'static GolombTable,
    /// The subset's size: the sentinel.
    pub(crate) size: u32,
    /// Whether the present set is coded (else the absent set).
    pub(crate) present: bool,
    /// The previous coded index plus one (0 before the first), so at most
    /// `size`.
    pub(crate) start: u32,
    /// For the absent set, after a gap: the next item's index and the
    /// coded index that ends the run of items.
    pub(crate) run: Option<(u32, u32)>,
    /// The sentinel's gap is read, and its items.
    pub(crate) done: bool,
}

impl Progress {
    /// The largest gap that stays at or below the sentinel.
    #[inline(always)]
    pub(crate) const fn room(&self) -> u32 {
        self.size.wrapping_sub(self.start).saturating_add(1)
    }

    /// Past the coded index `coded`: done at the sentinel.
    #[inline(always)]
    pub(crate) fn finish(&mut self, coded: u32) {
        self.start = coded.wrapping_add(1);
        self.done = coded == self.size;
    }
}

/// Reads the next gap, with its item for the present set, or the next
/// item of an absent run, and returns how far that got: a step that
/// returned no progress would leave the reader looping, so it has none to
/// return but the one it made.
#[inline(always)]
fn read_step<S: Stream, T: Indexed>(
    stream: &mut S,
    read: &mut Vec<T>,
    mut progress: Progress,
) -> Result<Progress, S::Error> {
    if let Some((index, coded)) = progress.run {
        if index < coded {
            read_item(stream, read, index)?;
            progress.run = Some((index.wrapping_add(1), coded));
        } else {
            progress.run = None;
            progress.finish(coded);
        }
        return Ok(progress);
    }
    let mut gap = 0;
    stream.field_name("gap");
    stream.field_role(Role::Gap);
    let start = progress.start;
    serialize_golomb(stream, &mut gap, progress.table.m(), progress.room())?;
    // The gap is in 1..=room, so `coded` is in start..=size.
    let coded = start.wrapping_add(gap).wrapping_sub(1);
    if progress.present {
        if coded != progress.size {
            read_item(stream, read, coded)?;
        }
        progress.finish(coded);
    } else {
        progress.run = Some((start, coded));
    }
    Ok(progress)
}

/// How far a writer is through the present set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WriteProgress {
    /// The coded set's parameter.
    pub(crate) table: &'static GolombTable,
    /// The subset's size: the sentinel.
    pub(crate) size: u32,
    /// Items written.
    pub(crate) written: usize,
    /// The previous coded index plus one.
    pub(crate) next: u32,
}

/// The present set's gaps, each followed by its item, then the sentinel's
/// gap: what the general loop of [`golomb_with`] writes for that set, one
/// item per gap, without finding the next coded index each time.
#[inline(always)]
fn write_present<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut [T],
    size: u32,
    table: &'static GolombTable,
    shortcut: &impl Shortcut<T>,
) -> Result<(), S::Error> {
    // The items are checked: strictly increasing and below `size`, so
    // every gap is in 1..=room.
    let mut progress = WriteProgress {
        table,
        size,
        written: 0,
        next: 0,
    };
    loop {
        shortcut.write_present(stream, items, &mut progress);
        let Some(item) = items.get_mut(progress.written) else {
            break;
        };
        let mut gap = item.index().wrapping_sub(progress.next).wrapping_add(1);
        let room = size.wrapping_sub(progress.next).saturating_add(1);
        stream.field_name("gap");
        stream.field_role(Role::Gap);
        write_gap(stream, shortcut, table, &mut gap, room)?;
        payload(stream, item)?;
        progress.next = item.index().wrapping_add(1);
        progress.written = progress.written.wrapping_add(1);
    }
    let mut gap = size.wrapping_sub(progress.next).wrapping_add(1);
    let room = gap;
    stream.field_name("sentinel");
    stream.field_role(Role::Sentinel);
    write_gap(stream, shortcut, table, &mut gap, room)
}

/// The items from `items[next]` on whose index is below `coded` (a run of
/// the absent set's present items). Returns the first item not written.
#[inline(always)]
fn write_items_below<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut [T],
    mut next: usize,
    coded: u32,
    shortcut: &impl Shortcut<T>,
) -> Result<usize, S::Error> {
    loop {
        shortcut.write_run(stream, items, &mut next, coded);
        let Some(item) = items.get_mut(next).filter(|item| item.index() < coded) else {
            return Ok(next);
        };
        payload(stream, item)?;
        next = next.saturating_add(1);
    }
}

/// A Golomb-coded subset whose parameter is always the best one for its
/// items ([`best_parameter`]): the writer chooses it, and a reader refuses
/// any other ([`DecodeError::NonCanonical`], at the parameter field), so a
/// set of items has exactly one encoding and nothing needs to keep the
/// parameter.
pub fn golomb<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    size: u32,
) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    let mut parameter = if S::IS_WRITING {
        best_parameter(items, size)
    } else {
        0
    };
    golomb_with_shortcut(
        stream,
        items,
        size,
        &mut parameter,
        Role::BestParameter,
        &(),
    )?;
    if S::IS_READING && parameter != best_parameter(items, size) {
        return Err(stream.refuse(DecodeError::NonCanonical { at }));
    }
    Ok(())
}
