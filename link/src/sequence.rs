//! Sequence numbers that wrap at 16 bits, and the fixed-size buffers they
//! index: what was sent, what arrived, what is being reassembled.

/// Whether `a` is newer than `b`: ahead of it by less than half the range,
/// or by exactly half when `a` is the larger number (the reference's rule,
/// so that both ends agree at the boundary).
#[must_use]
pub const fn newer(a: u16, b: u16) -> bool {
    let ahead = a.wrapping_sub(b);
    ahead != 0 && (ahead < 32768 || (ahead == 32768 && a > b))
}

/// One slot: the sequence it holds, if any, and its value. A removed
/// slot keeps its value, so that a buffer it owns is reused, not freed.
#[derive(Debug)]
struct Slot<T> {
    sequence: Option<u16>,
    value: T,
}

/// A ring of `len` slots that remembers the newest sequence inserted: a
/// sequence more than `len` older than it is stale. Consecutive sequences
/// take consecutive slots, across the wrap too: where `len` divides 65,536
/// a sequence's slot is `sequence % len`, as in the reference; where it
/// does not, `sequence % len` would give 65,535 and 0 one slot (so a
/// packet received just before the wrap would be forgotten, and taken
/// twice), and the slots instead count on from where the window is. Every
/// slot is allocated when the buffer is made.
#[derive(Debug)]
pub struct SequenceBuffer<T> {
    /// One past the newest sequence inserted or advanced to.
    next: u16,
    /// The slot of `next`.
    next_slot: usize,
    /// `len - 1` when the length is a power of two (the defaults are), so
    /// that a slot is found with a mask rather than a division.
    mask: Option<usize>,
    slots: Vec<Slot<T>>,
    /// The `ModuloSlots` fault: a slot is `sequence % len`, whatever `len`.
    #[cfg(feature = "faults")]
    modulo: bool,
}

impl<T: Default> SequenceBuffer<T> {
    /// `len` slots (at least one), all empty.
    #[must_use]
    pub fn new(len: u16) -> Self {
        let len = len.max(1);
        Self {
            next: 0,
            next_slot: 0,
            mask: len
                .is_power_of_two()
                .then(|| usize::from(len).saturating_sub(1)),
            slots: (0..len)
                .map(|_| Slot {
                    sequence: None,
                    value: T::default(),
                })
                .collect(),
            #[cfg(feature = "faults")]
            modulo: false,
        }
    }
}

impl<T> SequenceBuffer<T> {
    /// The bytes a buffer of `len` slots owns, besides what its values
    /// point to.
    #[must_use]
    pub const fn bytes_for(len: u16) -> usize {
        let len = if len == 0 { 1 } else { len as usize };
        len.saturating_mul(std::mem::size_of::<Slot<T>>())
    }

    fn index(&self, sequence: u16) -> usize {
        #[cfg(feature = "faults")]
        if self.modulo {
            return usize::from(sequence)
                .checked_rem(self.slots.len())
                .unwrap_or(0);
        }
        match self.mask {
            Some(mask) => usize::from(sequence) & mask,
            None => {
                // Ahead of `next` by less than half the range, or behind it.
                let len = self.slots.len();
                let rem = |n: usize| n.checked_rem(len).unwrap_or(0);
                let ahead = usize::from(sequence.wrapping_sub(self.next));
                let behind = usize::from(self.next.wrapping_sub(sequence));
                let slot = if ahead < 32_768 {
                    self.next_slot.saturating_add(rem(ahead))
                } else {
                    self.next_slot
                        .saturating_add(len.saturating_sub(rem(behind)))
                };
                rem(slot)
            }
        }
    }

    /// Makes `sequence` the next one expected, its slot found from the
    /// window's move.
    fn move_next(&mut self, sequence: u16) {
        self.next_slot = self.index(sequence);
        self.next = sequence;
    }

    fn len16(&self) -> u16 {
        u16::try_from(self.slots.len()).unwrap_or(u16::MAX)
    }

    /// One past the newest sequence inserted or advanced to.
    #[must_use]
    pub const fn next(&self) -> u16 {
        self.next
    }

    /// Empties the buffer and makes `sequence` the next one expected.
    pub fn start_at(&mut self, sequence: u16) {
        for slot in &mut self.slots {
            slot.sequence = None;
        }
        self.next = sequence;
        self.next_slot = usize::from(sequence)
            .checked_rem(self.slots.len())
            .unwrap_or(0);
    }

    /// Whether `sequence` is older than the window: more than the buffer's
    /// length behind the newest.
    #[must_use]
    pub fn is_stale(&self, sequence: u16) -> bool {
        newer(self.next.wrapping_sub(self.len16()), sequence)
    }

    /// Moves the window so that `sequence` is the newest, emptying the
    /// slots it passes over; nothing when it is not newer.
    pub fn advance(&mut self, sequence: u16) {
        if !newer(sequence.wrapping_add(1), self.next) {
            return;
        }
        let passed = usize::from(sequence.wrapping_sub(self.next)).saturating_add(1);
        if passed < self.slots.len() {
            for step in 0..passed {
                let at = self.index(self.next.wrapping_add(step as u16));
                if let Some(slot) = self.slots.get_mut(at) {
                    slot.sequence = None;
                }
            }
        } else {
            for slot in &mut self.slots {
                slot.sequence = None;
            }
        }
        self.move_next(sequence.wrapping_add(1));
    }

    /// Moves the window as [`SequenceBuffer::advance`] does, but empties no
    /// slot: the `WrapKeepsWindow` fault's move.
    #[cfg(feature = "faults")]
    pub(crate) fn advance_keeping(&mut self, sequence: u16) {
        if newer(sequence.wrapping_add(1), self.next) {
            self.move_next(sequence.wrapping_add(1));
        }
    }

    /// Finds slots by `sequence % len` from here on: the `ModuloSlots`
    /// fault's buffer.
    #[cfg(feature = "faults")]
    pub(crate) fn use_modulo_slots(&mut self) {
        self.modulo = true;
    }

    /// The slot for `sequence`, marked as holding it, with whatever value
    /// it held before (the caller resets what it needs); `None` when
    /// `sequence` is stale.
    pub fn insert(&mut self, sequence: u16) -> Option<&mut T> {
        if self.is_stale(sequence) {
            return None;
        }
        self.advance(sequence);
        let at = self.index(sequence);
        let slot = self.slots.get_mut(at)?;
        slot.sequence = Some(sequence);
        Some(&mut slot.value)
    }

    /// Whether the buffer holds `sequence`.
    #[must_use]
    pub fn contains(&self, sequence: u16) -> bool {
        self.get(sequence).is_some()
    }

    /// The value held for `sequence`.
    #[must_use]
    pub fn get(&self, sequence: u16) -> Option<&T> {
        self.slots
            .get(self.index(sequence))
            .filter(|slot| slot.sequence == Some(sequence))
            .map(|slot| &slot.value)
    }

    /// The value held for `sequence`, to change.
    pub fn get_mut(&mut self, sequence: u16) -> Option<&mut T> {
        let at = self.index(sequence);
        self.slots
            .get_mut(at)
            .filter(|slot| slot.sequence == Some(sequence))
            .map(|slot| &mut slot.value)
    }

    /// Empties the slot of `sequence`, keeping its value for reuse.
    pub fn remove(&mut self, sequence: u16) {
        let at = self.index(sequence);
        if let Some(slot) = self.slots.get_mut(at) {
            if slot.sequence == Some(sequence) {
                slot.sequence = None;
            }
        }
    }

    /// The newest sequence (`next - 1`) and a bit per sequence behind it:
    /// bit `i` set when `ack - i` is held, for `i` in `0..32`.
    #[must_use]
    pub fn ack_bits(&self) -> (u16, u32) {
        let ack = self.next.wrapping_sub(1);
        // Walks the slots down from ack's, wrapping, without a division each.
        let mut at = self.index(ack);
        let last = self.slots.len().saturating_sub(1);
        let mut bits = 0u32;
        for i in 0..32u16 {
            let held = self.slots.get(at).and_then(|slot| slot.sequence);
            if held == Some(ack.wrapping_sub(i)) {
                bits |= 1 << i;
            }
            at = at.checked_sub(1).unwrap_or(last);
        }
        (ack, bits)
    }

    /// The value in `sequence`'s slot, held or not: to put back a value
    /// taken out of it.
    pub fn slot_value(&mut self, sequence: u16) -> Option<&mut T> {
        let at = self.index(sequence);
        self.slots.get_mut(at).map(|slot| &mut slot.value)
    }

    /// Every value, held or not, to change in place.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().map(|slot| &mut slot.value)
    }
}
