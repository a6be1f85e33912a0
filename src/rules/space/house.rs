//! The house-rule dimensions of the rule space: each one a small function registered in
//! [`DIMENSIONS`] with its name, default weight and words, so that a dimension without a
//! change cannot be named. A change builds on the preset drawn (and the changes before it)
//! and returns its words, or `None` when it does not apply to those rules.

use crate::card::{NUM_FACES, Rank};
use crate::rules::{CardRule, Direction, DrawMode, MultiMode, Rules, RulesSpec, TwoPlayerReverse};
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{Map, Value, json};

/// One house-rule dimension (see [`DIMENSIONS`]).
#[derive(Clone, Copy)]
pub struct Dimension {
    /// The name that `SpaceConfig::weights` and the Python `dims` give it.
    pub name: &'static str,
    /// Its default weight.
    pub weight: f64,
    /// What a change does, in words.
    pub words: &'static str,
    /// A change to one rank, which may happen more than once per draw (on other ranks); the
    /// table-wide dimensions change at most once per draw.
    pub(super) per_rank: bool,
    /// The change.
    pub(super) change: fn(&mut Mutator<'_>, &mut Xoshiro256PlusPlus) -> Option<String>,
}

impl std::fmt::Debug for Dimension {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dimension").field("name", &self.name).field("weight", &self.weight).finish()
    }
}

/// The house-rule dimensions, in the order weights are drawn.
pub const DIMENSIONS: [Dimension; 11] = [
    Dimension {
        name: "card_effect",
        weight: 4.0,
        words: "a rank without an effect gets one: wild, skip, reverse, a draw-two or draw-four chain, draw two and \
                miss the turn, cancel a draw chain (where chains exist), a run of its suit, free play for the next \
                player, give a card, swap hands, another turn, or every other player draws one",
        per_rank: true,
        change: card_effect,
    },
    Dimension {
        name: "remove_effect",
        weight: 1.0,
        words: "a rank with an effect (set for the whole rank) becomes ordinary",
        per_rank: true,
        change: remove_effect,
    },
    Dimension {
        name: "chain",
        weight: 1.0,
        words: "draw chains (where there are any): answered by the same rank or any draw card; penalties add up or \
                stay fixed",
        per_rank: false,
        change: chain,
    },
    Dimension {
        name: "hand_size",
        weight: 1.0,
        words: "the hand size changes by 1 or 2 (at least 3 cards, and the deck must still deal)",
        per_rank: false,
        change: hand_size,
    },
    Dimension {
        name: "draw",
        weight: 1.0,
        words: "drawing: one card or until playable; the turn ends or the drawn card may be played; voluntary or not",
        per_rank: false,
        change: draw,
    },
    Dimension {
        name: "pass",
        weight: 0.5,
        words: "passing: only when nothing can be drawn, or after drawing one card",
        per_rank: false,
        change: pass,
    },
    Dimension {
        name: "stock",
        weight: 0.5,
        words: "an empty stock: the discard pile but its top card reshuffled, or turned over unshuffled",
        per_rank: false,
        change: stock,
    },
    Dimension {
        name: "multi",
        weight: 0.5,
        words: "several cards of one rank may be played together, or not",
        per_rank: false,
        change: multi,
    },
    Dimension {
        name: "scoring",
        weight: 0.5,
        words: "a hand's points (single-hand rule sets): penalty, winner collects, or one point per card",
        per_rank: false,
        change: scoring,
    },
    Dimension {
        name: "direction",
        weight: 0.25,
        words: "the first direction of play: clockwise or anticlockwise",
        per_rank: false,
        change: direction,
    },
    Dimension {
        name: "two_player",
        weight: 0.25,
        words: "a reverse with two players: nothing, or a skip",
        per_rank: false,
        change: two_player,
    },
];

/// The changes of one draw under construction.
pub(super) struct Mutator<'a> {
    base: &'a Rules,
    over: &'a mut Map<String, Value>,
    /// Ranks already changed (bit per rank index).
    touched: u16,
    /// The rules have a draw chain (the preset's, or one added).
    chains: bool,
    /// Table-wide dimensions already changed (bit per index in [`DIMENSIONS`]): each changes
    /// at most once per draw (a second change would undo or repeat the first).
    pub(super) dims: u16,
}

/// An effect a house rule may give a rank.
struct Effect {
    /// What the cards then do, in words ("the Fives ...").
    words: &'static str,
    /// Its entry of the effect table.
    table: fn() -> Value,
    /// It starts a draw chain.
    starts_chain: bool,
    /// It applies only where draw chains exist.
    needs_chain: bool,
}

/// An effect (named for the reader: wild, skip, ...) that neither starts nor needs a chain.
const fn effect(_name: &str, words: &'static str, table: fn() -> Value) -> Effect {
    Effect { words, table, starts_chain: false, needs_chain: false }
}

const EFFECTS: [Effect; 13] = [
    effect("wild", "are wild (their player names the suit to follow)", || json!({"wild": {"nominate": "required"}})),
    effect("skip", "make the next player miss a turn", || json!({"skip": 1})),
    effect("reverse", "reverse the direction of play", || json!({"reverse": true})),
    Effect {
        starts_chain: true,
        ..effect("draw_two", "start a draw-two chain", || json!({"draw_chain": {"amount": 2}}))
    },
    Effect {
        starts_chain: true,
        ..effect("draw_four", "start a draw-four chain", || json!({"draw_chain": {"amount": 4}}))
    },
    effect("draw_lose", "make the next player draw two and miss the turn", || json!({"draw_and_lose_turn": 2})),
    Effect { needs_chain: true, ..effect("cancel", "cancel a pending draw chain", || json!({"cancel": ["any"]})) },
    effect(
        "run",
        "may be followed by more cards of their suit (only the top one acts)",
        || json!({"follow": "same_suit_any"}),
    ),
    effect("free_play", "let the next player play any card", || json!({"free_play_next": true})),
    effect("give", "make their player give a card to the next player", || json!({"give": "one"})),
    effect("swap", "let their player swap hands with another player", || json!({"swap_hand": true})),
    effect("extra_turn", "give their player another turn", || json!({"extra_turn": true})),
    effect("others_draw", "make every other player draw one card", || json!({"others_draw": 1})),
];

/// Every effect a rank-wide entry may set, switched off (TOML has no null, so "off" is a value).
fn plain_table() -> Value {
    json!({
        "wild": {"enabled": false}, "nominate": "none", "skip": 0, "reverse": false,
        "draw_chain": {"amount": 0}, "draw_and_lose_turn": 0, "draw_keep_turn": 0, "cancel": [],
        "free_play_next": false, "follow": "none", "extra_turn": false, "others_draw": 0,
        "swap_hand": false, "pick_up_pile": 0, "must_cover": false, "second_suit": false,
        "ask_rank": false, "mirror": false, "next_picture": false, "next_even": false,
        "waste_draw": 0, "marriage": false, "ends_turn": false,
    })
}

/// The faces of rank `r` as a bitset.
fn rank_faces(r: Rank) -> u64 {
    (0..4).fold(0, |m, s| m | 1u64 << (s * 13 + r.index()))
}

fn pick<'v, T>(rng: &mut Xoshiro256PlusPlus, v: &'v [T]) -> &'v T {
    &v[rng.random_range(0..v.len())]
}

fn rank_key(r: Rank) -> String {
    r.letter().to_string()
}

fn plural(r: Rank) -> &'static str {
    crate::rules::describe::rank_name(r).1
}

fn draw_mode(s: &RulesSpec) -> &'static str {
    match s.draw.mode {
        DrawMode::One => "one",
        DrawMode::UntilPlayable => "until_playable",
        _ => "other",
    }
}

impl<'a> Mutator<'a> {
    /// No changes yet, on top of `base` (its draw chains count as chains).
    pub(super) fn new(base: &'a Rules, over: &'a mut Map<String, Value>) -> Self {
        Mutator { base, over, touched: 0, chains: !base.chain_groups.is_empty(), dims: 0 }
    }

    fn spec(&self) -> &'a RulesSpec {
        &self.base.spec
    }

    fn set(&mut self, table: &str, key: &str, v: Value) {
        let t = self.over.entry(table.to_string()).or_insert_with(|| json!({}));
        if let Value::Object(m) = t {
            m.insert(key.to_string(), v);
        }
    }

    /// Rank `r`'s entry of the effect table.
    fn set_rank(&mut self, r: Rank, entry: Value) -> Option<()> {
        self.touched |= 1 << r.index();
        let cards = self.over.entry("cards".to_string()).or_insert_with(|| json!({}));
        cards.as_object_mut()?.insert(rank_key(r), entry);
        Some(())
    }

    /// The ranks not yet changed whose faces satisfy `ok` (all four suits).
    fn ranks(&self, ok: impl Fn(&CardRule) -> bool) -> Vec<Rank> {
        Rank::ALL
            .into_iter()
            .filter(|r| self.touched & (1 << r.index()) == 0)
            .filter(|&r| (0..NUM_FACES).filter(|&i| rank_faces(r) & (1 << i) != 0).all(|i| ok(&self.base.card[i])))
            .collect()
    }

    /// The card-table keys of the preset that touch rank `r` other than `r`'s own key.
    fn other_keys_touch(&self, r: Rank) -> bool {
        let faces = rank_faces(r);
        let spec = self.spec();
        let options = !spec.options.public_rules.is_empty() || spec.options.zodiac_card.is_some();
        options
            || spec.cards.keys().any(|k| {
                crate::rules::selector::parse_selector(k)
                    .is_some_and(|(mask, level)| mask & faces != 0 && !(level == 0 && mask == faces))
            })
    }
}

/// A rank without an effect gets one.
fn card_effect(m: &mut Mutator<'_>, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let ranks = m.ranks(|c| *c == CardRule::default());
    let r = *ranks.get(rng.random_range(0..ranks.len().max(1)))?;
    let usable: Vec<&Effect> = EFFECTS.iter().filter(|e| !e.needs_chain || m.chains).collect();
    let e = *pick(rng, &usable);
    m.touched |= 1 << r.index();
    m.chains |= e.starts_chain;
    m.set_rank(r, (e.table)())?;
    Some(format!("the {} {}", plural(r), e.words))
}

/// A rank with an effect (set for the whole rank) becomes ordinary.
fn remove_effect(m: &mut Mutator<'_>, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let ranks: Vec<Rank> = m
        .ranks(|c| c.give.is_none() && c.pass_hands.is_none() && c.shield == 0 && !c.joker_lock)
        .into_iter()
        .filter(|&r| {
            let faces = rank_faces(r);
            (0..NUM_FACES).any(|i| faces & (1 << i) != 0 && m.base.card[i].is_special())
        })
        .filter(|&r| !m.other_keys_touch(r))
        .collect();
    let r = *ranks.get(rng.random_range(0..ranks.len().max(1)))?;
    m.set_rank(r, plain_table())?;
    Some(format!("the {} are ordinary cards", plural(r)))
}

/// Draw chains (where there are any): what answers them, or how penalties grow.
fn chain(m: &mut Mutator<'_>, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    if !m.chains {
        return None;
    }
    if rng.random::<bool>() {
        let (v, w) =
            *pick(rng, &[("same_rank", "only by a card of the same kind"), ("any_draw_card", "by any draw card")]);
        m.set("chain", "answer", json!(v));
        Some(format!("a draw penalty is answered {w}"))
    } else {
        let (v, w) = *pick(rng, &[("sum", "add up"), ("fixed", "do not grow when answered")]);
        m.set("chain", "accumulate", json!(v));
        Some(format!("draw penalties {w}"))
    }
}

/// The hand size changes by 1 or 2 (at least 3 cards).
fn hand_size(m: &mut Mutator<'_>, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let delta = *pick(rng, &[-2i32, -1, 1, 2]);
    let h = (i32::from(m.base.hand_size) + delta).max(3);
    if h == i32::from(m.base.hand_size) {
        return None;
    }
    m.set("deal", "hand_size", json!(h));
    Some(format!("each player is dealt {h} cards"))
}

/// Drawing: how many cards, what a drawn card may do, whether drawing is voluntary.
fn draw(m: &mut Mutator<'_>, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let s = m.spec();
    match rng.random_range(0..3) {
        0 => {
            let (v, w) = *pick(
                rng,
                &[("one", "a player draws one card"), ("until_playable", "a player draws until they can play")],
            );
            (v != draw_mode(s)).then(|| {
                m.set("draw", "mode", json!(v));
                w.to_string()
            })
        }
        1 => {
            let (v, w) = *pick(
                rng,
                &[("end_turn", "drawing ends the turn"), ("may_play_drawn", "a drawn card may be played at once")],
            );
            m.set("draw", "after", json!(v));
            Some(w.to_string())
        }
        _ => {
            let v = !s.draw.voluntary;
            m.set("draw", "voluntary", json!(v));
            Some(if v { "a player may draw instead of playing" } else { "a player who can play must play" }.into())
        }
    }
}

/// Passing: only when nothing can be drawn, or after drawing one card.
fn pass(m: &mut Mutator<'_>, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let (v, w) = *pick(
        rng,
        &[
            ("never", "a player passes only when nothing can be drawn"),
            ("after_one_draw", "a player may pass after drawing one card"),
        ],
    );
    m.set("pass", "when", json!(v));
    Some(w.to_string())
}

/// An empty stock: reshuffled from the discard pile, or turned over.
fn stock(m: &mut Mutator<'_>, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let (v, w) = *pick(
        rng,
        &[
            ("reshuffle_all_but_top", "an empty stock is refilled from the discard pile but its top card, shuffled"),
            ("turn_over_no_shuffle", "an empty stock is refilled by turning the discard pile over, unshuffled"),
        ],
    );
    m.set("stock", "exhausted", json!(v));
    Some(w.to_string())
}

/// Several cards of one rank together, or one card at a time.
fn multi(m: &mut Mutator<'_>, _rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let s = m.spec();
    let on = s.multi.mode == MultiMode::Off;
    if !matches!(s.multi.mode, MultiMode::Off | MultiMode::EqualRank) {
        return None;
    }
    m.set("multi", "mode", json!(if on { "equal_rank" } else { "off" }));
    Some(if on { "several cards of one rank may be played together" } else { "one card is played at a time" }.into())
}

/// A hand's points, in single-hand rule sets.
fn scoring(m: &mut Mutator<'_>, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let s = m.spec();
    if s.series.play_match || s.countdown.is_some() {
        return None;
    }
    let (v, w) = *pick(
        rng,
        &[
            ("penalty", "each loser scores their own cards"),
            ("winner_collects", "the winner collects the points of the cards left"),
            ("per_card", "the winner scores a point per card left"),
        ],
    );
    m.set("score", "mode", json!(v));
    Some(w.to_string())
}

/// The first direction of play turns.
fn direction(m: &mut Mutator<'_>, _rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let ccw = m.spec().order.initial_direction == Direction::Cw;
    m.set("order", "initial_direction", json!(if ccw { "ccw" } else { "cw" }));
    Some(if ccw { "play starts anticlockwise" } else { "play starts clockwise" }.into())
}

/// A reverse with two players: nothing, or a skip.
fn two_player(m: &mut Mutator<'_>, _rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let skip = m.spec().two_player.reverse != TwoPlayerReverse::AsSkip;
    m.set("two_player", "reverse", json!(if skip { "as_skip" } else { "noop" }));
    Some(
        if skip { "with two players a reverse acts as a skip" } else { "with two players a reverse does nothing" }
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimension_names_are_unique() {
        for (i, d) in DIMENSIONS.iter().enumerate() {
            assert!(DIMENSIONS[..i].iter().all(|e| e.name != d.name), "{} twice", d.name);
            assert!(d.weight > 0.0, "{}", d.name);
        }
    }
}
