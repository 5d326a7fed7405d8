//! The game score save and its pinned revision history.
//!
//! | version | revision |
//! |---|---|
//! | 1 | [`revision::SCORES`]: two players' scores |
//! | 2 | [`revision::FOULS`]: each of the two players' fouls |
//! | 3 | [`revision::EXTRA_PLAYERS`]: up to 6 extra players, each a score and fouls |
//! | 4 | [`revision::PLAYER_LIST`]: all players in one list of up to 8; the three fields above removed |
//! | 5 | [`revision::NO_FOULS`]: fouls no longer tracked; each old foul cost its player a point |
//!
//! Every revision ends its two sections with an integrity counter and the
//! save with zero padding to a whole byte. The latest reader loads a save of
//! any revision into the current [`ScoreState`]; `codec/tests/saves.rs` keeps
//! a save written by each revision and checks that it does.

use crate::error::{DecodeError, EncodeError};
use crate::stream::{ReadStream, Stream};
use crate::Serialize;
use revision::{EXTRA_PLAYERS, FOULS, NO_FOULS, PLAYER_LIST, SCORES};

/// The revisions, by the version number each introduced.
pub mod revision {
    /// Two players' scores.
    pub const SCORES: u32 = 1;
    /// Fouls for the two players.
    pub const FOULS: u32 = 2;
    /// Extra players beyond the first two.
    pub const EXTRA_PLAYERS: u32 = 3;
    /// One list of all players; scores, fouls and extra players removed.
    pub const PLAYER_LIST: u32 = 4;
    /// Fouls removed from players and folded into their scores.
    pub const NO_FOULS: u32 = 5;
}

/// The newest version this reader knows, and the one its writer writes.
pub const LATEST_VERSION: u32 = revision::NO_FOULS;

/// The lowest score: scores travel as `int(MIN_SCORE, MAX_SCORE)`.
pub const MIN_SCORE: i32 = -1_000_000;
/// The highest score.
pub const MAX_SCORE: i32 = 1_000_000;
/// The most fouls a player could have, while fouls were tracked.
pub const MAX_FOULS: i32 = 255;
/// The most extra players of revisions 3 and 4 (beyond the first two).
pub const MAX_EXTRA_PLAYERS: usize = 6;
/// The most players in the list of revision 4 on.
pub const MAX_PLAYERS: usize = 8;

/// The current game score state: every player's score.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScoreState {
    /// One score per player, at most [`MAX_PLAYERS`].
    pub scores: Vec<i32>,
}

#[cfg(feature = "arbitrary")]
impl<'a> crate::arbitrary::Arbitrary<'a> for ScoreState {
    /// Up to [`MAX_PLAYERS`] scores, each in range.
    fn arbitrary(u: &mut crate::arbitrary::Unstructured<'a>) -> crate::arbitrary::Result<Self> {
        use crate::arbitrary::{list, ranged};
        Ok(Self {
            scores: list(u, MAX_PLAYERS as u32, |u| ranged(u, MIN_SCORE, MAX_SCORE))?,
        })
    }
}

/// A player as revisions 3 and 4 stored them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
struct OldPlayer {
    #[serialize(range = MIN_SCORE..=MAX_SCORE)]
    score: i32,
    #[serialize(range = 0..=MAX_FOULS)]
    fouls: i32,
}

/// The save as it travels: every field any revision wrote, each with the
/// version that added it and the one that removed it, in two sections that
/// each end with an integrity counter. A reader of an old save leaves the
/// fields it lacks at their defaults, then [`SaveRecord::upgrade`] folds
/// the removed fields into the current one.
#[derive(Debug, Default, Serialize)]
#[serialize(versions = SCORES..=LATEST_VERSION, upgrade = SaveRecord::upgrade)]
struct SaveRecord {
    // Section 1: the two-player layout of revisions 1 to 3.
    #[serialize(removed = PLAYER_LIST, range = MIN_SCORE..=MAX_SCORE, name = "score")]
    two_scores: [i32; 2],
    #[serialize(added = FOULS, removed = PLAYER_LIST, range = 0..=MAX_FOULS, name = "fouls")]
    #[serialize(after(integrity))]
    two_fouls: [i32; 2],
    // Section 2: extra players (revision 3), then the one list, with fouls
    // (revision 4) or without (revision 5 on).
    #[serialize(added = EXTRA_PLAYERS, removed = PLAYER_LIST, max_len = MAX_EXTRA_PLAYERS as u32)]
    extra: Vec<OldPlayer>,
    #[serialize(added = PLAYER_LIST, removed = NO_FOULS, max_len = MAX_PLAYERS as u32)]
    players: Vec<OldPlayer>,
    #[serialize(added = NO_FOULS, max_len = MAX_PLAYERS as u32, range = MIN_SCORE..=MAX_SCORE)]
    #[serialize(name = "score", after(integrity, align))]
    scores: Vec<i32>,
}

impl SaveRecord {
    /// A reader's conversion of an old save into the current layout:
    /// revisions 1 to 3 kept two players and the extra ones apart,
    /// revisions 1 to 4 kept fouls, each of which now costs a point.
    fn upgrade(&mut self, version: u32) {
        use revision::{NO_FOULS, PLAYER_LIST};
        if version >= NO_FOULS {
            return;
        }
        let players: Vec<OldPlayer> = if version < PLAYER_LIST {
            let two = self.two_scores.iter().zip(self.two_fouls);
            two.map(|(&score, fouls)| OldPlayer { score, fouls })
                .chain(self.extra.drain(..))
                .collect()
        } else {
            core::mem::take(&mut self.players)
        };
        self.scores = players.iter().map(|p| fold(p.score, p.fouls)).collect();
    }
}

/// A score with its player's fouls folded in: each foul cost a point.
fn fold(score: i32, fouls: i32) -> i32 {
    score.saturating_sub(fouls).max(MIN_SCORE)
}

/// Hand-written, as the derive cannot say it: the public state is one list
/// of scores, while the wire record also holds every removed revision's
/// fields. A writer lends its scores to the record (no copy); a reader
/// takes the record's upgraded scores only when the whole save was read.
impl Serialize for ScoreState {
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        let mut record = SaveRecord::default();
        if S::IS_WRITING {
            record.scores = core::mem::take(&mut self.scores);
            let written = record.serialize(stream);
            self.scores = record.scores;
            return written;
        }
        record.serialize(stream)?;
        self.scores = record.scores;
        Ok(())
    }
}

/// Writes `state` as a save of the latest version.
pub fn encode(state: &mut ScoreState) -> Result<Vec<u8>, EncodeError> {
    crate::to_vec(state)
}

/// Reads a save of any known version; every byte must belong to it.
pub fn decode(bytes: &[u8]) -> Result<ScoreState, DecodeError> {
    let mut state = ScoreState::default();
    let mut stream = ReadStream::new(bytes);
    state.serialize(&mut stream)?;
    crate::stream::expect_end(&mut stream)?;
    Ok(state)
}
