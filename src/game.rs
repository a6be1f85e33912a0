//! The game engine: state, phases, legal actions, step and scoring.
//!
//! A [`Game`] holds one table: hands as per-face counts, the stock and discard pile as
//! fixed-capacity piles, the nominated suit, direction, pending draw chain, the state of the
//! turn in progress, match scores and one seeded xoshiro256++ generator. Nothing here
//! allocates after construction: [`Game::legal_actions`] fills an [`ActionMask`] and
//! [`Game::step`] mutates in place.
//!
//! Seats are numbered clockwise `0..n`; the dealer of the first hand is seat `n-1`, so seat 0
//! (the dealer's left) acts first unless the start card says otherwise. A turn is broken into
//! single decisions, each in one [`Phase`]:
//!
//! | phase        | who decides                  | legal actions                                   |
//! |--------------|------------------------------|-------------------------------------------------|
//! | `play`       | the player to act            | matching cards, `draw`, `pass` (when allowed), `announce` |
//! | `chain`      | the target of a draw penalty | answering, cancelling or shielding cards, `accept` |
//! | `nominate`   | the player of a suit changer | `suit X` (and `end` when nomination is optional); a second suit after a one_card seven |
//! | `continue`   | a player mid-turn            | follow-on, run, pair or equal-rank cards, `end` when the turn may stop |
//! | `after_draw` | a player who just drew       | the cards the draw rule allows, `pass`, `draw`  |
//! | `give`       | the player of a give card    | `give X`, once per recipient                    |
//! | `game_over`  | nobody                       | none                                            |
//!
//! | `target`     | the player of a swap card    | `target +k`, `end`                              |
//! | `ask`        | the player of an ask card    | `ask R`                                         |
//! | `keep`       | a player holding more than 5 | `keep X`, five times (`stock.exhausted = keep_five`) |
//!
//! | `challenge`  | the player after a bluffable joker | `challenge`, `no_challenge` (`options.joker_bluff`) |
//!
//! Phase `second_suit` is part of the fixed layout for what is still to come.
//!
//! With `options.joker_bluff` (kings_reverse), a joker that may normally be played only when no
//! other card is playable may be played at any time; whether it was legal is recorded
//! ([`Bluff`]) and the next player decides in the `challenge` phase. Without a challenge they
//! take the joker's penalty as usual. A challenged illegal joker goes back to its player's hand
//! (the previous top card, nomination and constraints are restored), that player draws the
//! penalty and misses their next turn, and the challenger plays; a challenged legal joker makes
//! the challenger draw the penalty plus two and lose the turn. A joker played as the last card
//! is always legal and is never challenged.
//!
//! Decisions outside the normal turn order are an [`Interlude`]: larby_switch's mirror window
//! after a three (each other player holding a queen of its suit is asked in turn order, in the
//! `chain` phase: `play Q` mirrors, `pass` declines; the player then made to pick up for
//! everyone may mirror back with any queen or `accept`), and the `keep` choices of the
//! five-card rule at the start of a turn. When an interlude closes, the turn it interrupted
//! (or the turn that follows the three) starts.
//!
//! Besides the draw chain, the state holds the one-turn constraint a card puts on the next
//! player ([`Restrict`]), the countdown scores (a player's wild rank), stalin's rogue pile,
//! and the players out of the hand after a final pass.

use crate::action::{self, Action, ActionMask, NUM_ACTIONS};
use crate::card::{Card, NUM_FACES, Suit};
use crate::card_set::{CardCounts, Pile};
use crate::rules::{
    Accumulate, BlockedScoring, ChainAnswer, DrawAfter, DrawMode, Exhausted, Follow, LastCardMode, LastSpecial,
    MAX_PLAYERS, MultiEffects, MultiMode, Nominate, Repeat, Rules, RulesSpec, ScoreMode, SeriesWinner, StartEffect,
    TwoPlayerReverse, WildFollow, WildRule,
};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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

/// A pending draw chain (E03).
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
    /// E14 hand passing collected this turn.
    pub pass_hands: Option<crate::rules::Side>,
    /// Pick-up cards drawn as a penalty that may be laid at once (bitch), as a face mask.
    pub replay: u64,
    /// The card that started a chain this turn.
    pub chain_origin: Option<Card>,
    /// E17 cards to pick up from under the top card.
    pub pick_up: u16,
    /// E15 / E16 decisions of the top card are done.
    pub swap_done: bool,
    pub ask_done: bool,
    /// E08 mirroring cards placed on a pending chain this turn (odd: the penalty goes back;
    /// even: the player takes it at once).
    pub mirrors: u8,
    /// The top card is a joker played under `options.joker_bluff` (its challenge is pending
    /// once the play resolves).
    pub bluff: Option<Bluff>,
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
    /// E08 on an E09 card: the mirror window after larby's three.
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

/// A one-turn constraint on the next player set by the previous card (2.5 `next_constraint`).
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
    /// E18: the card must be covered by a card of its suit or a joker.
    Cover,
}

/// A mid-hand position for analysis, puzzles and scenario tests.
#[derive(Clone, Debug, Default)]
pub struct Position {
    /// One hand per seat.
    pub hands: Vec<Vec<Card>>,
    /// Discard pile bottom to top (the last card is the top card).
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
}

/// One table of a Crazy Eights-family game. See the module documentation.
#[derive(Clone)]
pub struct Game {
    rules: Arc<Rules>,
    n: u8,
    hands: [CardCounts; MAX_PLAYERS],
    stock: Pile,
    discard: Pile,
    /// stalin's rogue pile (red cards only), bottom to top.
    rogue: Pile,
    nominated: Option<Suit>,
    direction: i8,
    current: u8,
    dealer: u8,
    phase: Phase,
    chain: Chain,
    free_play: bool,
    restrict: Restrict,
    turn: Turn,
    pass_streak: u8,
    /// Cards played in this hand (`end.max_plays`).
    plays: u32,
    /// Players out of the hand after a final pass (`pass.all_pass = pass_is_final`).
    done: u16,
    interlude: Interlude,
    /// Cards chosen so far by the player in the `keep` phase (a subset of their hand).
    kept: CardCounts,
    /// The joker awaiting a challenge decision (phase `challenge`).
    challenge: Option<Bluff>,
    /// Seats that miss their next turn (a challenged illegal joker), one bit per seat.
    missed: u16,
    went_out: Option<u8>,
    /// Seats in the order they went out this hand (`places[..placed]`): the winner, and under
    /// `end.play_for_second` the second and third places.
    places: [u8; MAX_PLAYERS],
    placed: u8,
    /// The loser of the previous hand of a match (`order.first = previous_loser`).
    loser: Option<u8>,
    scores: [i32; MAX_PLAYERS],
    hand_points: [i32; MAX_PLAYERS],
    hand_winner: Option<u8>,
    winner: Option<u8>,
    terminal: bool,
    truncated: bool,
    decisions: u32,
    hands_played: u32,
    hat: Option<u8>,
    seed: u64,
    rng: Xoshiro256PlusPlus,
    /// Cards each player has seen go into another hand, in presets where cards move openly
    /// between players (give, pass or swap hands, pick up the pile); `None` in the others.
    seen: Option<Box<SeenCards>>,
}

/// `bits[o][q]`: the faces observer `o` knows seat `q` holds (at least one copy each). A bit
/// is set when `o` sees the card go into `q`'s hand (a card `o` gave to `q`, a hand `o` passed
/// or swapped to `q`, cards `q` picked up from the discard pile), moves with `q`'s hand when
/// hands are passed or swapped, and is cleared for every observer when `q` plays or gives a
/// copy of that face (which copy left is not known). So a set bit is always true of the real
/// hands; [`Game::determinize`] keeps those cards in place. Only faces are tracked: with
/// several packs a player knows at least one copy is there. A game restored from a snapshot
/// or a position starts with nothing seen (less information, never wrong).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeenCards {
    pub bits: [[u64; MAX_PLAYERS]; MAX_PLAYERS],
}

/// Face bits of every card in `h`.
fn face_bits(h: &CardCounts) -> u64 {
    held_bits(h.counts())
}

#[inline]
fn bit(c: Card) -> u64 {
    1u64 << c.index()
}

/// Bitset of the faces with a non-zero count (bit `i` = face `i`), eight counts at a time.
#[inline]
fn held_bits(counts: &[u8; NUM_FACES]) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut bits = 0u64;
    let mut word = [0u8; 8];
    for (k, chunk) in counts.chunks(8).enumerate() {
        word[..chunk.len()].copy_from_slice(chunk);
        word[chunk.len()..].fill(0);
        let w = u64::from_le_bytes(word);
        // High bit of each byte set iff the byte is non-zero, then gathered into 8 bits.
        let t = (((w & LOW7) + LOW7) | w) & HIGH;
        bits |= (t.wrapping_mul(0x0002_0408_1020_4081) >> 56) << (8 * k);
    }
    bits
}

/// The 13 faces of one suit (clubs; shift by `13 * suit` for the others).
const SUIT_BITS: u64 = (1 << 13) - 1;
/// The four suited faces of one rank (aces; shift by the rank index for the others).
const RANK_BITS: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
/// Every suited jack, queen and king.
const COURT_BITS: u64 = (RANK_BITS << 10) | (RANK_BITS << 11) | (RANK_BITS << 12);
const _: () = assert!(action::PLAY == 0 && NUM_FACES <= 64, "play ids are the first word of a mask");

impl Game {
    /// A new game with the first hand dealt from `seed`.
    pub fn new(rules: Arc<Rules>, seed: u64) -> Game {
        let mut g = Game::blank(rules, seed);
        g.deal_hand(&[]);
        g
    }

    fn blank(rules: Arc<Rules>, seed: u64) -> Game {
        let n = rules.num_players;
        let mut scores = [0; MAX_PLAYERS];
        if let Some(cd) = &rules.spec.countdown {
            scores[..n as usize].fill(cd.start_score as i32);
        }
        Game {
            rules,
            n,
            hands: [CardCounts::new(); MAX_PLAYERS],
            stock: Pile::new(),
            discard: Pile::new(),
            rogue: Pile::new(),
            nominated: None,
            direction: 1,
            current: 0,
            dealer: n - 1,
            phase: Phase::Play,
            chain: Chain::default(),
            free_play: false,
            restrict: Restrict::None,
            turn: Turn::default(),
            pass_streak: 0,
            plays: 0,
            done: 0,
            interlude: Interlude::default(),
            kept: CardCounts::new(),
            challenge: None,
            missed: 0,
            went_out: None,
            places: [0; MAX_PLAYERS],
            placed: 0,
            loser: None,
            scores,
            hand_points: [0; MAX_PLAYERS],
            hand_winner: None,
            winner: None,
            terminal: false,
            truncated: false,
            decisions: 0,
            hands_played: 0,
            hat: None,
            seed,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            seen: None,
        }
    }

    /// Whether any card of `rules` moves cards openly between players (see [`SeenCards`]).
    fn tracks_seen(rules: &Rules) -> bool {
        rules.card.iter().any(|r| r.give.is_some() || r.pass_hands.is_some() || r.swap_hand || r.pick_up_pile > 0)
    }

    /// What `observer` has seen go into other hands (see [`SeenCards`]): face bits per seat,
    /// or `None` in presets where cards never move openly between players.
    pub fn seen_cards(&self, observer: usize) -> Option<&[u64; MAX_PLAYERS]> {
        self.seen.as_ref().map(|s| &s.bits[observer])
    }

    /// `q` gave up a copy of `c`: no observer can still be sure `q` holds that face.
    fn forget_card(&mut self, q: usize, c: Card) {
        if let Some(s) = self.seen.as_deref_mut() {
            for o in s.bits.iter_mut() {
                o[q] &= !bit(c);
            }
        }
    }

    /// Start a new episode from `seed`. `deck` fixes the first cards of the shuffled pack:
    /// dealt one at a time from the dealer's left (seat 0) round the table, then the start
    /// card, then the stock in order (first listed = next drawn); the rest of the pack follows
    /// in seeded random order. On error nothing changes.
    pub fn reset(&mut self, seed: u64, deck: &[Card]) -> Result<(), GameError> {
        self.check_deck(deck)?;
        let rules = self.rules.clone();
        let seen = self.seen.take();
        *self = Game::blank(rules, seed);
        self.seen = seen;
        self.deal_hand(deck);
        Ok(())
    }

    fn check_deck(&self, deck: &[Card]) -> Result<(), GameError> {
        let mut seen = CardCounts::new();
        for &c in deck {
            seen.add(c);
            if seen.count(c) > self.rules.deck.count(c) {
                return Err(GameError::InvalidDeck(format!(
                    "{c} listed {} times but the deck holds {} (deck: {} pack(s), {} joker(s))",
                    seen.count(c),
                    self.rules.deck.count(c),
                    self.rules.packs,
                    self.rules.deck.count(Card::RED_JOKER) + self.rules.deck.count(Card::BLACK_JOKER)
                )));
            }
        }
        Ok(())
    }

    // ----- dealing -------------------------------------------------------------------

    fn deal_hand(&mut self, prefix: &[Card]) {
        let r = self.rules.clone();
        if Game::tracks_seen(&r) {
            // A new hand: nothing seen yet (the box is kept across resets, no allocation).
            **self.seen.get_or_insert_with(Default::default) = SeenCards::default();
        }
        let n = self.n as usize;
        let mut pack = Pile::new();
        for c in r.deck.iter() {
            pack.push(c);
        }
        pack.as_mut_slice().shuffle(&mut self.rng);
        let cards = pack.as_mut_slice();
        for (k, &c) in prefix.iter().enumerate() {
            if let Some(j) = (k..cards.len()).find(|&j| cards[j] == c) {
                cards.swap(k, j);
            }
        }
        for h in self.hands.iter_mut() {
            h.clear();
        }
        let mut idx = 0;
        let first_seat = (self.dealer as usize + 1) % n;
        for _ in 0..r.hand_size {
            for k in 0..n {
                self.hands[(first_seat + k) % n].add(cards[idx]);
                idx += 1;
            }
        }
        for _ in 0..r.spec.deal.dealer_extra {
            self.hands[self.dealer as usize].add(cards[idx]);
            idx += 1;
        }
        self.rogue.clear();
        if r.rogue {
            // stalin (A33): from the dealer's left, the first player holding a red card starts the
            // rogue pile with their lowest red card; if nobody holds one, the first red card of
            // the pack after the deal is turned for it.
            let first_seat = (self.dealer as usize + 1) % n;
            let from_hand = (0..n)
                .map(|k| (first_seat + k) % n)
                .find_map(|s| self.hands[s].faces().find(|c| c.is_red() && !c.is_joker()).map(|c| (s, c)));
            match from_hand {
                Some((s, c)) => {
                    self.hands[s].remove(c);
                    self.rogue.push(c);
                }
                None => {
                    if let Some(j) = (idx..cards.len()).find(|&j| cards[j].is_red() && !cards[j].is_joker()) {
                        let c = cards[j];
                        cards[idx..=j].rotate_right(1);
                        self.rogue.push(c);
                        idx += 1;
                    }
                }
            }
        }
        let lead = r.spec.deal.starter == crate::rules::Starter::None;
        let start = cards[idx];
        if !lead {
            idx += 1;
        }
        self.stock.clear();
        for &c in cards[idx..].iter().rev() {
            self.stock.push(c);
        }
        self.discard.clear();
        self.nominated = None;
        self.direction = if r.spec.order.initial_direction == crate::rules::Direction::Ccw { -1 } else { 1 };
        self.chain = Chain::default();
        self.free_play = false;
        self.restrict = Restrict::None;
        self.turn = Turn::default();
        self.pass_streak = 0;
        self.plays = 0;
        self.done = 0;
        self.interlude = Interlude::default();
        self.kept.clear();
        self.challenge = None;
        self.missed = 0;
        self.went_out = None;
        self.placed = 0;
        self.hat = None;
        self.phase = Phase::Play;
        if lead {
            // deal.starter = none: no start card; the first player leads any card. With
            // order.first = previous_loser the previous hand's loser leads (the first hand of a
            // match, or a single hand, falls back to the dealer's choice: the dealer's left
            // clockwise, the dealer's right anticlockwise).
            self.current = match (r.spec.order.first, self.loser) {
                (crate::rules::FirstPlayer::PreviousLoser, Some(l)) => l,
                _ => self.advance(self.dealer, 1),
            };
            return;
        }
        // Start card.
        let mut start = start;
        let mut guard = 0;
        while r.start[start.index()] == StartEffect::Redraw && guard < 64 {
            self.stock.push(start);
            self.stock.as_mut_slice().shuffle(&mut self.rng);
            start = self.stock.pop().expect("stock holds the returned card");
            guard += 1;
        }
        self.discard.push(start);
        let first = self.advance(self.dealer, 1);
        match r.start[start.index()] {
            StartEffect::Ignore | StartEffect::Redraw => self.current = first,
            StartEffect::FreePlay => {
                self.free_play = true;
                self.current = first;
            }
            StartEffect::DealerNominatesBlind => {
                if r.card[start.index()].nominate.is_some() {
                    self.nominated = Some(Suit::ALL[self.rng.random_range(0..4usize)]);
                }
                self.current = first;
            }
            StartEffect::AsPlayedByDealer => {
                self.current = self.dealer;
                self.turn.is_start = true;
                self.record_effects(start);
                self.finish_play();
            }
        }
    }

    // ----- queries -------------------------------------------------------------------

    /// The compiled rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn num_players(&self) -> usize {
        self.n as usize
    }
    /// The player to decide, or `None` when the game is over or truncated.
    pub fn current_player(&self) -> Option<usize> {
        (!self.terminal && !self.truncated).then_some(self.current as usize)
    }
    pub fn phase(&self) -> Phase {
        if self.terminal { Phase::GameOver } else { self.phase }
    }
    pub fn hand(&self, p: usize) -> &CardCounts {
        &self.hands[p]
    }
    pub fn top_card(&self) -> Option<Card> {
        self.discard.top()
    }
    /// The suit the next play must follow: the nominated suit, else the suit of the card to
    /// match.
    pub fn active_suit(&self) -> Option<Suit> {
        self.nominated.or_else(|| self.match_card().and_then(Card::suit))
    }

    /// The card the next play is matched against: the top card, or for a transparent wild
    /// (one_card joker) the card under it. `None` on an empty pile (any card may be led).
    pub fn match_card(&self) -> Option<Card> {
        let mut k = 0;
        while let Some(c) = self.discard.from_top(k) {
            if self.rules.card[c.index()].wild.is_some_and(|w| w.follow == WildFollow::Transparent) {
                k += 1;
                continue;
            }
            return Some(c);
        }
        None
    }
    pub fn nominated_suit(&self) -> Option<Suit> {
        self.nominated
    }
    /// Cards the player to act must draw if they accept the pending chain (0 if none).
    pub fn pending_draw(&self) -> u16 {
        if let Some(b) = self.challenge.filter(|_| self.phase == Phase::Challenge) {
            // Without a challenge the player to act takes the joker's penalty.
            b.amount
        } else if self.chain.active {
            self.chain.amount
        } else if self.interlude.kind == InterludeKind::MirrorThree && self.interlude.victim.is_some() {
            self.mirror_amount()
        } else {
            0
        }
    }
    /// The decisions outside the normal turn in progress (mirror window, keep choices).
    pub fn interlude(&self) -> &Interlude {
        &self.interlude
    }
    /// The joker awaiting the challenge decision, if any (`options.joker_bluff`).
    pub fn challenge(&self) -> Option<&Bluff> {
        self.challenge.as_ref()
    }
    /// Seats that miss their next turn, one bit per seat.
    pub fn missed(&self) -> u16 {
        self.missed
    }
    /// Cards kept so far by the player choosing in the `keep` phase.
    pub fn kept(&self) -> &CardCounts {
        &self.kept
    }
    pub fn chain(&self) -> &Chain {
        &self.chain
    }
    pub fn direction(&self) -> i8 {
        self.direction
    }
    pub fn stock(&self) -> &Pile {
        &self.stock
    }
    pub fn discard(&self) -> &Pile {
        &self.discard
    }
    pub fn is_terminal(&self) -> bool {
        self.terminal
    }
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
    /// Winner of the episode (the match winner when playing a match).
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }
    pub fn scores(&self) -> &[i32] {
        &self.scores[..self.n as usize]
    }
    pub fn hand_points(&self) -> &[i32] {
        &self.hand_points[..self.n as usize]
    }
    /// Seats in the order they went out in the current (or last) hand: the first place as
    /// soon as they are out, then, under `end.play_for_second`, the second and third places
    /// when the hand ends. Empty while nobody is out, and after a blocked hand without a winner.
    pub fn finishing_order(&self) -> &[u8] {
        &self.places[..self.placed as usize]
    }
    /// Seats out of the hand, one bit per seat (a final pass, or placed under
    /// `end.play_for_second`).
    pub fn out_of_hand(&self) -> u16 {
        self.done
    }
    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }
    pub fn decisions(&self) -> u32 {
        self.decisions
    }
    pub fn hands_played(&self) -> u32 {
        self.hands_played
    }
    pub fn free_play(&self) -> bool {
        self.free_play
    }
    /// The one-turn constraint on the player to act.
    pub fn restrict(&self) -> Restrict {
        self.restrict
    }
    pub fn turn(&self) -> &Turn {
        &self.turn
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Seat `k` places from `p` in the current direction.
    #[inline]
    pub fn advance(&self, p: u8, k: usize) -> u8 {
        let n = self.n as i64;
        ((p as i64 + self.direction as i64 * k as i64).rem_euclid(n)) as u8
    }

    // ----- matching ------------------------------------------------------------------

    /// Does `c` match the top card by suit (active suit) or rank?
    fn matches_top(&self, c: Card) -> bool {
        let Some(top) = self.match_card() else {
            return true;
        };
        if self.rules.lock_mask & (bit(c) | bit(top)) != 0 {
            // E22: a locking joker goes only on a K, and only a K (of its colour) follows it.
            return self.lock_bits(top) & bit(c) != 0;
        }
        if let (Some(s), Some(a)) = (c.suit(), self.active_suit()) {
            if s == a {
                return true;
            }
        }
        if self.rules.arithmetic && Self::arithmetic(c, Some(top), self.discard.from_top(1)) {
            return true;
        }
        if self.rules.rank_blocked & bit(c) != 0 {
            return false;
        }
        if self.nominated.is_some()
            && self.rules.spec.matching.after_wild == crate::rules::AfterWild::NominatedSuitOrOwnWild
            && !self.rules.spec.countdown.as_ref().is_some_and(|cd| cd.equal_rank_on_wild)
        {
            // Countdown: after a wild only the called suit or the follower's own wild.
            return false;
        }
        match (c.rank(), top.rank()) {
            (Some(a), Some(b)) => a == b || (self.rules.spec.matching.any_court && a.is_court() && b.is_court()),
            _ => false,
        }
    }

    /// Is `c` player `p`'s own countdown wild (rank = score; 1 = ace)?
    pub fn own_wild(&self, c: Card, p: usize) -> bool {
        self.rules.spec.countdown.is_some()
            && self.scores[p] >= 1
            && c.rank().is_some_and(|r| r.index() as i32 == self.scores[p] - 1)
    }

    /// stalin arithmetic: a spot card whose value (A=1 … T=10) is the sum or product of the
    /// two top cards, none of the three being a picture card.
    fn arithmetic(c: Card, top: Option<Card>, under: Option<Card>) -> bool {
        let value = |x: Option<Card>| x.and_then(Card::rank).filter(|r| !r.is_court()).map(|r| r.index() as u32 + 1);
        match (value(Some(c)), value(top), value(under)) {
            (Some(v), Some(a), Some(b)) => v == a + b || v == a * b,
            _ => false,
        }
    }

    /// May red card `c` go on stalin's rogue pile (suit, rank or arithmetic against its top)?
    fn rogue_ok(&self, c: Card) -> bool {
        if !self.rules.rogue || !c.is_red() || c.is_joker() {
            return false;
        }
        let Some(top) = self.rogue.top() else { return true };
        c.suit() == top.suit()
            || c.rank() == top.rank()
            || (self.rules.arithmetic && Self::arithmetic(c, Some(top), self.rogue.from_top(1)))
    }

    /// The rogue pile, bottom to top.
    pub fn rogue(&self) -> &Pile {
        &self.rogue
    }

    /// stalin: can the whole of `hand` be played one card after another onto `top`/`under`?
    fn can_empty(&self, hand: CardCounts, top: Card, under: Option<Card>, budget: &mut u32) -> bool {
        if hand.is_empty() {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        hand.faces().any(|y| {
            let suit_or_rank = y.suit() == top.suit() || y.rank() == top.rank();
            (suit_or_rank || (self.rules.arithmetic && Self::arithmetic(y, Some(top), under))) && {
                let mut h = hand;
                h.remove(y);
                self.can_empty(h, y, Some(top), budget)
            }
        })
    }

    /// The wild behaviour of `c` for player `p`: the preset's, or the player's own countdown wild.
    pub fn wild_of(&self, c: Card, p: usize) -> Option<WildRule> {
        if self.own_wild(c, p) {
            return Some(WildRule {
                also_normal: false,
                requires_match: false,
                only_if_no_other: false,
                forbidden_on: 0,
                solo: false,
                follow: WildFollow::Normal,
            });
        }
        self.rules.card[c.index()].wild
    }

    /// May `c` be played in a normal turn, ignoring `only_if_no_other`?
    fn playable_basic(&self, c: Card) -> bool {
        let p = self.current as usize;
        match self.restrict {
            Restrict::Picture => return c.rank().is_some_and(|r| r.is_court()),
            Restrict::Even => {
                let even = c.rank().is_some_and(|r| matches!(r.index(), 1 | 3 | 5 | 7 | 9));
                return even && self.matches_top(c);
            }
            Restrict::Suit(s) => {
                return c.suit().is_some_and(|x| x.index() == s as usize) || self.wild_of(c, p).is_some();
            }
            Restrict::Also(s) => {
                if c.suit().is_some_and(|x| x.index() == s as usize) {
                    return true;
                }
            }
            Restrict::Ask(k) => {
                return match k {
                    0..=12 => c.rank().is_some_and(|r| r.index() == k as usize),
                    13 => c == Card::new(Suit::Spades, crate::card::Rank::Queen),
                    _ => c.is_joker(),
                };
            }
            Restrict::None => {}
        }
        if let Some(w) = self.wild_of(c, p) {
            let forbidden = self.discard.top().is_some_and(|t| w.forbidden_on & bit(t) != 0) && !self.free_play;
            if forbidden {
                return w.also_normal && self.matches_top(c);
            }
            if w.requires_match && !self.free_play {
                return self.matches_top(c);
            }
            return true;
        }
        self.free_play || self.matches_top(c)
    }

    /// May `c` (held by the player to act) be played in a normal turn?
    fn playable(&self, c: Card) -> bool {
        if !self.playable_basic(c) {
            return false;
        }
        if let Some(w) = &self.wild_of(c, self.current as usize) {
            if w.only_if_no_other && !self.free_play {
                let hand = &self.hands[self.current as usize];
                return !hand.faces().any(|o| {
                    o != c
                        && !self.rules.card[o.index()].wild.is_some_and(|w| w.only_if_no_other)
                        && self.playable_basic(o)
                });
            }
        }
        true
    }

    fn has_playable(&self) -> bool {
        self.playable_bits() != 0
    }

    /// The faces that match the top card (as [`Game::matches_top`]), as a bitset.
    fn matching_bits(&self) -> u64 {
        let Some(top) = self.match_card() else {
            return u64::MAX;
        };
        if self.rules.lock_mask & bit(top) != 0 {
            return self.lock_bits(top);
        }
        let mut m = 0;
        if let Some(a) = self.active_suit() {
            m |= SUIT_BITS << (13 * a.index());
        }
        let rank_closed = self.nominated.is_some()
            && self.rules.spec.matching.after_wild == crate::rules::AfterWild::NominatedSuitOrOwnWild
            && !self.rules.spec.countdown.as_ref().is_some_and(|cd| cd.equal_rank_on_wild);
        if let Some(r) = top.rank().filter(|_| !rank_closed) {
            let mut ranks = RANK_BITS << r.index();
            if self.rules.spec.matching.any_court && r.is_court() {
                ranks |= COURT_BITS;
            }
            m |= ranks & !self.rules.rank_blocked;
            if r == crate::card::Rank::King {
                m |= self.rules.lock_mask;
            }
        }
        m
    }

    /// E22 matching around a locking joker: on a joker, the kings that may follow it (of the
    /// joker's colour when `deck.joker_colours_distinct`); on a king, the locking jokers too.
    fn lock_bits(&self, top: Card) -> u64 {
        const KINGS: u64 = RANK_BITS << 12;
        // Suit order C, D, H, S: diamonds and hearts are red.
        const RED: u64 = (SUIT_BITS << 13) | (SUIT_BITS << 26);
        if self.rules.lock_mask & bit(top) != 0 {
            if !self.rules.spec.deck.joker_colours_distinct {
                return KINGS;
            }
            return if top.is_red() { KINGS & RED } else { KINGS & !RED };
        }
        let mut m = 0;
        if let Some(r) = top.rank() {
            m |= RANK_BITS << r.index();
            if r == crate::card::Rank::King {
                m |= self.rules.lock_mask;
            }
        }
        if let Some(a) = self.active_suit() {
            m |= SUIT_BITS << (13 * a.index());
        }
        m
    }

    /// The faces held by the player to act that [`Game::playable`] allows, as a bitset
    /// (bit `i` = face `i`). Non-wild cards need only the matching bitset; wild cards, which
    /// have per-card conditions, are checked one by one.
    fn playable_bits(&self) -> u64 {
        let held = held_bits(self.hands[self.current as usize].counts());
        if self.restrict != Restrict::None || self.rules.spec.countdown.is_some() || self.rules.arithmetic {
            // One-turn constraints and per-player wilds: check card by card.
            let mut out = 0u64;
            let mut x = held;
            while x != 0 {
                let i = x.trailing_zeros() as usize;
                x &= x - 1;
                if self.playable(Card(i as u8)) {
                    out |= 1 << i;
                }
            }
            return out;
        }
        let (mut plain, mut out) = (0u64, 0u64);
        let mut x = held;
        while x != 0 {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            if self.rules.card[i].wild.is_some() {
                if self.playable(Card(i as u8)) {
                    out |= 1 << i;
                }
            } else {
                plain |= 1 << i;
            }
        }
        out | if self.free_play { plain } else { plain & self.matching_bits() }
    }

    /// May `c` answer or cancel the pending chain?
    fn answers_chain(&self, c: Card) -> bool {
        let r = &self.rules.card[c.index()];
        if let Some(s) = self.nominated {
            // A chain started by a wild draw card: only the called suit answers (2.20).
            if c.suit() != Some(s) && r.cancel == 0 {
                return false;
            }
        }
        if r.cancel & (1u32 << self.chain.group) != 0 || self.shields_chain(c) {
            return true;
        }
        if r.mirror && self.mirrors_top(c) {
            return true;
        }
        match r.chain {
            Some(ch) => match self.chain.answer {
                ChainAnswerState::SameRank => ch.group == self.chain.group,
                ChainAnswerState::AnyDrawCard => true,
                ChainAnswerState::None => false,
            },
            None => false,
        }
    }

    /// E07: does `c` shield against the pending chain (its group, and the top card's suit when
    /// the shield must match it)?
    fn shields_chain(&self, c: Card) -> bool {
        let r = &self.rules.card[c.index()];
        r.shield & (1u32 << self.chain.group) != 0
            && (!r.shield_same_suit || (c.suit().is_some() && c.suit() == self.discard.top().and_then(Card::suit)))
    }

    /// E08: may mirror card `c` go on the top card of a pending chain? Directly on the chain
    /// card only with its suit; on a mirroring card, any mirror card.
    fn mirrors_top(&self, c: Card) -> bool {
        let Some(top) = self.discard.top() else { return false };
        let t = &self.rules.card[top.index()];
        t.mirror || (t.chain.is_some() && c.suit().is_some() && c.suit() == top.suit())
    }

    /// Are all the cards placed this turn of `src`'s rank (several sevens leading a run)?
    fn turn_all_rank(&self, src: Card) -> bool {
        (0..self.turn.cards as usize).all(|k| self.discard.from_top(k).is_some_and(|x| x.rank() == src.rank()))
    }

    /// May `c` continue the turn in progress?
    fn continues(&self, c: Card) -> bool {
        match self.turn.follow {
            Some((FollowState::SameSuitAny, src)) => {
                (c.suit().is_some() && c.suit() == src.suit())
                    || (self.rules.spec.multi.mode == MultiMode::EqualRank
                        && c.rank().is_some()
                        && c.rank() == src.rank()
                        && self.turn_all_rank(src))
            }
            Some((FollowState::OneMatching, src)) => {
                let same_suit = c.suit().is_some() && c.suit() == src.suit();
                let same_rank = c.rank().is_some() && c.rank() == src.rank();
                same_suit || same_rank || self.rules.card[c.index()].wild.is_some_and(|w| !w.solo)
            }
            Some((FollowState::MatchingRun, _)) => {
                if self.chain.active {
                    self.answers_chain(c)
                } else {
                    let w = self.rules.card[c.index()].wild;
                    self.matches_top(c) || w.is_some_and(|w| !w.solo && !w.only_if_no_other && !w.requires_match)
                }
            }
            Some((FollowState::Marriage, src)) => {
                use crate::card::Rank::{King, Queen};
                c.suit().is_some()
                    && c.suit() == src.suit()
                    && matches!((src.rank(), c.rank()), (Some(King), Some(Queen)) | (Some(Queen), Some(King)))
            }
            Some((FollowState::PairStart, src)) => {
                c.rank().is_some()
                    && c.rank() == src.rank()
                    && self.wild_of(c, self.current as usize).is_none()
                    && (!self.chain.active || self.answers_chain(c))
                    && self.pair_can_close(c)
            }
            Some((FollowState::PairMid, src)) => {
                self.is_cover(c, src) || (c.rank().is_some() && c.rank() == src.rank() && self.pair_can_close(c))
            }
            Some((FollowState::Cover, src)) => c.is_joker() || (c.suit().is_some() && c.suit() == src.suit()),
            Some((FollowState::UpTo3, _)) => {
                if !self.matches_top(c) {
                    return false;
                }
                if self.turn.cards < 3 {
                    return true;
                }
                // Past three cards only the whole hand may be played.
                let mut hand = self.hands[self.current as usize];
                hand.remove(c);
                let mut budget = 20_000;
                self.can_empty(hand, c, self.discard.top(), &mut budget)
            }
            Some((FollowState::ZodiacRun, _)) => {
                let Some(top) = self.discard.top() else { return false };
                let same = c.rank().is_some() && c.rank() == top.rank();
                if self.chain.active {
                    return same && self.answers_chain(c);
                }
                let step = match (c.rank(), top.rank()) {
                    (Some(a), Some(b)) => (a.index() as i32 - b.index() as i32).abs() == 1,
                    _ => false,
                };
                same || (step && c.suit() == top.suit())
            }
            Some((FollowState::EqualRank, src)) => {
                let locks = self.rules.lock_mask & bit(c) != 0 && self.rules.lock_mask & bit(src) != 0;
                (locks || (c.rank().is_some() && c.rank() == src.rank()))
                    && !self.rules.card[c.index()].wild.is_some_and(|w| w.solo)
                    && (!self.chain.active || self.answers_chain(c))
            }
            None => false,
        }
    }

    /// crazy_pairs: `c` covers a pair ending in `last` (same suit, other rank, not wild).
    fn is_cover(&self, c: Card, last: Card) -> bool {
        c.suit().is_some()
            && c.suit() == last.suit()
            && c.rank() != last.rank()
            && self.wild_of(c, self.current as usize).is_none()
    }

    /// crazy_pairs: after adding pair card `x` from the hand, can the pair still be covered?
    fn pair_can_close(&self, x: Card) -> bool {
        fn go(g: &Game, hand: CardCounts, x: Card, depth: u8) -> bool {
            hand.faces().any(|y| {
                g.is_cover(y, x) || {
                    y.rank() == x.rank() && depth < 16 && {
                        let mut h = hand;
                        h.remove(y);
                        go(g, h, y, depth + 1)
                    }
                }
            })
        }
        let mut hand = self.hands[self.current as usize];
        hand.remove(x);
        go(self, hand, x, 0)
    }

    /// Can a card be produced for a draw now (stock, or a refill from the discard pile)?
    pub fn can_draw(&self) -> bool {
        !self.stock.is_empty() || (self.rules.spec.stock.exhausted != Exhausted::NoReshuffle && self.discard.len() > 1)
    }

    fn announce_allowed(&self) -> bool {
        if self.rules.spec.last_card.mode != LastCardMode::Action || self.turn.announced {
            return false;
        }
        let len = self.hands[self.current as usize].len();
        let multi = self.rules.spec.multi.mode != MultiMode::Off || self.rules.card.iter().any(|r| r.follow.is_some());
        len == 2 || (multi && len > 2)
    }

    // ----- legal actions ---------------------------------------------------------------

    /// Fill `mask` with the legal actions of the player to act (empty when the game is over
    /// or truncated). Allocates nothing.
    pub fn legal_actions(&self, mask: &mut ActionMask) {
        mask.clear();
        if self.terminal || self.truncated {
            return;
        }
        let p = self.current as usize;
        let hand = &self.hands[p];
        match self.phase {
            Phase::Play => {
                // Play ids 0..54 are bits 0..54 of the mask's first word.
                let mut play = self.playable_bits();
                if play == 0 && self.rules.rogue {
                    // stalin: one red card on the rogue pile, only without a play-pile play.
                    for c in hand.faces() {
                        if self.rogue_ok(c) {
                            play |= bit(c);
                        }
                    }
                }
                if self.rules.spec.options.joker_bluff {
                    play |= self.bluff_bits();
                }
                mask.0[0] |= play;
                let any = play != 0;
                let voluntary = self.rules.spec.draw.voluntary || !any;
                let when = self.rules.spec.passing.when;
                let one_draw = when == crate::rules::PassWhen::AfterOneDraw;
                if voluntary && self.can_draw() && !(one_draw && self.turn.drawn > 0) {
                    mask.set(action::DRAW);
                }
                let pass =
                    if one_draw { self.turn.accepted || !self.can_draw() } else { !self.can_draw() && voluntary };
                if pass {
                    mask.set(action::PASS);
                }
                if any && self.announce_allowed() {
                    mask.set(action::ANNOUNCE);
                }
            }
            Phase::Chain if self.interlude.kind == InterludeKind::MirrorThree => self.mirror_actions(mask),
            Phase::Chain => {
                let mut any = false;
                for c in hand.faces() {
                    if self.answers_chain(c) {
                        mask.set(action::PLAY + c.index());
                        any = true;
                    }
                }
                mask.set(action::ACCEPT);
                if any && self.announce_allowed() {
                    mask.set(action::ANNOUNCE);
                }
            }
            Phase::Nominate => {
                let top = self.discard.top().expect("a card was placed");
                let second = self.rules.card[top.index()].second_suit;
                for s in Suit::ALL {
                    // E13: the second suit must differ from the seven's own suit.
                    if !(second && top.suit() == Some(s)) {
                        mask.set(action::NOMINATE + s.index());
                    }
                }
                if self.rules.card[top.index()].nominate == Some(Nominate::Optional) {
                    mask.set(action::END_TURN);
                }
            }
            Phase::Continue => {
                for c in hand.faces() {
                    if self.continues(c) {
                        mask.set(action::PLAY + c.index());
                    }
                }
                let inside_pair =
                    matches!(self.turn.follow, Some((FollowState::PairMid, _)) | Some((FollowState::Cover, _)));
                let whole_hand = matches!(self.turn.follow, Some((FollowState::UpTo3, _))) && self.turn.cards > 3;
                if !inside_pair && !whole_hand {
                    mask.set(action::END_TURN);
                }
            }
            Phase::AfterDraw if self.turn.replay != 0 => {
                for c in hand.faces() {
                    if self.turn.replay & bit(c) != 0 {
                        mask.set(action::PLAY + c.index());
                    }
                }
                mask.set(action::PASS);
            }
            Phase::AfterDraw => {
                let after = self.rules.spec.draw.after;
                let only_drawn = matches!(after, DrawAfter::MayPlayDrawn | DrawAfter::MustPlayDrawnIfPlayable);
                let mut play = self.playable_bits();
                if only_drawn {
                    play &= self.turn.drawn_card.map_or(0, bit);
                }
                mask.0[0] |= play;
                let must = matches!(after, DrawAfter::MustPlayDrawnIfPlayable | DrawAfter::MustPlayWhenFound);
                let d = &self.rules.spec.draw;
                let more = d.mode == DrawMode::UpTo && self.turn.drawn < d.limit && self.can_draw();
                if more {
                    mask.set(action::DRAW);
                }
                if !must && !more {
                    mask.set(action::PASS);
                }
                if mask.has_play() && self.announce_allowed() {
                    mask.set(action::ANNOUNCE);
                }
            }
            Phase::Give => {
                for c in hand.faces() {
                    mask.set(action::GIVE + c.index());
                }
            }
            Phase::Target => {
                for k in 1..self.n as usize {
                    mask.set(action::TARGET + k - 1);
                }
                mask.set(action::END_TURN);
            }
            Phase::Keep => {
                for c in hand.faces() {
                    if hand.count(c) > self.kept.count(c) {
                        mask.set(action::KEEP + c.index());
                    }
                }
            }
            Phase::Challenge => {
                mask.set(action::CHALLENGE);
                mask.set(action::NO_CHALLENGE);
            }
            Phase::Ask => {
                for k in 0..13 {
                    mask.set(action::ASK + k);
                }
                mask.set(action::ASK_QS);
                mask.set(action::ASK_JOKER);
            }
            _ => {}
        }
    }

    /// The legal actions as a vector (allocates; for tools and tests).
    pub fn legal_action_vec(&self) -> Vec<usize> {
        let mut m = ActionMask::default();
        self.legal_actions(&mut m);
        m.iter().collect()
    }

    // ----- stepping --------------------------------------------------------------------

    /// Apply action `id` for the player to act. An illegal action returns an error and
    /// leaves the game unchanged.
    pub fn step(&mut self, id: usize) -> Result<(), GameError> {
        if self.terminal {
            return Err(GameError::GameOver(""));
        }
        if self.truncated {
            return Err(GameError::GameOver(" (truncated at the decision limit)"));
        }
        if id >= NUM_ACTIONS {
            return Err(GameError::OutOfRange(id as i64));
        }
        let mut mask = ActionMask::default();
        self.legal_actions(&mut mask);
        if !mask.contains(id) {
            return Err(self.illegal(id, &mask));
        }
        self.apply(id);
        Ok(())
    }

    fn illegal(&self, id: usize, mask: &ActionMask) -> GameError {
        let legal: Vec<String> = mask.iter().filter_map(Action::from_id).map(|a| a.to_string()).collect();
        GameError::IllegalAction {
            action: Action::from_id(id).map_or_else(|| id.to_string(), |a| format!("'{a}' ({id})")),
            phase: self.phase().name(),
            player: self.current as usize,
            legal: legal.join(", "),
        }
    }

    /// Apply a legal action id (unchecked; [`Game::step`] checks).
    pub fn apply(&mut self, id: usize) {
        let action = Action::from_id(id).expect("legal ids decode");
        let window = self.interlude.kind == InterludeKind::MirrorThree;
        match action {
            Action::Play(c) if window => self.mirror_play(c),
            Action::Pass if window => self.mirror_pass(),
            Action::Accept if window => self.mirror_accept(),
            Action::Keep(c) => self.keep_card(c),
            Action::Play(c) => self.play_card(c),
            Action::Nominate(s) => {
                let top = self.discard.top().expect("a card was placed");
                if self.rules.card[top.index()].second_suit && !self.turn.is_start {
                    self.turn.restrict = Restrict::Also(s as u8);
                } else {
                    self.nominated = Some(s);
                }
                self.resolve_play();
            }
            Action::Target(k) => {
                // E15: swap hands with the seat k places clockwise.
                let p = self.current as usize;
                let q = (p + k as usize) % self.n as usize;
                self.hands.swap(p, q);
                let (hp, hq) = (face_bits(&self.hands[p]), face_bits(&self.hands[q]));
                if let Some(s) = self.seen.as_deref_mut() {
                    // Knowledge follows the hands; each of the two knows the hand it gave away.
                    for o in s.bits.iter_mut() {
                        o.swap(p, q);
                    }
                    s.bits[p][q] = hq;
                    s.bits[q][p] = hp;
                }
                self.turn.swap_done = true;
                self.finish_play();
            }
            Action::AskRank(r) => self.ask(r.index() as u8),
            Action::AskQueenOfSpades => self.ask(13),
            Action::AskJoker => self.ask(14),
            Action::EndTurn => match self.phase {
                Phase::Target => {
                    self.turn.swap_done = true;
                    self.finish_play();
                }
                Phase::Nominate => self.resolve_play(),
                _ => self.finish_play(),
            },
            Action::Draw => self.draw_action(),
            Action::Accept => self.accept(),
            Action::Pass => self.pass(),
            Action::Announce => self.turn.announced = true,
            Action::Give(c) => self.give_card(c),
            Action::Challenge => self.resolve_challenge(true),
            Action::NoChallenge => self.resolve_challenge(false),
        }
        // Saturating: a restored state may start anywhere below the limit of its type.
        self.decisions = self.decisions.saturating_add(1);
        let max = self.rules.spec.limits.max_decisions;
        if !self.terminal && max > 0 && self.decisions >= max {
            self.truncated = true;
        }
    }

    fn play_card(&mut self, c: Card) {
        let p = self.current as usize;
        let phase = self.phase;
        if self.rules.rogue && phase == Phase::Play && !self.playable(c) {
            // stalin: the card goes on the rogue pile, which ends the play.
            self.hands[p].remove(c);
            self.forget_card(p, c);
            self.rogue.push(c);
            self.pass_streak = 0;
            self.turn.cards += 1;
            let r = self.rules.card[c.index()];
            if r.reverse {
                self.turn.reverses += 1;
            }
            self.resolve_play();
            return;
        }
        let matched = phase != Phase::Chain && self.matches_top(c);
        let shields = phase == Phase::Chain && self.shields_chain(c);
        let prev_top = self.discard.top();
        let wild_power = self.wild_of(c, p).is_some_and(|w| {
            let forbidden = prev_top.is_some_and(|t| w.forbidden_on & bit(t) != 0) && !self.free_play;
            !forbidden && !(w.also_normal && self.turn.cards > 0)
        });
        self.turn.wild_power = wild_power;
        // options.joker_bluff: a joker that is normally playable only without another playable
        // card; record whether it was legal for a challenge.
        self.turn.bluff = (phase == Phase::Play && self.rules.spec.options.joker_bluff)
            .then(|| self.wild_of(c, p))
            .flatten()
            .filter(|w| w.only_if_no_other)
            .map(|_| Bluff {
                by: p as u8,
                legal: self.playable(c),
                amount: 0,
                prev_nominated: self.nominated.map(|s| s as u8),
                prev_free_play: self.free_play,
                prev_restrict: self.restrict,
            });
        self.turn.identical = self.rules.spec.multi.identical_bonus && prev_top == Some(c);
        self.restrict = Restrict::None;
        self.hands[p].remove(c);
        self.forget_card(p, c);
        self.discard.push(c);
        self.plays += 1;
        if self.rules.spec.end.max_plays.is_some_and(|m| self.plays >= m) {
            // The cap on plays ends the hand at once; everyone scores their cards.
            let out = self.hands[p].is_empty().then_some(p as u8);
            self.end_hand(out, out.is_none());
            return;
        }
        self.nominated = None;
        self.pass_streak = 0;
        self.free_play = false;
        self.turn.top_matched = matched;
        if phase == Phase::Chain {
            let r = self.rules.card[c.index()];
            let group = 1u32 << self.chain.group;
            let cancels = r.cancel & group != 0 && r.chain.is_none_or(|ch| ch.group != self.chain.group);
            if shields && r.shield_through && !cancels {
                // E07 pass-through: the player is shielded; the chain, unchanged, moves on to the
                // next player. The card has no other effect.
                self.turn.cards += 1;
                self.turn.first.get_or_insert(c);
                self.after_placement(c);
                return;
            }
            if shields || cancels {
                // E06 cancel / E07 shield: the chain ends, nobody draws, the card does not attack.
                if shields && self.rules.spec.chain.after == crate::rules::ChainAfter::AttackSuitOnly {
                    if let Some(s) = self.chain.origin.and_then(Card::suit) {
                        self.turn.restrict = Restrict::Suit(s as u8);
                    }
                }
                self.chain = Chain::default();
                self.turn.cancelled = true;
                self.turn.cards += 1;
                self.turn.first.get_or_insert(c);
                self.after_placement(c);
                return;
            }
        }
        self.record_effects(c);
        self.after_placement(c);
    }

    /// Collect the effects of placed card `c` into the turn.
    fn record_effects(&mut self, c: Card) {
        let r = self.rules.card[c.index()];
        let in_run = matches!(self.turn.follow, Some((FollowState::SameSuitAny | FollowState::OneMatching, _)));
        let top_only = match self.rules.spec.multi.effects {
            MultiEffects::TopOnly => true,
            MultiEffects::TopOnlyInRuns => in_run,
            MultiEffects::CumulateAll => false,
        };
        let mirror = r.mirror && self.chain.active && !self.turn.is_start;
        let prev_chain = self.turn.last.and_then(|l| self.rules.card[l.index()].chain);
        // Under top-only effects, draw cards directly on top of each other still add up.
        let keep_chain = matches!((r.chain, prev_chain), (Some(a), Some(b)) if a.group == b.group);
        let pure_wild = self.rules.spec.countdown.as_ref().is_some_and(|cd| cd.pure_wild)
            && self.own_wild(c, self.current as usize);
        let t = &mut self.turn;
        t.last = Some(c);
        if pure_wild {
            // bitch: a card that is the player's own wild acts only as a wild.
            t.cards += 1;
            t.first.get_or_insert(c);
            return;
        }
        if top_only {
            t.skips = 0;
            t.reverses = 0;
            if !keep_chain {
                t.chain_add = 0;
                t.chain_cards = 0;
            }
            t.waste_draw = 0;
            // Unanswerable draw penalties act wherever the card lies in a run (zodiac card).
            t.draw_keep = 0;
            t.restrict = Restrict::None;
            t.others_draw = 0;
            t.free_play_next = false;
            t.extra_turn = false;
            t.ace_skip = false;
        }
        let once = r.repeat == Repeat::Once;
        if r.skip > 0 {
            t.skips = if once { t.skips.max(r.skip) } else { t.skips + r.skip };
            if c.rank() == Some(crate::card::Rank::Ace) {
                t.ace_skip = true;
            }
        }
        if r.reverse {
            t.reverses = if once { 1 } else { t.reverses + 1 };
        }
        if r.pass_hands.is_some() {
            t.pass_hands = r.pass_hands;
        }
        if r.next_picture {
            t.restrict = Restrict::Picture;
        }
        if r.next_even {
            t.restrict = Restrict::Even;
        }
        if let Some(ch) = r.chain {
            t.chain_cards += 1;
            if t.chain_cards >= 2 {
                if let Some(ma) = ch.multi_answer {
                    t.multi_answer = Some(ma.into());
                }
            }
            if self.chain.active {
                // Answering a pending chain.
                t.answered = true;
                self.chain.amount = match ch.accumulate {
                    Accumulate::Sum => self.chain.amount.saturating_add(ch.amount as u16),
                    Accumulate::Increment => self.chain.amount.saturating_add(self.rules.spec.chain.increment as u16),
                    Accumulate::Fixed => self.chain.amount.max(ch.amount as u16),
                };
                self.chain.answer = ch.answer.into();
            } else {
                let fixed = ch.accumulate == Accumulate::Fixed;
                t.chain_add = if (once || fixed) && t.chain_add > 0 {
                    t.chain_add.max(ch.amount as u16)
                } else {
                    t.chain_add + ch.amount as u16
                };
                t.chain_group = ch.group;
                t.chain_answer = ch.answer.into();
                t.chain_origin = Some(c);
            }
        }
        // Saturating: a restored turn may hold any u16 amount already.
        t.draw_lose = t.draw_lose.saturating_add(r.draw_lose as u16);
        t.draw_keep = t.draw_keep.saturating_add(r.draw_keep as u16);
        t.others_draw = t.others_draw.saturating_add(r.others_draw as u16);
        t.waste_draw = t.waste_draw.saturating_add(r.waste_draw as u16);
        t.pick_up = t.pick_up.saturating_add(r.pick_up_pile as u16);
        if r.free_play_next || r.wild.is_some_and(|w| w.follow == WildFollow::Free) {
            t.free_play_next = true;
        }
        if r.extra_turn {
            t.extra_turn = true;
        }
        if mirror {
            // E08 on a pending chain: each mirror reverses the direction; the chain stays.
            t.mirrors += 1;
            t.reverses += 1;
            t.answered = true;
        }
        t.cards += 1;
        t.first.get_or_insert(c);
    }

    /// After placing `c`: offer a continuation, or finish the play.
    fn after_placement(&mut self, c: Card) {
        let p = self.current as usize;
        let r = self.rules.card[c.index()];
        if self.turn.is_start {
            self.finish_play();
            return;
        }
        // Update the continuation source.
        let multi = self.rules.spec.multi.mode;
        self.turn.follow = match (r.follow, self.turn.follow) {
            _ if r.must_cover => Some((FollowState::Cover, c)),
            (_, Some((FollowState::Cover, _))) => None,
            (_, Some((FollowState::PairStart, _))) => Some((FollowState::PairMid, c)),
            (_, Some((FollowState::PairMid, src))) => {
                Some((if c.rank() == src.rank() { FollowState::PairMid } else { FollowState::PairStart }, c))
            }
            (_, Some((FollowState::ZodiacRun, src))) => Some((FollowState::ZodiacRun, src)),
            (_, None) if multi == MultiMode::PairsWithCover => Some((FollowState::PairStart, c)),
            (_, None) if multi == MultiMode::ZodiacRun => Some((FollowState::ZodiacRun, c)),
            (_, None) if multi == MultiMode::UpTo3OrAll => Some((FollowState::UpTo3, c)),
            (_, Some((FollowState::UpTo3, src))) => Some((FollowState::UpTo3, src)),
            (_, Some((FollowState::MatchingRun, src))) => Some((FollowState::MatchingRun, src)),
            (Some(Follow::SameSuitAny), Some((FollowState::SameSuitAny, src))) => {
                // Several sevens may lead a larby run: the last of them sets the suit.
                let lead = multi == MultiMode::EqualRank && c.rank() == src.rank() && self.turn_all_rank(src);
                Some((FollowState::SameSuitAny, if lead { c } else { src }))
            }
            (Some(Follow::SameSuitAny), _) => Some((FollowState::SameSuitAny, c)),
            (Some(Follow::OneMatching), _) => Some((FollowState::OneMatching, c)),
            (_, Some((FollowState::SameSuitAny, src))) => Some((FollowState::SameSuitAny, src)),
            (_, Some((FollowState::OneMatching, _))) => None,
            (_, Some((FollowState::EqualRank, src))) => Some((FollowState::EqualRank, src)),
            (_, Some((FollowState::Marriage, _))) => None,
            (_, None) if r.marriage && self.turn.cards == 1 => Some((FollowState::Marriage, c)),
            (_, None) if multi == MultiMode::MatchingRun => Some((FollowState::MatchingRun, c)),
            (_, None) => {
                let excluded = self
                    .rules
                    .spec
                    .multi
                    .excluded
                    .iter()
                    .any(|x| crate::card::Rank::parse(x).is_some_and(|rk| c.rank() == Some(rk)));
                let ranked = c.rank().is_some() || self.rules.lock_mask & bit(c) != 0;
                (multi == MultiMode::EqualRank && ranked && !excluded).then_some((FollowState::EqualRank, c))
            }
        };
        let solo = self
            .wild_of(c, p)
            .is_some_and(|w| w.solo && !(w.also_normal && (self.turn.cards > 1 || self.turn.top_matched)));
        if self.hands[p].is_empty() || r.ends_turn || solo {
            self.finish_play();
            return;
        }
        let can_continue = self.turn.follow.is_some() && self.hands[p].faces().any(|x| self.continues(x));
        if can_continue {
            self.phase = Phase::Continue;
        } else {
            if r.must_cover {
                // E18 with no cover card: the card stays and the player draws one.
                self.draw_cards(p, 1);
            }
            self.finish_play();
        }
    }

    /// The play is complete: nominate if the top card asks for it, then resolve.
    fn finish_play(&mut self) {
        let p = self.current as usize;
        let top = self.discard.top().expect("a card was placed");
        let r = self.rules.card[top.index()];
        let mut going_out = self.hands[p].is_empty() && !self.turn.is_start;
        // Nomination: wilds only when played with their power; the countdown own wild always.
        let own = self.own_wild(top, p);
        let mode = if own { Some(Nominate::Required) } else { r.nominate };
        let nominates = match mode {
            None => false,
            Some(m) => {
                let power = match self.wild_of(top, p) {
                    Some(w) => self.turn.is_start || (self.turn.wild_power && (!w.also_normal || self.turn.cards == 1)),
                    None => true,
                };
                power && (m != Nominate::OnlyIfMatching || (self.turn.top_matched && !self.turn.is_start))
            }
        };
        if going_out && self.rules.spec.countdown.is_some() && !self.turn.redealt {
            // Countdown (2.20): going out lowers the score; at 0 the game is won, otherwise the
            // player is dealt that many new cards and play goes on.
            self.scores[p] -= 1;
            if self.scores[p] <= 0 {
                self.scores[p] = 0;
                self.end_hand(Some(p as u8), false);
                return;
            }
            self.turn.redealt = true;
            let k = self.scores[p] as usize;
            self.draw_cards(p, k);
            going_out = false;
        }
        if let Some(give) = r.give {
            if !self.turn.is_start && !self.turn.give_done {
                if going_out {
                    // Out with the give card itself: nothing to hand over. Played "as during the
                    // hand" (kings_reverse AS), every other player draws the card they would have got.
                    if r.last_special == LastSpecial::AsDuringHand {
                        for k in 1..self.n as usize {
                            let q = self.advance(p as u8, k) as usize;
                            self.draw_cards(q, 1);
                        }
                    }
                    self.end_hand(Some(p as u8), false);
                    return;
                }
                self.turn.give_due = match give {
                    crate::rules::Give::EachOther => self.n - 1,
                    crate::rules::Give::One => 1,
                };
                self.turn.gave = 0;
                self.phase = Phase::Give;
                return;
            }
        }
        if !self.turn.is_start && !going_out {
            if r.swap_hand && !self.turn.swap_done {
                self.phase = Phase::Target;
                return;
            }
            if r.ask_rank && !self.turn.ask_done {
                self.phase = Phase::Ask;
                return;
            }
        }
        let nominates = nominates || (r.second_suit && !self.turn.is_start);
        if nominates && !(going_out && self.ends_hand_on_out(top)) {
            self.phase = Phase::Nominate;
            return;
        }
        self.resolve_play();
    }

    /// E16: the next player must play the asked card (`k`: rank index, 13 = QS, 14 = joker).
    fn ask(&mut self, k: u8) {
        self.turn.ask_done = true;
        self.turn.restrict = Restrict::Ask(k);
        self.finish_play();
    }

    /// Hand `c` to the next recipient of a give card (E10), in order of play.
    fn give_card(&mut self, c: Card) {
        let p = self.current;
        let q = self.advance(p, self.turn.gave as usize + 1) as usize;
        self.hands[p as usize].remove(c);
        self.forget_card(p as usize, c);
        self.hands[q].add(c);
        if let Some(s) = self.seen.as_deref_mut() {
            // The giver knows where the card went.
            s.bits[p as usize][q] |= bit(c);
        }
        self.turn.gave += 1;
        if self.hands[p as usize].is_empty() {
            let top = self.discard.top().expect("a card was placed");
            if self.rules.card[top.index()].last_special == LastSpecial::AsDuringHand {
                // kings_reverse AS, case 2: the players who got no card draw one each.
                for k in self.turn.gave as usize + 1..=self.turn.give_due as usize {
                    let r = self.advance(p, k) as usize;
                    self.draw_cards(r, 1);
                }
            }
            self.end_hand(Some(p), false);
            return;
        }
        if self.turn.gave >= self.turn.give_due {
            self.turn.give_done = true;
            self.finish_play();
        }
    }

    /// The next seat from `q` (inclusive) that is still in the hand.
    fn skip_done(&self, mut q: u8) -> u8 {
        for _ in 0..self.n {
            if self.done & (1 << q) == 0 {
                break;
            }
            q = self.advance(q, 1);
        }
        q
    }

    /// Whether `end.play_for_second` is in force: three players, the first out leaves the hand
    /// and the other two play on for second place.
    #[inline]
    fn for_second(&self) -> bool {
        self.rules.spec.end.play_for_second && self.n == 3
    }

    /// Seat `k` places from `p` in the current direction, then on past players who are out.
    /// Under `end.play_for_second` only players still in count, so a skip never lands on a
    /// placed player and with two left a skip of one comes back to `p`.
    fn step_in(&self, p: u8, k: usize) -> u8 {
        if self.done == 0 || !self.for_second() {
            return self.skip_done(self.advance(p, k));
        }
        let mut q = p;
        for _ in 0..k {
            q = self.skip_done(self.advance(q, 1));
        }
        q
    }

    /// Record `p` as the next place of the hand.
    fn place(&mut self, p: u8) {
        if !self.finishing_order().contains(&p) && (self.placed as usize) < MAX_PLAYERS {
            self.places[self.placed as usize] = p;
            self.placed += 1;
        }
    }

    /// The top four cards of the discard pile have one rank (`end.four_of_a_kind`).
    fn four_of_a_kind(&self) -> bool {
        let Some(r) = self.discard.top().and_then(Card::rank) else { return false };
        self.discard.len() >= 4 && (1..4).all(|k| self.discard.from_top(k).and_then(Card::rank) == Some(r))
    }

    /// E23: `target` draws `k` from the shuffled waste pile under the top card (the rest from
    /// the stock if it holds fewer); the remaining waste stays face up under the top card.
    fn waste_draw(&mut self, target: usize, k: usize) {
        let top = self.discard.pop().expect("a card was placed");
        self.discard.as_mut_slice().shuffle(&mut self.rng);
        let mut got = 0;
        while got < k {
            match self.discard.pop() {
                Some(c) => self.hands[target].add(c),
                None => break,
            }
            got += 1;
        }
        self.discard.push(top);
        if got < k {
            self.draw_cards(target, k - got);
        }
    }

    fn ends_hand_on_out(&self, top: Card) -> bool {
        let ls = self.rules.card[top.index()].last_special;
        !(ls == LastSpecial::CannotGoOut
            || (ls == LastSpecial::ChainContinues && (self.turn.chain_add > 0 || self.turn.answered)))
    }

    fn resolve_play(&mut self) {
        let p = self.current;
        let n = self.n as usize;
        let top = self.discard.top().or(self.rogue.top()).expect("a card was placed");
        let t = self.turn;
        let cannot_out = self.hands[p as usize].is_empty()
            && !t.is_start
            && self.rules.card[top.index()].last_special == LastSpecial::CannotGoOut;
        if self.hands[p as usize].is_empty() && !t.is_start && !cannot_out && self.for_second() {
            // end.play_for_second: the first player out takes first place and leaves the hand;
            // the going-out card's own effects are ignored (G9) and the next player still in
            // plays on. The second player out takes second place and ends the hand.
            self.place(p);
            self.done |= 1 << p;
            if self.placed >= 2 {
                let last = (0..self.n).find(|&q| self.done & (1 << q) == 0).expect("one player is left");
                self.place(last);
                let first = self.places[0];
                self.end_hand(Some(first), false);
                return;
            }
            self.turn = Turn::default();
            self.chain = Chain::default();
            self.free_play = false;
            // After a shield the attacking ace's suit is still to be followed (it is the ace's
            // rule, not the shield's effect).
            self.restrict = if t.cancelled { t.restrict } else { Restrict::None };
            self.current = self.step_in(p, 1);
            self.phase = Phase::Play;
            self.begin_turn();
            return;
        }
        if self.hands[p as usize].is_empty() && !t.is_start && !cannot_out {
            match self.rules.card[top.index()].last_special {
                LastSpecial::ChainContinues if t.chain_add > 0 || t.answered => {
                    self.went_out.get_or_insert(p);
                }
                LastSpecial::DrawsApply => {
                    let target = self.advance(p, 1 + t.skips as usize) as usize;
                    let k = t.draw_lose + t.draw_keep + t.chain_add + if t.answered { self.chain.amount } else { 0 };
                    self.draw_cards(target, k as usize);
                    self.end_hand(Some(p), false);
                    return;
                }
                _ => {
                    self.end_hand(Some(p), false);
                    return;
                }
            }
        } else if !t.is_start
            && self.rules.spec.last_card.mode == LastCardMode::Action
            && self.hands[p as usize].len() == 1
            && !t.announced
        {
            self.draw_cards(p as usize, self.rules.spec.last_card.penalty as usize);
        }
        if self.rules.spec.draw.end_of_turn > 0 && !t.is_start {
            // stalin: every play ends with a compulsory draw (a player who went out has won).
            self.draw_cards(p as usize, self.rules.spec.draw.end_of_turn as usize);
        }
        if self.rules.spec.end.four_of_a_kind && !t.is_start && self.four_of_a_kind() {
            // Four cards of one rank on top of the pile end the hand; everyone scores.
            self.end_hand(None, true);
            return;
        }
        let mut skips = t.skips as usize;
        let reversed = t.reverses % 2 == 1;
        if reversed {
            if n == 2 {
                if self.rules.spec.two_player.reverse == TwoPlayerReverse::AsSkip {
                    skips += 1;
                }
            } else {
                self.direction = -self.direction;
            }
        }
        if skips > 0 && t.ace_skip && self.rules.spec.options.silly_hat {
            self.hat = Some(self.advance(p, skips));
        }
        // E08 on E09: before the others pick up, those holding a mirroring card may answer.
        let window = if t.others_draw > 0 && self.rules.has_mirror { self.mirror_candidate(p, top, 1) } else { None };
        if t.others_draw > 0 && window.is_none() {
            for k in 1..n {
                let q = self.advance(p, k) as usize;
                self.draw_cards(q, t.others_draw as usize);
            }
        }
        if let Some(side) = t.pass_hands {
            // E14: every hand moves one seat; a fixed side ignores the direction (1.2). A player
            // who cannot go out on the card is skipped: the seat before passes to the seat after.
            let old = self.hands;
            let old_seen = self.seen.as_deref().copied();
            let step = |g: &Game, i: usize| -> usize {
                match side {
                    crate::rules::Side::Right => (i + n - 1) % n,
                    crate::rules::Side::Left => (i + 1) % n,
                    crate::rules::Side::Direction => g.advance(i as u8, 1) as usize,
                }
            };
            for i in 0..n {
                if cannot_out && i == p as usize {
                    continue;
                }
                let mut to = step(self, i);
                if cannot_out && to == p as usize {
                    to = step(self, to);
                }
                self.hands[to] = old[i];
                if let (Some(s), Some(before)) = (self.seen.as_deref_mut(), old_seen.as_ref()) {
                    // Knowledge follows the hand; the passer knows the hand it passed.
                    for o in 0..n {
                        s.bits[o][to] = before.bits[o][i];
                    }
                    s.bits[i][to] = face_bits(&old[i]);
                }
            }
        }
        if cannot_out {
            // thirty_eights: a player cannot go out on an ace or an eight; they draw one card.
            self.draw_cards(p as usize, 1);
        }
        let mut next = self.step_in(p, 1 + skips);
        if t.identical {
            // advanced_switch identical card: every other player draws one in turn order and
            // the player goes again, as the next person to play on their own card (A09).
            for k in 1..n {
                let q = self.advance(p, k) as usize;
                self.draw_cards(q, 1);
            }
            next = self.step_in(p, skips);
        }
        if t.extra_turn {
            next = p;
        }
        next = self.skip_done(next);
        if t.waste_draw > 0 {
            self.waste_draw(next as usize, t.waste_draw as usize);
        }
        if t.cancelled {
            self.chain = Chain::default();
        }
        if t.chain_add > 0 && !t.answered {
            self.chain = Chain {
                active: true,
                amount: t.chain_add,
                group: t.chain_group,
                answer: t.chain_answer,
                origin: t.chain_origin,
            };
        }
        if let Some(ma) = t.multi_answer {
            if self.chain.active {
                self.chain.answer = ma;
            }
        }
        self.turn = Turn::default();
        self.free_play = t.free_play_next;
        self.restrict = t.restrict;
        if t.mirrors > 0 && t.mirrors % 2 == 0 && self.chain.active {
            // E08: an even number of mirrors sends the penalty back to their player, who takes
            // it at once; the next player plays normally.
            let k = self.chain.amount as usize;
            self.chain = Chain::default();
            self.draw_cards(p as usize, k);
        }
        if let Some(k) = window.filter(|_| !self.chain.active) {
            self.interlude = Interlude {
                kind: InterludeKind::MirrorThree,
                resume: next,
                origin: p,
                per_player: t.others_draw,
                suit: top.suit().map_or(0, |s| s as u8),
                seat: k,
                victim: None,
                mirror_by: 0,
            };
            self.current = self.advance(p, k as usize);
            self.phase = Phase::Chain;
            return;
        } else if window.is_some() {
            for k in 1..n {
                let q = self.advance(p, k) as usize;
                self.draw_cards(q, t.others_draw as usize);
            }
        }
        if self.chain.active {
            self.current = next;
            self.phase = Phase::Chain;
            self.begin_turn();
            return;
        }
        if t.pick_up > 0 {
            // E17: the next player takes the cards under the top card and loses the turn.
            let victim = next as usize;
            let top = self.discard.pop().expect("a card was placed");
            for _ in 0..t.pick_up {
                match self.discard.pop() {
                    Some(c) => {
                        self.hands[victim].add(c);
                        if let Some(s) = self.seen.as_deref_mut() {
                            // The discard pile is public: everyone sees what the victim takes.
                            for o in s.bits.iter_mut() {
                                o[victim] |= bit(c);
                            }
                        }
                    }
                    None => break,
                }
            }
            self.discard.push(top);
            next = self.step_in(next, 1);
        }
        if let Some(b) = t.bluff.filter(|_| t.draw_lose > 0) {
            // options.joker_bluff: the victim decides whether to challenge the joker first.
            self.challenge = Some(Bluff { amount: t.draw_lose, ..b });
            self.current = next;
            self.phase = Phase::Challenge;
            return;
        }
        if t.draw_lose > 0 {
            self.draw_cards(next as usize, t.draw_lose as usize);
            next = self.step_in(next, 1);
            self.free_play = false;
        } else if t.draw_keep > 0 {
            self.draw_cards(next as usize, t.draw_keep as usize);
        }
        self.current = next;
        self.phase = Phase::Play;
        self.begin_turn();
    }

    // ----- the joker challenge (options.joker_bluff) -------------------------------------

    /// Bitset of the held faces that may be played as a bluff: wilds restricted to "no other
    /// playable card" that are otherwise playable now.
    fn bluff_bits(&self) -> u64 {
        let p = self.current as usize;
        let mut out = 0u64;
        for c in self.hands[p].faces() {
            if self.wild_of(c, p).is_some_and(|w| w.only_if_no_other) && self.playable_basic(c) {
                out |= bit(c);
            }
        }
        out
    }

    /// The challenged player's decision: an illegal joker goes back and its player draws the
    /// penalty and misses their next turn, then the challenger plays on the previous top card;
    /// a legal joker (or no challenge) makes the challenger draw (plus [`CHALLENGE_EXTRA`] for
    /// a failed challenge) and lose the turn.
    fn resolve_challenge(&mut self, challenge: bool) {
        let b = self.challenge.take().expect("phase challenge holds a bluff");
        let q = self.current;
        self.phase = Phase::Play;
        if challenge && !b.legal {
            let joker = self.discard.pop().expect("the joker is on top");
            self.hands[b.by as usize].add(joker);
            self.plays = self.plays.saturating_sub(1);
            self.nominated = b.prev_nominated.map(|i| Suit::ALL[i as usize]);
            self.free_play = b.prev_free_play;
            self.restrict = b.prev_restrict;
            self.draw_cards(b.by as usize, b.amount as usize);
            self.missed |= 1 << b.by;
            self.begin_turn();
            return;
        }
        let k = b.amount.saturating_add(if challenge { CHALLENGE_EXTRA } else { 0 });
        self.draw_cards(q as usize, k as usize);
        self.free_play = false;
        self.current = self.skip_done(self.advance(q, 1));
        self.begin_turn();
    }

    /// Was bluff `b` (whose joker is the top card) legal, judged on the current hands? Used to
    /// keep a determinized copy consistent with its re-dealt hands.
    fn bluff_legal(&self, b: &Bluff) -> bool {
        let mut h = self.clone();
        let Some(joker) = h.discard.pop() else { return b.legal };
        h.nominated = b.prev_nominated.map(|i| Suit::ALL[i as usize]);
        h.free_play = b.prev_free_play;
        h.restrict = b.prev_restrict;
        h.current = b.by;
        h.phase = Phase::Play;
        h.turn = Turn::default();
        h.playable(joker)
    }

    // ----- interludes: the mirror window and the five-card rule ------------------------

    /// E08 on E09: the first seat, `from` or more places after `p`, holding a mirroring card of
    /// the suit of `top` (the others_draw card).
    fn mirror_candidate(&self, p: u8, top: Card, from: u8) -> Option<u8> {
        let suit = top.suit()?;
        let q = Card::new(suit, crate::card::Rank::Queen);
        if !self.rules.card[q.index()].mirror {
            return None;
        }
        (from..self.n).find(|&k| self.hands[self.advance(p, k as usize) as usize].contains(q))
    }

    /// Cards the player made to mirror a three picks up: what every other player would have.
    fn mirror_amount(&self) -> u16 {
        (self.n as u16 - 1) * self.interlude.per_player
    }

    /// Legal actions in the mirror window.
    fn mirror_actions(&self, mask: &mut ActionMask) {
        let il = &self.interlude;
        let hand = &self.hands[self.current as usize];
        let mut any = false;
        match il.victim {
            None => {
                let suit = Suit::ALL[il.suit as usize];
                let q = Card::new(suit, crate::card::Rank::Queen);
                if hand.contains(q) {
                    mask.set(action::PLAY + q.index());
                    any = true;
                }
                mask.set(action::PASS);
            }
            Some(_) => {
                for c in hand.faces() {
                    if self.rules.card[c.index()].mirror {
                        mask.set(action::PLAY + c.index());
                        any = true;
                    }
                }
                mask.set(action::ACCEPT);
            }
        }
        if any && self.announce_allowed() {
            mask.set(action::ANNOUNCE);
        }
    }

    /// A mirroring card played in the window: the duty to pick up for everyone passes to the
    /// player of the three, or back to the player of the previous mirror.
    fn mirror_play(&mut self, c: Card) {
        let q = self.current;
        self.hands[q as usize].remove(c);
        self.discard.push(c);
        self.plays += 1;
        self.nominated = None;
        let victim = match self.interlude.victim {
            None => self.interlude.origin,
            Some(_) => self.interlude.mirror_by,
        };
        if self.hands[q as usize].is_empty() {
            // Out with the queen: the hand ends and the effect is ignored (G9).
            self.end_hand(Some(q), false);
            return;
        }
        if self.rules.spec.last_card.mode == LastCardMode::Action
            && self.hands[q as usize].len() == 1
            && !self.turn.announced
        {
            self.draw_cards(q as usize, self.rules.spec.last_card.penalty as usize);
        }
        self.turn = Turn::default();
        self.interlude.victim = Some(victim);
        self.interlude.mirror_by = q;
        self.current = victim;
        let can_mirror = self.hands[victim as usize].faces().any(|x| self.rules.card[x.index()].mirror);
        if !can_mirror {
            self.mirror_accept();
        }
    }

    /// A polled player declines to mirror: ask the next one, or everyone else picks up.
    fn mirror_pass(&mut self) {
        self.turn = Turn::default();
        let il = self.interlude;
        let top = self.discard.top().expect("a card was placed");
        match self.mirror_candidate(il.origin, top, il.seat + 1) {
            Some(k) => {
                self.interlude.seat = k;
                self.current = self.advance(il.origin, k as usize);
            }
            None => {
                for k in 1..self.n as usize {
                    let q = self.advance(il.origin, k) as usize;
                    self.draw_cards(q, il.per_player as usize);
                }
                self.close_interlude();
            }
        }
    }

    /// The player made to mirror picks up for everyone; the window closes.
    fn mirror_accept(&mut self) {
        let k = self.mirror_amount() as usize;
        self.draw_cards(self.current as usize, k);
        self.close_interlude();
    }

    fn close_interlude(&mut self) {
        self.turn = Turn::default();
        self.current = self.interlude.resume;
        self.interlude = Interlude::default();
        self.phase = if self.chain.active { Phase::Chain } else { Phase::Play };
        self.begin_turn();
    }

    /// The start of a turn: apply the five-card rule (`stock.exhausted = keep_five`) when the
    /// stock holds fewer than five cards and someone holds more than five.
    fn begin_turn(&mut self) {
        // A seat that misses its next turn (a challenged illegal joker) is passed over once.
        while self.missed & (1 << self.current) != 0 && self.phase == Phase::Play && !self.terminal {
            self.missed &= !(1 << self.current);
            self.current = self.step_in(self.current, 1);
        }
        if self.rules.spec.stock.exhausted != Exhausted::KeepFive || self.stock.len() >= 5 || self.terminal {
            return;
        }
        let resume = self.current;
        if let Some(k) = (0..self.n).find(|&k| self.hands[self.advance(resume, k as usize) as usize].len() > 5) {
            self.interlude = Interlude { kind: InterludeKind::KeepFive, resume, seat: k, ..Interlude::default() };
            self.kept.clear();
            self.current = self.advance(resume, k as usize);
            self.phase = Phase::Keep;
        }
    }

    /// One card chosen to keep; at five, the rest of the hand goes to the stock.
    fn keep_card(&mut self, c: Card) {
        let q = self.current as usize;
        self.kept.add(c);
        if self.kept.len() < 5 {
            return;
        }
        for f in self.hands[q].faces() {
            for _ in self.kept.count(f)..self.hands[q].count(f) {
                self.stock.push(f);
            }
        }
        self.hands[q] = self.kept;
        self.kept.clear();
        let resume = self.interlude.resume;
        let next = (self.interlude.seat + 1..self.n)
            .find(|&k| self.hands[self.advance(resume, k as usize) as usize].len() > 5);
        match next {
            Some(k) => {
                self.interlude.seat = k;
                self.current = self.advance(resume, k as usize);
            }
            None => {
                self.stock.as_mut_slice().shuffle(&mut self.rng);
                self.current = resume;
                self.interlude = Interlude::default();
                self.phase = if self.chain.active { Phase::Chain } else { Phase::Play };
            }
        }
    }

    /// Take one card for a draw, refilling the stock per `stock.exhausted` (G1).
    fn draw_one(&mut self) -> Option<Card> {
        if self.stock.is_empty() {
            self.refill_stock();
        }
        self.stock.pop()
    }

    fn refill_stock(&mut self) {
        let Some(top) = self.discard.top() else {
            return;
        };
        if self.discard.len() < 2 {
            return;
        }
        match self.rules.spec.stock.exhausted {
            Exhausted::ReshuffleAllButTop | Exhausted::KeepFive => {
                for &c in &self.discard.as_slice()[..self.discard.len() - 1] {
                    self.stock.push(c);
                }
                self.stock.as_mut_slice().shuffle(&mut self.rng);
            }
            Exhausted::TurnOverNoShuffle => {
                // Flip the pile minus its top as a block: the oldest discard is drawn first.
                let under = self.discard.len() - 1;
                for i in (0..under).rev() {
                    let c = self.discard.as_slice()[i];
                    self.stock.push(c);
                }
            }
            Exhausted::NoReshuffle => return,
        }
        self.discard.clear();
        self.discard.push(top);
    }

    /// `p` draws `k` cards one at a time (G2); if none can be produced the rest lapses (G1).
    fn draw_cards(&mut self, p: usize, k: usize) {
        for _ in 0..k {
            match self.draw_one() {
                Some(c) => self.hands[p].add(c),
                None => break,
            }
        }
    }

    fn draw_action(&mut self) {
        let p = self.current as usize;
        let rules = self.rules.clone();
        let d = &rules.spec.draw;
        let mut got = None;
        let mut take = |g: &mut Game| -> bool {
            match g.draw_one() {
                Some(c) => {
                    g.hands[p].add(c);
                    g.turn.drawn += 1;
                    g.turn.drawn_card = Some(c);
                    got = Some(c);
                    true
                }
                None => false,
            }
        };
        match d.mode {
            DrawMode::One | DrawMode::UpTo => {
                take(self);
            }
            DrawMode::UntilPlayable => {
                while take(self) {
                    if self.has_playable() {
                        break;
                    }
                }
            }
            DrawMode::UntilPlayableOrHand => {
                if self.hands[p].len() >= d.limit as usize {
                    take(self);
                } else {
                    while take(self) {
                        if self.has_playable() || self.hands[p].len() >= d.limit as usize {
                            break;
                        }
                    }
                }
            }
        }
        if got.is_some() {
            self.pass_streak = 0;
        }
        let asked = matches!(self.restrict, Restrict::Ask(_));
        let drawn_playable = !asked && self.turn.drawn_card.is_some_and(|c| self.playable(c));
        let go_on = match d.after {
            DrawAfter::EndTurn => false,
            DrawAfter::MayPlayDrawn | DrawAfter::MustPlayDrawnIfPlayable => drawn_playable,
            DrawAfter::MayPlayAny | DrawAfter::MustPlayWhenFound => {
                !asked
                    && (self.has_playable()
                        || (d.mode == DrawMode::UpTo && self.turn.drawn < d.limit && self.can_draw()))
            }
        };
        if go_on {
            self.phase = Phase::AfterDraw;
        } else {
            self.end_turn_without_play();
        }
    }

    fn end_turn_without_play(&mut self) {
        self.turn = Turn::default();
        self.free_play = false;
        self.restrict = Restrict::None;
        self.current = self.step_in(self.current, 1);
        self.phase = Phase::Play;
        self.begin_turn();
    }

    fn accept(&mut self) {
        let p = self.current as usize;
        let k = self.chain.amount as usize;
        let origin_suit = self.chain.origin.and_then(Card::suit);
        self.chain = Chain::default();
        let mut pickups = 0u64;
        for _ in 0..k {
            match self.draw_one() {
                Some(c) => {
                    self.hands[p].add(c);
                    if self.rules.card[c.index()].chain.is_some() {
                        pickups |= bit(c);
                    }
                }
                None => break,
            }
        }
        if pickups != 0 && self.rules.spec.options.replay_drawn_pickup == Some(true) && self.went_out.is_none() {
            // bitch (A10): one drawn pick-up card may be laid at once, ignoring matching.
            self.turn.replay = pickups;
            self.phase = Phase::AfterDraw;
            return;
        }
        if let Some(w) = self.went_out {
            self.end_hand(Some(w), false);
            return;
        }
        if self.rules.spec.chain.accept_ends_turn {
            self.end_turn_without_play();
            if self.rules.spec.chain.after == crate::rules::ChainAfter::AttackSuitOnly {
                // one_card: after the pick-up the next player follows the attacking ace's suit.
                if let Some(s) = origin_suit {
                    self.restrict = Restrict::Suit(s as u8);
                }
            }
        } else {
            // The penalty counts as this turn's draw (crazy_pairs A02): play, pass or draw once more.
            self.turn.accepted = true;
            self.phase = Phase::Play;
        }
    }

    fn pass(&mut self) {
        if self.rules.spec.passing.all_pass == crate::rules::AllPass::PassIsFinal && !self.can_draw() {
            // kings_reverse: a player who passes on an empty stock is done for the hand.
            self.done |= 1 << self.current;
            if self.done.count_ones() >= self.n as u32 {
                self.end_hand(None, true);
            } else {
                self.end_turn_without_play();
            }
            return;
        }
        let blocked_pass = !self.can_draw();
        if blocked_pass {
            self.pass_streak += 1;
        }
        let needed = self.n as u16 + u16::from(self.rules.spec.end.blocked_extra_passes);
        if blocked_pass && u16::from(self.pass_streak) >= needed && self.rules.spec.end.blocked {
            self.end_hand(None, true);
            return;
        }
        self.end_turn_without_play();
    }

    // ----- scoring ---------------------------------------------------------------------

    /// Hand value of seat `p` under the preset's values and modifiers.
    pub fn hand_value(&self, p: usize) -> i32 {
        let s = &self.rules.spec.score;
        let last = self.discard.top();
        let mut total = 0;
        for c in self.hands[p].iter() {
            let mut v = self.rules.points[c.index()];
            if s.double_last_rank {
                if let Some(l) = last {
                    let group = |x: Card| {
                        x.rank().map(|r| match r.index() {
                            1..=4 => 0,
                            5..=8 => 1,
                            9..=12 => 2,
                            _ => 3,
                        })
                    };
                    let doubled = l.is_joker()
                        || (c.rank().is_some() && c.rank() == l.rank())
                        || (s.double_trouble && group(c).is_some() && group(c) == group(l));
                    if doubled {
                        v *= 2;
                    }
                }
            }
            total += v;
        }
        let doubles: u32 = self.hands[p].iter().filter(|c| self.rules.double_mask & bit(*c) != 0).count() as u32;
        let halves: u32 = if s.halve_per_identical_pair {
            self.hands[p].faces().map(|c| u32::from(self.hands[p].count(c) / 2)).sum()
        } else {
            0
        };
        if doubles + halves > 0 {
            // Double per deuce, halve per identical pair, rounding down once at the end.
            let scaled = (total as i64) << doubles.min(30);
            total = (scaled >> halves.min(62)) as i32;
        }
        total
    }

    fn end_hand(&mut self, winner: Option<u8>, blocked: bool) {
        let n = self.n as usize;
        // end.play_for_second: a hand blocked after the first player went out is still theirs.
        let winner = winner.or_else(|| self.finishing_order().first().copied());
        if let Some(w) = winner {
            self.place(w);
        }
        // The rules by reference count (not a copy of the score spec): no allocation per hand.
        let rules = self.rules.clone();
        let s = &rules.spec.score;
        let mut all_values = [0i32; MAX_PLAYERS];
        for (p, v) in all_values[..n].iter_mut().enumerate() {
            *v = self.hand_value(p);
        }
        let values = &all_values[..n];
        let mut pts = [0i32; MAX_PLAYERS];
        let lowest_unique = || -> Option<u8> {
            let min = *values.iter().min()?;
            let mut it = values.iter().enumerate().filter(|(_, v)| **v == min);
            let first = it.next()?.0;
            it.next().is_none().then_some(first as u8)
        };
        let mut hand_winner = winner;
        match s.mode {
            ScoreMode::Penalty => {
                if winner.is_some() || s.blocked == BlockedScoring::AllScore {
                    pts[..n].copy_from_slice(values);
                }
                if blocked {
                    hand_winner = lowest_unique();
                }
            }
            ScoreMode::WinnerCollects | ScoreMode::PerCard => {
                let collector = match (winner, s.blocked) {
                    (Some(w), _) => Some(w),
                    (None, BlockedScoring::LowestCollects) => lowest_unique(),
                    _ => None,
                };
                if let Some(w) = collector {
                    pts[w as usize] = (0..n)
                        .filter(|&q| q != w as usize)
                        .map(|q| if s.mode == ScoreMode::PerCard { self.hands[q].len() as i32 } else { values[q] })
                        .sum();
                    hand_winner = Some(w);
                }
            }
            ScoreMode::Countdown | ScoreMode::None => {}
        }
        if let Some(w) = hand_winner {
            pts[w as usize] = pts[w as usize].saturating_add(s.winner_bonus);
        }
        if let Some(h) = self.hat {
            pts[h as usize] -= 10;
        }
        for p in 0..n {
            self.scores[p] = self.scores[p].saturating_add(pts[p]);
        }
        self.hand_points = pts;
        self.hand_winner = hand_winner;
        self.hands_played = self.hands_played.saturating_add(1);
        if self.rules.spec.series.play_match {
            let sc = &self.scores[..n];
            let reached = match (self.rules.series_target, self.rules.spec.series.winner) {
                (None, _) => false,
                (Some(t), SeriesWinner::LastBelow) => sc.iter().filter(|&&x| x < t as i32).count() <= 1,
                (Some(t), _) => sc.iter().any(|&x| x >= t as i32),
            };
            let max_hands = self.rules.spec.series.max_hands.is_some_and(|m| self.hands_played >= m);
            // options.allow_500: reaching 500 wins at once; it is checked before the last-below
            // rule, so a hand that does both is won at 500.
            let at_500 = self.rules.spec.options.allow_500 && sc.iter().any(|&x| x >= crate::rules::ALLOW_500_SCORE);
            if at_500 {
                self.winner = self.highest_unique();
                self.finish();
            } else if reached || max_hands {
                self.winner = self.series_winner();
                self.finish();
            } else {
                self.loser = self.hand_loser(hand_winner);
                self.dealer = match self.rules.spec.order.next_dealer {
                    crate::rules::NextDealer::Clockwise => (self.dealer + 1) % self.n,
                    crate::rules::NextDealer::Winner => hand_winner.unwrap_or((self.dealer + 1) % self.n),
                    crate::rules::NextDealer::Fixed => self.dealer,
                };
                self.deal_hand(&[]);
            }
        } else {
            self.winner = hand_winner;
            self.finish();
        }
    }

    /// The loser of the hand just ended (`order.first = previous_loser`): the last place of
    /// the finishing order when it is complete (`end.play_for_second`), otherwise the player
    /// other than the winner holding the most cards, ties going to the first in turn order
    /// from the winner (from the dealer when there is no winner).
    fn hand_loser(&self, winner: Option<u8>) -> Option<u8> {
        let n = self.n as usize;
        if self.placed as usize == n {
            return Some(self.places[n - 1]);
        }
        let from = winner.unwrap_or(self.dealer);
        let mut best: Option<(usize, u8)> = None;
        for k in 1..=n {
            let q = self.advance(from, k);
            if Some(q) == winner {
                continue;
            }
            let len = self.hands[q as usize].len();
            if best.is_none_or(|(b, _)| len > b) {
                best = Some((len, q));
            }
        }
        best.map(|(_, q)| q)
    }

    /// The seat with the strictly highest match total (`options.allow_500`), if unique.
    fn highest_unique(&self) -> Option<u8> {
        let sc = &self.scores[..self.n as usize];
        let best = *sc.iter().max()?;
        let mut it = sc.iter().enumerate().filter(|(_, v)| **v == best);
        let first = it.next()?.0;
        it.next().is_none().then_some(first as u8)
    }

    fn series_winner(&self) -> Option<u8> {
        let sc = &self.scores[..self.n as usize];
        if let (SeriesWinner::LastBelow, Some(t)) = (self.rules.spec.series.winner, self.rules.series_target) {
            let mut below = sc.iter().enumerate().filter(|(_, v)| **v < t as i32);
            let first = below.next()?.0;
            return below.next().is_none().then_some(first as u8);
        }
        let best = match self.rules.spec.series.winner {
            SeriesWinner::Lowest | SeriesWinner::LastBelow => *sc.iter().min()?,
            SeriesWinner::FirstToReach => *sc.iter().max()?,
        };
        let mut it = sc.iter().enumerate().filter(|(_, v)| **v == best);
        let first = it.next()?.0;
        it.next().is_none().then_some(first as u8)
    }

    fn finish(&mut self) {
        self.terminal = true;
        self.interlude = Interlude::default();
        self.kept.clear();
        self.challenge = None;
        self.phase = Phase::GameOver;
        self.turn = Turn::default();
        self.chain = Chain::default();
    }

    /// Returns per seat. `score == false`: win/loss, winner +1 and the others -1/(n-1), all 0
    /// without a winner or before the end; under `end.play_for_second` +1 / 0 / -1 for the
    /// first, second and third places (a hand blocked after the first place: +1, -1/2, -1/2). `score == true`: zero-sum points, see
    /// [`Game::score_returns`].
    pub fn returns(&self, out: &mut [f64], score: bool) {
        let n = self.n as usize;
        out[..n].fill(0.0);
        if !self.terminal {
            return;
        }
        if score && !matches!(self.rules.spec.score.mode, ScoreMode::None | ScoreMode::Countdown) {
            self.score_returns(out);
            return;
        }
        if self.for_second() && self.placed as usize == n {
            // end.play_for_second: the reward is the finishing order, +1 / 0 / -1.
            for (k, &p) in self.finishing_order().iter().enumerate() {
                out[p as usize] = 1.0 - k as f64;
            }
            return;
        }
        if let Some(w) = self.winner {
            for (p, o) in out[..n].iter_mut().enumerate() {
                *o = if p == w as usize { 1.0 } else { -1.0 / (n as f64 - 1.0) };
            }
        }
    }

    /// Zero-sum score returns: each player's episode points against the table mean, divided
    /// by 100 and signed so that higher is better (penalty points count against).
    pub fn score_returns(&self, out: &mut [f64]) {
        let n = self.n as usize;
        let sc = &self.scores[..n];
        let mean = sc.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
        let sign = if self.rules.spec.score.mode == ScoreMode::Penalty { -1.0 } else { 1.0 };
        for p in 0..n {
            out[p] = sign * (sc[p] as f64 - mean) / 100.0;
        }
    }

    // ----- positions and state -----------------------------------------------------------

    /// Build a mid-hand position (see [`Position`]). Every listed card must exist in the
    /// deck; unlisted cards go to the stock when `stock` is `None`, and are out of play when
    /// it is given.
    pub fn from_position(rules: Arc<Rules>, pos: &Position) -> Result<Game, GameError> {
        let n = rules.num_players as usize;
        let bad = |m: String| Err(GameError::InvalidPosition(m));
        if pos.hands.len() != n {
            return bad(format!("hands: expected {n} hands (one per seat), got {}", pos.hands.len()));
        }
        if pos.discard.is_empty() && rules.spec.deal.starter != crate::rules::Starter::None {
            return bad("discard: the discard pile needs at least its top card".into());
        }
        if pos.current_player >= n {
            return bad(format!("current_player must be in 0..{n}, got {}", pos.current_player));
        }
        if pos.direction != 1 && pos.direction != -1 {
            return bad(format!("direction must be 1 or -1, got {}", pos.direction));
        }
        let dealer = pos.dealer.unwrap_or(n - 1);
        if dealer >= n {
            return bad(format!("dealer must be in 0..{n}, got {dealer}"));
        }
        let mut used = CardCounts::new();
        let all = pos
            .hands
            .iter()
            .flatten()
            .chain(pos.discard.iter())
            .chain(pos.stock.iter().flatten())
            .chain(pos.rogue.iter());
        for &c in all {
            used.add(c);
            if used.count(c) > rules.deck.count(c) {
                return bad(format!("{c} appears {} times but the deck holds {}", used.count(c), rules.deck.count(c)));
            }
        }
        let mut g = Game::blank(rules.clone(), pos.seed);
        for (p, h) in pos.hands.iter().enumerate() {
            g.hands[p] = h.iter().copied().collect();
        }
        for h in g.hands.iter_mut().skip(n) {
            h.clear();
        }
        g.discard = Pile::from_bottom_up(&pos.discard);
        g.rogue = Pile::from_bottom_up(&pos.rogue);
        g.stock.clear();
        match &pos.stock {
            Some(s) => {
                for &c in s.iter().rev() {
                    g.stock.push(c);
                }
            }
            None => {
                for c in rules.deck.faces() {
                    for _ in used.count(c)..rules.deck.count(c) {
                        g.stock.push(c);
                    }
                }
                g.stock.as_mut_slice().shuffle(&mut g.rng);
            }
        }
        g.nominated = pos.nominated_suit;
        g.direction = pos.direction;
        g.current = pos.current_player as u8;
        g.dealer = dealer as u8;
        g.turn = Turn::default();
        g.free_play = false;
        g.chain = Chain::default();
        g.phase = Phase::Play;
        g.pass_streak = 0;
        g.went_out = None;
        if let Some(sc) = &pos.scores {
            if sc.len() != n {
                return bad(format!("scores: expected {n} scores (one per seat), got {}", sc.len()));
            }
            g.scores[..n].copy_from_slice(sc);
        }
        if pos.pending_draw > 0 {
            let Some(&top) = pos.discard.last() else {
                return bad("pending_draw needs a draw-chain card on top of the discard pile".into());
            };
            let Some(ch) = rules.card[top.index()].chain else {
                return bad(format!(
                    "pending_draw needs a draw-chain card on top; {top} starts no chain in this preset"
                ));
            };
            g.chain = Chain {
                active: true,
                amount: pos.pending_draw,
                group: ch.group,
                answer: ch.answer.into(),
                origin: Some(top),
            };
            g.phase = Phase::Chain;
        }
        Ok(g)
    }

    /// A serializable snapshot of the whole state.
    pub fn snapshot(&self) -> Snapshot {
        let n = self.n as usize;
        Snapshot {
            format: 1,
            rules: self.rules.spec.clone(),
            num_players: self.n,
            hands: (0..n).map(|p| self.hands[p].iter().collect()).collect(),
            stock: self.stock.as_slice().iter().rev().copied().collect(),
            discard: self.discard.as_slice().to_vec(),
            rogue: self.rogue.as_slice().to_vec(),
            nominated: self.nominated.map(|s| s.letter().to_string()),
            direction: self.direction,
            current: self.current,
            dealer: self.dealer,
            phase: self.phase,
            chain: self.chain,
            free_play: self.free_play,
            restrict: self.restrict,
            turn: self.turn,
            pass_streak: self.pass_streak,
            plays: self.plays,
            done: self.done,
            interlude: self.interlude,
            kept: self.kept.iter().collect(),
            challenge: self.challenge,
            missed: self.missed,
            went_out: self.went_out,
            finishing_order: self.finishing_order().to_vec(),
            previous_loser: self.loser,
            scores: self.scores[..n].to_vec(),
            hand_points: self.hand_points[..n].to_vec(),
            hand_winner: self.hand_winner,
            winner: self.winner,
            terminal: self.terminal,
            truncated: self.truncated,
            decisions: self.decisions,
            hands_played: self.hands_played,
            hat: self.hat,
            seed: self.seed,
            rng: self.rng.clone(),
        }
    }

    /// Rebuild a game from a snapshot, checking it for consistency.
    pub fn from_snapshot(s: Snapshot) -> Result<Game, GameError> {
        let n = s.num_players as usize;
        // A copy of the spec: `s` is checked as a whole below.
        let rules = Arc::new(Rules::from_spec(s.rules.clone(), n).map_err(|e| GameError::InvalidState(e.to_string()))?);
        let bad = |m: &str| Err(GameError::InvalidState(m.to_string()));
        crate::snapshot_checks::check_fields(&s, &rules).map_err(GameError::InvalidState)?;
        if s.hands.len() != n || s.scores.len() != n || s.hand_points.len() != n {
            return bad("hands, scores and hand_points need one entry per player");
        }
        if s.current as usize >= n || s.dealer as usize >= n || (s.direction != 1 && s.direction != -1) {
            return bad("current, dealer or direction out of range");
        }
        if s.discard.is_empty() && rules.spec.deal.starter != crate::rules::Starter::None {
            return bad("the discard pile needs at least its top card");
        }
        if s.went_out.is_some_and(|w| w as usize >= n)
            || s.hat.is_some_and(|w| w as usize >= n)
            || s.previous_loser.is_some_and(|w| w as usize >= n)
        {
            return bad("seat out of range");
        }
        if s.chain.active && (s.chain.group as usize) >= rules.chain_groups.len().max(1) {
            return bad("chain group out of range");
        }
        let mut used = CardCounts::new();
        for &c in s.hands.iter().flatten().chain(s.stock.iter()).chain(s.discard.iter()).chain(s.rogue.iter()) {
            used.add(c);
            if used.count(c) > rules.deck.count(c) {
                return bad("more copies of a card than the deck holds");
            }
        }
        let mut g = Game::blank(rules, s.seed);
        for p in 0..MAX_PLAYERS {
            g.hands[p] = s.hands.get(p).map(|h| h.iter().copied().collect()).unwrap_or_default();
        }
        g.stock = Pile::from_bottom_up(&s.stock.iter().rev().copied().collect::<Vec<_>>());
        g.discard = Pile::from_bottom_up(&s.discard);
        g.rogue = Pile::from_bottom_up(&s.rogue);
        g.nominated =
            match s.nominated.as_deref() {
                None => None,
                Some(x) => Some(Suit::parse(x).ok_or_else(|| {
                    GameError::InvalidState(format!("nominated: unknown suit {x:?} (use C, D, H or S)"))
                })?),
            };
        g.direction = s.direction;
        g.current = s.current;
        g.dealer = s.dealer;
        g.phase = s.phase;
        g.chain = s.chain;
        g.free_play = s.free_play;
        g.restrict = s.restrict;
        g.turn = s.turn;
        g.pass_streak = s.pass_streak;
        g.plays = s.plays;
        g.done = s.done;
        let il = s.interlude;
        let seats = [il.resume, il.origin, il.seat, il.mirror_by, il.victim.unwrap_or(0)];
        if seats.iter().any(|&x| x as usize >= n) || il.suit >= 4 {
            return bad("interlude seat or suit out of range");
        }
        let in_window = il.kind == InterludeKind::MirrorThree;
        if in_window != (s.phase == Phase::Chain && !s.chain.active && il.kind != InterludeKind::None)
            || (il.kind == InterludeKind::KeepFive) != (s.phase == Phase::Keep)
        {
            return bad("interlude kind does not fit the phase");
        }
        g.interlude = il;
        g.kept = s.kept.iter().copied().collect();
        let keeper = &g.hands[g.current as usize];
        if g.kept.faces().any(|c| g.kept.count(c) > keeper.count(c)) || g.kept.len() >= 5 {
            return bad("kept cards must be fewer than five cards of the keeper's hand");
        }
        let bluff_ok = |b: &Bluff| {
            b.by as usize >= n
                || b.prev_nominated.is_some_and(|x| x >= 4)
                || !g.rules.spec.options.joker_bluff
                || !g.discard.top().is_some_and(|t| g.rules.card[t.index()].wild.is_some_and(|w| w.only_if_no_other))
        };
        if (s.phase == Phase::Challenge) != s.challenge.is_some()
            || s.challenge.as_ref().is_some_and(|b| bluff_ok(b) || b.by == s.current || b.amount == 0)
            || s.turn.bluff.as_ref().is_some_and(|b| bluff_ok(b) || b.by != s.current)
        {
            return bad("challenge does not fit the phase, the options or the top card");
        }
        if u32::from(s.missed) >> n != 0 {
            return bad("missed turns name a seat out of range");
        }
        if u32::from(s.done) >> n != 0 {
            return bad("players out of the hand name a seat out of range");
        }
        let fo = &s.finishing_order;
        if fo.len() > n || fo.iter().any(|&p| p as usize >= n) || (1..fo.len()).any(|i| fo[..i].contains(&fo[i])) {
            return bad("finishing_order must list distinct seats in range");
        }
        let for_second = g.rules.spec.end.play_for_second && n == 3;
        if !s.terminal
            && (fo.len() > usize::from(for_second)
                || fo.iter().any(|&p| !s.hands[p as usize].is_empty() || s.done & (1 << p) == 0))
        {
            return bad(
                "finishing_order mid-hand: only the first place under end.play_for_second, with an empty hand \
                 and marked out of the hand",
            );
        }
        if !s.terminal && !fo.is_empty() && s.current == fo[0] {
            return bad("the player to act is out of the hand");
        }
        g.challenge = s.challenge;
        g.missed = s.missed;
        g.went_out = s.went_out;
        for &p in &s.finishing_order {
            g.place(p);
        }
        g.loser = s.previous_loser;
        g.scores = [0; MAX_PLAYERS];
        g.scores[..n].copy_from_slice(&s.scores);
        g.hand_points = [0; MAX_PLAYERS];
        g.hand_points[..n].copy_from_slice(&s.hand_points);
        g.hand_winner = s.hand_winner;
        g.winner = s.winner;
        g.terminal = s.terminal;
        g.truncated = s.truncated;
        g.decisions = s.decisions;
        g.hands_played = s.hands_played;
        g.hat = s.hat;
        g.rng = s.rng;
        crate::snapshot_checks::check_game(&g).map_err(GameError::InvalidState)?;
        Ok(g)
    }

    /// A text picture of the table with suit symbols (every hand shown).
    pub fn render(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let n = self.n as usize;
        let _ = writeln!(
            s,
            "{} · {} players · hand {} · decision {}",
            self.rules.spec.name,
            n,
            self.hands_played + u32::from(!self.terminal),
            self.decisions
        );
        let top = self.discard.top().map_or("-".to_string(), |c| c.symbol());
        let suit = match (self.nominated, self.active_suit()) {
            (Some(x), _) => format!("  suit {} nominated", x.symbol()),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "Top: {top}{suit}   Stock: {}   Discard: {}   Direction: {}",
            self.stock.len(),
            self.discard.len(),
            if self.direction > 0 { "clockwise" } else { "anticlockwise" }
        );
        if self.chain.active {
            let _ = writeln!(s, "Pending: draw {}", self.chain.amount);
        }
        if self.free_play {
            let _ = writeln!(s, "Free play: any card may be played");
        }
        for p in 0..n {
            let marker = if self.current_player() == Some(p) { "▶" } else { " " };
            let cards: Vec<String> = self.hands[p].iter().map(|c| c.symbol()).collect();
            let dealer = if p == self.dealer as usize { " (dealer)" } else { "" };
            let _ = writeln!(s, "{marker} P{p}{dealer} [{}]: {}", self.hands[p].len(), cards.join(" "));
        }
        if self.terminal {
            match self.winner {
                Some(w) => {
                    let _ = writeln!(s, "Game over: P{w} wins. Hand points: {:?}", self.hand_points());
                }
                None => {
                    let _ = writeln!(s, "Game over: no winner. Hand points: {:?}", self.hand_points());
                }
            }
        } else if self.truncated {
            let _ = writeln!(s, "Truncated at the decision limit");
        } else {
            let _ = writeln!(s, "P{} to act ({})", self.current, self.phase.name());
        }
        s
    }

    /// Every card of the deck is in exactly one place (hands, stock, discard pile).
    pub fn card_count(&self) -> CardCounts {
        let mut all = CardCounts::new();
        for p in 0..self.n as usize {
            for c in self.hands[p].iter() {
                all.add(c);
            }
        }
        for &c in self.stock.as_slice().iter().chain(self.discard.as_slice()).chain(self.rogue.as_slice()) {
            all.add(c);
        }
        all
    }
}

/// The serialized form of a [`Game`] (`to_dict`, pickle). Field names are stable.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    pub went_out: Option<u8>,
    /// Seats in the order they went out this hand (see [`Game::finishing_order`]).
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
    pub seed: u64,
    pub rng: Xoshiro256PlusPlus,
}

/// Derive the seed of game `i` from a base seed (SplitMix64 finaliser), so batches of games
/// are reproducible whatever order or thread they run in.
pub fn derive_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[allow(dead_code)]
const _: () = assert!(NUM_FACES == 54);

#[cfg(test)]
mod bit_tests {
    use super::*;

    #[test]
    fn held_bits_marks_exactly_the_nonzero_counts() {
        let mut counts = [0u8; NUM_FACES];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x = derive_seed(x, 1);
            for (i, c) in counts.iter_mut().enumerate() {
                *c = [0, 0, 1, 2, 4, 128, 255, 0][((x >> (i % 60)) & 7) as usize];
            }
            let want = counts.iter().enumerate().fold(0u64, |b, (i, &k)| b | u64::from(k != 0) << i);
            assert_eq!(held_bits(&counts), want);
        }
    }
}

// ----- determinization (information sets for search agents) ------------------------------

/// Cards whose location a player knows beyond what the game tracks itself: seat `q` is known
/// to hold `in_hand[q]` (a card listed here that `q` no longer holds is ignored). The game
/// already tracks the cards each player saw go into another hand ([`SeenCards`]: gives,
/// passed and swapped hands, picked-up discards) and [`Game::determinize`] keeps those in
/// place; this is for knowledge an agent gathers on its own, passed to
/// [`Game::determinize_with`].
#[derive(Clone, Debug, Default)]
pub struct KnownCards {
    pub in_hand: [CardCounts; MAX_PLAYERS],
}

impl Game {
    /// A copy of the game as `player` could imagine it: every card hidden from `player` (the
    /// other hands and the stock) is re-dealt uniformly at random, keeping what `player`
    /// knows: its own hand, the discard pile (public), every hand size, the stock size, the
    /// cards it saw go into other hands and that are still there ([`SeenCards`]: given,
    /// passed, swapped, picked up) and the whole public state (phase, chain, turn, scores).
    /// The copy's random generator is re-seeded from `rng`, so future reshuffles do not leak
    /// either.
    ///
    /// The hidden cards are collected in card order before shuffling, so two games that
    /// `player` cannot tell apart give the same copy for the same `rng` state: a search
    /// agent built on it cannot depend on hidden information.
    ///
    /// Known limits: a stock turned over without shuffling (`turn_over_no_shuffle`) has a
    /// public order that is re-dealt here as if unknown (less information, never more); and
    /// when `player` is not the player to act during `after_draw`, the card that player just
    /// drew stays in its hand so that the turn stays consistent.
    pub fn determinize<R: rand::Rng + ?Sized>(&self, player: usize, rng: &mut R) -> Game {
        self.determinize_with(player, &KnownCards::default(), rng)
    }

    /// [`Game::determinize`] with cards known to be in other players' hands kept there.
    pub fn determinize_with<R: rand::Rng + ?Sized>(&self, player: usize, known: &KnownCards, rng: &mut R) -> Game {
        let n = self.n as usize;
        let mut g = self.clone();
        // Cards that stay where they are in every seat but `player`.
        let mut keep = [CardCounts::new(); MAX_PLAYERS];
        let seen = self.seen_cards(player);
        for q in (0..n).filter(|&q| q != player) {
            for c in known.in_hand[q].faces() {
                for _ in 0..known.in_hand[q].count(c).min(self.hands[q].count(c)) {
                    keep[q].add(c);
                }
            }
            if q == self.current as usize && self.phase == Phase::Keep {
                // The keeper's choices so far stay in its hand.
                for c in self.kept.faces() {
                    while keep[q].count(c) < self.kept.count(c) {
                        keep[q].add(c);
                    }
                }
            }
            let mut bits = seen.map_or(0, |b| b[q]);
            while bits != 0 {
                let c = Card(bits.trailing_zeros() as u8);
                bits &= bits - 1;
                debug_assert!(self.hands[q].contains(c), "a seen card is still held");
                if keep[q].count(c) == 0 && self.hands[q].contains(c) {
                    keep[q].add(c);
                }
            }
            if q == self.current as usize && self.phase == Phase::AfterDraw {
                if let Some(c) = self.turn.drawn_card.filter(|&c| self.hands[q].count(c) > keep[q].count(c)) {
                    keep[q].add(c);
                }
            }
        }
        // The hidden pool, in card order.
        let mut pool = CardCounts::new();
        for q in (0..n).filter(|&q| q != player) {
            for c in self.hands[q].iter() {
                pool.add(c);
            }
            for c in keep[q].iter() {
                pool.remove(c);
            }
        }
        for &c in self.stock.as_slice() {
            pool.add(c);
        }
        let mut cards = Pile::new();
        for c in pool.iter() {
            cards.push(c);
        }
        cards.as_mut_slice().shuffle(rng);
        let mut it = cards.as_slice().iter().copied();
        for q in (0..n).filter(|&q| q != player) {
            let size = self.hands[q].len();
            g.hands[q] = keep[q];
            while g.hands[q].len() < size {
                g.hands[q].add(it.next().expect("the pool holds every hidden card"));
            }
        }
        g.stock.clear();
        for c in it {
            g.stock.push(c);
        }
        if let Some(sc) = g.seen.as_deref_mut() {
            // What the others know about hidden hands is hidden too: keep only what `player`
            // knows as well, so the copy stays consistent with its re-dealt hands.
            let mine = sc.bits[player];
            for (o, row) in sc.bits.iter_mut().enumerate().filter(|&(o, _)| o != player) {
                for q in (0..n).filter(|&q| q != player && q != o) {
                    row[q] &= mine[q];
                }
            }
        }
        // A pending joker challenge: its legality follows the re-dealt hand of its player.
        if let Some(b) = g.challenge.filter(|b| b.by as usize != player) {
            g.challenge = Some(Bluff { legal: g.bluff_legal(&b), ..b });
        }
        if let Some(b) = g.turn.bluff.filter(|b| b.by as usize != player) {
            g.turn.bluff = Some(Bluff { legal: g.bluff_legal(&b), ..b });
        }
        g.rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
        g
    }
}
