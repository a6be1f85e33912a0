//! Fuzz harness for the two untrusted inputs of the engine: a saved game state (a snapshot
//! as `Game.to_dict()` writes it, or a position as `Game.from_position` takes it) and a
//! rules specification. Runs on stable Rust, driven by proptest.
//!
//! Each case takes a real input (a snapshot of a random game after a random number of
//! decisions, a random position, or a preset's resolved rules), applies a random list of
//! mutations (values at type boundaries, wrong types, deleted keys, cards moved or
//! duplicated), and loads it. Loading must either fail with an error or give a game that
//! [`checked_playout`] can play to the end with every invariant holding after every
//! decision (cards conserved, legal set = mask and empty exactly at the end, observations
//! finite, snapshot round trip, zero-sum returns). A panic anywhere is a failure that prints
//! the input.
//!
//! `EIGHTS_FUZZ_CASES` sets the number of cases per target (default 300, a few seconds in
//! release mode; use e.g. 100000 for a long run) and `EIGHTS_FUZZ_SEED` another seed. Each
//! target prints how many cases it ran and how many inputs were accepted and played.

use eights::card::Card;
use eights::check::{CheckStats, checked_playout};
use eights::game::{Game, Position, Snapshot, derive_seed};
use eights::rules::{MAX_PLAYERS, Rules, load_spec, preset_names, spec_from_value};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed, TestRunner};
use serde_json::{Value, json};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

fn cases() -> u32 {
    std::env::var("EIGHTS_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(300)
}

fn config() -> Config {
    let seed = std::env::var("EIGHTS_FUZZ_SEED").ok().and_then(|c| c.parse().ok()).unwrap_or(0xF022);
    Config {
        cases: cases(),
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        max_shrink_iters: 512,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------
// Mutations of a JSON tree.

/// One change at the `pick`-th node of the tree (modulo the number of nodes).
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace with an integer, often at a type boundary.
    Int(i64),
    /// Replace with a float (fractional or huge).
    Float(f64),
    Bool(bool),
    Null,
    /// Replace with a string: a card, a suit, a phase name or junk.
    Str(String),
    /// Remove the key (object member) or the element (array).
    Delete,
    /// Duplicate an array element / wrap a value in an array.
    Duplicate,
    /// Replace with an empty object or an empty array.
    Empty(bool),
}

fn boundary_int() -> impl Strategy<Value = i64> {
    prop_oneof![
        prop::sample::select(vec![
            -1i64,
            0,
            1,
            2,
            3,
            4,
            5,
            7,
            8,
            13,
            14,
            15,
            53,
            54,
            127,
            128,
            200,
            255,
            256,
            65_535,
            65_536,
            i32::MAX as i64,
            i32::MAX as i64 + 1,
            u32::MAX as i64,
            u32::MAX as i64 + 1,
            i64::MAX,
            i64::MIN,
        ]),
        -3i64..60,
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let words = prop::sample::select(vec![
        "8H",
        "QS",
        "AS",
        "2C",
        "JK",
        "RJ",
        "BJ",
        "H",
        "S",
        "X",
        "",
        "play",
        "chain",
        "game_over",
        "keep",
        "challenge",
        "none",
        "suit",
        "picture",
        "same_rank",
        "zz",
    ]);
    prop_oneof![
        6 => boundary_int().prop_map(Mutation::Int),
        1 => prop::sample::select(vec![0.5f64, -0.5, 1e300, 3.0]).prop_map(Mutation::Float),
        1 => any::<bool>().prop_map(Mutation::Bool),
        1 => Just(Mutation::Null),
        2 => words.prop_map(|s| Mutation::Str(s.to_string())),
        2 => Just(Mutation::Delete),
        2 => Just(Mutation::Duplicate),
        1 => any::<bool>().prop_map(Mutation::Empty),
    ]
}

/// Paths to every node of `v` (the root excluded), depth first.
fn paths(v: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                prefix.push(Value::from(k.clone()));
                out.push(prefix.clone());
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                prefix.push(Value::from(i));
                out.push(prefix.clone());
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn apply(root: &mut Value, pick: usize, m: &Mutation) {
    let mut all = Vec::new();
    paths(root, &mut Vec::new(), &mut all);
    if all.is_empty() {
        return;
    }
    let path = &all[pick % all.len()];
    let (last, parent_path) = path.split_last().expect("paths are never empty");
    let mut parent = &mut *root;
    for step in parent_path {
        parent = match step {
            Value::String(k) => &mut parent[k.as_str()],
            Value::Number(i) => &mut parent[i.as_u64().unwrap_or(0) as usize],
            _ => return,
        };
    }
    let slot = match last {
        Value::String(k) => parent.get_mut(k.as_str()),
        Value::Number(i) => parent.get_mut(i.as_u64().unwrap_or(0) as usize),
        _ => None,
    };
    let Some(slot) = slot else { return };
    let new = match m {
        Mutation::Int(i) => json!(i),
        Mutation::Float(f) => json!(f),
        Mutation::Bool(b) => json!(b),
        Mutation::Null => Value::Null,
        Mutation::Str(s) => json!(s),
        Mutation::Empty(true) => json!({}),
        Mutation::Empty(false) => json!([]),
        Mutation::Duplicate => json!([slot.clone(), slot.clone()]),
        Mutation::Delete => {
            match (parent, last) {
                (Value::Object(o), Value::String(k)) => {
                    o.remove(k);
                }
                (Value::Array(a), Value::Number(i)) => {
                    a.remove(i.as_u64().unwrap_or(0) as usize);
                }
                _ => {}
            }
            return;
        }
    };
    // In an array of cards, a duplicate means one more copy, not a nested list.
    if let (Mutation::Duplicate, Value::Array(a), Value::Number(i)) = (m, &mut *parent, last) {
        let i = i.as_u64().unwrap_or(0) as usize;
        let x = a[i].clone();
        a.insert(i, x);
        return;
    }
    let slot = match last {
        Value::String(k) => &mut parent[k.as_str()],
        Value::Number(i) => &mut parent[i.as_u64().unwrap_or(0) as usize],
        _ => return,
    };
    *slot = new;
}

// ---------------------------------------------------------------------------------------
// Inputs.

fn rules_for(preset: &str, n: usize) -> Option<Arc<Rules>> {
    let spec = load_spec(preset, None).ok()?;
    let n = n.clamp(spec.players.min.max(2) as usize, spec.players.max.min(MAX_PLAYERS as u8) as usize);
    Rules::from_spec(spec, n).ok().map(Arc::new)
}

/// A snapshot of a random game of `preset` after `steps` random decisions.
fn snapshot_value(preset: &str, n: usize, seed: u64, steps: u32) -> Value {
    let rules = rules_for(preset, n).expect("every preset loads for some player count");
    let mut g = Game::new(rules, seed);
    let mut bot = eights::bots::RandomBot::new(seed ^ 1);
    for _ in 0..steps {
        match bot.act(&g) {
            Some(a) => g.step(a).expect("a random legal action"),
            None => break,
        }
    }
    serde_json::to_value(g.snapshot()).expect("a snapshot serializes")
}

// Per test thread (each target runs on its own thread): cases run, inputs accepted,
// decisions checked.
thread_local! {
    static RAN: Cell<u64> = const { Cell::new(0) };
    static LOADED: Cell<u64> = const { Cell::new(0) };
    static DECISIONS: Cell<u64> = const { Cell::new(0) };
}

fn bump(c: &'static std::thread::LocalKey<Cell<u64>>, k: u64) {
    c.with(|x| x.set(x.get() + k));
}

/// Load a game with `load`; if it loads, play it to the end under the invariant checks. A
/// panic or a failed check is an `Err` naming the input.
fn load_and_play(what: &str, input: &str, load: impl FnOnce() -> Option<Game>, seed: u64) -> Result<(), String> {
    bump(&RAN, 1);
    let r = catch_unwind(AssertUnwindSafe(|| {
        let Some(mut g) = load() else { return CheckStats::default() };
        bump(&LOADED, 1);
        let mut stats = CheckStats::default();
        checked_playout(&mut g, seed, &mut stats);
        stats
    }));
    match r {
        Ok(stats) if stats.violations == 0 => {
            bump(&DECISIONS, stats.decisions);
            Ok(())
        }
        Ok(stats) => Err(format!("{what}: invariant broken: {:?}\ninput: {input}", stats.failures)),
        Err(p) => {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            Err(format!("{what}: panic {msg:?}\ninput: {input}"))
        }
    }
}

fn report(target: &str) {
    eprintln!(
        "fuzz {target}: {} cases run, {} inputs accepted and played, {} decisions checked",
        RAN.with(Cell::get),
        LOADED.with(Cell::get),
        DECISIONS.with(Cell::get)
    );
}

fn preset() -> impl Strategy<Value = &'static str> {
    prop::sample::select(preset_names())
}

// ---------------------------------------------------------------------------------------
// Targets. Each is one #[test] so the case counts are reported per target.

fn run<S: Strategy>(name: &str, strategy: S, f: impl Fn(S::Value) -> Result<(), String>)
where
    S::Value: std::fmt::Debug,
{
    let mut runner = TestRunner::new(config());
    let r = runner.run(&strategy, |v| f(v).map_err(TestCaseError::fail));
    report(name);
    if let Err(e) = r {
        panic!("{name}: {e}");
    }
}

#[test]
fn fuzz_snapshots() {
    let strategy =
        (preset(), 2usize..=6, any::<u64>(), 0u32..120, prop::collection::vec((any::<usize>(), mutation()), 1..5));
    run("snapshots", strategy, |(preset, n, seed, steps, muts)| {
        let mut v = snapshot_value(preset, n, seed, steps);
        for (pick, m) in &muts {
            apply(&mut v, *pick, m);
        }
        let text = v.to_string();
        let load = || {
            let snap: Snapshot = serde_json::from_value(v).ok()?;
            Game::from_snapshot(snap).ok()
        };
        load_and_play("snapshot", &text, load, seed)
    });
}

/// Arbitrary card names from the full 54-face range (any preset may lack some).
fn card() -> impl Strategy<Value = Card> {
    (0usize..54).prop_map(|i| Card::from_index(i).expect("0..54 are the card indices"))
}

#[test]
fn fuzz_positions() {
    let strategy = (
        preset(),
        2usize..=6,
        prop::collection::vec(prop::collection::vec(card(), 0..8), 0..8),
        prop::collection::vec(card(), 0..4),
        prop::option::of(prop::collection::vec(card(), 0..10)),
        (0usize..9, prop::sample::select(vec![1i8, -1, 0, 2]), prop::option::of(0u8..4)),
        (prop::sample::select(vec![0u16, 1, 2, 5, 200, 65_535]), prop::option::of(0usize..9), any::<u64>()),
        prop::option::of(prop::collection::vec(prop::sample::select(vec![0i32, 7, -5, 499, i32::MAX]), 0..8)),
        prop::collection::vec(card(), 0..3),
    );
    run("positions", strategy, |(preset, n, hands, discard, stock, turn, extra, scores, rogue)| {
        let Some(rules) = rules_for(preset, n) else { return Ok(()) };
        // Mostly one hand per seat and cards of the deck (so that many positions load);
        // the raw lists stay for the first case of every 8 to test the refusals too.
        let (mut hands, mut discard, mut stock, mut rogue) = (hands, discard, stock, rogue);
        if extra.2 % 8 != 0 {
            let in_deck = |v: &mut Vec<Card>| v.retain(|&c| rules.deck.count(c) > 0);
            hands.resize(rules.num_players as usize, vec![]);
            hands.iter_mut().for_each(in_deck);
            in_deck(&mut discard);
            in_deck(&mut rogue);
            if let Some(st) = stock.as_mut() {
                in_deck(st);
            }
            if discard.is_empty() {
                discard.push(Card::from_index(0).expect("0 is a card index"));
            }
        }
        let (current_player, direction, suit) = turn;
        let (pending_draw, dealer, seed) = extra;
        let pos = Position {
            hands,
            discard,
            stock,
            current_player,
            direction,
            nominated_suit: suit.map(|s| rules.suits()[s as usize]),
            pending_draw,
            dealer,
            seed,
            scores,
            rogue,
            wild_rank: None,
        };
        let text = format!("{preset} n={} {pos:?}", rules.num_players);
        load_and_play("position", &text, || Game::from_position(rules, &pos).ok(), seed)
    });
}

#[test]
fn fuzz_rules_specs() {
    let strategy = (preset(), 2usize..=8, any::<u64>(), prop::collection::vec((any::<usize>(), mutation()), 1..5));
    run("rules", strategy, |(preset, n, seed, muts)| {
        let mut v = serde_json::to_value(load_spec(preset, None).expect("presets load")).expect("specs serialize");
        for (pick, m) in &muts {
            apply(&mut v, *pick, m);
        }
        let text = v.to_string();
        let load = || {
            let spec = spec_from_value(v).ok()?;
            let rules = Rules::from_spec(spec, n).ok()?;
            Some(Game::new(Arc::new(rules), derive_seed(seed, 0)))
        };
        load_and_play("rules", &text, load, seed)
    });
}
