//! The serde rules specification: every rule dimension the engine knows, as data.
//!
//! A [`RulesSpec`] is what preset TOML files and user overrides are written in. Every
//! table denies unknown fields, so a misspelt key is an error that names it. Fields are
//! dotted keys by rule dimension: `deck.packs`, `draw.after`, `chain.answer`, and so on.
//! The effect table is `cards`: a map from a card selector to the effects ([`CardSpec`])
//! that card carries.
//!
//! Card selectors: a rank (`"8"`, `"T"` or `"10"`, `"Q"`), a single card (`"QS"`), a colour
//! group (`"black J"`, `"red K"`), `"joker"` (both jokers), `"RJ"` or `"BJ"`. When several
//! selectors name the same card, the more specific one wins field by field: rank, then
//! colour group, then single card.
//!
//! `Rules::from_spec` (in the parent module) validates a spec into the engine's compiled form.
//!
//! Files: this one holds [`RulesSpec`] with the players, deck, deal, start and seating
//! tables, the options and the limits; `cards` what a card matches and does (matching,
//! wild cards, the per-card effect table); `turn` drawing, passing, the stock, multi-card
//! plays, draw chains, two-player adjustments and the last-card call; `end` the end of a
//! hand, scoring, the match and the countdown.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod cards;
mod end;
mod turn;

pub use cards::*;
pub use end::*;
pub use turn::*;

/// Complete rules of one game. See the module documentation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct RulesSpec {
    /// Preset name.
    pub name: String,
    /// Human title.
    pub title: String,
    /// Where the rules come from.
    pub source: String,
    /// One paragraph of prose.
    pub description: String,
    /// Preset this one copies every unlisted setting from (resolved when loading).
    pub inherits: Option<String>,
    /// Named variant overlays applied on top of the preset (names of `variant.*` tables).
    pub variants: Vec<String>,
    /// Variant overlays this preset documents: name -> partial rules table (shared: copies of
    /// a specification share one table).
    pub variant: std::sync::Arc<BTreeMap<String, serde_json::Value>>,
    /// Documented simplifications of out-of-scope mechanics.
    pub simplifications: Vec<String>,
    pub players: PlayersSpec,
    pub deck: DeckSpec,
    pub deal: DealSpec,
    pub start: StartSpec,
    pub order: OrderSpec,
    #[serde(rename = "match")]
    pub matching: MatchSpec,
    pub draw: DrawSpec,
    #[serde(rename = "pass")]
    pub passing: PassSpec,
    pub stock: StockSpec,
    pub multi: MultiSpec,
    pub chain: ChainSpec,
    pub two_player: TwoPlayerSpec,
    pub last_card: LastCardSpec,
    /// Default behaviour when a special card is the last card played; a card's
    /// own `last_special` overrides it.
    pub last_special: LastSpecial,
    pub end: EndSpec,
    pub score: ScoreSpec,
    pub series: SeriesSpec,
    pub countdown: Option<CountdownSpec>,
    /// The effect table: card selector -> effects.
    pub cards: BTreeMap<String, CardSpec>,
    /// Preset-specific options (e.g. `switch_blackjack.aces_wild`).
    pub options: OptionsSpec,
    pub limits: LimitsSpec,
}

/// `players`: allowed player counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayersSpec {
    pub min: u8,
    pub max: u8,
}
impl Default for PlayersSpec {
    fn default() -> Self {
        PlayersSpec { min: 2, max: 10 }
    }
}

/// `deck.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeckSpec {
    /// Number of 52-card packs.
    pub packs: u8,
    /// From this many players up, use that many packs: `{ "6" = 2 }`.
    pub packs_by_players: BTreeMap<String, u8>,
    /// Jokers per pack (0 or 2; one red, one black per two).
    pub jokers: u8,
    /// Red and black jokers have different rules (larby_switch).
    pub joker_colours_distinct: bool,
}
impl Default for DeckSpec {
    fn default() -> Self {
        DeckSpec { packs: 1, packs_by_players: BTreeMap::new(), jokers: 0, joker_colours_distinct: false }
    }
}

/// `deal.starter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Starter {
    /// The stock's top card starts the discard pile.
    #[default]
    TurnUp,
    /// No start card: the first player leads any card.
    None,
}

/// `deal.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DealSpec {
    pub hand_size: u8,
    /// Hand size for particular player counts: `{ "2" = 7 }`.
    pub hand_size_by_players: BTreeMap<String, u8>,
    /// Extra cards for the dealer (rose_mau: 2).
    pub dealer_extra: u8,
    pub starter: Starter,
}
impl Default for DealSpec {
    fn default() -> Self {
        DealSpec { hand_size: 7, hand_size_by_players: BTreeMap::new(), dealer_extra: 0, starter: Starter::TurnUp }
    }
}

/// `start.effect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum StartEffect {
    /// As if the dealer had just played it, nomination included (after seeing their hand).
    #[default]
    AsPlayedByDealer,
    /// Sets suit and rank only: no effect, and until a card covers it no wild is barred
    /// from it (`wild.forbidden_on`; zodiac's turned-up Zodiac card).
    Ignore,
    /// Returned to the stock, which is shuffled, and another card is turned.
    Redraw,
    /// The dealer names a suit before looking (the engine picks one at random).
    DealerNominatesBlind,
    /// The first player may play any card (a wild start in sevens_and_eights).
    FreePlay,
}

/// `start.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct StartSpec {
    pub effect: StartEffect,
    /// Per-card start effects overriding `effect`: selector -> effect.
    pub cards: BTreeMap<String, StartEffect>,
}

/// `order.first`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    #[default]
    DealerLeft,
    /// Direction chosen by the dealer (`order.initial_direction`).
    DealerChooses,
    PreviousLoser,
    Agreed,
}

/// A direction of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    #[default]
    Cw,
    Ccw,
}

/// `order.next_dealer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum NextDealer {
    #[default]
    Clockwise,
    Winner,
    Fixed,
}

/// `order.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct OrderSpec {
    pub first: FirstPlayer,
    pub initial_direction: Direction,
    pub next_dealer: NextDealer,
}

/// Options named per preset. Most map onto generic dimensions through the
/// preset's `variant` overlays; these are the ones that are not a dimension of their own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct OptionsSpec {
    /// xtreme Silly Hat: the last player skipped by an ace scores -10 at the end.
    pub silly_hat: bool,
    /// kings_reverse joker bluff.
    pub joker_bluff: bool,
    /// bitch: lay one drawn pick-up card after a penalty.
    pub replay_drawn_pickup: Option<bool>,
    /// zodiac card.
    pub zodiac_card: Option<String>,
    /// zodiac "Wild Instapik": before each hand a number rank (2 to 10) is drawn at random
    /// and takes over the eights' wild rule; the eights are ordinary cards that hand. The
    /// rank is public (`Game::wild_rank`).
    pub wild_instapik: bool,
    /// one_card shields must match the ace's suit.
    pub shield_same_suit: bool,
    /// advanced_switch 500 rule: in a last-below match with three or more players, a player
    /// whose total reaches [`ALLOW_500_SCORE`] wins the match at once.
    pub allow_500: bool,
    /// rose_mau public rules.
    pub public_rules: Vec<String>,
    /// thirty_eights / fat_buddah / larby out-of-turn plays.
    pub speed_in: Option<String>,
}

/// The total that wins a match under `options.allow_500` (literal, whatever the target).
pub const ALLOW_500_SCORE: i32 = 500;

/// `limits.*`: engine limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsSpec {
    /// Truncate an episode after this many decisions, at most [`MAX_DECISIONS`] (0 = never:
    /// allowed, since the built-in bots' loop guards end every game, where the rules let a
    /// game end at all: rules that could not are refused; see docs/robustness.md).
    pub max_decisions: u32,
}
impl Default for LimitsSpec {
    fn default() -> Self {
        LimitsSpec { max_decisions: 5000 }
    }
}

/// Largest decision cap (`limits.max_decisions`): ten million decisions, a second or two of
/// random play in the Rust loop, beyond which a cap bounds nothing a user could wait for
/// (and would let past the checks that an uncapped game can end).
pub const MAX_DECISIONS: u32 = 10_000_000;
/// Most players any preset allows.
pub const MAX_PLAYERS: usize = 10;
/// Largest match target (after `target_per_player` is multiplied by the player count), so
/// that match totals stay far from the `i32` limits.
pub const MAX_SERIES_TARGET: u32 = 1_000_000;
/// Largest magnitude of one card's points (`score.values`, `score.values_by_players`).
pub const MAX_CARD_POINTS: i32 = 10_000;
/// Largest magnitude of `score.winner_bonus`.
pub const MAX_WINNER_BONUS: i32 = 1_000_000;
