//! The observation encoding: one fixed-size `f32` vector per (preset, player count), with
//! the same layout for every preset so one network can play several games.
//!
//! Everything is seat-relative to the observer and shows only what that player may see:
//! their own hand, the public table (top card, suits, penalties, pile sizes, the cards
//! played since the last reshuffle) and other players' hand sizes and scores, by seat offset
//! clockwise from the observer (offset 1 = the next seat clockwise).
//!
//! | slice            | size | contents                                                   |
//! |------------------|------|------------------------------------------------------------|
//! | `hand`           | 54   | copies of each face in the observer's hand                 |
//! | `top_card`       | 54   | one-hot top card of the discard pile                       |
//! | `active_suit`    | 4    | one-hot suit to follow (C, D, H, S)                        |
//! | `nominated`      | 1    | 1 if the active suit was nominated                         |
//! | `free_play`      | 1    | 1 if the player to act may play any card                   |
//! | `pending_draw`   | 1    | cards a pending draw penalty would make its target draw    |
//! | `pending_kind`   | 3    | one-hot answer rule of the pending chain: same group, any draw card, none |
//! | `phase`          | 12   | one-hot decision phase (see [`crate::game::Phase::ALL`])   |
//! | `to_act`         | 1    | 1 if the observer is the player to act                     |
//! | `direction`      | 1    | +1 clockwise, -1 anticlockwise                             |
//! | `hand_sizes`     | 9    | hand sizes of the seats at offsets 1..9 (0 past the table) |
//! | `seats`          | 9    | 1 for offsets that are at the table                        |
//! | `scores`         | 10   | match scores / 100: observer first, then offsets 1..9      |
//! | `stock_size`     | 1    | cards in the stock                                         |
//! | `discard_size`   | 1    | cards in the discard pile                                  |
//! | `played`         | 54   | copies of each face in the discard pile (public memory since the last reshuffle) |
//! | `turn_cards`     | 1    | cards the player to act has placed this turn               |
//! | `turn_drawn`     | 1    | cards the player to act has drawn this turn                |
//! | `announced`      | 1    | 1 if the player to act announced "last card" this turn     |
//! | `constraint`     | 5    | one-turn constraint on the player to act: picture card, even spot card, attack suit only, second suit allowed, asked card |
//! | `constraint_suit`| 4    | the suit of the attack-suit or second-suit constraint      |
//! | `rogue_top`      | 54   | one-hot top card of stalin's rogue pile                    |
//! | `asked`          | 15   | one-hot asked card: ranks A..K, QS, joker (thirty_eights seven) |
//!
//! Total [`OBS_SIZE`] = 297. Per-face rule features are separate
//! ([`crate::rules::Rules::features`]) so an agent can condition on the rules.

use crate::card::NUM_FACES;
use crate::game::{ChainAnswerState, Game, NUM_PHASES, Restrict};
use crate::rules::MAX_PLAYERS;

/// Named slices of the observation, in order: `(name, size)`.
pub const OBS_LAYOUT: [(&str, usize); 23] = [
    ("hand", NUM_FACES),
    ("top_card", NUM_FACES),
    ("active_suit", 4),
    ("nominated", 1),
    ("free_play", 1),
    ("pending_draw", 1),
    ("pending_kind", 3),
    ("phase", NUM_PHASES),
    ("to_act", 1),
    ("direction", 1),
    ("hand_sizes", MAX_PLAYERS - 1),
    ("seats", MAX_PLAYERS - 1),
    ("scores", MAX_PLAYERS),
    ("stock_size", 1),
    ("discard_size", 1),
    ("played", NUM_FACES),
    ("turn_cards", 1),
    ("turn_drawn", 1),
    ("announced", 1),
    ("constraint", 5),
    ("constraint_suit", 4),
    ("rogue_top", NUM_FACES),
    ("asked", 15),
];

const fn total() -> usize {
    let mut i = 0;
    let mut t = 0;
    while i < OBS_LAYOUT.len() {
        t += OBS_LAYOUT[i].1;
        i += 1;
    }
    t
}

/// Length of the observation vector.
pub const OBS_SIZE: usize = total();

/// `(name, start, stop)` for every slice.
pub fn spec() -> Vec<(&'static str, usize, usize)> {
    let mut at = 0;
    OBS_LAYOUT
        .iter()
        .map(|&(n, k)| {
            at += k;
            (n, at - k, at)
        })
        .collect()
}

/// An element type the encoder writes: `f32`, or a compact integer type holding each value
/// converted with Rust's saturating, truncating `as` cast from the `f32` value.
pub trait ObsScalar: Copy + Default {
    const ZERO: Self;
    const ONE: Self;
    /// The value `x` (an `f32` of the layout above) in this type.
    fn of(x: f32) -> Self;
    /// A count, equal to `Self::of(k as f32)` (a separate method so that whole slices of
    /// counts convert without going through `f32`).
    fn count(k: u8) -> Self;
}

impl ObsScalar for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    #[inline(always)]
    fn of(x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn count(k: u8) -> f32 {
        f32::from(k)
    }
}

impl ObsScalar for u8 {
    const ZERO: u8 = 0;
    const ONE: u8 = 1;
    #[inline(always)]
    fn of(x: f32) -> u8 {
        x as u8
    }
    #[inline(always)]
    fn count(k: u8) -> u8 {
        k
    }
}

impl ObsScalar for i8 {
    const ZERO: i8 = 0;
    const ONE: i8 = 1;
    #[inline(always)]
    fn of(x: f32) -> i8 {
        x as i8
    }
    #[inline(always)]
    fn count(k: u8) -> i8 {
        k.min(127) as i8
    }
}

/// Write player `p`'s observation of `g` into `out` (length [`OBS_SIZE`]). No allocation.
pub fn encode(g: &Game, p: usize, out: &mut [f32]) {
    encode_into(g, p, out);
}

/// Sequential writer over an observation row: every slice is written whole, in layout
/// order, so the row is stored in one pass with no clearing beforehand.
struct Writer<'a, T> {
    out: &'a mut [T],
}

impl<'a, T: ObsScalar> Writer<'a, T> {
    /// The next `k` elements.
    #[inline(always)]
    fn take(&mut self, k: usize) -> &'a mut [T] {
        let (head, tail) = std::mem::take(&mut self.out).split_at_mut(k);
        self.out = tail;
        head
    }

    #[inline(always)]
    fn value(&mut self, x: T) {
        self.take(1)[0] = x;
    }

    #[inline(always)]
    fn flag(&mut self, b: bool) {
        self.value(if b { T::ONE } else { T::ZERO });
    }

    /// `k` elements, all zero but a one at `hot` (if any).
    #[inline(always)]
    fn one_hot(&mut self, k: usize, hot: Option<usize>) {
        let s = self.take(k);
        s.fill(T::ZERO);
        if let Some(i) = hot {
            s[i] = T::ONE;
        }
    }

    /// One count per face.
    #[inline(always)]
    fn counts(&mut self, counts: &[u8; NUM_FACES]) {
        for (o, &k) in self.take(NUM_FACES).iter_mut().zip(counts) {
            *o = T::count(k);
        }
    }
}

/// [`encode`] for any [`ObsScalar`]: each element is `T::of` the `f32` value, so a `u8`
/// observation equals the `f32` one cast element by element. The row is written in one
/// pass, each element once.
pub fn encode_into<T: ObsScalar>(g: &Game, p: usize, out: &mut [T]) {
    assert_eq!(out.len(), OBS_SIZE, "observation buffer must hold {OBS_SIZE} values");
    // Copies per face in the discard pile; a deck holds at most 216 cards, so u8 counts
    // cannot overflow. (Indexed modulo 64 so the counting loop needs no bounds check.)
    let mut played = [0u8; 64];
    let discard = g.discard().as_slice();
    for c in discard {
        played[c.index() & 63] += 1;
    }
    let played: &[u8; NUM_FACES] = played[..NUM_FACES].try_into().expect("54 faces");
    let n = g.num_players();
    let mut w = Writer { out };
    w.counts(g.hand(p).counts());
    w.one_hot(NUM_FACES, g.top_card().map(|t| t.index()));
    w.one_hot(4, g.active_suit().map(|s| s.index()));
    w.flag(g.nominated_suit().is_some());
    w.flag(g.free_play());
    let pending = g.pending_draw();
    w.value(T::of(f32::from(pending)));
    let kind = (pending > 0).then(|| match g.chain().answer {
        ChainAnswerState::SameRank => 0,
        ChainAnswerState::AnyDrawCard => 1,
        ChainAnswerState::None => 2,
    });
    w.one_hot(3, kind);
    w.one_hot(NUM_PHASES, Some(g.phase().index()));
    w.flag(g.current_player() == Some(p));
    w.value(T::of(f32::from(g.direction())));
    let sizes = w.take(MAX_PLAYERS - 1);
    sizes.fill(T::ZERO);
    for k in 1..n {
        sizes[k - 1] = T::of(g.hand((p + k) % n).len() as f32);
    }
    let seats = w.take(MAX_PLAYERS - 1);
    seats.fill(T::ZERO);
    seats[..n - 1].fill(T::ONE);
    let scores = w.take(MAX_PLAYERS);
    scores.fill(T::ZERO);
    let s = g.scores();
    for k in 0..n {
        scores[k] = T::of(s[(p + k) % n] as f32 / 100.0);
    }
    w.value(T::of(g.stock().len() as f32));
    w.value(T::of(discard.len() as f32));
    w.counts(played);
    let t = g.turn();
    w.value(T::of(f32::from(t.cards)));
    w.value(T::of(f32::from(t.drawn)));
    w.flag(t.announced);
    let (kind, suit) = match g.restrict() {
        Restrict::None => (None, None),
        Restrict::Picture => (Some(0), None),
        Restrict::Even => (Some(1), None),
        Restrict::Suit(s) => (Some(2), Some(s as usize)),
        Restrict::Also(s) => (Some(3), Some(s as usize)),
        Restrict::Ask(_) => (Some(4), None),
    };
    w.one_hot(5, kind);
    w.one_hot(4, suit);
    w.one_hot(NUM_FACES, g.rogue().top().map(|c| c.index()));
    let asked = match g.restrict() {
        Restrict::Ask(k) => Some((k as usize).min(14)),
        _ => None,
    };
    w.one_hot(15, asked);
    debug_assert!(w.out.is_empty());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_contiguous() {
        let s = spec();
        assert_eq!(s[0].1, 0);
        for w in s.windows(2) {
            assert_eq!(w[0].2, w[1].1);
        }
        assert_eq!(s.last().unwrap().2, OBS_SIZE);
        assert_eq!(OBS_SIZE, 297);
    }

    /// The encoder as first written (clear the row, then set entries one by one), kept as
    /// the reference the one-pass encoder must reproduce exactly.
    fn reference(g: &Game, p: usize, out: &mut [f32]) {
        assert_eq!(out.len(), OBS_SIZE, "observation buffer must hold {OBS_SIZE} floats");
        out.fill(0.0);
        let n = g.num_players();
        let mut at = 0;
        // hand
        for (i, &k) in g.hand(p).counts().iter().enumerate() {
            out[at + i] = f32::from(k);
        }
        at += NUM_FACES;
        if let Some(t) = g.top_card() {
            out[at + t.index()] = 1.0;
        }
        at += NUM_FACES;
        if let Some(s) = g.active_suit() {
            out[at + s.index()] = 1.0;
        }
        at += 4;
        out[at] = f32::from(g.nominated_suit().is_some() as u8);
        at += 1;
        out[at] = f32::from(g.free_play() as u8);
        at += 1;
        out[at] = f32::from(g.pending_draw());
        at += 1;
        if g.pending_draw() > 0 {
            let k = match g.chain().answer {
                ChainAnswerState::SameRank => 0,
                ChainAnswerState::AnyDrawCard => 1,
                ChainAnswerState::None => 2,
            };
            out[at + k] = 1.0;
        }
        at += 3;
        out[at + g.phase().index()] = 1.0;
        at += NUM_PHASES;
        out[at] = f32::from((g.current_player() == Some(p)) as u8);
        at += 1;
        out[at] = f32::from(g.direction());
        at += 1;
        for k in 1..n {
            out[at + k - 1] = g.hand((p + k) % n).len() as f32;
        }
        at += MAX_PLAYERS - 1;
        for k in 1..n {
            out[at + k - 1] = 1.0;
        }
        at += MAX_PLAYERS - 1;
        for k in 0..n {
            out[at + k] = g.scores()[(p + k) % n] as f32 / 100.0;
        }
        at += MAX_PLAYERS;
        out[at] = g.stock().len() as f32;
        at += 1;
        out[at] = g.discard().len() as f32;
        at += 1;
        for c in g.discard().as_slice() {
            out[at + c.index()] += 1.0;
        }
        at += NUM_FACES;
        let t = g.turn();
        out[at] = f32::from(t.cards);
        out[at + 1] = f32::from(t.drawn);
        out[at + 2] = f32::from(t.announced as u8);
        at += 3;
        let (kind, suit) = match g.restrict() {
            Restrict::None => (None, None),
            Restrict::Picture => (Some(0), None),
            Restrict::Even => (Some(1), None),
            Restrict::Suit(s) => (Some(2), Some(s as usize)),
            Restrict::Also(s) => (Some(3), Some(s as usize)),
            Restrict::Ask(_) => (Some(4), None),
        };
        if let Some(k) = kind {
            out[at + k] = 1.0;
        }
        at += 5;
        if let Some(s) = suit {
            out[at + s] = 1.0;
        }
        at += 4;
        if let Some(c) = g.rogue().top() {
            out[at + c.index()] = 1.0;
        }
        at += NUM_FACES;
        if let Restrict::Ask(k) = g.restrict() {
            out[at + (k as usize).min(14)] = 1.0;
        }
        at += 15;
        debug_assert_eq!(at, OBS_SIZE);
    }

    #[test]
    fn one_pass_encoder_matches_the_reference() {
        use crate::action::ActionMask;
        use crate::bots::RandomBot;
        use crate::game::derive_seed;
        use crate::rules::{Rules, load_spec, preset_names};
        use std::sync::Arc;
        let mut checked = 0;
        for preset in preset_names() {
            let spec = load_spec(preset, None).unwrap();
            for n in [spec.players.min.max(2), spec.players.max] {
                let rules = Arc::new(Rules::load(preset, n as usize, None).unwrap());
                let mut g = Game::new(rules, derive_seed(7, n as u64));
                let mut bot = RandomBot::new(11);
                let mut mask = ActionMask::default();
                let (mut want, mut got) = ([0f32; OBS_SIZE], [0f32; OBS_SIZE]);
                let (mut bytes, mut signed) = ([0u8; OBS_SIZE], [0i8; OBS_SIZE]);
                for step in 0..600u64 {
                    g.legal_actions(&mut mask);
                    let Some(a) = bot.pick(&mask) else {
                        g.reset(derive_seed(7, 1000 + step), &[]).unwrap();
                        continue;
                    };
                    for p in 0..n as usize {
                        got.fill(f32::NAN);
                        bytes.fill(0xAA);
                        reference(&g, p, &mut want);
                        encode(&g, p, &mut got);
                        encode_into(&g, p, &mut bytes);
                        encode_into(&g, p, &mut signed);
                        assert_eq!(got, want, "{preset} {n}p, step {step}, seat {p}");
                        let cast: Vec<u8> = want.iter().map(|&x| x as u8).collect();
                        assert_eq!(&bytes[..], &cast[..], "{preset} {n}p, step {step}, seat {p} (u8)");
                        let cast: Vec<i8> = want.iter().map(|&x| x as i8).collect();
                        assert_eq!(&signed[..], &cast[..], "{preset} {n}p, step {step}, seat {p} (i8)");
                        checked += 1;
                    }
                    g.apply(a);
                }
            }
        }
        assert!(checked > 10_000);
    }
}
