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
use crate::stream::{ReadStream, Serialize, Stream};
use crate::versioned::Versioned;

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

/// A player as revisions 3 and 4 stored them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct OldPlayer {
    score: i32,
    fouls: i32,
}

/// A list of up to `max` items: the count, range-checked before any item is
/// read, then each item.
fn serialize_list<S: Stream, T: Default>(
    stream: &mut S,
    items: &mut Vec<T>,
    max: usize,
    mut item: impl FnMut(&mut S, &mut T) -> Result<(), S::Error>,
) -> Result<(), S::Error> {
    let mut count = i32::try_from(items.len()).unwrap_or(i32::MAX);
    stream.field_name("count");
    stream.serialize_int(&mut count, 0, max as i32)?;
    if S::IS_WRITING {
        return items.iter_mut().try_for_each(|x| item(stream, x));
    }
    let mut read = Vec::new();
    for _ in 0..count {
        let mut x = T::default();
        item(stream, &mut x)?;
        read.push(x);
    }
    *items = read;
    Ok(())
}

fn serialize_score<S: Stream>(stream: &mut S, score: &mut i32) -> Result<(), S::Error> {
    stream.field_name("score");
    stream.serialize_int(score, MIN_SCORE, MAX_SCORE)
}

fn serialize_fouls<S: Stream>(stream: &mut S, fouls: &mut i32) -> Result<(), S::Error> {
    stream.field_name("fouls");
    stream.serialize_int(fouls, 0, MAX_FOULS)
}

/// A score with its player's fouls folded in: each foul cost a point.
fn fold(score: i32, fouls: i32) -> i32 {
    score.saturating_sub(fouls).max(MIN_SCORE)
}

impl Serialize for ScoreState {
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        use revision::{EXTRA_PLAYERS, FOULS, NO_FOULS, PLAYER_LIST, SCORES};
        let mut version = LATEST_VERSION;
        let mut save = Versioned::begin(stream, &mut version, SCORES, LATEST_VERSION)?;

        // Section 1: the two-player layout of revisions 1 to 3.
        let mut two_scores = [0i32; 2];
        let mut two_fouls = [0i32; 2];
        save.removed(SCORES, PLAYER_LIST, &mut two_scores, |s, scores| {
            scores.iter_mut().try_for_each(|x| serialize_score(s, x))
        })?;
        save.removed(FOULS, PLAYER_LIST, &mut two_fouls, |s, fouls| {
            fouls.iter_mut().try_for_each(|x| serialize_fouls(s, x))
        })?;
        save.integrity()?;

        // Section 2: extra players (revision 3), then the one list.
        let mut extra: Vec<OldPlayer> = Vec::new();
        let had_extra = save.removed(EXTRA_PLAYERS, PLAYER_LIST, &mut extra, |s, extra| {
            serialize_list(s, extra, MAX_EXTRA_PLAYERS, |s, p| {
                serialize_score(s, &mut p.score)?;
                serialize_fouls(s, &mut p.fouls)
            })
        })?;
        let mut players: Vec<OldPlayer> = self
            .scores
            .iter()
            .map(|&score| OldPlayer { score, fouls: 0 })
            .collect();
        let fouls_in_list = save.has(PLAYER_LIST, Some(NO_FOULS));
        save.added(PLAYER_LIST, &mut players, |s, players| {
            serialize_list(s, players, MAX_PLAYERS, |s, p| {
                serialize_score(s, &mut p.score)?;
                if fouls_in_list {
                    serialize_fouls(s, &mut p.fouls)?;
                }
                Ok(())
            })
        })?;
        save.integrity()?;
        save.stream().field_name("padding");
        save.stream().serialize_align()?;

        if S::IS_READING {
            if version < PLAYER_LIST {
                // Revisions 1 to 3: the two players, then any extra ones.
                players = two_scores
                    .iter()
                    .zip(two_fouls)
                    .map(|(&score, fouls)| OldPlayer { score, fouls })
                    .collect();
                if had_extra {
                    players.extend(extra);
                }
            }
            self.scores = players.iter().map(|p| fold(p.score, p.fouls)).collect();
        }
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
