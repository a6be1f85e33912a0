//! Rules: presets, overrides and validation.
//!
//! This module owns the path from text to an engine-ready rule set:
//!
//! 1. A preset is a TOML file embedded in the crate (`src/rules/presets/*.toml`), listed by
//!    [`preset_names`]. A preset may `inherits = "other"`: unlisted settings are copied, and
//!    so are the parent's documented variants, less those named in `drop_variants = [...]`.
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

mod compile;
pub mod describe;
pub mod encode;
pub(crate) mod selector;
pub mod settings;
pub mod space;
pub mod spec;

use crate::card::{Card, NUM_FACES, Suit};
use crate::card_set::{CardCounts, Pile};
pub use encode::{CARD_FEATURES, RULES_SIZE, TABLE_FEATURES};
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

/// A preset's table with its parents merged in, parsed once per process (every load of a
/// preset starts from a copy of it).
fn preset_value(name: &str) -> Result<Value, RulesError> {
    static CACHE: std::sync::OnceLock<Vec<(&'static str, Result<Value, RulesError>)>> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(|| PRESETS.iter().map(|(n, _)| (*n, parse_preset_value(n, 0))).collect());
    match cache.iter().find(|(n, _)| *n == name) {
        Some((_, v)) => v.clone(),
        None => preset_toml(name).map(|_| Value::Null),
    }
}

fn parse_preset_value(name: &str, depth: usize) -> Result<Value, RulesError> {
    let mut v = toml_to_json(preset_toml(name)?, name)?;
    if let Some(parent) = v.get("inherits").and_then(Value::as_str).map(str::to_string) {
        if depth > 8 {
            return Err(RulesError::invalid("inherits", "inheritance chain too deep"));
        }
        let mut base = parse_preset_value(&parent, depth + 1)?;
        // The child's own identity and variant list replace the parent's; a parent's variant
        // that cannot apply to the child is named in the child's `drop_variants`.
        let dropped = match &mut v {
            Value::Object(c) => c.remove("drop_variants"),
            _ => None,
        };
        if let Value::Object(b) = &mut base {
            b.remove("variants");
            b.remove("simplifications");
            for variant in dropped.as_ref().and_then(Value::as_array).into_iter().flatten() {
                let known = variant
                    .as_str()
                    .and_then(|n| b.get_mut("variant").and_then(Value::as_object_mut).and_then(|t| t.remove(n)));
                if known.is_none() {
                    return Err(RulesError::invalid(
                        "drop_variants",
                        format!("preset '{name}' drops variant {variant}, which its parent '{parent}' does not have"),
                    ));
                }
            }
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
    let base = preset_value(preset)?;
    if overrides.is_some_and(|o| !o.is_object() && !o.is_null()) {
        return Err(RulesError::invalid("rules", "overrides must be a table (dict) of rule fields"));
    }
    let merged = apply_overrides(base, overrides.filter(|o| o.is_object()), "this preset documents")?;
    let mut spec = spec_from_value(merged)?;
    if spec.name.is_empty() {
        spec.name = preset.to_string();
    }
    Ok(spec)
}

/// Resolve a rules table the way presets are resolved (see `apply_overrides`). A table
/// with `inherits = "<preset>"` (and not already resolved) is that preset plus changes; a
/// resolved table is taken as it is (only variants newly listed by the overrides are applied).
pub fn resolve_spec(base: Value, overrides: Option<&Value>) -> Result<RulesSpec, RulesError> {
    let parent = base.get("inherits").and_then(Value::as_str).filter(|_| !is_resolved(&base)).map(str::to_string);
    if let Some(parent) = parent {
        let mut own = base;
        if let Value::Object(m) = &mut own {
            m.remove("inherits");
        }
        if let Some(o) = overrides {
            merge(&mut own, o);
        }
        return load_spec(&parent, Some(&own));
    }
    spec_from_value(apply_overrides(base, overrides, "these rules document")?)
}

/// A complete spec from a table: a resolved spec as it is; a partial table with
/// `inherits = "<preset>"` is resolved first; any other table takes defaults for what it
/// leaves out.
pub fn complete_spec(v: Value) -> Result<RulesSpec, RulesError> {
    if !is_resolved(&v) && v.get("inherits").and_then(Value::as_str).is_some() {
        resolve_spec(v, None)
    } else {
        spec_from_value(v)
    }
}

/// True for a resolved specification as serialized (`Rules.to_dict()`, `Game.rules_dict()`):
/// it has every top-level field. Its `inherits` only records the parent preset, and the
/// variants it lists are already applied.
pub fn is_resolved(v: &Value) -> bool {
    let Ok(Value::Object(all)) = serde_json::to_value(RulesSpec::default()) else { return false };
    v.as_object().is_some_and(|m| all.keys().all(|k| m.contains_key(k)))
}

fn variant_names(v: &Value) -> Result<Vec<String>, RulesError> {
    let bad = || RulesError::invalid("variants", "expected a list of variant names");
    match v.get("variants") {
        None | Some(Value::Null) => Ok(vec![]),
        Some(Value::Array(a)) => a.iter().map(|x| x.as_str().map(str::to_string).ok_or_else(bad)).collect(),
        Some(_) => Err(bad()),
    }
}

/// The variant pass shared by presets and rules tables: the overrides are merged, the
/// listed `variants` overlays are applied to `base` (those a resolved `base` lists are
/// already applied), and the overrides are merged again on top, so an explicit override
/// beats a variant. `whose` words the unknown-variant error ("this preset documents").
fn apply_overrides(base: Value, overrides: Option<&Value>, whose: &str) -> Result<Value, RulesError> {
    let applied = if is_resolved(&base) { variant_names(&base)? } else { vec![] };
    let mut merged = base.clone();
    if let Some(o) = overrides {
        merge(&mut merged, o);
    }
    let variants = variant_names(&merged)?;
    if variants.iter().any(|v| !applied.contains(v)) {
        let table = merged.get("variant").cloned().unwrap_or(Value::Null);
        let mut v = base;
        for name in variants.iter().filter(|v| !applied.contains(v)) {
            let overlay = table.get(name).ok_or_else(|| {
                let known: Vec<String> = table.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
                let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
                RulesError::invalid("variants", format!("unknown variant {name:?}; {whose}: {known}"))
            })?;
            merge(&mut v, overlay);
        }
        if let Some(o) = overrides {
            merge(&mut v, o);
        }
        if let Value::Object(m) = &mut v {
            m.insert("variants".into(), Value::from(variants));
        }
        merged = v;
    }
    if let Some(o) = overrides {
        clear_shadowing_tables(&mut merged, o);
    }
    Ok(merged)
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
    /// Cards its player hands to opponents.
    pub give: Option<Give>,
    /// The next player draws this many from the shuffled waste pile.
    pub waste_draw: u8,
    /// K and Q of one suit may be played together.
    pub marriage: bool,
    /// The next player must play a picture card (J, Q or K) or draw.
    pub next_picture: bool,
    /// Chain groups this card shields against (the attack ends, nobody draws).
    pub shield: u32,
    /// Shield pass-through: the chain goes on, unchanged, to the player after the shielding one.
    pub shield_through: bool,
    /// The shield must be of the top card's suit.
    pub shield_same_suit: bool,
    /// Its player names a second suit the next player may follow.
    pub second_suit: bool,
    /// The player may swap hands with another player.
    pub swap_hand: bool,
    /// The player names a rank (or QS, or joker) the next player must play.
    pub ask_rank: bool,
    /// The next player picks up this many cards under it and loses the turn.
    pub pick_up_pile: u8,
    /// The card must be covered by one of its suit (or a wild).
    pub must_cover: bool,
    /// After it only even spot cards may follow (rose_mau menu).
    pub next_even: bool,
    /// Every player passes their hand one seat this way.
    pub pass_hands: Option<Side>,
    /// Mirrors a pending draw chain or an `others_draw` card of its suit.
    pub mirror: bool,
    /// Playable only on a K, and only a K (of its colour) may follow it.
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
    /// The full deck in face order: the pack every deal copies and shuffles.
    pub pack: Pile,
    pub hand_size: u8,
    pub card: [CardRule; NUM_FACES],
    pub points: [i32; NUM_FACES],
    /// Some face scores penalty points (`points` is not all zero).
    pub has_points: bool,
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
    /// Faces carrying `joker_lock` (larby_switch jokers).
    pub lock_mask: u64,
    /// Per face, the faces that match it by suit when it is the card to match and no suit is
    /// nominated (its suit's 13 faces; none for a joker): a table for the matching fast path.
    pub match_suit: [u64; NUM_FACES],
    /// Per face, the faces that match it by rank when it is the card to match: its rank's
    /// faces (any court with `match.any_court`) less `rank_blocked`, and on a king the
    /// locking jokers; none for a joker.
    pub match_rank: [u64; NUM_FACES],
    /// Faces with a wild rule (`card[i].wild` is set), for the bitset fast path of legal plays.
    pub wild_mask: u64,
    /// Faces whose wild rule has no condition (not `requires_match`, not `only_if_no_other`,
    /// nothing `forbidden_on`): playable on anything when no one-turn constraint applies.
    pub free_wild_mask: u64,
    /// Faces whose wild rule is not `solo`, and those whose rule is (follow-on plays).
    pub nonsolo_wild_mask: u64,
    pub solo_wild_mask: u64,
    /// Faces whose wild rule is `only_if_no_other`.
    pub oino_wild_mask: u64,
    /// Faces whose wild rule may continue a matching run (`multi.mode = matching_run`):
    /// not `solo`, not `only_if_no_other`, not `requires_match`.
    pub run_wild_mask: u64,
    /// Faces whose play in a fresh turn may be only "place it and pass the turn on" (see
    /// `Game::play_plain`): cards with no effect at all (`CardRule::default()`), in a rule
    /// set whose table-wide settings add nothing to such a play; 0 in the others.
    pub plain_mask: u64,
    /// Faces with no card rule at all (`CardRule::default()`), whatever the table settings.
    pub default_mask: u64,
    /// Faces that are transparent wilds (the card under them is matched).
    pub transparent_mask: u64,
    /// Some card carries `mirror`.
    pub has_mirror: bool,
    /// Some card carries a follow-on (`follow`).
    pub has_follow: bool,
    /// Some card moves cards openly between players (give, pass or swap hands, pick up the
    /// pile), so the game keeps what each seat has seen.
    pub moves_cards_openly: bool,
    /// The table-wide settings compiled for play.
    pub settings: settings::Settings,
}

impl Rules {
    /// Load a preset with overrides and compile it for `num_players`.
    pub fn load(preset: &str, num_players: usize, overrides: Option<&Value>) -> Result<Rules, RulesError> {
        Rules::from_spec(load_spec(preset, overrides)?, num_players)
    }

    /// The nominated suits a nominating card allows (any suit).
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
            // i < NUM_FACES (54) fits u8; points are bounded by MAX_CARD_POINTS, exact in f32.
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
        // A preset that includes jokers must give them a rule.
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
    fn wild_instapik_needs_wild_eights_and_no_other_wild_number_rank() {
        let on = json!({"options": {"wild_instapik": true}});
        assert!(Rules::load("zodiac", 3, Some(&on)).is_ok());
        assert!(Rules::load("crazy_eights", 3, Some(&on)).is_ok());
        for (preset, over) in [
            ("crazy_eights", json!({"options": {"wild_instapik": true}, "variants": ["jacks_wild"]})),
            ("crazy_eights", json!({"options": {"wild_instapik": true}, "variants": ["sevens_wild"]})),
            ("crazy_eights_countdown", on.clone()),
        ] {
            let e = Rules::load(preset, 3, Some(&over)).unwrap_err();
            assert_eq!(e.field(), Some("options.wild_instapik"), "{preset} {over}: {e}");
        }
    }

    #[test]
    fn variants_apply_overlays() {
        let s = load_spec("crazy_eights", Some(&json!({"variants": ["draw_until_playable"]}))).unwrap();
        assert_eq!(s.draw.mode, DrawMode::UntilPlayable);
        let e = load_spec("crazy_eights", Some(&json!({"variants": ["nope"]}))).unwrap_err();
        assert_eq!(e.field(), Some("variants"));
    }
}
