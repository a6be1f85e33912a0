//! Helpers of the engine's own tests: random play over every preset's tables, cards and
//! face bitsets from text.

use super::bits;
use super::table::Game;
use crate::action::ActionMask;
use crate::card::Card;
use crate::rules::Rules;
use crate::seed::derive_seed;
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

/// A uniform member of `m` (`None` when empty), for the engine's own random-play tests
/// (the bots live one layer up).
pub(crate) fn random_pick(rng: &mut Xoshiro256PlusPlus, m: &ActionMask) -> Option<usize> {
    if m.is_empty() { None } else { m.nth(rng.random_range(0..m.len())) }
}

/// The tables the engine's random-game tests walk: every preset at its smallest (at least 2)
/// and largest player count, with its rules.
pub(crate) fn test_tables() -> Vec<(&'static str, usize, Arc<Rules>)> {
    let mut out = Vec::new();
    for preset in crate::rules::preset_names() {
        let spec = crate::rules::load_spec(preset, None).unwrap();
        for n in [spec.players.min.max(2) as usize, spec.players.max as usize] {
            out.push((preset, n, Arc::new(Rules::load(preset, n, None).unwrap())));
        }
    }
    out
}

/// Cards from text, e.g. `"9H 2C RJ"` (tests).
pub(crate) fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|x| x.parse().unwrap()).collect()
}

/// The faces of `cards(s)` as a bitset (tests).
pub(crate) fn faces(s: &str) -> u64 {
    cards(s).iter().fold(0, |m, &c| m | bits::bit(c))
}

/// One step of a random-game test: a uniform legal action, or, at the end of a game, a new
/// deal from `derive_seed(seed, episode)` with `episode` counted up.
pub(crate) fn random_step(
    g: &mut Game,
    rng: &mut Xoshiro256PlusPlus,
    mask: &mut ActionMask,
    seed: u64,
    episode: &mut u64,
) {
    g.legal_actions(mask);
    match random_pick(rng, mask) {
        Some(a) => g.apply(a),
        None => {
            *episode += 1;
            g.reset(derive_seed(seed, *episode), &[]).unwrap();
        }
    }
}
