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
//! release mode; use e.g. 100000 for a long run), `EIGHTS_FUZZ_SEED` another seed, and
//! `EIGHTS_FUZZ_SECONDS` a time budget per target (checked between chunks of 1000 cases, each
//! drawn from a seed of its own: a failure names the seed that replays its chunk). Each target prints how many cases it ran and how many inputs were accepted
//! and played (and its progress every 1000 cases).

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

/// The time budget of one target (`EIGHTS_FUZZ_SECONDS`), if any.
fn budget() -> Option<f64> {
    std::env::var("EIGHTS_FUZZ_SECONDS").ok().and_then(|c| c.parse::<f64>().ok())
}

fn base_seed() -> u64 {
    std::env::var("EIGHTS_FUZZ_SEED").ok().and_then(|c| c.parse().ok()).unwrap_or(0xF022)
}

/// Cases per chunk: a target runs its cases in chunks, each from a seed of its own, so that a
/// time budget stops it between chunks (a chunk of `n` cases with seed `s` replays with
/// `EIGHTS_FUZZ_SEED=s EIGHTS_FUZZ_CASES=n`).
const CHUNK: u32 = 1000;

fn config(seed: u64, cases: u32) -> Config {
    Config {
        cases,
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
    if RAN.with(Cell::get) % 1000 == 0 {
        report(&format!("{what} (so far)"));
    }
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
    let start = std::time::Instant::now();
    let (total, base) = (cases(), base_seed());
    let (mut done, mut chunk) = (0u32, 0u64);
    while done < total && !budget().is_some_and(|b| start.elapsed().as_secs_f64() > b) {
        let n = (total - done).min(CHUNK);
        // The first chunk keeps the base seed: a run of at most CHUNK cases is the stream of old.
        let seed = if chunk == 0 { base } else { derive_seed(base, chunk) };
        let mut runner = TestRunner::new(config(seed, n));
        if let Err(e) = runner.run(&strategy, |v| f(v).map_err(TestCaseError::fail)) {
            report(name);
            panic!("{name}: chunk {chunk} (EIGHTS_FUZZ_SEED={seed} EIGHTS_FUZZ_CASES={n} replays it): {e}");
        }
        done += n;
        chunk += 1;
    }
    report(name);
    eprintln!("fuzz {name}: {done} cases in {:.0} s", start.elapsed().as_secs_f64());
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

/// A small deterministic generator (splitmix64) for the position layouts: the layout is a
/// function of one proptest-drawn seed, so a failing case prints and replays exactly.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..k` (`k > 0`; the modulo bias is irrelevant here).
    fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

/// A position of `rules` that is valid by construction, drawn from `seed`: the preset's
/// real deck shuffled and split into one hand per seat (1 to 8 cards), a discard pile (its top card often a draw-chain card when a draw penalty is
/// pending, a wild when a suit is nominated), a stalin rogue pile when the preset has one,
/// and the stock (the rest, or part of it, or `None` to let the engine shuffle the rest in);
/// the player to act, direction, dealer and scores in range.
fn deck_position(rules: &Rules, seed: u64) -> Position {
    let mut r = Mix(seed);
    let n = rules.num_players as usize;
    let mut deck: Vec<Card> = Vec::new();
    for c in rules.deck.faces() {
        for _ in 0..rules.deck.count(c) {
            deck.push(c);
        }
    }
    for i in (1..deck.len()).rev() {
        let j = r.below(i + 1);
        deck.swap(i, j);
    }
    let mut hands = Vec::with_capacity(n);
    for _ in 0..n {
        // At least one card: a seat with none has gone out, and the hand is over.
        let want = 1 + r.below(8);
        let k = want.min(deck.len().saturating_sub(1));
        hands.push(deck.split_off(deck.len() - k));
    }
    // The top card: a draw-chain starter for a pending draw (when the deck has one), a
    // wild for a nominated suit, otherwise any card.
    let pending_draw = if r.chance(1, 4) { 1 + r.below(6) as u16 } else { 0 };
    let nominate = r.chance(1, 5);
    let want_top = |c: &Card| {
        let rule = &rules.card[c.index()];
        (pending_draw == 0 || rule.chain.is_some()) && (!nominate || rule.wild.is_some())
    };
    let mut discard = Vec::new();
    // Drawn first, as before, so the fuzz stream is unchanged.
    let no_start_card = rules.settings.lead && r.chance(1, 3);
    if !no_start_card && !deck.is_empty() {
        let under = r.below(4).min(deck.len() - 1);
        for _ in 0..under {
            discard.push(deck.pop().expect("under < deck.len()"));
        }
        let top = deck.iter().position(want_top).unwrap_or(deck.len() - 1);
        discard.push(deck.swap_remove(top));
    }
    let mut rogue = Vec::new();
    if rules.rogue && r.chance(1, 2) {
        // The rogue pile holds red cards only.
        for _ in 0..r.below(3) {
            let Some(k) = deck.iter().position(|c| c.is_red() && !c.is_joker()) else { break };
            rogue.push(deck.swap_remove(k));
        }
    }
    let stock = match r.below(3) {
        0 => None,
        1 => Some(deck),
        _ => {
            let k = r.below(deck.len() + 1);
            Some(deck[..k].to_vec())
        }
    };
    let suits = rules.suits();
    Position {
        hands,
        discard,
        stock,
        current_player: r.below(n),
        direction: if r.chance(1, 2) { 1 } else { -1 },
        nominated_suit: if nominate { Some(suits[r.below(4)]) } else { None },
        pending_draw,
        dealer: if r.chance(1, 2) { Some(r.below(n)) } else { None },
        seed: r.next(),
        scores: if r.chance(1, 3) { Some((0..n).map(|_| r.below(200) as i32 - 50).collect()) } else { None },
        rogue,
        // Drawn by the engine under options.wild_instapik.
        wild_rank: None,
    }
}

/// A position as the keyword arguments of `Game.from_position` (cards as strings).
fn position_value(pos: &Position) -> Value {
    let cards = |v: &[Card]| Value::from(v.iter().map(|c| c.to_string()).collect::<Vec<_>>());
    json!({
        "hands": pos.hands.iter().map(|h| cards(h)).collect::<Vec<_>>(),
        "discard": cards(&pos.discard),
        "stock": pos.stock.as_deref().map(cards),
        "current_player": pos.current_player,
        "direction": pos.direction,
        "nominated_suit": pos.nominated_suit.map(|s| s.letter().to_string()),
        "pending_draw": pos.pending_draw,
        "dealer": pos.dealer,
        "seed": pos.seed,
        "scores": pos.scores,
        "rogue": cards(&pos.rogue),
        "wild_rank": pos.wild_rank.map(|r| r.letter().to_string()),
    })
}

/// The position back from its (possibly mutated) arguments, as the binding reads them:
/// `None` where a value has the wrong type or does not fit its integer type (the binding
/// raises `TypeError`/`ValueError` there; range and consistency are left to the engine).
fn position_from_value(v: &Value) -> Option<Position> {
    let cards =
        |v: &Value| -> Option<Vec<Card>> { v.as_array()?.iter().map(|c| c.as_str()?.parse::<Card>().ok()).collect() };
    let int = |k: &str| v.get(k).and_then(Value::as_i64);
    let opt = |k: &str| v.get(k).filter(|x| !x.is_null());
    Some(Position {
        hands: v.get("hands")?.as_array()?.iter().map(cards).collect::<Option<_>>()?,
        discard: cards(v.get("discard")?)?,
        stock: match opt("stock") {
            None => None,
            Some(s) => Some(cards(s)?),
        },
        current_player: usize::try_from(int("current_player").unwrap_or(0)).ok()?,
        direction: i8::try_from(int("direction").unwrap_or(1)).ok()?,
        nominated_suit: match opt("nominated_suit") {
            None => None,
            Some(s) => Some(eights::card::Suit::parse(s.as_str()?)?),
        },
        pending_draw: u16::try_from(int("pending_draw").unwrap_or(0)).ok()?,
        dealer: match opt("dealer") {
            None => None,
            Some(d) => Some(usize::try_from(d.as_i64()?).ok()?),
        },
        seed: match opt("seed") {
            None => 0,
            Some(s) => s.as_u64()?,
        },
        scores: match opt("scores") {
            None => None,
            Some(s) => Some(
                s.as_array()?.iter().map(|x| x.as_i64().and_then(|x| i32::try_from(x).ok())).collect::<Option<_>>()?,
            ),
        },
        rogue: match opt("rogue") {
            None => vec![],
            Some(r) => cards(r)?,
        },
        wild_rank: match opt("wild_rank") {
            None => None,
            Some(w) => Some(eights::card::Rank::parse(w.as_str()?)?),
        },
    })
}

// Positions loaded before any mutation (valid by construction), per test thread.
thread_local! {
    static CLEAN: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

#[test]
fn fuzz_positions() {
    // Two cases in three keep the generated position as it is (it should load and play);
    // the others get one to four mutations, as the snapshots do (mostly refused).
    let muts = prop_oneof![
        2 => Just(vec![]),
        1 => prop::collection::vec((any::<usize>(), mutation()), 1..5),
    ];
    let strategy = (preset(), 2usize..=6, any::<u64>(), muts);
    run("positions", strategy, |(preset, n, seed, muts)| {
        let Some(rules) = rules_for(preset, n) else { return Ok(()) };
        let pos = deck_position(&rules, seed);
        let mut v = position_value(&pos);
        for (pick, m) in &muts {
            apply(&mut v, *pick, m);
        }
        let text = format!("{preset} n={} {v}", rules.num_players);
        let clean = muts.is_empty();
        let load = || {
            let pos = position_from_value(&v)?;
            let g = Game::from_position(rules, &pos).ok();
            if clean {
                CLEAN.with(|c| {
                    let (tried, ok) = c.get();
                    c.set((tried + 1, ok + u64::from(g.is_some())));
                });
            }
            g
        };
        load_and_play("position", &text, load, seed)
    });
    let (tried, ok) = CLEAN.with(Cell::get);
    eprintln!("fuzz positions: {ok} of {tried} unmutated generated positions loaded");
    // The generator must mostly make valid positions, or the target tests little.
    assert!(tried < 20 || ok * 2 > tried, "only {ok} of {tried} generated positions loaded");
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
