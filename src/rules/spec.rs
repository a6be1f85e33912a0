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
//! [`super::Rules::from_spec`] validates a spec into the engine's compiled form.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// Variant overlays this preset documents: name -> partial rules table.
    pub variant: BTreeMap<String, serde_json::Value>,
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
    /// Sets suit and rank only.
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
}
impl Default for MatchSpec {
    fn default() -> Self {
        MatchSpec {
            base: "suit_or_rank".into(),
            rank_blocked: vec![],
            after_wild: AfterWild::default(),
            any_court: false,
            extra: vec![],
        }
    }
}

/// `wild.nominate` / a suit-changer's nomination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Nominate {
    #[default]
    Required,
    /// The player may keep the current suit (`end`).
    Optional,
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
    /// Top cards on which it cannot be played (selectors), besides a pending chain.
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
    /// A draw chain goes on; the round ends once it is accepted (xtreme 2).
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
    /// Slap: a real-time race, out of scope (no effect).
    pub slap: Option<bool>,
    /// How copies played together combine.
    pub repeat: Option<Repeat>,
    /// Behaviour as the last card of the winner.
    pub last_special: Option<LastSpecial>,
}

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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct PassSpec {
    pub when: PassWhen,
    pub all_pass: AllPass,
    /// A turn that can only end in a pass waits for the player's `pass` (OpenSpiel asks for
    /// it); off, the engine ends such a turn itself.
    pub explicit: bool,
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

/// `two_player.skip`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TwoPlayerSkip {
    #[default]
    SamePlayerAgain,
    RestrictedContinue,
}

/// `two_player.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct TwoPlayerSpec {
    pub reverse: TwoPlayerReverse,
    pub skip: TwoPlayerSkip,
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

/// `end.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EndSpec {
    pub empty_hand: bool,
    /// A blocked hand (nobody can play or draw) ends and is scored.
    pub blocked: bool,
    pub four_of_a_kind: bool,
    pub countdown_zero: bool,
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
            countdown_zero: false,
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
    /// Double Trouble: doubling extends to the last card's group (2–5, 6–9, faces).
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
    /// Truncate an episode after this many decisions (0 = never).
    pub max_decisions: u32,
}
impl Default for LimitsSpec {
    fn default() -> Self {
        LimitsSpec { max_decisions: 5000 }
    }
}

/// Largest match target (after `target_per_player` is multiplied by the player count), so
/// that match totals stay far from the `i32` limits.
pub const MAX_SERIES_TARGET: u32 = 1_000_000;
/// Largest magnitude of one card's points (`score.values`, `score.values_by_players`).
pub const MAX_CARD_POINTS: i32 = 10_000;
/// Largest magnitude of `score.winner_bonus`.
pub const MAX_WINNER_BONUS: i32 = 1_000_000;

impl RulesSpec {
    /// Numeric fields whose type allows values the engine cannot use safely: a message
    /// naming the field and its allowed range. `num_players` scales the per-player target.
    pub fn check_ranges(&self, num_players: usize) -> Result<(), super::RulesError> {
        let s = &self.series;
        let bad = |field: String, message: String| Err(super::RulesError::invalid(field, message));
        if let Some(t) = s.target.filter(|&t| t > MAX_SERIES_TARGET) {
            return bad("series.target".into(), format!("must be in [0, {MAX_SERIES_TARGET}], got {t}"));
        }
        if let Some(t) = s.target_per_player {
            let total = u64::from(t) * num_players as u64;
            if total > u64::from(MAX_SERIES_TARGET) {
                return bad(
                    "series.target_per_player".into(),
                    format!("times {num_players} players must be at most {MAX_SERIES_TARGET}, got {t} (total {total})"),
                );
            }
        }
        let points = |field: String, v: i32| {
            // Positive i32 constants: exact as u32.
            if v.unsigned_abs() > MAX_CARD_POINTS as u32 {
                bad(field, format!("card points must be in [-{MAX_CARD_POINTS}, {MAX_CARD_POINTS}], got {v}"))
            } else {
                Ok(())
            }
        };
        for (sel, &v) in &self.score.values {
            points(format!("score.values.{sel}"), v)?;
        }
        for (k, table) in &self.score.values_by_players {
            for (sel, &v) in table {
                points(format!("score.values_by_players.{k}.{sel}"), v)?;
            }
        }
        let b = self.score.winner_bonus;
        if b.unsigned_abs() > MAX_WINNER_BONUS as u32 {
            return bad(
                "score.winner_bonus".into(),
                format!("must be in [-{MAX_WINNER_BONUS}, {MAX_WINNER_BONUS}], got {b}"),
            );
        }
        Ok(())
    }
}
