//! The run of one rank on the discard pile (`end.four_of_a_kind`): the cards of one rank
//! placed one after another, the top card last. The run is counted as cards are placed, not
//! read off the pile, so a reshuffle that leaves only the top card does not break it; a card
//! that comes back from the stock and is played again in the same run is not counted twice.
//! The game places cards and keeps its run in `resolve.rs`.

use crate::card::{Card, Rank, Suit};
use crate::card_set::CardCounts;

/// The cards of one rank placed on the discard pile one after another, ending with the top
/// card: at most the last four, oldest first. A joker has no rank and ends the run; while
/// jokers lie on top, the run under them is kept, for a challenged joker taken back
/// (`options.joker_bluff`). A snapshot saves the cards it keeps (`Snapshot::rank_run`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RankRun {
    /// Bits 0-2 the length, bits 3-6 the rank, bits 7-14 the suits, two bits each, oldest
    /// first, bit 15 set while a joker lies on top: one 16-bit word, so that the run sits
    /// in the game's first cache lines.
    bits: u16,
}

const LEN_BITS: u16 = 0b111;
const RANK_SHIFT: u32 = 3;
const SUIT_SHIFT: u32 = 7;
const JOKER_ON_TOP: u16 = 1 << 15;

impl RankRun {
    /// How many cards the run in force holds (0 to 4; 0 while a joker lies on top).
    pub fn len(&self) -> usize {
        if self.bits & JOKER_ON_TOP != 0 { 0 } else { self.kept_len() }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn kept_len(&self) -> usize {
        (self.bits & LEN_BITS) as usize
    }

    fn rank(&self) -> Option<Rank> {
        (self.kept_len() > 0).then(|| Rank::ALL[((self.bits >> RANK_SHIFT) & 0b1111) as usize])
    }

    /// The cards of the run kept (under the jokers on top, if any), oldest first.
    pub fn kept(&self) -> impl Iterator<Item = Card> + '_ {
        let rank = self.rank();
        let suit = |i: usize| Suit::ALL[((self.bits >> (SUIT_SHIFT + 2 * i as u32)) & 0b11) as usize];
        (0..self.kept_len()).filter_map(move |i| rank.map(|r| Card::new(suit(i), r)))
    }

    /// The cards of the run in force, oldest first.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.kept().take(self.len())
    }

    /// `c` is placed on the pile whose run this is; the deck holds `copies` of it. A joker
    /// ends the run, a card of another rank starts a new one. A card the run already holds
    /// as often as the deck has it was played before and came back through the stock: the
    /// run then counts from the play after its first one.
    pub fn push(&mut self, c: Card, copies: u8) {
        let (Some(r), Some(s)) = (c.rank(), c.suit()) else {
            self.bits |= JOKER_ON_TOP;
            return;
        };
        if self.is_empty() || self.rank() != Some(r) {
            self.bits = 1 | (r as u16) << RANK_SHIFT | (s as u16) << SUIT_SHIFT;
            return;
        }
        if self.cards().filter(|&x| x == c).count() >= copies.max(1) as usize {
            let first = self.cards().position(|x| x == c).unwrap_or(0);
            self.drop_oldest(first + 1);
        }
        if self.len() == 4 {
            self.drop_oldest(1);
        }
        let len = self.len();
        self.bits = (self.bits & !LEN_BITS) | (len as u16 + 1) | (s as u16) << (SUIT_SHIFT + 2 * len as u32);
    }

    /// Drop the `k` oldest cards (the rank is kept: a card of it is pushed next).
    fn drop_oldest(&mut self, k: usize) {
        let (k, len) = (k.min(self.kept_len()), self.kept_len());
        let suits = (self.bits >> SUIT_SHIFT) >> (2 * k as u32);
        let rank = (self.bits >> RANK_SHIFT) & 0b1111;
        self.bits = (len - k) as u16 | rank << RANK_SHIFT | suits << SUIT_SHIFT;
    }

    /// A challenged joker was taken back off the pile, `top` the card now on top: the run
    /// under it is in force again, unless another joker still lies on top.
    pub fn joker_taken_back(&mut self, top: Option<Card>) {
        if !top.is_some_and(Card::is_joker) {
            self.bits &= !JOKER_ON_TOP;
        }
    }

    /// The run the pile shows: its top cards of one rank (under any jokers on top), counted
    /// as if placed in that order (a position, or a snapshot saved before the run was kept).
    pub fn of_pile(pile: &[Card], deck: &CardCounts) -> RankRun {
        let jokers = pile.iter().rev().take_while(|c| c.is_joker()).count();
        let under = &pile[..pile.len() - jokers];
        let mut run = RankRun::default();
        if let Some(r) = under.last().and_then(|c| c.rank()) {
            let k = under.iter().rev().take(4).take_while(|c| c.rank() == Some(r)).count();
            for &c in &under[under.len() - k..] {
                run.push(c, deck.count(c));
            }
        }
        if jokers > 0 {
            run.bits |= JOKER_ON_TOP;
        }
        run
    }

    /// The run as saved (its kept cards), checked against the pile and the deck: cards of
    /// one rank, at most four, none more often than the deck holds it, the last of them the
    /// highest card of the pile with a rank when the pile holds one under its jokers on top
    /// (a reshuffle may have left the jokers alone).
    pub fn from_saved(cards: &[Card], pile: &[Card], deck: &CardCounts) -> Result<RankRun, String> {
        let mut run = RankRun::default();
        for &c in cards {
            run.push(c, deck.count(c));
        }
        let jokers = pile.iter().rev().take_while(|c| c.is_joker()).count();
        let under = pile.len().checked_sub(jokers + 1).map(|i| pile[i]);
        let ends = match under {
            Some(u) => run.kept().last() == Some(u),
            None => jokers > 0 || cards.is_empty(),
        };
        if cards.len() > 4 || run.len() != cards.len() || !ends {
            let top = pile.last().map_or("an empty pile".to_string(), |c| format!("top card {c}"));
            return Err(format!(
                "rank_run: the cards of one rank placed last, at most 4, ending with the top card \
                 (under the jokers on top), got {cards:?} on {top}"
            ));
        }
        if jokers > 0 {
            run.bits |= JOKER_ON_TOP;
        }
        Ok(run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// Cards from text. `testing::cards` does the same, but `testing` imports `table`, which
    /// imports this file: using it here would make the import circle the layout test refuses.
    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|x| x.parse().unwrap()).collect()
    }

    fn run_of(s: &str, copies: u8) -> Vec<Card> {
        let mut run = RankRun::default();
        for c in cards(s) {
            run.push(c, copies);
        }
        run.cards().collect()
    }

    #[test]
    fn a_run_holds_the_last_cards_of_one_rank() {
        assert_eq!(run_of("5H 5D 5C 5S", 1), cards("5H 5D 5C 5S"));
        assert_eq!(run_of("5H 5D 9D 9C", 1), cards("9D 9C"));
        assert_eq!(run_of("5H 5D RJ", 1), vec![]);
        assert_eq!(run_of("5H 5D 9C RJ 9D", 1), cards("9D"));
        assert_eq!(run_of("5H RJ 5D", 1), cards("5D"));
        // Past four, the oldest drops out (the hand has ended at four under the rule).
        assert_eq!(run_of("5H 5D 5C 5S 5H", 2), cards("5D 5C 5S 5H"));
    }

    #[test]
    fn a_card_played_again_counts_once_in_a_single_deck_and_twice_in_two() {
        // One pack: 5H back from the stock is the same card; the run restarts after it.
        assert_eq!(run_of("5H 5D 5H", 1), cards("5D 5H"));
        assert_eq!(run_of("5H 5D 5C 5D", 1), cards("5C 5D"));
        // Two packs hold two 5H: both count.
        assert_eq!(run_of("5H 5D 5H", 2), cards("5H 5D 5H"));
        assert_eq!(run_of("5H 5H 5H", 2), cards("5H 5H"));
    }

    #[test]
    fn a_joker_ends_the_run_and_taken_back_restores_it() {
        let mut run = RankRun::default();
        for c in cards("5H 5D RJ BJ") {
            run.push(c, 1);
        }
        assert!(run.is_empty());
        run.joker_taken_back(Some(Card::RED_JOKER));
        assert!(run.is_empty(), "a joker still lies on top");
        run.joker_taken_back(cards("5D").first().copied());
        assert_eq!(run.cards().collect::<Vec<_>>(), cards("5H 5D"));
        run.push(Card::RED_JOKER, 1);
        run.push(cards("5C")[0], 1);
        assert_eq!(run.cards().collect::<Vec<_>>(), cards("5C"), "a five on the joker starts anew");
    }

    #[test]
    fn a_saved_run_must_end_with_the_top_card() {
        let deck = Rules::load("jokers_and_nines", 2, None).unwrap().deck;
        let pile = cards("9C 5H 5D");
        assert!(RankRun::from_saved(&cards("5H 5D"), &pile, &deck).is_ok());
        for bad in ["5H", "5D 5H", "9D 5D", "", "5D 5D", "5H 5C 5S 5H 5D"] {
            let e = RankRun::from_saved(&cards(bad), &pile, &deck).unwrap_err();
            assert!(e.starts_with("rank_run:"), "{bad}: {e}");
        }
        // Under jokers on top, the run kept ends with the card under them.
        let run = RankRun::from_saved(&cards("5H 5D"), &cards("9C 5H 5D RJ"), &deck).unwrap();
        assert!(run.is_empty());
        assert_eq!(run.kept().count(), 2);
        assert!(RankRun::from_saved(&cards("9C"), &cards("9C 5H 5D RJ"), &deck).is_err());
        // A reshuffle may leave a joker alone on the pile, with the run under it kept.
        assert!(RankRun::from_saved(&cards("5H 5D"), &cards("RJ"), &deck).is_ok());
        assert!(RankRun::from_saved(&cards("5D"), &[], &deck).is_err(), "an empty pile has no run");
    }
}
