//! What players know: the cards seen going into other hands ([`SeenCards`]), the suits each
//! hand declined ([`Game::declined_suits`]), the faces the public record rules out of each
//! hand ([`Voids`]), cards an agent knows of ([`KnownCards`]), and determinization for search
//! agents.

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

/// Groups of faces a [`Voids`] counts by: the four suits (clubs, diamonds, hearts, spades),
/// then the jokers.
pub const VOID_GROUPS: usize = 5;

/// What the public record rules out of one hand ([`Game::voids`]): the hand holds at most
/// `room[g]` cards of `faces` in group `g` ([`VOID_GROUPS`]).
///
/// When a player draws or passes at the start of its turn instead of playing, it held no card
/// it could have played then: the faces that were playable (a fact where the rules make a
/// player who can play do so, `draw.voluntary = false`; where a player may draw at will, the
/// belief that it would not draw holding a playable card other than a wild, so wild faces are
/// left out). Those faces join `faces`. Every card it takes unseen since (a draw, a penalty,
/// a card given face down) adds one to each group's room, a card of `faces` it takes openly
/// (picked up from the pile) one to its group's, and one it plays takes one off. The record
/// moves with the hand when hands are passed or swapped, and is cleared when the hand is
/// emptied and at each new hand. A game restored from a snapshot or a position starts with
/// none (less information, never wrong).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Voids {
    pub faces: u64,
    pub room: [u8; VOID_GROUPS],
}

impl Voids {
    /// The group of `c`: its suit's index, 4 for a joker.
    #[inline]
    pub fn group(c: Card) -> usize {
        c.suit().map_or(VOID_GROUPS - 1, |s| s.index())
    }

    /// Whether `hand` is consistent with the record: within each group, no more cards of
    /// `faces` than its room.
    pub fn allows(&self, hand: &CardCounts) -> bool {
        let mut held = [0u32; VOID_GROUPS];
        for c in crate::card_set::Faces::new(hand.bits() & self.faces) {
            held[Self::group(c)] += u32::from(hand.count(c));
        }
        held.iter().zip(&self.room).all(|(&h, &r)| h <= u32::from(r))
    }
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

    /// What the public record rules out of seat `q`'s hand (see [`Voids`]).
    pub fn voids(&self, q: usize) -> Voids {
        match (self.voids.get(q), self.void_room.get(q)) {
            (Some(&faces), Some(&room)) => Voids { faces, room },
            _ => Voids::default(),
        }
    }

    /// The player to act draws or passes with no card placed this turn: mark the suit in force
    /// and, at the start of a turn, record the faces it could have played ([`Voids`]).
    /// `pass` says which: a pass proves nothing where passing follows one draw whatever the hand.
    #[inline]
    pub(super) fn note_declined(&mut self, pass: bool) {
        if self.turn.cards != 0 {
            return;
        }
        if let Some(s) = self.active_suit() {
            self.declined[self.current as usize] |= 1 << s.index();
        }
        let one_draw = self.rules.settings.pass_when == crate::rules::PassWhen::AfterOneDraw;
        if self.phase == Phase::Play && !(pass && one_draw) && self.interlude.kind == InterludeKind::None {
            let p = self.current as usize;
            let mut faces = self.void_faces();
            if self.rules.settings.draw_voluntary {
                // A belief, not a fact: a player may draw holding a wild to keep it.
                faces &= !(self.wild_bits() | self.own_wild_bits(p));
            }
            self.voids[p] |= faces;
        }
    }

    /// The faces the player to act could play now, whatever it holds (the faces its hand
    /// cannot hold when the rules make it draw or pass): the cards [`Game::playable_basic`]
    /// accepts (a wild playable only without another play included, since there is none) and,
    /// in stalin, the red cards the rogue pile takes.
    fn void_faces(&self) -> u64 {
        let all = self.rules.deck.bits();
        let mut out = 0;
        if self.restrict == Restrict::None && self.wild_rank.is_none() {
            // As `playable_bits` with every face held: the plain faces by the matching bitset,
            // the unconditional wilds, then the conditional wilds one by one.
            let own = self.own_wild_bits(self.current as usize);
            let wilds = self.wild_bits() | own;
            let free = own | self.rules.free_wild_mask;
            out = if self.free_play { all & !wilds } else { all & !wilds & self.matching_bits() };
            out |= all & free;
            for c in crate::card_set::Faces::new(all & wilds & !free) {
                if self.playable_basic(c) {
                    out |= bit(c);
                }
            }
        } else {
            for c in crate::card_set::Faces::new(all) {
                if self.playable_basic(c) {
                    out |= bit(c);
                }
            }
        }
        if self.rules.rogue {
            for c in crate::card_set::Faces::new(all) {
                if self.rogue_ok(c) {
                    out |= bit(c);
                }
            }
        }
        out
    }

    /// Seat `q` took `k` cards nobody else saw: each group's room grows by `k`.
    #[inline]
    pub(super) fn void_took_unseen(&mut self, q: usize, k: usize) {
        if self.voids[q] != 0 {
            let k = k.min(u8::MAX as usize) as u8;
            for r in &mut self.void_room[q] {
                *r = r.saturating_add(k);
            }
        }
    }

    /// Seat `q` took `c` in view of everyone.
    #[inline]
    pub(super) fn void_took(&mut self, q: usize, c: Card) {
        if self.voids[q] & bit(c) != 0 {
            let r = &mut self.void_room[q][Voids::group(c)];
            *r = r.saturating_add(1);
        }
    }

    /// Seat `q` played `c` in view of everyone; an emptied hand has nothing left to rule out.
    #[inline]
    pub(super) fn void_played(&mut self, q: usize, c: Card) {
        if self.voids[q] & bit(c) != 0 {
            let r = &mut self.void_room[q][Voids::group(c)];
            *r = r.saturating_sub(1);
        }
        if self.hands[q].is_empty() {
            self.voids[q] = 0;
            self.void_room[q] = [0; VOID_GROUPS];
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
    /// other hands and the stock) is re-dealt at random, keeping what `player` knows: its own
    /// hand, the discard pile (public), every hand size, the stock size, the cards it saw go
    /// into other hands and that are still there ([`SeenCards`]: given, passed, swapped,
    /// picked up), what the record of declined plays rules out of each other hand
    /// ([`Voids`]: a hand with a record is dealt, in order, from the shuffled hidden cards it
    /// may hold) and the whole public state (phase, chain, turn, scores). Without any record
    /// the deal is uniform. The copy's random generator is re-seeded from `rng`, so future
    /// reshuffles do not leak either.
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
        // The hands with a record first, each from the cards it may hold (none: the plain deal).
        let dealt = self.deal_ruled_hands(player, &keep, &mut g, cards.as_mut_slice(), rng);
        let ruled = |q: usize| q != player && self.voids[q] != 0;
        let mut it = cards.as_slice()[dealt..].iter().copied();
        for q in (0..n).filter(|&q| q != player && !ruled(q)) {
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

    /// Deal the hands of the seats other than `player` that have a record ([`Voids`]) into
    /// `g`: each gets its kept cards `keep[q]`, then, in order, the cards of `cards` (the
    /// shuffled hidden cards) its record allows. A seat left short takes a card an earlier
    /// seat holds in exchange for one that seat may hold instead. Should the cards still be
    /// too few (a record that is a belief, not a fact), the hand is filled from the cards
    /// passed over. The cards dealt are moved to the front of `cards` and the rest shuffled
    /// again; returns how many were dealt (0 when no seat has a record).
    fn deal_ruled_hands<R: rand::Rng + ?Sized>(
        &self,
        player: usize,
        keep: &[CardCounts; MAX_PLAYERS],
        g: &mut Game,
        cards: &mut [Card],
        rng: &mut R,
    ) -> usize {
        let n = self.n as usize;
        let ruled = |q: usize| q != player && self.voids[q] != 0;
        // Per ruled seat: the room left in each group, and the cards dealt to it (not kept).
        let mut room = [[0u8; VOID_GROUPS]; MAX_PLAYERS];
        let mut got = [CardCounts::new(); MAX_PLAYERS];
        let fits = |room: &[u8; VOID_GROUPS], v: u64, c: Card| v & bit(c) == 0 || room[Voids::group(c)] > 0;
        let take = |room: &mut [u8; VOID_GROUPS], v: u64, c: Card| {
            if v & bit(c) != 0 {
                room[Voids::group(c)] -= 1;
            }
        };
        let give_back = |room: &mut [u8; VOID_GROUPS], v: u64, c: Card| {
            if v & bit(c) != 0 {
                room[Voids::group(c)] += 1;
            }
        };
        let mut next = 0;
        for q in (0..n).filter(|&q| ruled(q)) {
            let v = self.voids[q];
            room[q] = self.void_room[q];
            for c in keep[q].iter().filter(|&c| v & bit(c) != 0) {
                let r = &mut room[q][Voids::group(c)];
                *r = r.saturating_sub(1);
            }
            let need = self.hands[q].len() - keep[q].len();
            for i in next..cards.len() {
                if got[q].len() >= need {
                    break;
                }
                if fits(&room[q], v, cards[i]) {
                    take(&mut room[q], v, cards[i]);
                    got[q].add(cards[i]);
                    cards.swap(next, i);
                    next += 1;
                }
            }
            // Short: an earlier seat `r` hands over a card `x` this seat may hold and takes an
            // undealt card `cards[i]` in its place.
            'repair: while got[q].len() < need {
                for r in (0..q).filter(|&r| ruled(r)) {
                    let offered = got[r].bits();
                    for x in crate::card_set::Faces::new(offered) {
                        if !fits(&room[q], v, x) {
                            continue;
                        }
                        let vr = self.voids[r];
                        give_back(&mut room[r], vr, x);
                        if let Some(i) = (next..cards.len()).find(|&i| fits(&room[r], vr, cards[i])) {
                            take(&mut room[r], vr, cards[i]);
                            got[r].remove(x);
                            got[r].add(cards[i]);
                            take(&mut room[q], v, x);
                            got[q].add(x);
                            // `x` replaces `cards[i]` among the dealt cards.
                            cards[i] = x;
                            cards.swap(next, i);
                            next += 1;
                            continue 'repair;
                        }
                        take(&mut room[r], vr, x);
                    }
                }
                break;
            }
            while got[q].len() < need {
                got[q].add(cards[next]);
                next += 1;
            }
        }
        for q in (0..n).filter(|&q| ruled(q)) {
            g.hands[q] = keep[q];
            for c in got[q].iter() {
                g.hands[q].add(c);
            }
        }
        if next > 0 {
            shuffle(&mut cards[next..], rng);
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{derive_seed, random_step, test_tables};

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|x| x.parse().unwrap()).collect()
    }

    fn faces(s: &str) -> u64 {
        cards(s).iter().fold(0, |m, &c| m | bit(c))
    }

    /// One Left: "If you have a card that you can play, you must play it. If you don't have a
    /// card you can play, you must draw." Seat 1, holding no heart, no nine and no ace (wild),
    /// draws on the nine of hearts: it held none of the faces playable there, and may hold at
    /// most the one card it drew in each suit. No determinization gives it more.
    #[test]
    fn a_forced_draw_rules_the_playable_faces_out_of_the_hand() {
        let rules = Arc::new(Rules::load("one_left", 2, None).unwrap());
        let mut g = Game::new(rules, 1);
        // Dealt alternately from seat 0; then the start card, then the stock from its top.
        let hand0 = cards("9H 2C 3D 4D 6D 7D TD");
        let hand1 = cards("4C 6C 7C 8C TC JC QC");
        let mut deck: Vec<Card> = hand0.iter().zip(&hand1).flat_map(|(&a, &b)| [a, b]).collect();
        deck.extend(cards("5H 2S"));
        g.reset(7, &deck).unwrap();
        assert_eq!(g.current_player(), Some(0));
        g.step(Action::Play("9H".parse().unwrap()).id()).unwrap();
        assert_eq!(g.legal_action_vec(), vec![action::DRAW], "seat 1 cannot play on the nine of hearts");
        g.step(action::DRAW).unwrap();
        assert_eq!(g.current_player(), Some(0), "the two of spades is not playable: the turn passed");
        let hearts = faces("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH");
        let v = g.voids(1);
        assert_eq!(v.faces, hearts | faces("9C 9D 9S AC AD AS"));
        assert_eq!(v.room, [1; VOID_GROUPS], "one unseen card drawn since");
        assert!(v.allows(g.hand(1)), "true of the real hand");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut two_void_cards = 0;
        for _ in 0..500 {
            let d = g.determinize(0, &mut rng);
            assert!(v.allows(d.hand(1)), "{:?}", d.hand(1));
            assert!((d.hand(1).bits() & hearts).count_ones() <= 1);
            two_void_cards += usize::from((d.hand(1).bits() & v.faces).count_ones() >= 2);
        }
        // One card per suit: two of the ruled-out faces in different suits is possible.
        assert!(two_void_cards > 0);
    }

    /// Along random games of every preset where the rules make a player who can play do so,
    /// every hand is always within its record (the record states facts there), and the
    /// record is used.
    #[test]
    fn voids_are_true_of_the_real_hands_where_play_is_forced() {
        let (mut positions, mut ruled) = (0, 0);
        for (preset, n, rules) in test_tables().into_iter().filter(|t| !t.2.settings.draw_voluntary) {
            let mut g = Game::new(rules, derive_seed(3, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(11 + n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for _ in 0..20_000 {
                for q in 0..n {
                    let v = g.voids(q);
                    assert!(v.allows(g.hand(q)), "{preset} {n}p seat {q}: {v:?}\n{}", g.render());
                    ruled += usize::from(v.faces & !g.hand(q).bits() != 0);
                }
                positions += 1;
                random_step(&mut g, &mut bot, &mut mask, 3, &mut episode);
            }
        }
        assert!(positions > 100_000 && ruled > positions / 4, "{ruled} ruled-out hands in {positions} positions");
    }

    /// Determinizations keep every other hand within its record, in every preset (the record
    /// of a voluntary draw is a belief a random player need not honour: the deal keeps to it
    /// whenever the hidden cards allow).
    #[test]
    fn no_determinization_contradicts_the_record() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let mut checked = 0;
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules, derive_seed(4, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for k in 0..3000 {
                if k % 5 == 0 && g.current_player().is_some() {
                    let o = k / 5 % n;
                    // Only a record the real hands keep can be kept by every deal.
                    let true_record = (0..n).all(|q| g.voids(q).allows(g.hand(q)));
                    let d = g.determinize(o, &mut rng);
                    for q in (0..n).filter(|&q| q != o) {
                        assert_eq!(d.hand(q).len(), g.hand(q).len());
                        if true_record {
                            assert!(g.voids(q).allows(d.hand(q)), "{preset} {n}p: seat {q} for {o}");
                            checked += usize::from(g.voids(q).faces != 0);
                        }
                    }
                    assert_eq!(d.card_count(), g.card_count());
                }
                random_step(&mut g, &mut bot, &mut mask, 4, &mut episode);
            }
        }
        assert!(checked > 2000, "only {checked} hands with a record checked");
    }
}
