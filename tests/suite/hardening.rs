//! Bad input at the Rust boundary: sizes checked before allocating, numeric rule fields in
//! range (named on error), a failing thread pool reported as an error, and the invariant
//! checker itself (it must notice a broken state).

use eights::check::{CheckStats, check_state, checked_playout, checked_selfplay};
use eights::game::Game;
use eights::rules::{MAX_SERIES_TARGET, Rules, RulesError};
use eights::vec_env::{Config, MAX_NUM_ENVS, MAX_THREADS, VecEnv, VecEnvError};
use serde_json::json;
use std::sync::Arc;

fn rules(preset: &str, n: usize) -> Arc<Rules> {
    Arc::new(Rules::load(preset, n, None).unwrap())
}

fn field_of(e: RulesError) -> String {
    e.field().unwrap_or_default().to_string()
}

#[test]
fn num_envs_beyond_the_limit_is_refused_before_allocating() {
    for n in [MAX_NUM_ENVS + 1, 1_000_000_000, usize::MAX] {
        let err = VecEnv::new(rules("crazy_eights", 2), Config::new(n)).err().expect("refused");
        assert!(matches!(err, VecEnvError::Config(ref m) if m.contains("num_envs")), "{err}");
    }
    assert!(VecEnv::new(rules("crazy_eights", 2), Config::new(0)).is_err());
    assert_eq!(VecEnv::new(rules("crazy_eights", 2), Config::new(3)).unwrap().num_envs(), 3);
}

#[test]
fn thread_counts_beyond_the_limit_are_refused() {
    let mut cfg = Config::new(4);
    cfg.num_threads = MAX_THREADS + 1;
    let err = VecEnv::new(rules("crazy_eights", 2), cfg).err().expect("refused");
    assert!(err.to_string().contains("num_threads"), "{err}");
}

#[test]
fn match_targets_that_would_overflow_are_refused_with_the_field() {
    let base = |series: serde_json::Value| Rules::load("crazy_eights", 4, Some(&json!({ "series": series })));
    let e = base(json!({"match": true, "target": 2u64.pow(31)})).err().unwrap();
    assert_eq!(field_of(e), "series.target");
    let e = base(json!({"match": true, "target": null, "target_per_player": 2u64.pow(30)})).err().unwrap();
    assert_eq!(field_of(e), "series.target_per_player");
    // 300_000 per player is fine for 2 or 3 players, too much for 4.
    let ok = Rules::load("crazy_eights", 3, Some(&json!({"series": {"match": true, "target_per_player": 300_000}})));
    assert_eq!(ok.unwrap().series_target, Some(900_000));
    assert!(base(json!({"match": true, "target_per_player": 300_000})).is_err());
    let r = base(json!({"match": true, "target": MAX_SERIES_TARGET})).unwrap();
    assert_eq!(r.series_target, Some(MAX_SERIES_TARGET));
}

#[test]
fn a_large_target_is_not_reached_after_one_hand() {
    let r = Arc::new(
        Rules::load("crazy_eights", 2, Some(&json!({"series": {"match": true, "target": 1_000_000}}))).unwrap(),
    );
    let mut g = Game::new(r, 0);
    let mut bot = eights::bots::RandomBot::new(0);
    while g.hands_played() == 0 {
        g.step(bot.act(&g).unwrap()).unwrap();
    }
    assert!(!g.is_terminal(), "a match to 1,000,000 ended after one hand: {:?}", g.scores());
}

#[test]
fn uncapped_games_that_could_never_end_are_refused() {
    // limits.max_decisions = 0 sets no cap: a rule set where play could never end is refused.
    let load = |rules: serde_json::Value| Rules::load("crazy_eights", 2, Some(&rules));
    let uncapped = |mut rules: serde_json::Value| {
        rules["limits"] = json!({"max_decisions": 0});
        load(rules)
    };
    // A blocked hand that does not end leaves only passes, for ever, once the stock is out.
    let blocked = json!({"end": {"blocked": false}, "stock": {"exhausted": "no_reshuffle"}});
    assert_eq!(field_of(uncapped(blocked.clone()).err().unwrap()), "end.blocked");
    assert!(load(blocked).is_ok(), "with the default cap the game is truncated instead");
    // A match to a target no score moves towards.
    let still = json!({"series": {"match": true, "target": 100}, "score": {"mode": "none"}});
    assert_eq!(field_of(uncapped(still.clone()).err().unwrap()), "series.target");
    let ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
    for value in [0, -1] {
        let values: serde_json::Map<_, _> = ranks.iter().map(|r| (r.to_string(), json!(value))).collect();
        let rules = json!({"series": {"match": true, "target": 100}, "score": {"values": values}});
        assert_eq!(field_of(uncapped(rules).err().unwrap()), "series.target", "every card worth {value}");
    }
    // Capped, it is refused too: every match ran to the cap and was cut off there.
    assert_eq!(field_of(load(still.clone()).err().unwrap()), "series.target", "with the default cap");
    // Each way out makes it a game that ends.
    let mut capped_hands = still.clone();
    capped_hands["series"]["max_hands"] = json!(5);
    assert!(uncapped(capped_hands).is_ok());
    let mut bonus = still;
    bonus["score"]["winner_bonus"] = json!(1);
    assert!(uncapped(bonus).is_ok());
    assert!(uncapped(json!({"series": {"match": true, "target": 100}})).is_ok());
    assert!(uncapped(json!({})).is_ok());
}

#[test]
fn uncapped_rules_where_no_card_can_go_out_are_refused() {
    // `cannot_go_out` on every card of the deck: no hand can empty. With every rank wild and
    // an extra turn on each, one seat kept the turn for ever (an audit: 20,000 of 20,000
    // decisions by one seat, and a VecEnv reset that never returned).
    let ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
    let hog = |cap: u32| {
        let card = json!({"wild": {"enabled": true}, "extra_turn": true, "last_special": "cannot_go_out"});
        let cards: serde_json::Map<_, _> = ranks.iter().map(|r| (r.to_string(), card.clone())).collect();
        Rules::load("crazy_eights", 2, Some(&json!({"cards": cards, "limits": {"max_decisions": cap}})))
    };
    let Err(e) = hog(0) else { panic!("refused without a cap") };
    assert_eq!(field_of(e.clone()), "last_special");
    assert!(e.to_string().contains("no hand can empty"), "{e}");
    assert!(hog(5000).is_ok(), "with a cap the game is truncated instead");
    // One card that may go out is a way out; a card missing from the deck is not.
    let mut cards: serde_json::Map<_, _> =
        ranks.iter().map(|r| (r.to_string(), json!({"last_special": "cannot_go_out"}))).collect();
    let uncapped = |cards: &serde_json::Map<String, serde_json::Value>| {
        let rules = json!({"cards": cards, "deck": {"jokers": 2}, "limits": {"max_decisions": 0}});
        Rules::load("crazy_eights", 2, Some(&rules))
    };
    cards.insert("joker".into(), json!({"wild": {"enabled": true}, "last_special": "cannot_go_out"}));
    let Err(e) = uncapped(&cards) else { panic!("refused: no card of the deck may go out") };
    assert_eq!(field_of(e), "last_special");
    cards.insert("KS".into(), json!({"last_special": "ignored"}));
    assert!(uncapped(&cards).is_ok(), "the king of spades can go out");
}

#[test]
fn the_table_wide_last_special_is_the_default_of_the_special_cards_only() {
    // Its field: "Default behaviour when a special card is the last card played; a card's own
    // `last_special` overrides it". It reached every card, so under crazy_eights (the eights
    // wild) `last_special = "cannot_go_out"` let no hand empty: random play truncated 3 games
    // of 3 at a million decisions.
    use eights::card::Card;
    use eights::rules::LastSpecial;
    let over = json!({"last_special": "cannot_go_out", "limits": {"max_decisions": 0}});
    let r = rules_with("crazy_eights", &over);
    let face = |s: &str| r.card[s.parse::<Card>().unwrap().index()].last_special;
    assert_eq!(face("8S"), LastSpecial::CannotGoOut, "the eights are wild: special");
    assert_eq!(face("5H"), LastSpecial::Ignored, "a plain card goes out as always");
    let own = json!({"last_special": "cannot_go_out", "cards": {"5": {"last_special": "draws_apply"}}});
    assert_eq!(
        rules_with("crazy_eights", &own).card["5H".parse::<Card>().unwrap().index()].last_special,
        LastSpecial::DrawsApply,
        "a card's own entry still sets it"
    );
    // Uncapped, every game now ends: ten random games to their end.
    let mut bot = eights::bots::RandomBot::new(1);
    for seed in 0..10 {
        let mut g = Game::new(r.clone(), seed);
        for _ in 0..100_000 {
            if g.is_terminal() {
                break;
            }
            g.step(bot.act(&g).unwrap()).unwrap();
        }
        assert!(g.is_terminal(), "seed {seed}: no end in 100,000 decisions");
    }
}

fn rules_with(preset: &str, over: &serde_json::Value) -> Arc<Rules> {
    Arc::new(Rules::load(preset, 2, Some(over)).unwrap())
}

#[test]
fn uncapped_matches_a_score_can_move_away_from_are_refused() {
    // A match whose scores can fall as well as rise may drift away from its target for ever:
    // crazy_eights_xtreme with its documented variants match_to_100, silly_hat and
    // winner_bonus at two players (random play: scores near -26,000 after a million decisions).
    let xtreme = |variants: &[&str], extra: serde_json::Value| {
        let mut rules = json!({"variants": variants, "limits": {"max_decisions": 0}});
        if let (Some(r), Some(e)) = (rules.as_object_mut(), extra.as_object()) {
            r.extend(e.clone());
        }
        Rules::load("crazy_eights_xtreme", 2, Some(&rules))
    };
    let e = xtreme(&["match_to_100", "silly_hat", "winner_bonus"], json!({})).err().unwrap();
    assert_eq!(field_of(e.clone()), "series.target");
    assert!(e.to_string().contains("a score can move away from it (score.winner_bonus is -10)"), "{e}");
    let e = xtreme(&["match_to_100", "silly_hat"], json!({})).err().unwrap();
    assert!(e.to_string().contains("options.silly_hat takes 10 points a hand"), "{e}");
    assert!(xtreme(&["match_to_100"], json!({})).is_ok(), "scores that only rise reach the target");
    // A bound on the hands ends it; so does the default cap (truncation).
    assert!(xtreme(&["match_to_100", "silly_hat", "winner_bonus"], json!({"series": {"max_hands": 50}})).is_ok());
    let capped = json!({"variants": ["match_to_100", "silly_hat", "winner_bonus"]});
    assert!(Rules::load("crazy_eights_xtreme", 2, Some(&capped)).is_ok());
    // A negative card value beside positive ones.
    let negative = json!({"series": {"match": true, "target": 100}, "score": {"values": {"K": -20}},
                          "limits": {"max_decisions": 0}});
    let e = Rules::load("crazy_eights", 2, Some(&negative)).err().unwrap();
    assert!(e.to_string().contains("a card value is negative"), "{e}");
}

#[test]
fn a_decision_cap_past_ten_million_is_refused() {
    // 4,294,967,295 was taken, a cap no one could wait for that also skipped the checks
    // an uncapped game gets (end.blocked = false was accepted under it).
    let load = |cap: u32| Rules::load("crazy_eights", 2, Some(&json!({"limits": {"max_decisions": cap}})));
    assert!(load(10_000_000).is_ok());
    for (cap, got) in [(10_000_001, "10,000,001"), (u32::MAX, "4,294,967,295")] {
        let e = load(cap).err().unwrap();
        assert_eq!(field_of(e.clone()), "limits.max_decisions");
        let want = format!("must be a whole number from 0 to 10,000,000 (0: no cap), got {got}");
        assert!(e.to_string().ends_with(&want), "{e}");
    }
    // Past the u32 the field is stored in, serde's words state the same range.
    let past = Rules::load("crazy_eights", 2, Some(&json!({"limits": {"max_decisions": 1u64 << 32}})));
    let e = past.err().unwrap();
    assert!(e.to_string().ends_with("expected a whole number from 0 to 10,000,000 (0: no cap)"), "{e}");
}

#[test]
fn random_selfplay_stops_within_a_long_game() {
    // A match to the largest target without a cap lasts billions of decisions: the stop flag
    // is read within the game, not only between games.
    let spec = json!({"series": {"match": true, "target": MAX_SERIES_TARGET}, "limits": {"max_decisions": 0}});
    let r = Arc::new(Rules::load("crazy_eights", 2, Some(&spec)).unwrap());
    let stop = Arc::new(eights::stop::Stop::new());
    let (tx, rx) = std::sync::mpsc::channel();
    let flag = stop.clone();
    std::thread::spawn(move || tx.send(eights::bots::random_selfplay_until(r, 3, 0, &flag)).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(50));
    stop.set();
    let stats = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("self-play did not stop within its game");
    assert_eq!((stats.games, stats.decisions), (0, 0), "a game cut short is not counted");
}

#[test]
fn card_points_and_bonus_out_of_range_name_the_field() {
    let load = |score: serde_json::Value| Rules::load("crazy_eights", 2, Some(&json!({ "score": score })));
    assert_eq!(field_of(load(json!({"values": {"A": 1_000_000}})).err().unwrap()), "score.values.A");
    assert_eq!(field_of(load(json!({"values": {"A": -1_000_000}})).err().unwrap()), "score.values.A");
    assert_eq!(field_of(load(json!({"winner_bonus": i32::MIN})).err().unwrap()), "score.winner_bonus");
    assert!(load(json!({"values": {"A": 10_000}, "winner_bonus": -1_000_000})).is_ok());
}

#[test]
fn the_checker_passes_real_games_and_notices_a_broken_one() {
    for (p, n) in [("crazy_eights", 2), ("switch_blackjack", 4), ("stalin", 4), ("one_card", 3)] {
        let s = checked_selfplay(rules(p, n), 4, 9);
        assert_eq!((s.games, s.violations), (4, 0), "{p}: {:?}", s.failures);
        assert!(s.decisions > 20);
    }
    // A snapshot with a card moved out of play: the conservation check fails at once.
    let g = Game::new(rules("crazy_eights", 2), 1);
    let mut snap = serde_json::to_value(g.snapshot()).unwrap();
    let card = snap["stock"].as_array_mut().unwrap().pop().unwrap();
    let fewer: eights::game::Snapshot = serde_json::from_value(snap).unwrap();
    let mut broken = Game::from_snapshot(fewer).unwrap();
    assert!(check_state(&broken, &g.card_count()).unwrap_err().contains("not conserved"), "{card}");
    let mut stats = CheckStats::default();
    checked_playout(&mut broken, 1, &mut stats);
    assert_eq!(stats.violations, 0, "a game is checked against its own start: {:?}", stats.failures);
}

/// Found by the position fuzz: `from_position` took scores beyond the snapshot limit (the
/// game then failed its own snapshot round trip); every accepted position must also load as
/// a snapshot.
#[test]
fn positions_pass_the_snapshot_checks() {
    use eights::card::Card;
    use eights::game::Position;
    let r = rules("chase_the_ace", 5);
    let kh: Card = "KH".parse().unwrap();
    // One card a seat: a seat with none has gone out (refused on its own).
    let hands = ["2C", "3C", "4C", "5C", "6C"].iter().map(|c| vec![c.parse().unwrap()]).collect();
    let pos = Position {
        hands,
        discard: vec![kh],
        direction: 1,
        scores: Some(vec![i32::MAX, 0, 0, 0, 0]),
        ..Position::default()
    };
    let e = Game::from_position(r.clone(), &pos).err().expect("refused").to_string();
    assert!(e.contains("scores") && e.contains("1000000000"), "{e}");
    let pos = Position { scores: Some(vec![1_000_000_000, 0, 0, 0, 0]), ..pos };
    if let Ok(g) = Game::from_position(r, &pos) {
        Game::from_snapshot(g.snapshot()).expect("an accepted position loads as a snapshot");
        let mut stats = CheckStats::default();
        checked_playout(&mut g.clone(), 1, &mut stats);
        assert_eq!(stats.violations, 0, "{:?}", stats.failures);
    }
}

/// Scoring settings that contradict each other are refused, naming the field: a match whose
/// winner reads the totals against the way the score mode counts them (the player who reached
/// 100 penalty points won the match; under winner-collects the one who collected least did),
/// and a countdown table beside another mode (or the reverse).
#[test]
fn scoring_settings_that_contradict_each_other_are_refused_with_the_field() {
    let load = |preset: &str, over: serde_json::Value| Rules::load(preset, 2, Some(&over));
    let refused = [
        (
            "crazy_eights",
            json!({"series": {"match": true, "target": 100, "winner": "first_to_reach"}}),
            "series.winner",
        ),
        ("crazy_eights_winner_collects", json!({"series": {"match": true, "winner": "lowest"}}), "series.winner"),
        ("crazy_eights_winner_collects", json!({"series": {"match": true, "winner": "last_below"}}), "series.winner"),
        (
            "crazy_eights",
            json!({"score": {"mode": "per_card"}, "series": {"match": true, "target": 100}}),
            "series.winner",
        ),
        ("crazy_eights", json!({"countdown": {"start_score": 8}}), "score.mode"),
        ("crazy_eights", json!({"score": {"mode": "countdown"}}), "score.mode"),
        ("crazy_eights_countdown", json!({"score": {"mode": "penalty"}}), "score.mode"),
    ];
    for (preset, over, field) in refused {
        let e = load(preset, over.clone()).err().unwrap_or_else(|| panic!("{preset} {over} was accepted"));
        assert_eq!(field_of(e.clone()), field, "{preset} {over}: {e}");
    }
    // The agreeing pairs still load.
    let accepted = [
        ("crazy_eights", json!({"series": {"match": true, "target": 100, "winner": "lowest"}})),
        ("crazy_eights", json!({"series": {"match": true, "target": 100, "winner": "last_below"}})),
        ("crazy_eights_winner_collects", json!({"series": {"match": true}})),
        (
            "crazy_eights",
            json!({"score": {"mode": "per_card"}, "series": {"match": true, "target": 100, "winner": "first_to_reach"}}),
        ),
        ("crazy_eights", json!({"score": {"mode": "none"}})),
        ("crazy_eights_countdown", json!({})),
    ];
    for (preset, over) in accepted {
        assert!(load(preset, over.clone()).is_ok(), "{preset} {over}");
    }
}
