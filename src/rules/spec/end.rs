//! The end of a hand and after: `end`, `score`, `series` and `countdown`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `end.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EndSpec {
    pub empty_hand: bool,
    /// A blocked hand (every player has passed in turn) ends and is scored.
    pub blocked: bool,
    /// Four cards of one rank played one after another (by any players, across a reshuffle)
    /// end the hand.
    pub four_of_a_kind: bool,
    pub play_for_second: bool,
    /// The hand ends (everyone scores) after this many cards have been played in it
    /// (OpenSpiel's cap on plays).
    pub max_plays: Option<u32>,
    /// Extra consecutive passes on an empty stock needed to block the hand beyond one per
    /// player (OpenSpiel: n + 1 passes, so 1).
    pub blocked_extra_passes: u8,
}
impl Default for EndSpec {
    fn default() -> Self {
        EndSpec {
            empty_hand: true,
            blocked: true,
            four_of_a_kind: false,
            play_for_second: false,
            max_plays: None,
            blocked_extra_passes: 0,
        }
    }
}

/// `score.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ScoreMode {
    /// Losers add their own hand value; lowest total wins.
    #[default]
    Penalty,
    /// The winner scores the others' hand values; highest total wins.
    WinnerCollects,
    /// The winner scores one point per card the others hold.
    PerCard,
    Countdown,
    /// A hand is only won or lost.
    None,
}

/// Scoring of a blocked hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BlockedScoring {
    /// Every player scores their own hand (penalty games).
    #[default]
    AllScore,
    /// Nobody scores.
    Nobody,
    /// The player with the lowest hand value collects the others' (winner-collects games).
    LowestCollects,
}

/// `score.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScoreSpec {
    pub mode: ScoreMode,
    /// Card values: selector -> points. Unlisted cards are worth 0.
    pub values: BTreeMap<String, i32>,
    /// Value overrides for particular player counts: `{ "2" = { "9" = 5 } }`.
    pub values_by_players: BTreeMap<String, BTreeMap<String, i32>>,
    /// Cards of the last played card's rank count double; a joker last doubles all (xtreme).
    pub double_last_rank: bool,
    /// Double Trouble: doubling extends to the last card's group (2–5, 6–9, the face cards
    /// J Q K); a ten, an ace or a joker last doubles as without it.
    pub double_trouble: bool,
    /// Added to the hand winner's score (xtreme Winner Bonus: -10).
    pub winner_bonus: i32,
    pub blocked: BlockedScoring,
    /// Each held card of these selectors doubles the hand total (advanced_switch deuces).
    pub double_per: Vec<String>,
    /// Each pair of identical cards held halves the hand total (advanced_switch).
    pub halve_per_identical_pair: bool,
}
impl Default for ScoreSpec {
    fn default() -> Self {
        ScoreSpec {
            mode: ScoreMode::Penalty,
            values: BTreeMap::new(),
            values_by_players: BTreeMap::new(),
            double_last_rank: false,
            double_trouble: false,
            winner_bonus: 0,
            blocked: BlockedScoring::AllScore,
            double_per: vec![],
            halve_per_identical_pair: false,
        }
    }
}

/// `series.winner`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SeriesWinner {
    /// Lowest total when someone reaches the target.
    #[default]
    Lowest,
    /// First to reach the target (highest total).
    FirstToReach,
    /// The last player below the target.
    LastBelow,
}

/// `series.*`. With `match = false` an episode is one hand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct SeriesSpec {
    /// Play a match of hands to `target` in one episode.
    #[serde(rename = "match")]
    pub play_match: bool,
    /// Target score (a number, or "50*n" style per-player target via `target_per_player`).
    pub target: Option<u32>,
    pub target_per_player: Option<u32>,
    pub winner: SeriesWinner,
    pub max_hands: Option<u32>,
}

/// `countdown.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CountdownSpec {
    /// Everyone's starting score (and wild rank: 8 -> 8, ..., 2 -> 2, 1 -> A).
    pub start_score: u8,
    /// A card of the wild's rank may follow a wild even if it is not the called suit.
    pub equal_rank_on_wild: bool,
    /// A card that is the player's own wild acts only as a wild (bitch: "unless you are on 2's").
    pub pure_wild: bool,
    /// The ranks `pure_wild` applies to; empty: every rank. A wild of another rank with a
    /// special effect acts as both (bitch: only the 2s; a wild ace still skips).
    pub pure_wild_ranks: Vec<String>,
}
impl Default for CountdownSpec {
    fn default() -> Self {
        CountdownSpec { start_score: 8, equal_rank_on_wild: false, pure_wild: false, pure_wild_ranks: vec![] }
    }
}
