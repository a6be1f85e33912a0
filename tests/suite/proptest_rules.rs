//! Property tests: random valid rule sets, played by random bots.
//!
//! Each case starts from a preset (with a random subset of its documented variants), applies
//! a random list of mutations (rule dimensions and card effects over random card
//! selectors), repairs what validation would reject (hand size that does not fit the deck,
//! a cancel naming a chain group that no longer exists, ...), and plays a few seeded games
//! with [`RandomBot`]s. Properties, checked after every decision:
//!
//! * the engine never panics;
//! * card conservation: `game.card_count() == rules.deck`;
//! * a live game (neither terminal nor truncated) always has a legal action;
//! * every episode ends or is truncated within `limits.max_decisions` decisions.
//!
//! The case count is modest (runs in seconds in release mode); set `PROPTEST_CASES` for a
//! longer search and `EIGHTS_PROPTEST_SEED` for another deterministic seed. A shrunk failure
//! prints the complete rules as JSON, the player count and the game seed.

use eights::bots::RandomBot;
use eights::card::{Card, Rank};
use eights::game::Game;
use eights::rules::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed};
use serde_json::json;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// Games played per generated rule set.
const GAMES_PER_CASE: u64 = 3;

// ---------------------------------------------------------------------------------------
// The plan: a preset, variants and a list of mutations (shrinks by dropping mutations).

#[derive(Debug, Clone)]
enum Effect {
    Skip(u8),
    Reverse(bool),
    DrawChain {
        amount: u8,
        group: Option<u8>,
        answer: Option<ChainAnswer>,
        accumulate: Option<Accumulate>,
    },
    DrawLose(u8),
    DrawKeep(u8),
    /// `None` cancels any chain; `Some(i)` the i-th existing chain group (modulo).
    Cancel(Option<u8>),
    FreePlay(bool),
    Follow(Follow),
    EndsTurn(bool),
    ExtraTurn(bool),
    OthersDraw(u8),
    Wild {
        nominate: Nominate,
        requires_match: bool,
        only_if_no_other: bool,
        solo: bool,
        free: bool,
        forbidden: Option<String>,
    },
    NotWild,
    Nominate(Nominate),
    Repeat(Repeat),
    Give(Give),
    WasteDraw(u8),
    Marriage(bool),
    LastSpecial(LastSpecial),
    Mirror(bool),
    Shield {
        pass_through: bool,
        same_suit: bool,
    },
    JokerLock(bool),
}

#[derive(Debug, Clone)]
enum Mutation {
    Packs(u8),
    Jokers(bool),
    HandSize(u8),
    Start(StartEffect),
    StartCard(String, StartEffect),
    Order(FirstPlayer, Direction, NextDealer),
    RankBlocked(Vec<String>),
    AnyCourt(bool),
    NominationLapses(bool),
    Draw {
        voluntary: bool,
        mode: DrawMode,
        limit: u8,
        after: DrawAfter,
    },
    Pass(PassWhen, AllPass, bool, bool),
    Stock(Exhausted, bool, bool),
    Multi(MultiMode, MultiEffects, Vec<String>),
    Chain {
        answer: ChainAnswer,
        accumulate: Accumulate,
        increment: u8,
        accept_ends_turn: bool,
        wild_blocked: bool,
        needs_stock: bool,
        pickup_counts_as_pass: bool,
    },
    TwoPlayerReverse(TwoPlayerReverse),
    LastCard(LastCardMode, u8, LastCardTiming),
    LastSpecial(LastSpecial),
    End {
        blocked: bool,
        four_of_a_kind: bool,
    },
    Score {
        mode: ScoreMode,
        double_last_rank: bool,
        double_trouble: bool,
        winner_bonus: i32,
        blocked: BlockedScoring,
    },
    Series {
        play_match: bool,
        target: u32,
    },
    SillyHat(bool),
    JokerBluff(bool),
    Allow500(bool),
    WildInstapik(bool),
    ClearCards,
    Card(String, Effect),
}

#[derive(Debug, Clone)]
struct Plan {
    preset: usize,
    variants: Vec<usize>,
    num_players: usize,
    mutations: Vec<Mutation>,
    max_decisions: u32,
    seed: u64,
}

// One name a rank: two names of the same cards in one table ("T" and "10") are refused.
const RANKS: [&str; 13] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];

fn rank_sel() -> impl Strategy<Value = String> {
    prop::sample::select(&RANKS[..]).prop_map(str::to_string)
}

fn selector() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => rank_sel(),
        2 => (prop::bool::ANY, rank_sel()).prop_map(|(red, r)| format!("{} {r}", if red { "red" } else { "black" })),
        2 => (0u8..52).prop_map(|i| Card(i).to_string()),
        1 => prop::sample::select(&["joker", "RJ", "BJ"][..]).prop_map(str::to_string),
    ]
}

fn nominate() -> impl Strategy<Value = Nominate> {
    prop::sample::select(
        &[Nominate::Required, Nominate::Optional, Nominate::OptionalKeepSuit, Nominate::None, Nominate::OnlyIfMatching]
            [..],
    )
}

fn chain_answer() -> impl Strategy<Value = ChainAnswer> {
    prop::sample::select(&[ChainAnswer::SameRank, ChainAnswer::AnyDrawCard, ChainAnswer::None][..])
}

fn last_special() -> impl Strategy<Value = LastSpecial> {
    prop::sample::select(&[LastSpecial::Ignored, LastSpecial::DrawsApply, LastSpecial::ChainContinues][..])
}

fn effect() -> impl Strategy<Value = Effect> {
    prop_oneof![
        3 => (1u8..=2).prop_map(Effect::Skip),
        2 => prop::bool::ANY.prop_map(Effect::Reverse),
        4 => (1u8..=5, prop::option::of(0u8..3), prop::option::of(chain_answer()),
              prop::option::of(prop::sample::select(&[Accumulate::Sum, Accumulate::Increment, Accumulate::Fixed][..])))
            .prop_map(|(amount, group, answer, accumulate)| Effect::DrawChain { amount, group, answer, accumulate }),
        2 => (1u8..=4).prop_map(Effect::DrawLose),
        1 => (1u8..=3).prop_map(Effect::DrawKeep),
        2 => prop::option::of(0u8..4).prop_map(Effect::Cancel),
        2 => prop::bool::ANY.prop_map(Effect::FreePlay),
        2 => prop::sample::select(&[Follow::SameSuitAny, Follow::OneMatching, Follow::None][..]).prop_map(Effect::Follow),
        1 => prop::bool::ANY.prop_map(Effect::EndsTurn),
        1 => prop::bool::ANY.prop_map(Effect::ExtraTurn),
        1 => (1u8..=2).prop_map(Effect::OthersDraw),
        3 => (nominate(), prop::bool::weighted(0.2), prop::bool::weighted(0.2), prop::bool::weighted(0.2),
              prop::bool::weighted(0.2), prop::option::weighted(0.2, selector()))
            .prop_map(|(nominate, requires_match, only_if_no_other, solo, free, forbidden)| Effect::Wild {
                nominate, requires_match, only_if_no_other, solo, free, forbidden,
            }),
        1 => Just(Effect::NotWild),
        1 => nominate().prop_map(Effect::Nominate),
        1 => prop::sample::select(&[Repeat::Each, Repeat::Once][..]).prop_map(Effect::Repeat),
        1 => prop::sample::select(&[Give::EachOther, Give::One][..]).prop_map(Effect::Give),
        1 => (1u8..=2).prop_map(Effect::WasteDraw),
        1 => prop::bool::ANY.prop_map(Effect::Marriage),
        1 => prop::bool::ANY.prop_map(Effect::Mirror),
        1 => (prop::bool::ANY, prop::bool::ANY).prop_map(|(pass_through, same_suit)| Effect::Shield { pass_through, same_suit }),
        1 => prop::bool::ANY.prop_map(Effect::JokerLock),
        1 => last_special().prop_map(Effect::LastSpecial),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    use prop::sample::select;
    prop_oneof![
        1 => (1u8..=2).prop_map(Mutation::Packs),
        1 => prop::bool::ANY.prop_map(Mutation::Jokers),
        2 => (1u8..=12).prop_map(Mutation::HandSize),
        1 => select(&[StartEffect::AsPlayedByDealer, StartEffect::Ignore, StartEffect::DealerNominatesBlind, StartEffect::FreePlay][..])
            .prop_map(Mutation::Start),
        1 => (selector(), select(&[StartEffect::AsPlayedByDealer, StartEffect::Ignore, StartEffect::Redraw, StartEffect::DealerNominatesBlind, StartEffect::FreePlay][..]))
            .prop_map(|(s, e)| Mutation::StartCard(s, e)),
        1 => (select(&[FirstPlayer::DealerLeft, FirstPlayer::DealerChooses, FirstPlayer::Agreed][..]),
              select(&[Direction::Cw, Direction::Ccw][..]),
              select(&[NextDealer::Clockwise, NextDealer::Winner, NextDealer::Fixed][..]))
            .prop_map(|(f, d, n)| Mutation::Order(f, d, n)),
        1 => prop::collection::vec(rank_sel(), 0..3).prop_map(Mutation::RankBlocked),
        1 => prop::bool::ANY.prop_map(Mutation::AnyCourt),
        1 => prop::bool::ANY.prop_map(Mutation::NominationLapses),
        3 => (prop::bool::ANY,
              select(&[DrawMode::One, DrawMode::UntilPlayable, DrawMode::UntilPlayableOrHand, DrawMode::UpTo][..]),
              0u8..=9,
              select(&[DrawAfter::EndTurn, DrawAfter::MayPlayDrawn, DrawAfter::MayPlayAny, DrawAfter::MustPlayDrawnIfPlayable, DrawAfter::MustPlayWhenFound][..]))
            .prop_map(|(voluntary, mode, limit, after)| Mutation::Draw { voluntary, mode, limit, after }),
        2 => (select(&[PassWhen::Never, PassWhen::StockEmpty, PassWhen::AfterDrawLimit][..]),
              select(&[AllPass::BlockedHandEnds, AllPass::PassIsFinal][..]), prop::bool::ANY, prop::bool::ANY)
            .prop_map(|(w, a, e, v)| Mutation::Pass(w, a, e, v)),
        2 => (select(&[Exhausted::ReshuffleAllButTop, Exhausted::TurnOverNoShuffle, Exhausted::NoReshuffle, Exhausted::KeepFive][..]), prop::bool::ANY, prop::bool::ANY)
            .prop_map(|(e, r, o)| Mutation::Stock(e, r, o)),
        2 => (select(&[MultiMode::Off, MultiMode::EqualRank, MultiMode::MatchingRun][..]),
              select(&[MultiEffects::CumulateAll, MultiEffects::TopOnly, MultiEffects::TopCardOnly, MultiEffects::TopOnlyInRuns][..]),
              prop::collection::vec(rank_sel(), 0..3))
            .prop_map(|(m, e, x)| Mutation::Multi(m, e, x)),
        2 => (chain_answer(), select(&[Accumulate::Sum, Accumulate::Increment, Accumulate::Fixed][..]), 0u8..=3,
              // chain.wild_blocked = false is refused (not implemented).
              prop::bool::ANY, Just(true), prop::bool::ANY, prop::bool::ANY)
            .prop_map(|(answer, accumulate, increment, accept_ends_turn, wild_blocked, needs_stock, pickup_counts_as_pass)| Mutation::Chain {
                answer, accumulate, increment, accept_ends_turn, wild_blocked, needs_stock, pickup_counts_as_pass,
            }),
        1 => select(&[TwoPlayerReverse::Noop, TwoPlayerReverse::AsSkip, TwoPlayerReverse::OrdinaryCard][..]).prop_map(Mutation::TwoPlayerReverse),
        1 => (select(&[LastCardMode::Off, LastCardMode::Auto, LastCardMode::Action][..]), 0u8..=3,
              select(&[LastCardTiming::HoldingOne, LastCardTiming::OnPenultimatePlay][..]))
            .prop_map(|(m, p, t)| Mutation::LastCard(m, p, t)),
        1 => last_special().prop_map(Mutation::LastSpecial),
        1 => (prop::bool::ANY, prop::bool::ANY).prop_map(|(blocked, four_of_a_kind)| Mutation::End { blocked, four_of_a_kind }),
        1 => (select(&[ScoreMode::Penalty, ScoreMode::WinnerCollects, ScoreMode::PerCard, ScoreMode::None][..]),
              prop::bool::ANY, prop::bool::ANY, -10i32..=0,
              select(&[BlockedScoring::AllScore, BlockedScoring::Nobody, BlockedScoring::LowestCollects][..]))
            .prop_map(|(mode, double_last_rank, double_trouble, winner_bonus, blocked)| Mutation::Score {
                mode, double_last_rank, double_trouble, winner_bonus, blocked,
            }),
        1 => (prop::bool::weighted(0.3), 20u32..=150).prop_map(|(play_match, target)| Mutation::Series { play_match, target }),
        1 => prop::bool::ANY.prop_map(Mutation::SillyHat),
        1 => prop::bool::ANY.prop_map(Mutation::JokerBluff),
        1 => prop::bool::ANY.prop_map(Mutation::Allow500),
        1 => prop::bool::ANY.prop_map(Mutation::WildInstapik),
        1 => Just(Mutation::ClearCards),
        12 => (selector(), effect()).prop_map(|(s, e)| Mutation::Card(s, e)),
    ]
}

fn plan() -> impl Strategy<Value = Plan> {
    let n_presets = preset_names().len();
    (
        0..n_presets,
        prop::collection::vec(0usize..16, 0..3),
        2usize..=6,
        prop::collection::vec(mutation(), 0..16),
        prop_oneof![Just(300u32), Just(1500u32), Just(4000u32)],
        any::<u64>(),
    )
        .prop_map(|(preset, variants, num_players, mutations, max_decisions, seed)| Plan {
            preset,
            variants,
            num_players,
            mutations,
            max_decisions,
            seed,
        })
}

// ---------------------------------------------------------------------------------------
// Building a valid spec from a plan.

fn apply_effect(cs: &mut CardSpec, e: &Effect) {
    match e.clone() {
        Effect::Skip(k) => cs.skip = Some(k),
        Effect::Reverse(b) => cs.reverse = Some(b),
        Effect::DrawChain { amount, group, answer, accumulate } => {
            cs.draw_chain = Some(DrawChainSpec {
                amount,
                group: group.map(|g| format!("g{g}")),
                answer,
                multi_answer: None,
                accumulate,
            })
        }
        Effect::DrawLose(k) => cs.draw_and_lose_turn = Some(k),
        Effect::DrawKeep(k) => cs.draw_keep_turn = Some(k),
        // Filled in once the chain groups are known (see `build`).
        Effect::Cancel(i) => cs.cancel = Some(vec![i.map_or("any".to_string(), |i| format!("#{i}"))]),
        Effect::FreePlay(b) => cs.free_play_next = Some(b),
        Effect::Follow(f) => cs.follow = Some(f),
        Effect::EndsTurn(b) => cs.ends_turn = Some(b),
        Effect::ExtraTurn(b) => cs.extra_turn = Some(b),
        Effect::OthersDraw(k) => cs.others_draw = Some(k),
        Effect::Wild { nominate, requires_match, only_if_no_other, solo, free, forbidden } => {
            cs.nominate = None;
            cs.wild = Some(WildSpec {
                enabled: true,
                nominate,
                requires_match,
                only_if_no_other,
                forbidden_on: forbidden.into_iter().collect(),
                solo,
                also_normal: false,
                follow: if free { WildFollow::Free } else { WildFollow::Normal },
            })
        }
        Effect::NotWild => cs.wild = Some(WildSpec { enabled: false, ..WildSpec::default() }),
        Effect::Nominate(n) => cs.nominate = Some(n),
        Effect::Repeat(r) => cs.repeat = Some(r),
        Effect::Give(g) => cs.give = Some(g),
        Effect::WasteDraw(k) => cs.waste_draw = Some(k),
        Effect::Marriage(b) => cs.marriage = Some(b),
        Effect::Mirror(b) => cs.mirror = Some(b),
        Effect::Shield { pass_through, same_suit } => {
            cs.shield = Some(ShieldSpec { against: vec!["any".into()], pass_through, same_suit })
        }
        Effect::JokerLock(b) => cs.joker_lock = Some(b),
        Effect::LastSpecial(l) => cs.last_special = Some(l),
    }
}

fn apply(spec: &mut RulesSpec, m: &Mutation) {
    match m.clone() {
        Mutation::Packs(p) => {
            spec.deck.packs = p;
            spec.deck.packs_by_players.clear();
        }
        Mutation::Jokers(j) => spec.deck.jokers = if j { 2 } else { 0 },
        Mutation::HandSize(h) => {
            spec.deal.hand_size = h;
            spec.deal.hand_size_by_players.clear();
        }
        Mutation::Start(e) => spec.start.effect = e,
        Mutation::StartCard(sel, e) => {
            spec.start.cards.insert(sel, e);
        }
        Mutation::Order(f, d, n) => {
            spec.order.first = f;
            spec.order.initial_direction = d;
            spec.order.next_dealer = n;
        }
        Mutation::RankBlocked(r) => spec.matching.rank_blocked = r,
        Mutation::AnyCourt(b) => spec.matching.any_court = b,
        Mutation::NominationLapses(b) => spec.matching.nomination_lapses = b,
        Mutation::Draw { voluntary, mode, limit, after } => {
            spec.draw.voluntary = voluntary;
            spec.draw.mode = mode;
            spec.draw.limit = limit;
            spec.draw.after = after;
        }
        Mutation::Pass(w, a, e, v) => {
            spec.passing.when = w;
            spec.passing.all_pass = a;
            spec.passing.explicit = e;
            spec.passing.voluntary = v;
        }
        Mutation::Stock(e, r, o) => {
            spec.stock.exhausted = e;
            spec.stock.refill_at_once = r;
            spec.stock.no_refill_after_out = o;
        }
        Mutation::Multi(mode, effects, excluded) => {
            spec.multi.mode = mode;
            spec.multi.effects = effects;
            spec.multi.excluded = excluded;
        }
        Mutation::Chain {
            answer,
            accumulate,
            increment,
            accept_ends_turn,
            wild_blocked,
            needs_stock,
            pickup_counts_as_pass,
        } => {
            spec.chain.needs_stock = needs_stock;
            spec.chain.pickup_counts_as_pass = pickup_counts_as_pass;
            spec.chain.answer = answer;
            spec.chain.accumulate = accumulate;
            spec.chain.increment = increment;
            spec.chain.accept_ends_turn = accept_ends_turn;
            spec.chain.wild_blocked = wild_blocked;
        }
        Mutation::TwoPlayerReverse(r) => spec.two_player.reverse = r,
        Mutation::LastCard(mode, penalty, timing) => {
            spec.last_card.mode = mode;
            spec.last_card.penalty = penalty;
            spec.last_card.timing = timing;
        }
        Mutation::LastSpecial(l) => spec.last_special = l,
        Mutation::End { blocked, four_of_a_kind } => {
            spec.end.blocked = blocked;
            spec.end.four_of_a_kind = four_of_a_kind;
        }
        Mutation::Score { mode, double_last_rank, double_trouble, winner_bonus, blocked } => {
            spec.score.mode = mode;
            spec.score.double_last_rank = double_last_rank;
            spec.score.double_trouble = double_trouble;
            spec.score.winner_bonus = winner_bonus;
            spec.score.blocked = blocked;
        }
        Mutation::Series { play_match, target } => {
            spec.series.play_match = play_match;
            spec.series.target = Some(target);
            spec.series.target_per_player = None;
        }
        Mutation::SillyHat(b) => spec.options.silly_hat = b,
        Mutation::JokerBluff(b) => spec.options.joker_bluff = b,
        Mutation::Allow500(b) => {
            spec.options.allow_500 = b;
            if b {
                spec.series.winner = SeriesWinner::LastBelow;
            }
        }
        Mutation::WildInstapik(b) => spec.options.wild_instapik = b,
        Mutation::ClearCards => spec.cards.clear(),
        Mutation::Card(sel, e) => apply_effect(spec.cards.entry(sel).or_default(), &e),
    }
}

/// Whether selector `sel` names card face `face` (mirrors the engine's selector rules).
fn covers(sel: &str, face: Card) -> bool {
    let lower = sel.trim().to_ascii_lowercase();
    if lower == "joker" || lower == "jokers" {
        return face.is_joker();
    }
    if lower == "any" {
        return true;
    }
    for (colour, red) in [("red ", true), ("black ", false)] {
        if let Some(r) = lower.strip_prefix(colour).and_then(Rank::parse) {
            return face.rank() == Some(r) && face.is_red() == red;
        }
    }
    if let Some(r) = Rank::parse(sel) {
        return face.rank() == Some(r);
    }
    sel.parse::<Card>().is_ok_and(|c| c == face)
}

fn effective_packs(spec: &RulesSpec, n: usize) -> u8 {
    // "From this many players up": the largest threshold at or below n, compared as numbers.
    spec.deck
        .packs_by_players
        .iter()
        .filter_map(|(k, &p)| k.parse::<usize>().ok().map(|from| (from, p)))
        .filter(|&(from, _)| n >= from)
        .max_by_key(|&(from, _)| from)
        .map_or(spec.deck.packs, |(_, p)| p)
}

/// The rules of a plan, validated for its player count. Panics on a generator bug (a spec
/// that validation rejects after the repairs).
fn build(p: &Plan) -> (RulesSpec, Arc<Rules>) {
    let names = preset_names();
    let name = names[p.preset % names.len()];
    let base = load_spec(name, None).unwrap();
    let documented: Vec<String> = base.variant.keys().cloned().collect();
    let mut variants: Vec<String> = if documented.is_empty() {
        vec![]
    } else {
        p.variants.iter().map(|i| documented[i % documented.len()].clone()).collect()
    };
    variants.dedup();
    // Variants that set one field to different values (alternatives) are refused together:
    // keep each only if it combines with those kept before it.
    let mut kept: Vec<String> = Vec::new();
    for v in variants {
        let mut with = kept.clone();
        with.push(v);
        if load_spec(name, Some(&json!({ "variants": with }))).is_ok() {
            kept = with;
        }
    }
    let mut spec = load_spec(name, Some(&json!({ "variants": kept }))).unwrap();
    for m in &p.mutations {
        apply(&mut spec, m);
    }
    let n = p.num_players;
    // Players, deck and deal.
    spec.players.min = 2;
    spec.players.max = spec.players.max.max(n as u8);
    let packs = effective_packs(&spec, n);
    let deck_len = packs as usize * (52 + spec.deck.jokers as usize);
    let mut hand = spec.deal.hand_size;
    if let Some(&h) = spec.deal.hand_size_by_players.get(&n.to_string()) {
        hand = h;
    }
    let fits = |h: u8| h as usize * n + (spec.deal.dealer_extra as usize) < deck_len; // plus the start card
    if !fits(hand) {
        let most = (deck_len - 1 - spec.deal.dealer_extra as usize) / n;
        spec.deal.hand_size = most.clamp(1, 255) as u8;
        spec.deal.hand_size_by_players.clear();
    }
    // Parameters that need a value with their mode.
    if matches!(spec.draw.mode, DrawMode::UpTo | DrawMode::UntilPlayableOrHand) && spec.draw.limit == 0 {
        spec.draw.limit = 3;
    }
    let increments = spec.chain.accumulate == Accumulate::Increment
        || spec
            .cards
            .values()
            .any(|c| c.draw_chain.as_ref().is_some_and(|d| d.accumulate == Some(Accumulate::Increment)));
    if increments && spec.chain.increment == 0 {
        spec.chain.increment = 2;
    }
    if spec.last_card.mode == LastCardMode::Action && spec.last_card.penalty == 0 {
        spec.last_card.penalty = 2;
    }
    // A countdown game is its own match: a series of hands is refused with it.
    if spec.countdown.is_some() {
        spec.series.play_match = false;
    }
    if spec.series.play_match && spec.series.target.is_none() && spec.series.target_per_player.is_none() {
        spec.series.target = Some(100);
    }
    // A countdown table goes with the countdown's scores, and a match's winner reads the totals
    // as the mode counts them (penalty points: the lowest; collected points: the first to reach).
    if spec.countdown.is_some() {
        spec.score.mode = ScoreMode::Countdown;
    } else if spec.score.mode == ScoreMode::Countdown {
        spec.score.mode = ScoreMode::Penalty;
    }
    match (spec.score.mode, spec.series.winner) {
        (ScoreMode::Penalty, SeriesWinner::FirstToReach) => spec.series.winner = SeriesWinner::Lowest,
        (ScoreMode::WinnerCollects | ScoreMode::PerCard, SeriesWinner::Lowest | SeriesWinner::LastBelow) => {
            spec.series.winner = SeriesWinner::FirstToReach
        }
        _ => {}
    }
    // Never redraw every start card: keep at most one redraw selector.
    let mut redraws = 0;
    spec.start.cards.retain(|_, e| {
        if *e == StartEffect::Redraw {
            redraws += 1;
        }
        *e != StartEffect::Redraw || redraws == 1
    });
    spec.limits.max_decisions = p.max_decisions;
    // Cancel targets: resolve against the chain groups that exist.
    let wanted: Vec<(String, Vec<String>)> =
        spec.cards.iter().filter_map(|(s, c)| c.cancel.clone().map(|v| (s.clone(), v))).collect();
    for c in spec.cards.values_mut() {
        if c.cancel.is_some() {
            c.cancel = Some(vec![]);
        }
    }
    let mut groups = vec![];
    for _ in 0..60 {
        match Rules::from_spec(spec.clone(), n) {
            Ok(r) => {
                groups = r.chain_groups.clone();
                break;
            }
            Err(e) => {
                let field = e.field().unwrap_or_default().to_string();
                let face = field.strip_prefix("cards.").and_then(|f| f.split('.').next()).and_then(|f| f.parse().ok());
                match face {
                    // A wild card nominates through wild.nominate: drop the plain nomination.
                    Some(face) if field.ends_with(".nominate") => {
                        for (sel, c) in spec.cards.iter_mut() {
                            if covers(sel, face) {
                                c.nominate = None;
                            }
                        }
                    }
                    // The joker bluff needs a plain draw-and-lose wild with only_if_no_other; the 500
                    // rule needs three players and a last-below match.
                    None if field == "options.joker_bluff" => spec.options.joker_bluff = false,
                    None if field == "options.allow_500" => spec.options.allow_500 = false,
                    // A hand size (from a variant or a mutation, or the per-player table)
                    // too large for the deck at this table: deal five.
                    None if field == "deal.hand_size" || field.starts_with("deal.hand_size_by_players.") => {
                        spec.deal.hand_size = 5;
                        spec.deal.hand_size_by_players.clear();
                    }
                    // Wild Instapik moves the eights' wild rule: the eights must be wild, no
                    // other number rank, and not in a countdown preset.
                    None if field == "options.wild_instapik" => spec.options.wild_instapik = false,
                    // Playing on for second place is for two or three players.
                    None if field == "end.play_for_second" => spec.end.play_for_second = false,
                    // Jokers in the deck need a rule.
                    None if field == "deck.jokers" => spec.deck.jokers = 0,
                    // A shield against a chain group a mutation renamed or removed (one_card's
                    // "ace_attack" once the ace's draw chain is drawn anew): drop the shield.
                    Some(face) if field.ends_with(".shield.against") => {
                        for (sel, c) in spec.cards.iter_mut() {
                            if covers(sel, face) {
                                c.shield = None;
                            }
                        }
                    }
                    // joker_lock is a joker's own effect (not wild, no chain): drop it elsewhere.
                    Some(face) if field.ends_with(".joker_lock") => {
                        for (sel, c) in spec.cards.iter_mut() {
                            if covers(sel, face) {
                                c.joker_lock = None;
                            }
                        }
                    }
                    // as_during_hand needs a give on the card.
                    Some(face) if field.ends_with(".last_special") => {
                        for (sel, c) in spec.cards.iter_mut() {
                            if covers(sel, face) && c.last_special == Some(LastSpecial::AsDuringHand) {
                                c.last_special = Some(LastSpecial::Ignored);
                            }
                        }
                        if spec.last_special == LastSpecial::AsDuringHand {
                            spec.last_special = LastSpecial::Ignored;
                        }
                    }
                    // A match that no score moves towards (score.mode = "none" and no bonus)
                    // never reaches its target: give it a number of hands.
                    _ if field == "series.target" && spec.series.max_hands.is_none() => {
                        spec.series.max_hands = Some(10);
                    }
                    _ => panic!("generator bug: {e}\n{}", serde_json::to_string(&spec).unwrap()),
                }
            }
        }
    }
    for (sel, targets) in wanted {
        let resolved: Vec<String> = targets
            .into_iter()
            .filter_map(|t| {
                if t == "any" {
                    Some(t)
                } else if let Some(i) = t.strip_prefix('#').and_then(|i| i.parse::<usize>().ok()) {
                    (!groups.is_empty()).then(|| groups[i % groups.len()].clone())
                } else {
                    groups.contains(&t).then_some(t)
                }
            })
            .collect();
        if let Some(c) = spec.cards.get_mut(&sel) {
            c.cancel = Some(resolved);
        }
    }
    let rules = Rules::from_spec(spec.clone(), n)
        .unwrap_or_else(|e| panic!("generator bug: {e}\n{}", serde_json::to_string(&spec).unwrap()));
    (spec, Arc::new(rules))
}

// ---------------------------------------------------------------------------------------
// Playing.

/// Play one game to its end; `Err` describes the first broken property.
fn play_one(rules: &Arc<Rules>, seed: u64) -> Result<u32, String> {
    let mut g = Game::new(rules.clone(), seed);
    let mut bot = RandomBot::new(seed ^ 0x9E37_79B9_7F4A_7C15);
    let max = rules.spec.limits.max_decisions;
    let mut steps = 0u32;
    loop {
        if g.card_count() != rules.deck {
            return Err(format!("card conservation broken after {steps} decisions\n{}", g.render()));
        }
        if g.is_terminal() || g.is_truncated() {
            return Ok(steps);
        }
        if steps > max {
            return Err(format!("episode neither ended nor truncated after {steps} decisions\n{}", g.render()));
        }
        let Some(a) = bot.act(&g) else {
            return Err(format!("live game with no legal action after {steps} decisions\n{}", g.render()));
        };
        g.step(a).map_err(|e| format!("legal action {a} rejected: {e}\n{}", g.render()))?;
        steps += 1;
    }
}

fn check(p: &Plan) -> Result<(), String> {
    let (spec, rules) = build(p);
    for i in 0..GAMES_PER_CASE {
        let seed = p.seed.wrapping_add(i);
        let outcome = catch_unwind(AssertUnwindSafe(|| play_one(&rules, seed)));
        let err = match outcome {
            Ok(Ok(_)) => continue,
            Ok(Err(e)) => e,
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                format!("engine panicked: {msg}")
            }
        };
        return Err(format!(
            "{err}\nnum_players = {}, game seed = {seed}\nrules = {}",
            p.num_players,
            serde_json::to_string(&spec).unwrap()
        ));
    }
    Ok(())
}

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256);
    let seed = std::env::var("EIGHTS_PROPTEST_SEED").ok().and_then(|c| c.parse().ok()).unwrap_or(0x8_8888);
    Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        max_shrink_iters: 2048,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Random valid rules, random games: no panic, cards conserved, a legal action whenever
    /// the game is live, and every episode ends or truncates.
    #[test]
    fn random_rules_play_to_the_end(p in plan()) {
        // An engine panic is caught and reported as a failure with the rules that caused it.
        let r = check(&p);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// Every preset as written, with each of its documented variants, under the same checks.
#[test]
fn presets_and_variants_play_to_the_end() {
    for name in preset_names() {
        let base = load_spec(name, None).unwrap();
        let mut options: Vec<Vec<String>> = vec![vec![]];
        options.extend(base.variant.keys().map(|v| vec![v.clone()]));
        for variants in options {
            let spec = load_spec(name, Some(&json!({ "variants": variants }))).unwrap();
            for n in spec.players.min..=spec.players.max.min(6) {
                let Ok(rules) = Rules::from_spec(spec.clone(), n as usize) else { continue };
                let rules = Arc::new(rules);
                for seed in 0..4 {
                    if let Err(e) = play_one(&rules, seed) {
                        panic!("{name} {variants:?} n={n} seed={seed}: {e}");
                    }
                }
            }
        }
    }
}

/// The generator itself: plans build into rules that validate, and they cover the rule
/// space (chains with cancels, wilds, follow-ons, multi-card plays, draw modes, ...), with
/// most games ending rather than truncating.
#[test]
fn generated_specs_validate_and_cover_the_space() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::new(config());
    let mut seen = std::collections::BTreeMap::<&str, u32>::new();
    let (mut ended, mut truncated) = (0u32, 0u32);
    let cases = 300;
    for _ in 0..cases {
        let p = plan().new_tree(&mut runner).unwrap().current();
        let (spec, rules) = build(&p);
        assert_eq!(rules.num_players as usize, p.num_players);
        let card = |f: &dyn Fn(&CardRule) -> bool| rules.card.iter().any(f);
        for (name, hit) in [
            ("chain", card(&|c| c.chain.is_some())),
            ("cancel", card(&|c| c.cancel != 0)),
            ("wild", card(&|c| c.wild.is_some())),
            ("follow", card(&|c| c.follow.is_some())),
            ("skip", card(&|c| c.skip > 0)),
            ("free_play", card(&|c| c.free_play_next)),
            ("extra_turn", card(&|c| c.extra_turn)),
            ("give", card(&|c| c.give.is_some())),
            ("multi", spec.multi.mode != MultiMode::Off),
            ("draw_mode", spec.draw.mode != DrawMode::One),
            ("no_reshuffle", spec.stock.exhausted == Exhausted::NoReshuffle),
            ("last_card_action", spec.last_card.mode == LastCardMode::Action),
            ("match", spec.series.play_match),
        ] {
            *seen.entry(name).or_default() += u32::from(hit);
        }
        let mut g = Game::new(rules.clone(), p.seed);
        let mut bot = RandomBot::new(p.seed);
        while !g.is_terminal() && !g.is_truncated() {
            g.step(bot.act(&g).unwrap()).unwrap();
        }
        if g.is_terminal() { ended += 1 } else { truncated += 1 }
    }
    eprintln!("coverage over {cases} generated rule sets: {seen:?}; games ended {ended}, truncated {truncated}");
    for (name, n) in &seen {
        assert!(*n >= cases / 50, "the generator rarely produces {name}: {n} of {cases}");
    }
    assert!(ended > truncated * 2, "most random games should end: {ended} ended, {truncated} truncated");
}
