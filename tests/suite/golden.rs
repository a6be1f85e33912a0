//! Golden file of seeded self-play: guards refactors and speed work against behaviour changes.
//!
//! For every preset and every player count it allows, `random_selfplay(games = 500, seed = 0)`
//! (decisions, wins per seat, games without a winner, truncations), plus an FNV-1a hash of the
//! full action sequence (acting seat and action id) of a few seeded games; and every documented
//! variant of every preset, 200 games at its smallest table. The file
//! `tests/golden/selfplay.txt` must match byte for byte. When the random stream or a rule is
//! changed on purpose, regenerate it in a commit of its own with
//! `EIGHTS_BLESS=1 cargo test --profile test-opt --test suite golden::` and say why in the message.

use eights::bots::{RandomBot, random_selfplay};
use eights::game::Game;
use eights::rules::{Rules, load_spec, preset_names};
use std::fmt::Write as _;
use std::sync::Arc;

const GAMES: u64 = 500;
const TRACED_GAMES: u64 = 4;
const VARIANT_GAMES: u64 = 200;

/// FNV-1a over the (seat, action) sequence of one seeded random game.
fn trace_hash(rules: &Arc<Rules>, seed: u64) -> (u64, u32) {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |x: u64| {
        for b in x.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut g = Game::new(rules.clone(), seed);
    let mut bot = RandomBot::new(seed ^ 0xA5A5);
    let mut n = 0u32;
    while let Some(a) = bot.act(&g) {
        let seat = g.current_player().map_or(u64::MAX, |p| p as u64);
        feed(seat);
        feed(a as u64);
        g.step(a).expect("the random bot picks legal actions");
        n += 1;
    }
    feed(g.winner().map_or(u64::MAX, |w| w as u64));
    for s in g.scores() {
        feed(*s as i64 as u64);
    }
    (h, n)
}

fn golden_text() -> String {
    let mut out = String::new();
    for preset in preset_names() {
        let spec = load_spec(preset, None).unwrap();
        for n in spec.players.min as usize..=spec.players.max as usize {
            let rules = Arc::new(Rules::from_spec(spec.clone(), n).unwrap());
            let s = random_selfplay(rules.clone(), GAMES, 0);
            let wins: Vec<String> = s.wins.iter().map(|w| w.to_string()).collect();
            write!(
                out,
                "{preset} n={n} decisions={} wins={} no_winner={} truncated={}",
                s.decisions,
                wins.join(","),
                s.no_winner,
                s.truncated
            )
            .unwrap();
            for seed in 0..TRACED_GAMES {
                let (h, len) = trace_hash(&rules, seed);
                write!(out, " trace{seed}={h:016x}/{len}").unwrap();
            }
            out.push('\n');
        }
        // Each documented variant once, at the smallest table it allows.
        for name in spec.variant.keys() {
            let over = serde_json::json!({ "variants": [name] });
            let vspec = match load_spec(preset, Some(&over)) {
                Ok(v) => v,
                Err(e) => {
                    writeln!(out, "{preset}+{name} error={e}").unwrap();
                    continue;
                }
            };
            let n = (vspec.players.min as usize).max(2);
            let rules = match Rules::from_spec(vspec, n) {
                Ok(r) => Arc::new(r),
                Err(e) => {
                    writeln!(out, "{preset}+{name} error={e}").unwrap();
                    continue;
                }
            };
            let s = random_selfplay(rules.clone(), VARIANT_GAMES, 1);
            let wins: Vec<String> = s.wins.iter().map(|w| w.to_string()).collect();
            let (h, len) = trace_hash(&rules, 7);
            writeln!(
                out,
                "{preset}+{name} n={n} decisions={} wins={} no_winner={} truncated={} trace7={h:016x}/{len}",
                s.decisions,
                wins.join(","),
                s.no_winner,
                s.truncated
            )
            .unwrap();
        }
    }
    out
}

#[test]
fn seeded_selfplay_matches_the_golden_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/selfplay.txt");
    let now = golden_text();
    if std::env::var_os("EIGHTS_BLESS").is_some() {
        std::fs::write(path, &now).unwrap();
        return;
    }
    let want = std::fs::read_to_string(path).expect("tests/golden/selfplay.txt (bless with EIGHTS_BLESS=1)");
    if now != want {
        let diff: Vec<String> = want
            .lines()
            .zip(now.lines())
            .filter(|(a, b)| a != b)
            .take(5)
            .map(|(a, b)| format!("- {a}\n+ {b}"))
            .collect();
        panic!(
            "seeded self-play changed ({} vs {} lines); first differences:\n{}",
            want.lines().count(),
            now.lines().count(),
            diff.join("\n")
        );
    }
}
