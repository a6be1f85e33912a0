//! Finite bounds of the observation for one rule set and player count ([`ObsBounds`]), and
//! the coefficients that scale an observation into `[0, 1]` slice by slice (the
//! `scale_obs=True` option of the Python envs). Derived from the deck the rules deal (its
//! size and the copies of each face) and from the widths of the engine's counters:
//!
//! | slice                                  | raw bounds                          | scaled to [0, 1]                     |
//! |----------------------------------------|-------------------------------------|--------------------------------------|
//! | `hand`, `played`                       | 0 .. copies of the face (1 if none) | count / copies (0 for absent faces)  |
//! | `direction`                            | -1 .. 1                             | (direction + 1) / 2                  |
//! | `hand_sizes`, `stock_size`, `discard_size` | 0 .. deck size                  | count / deck size                    |
//! | `pending_draw`                         | 0 .. 65535 (a `u16` counter)        | min(count / deck size, 1)            |
//! | `turn_cards`, `turn_drawn`             | 0 .. 255 (`u8` counters)            | min(count / deck size, 1)            |
//! | `scores`                               | ±2**31 / 100 (an `i32` / 100)       | (s / (1 + abs(s)) + 1) / 2           |
//! | every other slice (one-hots, flags)    | 0 .. 1                              | unchanged                            |
//!
//! Nobody can hold, draw or be made to draw more cards than the deck has, so clipping the
//! counters at the deck size loses nothing a player could act on; scores have no rule-given
//! bound (matches add hands up), so they are squashed, which keeps their order.

use super::{OBS_LAYOUT, OBS_SIZE, str_eq};
use crate::card::{Card, NUM_FACES};
use crate::rules::Rules;

/// Upper bound of `pending_draw` (the engine keeps it in a `u16`).
pub const PENDING_MAX: f32 = u16::MAX as f32;
/// Upper bound of `turn_cards` and `turn_drawn` (`u8` counters).
pub const TURN_MAX: f32 = u8::MAX as f32;
/// Bound of a `scores` entry: an `i32` score over 100 (2**31 / 100, rounded to `f32`).
pub const SCORE_MAX: f32 = (2_147_483_648.0f64 / 100.0) as f32;

/// How a slice of the layout is bounded and scaled (see the module table).
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Copies of each face: 0 .. copies in the deck.
    FaceCounts,
    /// One-hots and 0/1 flags.
    Flag,
    /// -1 or +1.
    Direction,
    /// A number of cards held or piled: 0 .. deck size.
    Cards,
    /// An engine counter of cards, bounded by its width and clipped at the deck size.
    Counter(f32),
    /// A match score / 100, squashed.
    Score,
}

/// The kind of every slice of [`OBS_LAYOUT`], in its order: a slice added to the layout must
/// get its bounds here (the lengths must agree, and `NAMES_MATCH` checks the names at build).
const KINDS: [(&str, Kind); OBS_LAYOUT.len()] = [
    ("hand", Kind::FaceCounts),
    ("top_card", Kind::Flag),
    ("active_suit", Kind::Flag),
    ("nominated", Kind::Flag),
    ("free_play", Kind::Flag),
    ("pending_draw", Kind::Counter(PENDING_MAX)),
    ("pending_kind", Kind::Flag),
    ("phase", Kind::Flag),
    ("to_act", Kind::Flag),
    ("direction", Kind::Direction),
    ("hand_sizes", Kind::Cards),
    ("seats", Kind::Flag),
    ("scores", Kind::Score),
    ("stock_size", Kind::Cards),
    ("discard_size", Kind::Cards),
    ("played", Kind::FaceCounts),
    ("turn_cards", Kind::Counter(TURN_MAX)),
    ("turn_drawn", Kind::Counter(TURN_MAX)),
    ("announced", Kind::Flag),
    ("constraint", Kind::Flag),
    ("constraint_suit", Kind::Flag),
    ("rogue_top", Kind::Flag),
    ("asked", Kind::Flag),
    ("wild_rank", Kind::Flag),
    ("declined", Kind::Flag),
];

const fn names_match() -> bool {
    let mut i = 0;
    while i < KINDS.len() {
        if !str_eq(KINDS[i].0, OBS_LAYOUT[i].0) {
            return false;
        }
        i += 1;
    }
    true
}

/// `KINDS` names the slices of `OBS_LAYOUT` in its order (checked when the crate builds).
const NAMES_MATCH: () = assert!(names_match(), "observation::bounds::KINDS must follow OBS_LAYOUT");

/// The bounds of the observation under one rule set and player count, and its scaling.
///
/// Every observation `x` of a game under these rules has `low <= x <= high` entry by entry,
/// with `low < high` everywhere (checkers flag an entry with `low == high`). The scaled
/// observation is `x * mul + add`, then at most 1 where `clip` is set, and the `scores`
/// entries `s` replaced by `(s / (1 + |s|) + 1) / 2`.
#[derive(Clone, Debug, PartialEq)]
pub struct ObsBounds {
    pub low: [f32; OBS_SIZE],
    pub high: [f32; OBS_SIZE],
    pub mul: [f32; OBS_SIZE],
    pub add: [f32; OBS_SIZE],
    pub clip: [bool; OBS_SIZE],
    /// Cards in the pack the rules deal.
    pub deck_size: usize,
    /// Copies of each face in that pack, by face index.
    pub copies: [u8; NUM_FACES],
}

impl ObsBounds {
    /// The bounds for `rules` (compiled for its player count: the deck may depend on it).
    pub fn new(rules: &Rules) -> ObsBounds {
        let copies: [u8; NUM_FACES] = std::array::from_fn(|i| Card::from_index(i).map_or(0, |c| rules.deck.count(c)));
        ObsBounds::for_deck(copies)
    }

    /// Bounds that hold under every rule set: the largest deck the rules model deals (four
    /// packs with their jokers, four copies of every face), for batches whose rules are
    /// drawn from a space.
    pub fn any_rules() -> ObsBounds {
        ObsBounds::for_deck([4; NUM_FACES])
    }

    /// The bounds for a pack holding `copies` of each face.
    pub fn for_deck(copies: [u8; NUM_FACES]) -> ObsBounds {
        let () = NAMES_MATCH;
        let deck_size: usize = copies.iter().map(|&c| usize::from(c)).sum();
        let deck = deck_size as f64;
        // The pack is never empty (validated rules deal at least the start card).
        let per_card = if deck_size > 0 { (1.0 / deck) as f32 } else { 0.0 };
        let mut b = ObsBounds {
            low: [0.0; OBS_SIZE],
            high: [1.0; OBS_SIZE],
            mul: [1.0; OBS_SIZE],
            add: [0.0; OBS_SIZE],
            clip: [false; OBS_SIZE],
            deck_size,
            copies,
        };
        let mut at = 0;
        for (&(_, size), &(_, kind)) in OBS_LAYOUT.iter().zip(KINDS.iter()) {
            for i in at..at + size {
                match kind {
                    Kind::FaceCounts => {
                        let c = f32::from(copies[i - at]);
                        // A face the deck lacks stays 0; its bound is kept at 1.
                        b.high[i] = c.max(1.0);
                        b.mul[i] = if c > 0.0 { 1.0 / c } else { 0.0 };
                    }
                    Kind::Flag => {}
                    Kind::Direction => (b.low[i], b.mul[i], b.add[i]) = (-1.0, 0.5, 0.5),
                    Kind::Cards => (b.high[i], b.mul[i]) = (deck as f32, per_card),
                    Kind::Counter(top) => (b.high[i], b.mul[i], b.clip[i]) = (top, per_card, true),
                    Kind::Score => (b.low[i], b.high[i]) = (-SCORE_MAX, SCORE_MAX),
                }
            }
            at += size;
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::observation::{encode, spec};
    use crate::rules::preset_names;
    use std::sync::Arc;

    fn slice(name: &str) -> std::ops::Range<usize> {
        let (_, a, b) = spec().into_iter().find(|s| s.0 == name).unwrap();
        a..b
    }

    /// Card faces by index: 0..52 the 52 cards, 52 and 53 the two jokers.
    fn face(s: &str) -> usize {
        s.parse::<Card>().unwrap().index()
    }

    #[test]
    fn crazy_eights_two_players_by_hand() {
        let r = Rules::load("crazy_eights", 2, None).unwrap();
        let b = ObsBounds::new(&r);
        assert_eq!(b.deck_size, 52);
        let hand = slice("hand");
        // One copy of each of the 52 cards, no jokers: bound 1 everywhere, jokers scaled to 0.
        assert!(b.high[hand.clone()].iter().all(|&h| h == 1.0));
        assert_eq!(b.mul[hand.start + face("8H")], 1.0);
        assert_eq!(b.copies[52..], [0, 0]);
        assert_eq!(b.mul[hand.start + 52..hand.end], [0.0, 0.0]);
        assert_eq!(b.high[slice("stock_size").start], 52.0);
        assert_eq!(b.mul[slice("stock_size").start], 1.0 / 52.0);
        assert_eq!(b.high[slice("hand_sizes")], [52.0; 9]);
        let d = slice("direction").start;
        assert_eq!((b.low[d], b.high[d], b.mul[d], b.add[d]), (-1.0, 1.0, 0.5, 0.5));
        let p = slice("pending_draw").start;
        assert_eq!((b.high[p], b.mul[p], b.clip[p]), (65535.0, 1.0 / 52.0, true));
        let t = slice("turn_drawn").start;
        assert_eq!((b.high[t], b.clip[t]), (255.0, true));
        let s = slice("scores");
        assert_eq!(b.high[s.start], 21_474_836.0);
        assert_eq!(b.low[s.end - 1], -21_474_836.0);
        assert_eq!(b.clip.iter().filter(|&&c| c).count(), 3);
        let phase = slice("phase");
        assert_eq!((b.low[phase.start], b.high[phase.start], b.mul[phase.start]), (0.0, 1.0, 1.0));
    }

    #[test]
    fn six_players_deal_two_packs() {
        let b = ObsBounds::new(&Rules::load("crazy_eights", 6, None).unwrap());
        assert_eq!(b.deck_size, 104);
        let played = slice("played");
        assert_eq!(b.high[played.start + face("QS")], 2.0);
        assert_eq!(b.mul[played.start + face("QS")], 0.5);
        assert_eq!(b.high[slice("discard_size").start], 104.0);
    }

    #[test]
    fn jokers_are_counted_when_dealt() {
        // crazy_eights_xtreme deals two jokers.
        let b = ObsBounds::new(&Rules::load("crazy_eights_xtreme", 3, None).unwrap());
        assert!(b.copies[52] + b.copies[53] > 0);
        assert_eq!(b.deck_size, b.copies.iter().map(|&c| usize::from(c)).sum::<usize>());
    }

    #[test]
    fn every_preset_deck_is_the_dealt_pack_and_bounds_hold() {
        for name in preset_names() {
            let s = crate::rules::load_spec(name, None).unwrap();
            let (lo, hi) = (s.players.min.max(2), s.players.max);
            for n in [lo, hi] {
                let r = Arc::new(Rules::load(name, usize::from(n), None).unwrap());
                let b = ObsBounds::new(&r);
                assert!(b.low.iter().zip(&b.high).all(|(l, h)| l < h), "{name} n={n}");
                let mut g = Game::new(r, 3);
                let mut dealt = [0u8; NUM_FACES];
                let piles = g.stock().as_slice().iter().chain(g.discard().as_slice()).chain(g.rogue().as_slice());
                for c in piles {
                    dealt[c.index()] += 1;
                }
                for p in 0..g.num_players() {
                    for (d, &k) in dealt.iter_mut().zip(g.hand(p).counts()) {
                        *d += k;
                    }
                }
                assert_eq!(dealt, b.copies, "{name} n={n}");
                // A pseudo-random playout (a small LCG picks among the legal actions; the bots
                // live a layer above) stays within the bounds.
                let mut state = 5u64;
                let mut obs = [0f32; OBS_SIZE];
                while !g.is_terminal() && !g.is_truncated() {
                    for p in 0..g.num_players() {
                        encode(&g, p, &mut obs);
                        for (i, &x) in obs.iter().enumerate() {
                            assert!(b.low[i] <= x && x <= b.high[i], "{name} n={n}: entry {i} = {x}");
                        }
                    }
                    state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    let legal = g.legal_action_vec();
                    let a = legal[(state >> 33) as usize % legal.len()];
                    g.step(a).unwrap();
                }
            }
        }
    }
}
