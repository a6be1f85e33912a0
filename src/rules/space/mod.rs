//! The rule space: rule sets drawn at random from the presets, their documented variants and
//! house-rule changes, deterministically per seed ([`RuleSpace::sample`]).
//!
//! One draw, from a seed:
//!
//! 1. a preset, uniformly among those of the space (by default every preset that allows all
//!    the player counts the space is for);
//! 2. each documented variant of that preset, independently with probability
//!    `variant_prob` (applied in the preset's order; where two drawn variants set a field to
//!    different values, or one turns off a wild card whose play the other sets, the overrides
//!    name the value the field took, as a rules table must);
//! 3. with probability `house_prob`, house rules: `1 + k` changes where `k` is geometric with
//!    mean `mutations - 1`, each along a dimension drawn by weight from [`DIMENSIONS`]
//!    (which card does what, hand size, drawing, passing, the stock, draw chains, multi-card
//!    plays, scoring, direction). A change that does not apply to the rules drawn so far (no
//!    rank without an effect, no draw chain to change...) draws another dimension.
//!
//! The result must load for every player count of the space; a draw that does not is thrown
//! away and drawn again from the next attempt's stream (after [`MAX_ATTEMPTS`], the preset
//! with its variants alone, or the preset alone). The rules come back as the preset plus
//! overrides (what a house-rules TOML file holds: `inherits = "<preset>"` and the changes)
//! and as the resolved specification, with the changes in words.

use super::load::{inert_wild, overlay_clashes, preset_value, settles};
use super::{Rules, RulesError, RulesSpec, merge, preset_names, quoted, spec_from_value};
use crate::seed::derive_seed;
use house::Mutator;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{Map, Value, json};
use std::sync::Arc;

mod house;

pub use house::{DIMENSIONS, Dimension};

/// Draws per sample before falling back to the preset (and its variants).
pub const MAX_ATTEMPTS: u64 = 32;
/// Most house-rule changes in one draw.
pub const MAX_MUTATIONS: usize = 8;

impl Sample {
    /// The resolved specification.
    pub fn spec(&self) -> &RulesSpec {
        &self.rules[0].spec
    }
}

/// The settings of a [`RuleSpace`].
#[derive(Clone, Debug)]
pub struct SpaceConfig {
    /// Presets to draw from; empty: every preset that allows all of `num_players`.
    pub presets: Vec<String>,
    /// Chance of each documented variant of the drawn preset.
    pub variant_prob: f64,
    /// Chance of house-rule changes.
    pub house_prob: f64,
    /// Mean number of changes in a draw with house rules (at least 1).
    pub mutations: f64,
    /// Weights of the dimensions by name (missing ones keep their default; 0 turns one off);
    /// empty: the defaults of [`DIMENSIONS`].
    pub weights: Vec<(String, f64)>,
    /// Player counts every draw must allow.
    pub num_players: Vec<usize>,
}

impl Default for SpaceConfig {
    fn default() -> Self {
        SpaceConfig {
            presets: vec![],
            variant_prob: 0.25,
            house_prob: 0.5,
            mutations: 2.0,
            weights: vec![],
            num_players: vec![2],
        }
    }
}

/// One preset of the space, parsed once.
#[derive(Clone, Debug)]
struct Base {
    name: &'static str,
    /// The preset's resolved specification.
    spec: RulesSpec,
    variants: Vec<String>,
    /// The variant overlays, in the order of `variants`.
    overlays: Vec<Map<String, Value>>,
    /// The pairs of variants that set a field two ways, and those fields (`variant_clashes`).
    clashes: Vec<(u64, Vec<String>)>,
    /// The preset's resolved specification as a table (where a clash's value starts from).
    json: Value,
    /// The compiled rules at the space's first player count (what a change may build on).
    rules: Rules,
    title: String,
    description: String,
}

/// A space of rule sets (see the module documentation).
#[derive(Debug)]
pub struct RuleSpace {
    bases: Vec<Base>,
    cfg: SpaceConfig,
    weights: [f64; DIMENSIONS.len()],
}

/// One draw of a [`RuleSpace`].
#[derive(Clone, Debug)]
pub struct Sample {
    // (the resolved specification is `spec()`, the one the compiled rules hold)
    /// The preset it starts from.
    pub preset: &'static str,
    /// The changes on top of the preset (variants listed under `variants`), as a rules table.
    pub overrides: Value,
    /// The house-rule changes in words (empty for a preset with variants).
    pub changes: Vec<String>,
    /// The compiled rules for each player count of the space, in its order.
    pub rules: Vec<Arc<Rules>>,
}

fn check_prob(field: &str, p: f64) -> Result<(), RulesError> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(RulesError::invalid(field, format!("must be a probability in [0, 1], got {p}")))
    }
}

impl RuleSpace {
    /// A space from its settings: every argument is checked (names of presets and dimensions,
    /// probabilities, weights, player counts), and each preset must allow every player count.
    pub fn new(cfg: SpaceConfig) -> Result<RuleSpace, RulesError> {
        check_prob("variant_prob", cfg.variant_prob)?;
        check_prob("house_prob", cfg.house_prob)?;
        if !(cfg.mutations.is_finite() && (1.0..=MAX_MUTATIONS as f64).contains(&cfg.mutations)) {
            return Err(RulesError::invalid(
                "mutations",
                format!("the mean number of changes must be in [1, {MAX_MUTATIONS}], got {}", cfg.mutations),
            ));
        }
        if cfg.num_players.is_empty() {
            return Err(RulesError::invalid("num_players", "needs at least one player count"));
        }
        if let Some(&n) = cfg.num_players.iter().find(|&&n| !(2..=super::MAX_PLAYERS).contains(&n)) {
            return Err(RulesError::invalid("num_players", format!("must be in [2, {}], got {n}", super::MAX_PLAYERS)));
        }
        let mut weights = DIMENSIONS.map(|d| d.weight);
        for (name, w) in &cfg.weights {
            let k = DIMENSIONS.iter().position(|d| d.name == name).ok_or_else(|| {
                let known: Vec<&str> = DIMENSIONS.iter().map(|d| d.name).collect();
                RulesError::invalid(
                    "dims",
                    format!("unknown dimension {}; dimensions: {}", quoted(name), known.join(", ")),
                )
            })?;
            if !(w.is_finite() && *w >= 0.0) {
                return Err(RulesError::invalid(format!("dims.{name}"), format!("a weight must be >= 0, got {w}")));
            }
            weights[k] = *w;
        }
        if cfg.house_prob > 0.0 && weights.iter().all(|&w| w == 0.0) {
            return Err(RulesError::invalid("dims", "every dimension has weight 0 but house_prob > 0"));
        }
        let names: Vec<&'static str> = if cfg.presets.is_empty() {
            preset_names()
        } else {
            let all = preset_names();
            cfg.presets
                .iter()
                .map(|p| {
                    all.iter().copied().find(|n| n == p).ok_or_else(|| {
                        RulesError::invalid(
                            "presets",
                            format!("unknown preset {}; presets: {}", quoted(p), all.join(", ")),
                        )
                    })
                })
                .collect::<Result<_, _>>()?
        };
        let mut bases = Vec::new();
        for name in names {
            let mut spec = spec_from_value(preset_value(name)?)?;
            if spec.name.is_empty() {
                spec.name = name.to_string();
            }
            let fits =
                cfg.num_players.iter().all(|&n| (spec.players.min as usize..=spec.players.max as usize).contains(&n));
            if !fits {
                if !cfg.presets.is_empty() {
                    return Err(RulesError::invalid(
                        "presets",
                        format!(
                            "{name} {}, not every count of num_players {:?}",
                            crate::rules::validate::players_allowed(spec.players.min, spec.players.max),
                            cfg.num_players
                        ),
                    ));
                }
                continue;
            }
            let rules = Rules::from_spec(spec.clone(), cfg.num_players[0])?;
            let variants: Vec<String> = spec.variant.keys().cloned().collect();
            let overlays: Vec<_> = spec.variant.values().map(|v| v.as_object().cloned().unwrap_or_default()).collect();
            bases.push(Base {
                clashes: if overlays.len() <= 64 { variant_clashes(&overlays) } else { vec![] },
                json: serde_json::to_value(&spec).map_err(|e| RulesError::invalid("presets", e.to_string()))?,
                name,
                title: spec.title.clone(),
                description: spec.description.clone(),
                spec,
                variants,
                overlays,
                rules,
            });
        }
        if bases.is_empty() {
            return Err(RulesError::invalid(
                "presets",
                format!("no preset allows every player count of num_players {:?}", cfg.num_players),
            ));
        }
        if bases.iter().any(|b| b.variants.len() > 64) {
            return Err(RulesError::invalid("presets", "a preset documents more than 64 variants"));
        }
        Ok(RuleSpace { bases, cfg, weights })
    }

    /// The presets of the space, in order.
    pub fn presets(&self) -> Vec<&'static str> {
        self.bases.iter().map(|b| b.name).collect()
    }

    /// The settings the space was built from.
    pub fn config(&self) -> &SpaceConfig {
        &self.cfg
    }

    /// The draw of `seed` (see the module documentation). Never fails: a draw that does not
    /// load falls back as described there.
    pub fn sample(&self, seed: u64) -> Sample {
        for attempt in 0..MAX_ATTEMPTS {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(seed, attempt));
            let (k, b, variants) = self.draw_preset(&mut rng);
            let mut over = Map::new();
            let mut changes = Vec::new();
            if rng.random::<f64>() < self.cfg.house_prob {
                let count = self.mutation_count(&mut rng);
                let mut m = Mutator::new(&b.rules, &mut over);
                for _ in 0..count {
                    if let Some(words) = self.mutate(&mut rng, &mut m) {
                        changes.push(words);
                    }
                }
                if !changes.is_empty() {
                    // House rules are checked at every player count from the space's fewest to
                    // its most, and say so.
                    let (lo, hi) = self.player_range();
                    over.insert("players".into(), json!({ "min": lo, "max": hi }));
                    let list = changes.join("; ");
                    over.insert("name".into(), json!(format!("{}_house_{seed:016x}", b.name)));
                    over.insert("title".into(), json!(format!("{}, house rules", b.title)));
                    over.insert(
                        "description".into(),
                        json!(format!(
                            "{}\n\nHouse rules drawn from the rule space (seed {seed}): {list}.",
                            b.description
                        )),
                    );
                }
            }
            if let Some(s) = self.load(k, variants, over, changes) {
                return s;
            }
        }
        // The fallback: the preset of the attempt-0 stream, with its variants if they load,
        // else alone. That load cannot fail: `new` keeps only presets whose player range holds
        // every count of the space, and every preset loads at every count of its range (the
        // conformance tests play each preset at each of them).
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(seed, 0));
        let (k, _, variants) = self.draw_preset(&mut rng);
        self.load(k, variants, Map::new(), vec![])
            .or_else(|| self.load(k, 0, Map::new(), vec![]))
            .expect("a preset of the space loads for every player count of the space")
    }

    /// The rules of the draw of `seed` for the player count at `index` of the space's counts.
    pub fn sample_rules(&self, seed: u64, index: usize) -> Arc<Rules> {
        let mut s = self.sample(seed);
        s.rules.swap_remove(index.min(s.rules.len() - 1))
    }

    /// A preset (its index) and its variants (a bit per documented variant).
    fn draw_preset(&self, rng: &mut Xoshiro256PlusPlus) -> (usize, &Base, u64) {
        let k = rng.random_range(0..self.bases.len());
        let b = &self.bases[k];
        let mut variants = 0u64;
        for j in 0..b.variants.len() {
            if rng.random::<f64>() < self.cfg.variant_prob {
                variants |= 1 << j;
            }
        }
        (k, b, variants)
    }

    /// The draw with these variants and changes, if it loads for every player count.
    fn load(&self, k: usize, variants: u64, mut over: Map<String, Value>, changes: Vec<String>) -> Option<Sample> {
        let b = &self.bases[k];
        let mut spec = b.spec.clone();
        // As the rules tables resolve (`apply_overrides`): the variant overlays in order, the
        // changes on top.
        if variants != 0 {
            let names: Vec<String> =
                b.variants.iter().enumerate().filter(|(j, _)| variants & (1 << j) != 0).map(|x| x.1.clone()).collect();
            for (j, overlay) in b.overlays.iter().enumerate() {
                if variants & (1 << j) != 0 {
                    apply_typed(&mut spec, overlay, false).ok()?;
                }
            }
            spec.variants = names.clone();
            over.insert("variants".into(), json!(names));
            settle_clashes(b, variants, &mut over);
        }
        apply_typed(&mut spec, &over, true).ok()?;
        let counts = &self.cfg.num_players;
        let mut rules = Vec::with_capacity(counts.len());
        if !changes.is_empty() {
            let (lo, hi) = self.player_range();
            let checked = (lo..=hi).filter(|n| !counts.contains(n));
            if checked.clone().any(|n| Rules::from_spec(spec.clone(), n).is_err()) {
                return None;
            }
        }
        for (i, &n) in counts.iter().enumerate() {
            let s = if i + 1 == counts.len() { std::mem::take(&mut spec) } else { spec.clone() };
            rules.push(Arc::new(Rules::from_spec(s, n).ok()?));
        }
        Some(Sample { preset: b.name, overrides: Value::Object(over), changes, rules })
    }

    /// The space's fewest and most players.
    fn player_range(&self) -> (usize, usize) {
        let c = &self.cfg.num_players;
        (c.iter().copied().min().unwrap_or(2), c.iter().copied().max().unwrap_or(2))
    }

    /// `1 + k` changes, `k` geometric with mean `mutations - 1`, at most [`MAX_MUTATIONS`].
    fn mutation_count(&self, rng: &mut Xoshiro256PlusPlus) -> usize {
        let more = 1.0 - 1.0 / self.cfg.mutations;
        let mut k = 1;
        while k < MAX_MUTATIONS && rng.random::<f64>() < more {
            k += 1;
        }
        k
    }

    /// One change along a dimension drawn by weight; a dimension that does not apply draws
    /// again (a few times). Returns the change in words.
    fn mutate(&self, rng: &mut Xoshiro256PlusPlus, m: &mut Mutator<'_>) -> Option<String> {
        let total: f64 = self.weights.iter().sum();
        for _ in 0..8 {
            let mut x = rng.random::<f64>() * total;
            let mut dim = 0;
            while dim + 1 < DIMENSIONS.len() && x >= self.weights[dim] {
                x -= self.weights[dim];
                dim += 1;
            }
            if self.weights[dim] == 0.0 {
                continue;
            }
            let d = &DIMENSIONS[dim];
            if !d.per_rank && m.dims & (1 << dim) != 0 {
                continue;
            }
            if let Some(words) = (d.change)(m, rng) {
                m.dims |= 1 << dim;
                return Some(words);
            }
        }
        None
    }
}

/// Variants drawn together that set one field to different values (alternatives, such as two
/// ways of drawing) are applied in the preset's order; the overrides then set each such field
/// to the value it took, as a rules table must to combine them (`apply_overrides` refuses them
/// otherwise), so the table loads to the same rules. A house change already there stays.
fn settle_clashes(b: &Base, chosen: u64, over: &mut Map<String, Value>) {
    let mut open: Vec<&str> = Vec::new();
    for (pair, paths) in &b.clashes {
        if chosen & pair == *pair {
            open.extend(paths.iter().map(String::as_str));
        }
    }
    if open.is_empty() {
        return;
    }
    // A table before the fields inside it, so that a plain value set there settles them.
    open.sort_unstable();
    open.dedup();
    for path in open {
        if settles(over, path) {
            continue;
        }
        // The value the field took: the preset's, with the chosen overlays merged in order.
        let keys: Vec<&str> = path.split('.').collect();
        let mut value = keys.iter().try_fold(&b.json, |v, k| v.as_object()?.get(*k)).cloned().unwrap_or(Value::Null);
        for (j, overlay) in b.overlays.iter().enumerate() {
            if chosen & (1 << j) != 0 {
                if let Some(v) =
                    overlay.get(keys[0]).and_then(|t| keys[1..].iter().try_fold(t, |v, k| v.as_object()?.get(*k)))
                {
                    merge(&mut value, v);
                }
            }
        }
        let mut at = &mut *over;
        for k in &keys[..keys.len() - 1] {
            let slot = at.entry(k.to_string()).or_insert_with(|| Value::Object(Map::new()));
            if !slot.is_object() {
                *slot = Value::Object(Map::new());
            }
            // A table either way (just made one where there was none): no panic to reach.
            let Value::Object(inner) = slot else { return };
            at = inner;
        }
        // A house change inside that field (a table, or `settles` would have held) merges on top.
        let last = keys[keys.len() - 1].to_string();
        if let Some(house) = at.get(&last) {
            merge(&mut value, house);
        }
        at.insert(last, value);
    }
}

/// The fields that two documented variants of a preset set to different values, and the
/// wilds one turns off where the other sets how they play (`inert_wild`), for each such pair
/// (a bit per variant, as drawn), found once when the space is made.
fn variant_clashes(overlays: &[Map<String, Value>]) -> Vec<(u64, Vec<String>)> {
    let mut out = Vec::new();
    for (i, x) in overlays.iter().enumerate() {
        for (j, y) in overlays.iter().enumerate().skip(i + 1) {
            let mut paths = Vec::new();
            for (key, v) in x {
                if let Some(w) = y.get(key) {
                    paths.extend(overlay_clashes(v, w).into_iter().map(|c| join(key, &c.0)));
                }
            }
            // A wild one turns off that the other sets: the table names `enabled` as it is.
            let (x, y) = (Value::Object(x.clone()), Value::Object(y.clone()));
            for (sel, _) in inert_wild(&x, &y).into_iter().chain(inert_wild(&y, &x)) {
                paths.push(format!("cards.{sel}.wild.enabled"));
            }
            if !paths.is_empty() {
                out.push(((1u64 << i) | (1u64 << j), paths));
            }
        }
    }
    out
}

/// `key` and the dotted path under it.
fn join(key: &str, path: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{key}.{path}") }
}

/// Merge the table `over` into `spec` as the rules tables merge (`super::merge`), one
/// top-level table at a time: a table it touches goes through JSON and back, the others stay
/// as they are. `overrides` marks the user's changes (not a variant overlay): an explicit
/// `deal.hand_size` or `deck.packs` then drops the per-player-count table it would lose to,
/// as `apply_overrides` does. `variants` is left to the caller.
fn apply_typed(spec: &mut RulesSpec, over: &Map<String, Value>, overrides: bool) -> Result<(), RulesError> {
    fn merged<T: serde::Serialize + serde::de::DeserializeOwned>(x: &mut T, v: &Value) -> Result<(), RulesError> {
        let mut cur = serde_json::to_value(&*x).map_err(|e| RulesError::invalid("rules", e.to_string()))?;
        super::merge(&mut cur, v);
        *x = serde_json::from_value(cur).map_err(|e| RulesError::invalid("rules", e.to_string()))?;
        Ok(())
    }
    /// One entry of the effect table: a field the change sets replaces the entry's, as in
    /// the tables' merge; a table field (`wild`, `draw_chain`, `shield`) that both set merges
    /// key by key, through JSON (the slow path, rare).
    fn merge_card(entry: &mut super::CardSpec, c: &Value) -> Result<(), RulesError> {
        let nested = |k: &str, e: &super::CardSpec| match k {
            "wild" => e.wild.is_some(),
            "draw_chain" => e.draw_chain.is_some(),
            "shield" => e.shield.is_some(),
            _ => false,
        };
        let Some(o) = c.as_object().filter(|o| o.iter().all(|(k, v)| !v.is_null() && !nested(k, entry))) else {
            return merged(entry, c);
        };
        let patch: super::CardSpec = serde_json::from_value(Value::Object(o.clone()))
            .map_err(|e| RulesError::invalid("cards", e.to_string()))?;
        super::compile::overlay_card(entry, &patch);
        Ok(())
    }
    macro_rules! tables {
        ($key:expr, $v:expr, { $($name:literal => $field:ident),* $(,)? }) => {
            match $key {
                $( $name => merged(&mut spec.$field, $v)?, )*
                "variants" => {}
                "cards" => match $v.as_object() {
                    Some(m) => {
                        for (sel, c) in m {
                            merge_card(spec.cards.entry(sel.clone()).or_default(), c)?;
                        }
                    }
                    None => merged(&mut spec.cards, $v)?,
                },
                other => return Err(RulesError::invalid(other, "unknown rules field")),
            }
        };
    }
    for (key, v) in over {
        tables!(key.as_str(), v, {
            "name" => name, "title" => title, "source" => source, "description" => description,
            "inherits" => inherits, "variant" => variant, "simplifications" => simplifications,
            "players" => players, "deck" => deck, "deal" => deal, "start" => start, "order" => order,
            "match" => matching, "draw" => draw, "pass" => passing, "stock" => stock, "multi" => multi,
            "chain" => chain, "two_player" => two_player, "last_card" => last_card,
            "last_special" => last_special, "end" => end, "score" => score, "series" => series,
            "countdown" => countdown, "options" => options, "limits" => limits,
        });
    }
    if overrides {
        let sets = |table: &str, key: &str| over.get(table).and_then(|t| t.get(key)).is_some();
        if sets("deal", "hand_size") && !sets("deal", "hand_size_by_players") {
            spec.deal.hand_size_by_players.clear();
        }
        if sets("deck", "packs") && !sets("deck", "packs_by_players") {
            spec.deck.packs_by_players.clear();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space() -> RuleSpace {
        RuleSpace::new(SpaceConfig::default()).unwrap()
    }

    #[test]
    fn a_seed_gives_the_same_rules() {
        let s = space();
        for seed in 0..50 {
            let (a, b) = (s.sample(seed), s.sample(seed));
            assert_eq!(a.spec(), b.spec());
            assert_eq!(a.overrides, b.overrides);
        }
    }

    #[test]
    fn samples_load_and_vary() {
        let s = space();
        let mut presets = std::collections::BTreeSet::new();
        let mut house = 0;
        for seed in 0..500 {
            let x = s.sample(seed);
            assert_eq!(x.rules.len(), 1);
            presets.insert(x.preset);
            house += usize::from(!x.changes.is_empty());
            let again = super::super::load_spec(x.preset, Some(&x.overrides)).unwrap();
            assert_eq!(&again, x.spec(), "seed {seed}: the preset plus the overrides resolve to the spec");
        }
        assert!(presets.len() >= 20, "{presets:?}");
        assert!((150..350).contains(&house), "{house} of 500 draws have house rules");
    }

    #[test]
    fn clashing_variants_drawn_together_load_from_their_table() {
        // Every variant of crazy_eights at once: three ways of drawing and three of naming a
        // suit clash. The spec is the overlays in the preset's order, and the table names the
        // values the clashing fields took, so it loads (a table of clashing variants alone is
        // refused) to the same spec.
        let cfg = SpaceConfig {
            presets: vec!["crazy_eights".into()],
            variant_prob: 1.0,
            house_prob: 0.0,
            ..Default::default()
        };
        let s = RuleSpace::new(cfg).unwrap();
        let x = s.sample(7);
        let base = super::super::load_spec("crazy_eights", None).unwrap();
        let mut by_hand = base.clone();
        for overlay in base.variant.values() {
            apply_typed(&mut by_hand, overlay.as_object().unwrap(), false).unwrap();
        }
        by_hand.variants = base.variant.keys().cloned().collect();
        assert_eq!(&by_hand, x.spec());
        let o = &x.overrides;
        assert_eq!(o["draw"]["mode"], serde_json::to_value(by_hand.draw.mode).unwrap());
        assert!(o["cards"]["8"]["wild"].get("nominate").is_some(), "{o}");
        let again = super::super::load_spec("crazy_eights", Some(o)).unwrap();
        assert_eq!(&again, x.spec());
        let names = json!({ "variants": o["variants"].clone() });
        assert!(super::super::load_spec("crazy_eights", Some(&names)).is_err());
    }

    #[test]
    fn bad_settings_name_the_argument() {
        let bad = |cfg: SpaceConfig, field: &str| {
            let e = RuleSpace::new(cfg).unwrap_err();
            assert_eq!(e.field(), Some(field), "{e}");
        };
        bad(SpaceConfig { variant_prob: 1.5, ..Default::default() }, "variant_prob");
        bad(SpaceConfig { house_prob: -0.1, ..Default::default() }, "house_prob");
        bad(SpaceConfig { mutations: 0.5, ..Default::default() }, "mutations");
        bad(SpaceConfig { weights: vec![("colour".into(), 1.0)], ..Default::default() }, "dims");
        bad(SpaceConfig { presets: vec!["nope".into()], ..Default::default() }, "presets");
        bad(SpaceConfig { presets: vec!["stalin".into()], ..Default::default() }, "presets");
        bad(SpaceConfig { num_players: vec![], ..Default::default() }, "num_players");
        bad(SpaceConfig { num_players: vec![11], ..Default::default() }, "num_players");
    }
}
