//! A documented variant is offered to users (`Rules(p).variants`, the web app's checkboxes):
//! each must play a different game from its preset, and from the preset's other variants.
//! "Different" twice over: the rules encoding differs at some table size the rules allow
//! (what an agent is told), and a seeded game differs (what is played: the legal actions,
//! the actions a seeded random player takes, the hands and the result).

use eights::bots::RandomBot;
use eights::game::{Game, derive_seed};
use eights::rules::{RULES_SIZE, Rules, load_spec, preset_names};
use serde_json::json;
use std::sync::Arc;

/// Seeded games per table size.
const SEEDS: u64 = 12;
/// Decisions kept per game: enough to reach the cards and rules a variant changes.
const MAX_STEPS: usize = 600;

fn encoding(r: &Rules) -> Vec<u32> {
    let mut v = vec![0f32; RULES_SIZE];
    r.encode(&mut v);
    v.iter().map(|x| x.to_bits()).collect()
}

/// A seeded random game, step by step: the player to act, their hand, the legal actions and
/// the action taken; then the scores and the winner.
fn game_trace(r: &Arc<Rules>, seed: u64) -> Vec<u64> {
    let mut g = Game::new(r.clone(), seed);
    let mut bot = RandomBot::new(seed ^ 0x5EED);
    let mut out = vec![];
    while let Some(p) = g.current_player() {
        out.push(p as u64);
        out.extend(g.hand(p).faces().map(|c| c.index() as u64));
        out.extend(g.legal_action_vec().iter().map(|&a| a as u64 + 1000));
        let Some(a) = bot.act(&g) else { break };
        out.push(a as u64 + 100_000);
        g.step(a).unwrap();
        if out.len() > MAX_STEPS * 16 {
            break;
        }
    }
    out.extend(g.scores().iter().map(|&s| s as u64));
    out.push(g.winner().map_or(99, |w| w as u64));
    out
}

/// The rule set `name` with `variants`, at every table size it allows (built at that size).
fn tables(name: &str, variants: &[&str]) -> Vec<(usize, Arc<Rules>)> {
    let spec = load_spec(name, Some(&json!({ "variants": variants }))).unwrap();
    (spec.players.min..=spec.players.max)
        .filter_map(|n| Rules::from_spec(spec.clone(), n.into()).ok().map(|r| (usize::from(n), Arc::new(r))))
        .collect()
}

/// Whether two rule sets (each at its table sizes) differ in the encoding at some common size,
/// and in a seeded game at some common size.
fn differ(a: &[(usize, Arc<Rules>)], b: &[(usize, Arc<Rules>)]) -> (bool, bool) {
    let common: Vec<(&Arc<Rules>, &Arc<Rules>)> =
        a.iter().filter_map(|(n, x)| b.iter().find(|(m, _)| m == n).map(|(_, y)| (x, y))).collect();
    let encoded = common.iter().any(|(x, y)| encoding(x) != encoding(y));
    let played = common
        .iter()
        .any(|(x, y)| (0..SEEDS).any(|i| game_trace(x, derive_seed(47, i)) != game_trace(y, derive_seed(47, i))));
    (encoded, played)
}

#[test]
fn every_documented_variant_plays_differently_from_its_preset() {
    let mut same = vec![];
    let mut checked = 0;
    for name in preset_names() {
        let spec = load_spec(name, None).unwrap();
        let base = tables(name, &[]);
        for v in spec.variant.keys() {
            let with = tables(name, &[v]);
            assert!(!with.is_empty(), "{name}+{v}: no table size builds");
            let (encoded, played) = differ(&base, &with);
            if !encoded {
                same.push(format!("{name}+{v}: the same rules encoding at every table size"));
            }
            if !played {
                same.push(format!("{name}+{v}: the same seeded games at every table size"));
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} variants");
    assert!(same.is_empty(), "documented variants that change nothing:\n{}", same.join("\n"));
}

#[test]
fn two_documented_variants_of_a_preset_never_play_the_same_game() {
    let mut same = vec![];
    for name in preset_names() {
        let spec = load_spec(name, None).unwrap();
        let names: Vec<&String> = spec.variant.keys().collect();
        let built: Vec<_> = names.iter().map(|v| tables(name, &[v])).collect();
        for i in 0..names.len() {
            for j in i + 1..names.len() {
                let (encoded, played) = differ(&built[i], &built[j]);
                if !encoded || !played {
                    same.push(format!(
                        "{name}: {} and {} (encoding differs: {encoded}, a seeded game differs: {played})",
                        names[i], names[j]
                    ));
                }
            }
        }
    }
    assert!(same.is_empty(), "documented variants that play the same game:\n{}", same.join("\n"));
}
