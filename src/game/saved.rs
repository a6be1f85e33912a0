//! What a game is saved as or set up from: the serialized [`Snapshot`] of a whole game
//! (with a [`VoidRecord`] per seat) and the mid-hand [`Position`]. Building a game from
//! them and taking a snapshot are in `snapshot`, the snapshot's field checks in `checks`.

use super::state::{Bluff, Chain, Interlude, Phase, Restrict, Turn};
use crate::card::{Card, Rank, Suit};
use crate::rules::RulesSpec;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// A mid-hand position for analysis, puzzles and scenario tests.
#[derive(Clone, Debug, Default)]
pub struct Position {
    /// One hand per seat.
    pub hands: Vec<Vec<Card>>,
    /// Discard pile bottom to top (the last card is the top card). The cards above the
    /// bottom one count as played this hand (`Game::plays`, `end.max_plays`): a pile of one
    /// card is its start card, not yet covered.
    pub discard: Vec<Card>,
    /// Stock, next card drawn first; `None` shuffles the rest of the deck into it.
    pub stock: Option<Vec<Card>>,
    pub current_player: usize,
    /// +1 clockwise, -1 anticlockwise.
    pub direction: i8,
    pub nominated_suit: Option<Suit>,
    /// A pending draw penalty of the top card's kind on `current_player`.
    pub pending_draw: u16,
    pub dealer: Option<usize>,
    pub seed: u64,
    /// Match scores (the countdown scores in countdown presets); `None` keeps the start values.
    pub scores: Option<Vec<i32>>,
    /// stalin's rogue pile, bottom to top.
    pub rogue: Vec<Card>,
    /// The hand's wild rank under `options.wild_instapik` (2 to 10); `None` draws it from
    /// the seeded generator as a deal does. Must be `None` under other rules.
    pub wild_rank: Option<Rank>,
}

/// One seat's record of declined plays in a [`Snapshot`] (see [`super::knowledge::Voids`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoidRecord {
    /// The faces ruled out, each once, in card order.
    pub faces: Vec<Card>,
    /// How many cards of `faces` the hand may hold.
    pub room: u8,
}

/// The serialized form of a [`Game`](super::table::Game) (`to_dict`, pickle). Field names are stable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    pub format: u32,
    pub rules: RulesSpec,
    pub num_players: u8,
    pub hands: Vec<Vec<Card>>,
    /// Next card drawn first.
    pub stock: Vec<Card>,
    /// Bottom to top.
    pub discard: Vec<Card>,
    /// stalin's rogue pile, bottom to top.
    #[serde(default)]
    pub rogue: Vec<Card>,
    pub nominated: Option<String>,
    pub direction: i8,
    pub current: u8,
    pub dealer: u8,
    pub phase: Phase,
    pub chain: Chain,
    pub free_play: bool,
    #[serde(default)]
    pub restrict: Restrict,
    pub turn: Turn,
    pub pass_streak: u8,
    /// Under `end.four_of_a_kind`, the cards of the top card's rank placed one after
    /// another, the top card last, at most 4; while jokers lie on top, the run under them.
    /// Absent under other rules, and in older snapshots, where the pile's top cards give it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_run: Option<Vec<Card>>,
    #[serde(default)]
    pub plays: u32,
    #[serde(default)]
    pub done: u16,
    /// Decisions outside the normal turn (mirror window, keep choices).
    #[serde(default)]
    pub interlude: Interlude,
    /// Cards chosen so far in the `keep` phase.
    #[serde(default)]
    pub kept: Vec<Card>,
    /// The joker awaiting a challenge decision (`options.joker_bluff`).
    #[serde(default)]
    pub challenge: Option<Bluff>,
    /// Seats that miss their next turn, one bit per seat.
    #[serde(default)]
    pub missed: u16,
    /// Per seat, the suits its hand declined ([`Game::declined_suits`](super::table::Game::declined_suits)): bits 0 to 3; empty
    /// (older snapshots) means none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declined: Vec<u8>,
    /// Per seat, the public record of declined plays ([`Game::voids`](super::table::Game::voids)): the faces ruled out of
    /// the hand and how many of them it may hold; empty (older snapshots) means none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub voids: Vec<VoidRecord>,
    pub went_out: Option<u8>,
    /// Seats in the order they went out this hand (see [`Game::finishing_order`](super::table::Game::finishing_order)).
    #[serde(default)]
    pub finishing_order: Vec<u8>,
    /// The loser of the previous hand of a match (`order.first = previous_loser`).
    #[serde(default)]
    pub previous_loser: Option<u8>,
    pub scores: Vec<i32>,
    pub hand_points: Vec<i32>,
    pub hand_winner: Option<u8>,
    pub winner: Option<u8>,
    pub terminal: bool,
    pub truncated: bool,
    pub decisions: u32,
    pub hands_played: u32,
    pub hat: Option<u8>,
    /// The hand's wild rank under `options.wild_instapik` ("2" … "T"); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wild_rank: Option<String>,
    pub seed: u64,
    pub rng: Xoshiro256PlusPlus,
}
