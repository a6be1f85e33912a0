//! What players know: the cards seen going into other hands ([`SeenCards`](super::table::SeenCards)), the suits each
//! hand declined ([`Game::declined_suits`]) and the faces the public record rules out of each
//! hand ([`Voids`]), kept up to date as the game is played. Determinization, which deals the
//! hidden cards by this knowledge, is in `determinize`.

use super::bits::bit;
use super::state::{InterludeKind, Phase, Restrict};
use super::table::Game;
use crate::card::{Card, NUM_FACES};
use crate::card_set::CardCounts;
use crate::rules::{MAX_PLAYERS, Rules};

/// What the public record rules out of one hand ([`Game::voids`]): the hand holds at most
/// `room` cards of `faces`.
///
/// When a player draws or passes at the start of its turn instead of playing, it held no card
/// it could have played then: the faces that were playable (a fact where the rules make a
/// player who can play do so, `draw.voluntary = false`; where a player may draw at will, the
/// belief that it would not draw holding a playable card other than a wild, so wild faces are
/// left out). Those faces join `faces`: any of them the hand holds came in since. Every card
/// it takes unseen since (a draw, a penalty, a card given face down) and every card of
/// `faces` it takes openly (picked up from the pile) adds one to `room`, and every card of
/// `faces` it plays takes one off. The record moves with the hand when hands are passed or
/// swapped, and is cleared when the hand is emptied and at each new hand. A snapshot keeps
/// it; a game set up from a position starts with none (less information, never wrong).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Voids {
    pub faces: u64,
    pub room: u8,
}

/// A seat's record in one word, as [`Game`] keeps it: the faces in the low [`NUM_FACES`] bits,
/// the room in the top byte (so a play or a draw updates one word; the room is never more
/// than 255).
pub(super) const VOID_FACES: u64 = (1 << NUM_FACES) - 1;
pub(super) const VOID_ROOM_SHIFT: u32 = 56;

/// The record of `faces` (its face bits; any room bits are replaced) with `room`.
#[inline]
pub(super) fn pack_void(faces: u64, room: u8) -> u64 {
    (faces & VOID_FACES) | u64::from(room) << VOID_ROOM_SHIFT
}

impl Voids {
    /// Whether `hand` is consistent with the record: no more cards of `faces` than `room`.
    pub fn allows(&self, hand: &CardCounts) -> bool {
        hand.count_in(self.faces) <= u32::from(self.room)
    }
}

impl Game {
    /// Whether any card of `rules` moves cards openly between players (see [`SeenCards`](super::table::SeenCards)).
    pub(super) fn tracks_seen(rules: &Rules) -> bool {
        rules.moves_cards_openly
    }

    /// What `observer` has seen go into other hands (see [`SeenCards`](super::table::SeenCards)): face bits per seat,
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
        match self.voids.get(q) {
            Some(&v) => Voids { faces: v & VOID_FACES, room: (v >> VOID_ROOM_SHIFT) as u8 },
            None => Voids::default(),
        }
    }

    /// The faces of seat `q`'s record ([`Voids::faces`]).
    #[inline]
    pub(super) fn void_faces_of(&self, q: usize) -> u64 {
        self.voids[q] & VOID_FACES
    }

    /// The room of seat `q`'s record ([`Voids::room`]).
    #[inline]
    pub(super) fn void_room_of(&self, q: usize) -> u8 {
        (self.voids[q] >> VOID_ROOM_SHIFT) as u8
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
        if self.record_voids {
            self.note_voids(pass);
        }
    }

    /// The record part of [`Game::note_declined`], out of line: a search's worlds skip it.
    #[inline(never)]
    fn note_voids(&mut self, pass: bool) {
        let one_draw = self.rules.settings.pass_when == crate::rules::PassWhen::AfterOneDraw;
        if self.phase == Phase::Play && !(pass && one_draw) && self.interlude.kind == InterludeKind::None {
            let p = self.current as usize;
            // A pass under `pass.voluntary = false` is a fact: the player could play nothing.
            let voluntary = self.rules.settings.draw_voluntary && (!pass || self.rules.settings.pass_voluntary);
            let mut faces = self.void_faces(voluntary);
            if voluntary {
                // A belief, not a fact: a player may draw holding a wild to keep it.
                faces &= !(self.wild_bits() | self.own_wild_bits(p));
            }
            debug_assert_eq!(faces & !VOID_FACES, 0);
            self.voids[p] |= faces;
        }
    }

    /// The faces the player to act could play now, whatever it holds (the faces its hand
    /// cannot hold when the rules make it draw or pass): the cards [`Game::playable_basic`]
    /// accepts (a wild playable only without another play included, since there is none) and,
    /// in stalin, the red cards the rogue pile takes. With `no_wilds` the caller drops the
    /// player's wild faces from the result, so the fast path leaves them out unchecked.
    fn void_faces(&self, no_wilds: bool) -> u64 {
        let all = self.rules.deck.bits();
        let mut out = 0;
        if self.restrict == Restrict::None && self.wild_rank.is_none() {
            // As `playable_bits` with every face held: the plain faces by the matching bitset,
            // the unconditional wilds, then the conditional wilds one by one.
            let own = self.own_wild_bits(self.current as usize);
            let wilds = self.wild_bits() | own;
            out = if self.free_play { all & !wilds } else { all & !wilds & self.matching_bits() };
            if no_wilds {
                // Every face below is in `wilds` (the unconditional wilds are wilds), which
                // the caller drops: `wild_bits() | own_wild_bits(p)` with no instapik rank.
                debug_assert_eq!(self.rules.free_wild_mask & !self.rules.wild_mask, 0);
                return out | self.rogue_faces(all);
            }
            let free = own | self.rules.free_wild_mask;
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
        out | self.rogue_faces(all)
    }

    /// In stalin, the faces of `all` the rogue pile takes now; none in other games.
    fn rogue_faces(&self, all: u64) -> u64 {
        let mut out = 0;
        if self.rules.rogue {
            for c in crate::card_set::Faces::new(all) {
                if self.rogue_ok(c) {
                    out |= bit(c);
                }
            }
        }
        out
    }

    /// Seat `q` took `k` cards nobody else saw.
    #[inline]
    pub(super) fn void_took_unseen(&mut self, q: usize, k: usize) {
        let v = self.voids[q];
        if v != 0 {
            let room = ((v >> VOID_ROOM_SHIFT) as u8).saturating_add(k.min(u8::MAX as usize) as u8);
            self.voids[q] = pack_void(v, room);
        }
    }

    /// Seat `q` took `c` in view of everyone.
    #[inline]
    pub(super) fn void_took(&mut self, q: usize, c: Card) {
        let v = self.voids[q];
        if v & bit(c) != 0 {
            self.voids[q] = pack_void(v, ((v >> VOID_ROOM_SHIFT) as u8).saturating_add(1));
        }
    }

    /// Seat `q` played `c` in view of everyone; an emptied hand has nothing left to rule out.
    #[inline]
    pub(super) fn void_played(&mut self, q: usize, c: Card) {
        // Without a branch on the face (which a random game makes unpredictable): the room
        // less one when `c` is a face of the record, less nothing otherwise.
        let v = self.voids[q];
        let hit = (v >> c.index()) & 1;
        let v = pack_void(v, ((v >> VOID_ROOM_SHIFT) as u8).saturating_sub(hit as u8));
        self.voids[q] = if self.hands[q].is_empty() { 0 } else { v };
    }

    /// A card of `c`'s suit left or went openly into `q`'s hand: clear that suit's mark.
    #[inline]
    pub(super) fn clear_declined(&mut self, q: usize, c: Card) {
        if let Some(s) = c.suit() {
            self.declined[q] &= !(1 << s.index());
        }
    }

    /// `q` gave up a copy of `c`: no observer can still be sure `q` holds that face. The
    /// rules are asked first: a game holds seen cards only under rules that move cards openly
    /// ([`Game::set_rules`] parks them otherwise), and the rules stay in cache where the
    /// game's last line, which holds the seen cards, would be read at every play.
    #[inline]
    pub(super) fn forget_card(&mut self, q: usize, c: Card) {
        if !Game::tracks_seen(&self.rules) {
            return;
        }
        if let Some(s) = self.seen.as_deref_mut() {
            for o in s.bits.iter_mut() {
                o[q] &= !bit(c);
            }
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{self, Action, ActionMask};
    use crate::game::testing::{cards, faces, random_step, test_tables};
    use crate::seed::derive_seed;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use std::sync::Arc;

    /// One Left: "If you have a card that you can play, you must play it. If you don't have a
    /// card you can play, you must draw." Seat 1, holding no heart, no nine and no ace (wild),
    /// draws on the nine of hearts: it held none of the faces playable there, and may hold at
    /// most the one card it drew among them. No determinization gives it more.
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
        assert_eq!(v.room, 1, "one unseen card drawn since");
        assert!(v.allows(g.hand(1)), "true of the real hand");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut held = [0; 2];
        for _ in 0..500 {
            let d = g.determinize(0, &mut rng);
            assert!(v.allows(d.hand(1)), "{:?}", d.hand(1));
            let k = (d.hand(1).bits() & v.faces).count_ones() as usize;
            assert!(k <= 1, "at most the drawn card is one of them");
            held[k] += 1;
        }
        // Uniform over the hands the record allows: of the 44 hidden cards (52 less seat 0's
        // six and the two on the pile) 17 are hearts, nines or aces (19 less 5H and 9H), 27
        // are not; an 8-card hand with none of them is one of C(27, 8) = 2,220,075, one with
        // exactly one of 17 * C(27, 7) = 15,096,510: a share of 0.128.
        assert_eq!((g.hand(0).len(), g.discard().len(), g.hand(1).len()), (6, 2, 8));
        let p0: f64 = 2_220_075.0 / (2_220_075.0 + 15_096_510.0);
        let sd = (500.0 * p0 * (1.0 - p0)).sqrt();
        assert!((held[0] as f64 - 500.0 * p0).abs() < 4.0 * sd, "{held:?}, expected {:.0} without", 500.0 * p0);
    }

    /// The record is one count for all the faces a hand declined, whatever their suits: after
    /// one unseen card, one of them at most, so a ruled-out club and a ruled-out spade together
    /// are refused (room per suit would allow one of each).
    #[test]
    fn the_room_counts_the_declined_faces_across_suits() {
        let v = Voids { faces: faces("AH 9H 9C 9S AS"), room: 1 };
        let hand = |s: &str| {
            let mut h = CardCounts::new();
            cards(s).into_iter().for_each(|c| h.add(c));
            h
        };
        assert!(v.allows(&hand("9C 4D 5D")));
        assert!(!v.allows(&hand("9C AS 5D")), "two of the faces, in different suits");
        assert!(!v.allows(&hand("9H AH")), "two of the faces, in one suit");
        assert!(Voids { room: 2, ..v }.allows(&hand("9C AS 5D")));
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

    /// Where the player's wilds are dropped from the record (a voluntary draw), the short path
    /// that leaves them out unchecked records the faces the full computation does, in every
    /// preset at every position where the player to act could decline.
    #[test]
    fn the_void_faces_without_wilds_are_the_full_faces_less_the_wilds() {
        let (mut positions, mut differ) = (0, 0);
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules, derive_seed(8, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(21 + n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for _ in 0..5000 {
                if let Some(p) = g.current_player() {
                    let wilds = g.wild_bits() | g.own_wild_bits(p);
                    let full = g.void_faces(false);
                    assert_eq!(g.void_faces(true) & !wilds, full & !wilds, "{preset} {n}p\n{}", g.render());
                    positions += 1;
                    differ += usize::from(full & wilds != 0);
                }
                random_step(&mut g, &mut bot, &mut mask, 8, &mut episode);
            }
        }
        // The wilds the short path skips are often playable: the comparison has work to do.
        assert!(positions > 100_000 && differ > positions / 4, "{differ} of {positions} positions with wilds");
    }

    /// A snapshot keeps the record: the restored game rules out the same faces of every hand,
    /// so it determinizes exactly as the game it was taken from.
    #[test]
    fn a_snapshot_keeps_the_record_of_declined_plays() {
        let mut restored = 0;
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules, derive_seed(6, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for k in 0..600 {
                if k % 25 == 0 && g.current_player().is_some() && (0..n).any(|q| g.voids(q).faces != 0) {
                    let back = Game::from_snapshot(g.snapshot()).unwrap();
                    for q in 0..n {
                        assert_eq!(back.voids(q), g.voids(q), "{preset} {n}p seat {q}");
                    }
                    let o = k / 25 % n;
                    // Cards seen going into hands are not kept (see SeenCards): compare the
                    // worlds only where nothing moves openly between hands.
                    if g.seen_cards(o).is_none() {
                        let mut r1 = Xoshiro256PlusPlus::seed_from_u64(k as u64);
                        let mut r2 = r1.clone();
                        let (d1, d2) = (g.determinize(o, &mut r1), back.determinize(o, &mut r2));
                        assert!((0..n).all(|q| d1.hand(q) == d2.hand(q)), "{preset} {n}p: the same worlds");
                    }
                    restored += 1;
                }
                random_step(&mut g, &mut bot, &mut mask, 4, &mut episode);
            }
        }
        assert!(restored > 200, "only {restored} snapshots with a record");
    }
}
