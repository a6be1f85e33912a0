//! Follow-on plays within a turn: runs, pairs with a cover, marriages, equal ranks, zodiac
//! runs and stalin's up-to-three.

use super::*;

impl Game {
    /// stalin: can the whole of `hand` be played one card after another onto `top`/`under`?
    pub(super) fn can_empty(&self, hand: CardCounts, top: Card, under: Option<Card>, budget: &mut u32) -> bool {
        if hand.is_empty() {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        hand.faces().any(|y| {
            let suit_or_rank = y.suit() == top.suit() || y.rank() == top.rank();
            (suit_or_rank || (self.rules.arithmetic && Self::arithmetic(y, Some(top), under))) && {
                let mut h = hand;
                h.remove(y);
                self.can_empty(h, y, Some(top), budget)
            }
        })
    }

    /// Are all the cards placed this turn of `src`'s rank (several sevens leading a run)?
    pub(super) fn turn_all_rank(&self, src: Card) -> bool {
        (0..self.turn.cards as usize).all(|k| self.discard.from_top(k).is_some_and(|x| x.rank() == src.rank()))
    }

    /// May `c` continue the turn in progress?
    pub(super) fn continues(&self, c: Card) -> bool {
        match self.turn.follow {
            Some((FollowState::SameSuitAny, src)) => {
                (c.suit().is_some() && c.suit() == src.suit())
                    || (self.rules.settings.multi_mode == MultiMode::EqualRank
                        && c.rank().is_some()
                        && c.rank() == src.rank()
                        && self.turn_all_rank(src))
            }
            Some((FollowState::OneMatching, src)) => {
                let same_suit = c.suit().is_some() && c.suit() == src.suit();
                let same_rank = c.rank().is_some() && c.rank() == src.rank();
                same_suit || same_rank || self.card_wild(c).is_some_and(|w| !w.solo)
            }
            Some((FollowState::MatchingRun, _)) => {
                if self.chain.active {
                    self.answers_chain(c)
                } else {
                    let w = self.card_wild(c);
                    self.matches_top(c) || w.is_some_and(|w| !w.solo && !w.only_if_no_other && !w.requires_match)
                }
            }
            Some((FollowState::Marriage, src)) => {
                use crate::card::Rank::{King, Queen};
                c.suit().is_some()
                    && c.suit() == src.suit()
                    && matches!((src.rank(), c.rank()), (Some(King), Some(Queen)) | (Some(Queen), Some(King)))
            }
            Some((FollowState::PairStart, src)) => {
                c.rank().is_some()
                    && c.rank() == src.rank()
                    && self.wild_of(c, self.current as usize).is_none()
                    && (!self.chain.active || self.answers_chain(c))
                    && self.pair_can_close(c)
            }
            Some((FollowState::PairMid, src)) => {
                self.is_cover(c, src) || (c.rank().is_some() && c.rank() == src.rank() && self.pair_can_close(c))
            }
            Some((FollowState::Cover, src)) => c.is_joker() || (c.suit().is_some() && c.suit() == src.suit()),
            Some((FollowState::UpTo3, _)) => {
                if !self.matches_top(c) {
                    return false;
                }
                if self.turn.cards < 3 {
                    return true;
                }
                // Past three cards only the whole hand may be played.
                let mut hand = self.hands[self.current as usize];
                hand.remove(c);
                let mut budget = 20_000;
                self.can_empty(hand, c, self.discard.top(), &mut budget)
            }
            Some((FollowState::ZodiacRun, _)) => {
                let Some(top) = self.discard.top() else { return false };
                let same = c.rank().is_some() && c.rank() == top.rank();
                if self.chain.active {
                    return same && self.answers_chain(c);
                }
                let step = match (c.rank(), top.rank()) {
                    (Some(a), Some(b)) => (a.index() as i32 - b.index() as i32).abs() == 1,
                    _ => false,
                };
                same || (step && c.suit() == top.suit())
            }
            Some((FollowState::EqualRank, src)) => {
                let locks = self.rules.lock_mask & bit(c) != 0 && self.rules.lock_mask & bit(src) != 0;
                (locks || (c.rank().is_some() && c.rank() == src.rank()))
                    && !self.card_wild(c).is_some_and(|w| w.solo)
                    && (!self.chain.active || self.answers_chain(c))
            }
            None => false,
        }
    }

    /// crazy_pairs: `c` covers a pair ending in `last` (same suit, other rank, not wild).
    pub(super) fn is_cover(&self, c: Card, last: Card) -> bool {
        c.suit().is_some()
            && c.suit() == last.suit()
            && c.rank() != last.rank()
            && self.wild_of(c, self.current as usize).is_none()
    }

    /// crazy_pairs: after adding pair card `x` from the hand, can the pair still be covered?
    pub(super) fn pair_can_close(&self, x: Card) -> bool {
        fn go(g: &Game, hand: CardCounts, x: Card, depth: u8) -> bool {
            hand.faces().any(|y| {
                g.is_cover(y, x) || {
                    y.rank() == x.rank() && depth < 16 && {
                        let mut h = hand;
                        h.remove(y);
                        go(g, h, y, depth + 1)
                    }
                }
            })
        }
        let mut hand = self.hands[self.current as usize];
        hand.remove(x);
        go(self, hand, x, 0)
    }
}
