//! Rules: presets, overrides and validation.
//!
//! This module owns the path from text to an engine-ready rule set:
//!
//! 1. A preset is a TOML file embedded in the crate (`src/rules/presets/*.toml`), listed by
//!    [`preset_names`]. A preset may `inherits = "other"`: unlisted settings are copied.
//! 2. User overrides (a JSON-like nested table) are deep-merged on top; a table merges key by
//!    key, anything else replaces. `variants = ["name", ...]` applies the preset's
//!    documented `variant.<name>` overlays first, then the overrides again on top.
//! 3. The merged table is deserialized into a [`RulesSpec`]; unknown fields and wrong types
//!    are errors naming the dotted field path.
//! 4. [`Rules::from_spec`] validates the spec for a player count (deck large enough,
//!    consistent options) and compiles the effect table into one [`CardRule`] per face.
//!
//! Rule dimensions that the model expresses but whose behaviour lands with a later preset
//! are rejected by validation with [`RulesError::Unsupported`], naming the field, instead of
//! being silently ignored.

pub mod describe;
pub mod spec;

use crate::card::{Card, NUM_FACES, Rank, Suit};
use crate::card_set::{CardCounts, MAX_CARDS};
use serde_json::Value;
pub use spec::*;
use std::collections::BTreeMap;

/// Most players any preset allows.
pub const MAX_PLAYERS: usize = 10;

/// Errors from loading or validating rules. Every variant names what was wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RulesError {
    #[error("unknown preset {name:?}; available presets: {available}")]
    UnknownPreset { name: String, available: String },
    #[error("invalid rules field '{field}': {message}")]
    Invalid { field: String, message: String },
    #[error("rules field '{field}' is part of the rules model but not supported by this engine version: {message}")]
    Unsupported { field: String, message: String },
}

impl RulesError {
    fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        RulesError::Invalid { field: field.into(), message: message.into() }
    }
    fn unsupported(field: impl Into<String>, message: impl Into<String>) -> Self {
        RulesError::Unsupported { field: field.into(), message: message.into() }
    }
    /// The dotted field the error is about, if any.
    pub fn field(&self) -> Option<&str> {
        match self {
            RulesError::Invalid { field, .. } | RulesError::Unsupported { field, .. } => Some(field),
            RulesError::UnknownPreset { .. } => None,
        }
    }
}

const PRESETS: &[(&str, &str)] = &[
    ("crazy_eights", include_str!("presets/crazy_eights.toml")),
    ("crazy_eights_specials", include_str!("presets/crazy_eights_specials.toml")),
    ("switch_blackjack", include_str!("presets/switch_blackjack.toml")),
    ("crazy_eights_xtreme", include_str!("presets/crazy_eights_xtreme.toml")),
    ("crazy_eights_winner_collects", include_str!("presets/crazy_eights_winner_collects.toml")),
    ("kings_reverse", include_str!("presets/kings_reverse.toml")),
    ("grandads_game", include_str!("presets/grandads_game.toml")),
    ("chase_the_ace", include_str!("presets/chase_the_ace.toml")),
    ("blackjack_forum_house", include_str!("presets/blackjack_forum_house.toml")),
    ("one_left", include_str!("presets/one_left.toml")),
    ("sevens_and_eights", include_str!("presets/sevens_and_eights.toml")),
    ("jokers_and_nines", include_str!("presets/jokers_and_nines.toml")),
    ("fat_buddah", include_str!("presets/fat_buddah.toml")),
    ("crazy_eights_countdown", include_str!("presets/crazy_eights_countdown.toml")),
    ("crazy_eights_countdown_blog", include_str!("presets/crazy_eights_countdown_blog.toml")),
    ("bitch", include_str!("presets/bitch.toml")),
    ("crazy_pairs", include_str!("presets/crazy_pairs.toml")),
    ("rose_mau", include_str!("presets/rose_mau.toml")),
    ("advanced_switch", include_str!("presets/advanced_switch.toml")),
    ("zodiac", include_str!("presets/zodiac.toml")),
    ("openspiel_crazy_eights", include_str!("presets/openspiel_crazy_eights.toml")),
    ("one_card", include_str!("presets/one_card.toml")),
    ("stalin", include_str!("presets/stalin.toml")),
    ("thirty_eights", include_str!("presets/thirty_eights.toml")),
    ("larby_switch", include_str!("presets/larby_switch.toml")),
];

/// Names of the built-in presets.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

/// The TOML text of a preset.
pub fn preset_toml(name: &str) -> Result<&'static str, RulesError> {
    PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .ok_or_else(|| RulesError::UnknownPreset { name: name.to_string(), available: preset_names().join(", ") })
}

fn toml_to_json(text: &str, what: &str) -> Result<Value, RulesError> {
    let v: toml::Value = toml::from_str(text).map_err(|e| RulesError::invalid(what, e.to_string()))?;
    serde_json::to_value(v).map_err(|e| RulesError::invalid(what, e.to_string()))
}

/// Deep merge: tables merge key by key; other values (and `null`) replace.
pub fn merge(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}

fn preset_value(name: &str, depth: usize) -> Result<Value, RulesError> {
    let mut v = toml_to_json(preset_toml(name)?, name)?;
    if let Some(parent) = v.get("inherits").and_then(Value::as_str).map(str::to_string) {
        if depth > 8 {
            return Err(RulesError::invalid("inherits", "inheritance chain too deep"));
        }
        let mut base = preset_value(&parent, depth + 1)?;
        // The child's own identity and variant list replace the parent's.
        if let Value::Object(b) = &mut base {
            b.remove("variants");
            b.remove("simplifications");
        }
        merge(&mut base, &v);
        v = base;
    }
    Ok(v)
}

/// Merge a rules table and deserialize it, naming the field on error.
pub fn spec_from_value(v: Value) -> Result<RulesSpec, RulesError> {
    let mut track = serde_path_to_error::Track::new();
    let de = serde_path_to_error::Deserializer::new(&v, &mut track);
    match <RulesSpec as serde::Deserialize>::deserialize(de) {
        Ok(s) => Ok(s),
        Err(e) => {
            let path = track.path().to_string();
            let msg = e.to_string();
            // serde reports an unknown key at its parent; add the key itself to the path.
            let field = match msg.strip_prefix("unknown field `").and_then(|r| r.split('`').next()) {
                Some(key) if path == "." || path.is_empty() => key.to_string(),
                Some(key) if path == key || path.ends_with(&format!(".{key}")) => path,
                Some(key) => format!("{path}.{key}"),
                None => path,
            };
            Err(RulesError::invalid(field, msg))
        }
    }
}

/// Load a preset with optional overrides (a nested table) into a [`RulesSpec`].
pub fn load_spec(preset: &str, overrides: Option<&Value>) -> Result<RulesSpec, RulesError> {
    let base = preset_value(preset, 0)?;
    let mut merged = base.clone();
    if let Some(o) = overrides {
        if !o.is_object() && !o.is_null() {
            return Err(RulesError::invalid("rules", "overrides must be a table (dict) of rule fields"));
        }
        if o.is_object() {
            merge(&mut merged, o);
        }
    }
    let variants: Vec<String> = match merged.get("variants") {
        None | Some(Value::Null) => vec![],
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| RulesError::invalid("variants", "expected a list of variant names"))
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(RulesError::invalid("variants", "expected a list of variant names"));
        }
    };
    if !variants.is_empty() {
        let table = merged.get("variant").cloned().unwrap_or(Value::Null);
        let mut v = base;
        for name in &variants {
            let overlay = table.get(name).ok_or_else(|| {
                let known: Vec<String> = table.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
                RulesError::invalid(
                    "variants",
                    format!(
                        "unknown variant {name:?}; this preset documents: {}",
                        if known.is_empty() { "none".to_string() } else { known.join(", ") }
                    ),
                )
            })?;
            merge(&mut v, overlay);
        }
        if let Some(o) = overrides.filter(|o| o.is_object()) {
            merge(&mut v, o);
        }
        if let Value::Object(m) = &mut v {
            m.insert("variants".into(), Value::from(variants.clone()));
        }
        merged = v;
    }
    if let Some(o) = overrides {
        clear_shadowing_tables(&mut merged, o);
    }
    let mut spec = spec_from_value(merged)?;
    if spec.name.is_empty() {
        spec.name = preset.to_string();
    }
    Ok(spec)
}

/// An explicit override of `deal.hand_size` (or `deck.packs`) means that value for every
/// player count: the preset's per-player-count table is dropped unless the override sets it
/// too.
fn clear_shadowing_tables(merged: &mut Value, over: &Value) {
    for (table, plain, by) in [("deal", "hand_size", "hand_size_by_players"), ("deck", "packs", "packs_by_players")] {
        let o = over.get(table);
        if o.and_then(|t| t.get(plain)).is_some() && o.and_then(|t| t.get(by)).is_none() {
            if let Some(Value::Object(t)) = merged.get_mut(table) {
                t.insert(by.to_string(), Value::Object(Default::default()));
            }
        }
    }
}

/// A card selector resolved to a set of faces, with its specificity (higher wins).
fn parse_selector(sel: &str) -> Option<(u64, u8)> {
    let s = sel.trim();
    let lower = s.to_ascii_lowercase();
    let mask_of = |f: &dyn Fn(Card) -> bool| Card::all().filter(|&c| f(c)).fold(0u64, |m, c| m | 1 << c.index());
    if lower == "joker" || lower == "jokers" {
        return Some((mask_of(&|c| c.is_joker()), 1));
    }
    if lower == "any" {
        return Some((mask_of(&|_| true), 0));
    }
    if let Some(rest) = lower.strip_prefix("red ").or_else(|| lower.strip_prefix("black ")) {
        let red = lower.starts_with("red");
        let r = Rank::parse(rest)?;
        return Some((mask_of(&|c| c.rank() == Some(r) && c.is_red() == red), 1));
    }
    if let Some(r) = Rank::parse(s) {
        return Some((mask_of(&|c| c.rank() == Some(r)), 0));
    }
    let c: Card = s.parse().ok()?;
    Some((1u64 << c.index(), 2))
}

fn selector_mask(field: &str, sel: &str) -> Result<(u64, u8), RulesError> {
    parse_selector(sel).ok_or_else(|| {
        RulesError::invalid(
            field,
            format!("unknown card selector {sel:?}: use a rank (\"8\", \"T\"), a card (\"QS\"), a colour group (\"black J\"), \"joker\", \"RJ\" or \"BJ\""),
        )
    })
}

/// A draw chain carried by a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainRule {
    /// Answer rule when one turn adds two or more of these cards.
    pub multi_answer: Option<ChainAnswer>,
    pub amount: u8,
    /// Chain group id (index into [`Rules::chain_groups`]).
    pub group: u8,
    pub answer: ChainAnswer,
    /// How an answer with this card grows the pending penalty.
    pub accumulate: Accumulate,
}

/// A wild card's compiled behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WildRule {
    /// Inside a run it is an ordinary card (zodiac 8s).
    pub also_normal: bool,
    pub requires_match: bool,
    pub only_if_no_other: bool,
    /// Faces on which it may not be played.
    pub forbidden_on: u64,
    pub solo: bool,
    pub follow: WildFollow,
}

/// Everything one card face does under a rule set: the compiled effect table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardRule {
    pub wild: Option<WildRule>,
    /// Nomination after placing it (wilds and suit changers); `None` for no nomination.
    pub nominate: Option<Nominate>,
    pub skip: u8,
    pub reverse: bool,
    pub chain: Option<ChainRule>,
    pub draw_lose: u8,
    pub draw_keep: u8,
    /// Chain groups cancelled (bit per group; all bits for "any").
    pub cancel: u32,
    pub free_play_next: bool,
    pub follow: Option<Follow>,
    pub ends_turn: bool,
    pub extra_turn: bool,
    pub others_draw: u8,
    /// E10: cards handed to opponents.
    pub give: Option<Give>,
    /// E23: the next player draws this many from the shuffled waste pile.
    pub waste_draw: u8,
    /// E21: K and Q of one suit may be played together.
    pub marriage: bool,
    /// E12.
    pub next_picture: bool,
    /// E07: chain groups this card shields against (the attack ends, nobody draws).
    pub shield: u32,
    /// E07 pass-through: the chain goes on, unchanged, to the player after the shielding one.
    pub shield_through: bool,
    /// E07: the shield must be of the top card's suit.
    pub shield_same_suit: bool,
    /// E13.
    pub second_suit: bool,
    /// E15: the player may swap hands with another player.
    pub swap_hand: bool,
    /// E16: the player names a rank (or QS, or joker) the next player must play.
    pub ask_rank: bool,
    /// E17: the next player picks up this many cards under it and loses the turn.
    pub pick_up_pile: u8,
    /// E18: the card must be covered by one of its suit (or a wild).
    pub must_cover: bool,
    /// After it only even spot cards may follow (rose_mau menu).
    pub next_even: bool,
    /// E14.
    pub pass_hands: Option<Side>,
    /// E08: mirrors a pending draw chain or an `others_draw` card of its suit.
    pub mirror: bool,
    /// E22: playable only on a K, and only a K (of its colour) may follow it.
    pub joker_lock: bool,
    pub repeat: Repeat,
    pub last_special: LastSpecial,
}

impl CardRule {
    /// True when the card has any special effect.
    pub fn is_special(&self) -> bool {
        *self != CardRule { repeat: self.repeat, last_special: self.last_special, ..CardRule::default() }
    }
}

/// A validated rule set for a given player count, ready for the engine.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The resolved specification it was built from.
    pub spec: RulesSpec,
    pub num_players: u8,
    pub packs: u8,
    /// Copies of each face in the full deck.
    pub deck: CardCounts,
    pub hand_size: u8,
    pub card: [CardRule; NUM_FACES],
    pub points: [i32; NUM_FACES],
    /// Names of chain groups, by id.
    pub chain_groups: Vec<String>,
    /// Faces that match only by suit (`match.rank_blocked`).
    pub rank_blocked: u64,
    /// Start-card effect per face.
    pub start: [StartEffect; NUM_FACES],
    pub series_target: Option<u32>,
    /// Faces that double a hand's value when held (`score.double_per`).
    pub double_mask: u64,
    /// `match.extra` contains arithmetic (stalin).
    pub arithmetic: bool,
    /// `match.extra` contains the rogue pile (stalin).
    pub rogue: bool,
    /// Faces carrying E22 `joker_lock` (larby_switch jokers).
    pub lock_mask: u64,
    /// Some card carries E08 `mirror`.
    pub has_mirror: bool,
}

impl Rules {
    /// Load a preset with overrides and compile it for `num_players`.
    pub fn load(preset: &str, num_players: usize, overrides: Option<&Value>) -> Result<Rules, RulesError> {
        Rules::from_spec(load_spec(preset, overrides)?, num_players)
    }

    /// Validate `spec` for `num_players` and compile it.
    pub fn from_spec(spec: RulesSpec, num_players: usize) -> Result<Rules, RulesError> {
        let s = &spec;
        s.check_ranges(num_players)?;
        if s.players.min < 2 || s.players.min > s.players.max || s.players.max as usize > MAX_PLAYERS {
            return Err(RulesError::invalid(
                "players",
                format!("need 2 <= players.min <= players.max <= {MAX_PLAYERS}"),
            ));
        }
        if num_players < s.players.min as usize || num_players > s.players.max as usize {
            return Err(RulesError::invalid(
                "num_players",
                format!("{} allows {} to {} players, got {num_players}", s.name, s.players.min, s.players.max),
            ));
        }
        let n = num_players;
        // Deck.
        let mut packs = s.deck.packs;
        for (k, &p) in &s.deck.packs_by_players {
            let from: usize = k
                .parse()
                .map_err(|_| RulesError::invalid(format!("deck.packs_by_players.{k}"), "keys must be player counts"))?;
            if n >= from {
                packs = p;
            }
        }
        if packs == 0 || packs > 4 {
            return Err(RulesError::invalid("deck.packs", format!("must be 1 to 4, got {packs}")));
        }
        if s.deck.jokers != 0 && s.deck.jokers != 2 {
            return Err(RulesError::invalid(
                "deck.jokers",
                format!("jokers per pack must be 0 or 2, got {}", s.deck.jokers),
            ));
        }
        let mut deck = CardCounts::new();
        for c in Card::all() {
            let k = if c.is_joker() { packs * s.deck.jokers / 2 } else { packs };
            for _ in 0..k {
                deck.add(c);
            }
        }
        debug_assert!(deck.len() <= MAX_CARDS);
        // Deal.
        let mut hand_size = s.deal.hand_size;
        for (k, &h) in &s.deal.hand_size_by_players {
            let at: usize = k.parse().map_err(|_| {
                RulesError::invalid(format!("deal.hand_size_by_players.{k}"), "keys must be player counts")
            })?;
            if at == n {
                hand_size = h;
            }
        }
        if hand_size == 0 {
            return Err(RulesError::invalid("deal.hand_size", "must be at least 1"));
        }
        let needed =
            hand_size as usize * n + s.deal.dealer_extra as usize + usize::from(s.deal.starter == Starter::TurnUp);
        if needed > deck.len() {
            return Err(RulesError::invalid(
                "deal.hand_size",
                format!(
                    "dealing {hand_size} cards to {n} players needs {needed} cards but the deck ({packs} pack(s)) has {}",
                    deck.len()
                ),
            ));
        }
        // Unsupported dimensions (behaviour lands with later presets).
        let unsupported = |f: &str| Err(RulesError::unsupported(f, "its behaviour lands with the remaining presets"));
        if s.order.first == FirstPlayer::PreviousLoser && s.deal.starter != Starter::None {
            return Err(RulesError::unsupported(
                "order.first",
                "previous_loser is implemented for games without a start card (deal.starter = \"none\"), \
                 where the first player leads any card",
            ));
        }
        if s.matching.base != "suit_or_rank" {
            return Err(RulesError::invalid("match.base", "only \"suit_or_rank\" exists"));
        }
        if s.matching.extra.contains(&MatchExtra::Sequence) {
            return Err(RulesError::invalid("match.extra", "sequence matching is multi.mode = \"zodiac_run\""));
        }
        if matches!(s.draw.mode, DrawMode::UpTo | DrawMode::UntilPlayableOrHand) && s.draw.limit == 0 {
            return Err(RulesError::invalid(
                "draw.limit",
                "draw.mode up_to / until_playable_or_hand needs draw.limit >= 1",
            ));
        }
        if !matches!(
            s.multi.mode,
            MultiMode::Off
                | MultiMode::EqualRank
                | MultiMode::MatchingRun
                | MultiMode::PairsWithCover
                | MultiMode::ZodiacRun
                | MultiMode::UpTo3OrAll
        ) {
            return unsupported("multi.mode");
        }
        if s.multi.order != MultiSpec::default().order {
            return unsupported("multi.order");
        }
        if !s.chain.can_circle {
            return unsupported("chain.can_circle");
        }
        let increments = s.chain.accumulate == Accumulate::Increment
            || s.cards
                .values()
                .any(|c| c.draw_chain.as_ref().is_some_and(|d| d.accumulate == Some(Accumulate::Increment)));
        if increments && s.chain.increment == 0 {
            return Err(RulesError::invalid(
                "chain.increment",
                "accumulate = \"increment\" needs chain.increment >= 1",
            ));
        }
        if s.end.play_for_second && n > 3 {
            // one_card (3.20): "If there are 3 players and there is a winner already, the two
            // remaining players may continue the game for 2nd place." With two players it is inert.
            return Err(RulesError::invalid(
                "end.play_for_second",
                format!(
                    "playing on for second place is for three players (two are allowed, it then has no effect), got {n}"
                ),
            ));
        }
        if !s.end.empty_hand {
            return Err(RulesError::invalid("end.empty_hand", "every game ends when a hand is empty"));
        }
        if s.options.shield_same_suit {
            return unsupported("options.shield_same_suit");
        }
        if s.options.allow_500 {
            // advanced_switch (3.16, A37): "For three or more players it is optional to allow a
            // player whose score has exceeded 250 to win by reaching 500 ..." - a match rule on
            // top of the last-below-250 series.
            if n < 3 {
                return Err(RulesError::invalid(
                    "options.allow_500",
                    format!("the 500 rule is for three or more players, got {n}"),
                ));
            }
            if !s.series.play_match || s.series.winner != SeriesWinner::LastBelow {
                return Err(RulesError::invalid(
                    "options.allow_500",
                    "the 500 rule belongs to a match won by the last player below the target: it needs \
                     series.match = true and series.winner = \"last_below\"",
                ));
            }
        }
        if s.options.speed_in.is_some() {
            return unsupported("options.speed_in");
        }
        if s.series.play_match
            && s.series.target.is_none()
            && s.series.target_per_player.is_none()
            && s.series.max_hands.is_none()
        {
            return Err(RulesError::invalid(
                "series.match",
                "a match needs series.target, series.target_per_player or series.max_hands",
            ));
        }
        if s.countdown.as_ref().is_some_and(|c| !(1..=13).contains(&c.start_score)) {
            return Err(RulesError::invalid(
                "countdown.start_score",
                "must be 1 to 13 (the wild rank follows the score)",
            ));
        }
        if s.last_card.mode == LastCardMode::Action && s.last_card.penalty == 0 {
            return Err(RulesError::invalid(
                "last_card.penalty",
                "last_card.mode = \"action\" needs a penalty of at least 1 card",
            ));
        }

        // Options that are shorthands for effect-table entries.
        let mut cards_table = s.cards.clone();
        for rule in &s.options.public_rules {
            let (sel, patch) = match rule.as_str() {
                "ace_reverse" => ("A", CardSpec { reverse: Some(true), ..Default::default() }),
                "five_even" => ("5", CardSpec { next_even: Some(true), ..Default::default() }),
                "six_skip_two" => ("6", CardSpec { skip: Some(2), ..Default::default() }),
                "seven_extra_turn" => ("7", CardSpec { extra_turn: Some(true), ..Default::default() }),
                other => {
                    return Err(RulesError::invalid(
                        "options.public_rules",
                        format!(
                            "unknown rule {other:?}; the menu is: ace_reverse, five_even, six_skip_two, seven_extra_turn"
                        ),
                    ));
                }
            };
            overlay_card(cards_table.entry(sel.to_string()).or_default(), &patch);
        }
        let mut zodiac_mask = 0u64;
        if let Some(z) = &s.options.zodiac_card {
            let card: Card = z
                .parse()
                .map_err(|e: crate::card::CardParseError| RulesError::invalid("options.zodiac_card", e.to_string()))?;
            zodiac_mask = 1 << card.index();
            let patch = CardSpec {
                draw_and_lose_turn: Some(7),
                last_special: Some(LastSpecial::DrawsApply),
                ..Default::default()
            };
            overlay_card(cards_table.entry(card.to_string()).or_default(), &patch);
        }
        // Effect table: apply selectors from least to most specific.
        let mut entries: Vec<(u8, u64, &String, &CardSpec)> = Vec::new();
        for (sel, cs) in &cards_table {
            let (mask, spec_lvl) = selector_mask(&format!("cards.{sel}"), sel)?;
            entries.push((spec_lvl, mask, sel, cs));
        }
        entries.sort_by_key(|e| e.0);
        let mut merged: Vec<CardSpec> = vec![CardSpec::default(); NUM_FACES];
        let mut chain_sel: Vec<Option<String>> = vec![None; NUM_FACES];
        for (_, mask, sel, cs) in &entries {
            for i in 0..NUM_FACES {
                if mask & (1 << i) != 0 {
                    overlay_card(&mut merged[i], cs);
                    if cs.draw_chain.is_some() {
                        chain_sel[i] = Some(sel.to_string());
                    }
                }
            }
        }
        let mut chain_groups: Vec<String> = Vec::new();
        let group_id = |name: &str, groups: &mut Vec<String>| -> Result<u8, RulesError> {
            if let Some(i) = groups.iter().position(|g| g == name) {
                return Ok(i as u8);
            }
            if groups.len() >= 31 {
                return Err(RulesError::invalid("cards", "at most 31 chain groups"));
            }
            groups.push(name.to_string());
            Ok((groups.len() - 1) as u8)
        };
        // First pass: chain groups in face order, so ids are stable.
        for i in 0..NUM_FACES {
            if let Some(dc) = merged[i].draw_chain.as_ref().filter(|dc| dc.amount > 0) {
                let name = dc.group.clone().unwrap_or_else(|| chain_sel[i].clone().unwrap_or_default());
                group_id(&name, &mut chain_groups)?;
            }
        }
        let mut card = [CardRule::default(); NUM_FACES];
        for i in 0..NUM_FACES {
            let cs = &merged[i];
            let face = Card(i as u8);
            let f = |k: &str| format!("cards.{face}.{k}");
            let mut r = CardRule::default();
            r.mirror = cs.mirror == Some(true);
            r.joker_lock = cs.joker_lock == Some(true);
            if r.joker_lock && !face.is_joker() {
                return Err(RulesError::invalid(
                    f("joker_lock"),
                    "joker_lock is a joker's effect (selector \"joker\", \"RJ\" or \"BJ\")",
                ));
            }
            if r.joker_lock
                && (cs.wild.as_ref().is_some_and(|w| w.enabled) || cs.draw_chain.as_ref().is_some_and(|d| d.amount > 0))
            {
                return Err(RulesError::invalid(
                    f("joker_lock"),
                    "a locking joker cannot also be wild or start a draw chain",
                ));
            }
            if let Some(w) = cs.wild.as_ref().filter(|w| w.enabled) {
                let mut forbidden = zodiac_mask;
                for sel in &w.forbidden_on {
                    if sel == "pending_draw" {
                        continue; // always true while a chain is pending (chain.wild_blocked)
                    }
                    forbidden |= selector_mask(&f("wild.forbidden_on"), sel)?.0;
                }
                r.wild = Some(WildRule {
                    also_normal: w.also_normal,
                    requires_match: w.requires_match,
                    only_if_no_other: w.only_if_no_other,
                    forbidden_on: forbidden,
                    solo: w.solo,
                    follow: w.follow,
                });
                if w.nominate != Nominate::None {
                    r.nominate = Some(w.nominate);
                }
            }
            if let Some(nm) = cs.nominate {
                if nm != Nominate::None {
                    if r.wild.is_some() {
                        return Err(RulesError::invalid(f("nominate"), "a wild card nominates through wild.nominate"));
                    }
                    r.nominate = Some(nm);
                }
            }
            r.skip = cs.skip.unwrap_or(0);
            r.reverse = cs.reverse.unwrap_or(false);
            if let Some(dc) = cs.draw_chain.as_ref().filter(|dc| dc.amount > 0) {
                let name = dc.group.clone().unwrap_or_else(|| chain_sel[i].clone().unwrap_or_default());
                let g = group_id(&name, &mut chain_groups)?;
                r.chain = Some(ChainRule {
                    amount: dc.amount,
                    group: g,
                    answer: dc.answer.unwrap_or(s.chain.answer),
                    multi_answer: dc.multi_answer,
                    accumulate: dc.accumulate.unwrap_or(s.chain.accumulate),
                });
            }
            r.draw_lose = cs.draw_and_lose_turn.unwrap_or(0);
            r.draw_keep = cs.draw_keep_turn.unwrap_or(0);
            if let Some(targets) = &cs.cancel {
                for t in targets {
                    if t == "any" {
                        r.cancel = u32::MAX;
                    } else {
                        let g = chain_groups.iter().position(|x| x == t).ok_or_else(|| {
                            RulesError::invalid(
                                f("cancel"),
                                format!("unknown chain group {t:?}; groups: {}", chain_groups.join(", ")),
                            )
                        })?;
                        r.cancel |= 1 << g;
                    }
                }
            }
            r.free_play_next = cs.free_play_next.unwrap_or(false);
            r.second_suit = cs.second_suit.unwrap_or(false);
            r.swap_hand = cs.swap_hand.unwrap_or(false);
            r.ask_rank = cs.ask_rank.unwrap_or(false);
            r.pick_up_pile = cs.pick_up_pile.unwrap_or(0);
            r.must_cover = cs.must_cover.unwrap_or(false);
            if let Some(sh) = &cs.shield {
                r.shield_through = sh.pass_through;
                r.shield_same_suit = sh.same_suit;
                for t in &sh.against {
                    if t == "any" {
                        r.shield = u32::MAX;
                    } else {
                        let g = chain_groups.iter().position(|x| x == t).ok_or_else(|| {
                            RulesError::invalid(
                                f("shield.against"),
                                format!("unknown chain group {t:?}; groups: {}", chain_groups.join(", ")),
                            )
                        })?;
                        r.shield |= 1 << g;
                    }
                }
            }
            r.follow = cs.follow.filter(|f| *f != Follow::None);
            r.next_picture = cs.next_picture.unwrap_or(false);
            r.next_even = cs.next_even.unwrap_or(false);
            r.pass_hands = cs.pass_hands;
            r.give = cs.give;
            r.waste_draw = cs.waste_draw.unwrap_or(0);
            r.marriage = cs.marriage.unwrap_or(false);
            r.ends_turn = cs.ends_turn.unwrap_or(false);
            r.extra_turn = cs.extra_turn.unwrap_or(false);
            r.others_draw = cs.others_draw.unwrap_or(0);
            r.repeat = cs.repeat.unwrap_or_default();
            r.last_special = cs.last_special.unwrap_or(s.last_special);
            if r.last_special == LastSpecial::AsDuringHand && r.give.is_none() {
                return Err(RulesError::unsupported(
                    f("last_special"),
                    "its behaviour lands with the remaining presets",
                ));
            }
            if r.chain.is_some() && r.wild.is_some() && s.chain.wild_blocked {
                // A wild draw card (fat_buddah style) is fine; nothing to check yet.
            }
            card[i] = r;
        }
        if s.options.joker_bluff {
            // The bluffable cards: wilds playable only without another playable card. A challenge
            // is about their penalty, so they must carry a draw_and_lose_turn and nothing that
            // would have to be undone besides the nomination.
            let mut any = false;
            for (i, r) in card.iter().enumerate() {
                if !r.wild.is_some_and(|w| w.only_if_no_other) {
                    continue;
                }
                any = true;
                let plain = r.skip == 0
                    && !r.reverse
                    && r.chain.is_none()
                    && r.draw_keep == 0
                    && r.others_draw == 0
                    && r.give.is_none()
                    && r.pick_up_pile == 0
                    && r.follow.is_none()
                    && r.waste_draw == 0
                    && !r.extra_turn
                    && !r.free_play_next;
                if r.draw_lose == 0 || !plain {
                    return Err(RulesError::invalid(
                        "options.joker_bluff",
                        format!(
                            "{} may be bluffed (wild.only_if_no_other) so it needs draw_and_lose_turn >= 1 and no \
                             other effect besides its nomination",
                            Card(i as u8)
                        ),
                    ));
                }
            }
            if !any {
                return Err(RulesError::invalid(
                    "options.joker_bluff",
                    "needs a wild card with wild.only_if_no_other (the card that may be bluffed)",
                ));
            }
        }
        // G11: jokers have no suit and no rank; a deck with jokers must give them a rule.
        for j in [Card::RED_JOKER, Card::BLACK_JOKER] {
            if deck.count(j) > 0 && !card[j.index()].is_special() {
                return Err(RulesError::invalid(
                    "deck.jokers",
                    format!(
                        "the deck holds jokers but {j} has no rule (G11: a joker has no suit or rank, so it could never \
                         be played); give it an effect under cards.joker / cards.{j}, or set deck.jokers = 0"
                    ),
                ));
            }
        }
        // Points.
        let mut points = [0i32; NUM_FACES];
        let mut vals: Vec<(u8, u64, i32)> = Vec::new();
        for (sel, &v) in &s.score.values {
            let (mask, lvl) = selector_mask(&format!("score.values.{sel}"), sel)?;
            vals.push((lvl, mask, v));
        }
        for (k, table) in &s.score.values_by_players {
            let at: usize = k.parse().map_err(|_| {
                RulesError::invalid(format!("score.values_by_players.{k}"), "keys must be player counts")
            })?;
            if at == n {
                for (sel, &v) in table {
                    let (mask, lvl) = selector_mask(&format!("score.values_by_players.{k}.{sel}"), sel)?;
                    vals.push((lvl + 3, mask, v));
                }
            }
        }
        vals.sort_by_key(|e| e.0);
        for (_, mask, v) in vals {
            for (i, p) in points.iter_mut().enumerate() {
                if mask & (1 << i) != 0 {
                    *p = v;
                }
            }
        }
        let mut double_mask = 0u64;
        for sel in &s.score.double_per {
            double_mask |= selector_mask("score.double_per", sel)?.0;
        }
        let mut rank_blocked = 0u64;
        for sel in &s.matching.rank_blocked {
            rank_blocked |= selector_mask("match.rank_blocked", sel)?.0;
        }
        let mut start = [s.start.effect; NUM_FACES];
        let mut st: Vec<(u8, u64, StartEffect)> = Vec::new();
        for (sel, &e) in &s.start.cards {
            let (mask, lvl) = selector_mask(&format!("start.cards.{sel}"), sel)?;
            st.push((lvl, mask, e));
        }
        st.sort_by_key(|e| e.0);
        for (_, mask, e) in st {
            for (i, x) in start.iter_mut().enumerate() {
                if mask & (1 << i) != 0 {
                    *x = e;
                }
            }
        }
        if start.iter().enumerate().all(|(i, e)| *e == StartEffect::Redraw || deck.count(Card(i as u8)) == 0) {
            return Err(RulesError::invalid("start.cards", "every card in the deck would be redrawn"));
        }
        let series_target = if s.series.play_match {
            // In range: check_ranges bounds target_per_player * n by MAX_SERIES_TARGET.
            s.series.target_per_player.map(|t| t.saturating_mul(n as u32)).or(s.series.target)
        } else {
            None
        };
        Ok(Rules {
            num_players: n as u8,
            packs,
            deck,
            hand_size,
            card,
            points,
            chain_groups,
            rank_blocked,
            start,
            series_target,
            double_mask,
            arithmetic: s.matching.extra.contains(&MatchExtra::Arithmetic),
            rogue: s.matching.extra.contains(&MatchExtra::RoguePile),
            lock_mask: (0..NUM_FACES).filter(|&i| card[i].joker_lock).fold(0, |m, i| m | 1 << i),
            has_mirror: card.iter().any(|r| r.mirror),
            spec,
        })
    }

    /// The nominated suits a nominating card allows (G6: any suit).
    pub fn suits(&self) -> [Suit; 4] {
        Suit::ALL
    }

    /// Compact per-face rule features, row-major `NUM_FACES x RULE_FEATURES`: see
    /// [`RULE_FEATURE_NAMES`].
    pub fn features(&self, out: &mut [f32]) {
        assert_eq!(out.len(), NUM_FACES * RULE_FEATURES);
        for i in 0..NUM_FACES {
            let r = &self.card[i];
            let row = &mut out[i * RULE_FEATURES..(i + 1) * RULE_FEATURES];
            row[0] = f32::from(self.deck.count(Card(i as u8)));
            row[1] = f32::from(r.wild.is_some() as u8);
            row[2] = f32::from(r.nominate.is_some() as u8);
            row[3] = f32::from(r.skip);
            row[4] = f32::from(r.reverse as u8);
            row[5] = r.chain.map_or(0.0, |c| f32::from(c.amount));
            row[6] = f32::from(r.draw_lose);
            row[7] = f32::from((r.cancel != 0) as u8);
            row[8] = f32::from(r.free_play_next as u8);
            row[9] = f32::from(r.follow.is_some() as u8);
            row[10] = f32::from(r.ends_turn as u8);
            row[11] = self.points[i] as f32;
        }
    }
}

/// Number of per-face rule features.
pub const RULE_FEATURES: usize = 12;
/// Names of the per-face rule features, in column order.
pub const RULE_FEATURE_NAMES: [&str; RULE_FEATURES] = [
    "copies_in_deck",
    "wild",
    "nominates",
    "skip",
    "reverse",
    "draw_chain_amount",
    "draw_and_lose_turn",
    "cancels_chain",
    "free_play_next",
    "follow_on",
    "ends_turn",
    "points",
];

fn overlay_card(dst: &mut CardSpec, src: &CardSpec) {
    macro_rules! take {
        ($($f:ident),*) => { $( if src.$f.is_some() { dst.$f = src.$f.clone(); } )* };
    }
    take!(
        wild,
        nominate,
        skip,
        reverse,
        draw_chain,
        draw_and_lose_turn,
        draw_keep_turn,
        cancel,
        shield,
        mirror,
        others_draw,
        give,
        free_play_next,
        next_picture,
        second_suit,
        pass_hands,
        swap_hand,
        ask_rank,
        pick_up_pile,
        must_cover,
        extra_turn,
        follow,
        ends_turn,
        marriage,
        joker_lock,
        waste_draw,
        slap,
        next_even,
        repeat,
        last_special
    );
}

/// Resolved rules of every preset, for documentation.
pub fn all_preset_specs() -> BTreeMap<String, RulesSpec> {
    preset_names().into_iter().filter_map(|n| load_spec(n, None).ok().map(|s| (n.to_string(), s))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_preset_loads_for_its_player_counts() {
        for name in preset_names() {
            let spec = load_spec(name, None).unwrap();
            for n in spec.players.min..=spec.players.max {
                Rules::from_spec(spec.clone(), n as usize).unwrap_or_else(|e| panic!("{name} n={n}: {e}"));
            }
        }
    }

    #[test]
    fn unknown_field_names_the_dotted_path() {
        let e = load_spec("crazy_eights", Some(&json!({"deal": {"hand_sizes": 3}}))).unwrap_err();
        assert_eq!(e.field(), Some("deal.hand_sizes"), "{e}");
        let e = load_spec("crazy_eights", Some(&json!({"deal": {"hand_size": "x"}}))).unwrap_err();
        assert_eq!(e.field(), Some("deal.hand_size"), "{e}");
        let e = load_spec("crazy_eights", Some(&json!({"draw": {"after": "whenever"}}))).unwrap_err();
        assert_eq!(e.field(), Some("draw.after"), "{e}");
    }

    #[test]
    fn deck_too_small_names_hand_size() {
        let e = Rules::load("crazy_eights", 5, Some(&json!({"deal": {"hand_size": 30}}))).unwrap_err();
        assert_eq!(e.field(), Some("deal.hand_size"), "{e}");
    }

    #[test]
    fn selectors_resolve_by_specificity() {
        let r = Rules::load("switch_blackjack", 3, None).unwrap();
        let js: Card = "JS".parse().unwrap();
        let jh: Card = "JH".parse().unwrap();
        assert_eq!(r.card[js.index()].chain.map(|c| c.amount), Some(7));
        assert!(r.card[jh.index()].chain.is_none());
        assert_ne!(r.card[jh.index()].cancel, 0);
    }

    #[test]
    fn crazy_eights_deck_doubles_from_six_players() {
        assert_eq!(Rules::load("crazy_eights", 5, None).unwrap().deck.len(), 52);
        assert_eq!(Rules::load("crazy_eights", 6, None).unwrap().deck.len(), 104);
        assert_eq!(Rules::load("crazy_eights", 2, None).unwrap().hand_size, 7);
        assert_eq!(Rules::load("crazy_eights", 3, None).unwrap().hand_size, 5);
    }

    #[test]
    fn unsupported_dimensions_are_named() {
        let over = json!({"options": {"speed_in": "priority_window"}});
        let e = Rules::load("crazy_eights", 2, Some(&over)).unwrap_err();
        assert!(matches!(e, RulesError::Unsupported { .. }), "{e}");
        assert_eq!(e.field(), Some("options.speed_in"));
    }

    #[test]
    fn jokers_without_a_rule_are_rejected() {
        // G11: a preset that includes jokers must give them a rule.
        let e = Rules::load("crazy_eights", 3, Some(&json!({"deck": {"jokers": 2}}))).unwrap_err();
        assert!(matches!(e, RulesError::Invalid { .. }), "{e}");
        assert_eq!(e.field(), Some("deck.jokers"));
        let over = json!({"deck": {"jokers": 2}, "cards": {"joker": {"wild": {}}}});
        assert!(Rules::load("crazy_eights", 3, Some(&over)).is_ok());
    }

    #[test]
    fn joker_lock_belongs_to_jokers() {
        let e = Rules::load("larby_switch", 3, Some(&json!({"cards": {"5": {"joker_lock": true}}}))).unwrap_err();
        assert_eq!(e.field(), Some("cards.5C.joker_lock"), "{e}");
        let r = Rules::load("larby_switch", 3, Some(&json!({"variants": ["no_jokers"]}))).unwrap();
        assert_eq!(r.deck.count(Card::RED_JOKER), 0);
        let r = Rules::load("larby_switch", 6, None).unwrap();
        assert_eq!(r.deck.len(), 2 * 54);
    }

    #[test]
    fn explicit_hand_size_wins_over_the_per_player_table() {
        let r = Rules::load("crazy_eights", 2, Some(&json!({"deal": {"hand_size": 4}}))).unwrap();
        assert_eq!(r.hand_size, 4);
    }

    #[test]
    fn variants_apply_overlays() {
        let s = load_spec("crazy_eights", Some(&json!({"variants": ["draw_until_playable"]}))).unwrap();
        assert_eq!(s.draw.mode, DrawMode::UntilPlayable);
        let e = load_spec("crazy_eights", Some(&json!({"variants": ["nope"]}))).unwrap_err();
        assert_eq!(e.field(), Some("variants"));
    }
}
