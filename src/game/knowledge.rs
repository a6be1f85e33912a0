//! What players know: the cards seen going into other hands ([`SeenCards`]), the suits each
//! hand declined ([`Game::declined_suits`]), cards an agent knows of ([`KnownCards`]), and
//! determinization for search agents.

use super::*;

/// `bits[o][q]`: the faces observer `o` knows seat `q` holds (at least one copy each). A bit
/// is set when `o` sees the card go into `q`'s hand (a card `o` gave to `q`, a hand `o` passed
/// or swapped to `q`, cards `q` picked up from the discard pile), moves with `q`'s hand when
/// hands are passed or swapped, and is cleared for every observer when `q` plays or gives a
/// copy of that face (which copy left is not known). So a set bit is always true of the real
/// hands; [`Game::determinize`] keeps those cards in place. Only faces are tracked: with
/// several packs a player knows at least one copy is there. A game restored from a snapshot
/// or a position starts with nothing seen (less information, never wrong).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeenCards {
    pub bits: [[u64; MAX_PLAYERS]; MAX_PLAYERS],
}

/// Cards whose location a player knows beyond what the game tracks itself: seat `q` is known
/// to hold `in_hand[q]` (a card listed here that `q` no longer holds is ignored). The game
/// already tracks the cards each player saw go into another hand ([`SeenCards`]: gives,
/// passed and swapped hands, picked-up discards) and [`Game::determinize`] keeps those in
/// place; this is for knowledge an agent gathers on its own, passed to
/// [`Game::determinize_with`].
#[derive(Clone, Debug, Default)]
pub struct KnownCards {
    pub in_hand: [CardCounts; MAX_PLAYERS],
}

impl Game {
    /// Whether any card of `rules` moves cards openly between players (see [`SeenCards`]).
    pub(super) fn tracks_seen(rules: &Rules) -> bool {
        rules.moves_cards_openly
    }

    /// What `observer` has seen go into other hands (see [`SeenCards`]): face bits per seat,
    /// or `None` in presets where cards never move openly between players.
    pub fn seen_cards(&self, observer: usize) -> Option<&[u64; MAX_PLAYERS]> {
        self.seen.as_ref().map(|s| &s.bits[observer])
    }

    /// Suits the hand seat `q` holds has declined, one bit per suit index (clubs = bit 0, ...,
    /// spades = bit 3): the suit in force ([`Game::active_suit`]) when that hand drew from the
    /// stock or passed at a turn in which it had placed no card, during this hand, and no card
    /// of that suit has been played from it since. Public: every player saw the draw, the pass
    /// and the plays. It records what happened, not what the hand holds: drawing, a penalty
    /// or a give may have brought that suit in since. The mark follows the hand when hands
    /// are passed or swapped and is cleared for a suit the seat picks up from the discard
    /// pile; a game restored from a position starts with none.
    pub fn declined_suits(&self, q: usize) -> u8 {
        self.declined.get(q).copied().unwrap_or(0)
    }

    /// The player to act draws or passes with no card placed this turn: mark the suit in force.
    #[inline]
    pub(super) fn note_declined(&mut self) {
        if self.turn.cards == 0
            && let Some(s) = self.active_suit()
        {
            self.declined[self.current as usize] |= 1 << s.index();
        }
    }

    /// A card of `c`'s suit left or went openly into `q`'s hand: clear that suit's mark.
    #[inline]
    pub(super) fn clear_declined(&mut self, q: usize, c: Card) {
        if let Some(s) = c.suit() {
            self.declined[q] &= !(1 << s.index());
        }
    }

    /// `q` gave up a copy of `c`: no observer can still be sure `q` holds that face.
    pub(super) fn forget_card(&mut self, q: usize, c: Card) {
        if let Some(s) = self.seen.as_deref_mut() {
            for o in s.bits.iter_mut() {
                o[q] &= !bit(c);
            }
        }
    }

    /// A copy of the game as `player` could imagine it: every card hidden from `player` (the
    /// other hands and the stock) is re-dealt uniformly at random, keeping what `player`
    /// knows: its own hand, the discard pile (public), every hand size, the stock size, the
    /// cards it saw go into other hands and that are still there ([`SeenCards`]: given,
    /// passed, swapped, picked up) and the whole public state (phase, chain, turn, scores).
    /// The copy's random generator is re-seeded from `rng`, so future reshuffles do not leak
    /// either.
    ///
    /// The hidden cards are collected in card order before shuffling, so two games that
    /// `player` cannot tell apart give the same copy for the same `rng` state: a search
    /// agent built on it cannot depend on hidden information.
    ///
    /// Known limits: a stock turned over without shuffling (`turn_over_no_shuffle`) has a
    /// public order that is re-dealt here as if unknown (less information, never more); and
    /// when `player` is not the player to act during `after_draw`, the card that player just
    /// drew stays in its hand so that the turn stays consistent.
    pub fn determinize<R: rand::Rng + ?Sized>(&self, player: usize, rng: &mut R) -> Game {
        self.determinize_with(player, &KnownCards::default(), rng)
    }

    /// [`Game::determinize`] with cards known to be in other players' hands kept there.
    pub fn determinize_with<R: rand::Rng + ?Sized>(&self, player: usize, known: &KnownCards, rng: &mut R) -> Game {
        let n = self.n as usize;
        let mut g = self.clone();
        // Cards that stay where they are in every seat but `player`.
        let mut keep = [CardCounts::new(); MAX_PLAYERS];
        let seen = self.seen_cards(player);
        for q in (0..n).filter(|&q| q != player) {
            for c in known.in_hand[q].faces() {
                for _ in 0..known.in_hand[q].count(c).min(self.hands[q].count(c)) {
                    keep[q].add(c);
                }
            }
            if q == self.current as usize && self.phase == Phase::Keep {
                // The keeper's choices so far stay in its hand.
                for c in self.kept.faces() {
                    while keep[q].count(c) < self.kept.count(c) {
                        keep[q].add(c);
                    }
                }
            }
            let mut bits = seen.map_or(0, |b| b[q]);
            while bits != 0 {
                let c = Card(bits.trailing_zeros() as u8);
                bits &= bits - 1;
                debug_assert!(self.hands[q].contains(c), "a seen card is still held");
                if keep[q].count(c) == 0 && self.hands[q].contains(c) {
                    keep[q].add(c);
                }
            }
            if q == self.current as usize && self.phase == Phase::AfterDraw {
                if let Some(c) = self.turn.drawn_card.filter(|&c| self.hands[q].count(c) > keep[q].count(c)) {
                    keep[q].add(c);
                }
            }
        }
        // The hidden pool, in card order.
        let mut pool = CardCounts::new();
        for q in (0..n).filter(|&q| q != player) {
            for c in self.hands[q].iter() {
                pool.add(c);
            }
            for c in keep[q].iter() {
                pool.remove(c);
            }
        }
        for &c in self.stock.as_slice() {
            pool.add(c);
        }
        let mut cards = Pile::new();
        for c in pool.iter() {
            cards.push(c);
        }
        shuffle(cards.as_mut_slice(), rng);
        let mut it = cards.as_slice().iter().copied();
        for q in (0..n).filter(|&q| q != player) {
            let size = self.hands[q].len();
            g.hands[q] = keep[q];
            while g.hands[q].len() < size {
                g.hands[q].add(it.next().expect("the pool holds every hidden card"));
            }
        }
        g.stock.clear();
        for c in it {
            g.stock.push(c);
        }
        if let Some(sc) = g.seen.as_deref_mut() {
            // What the others know about hidden hands is hidden too: keep only what `player`
            // knows as well, so the copy stays consistent with its re-dealt hands.
            let mine = sc.bits[player];
            for (o, row) in sc.bits.iter_mut().enumerate().filter(|&(o, _)| o != player) {
                for q in (0..n).filter(|&q| q != player && q != o) {
                    row[q] &= mine[q];
                }
            }
        }
        // A pending joker challenge: its legality follows the re-dealt hand of its player.
        if let Some(b) = g.challenge.filter(|b| b.by as usize != player) {
            g.challenge = Some(Bluff { legal: g.bluff_legal(&b), ..b });
        }
        if let Some(b) = g.turn.bluff.filter(|b| b.by as usize != player) {
            g.turn.bluff = Some(Bluff { legal: g.bluff_legal(&b), ..b });
        }
        g.rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
        g
    }
}
