//! The turn's other tables: drawing, passing, the stock, multi-card plays, draw chains,
//! two-player adjustments and the last-card call.

use super::cards::{Accumulate, ChainAnswer};
use serde::{Deserialize, Serialize};

/// `draw.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DrawMode {
    #[default]
    One,
    UntilPlayable,
    /// Until playable or the hand holds `draw.limit` cards.
    UntilPlayableOrHand,
    /// One card per `draw` action, at most `draw.limit` a turn.
    UpTo,
}

/// `draw.after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DrawAfter {
    #[default]
    EndTurn,
    MayPlayDrawn,
    MayPlayAny,
    MustPlayDrawnIfPlayable,
    MustPlayWhenFound,
}

/// `draw.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DrawSpec {
    pub voluntary: bool,
    pub mode: DrawMode,
    /// The k of `up_to` or the hand size of `until_playable_or_hand`.
    pub limit: u8,
    pub after: DrawAfter,
    /// Compulsory draw at the end of every turn (stalin).
    pub end_of_turn: u8,
}
impl Default for DrawSpec {
    fn default() -> Self {
        DrawSpec { voluntary: true, mode: DrawMode::One, limit: 0, after: DrawAfter::EndTurn, end_of_turn: 0 }
    }
}

/// `pass.when`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PassWhen {
    /// Only when no card can be drawn.
    #[default]
    Never,
    StockEmpty,
    AfterOneDraw,
    AfterDrawLimit,
}

/// `pass.all_pass`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum AllPass {
    #[default]
    BlockedHandEnds,
    PassIsFinal,
}

/// `pass.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PassSpec {
    pub when: PassWhen,
    pub all_pass: AllPass,
    /// A turn that can only end in a pass waits for the player's `pass` (OpenSpiel asks for
    /// it); off, the engine ends such a turn itself.
    pub explicit: bool,
    /// A player who can play may pass instead, where passing is allowed (on by default, as
    /// with `draw.voluntary`); off, `pass` is legal only to a player who cannot play
    /// (crazy_eights_winner_collects: "a player who can't put down a card simply passes").
    pub voluntary: bool,
}
impl Default for PassSpec {
    fn default() -> Self {
        PassSpec { when: PassWhen::default(), all_pass: AllPass::default(), explicit: false, voluntary: true }
    }
}

/// `stock.exhausted`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Exhausted {
    #[default]
    ReshuffleAllButTop,
    TurnOverNoShuffle,
    NoReshuffle,
    /// larby_switch: at the start of a turn with fewer than 5 cards in the stock, every
    /// player holding more than 5 keeps 5 of their choice and the rest are shuffled into the
    /// stock; a stock that still runs out is refilled as `reshuffle_all_but_top`.
    KeepFive,
}

/// `stock.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct StockSpec {
    pub exhausted: Exhausted,
    /// Refill the stock as soon as its last card is drawn, not at the next draw (OpenSpiel's
    /// reshuffle: the top card then is the one left out).
    pub refill_at_once: bool,
    /// The stock is not refilled from the pile once a player holds no cards: the draws owed
    /// after a player went out (a seven as the last card) take what the stock holds
    /// (sevens_and_eights: "If the deck runs out of cards and all players are holding cards").
    pub no_refill_after_out: bool,
}

/// `multi.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MultiMode {
    #[default]
    Off,
    /// Further cards of the same rank; the first must be legal.
    EqualRank,
    PairsWithCover,
    ZodiacRun,
    #[serde(rename = "up_to_3_or_all")]
    UpTo3OrAll,
    /// Runs where each card matches the previous top (grandads_game).
    MatchingRun,
}

/// `multi.effects`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MultiEffects {
    #[default]
    CumulateAll,
    /// Only the top card acts, except that draw cards placed directly on top of each other
    /// (in a run of one suit) still add up.
    TopOnly,
    /// Only the top card acts, draw cards included: copies of a draw card played together
    /// make the next player face one card's penalty (blackjack_forum_house, catalog A28).
    TopCardOnly,
    /// Equal-rank copies cumulate, but inside a follow-on run (`follow`) only the last card acts
    /// (larby_switch: several eights skip several players; in a seven run only the top acts).
    TopOnlyInRuns,
}

/// Effect kinds, for `multi.order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    Reverse,
    Skip,
    Draw,
    Nominate,
}

/// `multi.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MultiSpec {
    pub mode: MultiMode,
    /// Ranks that cannot be multiplied.
    pub excluded: Vec<String>,
    pub effects: MultiEffects,
    pub order: Vec<EffectKind>,
    /// advanced_switch identical-card bonus.
    pub identical_bonus: bool,
}
impl Default for MultiSpec {
    fn default() -> Self {
        MultiSpec {
            mode: MultiMode::Off,
            excluded: vec![],
            effects: MultiEffects::CumulateAll,
            order: vec![EffectKind::Reverse, EffectKind::Skip, EffectKind::Draw, EffectKind::Nominate],
            identical_bonus: false,
        }
    }
}

/// `chain.after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ChainAfter {
    #[default]
    TopCardNormal,
    AttackSuitOnly,
}

/// `chain.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChainSpec {
    pub answer: ChainAnswer,
    pub accumulate: Accumulate,
    /// Step for `accumulate = "increment"`.
    pub increment: u8,
    pub accept_ends_turn: bool,
    pub wild_blocked: bool,
    pub after: ChainAfter,
    pub can_circle: bool,
    /// A draw card played when nothing can be drawn starts no penalty: it is played as a
    /// normal card (OpenSpiel's 2 on an empty stock).
    pub needs_stock: bool,
    /// A penalty drawn in full that leaves nothing to draw counts as a pass on an empty stock
    /// (towards `end.blocked`), as in OpenSpiel (a penalty cut short by the empty stock does not).
    pub pickup_counts_as_pass: bool,
}
impl Default for ChainSpec {
    fn default() -> Self {
        ChainSpec {
            answer: ChainAnswer::SameRank,
            accumulate: Accumulate::Sum,
            increment: 0,
            accept_ends_turn: true,
            wild_blocked: true,
            after: ChainAfter::TopCardNormal,
            can_circle: true,
            needs_stock: false,
            pickup_counts_as_pass: false,
        }
    }
}

/// `two_player.reverse`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TwoPlayerReverse {
    #[default]
    Noop,
    AsSkip,
    OrdinaryCard,
}

/// `two_player.*`. A skip with two players always gives the skipping player another turn,
/// an ordinary turn: they follow the skip card by its rank or suit, or draw (there is no
/// `two_player.skip`: its second value, one_card's "another Jack or another card of the same
/// suit", is that same turn).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct TwoPlayerSpec {
    pub reverse: TwoPlayerReverse,
}

/// `last_card.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LastCardMode {
    #[default]
    Off,
    Auto,
    Action,
}

/// `last_card.timing`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LastCardTiming {
    #[default]
    HoldingOne,
    OnPenultimatePlay,
}

/// `last_card.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct LastCardSpec {
    pub mode: LastCardMode,
    /// Cards drawn by a player left with one card who did not announce.
    pub penalty: u8,
    pub timing: LastCardTiming,
    /// Documented exemptions (prose; going out in the same turn is always exempt).
    pub exempt: Vec<String>,
}
