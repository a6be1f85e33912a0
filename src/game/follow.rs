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

    /// The faces of `held` that may continue the turn in progress (as [`Game::continues`]),
    /// as a bitset: bit operations for the follow-on kinds whose test is a suit, a rank or a
    /// fixed set of wilds; card by card for pairs, stalin's up-to-three and a pending chain.
    pub(super) fn continue_bits(&self, held: u64) -> u64 {
        self.continuing(held, false)
    }

    /// Does any face of `held` continue the turn in progress? (The card-by-card kinds stop at
    /// the first.)
    pub(super) fn can_continue(&self, held: u64) -> bool {
        self.continuing(held, true) != 0
    }

    /// [`Game::continue_bits`]; with `first`, the card-by-card kinds return at the first face.
    fn continuing(&self, held: u64, first: bool) -> u64 {
        const JOKERS: u64 = 0b11 << 52;
        let Some((kind, src)) = self.turn.follow else { return 0 };
        let suit_of = |x: Card| x.suit().map_or(0, |s| SUIT_BITS << (13 * s.index()));
        let rank_of = |x: Card| x.rank().map_or(0, |r| RANK_BITS << r.index());
        // Wild rules of the faces themselves (under wild_instapik they move: card by card).
        let plain_wilds = self.wild_rank.is_none();
        let chain = self.chain.active;
        let m = match kind {
            FollowState::SameSuitAny => {
                let equal = self.rules.settings.multi_mode == MultiMode::EqualRank
                    && src.rank().is_some()
                    && self.turn_all_rank(src);
                suit_of(src) | if equal { rank_of(src) } else { 0 }
            }
            FollowState::OneMatching if plain_wilds => suit_of(src) | rank_of(src) | self.rules.nonsolo_wild_mask,
            FollowState::MatchingRun if !chain && plain_wilds => self.matching_bits() | self.rules.run_wild_mask,
            FollowState::Marriage => {
                use crate::card::Rank::{King, Queen};
                match (src.suit(), src.rank()) {
                    (Some(s), Some(King)) => bit(Card::new(s, Queen)),
                    (Some(s), Some(Queen)) => bit(Card::new(s, King)),
                    _ => 0,
                }
            }
            FollowState::Cover => JOKERS | suit_of(src),
            // stalin: the first three cards need only match; past three, the whole hand must go.
            FollowState::UpTo3 if self.turn.cards < 3 => self.matching_bits(),
            FollowState::ZodiacRun if !chain => {
                let Some(top) = self.discard.top() else { return 0 };
                match (top.suit(), top.rank()) {
                    (Some(s), Some(r)) => {
                        let (base, r) = (13 * s.index(), r.index());
                        let mut m = rank_of(top);
                        if r > 0 {
                            m |= 1 << (base + r - 1);
                        }
                        if r < 12 {
                            m |= 1 << (base + r + 1);
                        }
                        m
                    }
                    _ => 0,
                }
            }
            FollowState::EqualRank if !chain && plain_wilds => {
                let locks = if self.rules.lock_mask & bit(src) != 0 { self.rules.lock_mask } else { 0 };
                (locks | rank_of(src)) & !self.rules.solo_wild_mask
            }
            _ => {
                let mut out = 0;
                for c in crate::card_set::Faces::new(held) {
                    if self.continues(c) {
                        out |= bit(c);
                        if first {
                            break;
                        }
                    }
                }
                return out;
            }
        };
        held & m
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::derive_seed;

    /// Along random games of every preset (smallest and largest table), whenever a follow-on
    /// is open the bitset of continuing faces is exactly the faces `continues` accepts, for the
    /// hand of the player to act and for every face.
    #[test]
    fn continue_bits_agree_with_continues() {
        let mut checked = 0;
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules, derive_seed(5, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(3 + n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for _ in 0..6000 {
                if g.turn.follow.is_some() {
                    let all = (1u64 << NUM_FACES) - 1;
                    let want = (0..NUM_FACES).filter(|&i| g.continues(Card(i as u8))).fold(0u64, |m, i| m | 1 << i);
                    assert_eq!(g.continue_bits(all), want, "{preset} {n}p {:?}", g.turn.follow);
                    let held = g.hands[g.current as usize].bits();
                    assert_eq!(g.continue_bits(held), want & held, "{preset} {n}p");
                    assert_eq!(g.can_continue(held), want & held != 0, "{preset} {n}p");
                    checked += 1;
                }
                random_step(&mut g, &mut bot, &mut mask, 5, &mut episode);
            }
        }
        assert!(checked > 5_000, "only {checked} open follow-ons checked");
    }
}
