//! The fixed action layout shared by every preset and player count.
//!
//! | ids        | action                                   | text               |
//! |------------|------------------------------------------|--------------------|
//! | 0..=53     | play card face *i*                       | `play 8H`          |
//! | 54..=57    | nominate suit C, D, H, S                 | `suit H`           |
//! | 58         | draw                                     | `draw`             |
//! | 59         | accept the pending penalty               | `accept`           |
//! | 60         | pass (end the turn without playing)      | `pass`             |
//! | 61         | end turn (stop an optional continuation, keep the suit) | `end` |
//! | 62..=115   | give card face *i*                       | `give 4C`          |
//! | 116..=169  | keep card face *i*                       | `keep 4C`          |
//! | 170..=178  | target the seat *k* = 1..9 places clockwise | `target +1`     |
//! | 179..=191  | ask for rank A..K                        | `ask K`            |
//! | 192        | ask for QS                               | `ask QS`           |
//! | 193        | ask for a joker                          | `ask joker`        |
//! | 194        | challenge                                | `challenge`        |
//! | 195        | no challenge                             | `no_challenge`     |
//! | 196        | announce "last card" before a play       | `announce`         |
//!
//! [`NUM_ACTIONS`] = 197. A legal-action set is an [`ActionMask`], a 256-bit set that never
//! allocates. Parsing also accepts a bare card (`8H` = `play 8H`) and `nominate H`.

use crate::card::{Card, NUM_FACES, Rank, Suit};
use std::fmt;

/// Number of actions in the layout.
pub const NUM_ACTIONS: usize = 197;
pub const PLAY: usize = 0;
pub const NOMINATE: usize = 54;
pub const DRAW: usize = 58;
pub const ACCEPT: usize = 59;
pub const PASS: usize = 60;
pub const END_TURN: usize = 61;
pub const GIVE: usize = 62;
pub const KEEP: usize = 116;
pub const TARGET: usize = 170;
pub const ASK: usize = 179;
pub const ASK_QS: usize = 192;
pub const ASK_JOKER: usize = 193;
pub const CHALLENGE: usize = 194;
pub const NO_CHALLENGE: usize = 195;
pub const ANNOUNCE: usize = 196;

/// A decoded action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Play(Card),
    Nominate(Suit),
    Draw,
    Accept,
    Pass,
    EndTurn,
    Give(Card),
    Keep(Card),
    /// Seat offset 1..=9, clockwise from the actor.
    Target(u8),
    AskRank(Rank),
    AskQueenOfSpades,
    AskJoker,
    Challenge,
    NoChallenge,
    Announce,
}

impl Action {
    /// Decode an action id.
    pub fn from_id(id: usize) -> Option<Action> {
        Some(match id {
            0..=53 => Action::Play(Card(id as u8)),
            54..=57 => Action::Nominate(Suit::from_index(id - NOMINATE)?),
            DRAW => Action::Draw,
            ACCEPT => Action::Accept,
            PASS => Action::Pass,
            END_TURN => Action::EndTurn,
            62..=115 => Action::Give(Card((id - GIVE) as u8)),
            116..=169 => Action::Keep(Card((id - KEEP) as u8)),
            170..=178 => Action::Target((id - TARGET + 1) as u8),
            179..=191 => Action::AskRank(Rank::from_index(id - ASK)?),
            ASK_QS => Action::AskQueenOfSpades,
            ASK_JOKER => Action::AskJoker,
            CHALLENGE => Action::Challenge,
            NO_CHALLENGE => Action::NoChallenge,
            ANNOUNCE => Action::Announce,
            _ => return None,
        })
    }

    /// The action id.
    pub fn id(self) -> usize {
        match self {
            Action::Play(c) => PLAY + c.index(),
            Action::Nominate(s) => NOMINATE + s.index(),
            Action::Draw => DRAW,
            Action::Accept => ACCEPT,
            Action::Pass => PASS,
            Action::EndTurn => END_TURN,
            Action::Give(c) => GIVE + c.index(),
            Action::Keep(c) => KEEP + c.index(),
            Action::Target(k) => TARGET + k as usize - 1,
            Action::AskRank(r) => ASK + r.index(),
            Action::AskQueenOfSpades => ASK_QS,
            Action::AskJoker => ASK_JOKER,
            Action::Challenge => CHALLENGE,
            Action::NoChallenge => NO_CHALLENGE,
            Action::Announce => ANNOUNCE,
        }
    }

    /// Parse the text form (see the module table).
    pub fn parse(s: &str) -> Option<Action> {
        let t = s.trim();
        let mut parts = t.split_whitespace();
        let head = parts.next()?.to_ascii_lowercase();
        let arg = parts.next();
        if parts.next().is_some() {
            return None;
        }
        Some(match (head.as_str(), arg) {
            ("play", Some(c)) => Action::Play(c.parse().ok()?),
            ("suit" | "nominate", Some(x)) => Action::Nominate(Suit::parse(x)?),
            ("draw", None) => Action::Draw,
            ("accept", None) => Action::Accept,
            ("pass", None) => Action::Pass,
            ("end" | "end_turn", None) => Action::EndTurn,
            ("give", Some(c)) => Action::Give(c.parse().ok()?),
            ("keep", Some(c)) => Action::Keep(c.parse().ok()?),
            ("target", Some(k)) => {
                let k: u8 = k.trim_start_matches('+').parse().ok()?;
                if !(1..=9).contains(&k) {
                    return None;
                }
                Action::Target(k)
            }
            ("ask", Some(x)) => match x.to_ascii_uppercase().as_str() {
                "QS" => Action::AskQueenOfSpades,
                "JOKER" => Action::AskJoker,
                r => Action::AskRank(Rank::parse(r)?),
            },
            ("challenge", None) => Action::Challenge,
            ("no_challenge", None) => Action::NoChallenge,
            ("announce", None) => Action::Announce,
            (_, None) => Action::Play(t.parse().ok()?),
            _ => return None,
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(c) => write!(f, "play {c}"),
            Action::Nominate(s) => write!(f, "suit {}", s.letter()),
            Action::Draw => f.write_str("draw"),
            Action::Accept => f.write_str("accept"),
            Action::Pass => f.write_str("pass"),
            Action::EndTurn => f.write_str("end"),
            Action::Give(c) => write!(f, "give {c}"),
            Action::Keep(c) => write!(f, "keep {c}"),
            Action::Target(k) => write!(f, "target +{k}"),
            Action::AskRank(r) => write!(f, "ask {}", r.letter()),
            Action::AskQueenOfSpades => f.write_str("ask QS"),
            Action::AskJoker => f.write_str("ask joker"),
            Action::Challenge => f.write_str("challenge"),
            Action::NoChallenge => f.write_str("no_challenge"),
            Action::Announce => f.write_str("announce"),
        }
    }
}

/// A set of action ids (256 bits, no allocation).
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct ActionMask(pub [u64; 4]);

impl ActionMask {
    #[inline]
    pub fn clear(&mut self) {
        self.0 = [0; 4];
    }
    #[inline]
    pub fn set(&mut self, id: usize) {
        self.0[id >> 6] |= 1 << (id & 63);
    }
    #[inline]
    pub fn contains(&self, id: usize) -> bool {
        id < NUM_ACTIONS && self.0[id >> 6] & (1 << (id & 63)) != 0
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
    /// The `k`-th set id in increasing order.
    pub fn nth(&self, mut k: usize) -> Option<usize> {
        for (w, &word) in self.0.iter().enumerate() {
            let c = word.count_ones() as usize;
            if k < c {
                let mut x = word;
                for _ in 0..k {
                    x &= x - 1;
                }
                return Some(w * 64 + x.trailing_zeros() as usize);
            }
            k -= c;
        }
        None
    }
    /// Set ids in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).flat_map(move |w| {
            let mut x = self.0[w];
            std::iter::from_fn(move || {
                if x == 0 {
                    return None;
                }
                let b = x.trailing_zeros() as usize;
                x &= x - 1;
                Some(w * 64 + b)
            })
        })
    }
    /// True if any play action is set.
    pub fn has_play(&self) -> bool {
        self.play_bits() != 0
    }

    /// The faces whose play action is set, as a bitset (bit `i` = face `i`): the play ids
    /// are the first [`NUM_FACES`] ids, all in the first word.
    #[inline]
    pub fn play_bits(&self) -> u64 {
        const { assert!(PLAY == 0 && NUM_FACES <= 64) };
        self.0[0] & ((1u64 << NUM_FACES) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_text() {
        for id in 0..NUM_ACTIONS {
            let a = Action::from_id(id).unwrap();
            assert_eq!(a.id(), id);
            assert_eq!(Action::parse(&a.to_string()), Some(a), "{a}");
        }
        assert!(Action::from_id(NUM_ACTIONS).is_none());
    }

    #[test]
    fn shorthand_forms() {
        assert_eq!(Action::parse("8H"), Action::parse("play 8H"));
        assert_eq!(Action::parse("nominate h"), Some(Action::Nominate(Suit::Hearts)));
        assert_eq!(Action::parse("play 10D"), Action::parse("play TD"));
        assert_eq!(Action::parse("fly"), None);
    }

    #[test]
    fn mask_nth_and_iter_agree() {
        let mut m = ActionMask::default();
        for id in [3, 58, 64, 130, 196] {
            m.set(id);
        }
        let v: Vec<usize> = m.iter().collect();
        assert_eq!(v, vec![3, 58, 64, 130, 196]);
        for (k, &id) in v.iter().enumerate() {
            assert_eq!(m.nth(k), Some(id));
        }
        assert_eq!(m.nth(5), None);
    }
}
