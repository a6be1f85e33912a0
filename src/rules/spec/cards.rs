//! What a card matches and does: the `match` and `wild` tables and the effect table entry
//! ([`CardSpec`]) with its draw chains, shields, gifts and follow-ups.

use serde::{Deserialize, Serialize};

/// `match.after_wild`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum AfterWild {
    /// The nominated suit, a wild, or the wild's rank.
    #[default]
    NominatedSuitOrWild,
    /// Countdown: the nominated suit or the follower's own wild rank only.
    NominatedSuitOrOwnWild,
}

/// `match.extra` entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchExtra {
    Arithmetic,
    Sequence,
    RoguePile,
}

/// `match.next_constraint` entries that are rules of their own (the others are card effects).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MatchSpec {
    /// Only `suit_or_rank` exists.
    pub base: String,
    /// Ranks that match by suit only (one_left: 2, 3).
    pub rank_blocked: Vec<String>,
    pub after_wild: AfterWild,
    /// A court card matches any court card (switch_blackjack alternative reading).
    pub any_court: bool,
    pub extra: Vec<MatchExtra>,
    /// A named suit binds only the next player who takes a turn: when that turn ends with no
    /// card placed (a draw, a pass, a pending pick-up paid) the suit lapses, and the card that
    /// named it is then followed as the ordinary card it is. A player who misses the turn
    /// (skipped, or made to draw and lose it) takes none; a card with no suit of its own (a
    /// joker) keeps the suit it named. advanced_switch: "Special cards only affect the next
    /// person to play"; larby_switch: picking up "consumes the special effect".
    pub nomination_lapses: bool,
}
impl Default for MatchSpec {
    fn default() -> Self {
        MatchSpec {
            base: "suit_or_rank".into(),
            rank_blocked: vec![],
            after_wild: AfterWild::default(),
            any_court: false,
            extra: vec![],
            nomination_lapses: false,
        }
    }
}

/// `wild.nominate` / a suit-changer's nomination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Nominate {
    #[default]
    Required,
    /// The player may decline to name a suit (`end`): the card's own suit then stands
    /// (switch_blackjack's ace "effectively changing the suit of the ace played").
    Optional,
    /// The player may decline to name a suit (`end`): the suit in force before the card then
    /// stands (thirty_eights' eight: "leave it the one that is already there"). With no suit
    /// in force (the card was led or turned up), the card's own suit stands.
    OptionalKeepSuit,
    /// No nomination: follow the card's own suit.
    None,
    /// A different suit may be named only if the card matched the previous card.
    OnlyIfMatching,
}

/// What may follow a wild card when nothing is nominated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WildFollow {
    /// The nominated suit (or the card's own suit without nomination).
    #[default]
    Normal,
    /// Match the card under the wild (one_card joker).
    Transparent,
    /// Any card may follow (crazy_eights_winner_collects joker).
    Free,
}

/// A wild card's behaviour (`cards.<selector>.wild`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WildSpec {
    /// `false` removes the card's wildness (overlays cannot write null in TOML).
    pub enabled: bool,
    pub nominate: Nominate,
    /// The wild must itself match suit or rank.
    pub requires_match: bool,
    /// Playable only when no other card in hand is (kings_reverse jokers).
    pub only_if_no_other: bool,
    /// Top cards on which it cannot be played (selectors), besides a pending chain. A start
    /// card turned up under `start.effect = "ignore"` bars nothing until a card covers it.
    pub forbidden_on: Vec<String>,
    /// Must be the only card of its turn.
    pub solo: bool,
    /// Inside a run it may be played as an ordinary card with no power.
    pub also_normal: bool,
    pub follow: WildFollow,
}
impl Default for WildSpec {
    fn default() -> Self {
        WildSpec {
            enabled: true,
            nominate: Nominate::Required,
            requires_match: false,
            only_if_no_other: false,
            forbidden_on: vec![],
            solo: false,
            also_normal: false,
            follow: WildFollow::Normal,
        }
    }
}

/// `chain.answer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ChainAnswer {
    /// Only a card of the same chain group (by default the same rank).
    #[default]
    SameRank,
    /// Any draw card answers any draw chain.
    AnyDrawCard,
    /// Cannot be answered.
    None,
}

/// `chain.accumulate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Accumulate {
    /// Each answering card adds its own amount.
    #[default]
    Sum,
    /// Each answer adds `chain.increment`.
    Increment,
    /// The amount never grows.
    Fixed,
}

/// `draw_chain`: the next player draws unless they answer with a chain card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct DrawChainSpec {
    /// Cards to draw; 0 removes the chain (e.g. an inherited one).
    pub amount: u8,
    /// Chain group; cards of one group answer each other. Default: the card's rank.
    pub group: Option<String>,
    /// Overrides `chain.answer` for this card.
    pub answer: Option<ChainAnswer>,
    /// Answer rule of a chain to which one turn added two or more of these cards
    /// (crazy_pairs: paired fours cannot be answered).
    pub multi_answer: Option<ChainAnswer>,
    /// Overrides `chain.accumulate` for answers with this card (larby_switch: aces stay at
    /// 5 while twos add up).
    pub accumulate: Option<Accumulate>,
}

/// `shield`: protects its player from a pending draw chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct ShieldSpec {
    /// Chain groups it shields against (`"any"` for all).
    pub against: Vec<String>,
    /// The chain continues past the shielding player: the penalty is unchanged and passes to
    /// the next player (xtreme variation 6, pass-through form).
    pub pass_through: bool,
    /// The shield may only be played on a top card of its own suit (xtreme variation 6: "if it
    /// matches the suit of the top card").
    pub same_suit: bool,
}

/// `give`: its player hands cards to opponents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Give {
    /// One card to each other player, in order of play.
    EachOther,
    /// One card to the next player.
    One,
}

/// A fixed side for passing hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Left,
    Right,
    Direction,
}

/// `follow`: the follow-on kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Follow {
    /// Any number of cards of the card's suit; only the top one acts.
    SameSuitAny,
    /// One more card matching it by suit or rank; a card of the same kind chains on.
    OneMatching,
    /// No follow-on (removes an inherited one).
    None,
}

/// How several copies of a card played in one turn combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Repeat {
    /// Every copy acts (skips add, reverses by parity, draws add).
    #[default]
    Each,
    /// The effect happens once however many are played.
    Once,
}

/// `last_special` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LastSpecial {
    /// The hand ends at once; the effect is ignored.
    #[default]
    Ignored,
    /// Draws are made, then the hand is scored.
    DrawsApply,
    /// The card acts as during the hand (kings_reverse AS).
    AsDuringHand,
    /// A draw chain goes on; the round ends once it ends: accepted, broken or stopped (xtreme 2).
    ChainContinues,
    /// A player cannot go out with this card.
    CannotGoOut,
}

/// The effect table entry of one card selector (`cards.<selector>`). Every field is optional; a card
/// with no field set is ordinary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct CardSpec {
    /// The card is wild.
    pub wild: Option<WildSpec>,
    /// A suit changer that is not wild (it must match), with this nomination mode.
    pub nominate: Option<Nominate>,
    /// The next `skip` players lose their turn.
    pub skip: Option<u8>,
    /// Reverses the direction of play.
    pub reverse: Option<bool>,
    /// Starts or extends a draw chain.
    pub draw_chain: Option<DrawChainSpec>,
    /// The next player draws this many at once and loses the turn.
    pub draw_and_lose_turn: Option<u8>,
    /// The next player draws this many and then plays.
    pub draw_keep_turn: Option<u8>,
    /// Chain groups this card cancels (`"any"` for every chain).
    pub cancel: Option<Vec<String>>,
    /// Shields its player from a pending draw chain.
    pub shield: Option<ShieldSpec>,
    /// Played directly on a pending draw chain card of its suit (or on a mirroring
    /// card), it reverses the direction and sends the penalty back; played at once after an
    /// `others_draw` card of its suit, the card's player picks up for everyone.
    pub mirror: Option<bool>,
    /// Every other player draws this many.
    pub others_draw: Option<u8>,
    /// Its player hands cards to opponents.
    pub give: Option<Give>,
    /// The next player may play any card.
    pub free_play_next: Option<bool>,
    /// The next player must play a J, Q or K (any suit) or draw.
    pub next_picture: Option<bool>,
    /// rose_mau menu: after this card only even spot cards (2, 4, 6, 8, T) of the suit may follow.
    pub next_even: Option<bool>,
    /// Its player names a second suit the next player may follow.
    pub second_suit: Option<bool>,
    /// Every player passes their hand one seat this way.
    pub pass_hands: Option<Side>,
    /// Its player may swap hands with another player.
    pub swap_hand: Option<bool>,
    /// Its player names a rank the next player must play.
    pub ask_rank: Option<bool>,
    /// The next player picks up this many cards under it.
    pub pick_up_pile: Option<u8>,
    /// It must be covered by another card of its suit (or a wild).
    pub must_cover: Option<bool>,
    /// Its player takes another turn.
    pub extra_turn: Option<bool>,
    /// Its player may cover it with more cards (see [`Follow`]).
    pub follow: Option<Follow>,
    /// `follow.ends_turn`: placing it ends the turn (and any run).
    pub ends_turn: Option<bool>,
    /// A K and Q of one suit may be played together (marriage).
    pub marriage: Option<bool>,
    /// A joker playable only on a K; the next card must be a K (of the joker's colour
    /// when `deck.joker_colours_distinct`).
    pub joker_lock: Option<bool>,
    /// The next player draws this many from the shuffled discard pile.
    pub waste_draw: Option<u8>,
    /// How copies played together combine.
    pub repeat: Option<Repeat>,
    /// Behaviour as the last card of the winner.
    pub last_special: Option<LastSpecial>,
}
