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
//! | `wild_rank`      | 13   | one-hot rank made wild for the hand, A..K (zodiac's Wild Instapik; zero elsewhere) |
//! | `declined`       | 36   | per seat offset 1..9, four suit flags (C, D, H, S): the suits that seat's hand declined this hand ([`Game::declined_suits`]: in force when it drew or passed instead of playing, and not played from it since) |
//!
//! Total [`OBS_SIZE`] = 346. The slices are in a fixed order and new ones are added at the
//! end, so the offsets of the earlier ones never move. Each slice's start is a public constant
//! named for it in capitals ([`HAND`], [`TOP_CARD`], ... [`DECLINED`]), and [`spec`] lists them
//! all (`observation_spec()` in Python): code outside this module reads the offsets from
//! there, never as numbers. The finite bounds of every entry under a rule set, and the scaling
//! into `[0, 1]`, are in [`bounds`]. Per-face rule features are separate
//! ([`crate::rules::Rules::features`]) so an agent can condition on the rules.

use crate::card::NUM_FACES;
use crate::game::{ChainAnswerState, Game, NUM_PHASES, Restrict};
use crate::rules::MAX_PLAYERS;

pub mod bounds;

/// Named slices of the observation, in order: `(name, size)`.
pub const OBS_LAYOUT: [(&str, usize); 25] = [
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
    ("wild_rank", 13),
    ("declined", 4 * (MAX_PLAYERS - 1)),
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
    /// `self + 1` for the small counts of the layout (exact below 127).
    fn plus_one(self) -> Self;
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
    #[inline(always)]
    fn plus_one(self) -> f32 {
        self + 1.0
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
    #[inline(always)]
    fn plus_one(self) -> u8 {
        self.saturating_add(1)
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
    #[inline(always)]
    fn plus_one(self) -> i8 {
        self.saturating_add(1)
    }
}

/// Write player `p`'s observation of `g` into `out` (length [`OBS_SIZE`]). No allocation.
pub fn encode(g: &Game, p: usize, out: &mut [f32]) {
    encode_into(g, p, out);
}

/// Start of the slice named `name` in [`OBS_LAYOUT`] (a compile-time constant).
const fn offset(name: &str) -> usize {
    let mut i = 0;
    let mut at = 0;
    while i < OBS_LAYOUT.len() {
        if str_eq(OBS_LAYOUT[i].0, name) {
            return at;
        }
        at += OBS_LAYOUT[i].1;
        i += 1;
    }
    panic!("no such observation slice")
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

// The start of every slice of `OBS_LAYOUT`, by its name in capitals: the one place the
// offsets are written down (the networks, in Rust and Python, read them from here).
/// Start of the `hand` slice.
pub const HAND: usize = offset("hand");
/// Start of the `top_card` slice.
pub const TOP_CARD: usize = offset("top_card");
/// Start of the `active_suit` slice.
pub const ACTIVE_SUIT: usize = offset("active_suit");
/// Start of the `nominated` slice.
pub const NOMINATED: usize = offset("nominated");
/// Start of the `free_play` slice.
pub const FREE_PLAY: usize = offset("free_play");
/// Start of the `pending_draw` slice.
pub const PENDING_DRAW: usize = offset("pending_draw");
/// Start of the `pending_kind` slice.
pub const PENDING_KIND: usize = offset("pending_kind");
/// Start of the `phase` slice.
pub const PHASE: usize = offset("phase");
/// Start of the `to_act` slice.
pub const TO_ACT: usize = offset("to_act");
/// Start of the `direction` slice.
pub const DIRECTION: usize = offset("direction");
/// Start of the `hand_sizes` slice.
pub const HAND_SIZES: usize = offset("hand_sizes");
/// Start of the `seats` slice.
pub const SEATS: usize = offset("seats");
/// Start of the `scores` slice.
pub const SCORES: usize = offset("scores");
/// Start of the `stock_size` slice.
pub const STOCK_SIZE: usize = offset("stock_size");
/// Start of the `discard_size` slice.
pub const DISCARD_SIZE: usize = offset("discard_size");
/// Start of the `played` slice.
pub const PLAYED: usize = offset("played");
/// Start of the `turn_cards` slice.
pub const TURN_CARDS: usize = offset("turn_cards");
/// Start of the `turn_drawn` slice.
pub const TURN_DRAWN: usize = offset("turn_drawn");
/// Start of the `announced` slice.
pub const ANNOUNCED: usize = offset("announced");
/// Start of the `constraint` slice.
pub const CONSTRAINT: usize = offset("constraint");
/// Start of the `constraint_suit` slice.
pub const CONSTRAINT_SUIT: usize = offset("constraint_suit");
/// Start of the `rogue_top` slice.
pub const ROGUE_TOP: usize = offset("rogue_top");
/// Start of the `asked` slice.
pub const ASKED: usize = offset("asked");
/// Start of the `wild_rank` slice.
pub const WILD_RANK: usize = offset("wild_rank");
/// Start of the `declined` slice.
pub const DECLINED: usize = offset("declined");

/// [`encode`] for any [`ObsScalar`]: each element is `T::of` the `f32` value, so a `u8`
/// observation equals the `f32` one cast element by element. Every element is written once:
/// the two dense per-face slices (`hand`, `played`) are converted whole from the counts the
/// game keeps, and the sparse stretches between them are cleared and then get their few
/// non-zero entries at fixed offsets.
pub fn encode_into<T: ObsScalar>(g: &Game, p: usize, out: &mut [T]) {
    let out: &mut [T; OBS_SIZE] =
        out.try_into().unwrap_or_else(|_| panic!("observation buffer must hold {OBS_SIZE} values"));
    let n = g.num_players();
    write_counts(&mut out[HAND..HAND + NUM_FACES], g.hand(p).counts());
    out[HAND + NUM_FACES..PLAYED].fill(T::ZERO);
    write_counts(&mut out[PLAYED..PLAYED + NUM_FACES], g.discard_counts().counts());
    out[PLAYED + NUM_FACES..].fill(T::ZERO);
    if let Some(t) = g.top_card() {
        out[TOP_CARD + t.index() % NUM_FACES] = T::ONE;
    }
    if let Some(s) = g.active_suit() {
        out[ACTIVE_SUIT + s.index() % 4] = T::ONE;
    }
    if g.nominated_suit().is_some() {
        out[NOMINATED] = T::ONE;
    }
    if g.free_play() {
        out[FREE_PLAY] = T::ONE;
    }
    let pending = g.pending_draw();
    out[PENDING_DRAW] = T::of(f32::from(pending));
    if pending > 0 {
        let k = match g.chain().answer {
            ChainAnswerState::SameRank => 0,
            ChainAnswerState::AnyDrawCard => 1,
            ChainAnswerState::None => 2,
        };
        out[PENDING_KIND + k] = T::ONE;
    }
    out[PHASE + g.phase().index() % NUM_PHASES] = T::ONE;
    if g.current_player() == Some(p) {
        out[TO_ACT] = T::ONE;
    }
    out[DIRECTION] = T::of(f32::from(g.direction()));
    let s = g.scores();
    out[SCORES] = T::of(s[p] as f32 / 100.0);
    for k in 1..n.min(MAX_PLAYERS) {
        let q = (p + k) % n;
        out[HAND_SIZES + k - 1] = T::of(g.hand(q).len() as f32);
        out[SEATS + k - 1] = T::ONE;
        out[SCORES + k] = T::of(s[q] as f32 / 100.0);
        let d = g.declined_suits(q);
        if d != 0 {
            for s in 0..4 {
                if d >> s & 1 != 0 {
                    out[DECLINED + 4 * (k - 1) + s] = T::ONE;
                }
            }
        }
    }
    out[STOCK_SIZE] = T::of(g.stock().len() as f32);
    out[DISCARD_SIZE] = T::of(g.discard().len() as f32);
    let t = g.turn();
    out[TURN_CARDS] = T::of(f32::from(t.cards));
    out[TURN_DRAWN] = T::of(f32::from(t.drawn));
    if t.announced {
        out[ANNOUNCED] = T::ONE;
    }
    let (kind, suit) = match g.restrict() {
        Restrict::None => (None, None),
        Restrict::Picture => (Some(0), None),
        Restrict::Even => (Some(1), None),
        Restrict::Suit(s) => (Some(2), Some(s as usize)),
        Restrict::Also(s) => (Some(3), Some(s as usize)),
        Restrict::Ask(_) => (Some(4), None),
    };
    if let Some(k) = kind {
        out[CONSTRAINT + k] = T::ONE;
    }
    if let Some(s) = suit {
        out[CONSTRAINT_SUIT + s % 4] = T::ONE;
    }
    // Only stalin has a rogue pile; asking the rules first spares every other game a read
    // of the empty pile's cache line.
    if g.rules().rogue {
        if let Some(c) = g.rogue().top() {
            out[ROGUE_TOP + c.index() % NUM_FACES] = T::ONE;
        }
    }
    if let Restrict::Ask(k) = g.restrict() {
        out[ASKED + (k as usize).min(14)] = T::ONE;
    }
    if let Some(r) = g.wild_rank() {
        out[WILD_RANK + r.index() % 13] = T::ONE;
    }
}

/// `out[i] = T::count(counts[i])` for the 54 faces (one vectorisable pass).
#[inline(always)]
fn write_counts<T: ObsScalar>(out: &mut [T], counts: &[u8; NUM_FACES]) {
    for (o, &k) in out.iter_mut().zip(counts.iter()) {
        *o = T::count(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;

    #[test]
    fn layout_is_contiguous() {
        let s = spec();
        assert_eq!(s[0].1, 0);
        for w in s.windows(2) {
            assert_eq!(w[0].2, w[1].1);
        }
        assert_eq!(s.last().unwrap().2, OBS_SIZE);
        assert_eq!(OBS_SIZE, 346);
    }

    #[test]
    fn public_offsets_name_their_slices() {
        let consts = [
            HAND,
            TOP_CARD,
            ACTIVE_SUIT,
            NOMINATED,
            FREE_PLAY,
            PENDING_DRAW,
            PENDING_KIND,
            PHASE,
            TO_ACT,
            DIRECTION,
            HAND_SIZES,
            SEATS,
            SCORES,
            STOCK_SIZE,
            DISCARD_SIZE,
            PLAYED,
            TURN_CARDS,
            TURN_DRAWN,
            ANNOUNCED,
            CONSTRAINT,
            CONSTRAINT_SUIT,
            ROGUE_TOP,
            ASKED,
            WILD_RANK,
            DECLINED,
        ];
        let starts: Vec<usize> = spec().iter().map(|s| s.1).collect();
        assert_eq!(consts.to_vec(), starts);
        // The offsets the shipped networks were trained on (docs/layouts.md).
        assert_eq!((TOP_CARD, ACTIVE_SUIT, SCORES, PLAYED, CONSTRAINT_SUIT, ROGUE_TOP), (54, 108, 150, 162, 224, 228));
        assert_eq!((ASKED, WILD_RANK, DECLINED), (282, 297, 310));
    }

    /// The encoder as first written (clear the row, then set entries one by one), kept as
    /// the reference the encoder must reproduce exactly.
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
        if let Some(r) = g.wild_rank() {
            out[at + r.index()] = 1.0;
        }
        at += 13;
        for k in 1..n {
            for (s, suit) in Suit::ALL.iter().enumerate() {
                if g.declined_suits((p + k) % n) & (1 << suit.index()) != 0 {
                    out[at + 4 * (k - 1) + s] = 1.0;
                }
            }
        }
        at += 4 * (MAX_PLAYERS - 1);
        debug_assert_eq!(at, OBS_SIZE);
    }

    #[test]
    fn encoder_matches_the_reference() {
        use crate::action::ActionMask;
        use crate::game::derive_seed;
        use crate::rules::{Rules, load_spec, preset_names};
        use rand::{RngExt, SeedableRng};
        use std::sync::Arc;
        let mut checked = 0;
        let instapik = serde_json::json!({"variants": ["wild_instapik"]});
        let tables = preset_names().into_iter().map(|p| (p, None)).chain([("zodiac", Some(&instapik))]);
        for (preset, over) in tables {
            let spec = load_spec(preset, over).unwrap();
            for n in [spec.players.min.max(2), spec.players.max] {
                let rules = Arc::new(Rules::load(preset, n as usize, over).unwrap());
                let mut g = Game::new(rules, derive_seed(7, n as u64));
                // Uniform legal actions, drawn as the random bot draws them (not imported: the
                // bots read observations, so this module does not depend on them).
                let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
                let mut mask = ActionMask::default();
                let (mut want, mut got) = ([0f32; OBS_SIZE], [0f32; OBS_SIZE]);
                let (mut bytes, mut signed) = ([0u8; OBS_SIZE], [0i8; OBS_SIZE]);
                for step in 0..600u64 {
                    g.legal_actions(&mut mask);
                    let k = mask.len();
                    let Some(a) = (k > 0).then(|| mask.nth(rng.random_range(0..k))).flatten() else {
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

    /// An observation is a function of what its player knows: a determinization for that
    /// player (every hidden card re-dealt, what the player has seen kept) leaves its
    /// observation, and the acting player's legal actions, exactly as they were. A feature that
    /// read another hand or the stock's order would tell the two apart.
    #[test]
    fn an_observation_reads_no_hidden_card() {
        use crate::action::ActionMask;
        use crate::game::{random_step, test_tables};
        use rand::SeedableRng;
        use rand_xoshiro::Xoshiro256PlusPlus;
        let (mut real, mut dealt) = ([0f32; OBS_SIZE], [0f32; OBS_SIZE]);
        let (mut mask, mut mask_dealt) = (ActionMask::default(), ActionMask::default());
        let mut worlds = Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut checked, mut moved) = (0, 0);
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules, crate::game::derive_seed(9, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(n as u64);
            let mut episode = 0;
            for step in 0..1500 {
                if step % 3 == 0 {
                    for p in 0..n {
                        let d = g.determinize(p, &mut worlds);
                        encode(&g, p, &mut real);
                        encode(&d, p, &mut dealt);
                        let at = real.iter().zip(&dealt).position(|(a, b)| a != b);
                        assert_eq!(at, None, "{preset} {n}p, step {step}, seat {p}: feature {at:?} moved");
                        if g.current_player() == Some(p) {
                            g.legal_actions(&mut mask);
                            d.legal_actions(&mut mask_dealt);
                            assert!(mask == mask_dealt, "{preset} {n}p, step {step}, seat {p}: legal actions moved");
                        }
                        moved += usize::from((0..n).any(|q| q != p && d.hand(q) != g.hand(q)));
                        checked += 1;
                    }
                }
                random_step(&mut g, &mut bot, &mut mask, 9, &mut episode);
            }
        }
        // The hidden cards were re-dealt in most of the positions checked.
        assert!(checked > 20_000 && moved * 2 > checked, "{checked} positions, {moved} re-dealt");
    }
}
