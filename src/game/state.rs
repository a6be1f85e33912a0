//! The state types of a game besides the tables themselves: phases, errors, the turn in
//! progress, the draw chain, the joker bluff, interludes, one-turn constraints, follow-ons.

use crate::action::NUM_ACTIONS;
use crate::card::Card;
use crate::card_set::CardCounts;
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
    #[error("action id {0} is out of range: ids are in [0, {max}]", max = NUM_ACTIONS - 1)]
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

impl Turn {
    /// `*self == Turn::default()`: nothing placed or collected this turn. Asked before every
    /// play (the plain path's condition), where the derived comparison, one branch per field,
    /// cost more than the play itself: here the integer fields are or-ed together and the
    /// others compared without short cuts. The destructuring names every field, so a new one
    /// cannot be left out.
    #[inline]
    pub fn is_fresh(&self) -> bool {
        let Turn {
            cards,
            first,
            follow,
            skips,
            reverses,
            chain_add,
            chain_group,
            chain_answer,
            answered,
            cancelled,
            draw_lose,
            draw_keep,
            others_draw,
            free_play_next,
            extra_turn,
            ace_skip,
            top_matched,
            drawn,
            drawn_card,
            announced,
            is_start,
            last,
            gave,
            give_due,
            give_done,
            waste_draw,
            accepted,
            chain_cards,
            multi_answer,
            identical,
            wild_power,
            redealt,
            restrict,
            pass_hands,
            replay,
            chain_origin,
            pick_up,
            swap_done,
            ask_done,
            mirrors,
            bluff,
            kept_suit,
        } = *self;
        let bytes = cards | skips | reverses | chain_group | drawn | gave | give_due | chain_cards | mirrors;
        let words = chain_add | draw_lose | draw_keep | others_draw | waste_draw | pick_up;
        let flags = answered
            | cancelled
            | free_play_next
            | extra_turn
            | ace_skip
            | top_matched
            | announced
            | is_start
            | give_done
            | accepted
            | identical
            | wild_power
            | redealt
            | swap_done
            | ask_done;
        let options = first.is_some()
            | follow.is_some()
            | drawn_card.is_some()
            | last.is_some()
            | multi_answer.is_some()
            | pass_hands.is_some()
            | chain_origin.is_some()
            | bluff.is_some()
            | kept_suit.is_some();
        ((u64::from(bytes) | u64::from(words) | replay) == 0)
            & !flags
            & !options
            & (chain_answer == ChainAnswerState::SameRank)
            & (restrict == Restrict::None)
    }
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

/// The cards chosen so far in the `keep` phase (a subset of the keeper's hand): at most five,
/// and the fifth ends the choice. Kept as a short list rather than per-face counts, so the
/// five-card rule, which alone uses it, adds 6 bytes to every game rather than a 64-byte line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct KeptCards {
    cards: [Card; KEEP],
    len: u8,
}

/// The cards a player over five keeps.
pub(super) const KEEP: usize = 5;

impl Default for KeptCards {
    fn default() -> Self {
        KeptCards { cards: [Card(0); KEEP], len: 0 }
    }
}

impl KeptCards {
    /// The first five of `cards` (a snapshot's kept cards, fewer than five once checked).
    pub(super) fn from_cards(cards: &[Card]) -> KeptCards {
        let mut k = KeptCards::default();
        for &c in cards.iter().take(KEEP) {
            k.add(c);
        }
        k
    }

    /// Keep one more card; the caller ends the choice at five.
    pub(super) fn add(&mut self, c: Card) {
        self.cards[self.len as usize] = c;
        self.len += 1;
    }

    pub(super) fn len(&self) -> usize {
        self.len as usize
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    /// The kept cards as a multiset.
    pub(super) fn counts(&self) -> CardCounts {
        self.cards[..self.len as usize].iter().copied().collect()
    }
}

#[cfg(test)]
mod turn_tests {
    use super::*;

    /// `Turn::is_fresh` is the derived comparison with the default turn: for the default and
    /// for one field at a time set off its default (random games of every preset: in
    /// `turn.rs`).
    #[test]
    fn is_fresh_is_equality_with_the_default_turn() {
        let d = Turn::default();
        assert!(d.is_fresh());
        let c = Some(Card(3));
        let changed = [
            Turn { cards: 1, ..d },
            Turn { first: c, ..d },
            Turn { follow: Some((FollowState::Cover, Card(0))), ..d },
            Turn { skips: 1, ..d },
            Turn { reverses: 1, ..d },
            Turn { chain_add: 1, ..d },
            Turn { chain_group: 1, ..d },
            Turn { chain_answer: ChainAnswerState::None, ..d },
            Turn { answered: true, ..d },
            Turn { cancelled: true, ..d },
            Turn { draw_lose: 1, ..d },
            Turn { draw_keep: 1, ..d },
            Turn { others_draw: 1, ..d },
            Turn { free_play_next: true, ..d },
            Turn { extra_turn: true, ..d },
            Turn { ace_skip: true, ..d },
            Turn { top_matched: true, ..d },
            Turn { drawn: 1, ..d },
            Turn { drawn_card: c, ..d },
            Turn { announced: true, ..d },
            Turn { is_start: true, ..d },
            Turn { last: c, ..d },
            Turn { gave: 1, ..d },
            Turn { give_due: 1, ..d },
            Turn { give_done: true, ..d },
            Turn { waste_draw: 1, ..d },
            Turn { accepted: true, ..d },
            Turn { chain_cards: 1, ..d },
            Turn { multi_answer: Some(ChainAnswerState::SameRank), ..d },
            Turn { identical: true, ..d },
            Turn { wild_power: true, ..d },
            Turn { redealt: true, ..d },
            Turn { restrict: Restrict::Suit(0), ..d },
            Turn { pass_hands: Some(crate::rules::Side::Left), ..d },
            Turn { replay: 1 << 53, ..d },
            Turn { chain_origin: c, ..d },
            Turn { pick_up: 256, ..d },
            Turn { swap_done: true, ..d },
            Turn { ask_done: true, ..d },
            Turn { mirrors: 1, ..d },
            Turn { bluff: Some(Bluff::default()), ..d },
            Turn { kept_suit: Some(0), ..d },
        ];
        for (k, t) in changed.iter().enumerate() {
            assert_ne!(*t, d, "case {k} changes nothing");
            assert!(!t.is_fresh(), "case {k}: {t:?}");
        }
    }
}
