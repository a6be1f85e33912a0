//! Conformance: 2,000 seeded random games on every preset at every player count it allows,
//! with invariants checked as the games go (the card total after every step; the full
//! multiset, the mask against the legal list and the observation every 8th step and at the end):
//!
//! * every card of the deck is in exactly one place (hands, stock, discard and rogue piles);
//! * the mask is non-empty unless the game is over or truncated, and equals the legal list;
//! * the same seed gives the same game;
//! * a snapshot survives its JSON round trip, and a clone and the restored game continue identically;
//! * the observation has the fixed size and shows the observer's own hand;
//! * win/loss returns sum to zero (or are all zero without a winner).

use eights::action::ActionMask;
use eights::bots::RandomBot;
use eights::card::Card;
use eights::game::{Game, Snapshot, derive_seed};
use eights::observation::{self, OBS_SIZE};
use eights::rules::{self, Rules};
use std::sync::Arc;

const GAMES_PER_CONFIG: u64 = 2000;

fn trace(rules: &Arc<Rules>, seed: u64, max_steps: usize) -> Vec<usize> {
    let mut g = Game::new(rules.clone(), seed);
    let mut bot = RandomBot::new(seed ^ 1);
    let mut out = vec![];
    while let Some(a) = bot.act(&g) {
        g.step(a).unwrap();
        out.push(a);
        if out.len() >= max_steps {
            break;
        }
    }
    out
}

fn check_game(rules: &Arc<Rules>, seed: u64, deep: bool) -> u64 {
    let deck = rules.deck;
    let mut g = Game::new(rules.clone(), seed);
    let mut bot = RandomBot::new(seed ^ 0xABCD);
    let mut m = ActionMask::default();
    let mut obs = vec![0f32; OBS_SIZE];
    let mut steps = 0u64;
    loop {
        // Cheap invariants every step, the full multiset and encodings every few steps.
        let total: usize = (0..g.num_players()).map(|p| g.hand(p).len()).sum::<usize>()
            + g.stock().len()
            + g.discard().len()
            + g.rogue().len();
        assert_eq!(total, deck.len(), "card count changed (seed {seed})\n{}", g.render());
        g.legal_actions(&mut m);
        let over = g.is_terminal() || g.is_truncated();
        if over || steps % 8 == 0 {
            assert_eq!(g.card_count(), deck, "card conservation broken (seed {seed})\n{}", g.render());
            assert_eq!(m.iter().collect::<Vec<_>>(), g.legal_action_vec());
        }
        if over {
            assert!(m.is_empty());
            break;
        }
        assert!(!m.is_empty(), "no legal action in a live game (seed {seed})\n{}", g.render());
        let p = g.current_player().unwrap();
        if steps % 8 == 0 {
            observation::encode(&g, p, &mut obs);
            for c in Card::all() {
                assert_eq!(obs[c.index()], f32::from(g.hand(p).count(c)));
            }
        }
        if deep && steps % 7 == 0 {
            // Clone and snapshot continue identically for a few steps.
            let before = g.snapshot();
            let json = serde_json::to_string(&before).unwrap();
            let snap: Snapshot = serde_json::from_str(&json).unwrap();
            assert_eq!(snap, before, "the JSON round trip changed the snapshot (seed {seed})");
            let mut a = Game::from_snapshot(snap).unwrap();
            let mut b = g.clone();
            let mut c = g.clone();
            let mut bot_a = bot.clone();
            let mut bot_b = bot.clone();
            for _ in 0..5 {
                let (x, y) = (bot_a.act(&a), bot_b.act(&b));
                assert_eq!(x, y);
                let Some(x) = x else { break };
                a.step(x).unwrap();
                b.step(x).unwrap();
                c.step(x).unwrap();
                assert_eq!(a.render(), b.render());
                // Compared field by field: the same check as comparing their JSON, which
                // costs ten times as much in games that run long.
                assert!(a.snapshot() == c.snapshot(), "restored and cloned games diverged (seed {seed})");
            }
        }
        let a = bot.pick(&m).unwrap();
        g.step(a).unwrap();
        steps += 1;
    }
    let mut r = vec![0.0; g.num_players()];
    g.returns(&mut r, false);
    let sum: f64 = r.iter().sum();
    assert!(sum.abs() < 1e-9, "returns must sum to 0, got {r:?}");
    if g.is_terminal() {
        match g.winner() {
            Some(w) => assert_eq!(r[w], 1.0),
            None => assert!(r.iter().all(|&x| x == 0.0)),
        }
    }
    steps
}

fn run_preset(name: &str) {
    let spec = rules::load_spec(name, None).unwrap();
    let lo = spec.players.min.max(2);
    let hi = spec.players.max;
    for n in lo..=hi {
        let rules = Arc::new(Rules::from_spec(spec.clone(), n as usize).unwrap());
        let mut steps = 0;
        for i in 0..GAMES_PER_CONFIG {
            steps += check_game(&rules, derive_seed(n as u64, i), i < 40);
        }
        assert!(steps > GAMES_PER_CONFIG, "{name} n={n}: games must have decisions");
        // Determinism: same seed, same trace.
        for i in 0..5 {
            assert_eq!(trace(&rules, i, 400), trace(&rules, i, 400));
        }
        assert_ne!(trace(&rules, 1, 400), trace(&rules, 2, 400));
    }
}

#[test]
fn conformance_crazy_eights() {
    run_preset("crazy_eights");
}

#[test]
fn conformance_crazy_eights_specials() {
    run_preset("crazy_eights_specials");
}

#[test]
fn conformance_switch_blackjack() {
    run_preset("switch_blackjack");
}

#[test]
fn conformance_crazy_eights_xtreme() {
    run_preset("crazy_eights_xtreme");
}

macro_rules! conformance {
    ($($name:ident),*) => {
        $( #[test] fn $name() { run_preset(stringify!($name)); } )*
        const COVERED: &[&str] = &[$(stringify!($name)),*];
    };
}

conformance!(
    crazy_eights_winner_collects,
    kings_reverse,
    grandads_game,
    chase_the_ace,
    blackjack_forum_house,
    one_left,
    sevens_and_eights,
    jokers_and_nines,
    fat_buddah,
    crazy_eights_countdown,
    crazy_eights_countdown_blog,
    bitch,
    crazy_pairs,
    rose_mau,
    advanced_switch,
    zodiac,
    openspiel_crazy_eights,
    one_card,
    stalin,
    thirty_eights,
    larby_switch
);

#[test]
fn every_preset_has_a_conformance_test() {
    // Keep this list in step with the presets: a new preset must be added above.
    let mut covered = vec!["crazy_eights", "crazy_eights_specials", "switch_blackjack", "crazy_eights_xtreme"];
    covered.extend_from_slice(COVERED);
    for p in rules::preset_names() {
        assert!(covered.contains(&p), "preset {p} has no conformance test");
    }
}

#[test]
fn documented_variants_play() {
    for name in rules::preset_names() {
        let spec = rules::load_spec(name, None).unwrap();
        for v in spec.variant.keys() {
            let over = serde_json::json!({ "variants": [v] });
            let s = rules::load_spec(name, Some(&over)).unwrap_or_else(|e| panic!("{name}/{v}: {e}"));
            for n in [2usize, 3, 4] {
                if n < s.players.min as usize || n > s.players.max as usize {
                    continue;
                }
                let r = Arc::new(Rules::from_spec(s.clone(), n).unwrap_or_else(|e| panic!("{name}/{v} n={n}: {e}")));
                for i in 0..200 {
                    check_game(&r, derive_seed(77, i), false);
                }
            }
        }
    }
}

#[test]
fn match_play_reaches_the_target() {
    let over = serde_json::json!({ "series": { "match": true, "target": 100 } });
    let r = Arc::new(Rules::load("crazy_eights", 3, Some(&over)).unwrap());
    for i in 0..50 {
        let mut g = Game::new(r.clone(), derive_seed(5, i));
        let mut bot = RandomBot::new(i);
        while let Some(a) = bot.act(&g) {
            g.step(a).unwrap();
        }
        if g.is_terminal() {
            assert!(g.scores().iter().any(|&s| s >= 100), "{:?}", g.scores());
            assert!(g.hands_played() >= 1);
            if let Some(w) = g.winner() {
                assert_eq!(g.scores()[w], *g.scores().iter().min().unwrap());
            }
        }
    }
}
