//! Determinization for search agents: a copy of the game with every card hidden from one
//! player re-dealt at random, keeping what that player knows ([`Game::determinize`]): the
//! public state, the cards it saw go into other hands, the record of declined plays, and
//! cards an agent knows of on its own ([`KnownCards`]).

use super::bits::bit;
use super::state::{Bluff, Phase};
use super::table::Game;
use crate::card::Card;
use crate::card_set::{CardCounts, Pile, shuffle};
use crate::rules::MAX_PLAYERS;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Cards whose location a player knows beyond what the game tracks itself: seat `q` is known
/// to hold `in_hand[q]` (a card listed here that `q` no longer holds is ignored). The game
/// already tracks the cards each player saw go into another hand ([`SeenCards`](super::table::SeenCards): gives,
/// passed and swapped hands, picked-up discards) and [`Game::determinize`] keeps those in
/// place; this is for knowledge an agent gathers on its own, passed to
/// [`Game::determinize_with`].
#[derive(Clone, Debug, Default)]
pub struct KnownCards {
    pub in_hand: [CardCounts; MAX_PLAYERS],
}

impl Game {
    /// A copy of the game as `player` could imagine it: every card hidden from `player` (the
    /// other hands and the stock) is re-dealt at random, keeping what `player` knows: its own
    /// hand, the discard pile (public), every hand size, the stock size, the cards it saw go
    /// into other hands and that are still there ([`SeenCards`](super::table::SeenCards): given, passed, swapped,
    /// picked up), what the record of declined plays rules out of each other hand
    /// ([`Voids`](super::knowledge::Voids)) and the whole public state (phase, chain, turn, scores). The deal is
    /// uniform over the hands all that allows: exactly with at most one other hand with a
    /// record (every two-player game), and by a mixing chain whose stationary law is the
    /// uniform one with several (cards exchanged between those hands). The copy's random
    /// generator is re-seeded from `rng`, so future reshuffles do not leak either.
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
                let kept = self.kept.counts();
                for c in kept.faces() {
                    while keep[q].count(c) < kept.count(c) {
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
        // The hands with a record first, each from the cards it may hold (none: the plain deal).
        let mut ruled_seats = (0..n).filter(|&q| q != player && self.voids[q] != 0);
        let dealt = match (ruled_seats.next(), ruled_seats.next()) {
            (Some(q), None) => self.deal_one_ruled_hand(q, &keep[q], &mut g, cards.as_mut_slice(), rng),
            _ => {
                shuffle(cards.as_mut_slice(), rng);
                self.deal_ruled_hands(player, &keep, &mut g, cards.as_mut_slice(), rng)
            }
        };
        let ruled = |q: usize| q != player && self.voids[q] != 0;
        let mut it = cards.as_slice()[dealt..].iter().copied();
        for q in (0..n).filter(|&q| q != player && !ruled(q)) {
            let size = self.hands[q].len();
            g.hands[q] = keep[q];
            while g.hands[q].len() < size {
                // No input reaches this panic: the pool is every hidden card of these hands and
                // the stock, and each hand takes back no more than it hid.
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

    /// [`Game::deal_ruled_hands`] for one seat `q` with a record (every two-player game), from
    /// `cards` in card order, with one shuffle instead of two: the hand is `keep` plus `k` of
    /// the hidden cards of its ruled-out faces and `need - k` of the others, `k` drawn as
    /// there ([`pick_count`]) and each part a uniform choice from its kind (a partial
    /// Fisher-Yates over the cards grouped by kind, in card order); then the cards left are
    /// shuffled. The law is the same as the general deal's: uniform over the hands the record
    /// allows, and when none is (a record that is a belief), every other card and as many of
    /// the ruled-out ones as the hand still needs. Returns how many cards were dealt.
    fn deal_one_ruled_hand<R: rand::Rng + ?Sized>(
        &self,
        q: usize,
        keep: &CardCounts,
        g: &mut Game,
        cards: &mut [Card],
        rng: &mut R,
    ) -> usize {
        let v = self.void_faces_of(q);
        let need = self.hands[q].len() - keep.len();
        let room = usize::from(self.void_room_of(q).saturating_sub(keep.count_in(v).min(255) as u8));
        // Group the cards by kind, ruled-out faces first, each kind in card order.
        let mut a = 0;
        for i in 0..cards.len() {
            if v & bit(cards[i]) != 0 {
                cards.swap(a, i);
                a += 1;
            }
        }
        let b = cards.len() - a;
        let at = need;
        if room >= need {
            // Room for as many ruled-out cards as it needs: the record rules nothing out.
            pick(cards, 0, cards.len(), need, rng);
        } else {
            let (lo, hi) = (need.saturating_sub(b), need.min(a).min(room));
            let others = if lo <= hi { need - pick_count(a, b, need, lo, hi, rng) } else { b.min(need - hi) };
            let k = need - others;
            pick(cards, 0, a, k, rng);
            pick(cards, a, b, others, rng);
            // The hand is `cards[..k]` and `cards[a..a + others]`: gather it at the front
            // (the order of the rest does not matter, it is shuffled below).
            for t in 0..others {
                cards.swap(k + t, a + t);
            }
        }
        g.hands[q] = *keep;
        for &c in &cards[..at] {
            g.hands[q].add(c);
        }
        shuffle(&mut cards[at..], rng);
        at
    }

    /// [`Game::determinize_with`] for a search: the same deal, but the copy stops recording
    /// declined plays (its record stays as it was dealt). A search plays its worlds out and
    /// never determinizes them again, so its playouts skip that bookkeeping.
    pub fn determinize_world<R: rand::Rng + ?Sized>(&self, player: usize, known: &KnownCards, rng: &mut R) -> Game {
        let mut g = self.determinize_with(player, known, rng);
        g.record_voids = false;
        g
    }

    /// Deal the hands of the seats other than `player` that have a record ([`Voids`](super::knowledge::Voids)) into
    /// `g`: each gets its kept cards `keep[q]`, then cards of `cards` (the shuffled hidden
    /// cards not dealt yet), uniformly over the hands its record allows: how many of its
    /// ruled-out faces it gets is drawn in proportion to the number of such hands
    /// ([`pick_count`]), then it takes that many of them and the other cards it needs, first
    /// come in the shuffled order. A seat left short (the seats before it took what it may
    /// hold) takes a card an earlier seat holds in exchange for one that seat may hold
    /// instead. Should the cards still be too few (a record that is a belief, not a fact),
    /// the hand is filled from the cards passed over. Several such hands are then mixed
    /// together ([`Game::mix_ruled_hands`]). The cards dealt are moved to the front of
    /// `cards` and the rest shuffled again; returns how many were dealt (0 when no seat has a
    /// record).
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
        // Per ruled seat: the room left, and the cards dealt to it (not kept).
        let mut room = [0u8; MAX_PLAYERS];
        let mut got = [CardCounts::new(); MAX_PLAYERS];
        let fits = |room: u8, v: u64, c: Card| v & bit(c) == 0 || room > 0;
        let used = |v: u64, c: Card| u8::from(v & bit(c) != 0);
        let mut next = 0;
        for q in (0..n).filter(|&q| ruled(q)) {
            if next > 0 {
                // Taking the first cards of each kind leaves the rest in an order that is not
                // uniform any more (the cards passed over moved back): shuffle it again.
                shuffle(&mut cards[next..], rng);
            }
            let v = self.void_faces_of(q);
            room[q] = self.void_room_of(q).saturating_sub(keep[q].count_in(v).min(255) as u8);
            let need = self.hands[q].len() - keep[q].len();
            // Uniform over the hands the record allows: draw how many of its faces the hand
            // gets (k of the `a` such cards left, with the `need - k` others from the `b`
            // others, in proportion to the number of such hands), then take the first k of
            // them and the first `need - k` others in the shuffled order. With no such hand
            // (too few others left), every other and as many of its faces as its room allows.
            // How many more of the others (`take[0]`) and of its faces (`take[1]`) to take;
            // with room for as many of them as it needs, the record rules nothing out.
            let mut take = [need, need];
            if usize::from(room[q]) < need {
                let a = cards[next..].iter().filter(|&&c| v & bit(c) != 0).count();
                let b = cards.len() - next - a;
                let (lo, hi) = (need.saturating_sub(b), need.min(a).min(usize::from(room[q])));
                let k = if lo <= hi { pick_count(a, b, need, lo, hi, rng) } else { hi };
                take = [need - k, k];
            }
            let first = next;
            for i in first..cards.len() {
                if got[q].len() >= need {
                    break;
                }
                let side = usize::from(v & bit(cards[i]) != 0);
                if take[side] > 0 && fits(room[q], v, cards[i]) {
                    take[side] -= 1;
                    room[q] -= used(v, cards[i]);
                    got[q].add(cards[i]);
                    cards.swap(next, i);
                    next += 1;
                }
            }
            // Short: earlier seats hand cards along, `q` taking one from `r1`, `r1` one from
            // `r2` and so on, the last taking an undealt card (`repair_chain`).
            while got[q].len() < need && self.repair_chain(player, q, &mut room, &mut got, cards, next) {
                next += 1;
            }
            while got[q].len() < need {
                got[q].add(cards[next]);
                next += 1;
            }
        }
        self.mix_ruled_hands(player, keep, &mut got, cards, next, rng);
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

    /// One more card for the ruled seat `q`, short of cards it may hold: a chain of earlier
    /// ruled seats found breadth first, `q` taking a card `x1` that it may hold from `r1`, `r1`
    /// taking `x2` from `r2` in its place, ..., and the last seat an undealt card from
    /// `cards[next..]`, each seat kept within its record (its room counted with the card it
    /// gives away). One exchange, the chain of one, used to be all that was tried, and a tight
    /// table (six seats, an empty stock, every pass a fact) was left short of a deal its real
    /// hands prove exists. Moves the undealt card to `cards[next]` (the caller counts it dealt)
    /// and returns true, or returns false when no chain exists. Allocates nothing: each seat
    /// is a node once for each room it can have once a card is gone.
    fn repair_chain(
        &self,
        player: usize,
        q: usize,
        room: &mut [u8; MAX_PLAYERS],
        got: &mut [CardCounts; MAX_PLAYERS],
        cards: &mut [Card],
        next: usize,
    ) -> bool {
        let fits = |room: u8, v: u64, c: Card| v & bit(c) == 0 || room > 0;
        let used = |v: u64, c: Card| u8::from(v & bit(c) != 0);
        let ruled = |r: usize| r != player && r < q && self.voids[r] != 0;
        // Nodes: (seat, the card it gives to its parent, parent node or NONE for `q`, its room
        // once that card is gone); at most two per seat (a face of its record given or not).
        const NONE: usize = usize::MAX;
        let mut nodes = [(0usize, Card(0), NONE, 0u8); 2 * MAX_PLAYERS];
        let mut seen = [[false; 2]; MAX_PLAYERS];
        let (mut len, mut head) = (0, 0);
        // The receiver of the node being expanded: `q` first.
        let mut receiver = (q, room[q], NONE);
        loop {
            let (s, free_s, at) = receiver;
            let vs = self.void_faces_of(s);
            for r in (0..q).filter(|&r| ruled(r) && r != s) {
                let vr = self.void_faces_of(r);
                for x in crate::card_set::Faces::new(got[r].bits()) {
                    let freed = used(vr, x);
                    if !fits(free_s, vs, x) || seen[r][usize::from(freed)] || on_path(&nodes, at, r) {
                        continue;
                    }
                    seen[r][usize::from(freed)] = true;
                    let free_r = room[r] + freed;
                    nodes[len] = (r, x, at, free_r);
                    len += 1;
                    if let Some(i) = (next..cards.len()).find(|&i| fits(free_r, vr, cards[i])) {
                        // Hand the cards along the chain, from its end back to `q`.
                        let (mut k, mut take) = (len - 1, cards[i]);
                        loop {
                            let (r, x, parent, _) = nodes[k];
                            let vr = self.void_faces_of(r);
                            got[r].remove(x);
                            got[r].add(take);
                            room[r] = room[r] + used(vr, x) - used(vr, take);
                            take = x;
                            if parent == NONE {
                                break;
                            }
                            k = parent;
                        }
                        got[q].add(take);
                        room[q] -= used(self.void_faces_of(q), take);
                        // The dealt cards gain one (laid out again from `got` when mixed).
                        cards[i] = take;
                        cards.swap(next, i);
                        return true;
                    }
                }
            }
            if head == len {
                return false;
            }
            let (r, _, _, free_r) = nodes[head];
            receiver = (r, free_r, head);
            head += 1;
        }
    }

    /// With two seats or more with a record, dealing them one after the other is uniform for
    /// each given the cards the ones before it left, not over the hands of all of them (a
    /// seat that may hold no heart leaves the hearts to the others: the first seat dealt
    /// should hold more of them than its own uniform deal gives it). So the deal is mixed:
    /// [`MIX_STEPS_PER_CARD`] exchanges per card dealt to those seats, each of a random
    /// such card with a random hidden card (another such hand's, or one of the `cards[next..]`
    /// left for the hands without a record and the stock), kept when both hands stay within
    /// their records. The uniform deal over the hands the records allow is the stationary law
    /// of that chain. Nothing is done with one such seat (its deal is uniform already) or
    /// when a hand is over its record (a belief the hidden cards cannot honour).
    fn mix_ruled_hands<R: rand::Rng + ?Sized>(
        &self,
        player: usize,
        keep: &[CardCounts; MAX_PLAYERS],
        got: &mut [CardCounts; MAX_PLAYERS],
        cards: &mut [Card],
        next: usize,
        rng: &mut R,
    ) {
        let n = self.n as usize;
        let ruled = |q: usize| q != player && self.voids[q] != 0;
        if (0..n).filter(|&q| ruled(q)).count() < 2 || next == 0 {
            return;
        }
        // Lay the dealt cards out seat by seat in `cards[..next]`: seat `q` owns those from the
        // end of the seat before it to `end[q]`.
        let (mut end, mut room, mut count) = ([0usize; MAX_PLAYERS], [0u32; MAX_PLAYERS], [0u32; MAX_PLAYERS]);
        let mut pos = 0;
        for q in (0..n).filter(|&q| ruled(q)) {
            for c in got[q].iter() {
                cards[pos] = c;
                pos += 1;
            }
            end[q] = pos;
            let v = self.void_faces_of(q);
            room[q] = u32::from(self.void_room_of(q)).saturating_sub(keep[q].count_in(v));
            count[q] = got[q].count_in(v);
            if count[q] > room[q] {
                return;
            }
        }
        debug_assert_eq!(pos, next);
        let owner = |i: usize| (i < next).then(|| (0..n).find(|&q| ruled(q) && i < end[q]).unwrap_or(0));
        let used = |q: usize, c: Card| u32::from(self.voids[q] & bit(c) != 0);
        for _ in 0..next * MIX_STEPS_PER_CARD {
            let i = rng.random_range(0..next);
            let j = rng.random_range(0..cards.len());
            let (p, o) = (owner(i).unwrap_or(0), owner(j));
            if o == Some(p) {
                continue;
            }
            let (x, y) = (cards[i], cards[j]);
            let cp = count[p] - used(p, x) + used(p, y);
            let co = o.map(|o| count[o] - used(o, y) + used(o, x));
            if cp > room[p] || o.zip(co).is_some_and(|(o, c)| c > room[o]) {
                continue;
            }
            count[p] = cp;
            if let Some((o, c)) = o.zip(co) {
                count[o] = c;
            }
            cards.swap(i, j);
        }
        let mut start = 0;
        for q in (0..n).filter(|&q| ruled(q)) {
            got[q] = CardCounts::new();
            for &c in &cards[start..end[q]] {
                got[q].add(c);
            }
            start = end[q];
        }
    }
}

/// Exchanges per card dealt to the seats with a record in [`Game::mix_ruled_hands`]. In the
/// three-player test below (200,000 deals, a standard deviation of 0.08 points), without
/// mixing the first seat dealt holds none of the faces it declined in 19.1% of the deals
/// against 16.3% under the uniform deal; at 1 exchange per card 16.4%, 2.1 deviations off;
/// at 8 both seats are within 0.1 deviation of it.
const MIX_STEPS_PER_CARD: usize = 8;

/// Partial Fisher-Yates: `k` uniform picks without replacement from `cards[lo..lo + len]`
/// end up, in random order, in `cards[lo..lo + k]`.
/// Whether seat `r` is on the chain from node `at` back to the receiving seat.
fn on_path(nodes: &[(usize, Card, usize, u8)], mut at: usize, r: usize) -> bool {
    while at != usize::MAX {
        if nodes[at].0 == r {
            return true;
        }
        at = nodes[at].2;
    }
    false
}

fn pick<R: rand::Rng + ?Sized>(cards: &mut [Card], lo: usize, len: usize, k: usize, rng: &mut R) {
    for t in 0..k {
        let j = rng.random_range(lo + t..lo + len);
        cards.swap(lo + t, j);
    }
}

/// A number `k` in `lo..=hi` drawn with weight `C(a, k) * C(b, n - k)`: how many of `a`
/// marked cards a uniform choice of `n` cards out of `a + b` holds, given between `lo` and
/// `hi` of them (`n - b <= lo <= hi <= min(a, n)`). The weights are taken relative to the
/// first, each from the one before (one division a step, no rng call when `lo == hi`).
fn pick_count<R: rand::Rng + ?Sized>(a: usize, b: usize, n: usize, lo: usize, hi: usize, rng: &mut R) -> usize {
    if lo >= hi {
        return lo;
    }
    // w(k + 1) / w(k) = (a - k)(n - k) / ((k + 1)(b - n + k + 1)), never a division by zero
    // since k >= lo >= n - b.
    let step = |k: usize| ((a - k) * (n - k)) as f64 / ((k + 1) * (b + k + 1 - n)) as f64;
    let (mut w, mut total) = (1.0f64, 1.0f64);
    for k in lo..hi {
        w *= step(k);
        total += w;
    }
    let mut u = rng.random::<f64>() * total;
    w = 1.0;
    for k in lo..hi {
        u -= w;
        if u < 0.0 {
            return k;
        }
        w *= step(k);
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{self, Action, ActionMask};
    use crate::game::knowledge::Voids;
    use crate::game::testing::{cards, faces, random_step, test_tables};
    use crate::rules::Rules;
    use crate::seed::derive_seed;
    use std::sync::Arc;

    /// `pick_count` draws the number of marked cards in a uniform hand: 4 cards out of 5
    /// marked and 5 plain hold k marked ones in C(5, k) C(5, 4 - k) of the C(10, 4) = 210
    /// hands (5, 50, 100, 50, 5), and given between 1 and 3 of them, in 50, 100, 50 of 200.
    #[test]
    fn pick_count_draws_the_hypergeometric_law() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for (lo, hi, hands) in [(0, 4, [5.0, 50.0, 100.0, 50.0, 5.0]), (1, 3, [0.0, 50.0, 100.0, 50.0, 0.0])] {
            let total: f64 = hands.iter().sum();
            let mut seen = [0usize; 5];
            let draws = 40_000;
            for _ in 0..draws {
                seen[pick_count(5, 5, 4, lo, hi, &mut rng)] += 1;
            }
            for k in 0..5 {
                let p = hands[k] / total;
                let sd = (draws as f64 * p * (1.0 - p)).sqrt().max(1e-9);
                assert!((seen[k] as f64 - draws as f64 * p).abs() <= 4.0 * sd, "{lo}..={hi}: {seen:?}");
            }
        }
        assert_eq!(pick_count(5, 5, 4, 2, 2, &mut rng), 2);
    }

    /// `C(x, j)` as a float, for the expected shares below.
    fn choose(x: u32, j: u32) -> f64 {
        (0..j).fold(1.0, |acc, i| acc * f64::from(x - i) / f64::from(i + 1))
    }

    /// Crazy Eights where "a player who can play must" (the `must_play_if_able` variant), three
    /// players: seat 0 plays the nine of hearts, and seats 1 and 2, holding no heart, nine or
    /// eight, each draw one card. Each may hold at most one of those faces (whatever their
    /// suits), and the deals seat 0 imagines are uniform over the pairs of hands the two
    /// records allow: seat 1, dealt first, holds none of them as often as seat 2 does.
    #[test]
    fn two_records_are_dealt_uniformly_together() {
        let over = serde_json::json!({"draw": {"voluntary": false}});
        let rules = Arc::new(Rules::load("crazy_eights", 3, Some(&over)).unwrap());
        let mut g = Game::new(rules, 1);
        let hand0 = cards("9H 2C 3D 4D 6D");
        let hand1 = cards("4C 6C 7C TC JC");
        let hand2 = cards("2S 3S 4S 6S 7S");
        let mut deck: Vec<Card> = (0..5).flat_map(|i| [hand0[i], hand1[i], hand2[i]]).collect();
        deck.extend(cards("5H KD QD"));
        g.reset(7, &deck).unwrap();
        assert_eq!(g.current_player(), Some(0));
        g.step(Action::Play("9H".parse().unwrap()).id()).unwrap();
        for seat in [1, 2] {
            assert_eq!(g.current_player(), Some(seat));
            assert_eq!(g.legal_action_vec(), vec![action::DRAW], "seat {seat} cannot play on the nine of hearts");
            g.step(action::DRAW).unwrap();
        }
        assert_eq!(g.current_player(), Some(0), "a drawn card ends the turn");
        let ruled = faces("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 9C 9D 9S 8C 8D 8S");
        for q in [1, 2] {
            assert_eq!(g.voids(q), Voids { faces: ruled, room: 1 }, "seat {q}");
            assert!(g.voids(q).allows(g.hand(q)));
        }
        // Hidden from seat 0: 52 less its four cards and the two on the pile, 46 cards, of
        // which 17 are ruled out (19 less 5H and 9H) and 29 are not. Seat 1 holding `k1` of
        // them and seat 2 `k2` (each 0 or 1, six cards each) is a share of the deals in
        // proportion to C(17, k1) C(29, 6 - k1) C(17 - k1, k2) C(23 + k1, 6 - k2).
        assert_eq!((g.hand(0).len(), g.discard().len(), g.hand(1).len(), g.hand(2).len()), (4, 2, 6, 6));
        let w = |k1: u32, k2: u32| choose(17, k1) * choose(29, 6 - k1) * choose(17 - k1, k2) * choose(23 + k1, 6 - k2);
        let total = w(0, 0) + w(0, 1) + w(1, 0) + w(1, 1);
        let p0 = (w(0, 0) + w(0, 1)) / total;
        assert!((p0 - (w(0, 0) + w(1, 0)) / total).abs() < 1e-12, "the two seats alike");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let samples = 20_000;
        let mut none = [0usize; 3];
        for _ in 0..samples {
            let d = g.determinize(0, &mut rng);
            for q in [1, 2] {
                assert!(g.voids(q).allows(d.hand(q)), "seat {q}: {:?}", d.hand(q));
                none[q] += usize::from(d.hand(q).bits() & ruled == 0);
            }
        }
        let sd = (samples as f64 * p0 * (1.0 - p0)).sqrt();
        for q in [1, 2] {
            let dev = (none[q] as f64 - samples as f64 * p0).abs();
            assert!(dev < 4.0 * sd, "seat {q} held none {} times, expected {:.0}", none[q], samples as f64 * p0);
        }
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
