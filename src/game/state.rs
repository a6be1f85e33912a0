//! The state types of a game besides the tables themselves: phases, errors, the turn in
//! progress, the draw chain, the joker bluff, interludes, one-turn constraints, follow-ons.

use crate::action::NUM_ACTIONS;
use crate::card::Card;
use crate::rules::ChainAnswer;
use serde::{Deserialize, Serialize};

/// The decision phases, in the fixed order used by the observation's one-hot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Play,
    Chain,
    Nominate,
    Continue,
    AfterDraw,
    Give,
    Target,
    Ask,
    Keep,
    Challenge,
    /// Reserved: a slot of the fixed observation layout that no game enters (a second suit is
    /// chosen in `nominate`). Kept so the one-hot and snapshots do not change.
    SecondSuit,
    GameOver,
}

/// Number of phases.
pub const NUM_PHASES: usize = 12;

impl Phase {
    /// All phases in one-hot order.
    pub const ALL: [Phase; NUM_PHASES] = [
        Phase::Play,
        Phase::Chain,
        Phase::Nominate,
        Phase::Continue,
        Phase::AfterDraw,
        Phase::Give,
        Phase::Target,
        Phase::Ask,
        Phase::Keep,
        Phase::Challenge,
        Phase::SecondSuit,
        Phase::GameOver,
    ];

    /// The snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Play => "play",
            Phase::Chain => "chain",
            Phase::Nominate => "nominate",
            Phase::Continue => "continue",
            Phase::AfterDraw => "after_draw",
            Phase::Give => "give",
            Phase::Target => "target",
            Phase::Ask => "ask",
            Phase::Keep => "keep",
            Phase::Challenge => "challenge",
            Phase::SecondSuit => "second_suit",
            Phase::GameOver => "game_over",
        }
    }

    /// Index in [`Phase::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Errors from driving a game. Each message says what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    #[error("illegal action {action} in phase '{phase}' for player {player}; legal actions: {legal}")]
    IllegalAction { action: String, phase: &'static str, player: usize, legal: String },
    #[error("the game is over{0}; call reset() to start a new one")]
    GameOver(&'static str),
    #[error("action id {0} is out of range: ids are 0..{NUM_ACTIONS}")]
    OutOfRange(i64),
    #[error("invalid deck: {0}")]
    InvalidDeck(String),
    #[error("invalid position: {0}")]
    InvalidPosition(String),
    #[error("invalid state: {0}")]
    InvalidState(String),
}

/// A pending draw chain (`chain.*`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chain {
    pub active: bool,
    pub amount: u16,
    pub group: u8,
    pub answer: ChainAnswerState,
    /// The card that started the chain.
    #[serde(default)]
    pub origin: Option<Card>,
}

/// Serializable copy of [`ChainAnswer`] (kept separate so the state format is explicit).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChainAnswerState {
    #[default]
    SameRank,
    AnyDrawCard,
    None,
}

impl From<ChainAnswer> for ChainAnswerState {
    fn from(a: ChainAnswer) -> Self {
        match a {
            ChainAnswer::SameRank => ChainAnswerState::SameRank,
            ChainAnswer::AnyDrawCard => ChainAnswerState::AnyDrawCard,
            ChainAnswer::None => ChainAnswerState::None,
        }
    }
}

/// The turn in progress: cards placed so far and the effects they have collected.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Turn {
    /// Cards placed this turn.
    pub cards: u8,
    pub first: Option<Card>,
    /// The card a continuation follows (Q run, xtreme J), with its kind.
    pub follow: Option<(FollowState, Card)>,
    pub skips: u8,
    pub reverses: u8,
    /// Draw amount of a chain started this turn.
    pub chain_add: u16,
    pub chain_group: u8,
    pub chain_answer: ChainAnswerState,
    /// This turn answered a pending chain.
    pub answered: bool,
    /// This turn cancelled a pending chain.
    pub cancelled: bool,
    pub draw_lose: u16,
    pub draw_keep: u16,
    pub others_draw: u16,
    pub free_play_next: bool,
    pub extra_turn: bool,
    /// A skip of this turn came from an ace (xtreme Silly Hat).
    pub ace_skip: bool,
    /// The top card was legal against the previous card (for `only_if_matching`).
    pub top_matched: bool,
    /// Cards drawn this turn by `draw`.
    pub drawn: u8,
    pub drawn_card: Option<Card>,
    pub announced: bool,
    /// The start card, resolved as if the dealer had played it.
    pub is_start: bool,
    /// The card placed before the top card this turn.
    pub last: Option<Card>,
    /// Cards handed over so far by a give card, and how many are due.
    pub gave: u8,
    pub give_due: u8,
    /// The give of the top card has been completed.
    pub give_done: bool,
    /// Waste-pile draw for the next player (one_left 2).
    pub waste_draw: u16,
    /// A penalty was accepted and the turn goes on (`chain.accept_ends_turn = false`).
    pub accepted: bool,
    /// Draw-chain cards placed this turn, and the answer rule when there are several.
    pub chain_cards: u8,
    pub multi_answer: Option<ChainAnswerState>,
    /// The card placed was identical to the previous top card (`multi.identical_bonus`).
    pub identical: bool,
    /// The top card was placed with its wild power (not as an ordinary card).
    pub wild_power: bool,
    /// The player went out and was dealt a new countdown hand.
    pub redealt: bool,
    pub restrict: Restrict,
    /// Hand passing (`pass_hands`) collected this turn.
    pub pass_hands: Option<crate::rules::Side>,
    /// Pick-up cards drawn as a penalty that may be laid at once (bitch), as a face mask.
    pub replay: u64,
    /// The card that started a chain this turn.
    pub chain_origin: Option<Card>,
    /// Cards to pick up from under the top card (`pick_up_pile`).
    pub pick_up: u16,
    /// The swap (`swap_hand`) and ask (`ask_rank`) decisions of the top card are done.
    pub swap_done: bool,
    pub ask_done: bool,
    /// Mirroring cards (`mirror`) placed on a pending chain this turn (odd: the penalty goes back;
    /// even: the player takes it at once).
    pub mirrors: u8,
    /// The top card is a joker played under `options.joker_bluff` (its challenge is pending
    /// once the play resolves).
    pub bluff: Option<Bluff>,
    /// The suit in force (index) before the top card was placed, kept for a nomination that
    /// its player may decline (`nominate = "optional_keep_suit"`); `None` otherwise.
    pub kept_suit: Option<u8>,
}

/// A joker played under `options.joker_bluff`, waiting for the next player's challenge decision.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Bluff {
    /// The joker's player.
    pub by: u8,
    /// The joker was legal: no other card of its player's hand was playable.
    pub legal: bool,
    /// Cards of the joker's penalty (`draw_and_lose_turn`).
    pub amount: u16,
    /// State restored when an illegal joker is taken back: the nominated suit (index),
    /// free play and the one-turn constraint in force before it.
    pub prev_nominated: Option<u8>,
    pub prev_free_play: bool,
    pub prev_restrict: Restrict,
}

/// Extra cards a challenger draws for challenging a legal joker (kings_reverse).
pub const CHALLENGE_EXTRA: u16 = 2;

/// What an [`Interlude`] is doing.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InterludeKind {
    #[default]
    None,
    /// The mirror window after larby's three (an others-draw card answered by `mirror` queens).
    MirrorThree,
    /// `stock.exhausted = keep_five`: players choose the five cards they keep.
    KeepFive,
}

/// Decisions taken outside the normal turn (see the module documentation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Interlude {
    pub kind: InterludeKind,
    /// The player whose turn starts when the interlude closes.
    pub resume: u8,
    /// The player of the three(s).
    pub origin: u8,
    /// Cards each other player picks up (one per three).
    pub per_player: u16,
    /// Suit index a first mirroring queen must have.
    pub suit: u8,
    /// Seat being asked (mirror window: places from `origin`; keep: places from `resume`).
    pub seat: u8,
    /// After a mirror: the seat that must pick up for everyone.
    pub victim: Option<u8>,
    /// The seat whose queen made the last mirror.
    pub mirror_by: u8,
}

/// A one-turn constraint on the next player set by the previous card (`next_picture`, `next_even`, `chain.after`, `second_suit`, `ask_rank`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Restrict {
    #[default]
    None,
    /// A J, Q or K of any suit (advanced_switch jack).
    Picture,
    /// An even spot card matching as usual (rose_mau five).
    Even,
    /// The given suit (index) or a wild: after an attack ends (`chain.after = attack_suit_only`).
    Suit(u8),
    /// As usual, or also the given suit (index): one_card's second suit.
    Also(u8),
    /// Only the asked card (thirty_eights seven): rank index 0..13, 13 = QS, 14 = joker.
    Ask(u8),
}

/// Serializable follow-on kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FollowState {
    SameSuitAny,
    OneMatching,
    EqualRank,
    /// Each card matches the current top (grandads_game runs).
    MatchingRun,
    /// The K or Q partner of a marriage.
    Marriage,
    /// crazy_pairs: a pair may start (or the turn may end).
    PairStart,
    /// crazy_pairs: inside a pair; more copies or a cover card must follow.
    PairMid,
    /// zodiac runs: same face value or the next card up or down in the suit.
    ZodiacRun,
    /// stalin: up to three cards, or the whole hand, each legal on the new top.
    UpTo3,
    /// `must_cover`: the card must be covered by a card of its suit or a joker.
    Cover,
}
