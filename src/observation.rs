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

/// Write player `p`'s observation of `g` into `out` (length [`OBS_SIZE`]). No allocation.
pub fn encode(g: &Game, p: usize, out: &mut [f32]) {
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
}
