//! Configurations drawn per conversation from the space a user can
//! configure: window sizes from 1 to 32,768, powers of two or not,
//! fragments of 1 byte to 1,200 and up to 256 of them, ack buffers
//! smaller than the acks one header carries. Each draw is of a family (a
//! line of the conversation table); the first byte of the randomness picks
//! it, and 0 picks the target's own configuration, so a shrunk
//! conversation's configuration shrinks toward it.

use arbitrary::Unstructured;
use link::Config;

/// A family of configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// The target's own configuration.
    Own,
    /// Windows of 1 to 4 packets.
    TinyWindows,
    /// Windows whose sizes do not divide 65,536 (3 to 1,000).
    OddWindows,
    /// Windows of 1,024 to 16,384 (a window of L takes no packet more than
    /// 32,768 - L ahead of its newest: larger ones refuse the jumps of
    /// honest conversations, as the reference does).
    LargeWindows,
    /// Fragments of 1 to 16 bytes, 65 to 256 of them: fragment ids past 64.
    ManyFragments,
    /// Fragments of 1 byte.
    ByteFragments,
    /// An ack buffer of 1 to 8, below the acks one header can carry, and a
    /// sent window of 1 to 40.
    SmallAckBuffer,
    /// Every size drawn on its own from all of the above.
    Mixed,
}

impl Family {
    /// Every family, in table order.
    pub const ALL: [Self; 8] = [
        Self::Own,
        Self::TinyWindows,
        Self::OddWindows,
        Self::LargeWindows,
        Self::ManyFragments,
        Self::ByteFragments,
        Self::SmallAckBuffer,
        Self::Mixed,
    ];

    /// Its name in tables, JSON and files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Own => "own",
            Self::TinyWindows => "tiny-windows",
            Self::OddWindows => "odd-windows",
            Self::LargeWindows => "large-windows",
            Self::ManyFragments => "many-fragments",
            Self::ByteFragments => "byte-fragments",
            Self::SmallAckBuffer => "small-ack-buffer",
            Self::Mixed => "mixed",
        }
    }

    /// The family called `name`.
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// What a conversation needs of its configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// The longest window: a conversation whose length grows with the
    /// windows (a bomb of three reassembly windows, a loss as long as the
    /// received window) stays short.
    pub max_window: u16,
    /// The most fragments a packet may have: below 256 leaves room for a
    /// count one past it.
    pub max_fragments: usize,
    /// The fewest fragments the largest packet must take.
    pub min_fragments: usize,
}

impl Default for Needs {
    fn default() -> Self {
        Self {
            max_window: 32_768,
            max_fragments: 256,
            min_fragments: 3,
        }
    }
}

/// The most bytes a drawn configuration's packets carry, so that a
/// conversation of many packets stays quick.
const MAX_PACKET: usize = 8 * 1024;

/// Draws a configuration from `u`: its family, then its sizes; `own` when
/// the family is [`Family::Own`]. Fragment sizes, counts and packet sizes
/// agree (`max_packet_size` at most `max_fragments x fragment_size`), and
/// the result is one `link::Config::validate` accepts.
///
/// # Errors
///
/// When `u` runs out of entropy.
pub fn draw(
    own: &Config,
    needs: Needs,
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<(Family, Config)> {
    // Half the conversations keep the target's own configuration.
    let pick = u.arbitrary::<u8>()?;
    let family = if pick < 128 {
        Family::Own
    } else {
        Family::ALL[1 + usize::from(pick - 128) % (Family::ALL.len() - 1)]
    };
    Ok((family, of_family(own, family, needs, u)?))
}

/// A configuration of `family` drawn from `u` (`own` for
/// [`Family::Own`]), as [`draw`] makes them.
///
/// # Errors
///
/// When `u` runs out of entropy.
pub fn of_family(
    own: &Config,
    family: Family,
    needs: Needs,
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<Config> {
    let mut config = own.clone();
    let window = |u: &mut Unstructured<'_>, range: (u16, u16)| -> arbitrary::Result<u16> {
        u.int_in_range(range.0.min(needs.max_window)..=range.1.min(needs.max_window))
    };
    let odd = |u: &mut Unstructured<'_>| -> arbitrary::Result<u16> {
        // Half of them small, where a slot shared across the wrap is near.
        let n = if u.arbitrary()? {
            window(u, (3, 40))?
        } else {
            window(u, (3, 1000))?
        };
        Ok(if n.is_power_of_two() { n + 1 } else { n }.min(needs.max_window))
    };
    let large = |u: &mut Unstructured<'_>| -> arbitrary::Result<u16> {
        let n = *u.choose(&[1024u16, 4096, 16_384])?;
        Ok(n.min(needs.max_window))
    };
    match family {
        Family::Own => {}
        Family::TinyWindows => {
            config.sent_packets_buffer_size = window(u, (1, 4))?;
            config.received_packets_buffer_size = window(u, (1, 4))?;
            config.fragment_reassembly_buffer_size = window(u, (1, 4))?;
        }
        Family::OddWindows => {
            config.sent_packets_buffer_size = odd(u)?;
            config.received_packets_buffer_size = odd(u)?;
            config.fragment_reassembly_buffer_size = odd(u)?;
        }
        Family::LargeWindows => {
            config.sent_packets_buffer_size = large(u)?;
            config.received_packets_buffer_size = large(u)?;
            config.fragment_reassembly_buffer_size = large(u)?;
        }
        Family::ManyFragments => {
            let count = u.int_in_range(65.min(needs.max_fragments)..=needs.max_fragments)?;
            fragments(&mut config, u.int_in_range(1..=16)?, count, u)?;
        }
        Family::ByteFragments => {
            let count = u.int_in_range(needs.min_fragments..=needs.max_fragments)?;
            fragments(&mut config, 1, count, u)?;
        }
        Family::SmallAckBuffer => {
            config.ack_buffer_size = u.int_in_range(1..=8)?;
            config.sent_packets_buffer_size = window(u, (1, 40))?;
        }
        Family::Mixed => {
            let one = |u: &mut Unstructured<'_>| -> arbitrary::Result<u16> {
                match u.int_in_range(0u8..=3)? {
                    0 => window(u, (1, 4)),
                    1 => odd(u),
                    2 => large(u),
                    _ => window(u, (5, 300)),
                }
            };
            config.sent_packets_buffer_size = one(u)?;
            config.received_packets_buffer_size = one(u)?;
            config.fragment_reassembly_buffer_size = one(u)?;
            config.ack_buffer_size = u.int_in_range(1..=300)?;
            let size = u.int_in_range(1..=1200)?;
            let count = u.int_in_range(needs.min_fragments..=needs.max_fragments)?;
            fragments(&mut config, size, count, u)?;
        }
    }
    Ok(config)
}

/// Fragments of `size` bytes, `count` at most, packets as large as they
/// carry (within [`MAX_PACKET`], and at least `min_fragments` fragments'
/// worth), sent as fragments above 1 byte to `size`.
fn fragments(
    config: &mut Config,
    size: usize,
    count: usize,
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<()> {
    config.fragment_size = size;
    config.max_fragments = count;
    config.max_packet_size = size.saturating_mul(count).min(MAX_PACKET);
    config.fragment_above = u.int_in_range(1..=size)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_draw_is_valid_and_every_family_is_drawn() {
        let own = crate::conversation::config();
        let mut seen = std::collections::HashSet::new();
        let mut bytes = vec![0u8; 4096];
        for seed in 0..2000u32 {
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = (seed
                    .wrapping_mul(2_654_435_761)
                    .wrapping_add(i as u32 * 40_503)
                    >> 13) as u8;
            }
            let (family, config) =
                draw(&own, Needs::default(), &mut Unstructured::new(&bytes)).unwrap();
            config.validate().unwrap();
            assert!(config.max_packet_size <= config.fragment_size * config.max_fragments);
            seen.insert(family);
        }
        assert_eq!(seen.len(), Family::ALL.len());
    }

    #[test]
    fn no_randomness_draws_the_own_configuration() {
        let own = crate::conversation::config();
        let (family, config) = draw(&own, Needs::default(), &mut Unstructured::new(&[])).unwrap();
        assert_eq!((family, config), (Family::Own, own));
    }
}
