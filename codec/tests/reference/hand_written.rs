//! The hand-written `serialize` functions that the derive replaced, kept
//! verbatim in layout as the reference the derived code must match bit for
//! bit: `tests/derive_reference.rs` compares them on random values and
//! random bytes, and `benches/derive.rs` times them side by side.
#![allow(dead_code)] // the test and the bench each use their own subset

use codec::packet::{Packet, ProtocolId};
use codec::protocols::packets::{PacketA, PacketB, PacketC, TestPacket, MAX_ITEMS};
use codec::protocols::score_save::{
    revision, ScoreState, LATEST_VERSION, MAX_EXTRA_PLAYERS, MAX_FOULS, MAX_PLAYERS, MAX_SCORE,
    MIN_SCORE,
};
use codec::protocols::ARTICLES_PROTOCOL_ID;
use codec::versioned::Versioned;
use codec::{Serialize, Stream};

/// Protocol "packets" with its payloads serialized by hand.
#[derive(Clone, Debug, PartialEq)]
pub struct HandPacket(pub TestPacket);

impl Packet for HandPacket {
    const PROTOCOL_ID: ProtocolId = ARTICLES_PROTOCOL_ID;
    const PACKET_TYPES: u32 = 3;
    const MAX_PACKET_BYTES: usize = 1024;

    fn packet_type(&self) -> u32 {
        match self.0 {
            TestPacket::A(_) => 0,
            TestPacket::B(_) => 1,
            TestPacket::C(_) => 2,
        }
    }

    fn empty(packet_type: u32) -> Option<Self> {
        match packet_type {
            0 => Some(Self(TestPacket::A(PacketA::default()))),
            1 => Some(Self(TestPacket::B(PacketB::default()))),
            2 => Some(Self(TestPacket::C(PacketC::default()))),
            _ => None,
        }
    }

    fn serialize_payload<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        match &mut self.0 {
            TestPacket::A(packet) => {
                stream.field_name("a");
                stream.serialize_int(&mut packet.a, -10, 10)?;
                stream.field_name("b");
                stream.serialize_int(&mut packet.b, -20, 20)?;
                stream.field_name("c");
                stream.serialize_int(&mut packet.c, -30, 30)
            }
            TestPacket::B(packet) => serialize_items(stream, &mut packet.items),
            TestPacket::C(packet) => {
                stream.field_name("position");
                for axis in &mut packet.position {
                    stream.serialize_float(axis)?;
                }
                stream.field_name("at_rest");
                stream.serialize_bool(&mut packet.at_rest)?;
                if !packet.at_rest {
                    stream.field_name("velocity");
                    for axis in &mut packet.velocity {
                        stream.serialize_float(axis)?;
                    }
                } else if S::IS_READING {
                    packet.velocity = [0.0; 3];
                }
                Ok(())
            }
        }
    }
}

fn serialize_items<S: Stream>(stream: &mut S, items: &mut Vec<i32>) -> Result<(), S::Error> {
    let mut count = i32::try_from(items.len()).unwrap_or(i32::MAX);
    stream.field_name("count");
    stream.serialize_int(&mut count, 0, MAX_ITEMS as i32)?;
    stream.field_name("item");
    if S::IS_WRITING {
        return items
            .iter_mut()
            .try_for_each(|item| stream.serialize_int(item, -100, 100));
    }
    let mut read = Vec::with_capacity(if count > 0 { MAX_ITEMS } else { 0 });
    for _ in 0..count {
        let mut item = 0;
        stream.serialize_int(&mut item, -100, 100)?;
        read.push(item);
    }
    *items = read;
    Ok(())
}

/// The score save serialized by hand.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HandSave(pub ScoreState);

#[derive(Clone, Copy, Debug, Default)]
struct OldPlayer {
    score: i32,
    fouls: i32,
}

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

fn fold(score: i32, fouls: i32) -> i32 {
    score.saturating_sub(fouls).max(MIN_SCORE)
}

impl Serialize for HandSave {
    fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        use revision::{EXTRA_PLAYERS, FOULS, NO_FOULS, PLAYER_LIST, SCORES};
        let mut version = LATEST_VERSION;
        let mut save = Versioned::begin(stream, &mut version, SCORES, LATEST_VERSION)?;

        let mut two_scores = [0i32; 2];
        let mut two_fouls = [0i32; 2];
        save.removed(SCORES, PLAYER_LIST, &mut two_scores, |s, scores| {
            scores.iter_mut().try_for_each(|x| serialize_score(s, x))
        })?;
        save.removed(FOULS, PLAYER_LIST, &mut two_fouls, |s, fouls| {
            fouls.iter_mut().try_for_each(|x| serialize_fouls(s, x))
        })?;
        save.integrity()?;

        let mut extra: Vec<OldPlayer> = Vec::new();
        let had_extra = save.removed(EXTRA_PLAYERS, PLAYER_LIST, &mut extra, |s, extra| {
            serialize_list(s, extra, MAX_EXTRA_PLAYERS, |s, p| {
                serialize_score(s, &mut p.score)?;
                serialize_fouls(s, &mut p.fouls)
            })
        })?;
        let mut players: Vec<OldPlayer> = self
            .0
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
                players = two_scores
                    .iter()
                    .zip(two_fouls)
                    .map(|(&score, fouls)| OldPlayer { score, fouls })
                    .collect();
                if had_extra {
                    players.extend(extra);
                }
            }
            self.0.scores = players.iter().map(|p| fold(p.score, p.fouls)).collect();
        }
        Ok(())
    }
}
