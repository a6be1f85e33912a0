//! Tests of the bots together: names, determinization as the search bots use it, legality
//! and blindness to hidden cards, whole games on every preset, and the search bots' strength
//! where playouts are cut short.
//!
//! Test code only (`#[cfg(test)]`): its `unwrap`s stop a failing test and no caller of the
//! library reaches them.

use super::*;
use crate::game::Game;
use crate::rules::{Rules, preset_names};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

/// The preset's rules for `n` players, or for the nearest player count it allows.
fn rules(p: &str, n: usize) -> Arc<Rules> {
    let spec = crate::rules::load_spec(p, None).unwrap();
    let n = n.clamp(spec.players.min as usize, spec.players.max as usize);
    Arc::new(Rules::from_spec(spec, n).unwrap())
}

#[test]
fn bot_names_parse_and_round_trip() {
    for name in ["random", "heuristic", "ismcts:400", "pimc:50", "ismcts:1", "oracle:20", "ismcts_net:30"] {
        assert_eq!(BotSpec::parse(name).unwrap().name(), name);
    }
    assert_eq!(BotSpec::parse(" ISMCTS ").unwrap(), BotSpec::Ismcts { simulations: ismcts::DEFAULT_SIMULATIONS });
    let rooted_default = BotSpec::IsmctsNet { simulations: ismcts::DEFAULT_SIMULATIONS };
    assert_eq!(BotSpec::parse("ismcts_net").unwrap(), rooted_default);
    for bad in ["minimax", "ismcts:0", "ismcts:x", "ismcts:-3", "random:3", "pimc:", "", "ismcts_net:0", "ismcts_net:"]
    {
        let e = BotSpec::parse(bad).unwrap_err();
        assert!(e.contains("heuristic") || e.contains("[1, 1000000]"), "{bad}: {e}");
    }
}

/// Positions along games of random play on every preset, for 2 and 3 players.
fn positions() -> Vec<Game> {
    let mut out = Vec::new();
    for p in preset_names() {
        for n in [2, 3] {
            let r = rules(p, n);
            for s in 0..4 {
                let mut g = Game::new(r.clone(), 100 + s);
                let mut bot = RandomBot::new(s);
                let mut k = 0;
                while let Some(a) = bot.act(&g) {
                    if k % 7 == 0 {
                        out.push(g.clone());
                    }
                    g.apply(a);
                    k += 1;
                }
            }
        }
    }
    out
}

#[test]
fn determinize_keeps_what_the_player_knows() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut changed = 0;
    for g in positions() {
        let me = g.current_player().unwrap();
        let d = g.determinize(me, &mut rng);
        assert_eq!(d.hand(me), g.hand(me));
        assert_eq!(d.discard(), g.discard());
        assert_eq!(d.stock().len(), g.stock().len());
        assert_eq!(d.card_count(), g.card_count(), "same cards in play");
        for q in 0..g.num_players() {
            assert_eq!(d.hand(q).len(), g.hand(q).len());
        }
        assert_eq!(d.legal_action_vec(), g.legal_action_vec(), "the player's legal actions are public to it");
        assert_eq!(
            (d.phase(), d.current_player(), d.top_card(), d.active_suit()),
            (g.phase(), g.current_player(), g.top_card(), g.active_suit())
        );
        changed += usize::from((0..g.num_players()).any(|q| d.hand(q) != g.hand(q)));
    }
    assert!(changed > 100, "hidden cards are actually re-dealt ({changed})");
}

#[test]
fn determinize_with_keeps_known_cards() {
    let r = rules("crazy_eights", 3);
    let g = Game::new(r, 9);
    let mut known = crate::game::KnownCards::default();
    let c = g.hand(2).iter().next().unwrap();
    known.in_hand[2].add(c);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for _ in 0..50 {
        let d = g.determinize_with(0, &known, &mut rng);
        assert!(d.hand(2).contains(c));
        assert_eq!(d.hand(0), g.hand(0));
    }
}

/// Random-play positions of `preset` at `n` players, each with the position before the
/// action that led to it and that action.
fn transitions(preset: &str, n: usize, games: u64) -> Vec<(Game, usize, Game)> {
    let r = rules(preset, n);
    let mut out = Vec::new();
    for s in 0..games {
        let mut g = Game::new(r.clone(), 500 + s);
        let mut bot = RandomBot::new(s);
        while let Some(a) = bot.act(&g) {
            let before = g.clone();
            g.apply(a);
            out.push((before, a, g.clone()));
        }
    }
    out
}

/// The faces of `h`, as a bitset.
fn faces(h: &crate::card_set::CardCounts) -> u64 {
    h.faces().fold(0, |b, c| b | 1 << c.index())
}

/// A card given with a give card (kings_reverse ace of spades, one_left king) stays in the
/// receiver's hand in every determinization the giver samples, until the receiver plays
/// that face: the giver saw it go there.
#[test]
fn a_given_card_stays_in_the_receivers_determinized_hand() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for (preset, n) in [("one_left", 2), ("kings_reverse", 2), ("kings_reverse", 3)] {
        let mut checked = 0;
        let trans = transitions(preset, n, 60);
        for (i, (before, a, after)) in trans.iter().enumerate() {
            let Some(crate::action::Action::Give(c)) = crate::action::Action::from_id(*a) else { continue };
            let giver = before.current_player().unwrap();
            // The receiver: the seat whose hand gained a copy of c.
            let Some(to) = (0..n).find(|&q| q != giver && after.hand(q).count(c) > before.hand(q).count(c)) else {
                continue;
            };
            // Follow the game while the receiver has not played or given that face.
            for (prev, b, g) in &trans[i..] {
                if g.decisions() < after.decisions() || g.is_terminal() {
                    break;
                }
                let played = matches!(
                    crate::action::Action::from_id(*b),
                    Some(crate::action::Action::Play(x) | crate::action::Action::Give(x)) if x == c
                );
                if played && prev.current_player() == Some(to) {
                    break;
                }
                for _ in 0..5 {
                    let d = g.determinize(giver, &mut rng);
                    assert!(d.hand(to).contains(c), "{preset}: {giver} gave {c:?} to {to}\n{}", g.render());
                }
                checked += 1;
            }
        }
        assert!(checked > 20, "{preset}/{n}: only {checked} positions after a give");
    }
}

/// A player who passes its hand (advanced_switch, thirty_eights) knows where it went: right
/// after the pass, every face of it is in the receiver's hand in its determinizations.
#[test]
fn a_passed_hand_is_known_to_the_passer() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    for (preset, n) in [("advanced_switch", 3), ("thirty_eights", 3)] {
        let mut passes = 0;
        for (before, a, after) in transitions(preset, n, 80) {
            let p = before.current_player().unwrap();
            // The hand passed on: the player's hand less the card it played.
            let mut rest = *before.hand(p);
            if let Some(crate::action::Action::Play(c)) = crate::action::Action::from_id(a) {
                rest.remove(c);
            }
            let old = &rest;
            if old.len() < 2 || after.is_terminal() {
                continue;
            }
            let Some(to) = (0..n).find(|&q| q != p && after.hand(q) == old && before.hand(q) != old) else {
                continue;
            };
            passes += 1;
            for _ in 0..5 {
                let d = after.determinize(p, &mut rng);
                let want = faces(old);
                assert_eq!(faces(d.hand(to)) & want, want, "{preset}: {p} passed its hand to {to}");
            }
        }
        assert!(passes > 5, "{preset}: only {passes} passes");
    }
}

/// Whatever a player has seen go into other hands is true of the real hands, and no
/// determinization it samples contradicts it; the other hands' cards are still re-dealt.
#[test]
fn determinizations_never_contradict_what_was_seen() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
    for (preset, n) in [("kings_reverse", 3), ("one_left", 2), ("advanced_switch", 4), ("thirty_eights", 3)] {
        let (mut known, mut changed) = (0, 0);
        for (_, _, g) in transitions(preset, n, 25).into_iter().step_by(3) {
            for o in 0..n {
                let seen = g.seen_cards(o).expect("this preset moves cards between hands");
                let d = g.determinize(o, &mut rng);
                for q in (0..n).filter(|&q| q != o) {
                    assert_eq!(seen[q] & !faces(g.hand(q)), 0, "{preset}: {o} saw a card {q} does not hold");
                    assert_eq!(faces(d.hand(q)) & seen[q], seen[q], "{preset}: determinization for {o}");
                    assert_eq!(d.hand(q).len(), g.hand(q).len());
                    known += seen[q].count_ones();
                    changed += usize::from(d.hand(q) != g.hand(q));
                }
                assert_eq!(d.hand(o), g.hand(o));
            }
        }
        assert!(known > 50 && changed > 50, "{preset}: {known} seen cards, {changed} re-dealt hands");
    }
    assert!(transitions("crazy_eights", 2, 1)[0].2.seen_cards(0).is_none(), "nothing moves between hands");
}

/// The record of declined plays ([`crate::game::Voids`]) is a belief where a player may
/// draw at will: that it holds no playable card other than a wild. The heuristic plays
/// by it (it draws holding a playable card only to keep a wild), so along heuristic games
/// of every preset every hand is within its record.
#[test]
fn the_heuristic_keeps_to_the_record_of_declined_plays() {
    let (mut positions, mut ruled) = (0, 0);
    for p in preset_names() {
        for n in [2, 4] {
            let r = rules(p, n);
            let n = r.num_players as usize;
            for s in 0..6 {
                let mut g = Game::new(r.clone(), 900 + s);
                let mut bot = heuristic::HeuristicBot::new();
                while let Some(a) = bot.act(&g) {
                    for q in 0..n {
                        let v = g.voids(q);
                        assert!(v.allows(g.hand(q)), "{p} {n}p seat {q}: {v:?}\n{}", g.render());
                        ruled += usize::from(v.faces != 0);
                    }
                    positions += 1;
                    g.apply(a);
                }
            }
        }
    }
    assert!(ruled > positions / 4, "{ruled} hands with a record in {positions} positions");
}

/// Bots may use only the acting player's information: on any position, a bot gives the
/// same action on the true game as on a determinization of it for the acting player
/// (which differs exactly in the cards that player cannot see), and that action is legal.
#[test]
fn bots_are_legal_and_blind_to_hidden_cards() {
    let specs = [
        BotSpec::Heuristic,
        BotSpec::Ismcts { simulations: 24 },
        BotSpec::IsmctsNet { simulations: 24 },
        BotSpec::Pimc { worlds: 3 },
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    for (i, g) in positions().into_iter().enumerate().step_by(3) {
        let me = g.current_player().unwrap();
        let other = g.determinize(me, &mut rng);
        for spec in specs {
            let a = spec.build(i as u64).act(&g).unwrap();
            assert!(g.legal_action_vec().contains(&a), "{spec:?} chose an illegal action");
            let b = spec.build(i as u64).act(&other).unwrap();
            assert_eq!(a, b, "{spec:?} read hidden cards at\n{}", g.render());
        }
    }
}

#[test]
fn bots_play_whole_games_on_every_preset() {
    for p in preset_names() {
        for n in [2, 4] {
            let r = rules(p, n);
            let n = r.num_players as usize;
            let mut table: Vec<BotSpec> = vec![BotSpec::Heuristic, BotSpec::Ismcts { simulations: 16 }];
            table.extend([BotSpec::Pimc { worlds: 2 }, BotSpec::IsmctsNet { simulations: 8 }]);
            table.resize(n.max(4), BotSpec::Random);
            table.truncate(n);
            let res = arena::play_deals(r, &table, 1, 0..2, 1).unwrap();
            assert_eq!(res.records.len(), 2 * n);
            assert!(res.records.iter().all(|x| x.winner.is_some() || x.truncated || x.decisions > 0));
        }
    }
}

#[test]
fn search_bots_are_deterministic_for_a_seed() {
    for g in positions().into_iter().step_by(40) {
        for spec in
            [BotSpec::Ismcts { simulations: 30 }, BotSpec::IsmctsNet { simulations: 30 }, BotSpec::Pimc { worlds: 4 }]
        {
            assert_eq!(spec.build(3).act(&g), spec.build(3).act(&g));
        }
    }
}

/// `ismcts_net:N` is the plain search told to favour `net`'s move at the root: the same
/// visit shares as `ismcts:N` with the same seed given that move, on every tenth position,
/// and on some of them `net`'s move differs from the heuristic's, so the root matters.
#[test]
fn ismcts_net_is_the_search_rooted_on_nets_move() {
    use crate::action::NUM_ACTIONS;
    use crate::bots::heuristic::HeuristicBot;
    use crate::bots::net::NetBot;
    let (mut shares, mut rooted) = (vec![0.0f32; NUM_ACTIONS], vec![0.0f32; NUM_ACTIONS]);
    let mut differ = 0;
    for (i, g) in positions().into_iter().enumerate().step_by(10) {
        let Some(favour) = NetBot::new().act(&g) else { continue };
        differ += usize::from(HeuristicBot::new().act(&g) != Some(favour));
        let a = ismcts::IsmctsBot::new(40, i as u64).search_policy(&g, Some(favour), &mut shares);
        let b = ismcts::IsmctsBot::rooted_on_net(40, i as u64).search_policy(&g, None, &mut rooted);
        assert_eq!(a, b);
        assert_eq!(shares, rooted);
    }
    assert!(differ > 10, "net and the heuristic differ on only {differ} positions");
}

/// Bitch, a countdown game with pick-up chains ("every two picks up 2, the jacks of hearts
/// and spades 5, the king of hearts 7"), runs 500 to 2,500 decisions, so nearly every
/// playout is cut short and scored as a noisy race. `ismcts:400` must still beat the
/// heuristic: over 60 duplicate deals (120 games, seed 0) the lower end of its win rate's
/// 95% interval is above one half. With the small bias alone it won 0.48 of these games.
#[test]
fn ismcts_beats_the_heuristic_where_playouts_are_cut_short() {
    use crate::bots::BotSpec;
    use crate::bots::arena::{agent_at, play_deals};
    let table = [BotSpec::parse("ismcts:400").unwrap(), BotSpec::parse("heuristic").unwrap()];
    let r = play_deals(rules("bitch", 2), &table, 0, 0..60, 2).unwrap();
    let n = r.records.len() as f64;
    let wins = r.records.iter().filter(|g| g.winner.is_some_and(|w| agent_at(w, g.rotation, 2) == 0)).count();
    let p = wins as f64 / n;
    let low = p - 1.96 * (p * (1.0 - p) / n).sqrt();
    assert!(low > 0.5, "ismcts:400 won {wins} of {n} games against the heuristic ({p:.3}, lower end {low:.3})");
}

/// The oracle's worlds are the true hands (only the stock is re-dealt), so two positions
/// that differ only in the opponents' hidden cards can get different answers from it,
/// unlike from `pimc`; and it plays legal actions.
#[test]
fn the_oracle_sees_every_hand() {
    use crate::bots::{BotSpec, RandomBot};
    use crate::game::Game;
    use crate::rules::Rules;
    use rand::SeedableRng;
    let rules = std::sync::Arc::new(Rules::load("crazy_eights", 2, None).unwrap());
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2);
    let (mut differs, mut positions) = (0, 0);
    for s in 0..40 {
        let mut g = Game::new(rules.clone(), s);
        let mut bot = RandomBot::new(s);
        for _ in 0..(s % 7) {
            let a = bot.act(&g).unwrap();
            g.apply(a);
        }
        let Some(me) = g.current_player() else { continue };
        let other = g.determinize(me, &mut rng);
        let oracle = BotSpec::Oracle { worlds: 30 };
        let a = oracle.build(s).act(&g).unwrap();
        assert!(g.legal_action_vec().contains(&a));
        differs += usize::from(a != oracle.build(s).act(&other).unwrap());
        positions += 1;
    }
    assert!(positions > 30 && differs > 0, "{differs} of {positions} positions");
}

/// The countdown presets run hundreds of decisions a game, so nearly every playout is cut
/// short and scored as a race. `pimc:50` must still beat the heuristic on
/// `crazy_eights_countdown`: over 100 duplicate deals (200 games, seed 0) the lower end of
/// its win rate's 95% interval is above one half. Playing every playout to the end of the
/// game it won 0.425 of these games.
#[test]
fn pimc_beats_the_heuristic_where_playouts_are_cut_short() {
    use crate::bots::BotSpec;
    use crate::bots::arena::{agent_at, play_deals};
    use crate::rules::Rules;
    let rules = std::sync::Arc::new(Rules::load("crazy_eights_countdown", 2, None).unwrap());
    let table = [BotSpec::parse("pimc:50").unwrap(), BotSpec::parse("heuristic").unwrap()];
    let r = play_deals(rules, &table, 0, 0..100, 2).unwrap();
    let n = r.records.len() as f64;
    let wins = r.records.iter().filter(|g| g.winner.is_some_and(|w| agent_at(w, g.rotation, 2) == 0)).count();
    let p = wins as f64 / n;
    let low = p - 1.96 * (p * (1.0 - p) / n).sqrt();
    assert!(low > 0.5, "pimc:50 won {wins} of {n} games against the heuristic ({p:.3}, lower end {low:.3})");
}

/// `net`'s loop guard: ten `net` players on a house-rules file of Fat Buddah (nine cards
/// dealt, the threes make every other player draw one, several cards of one rank played
/// together) with no decision limit. Without the guard the first deal never ends: the two
/// queens of clubs circulate through the stock (it met a cap of 50,000 decisions). With it,
/// the game ends, and replays the same.
#[test]
fn nets_loop_guard_ends_a_game_without_a_decision_limit() {
    use crate::bots::arena::deal_seed;
    use serde_json::json;
    let overrides = json!({
        "cards": {"3": {"others_draw": 1}},
        "deal": {"hand_size": 9},
        "multi": {"mode": "equal_rank"},
        "limits": {"max_decisions": 0},
    });
    let r = Arc::new(Rules::load("fat_buddah", 10, Some(&overrides)).unwrap());
    assert_eq!(r.settings.max_decisions, 0);
    let play = || {
        let mut g = Game::new(r.clone(), deal_seed(0, 0));
        let mut bot = net::NetBot::new();
        while !g.is_terminal() && g.decisions() < 100_000 {
            let a = bot.act(&g).expect("a game in progress has a legal action");
            g.step(a).unwrap();
        }
        (g.is_terminal(), g.decisions(), g.winner())
    };
    let (ended, decisions, winner) = play();
    assert!(ended, "no end in {decisions} decisions");
    assert_eq!(play(), (ended, decisions, winner));
}

/// A stop asked for before or during a run ends it with [`arena::ArenaError::Stopped`], on
/// both paths (one game at a time, and the batches of `net`).
#[test]
fn a_stop_ends_an_arena_run() {
    use crate::stop::Stop;
    let r = rules("crazy_eights", 2);
    for table in [[BotSpec::Heuristic, BotSpec::Random], [BotSpec::Net, BotSpec::Heuristic]] {
        let stop = Stop::new();
        stop.set();
        let e = arena::play_deals_until(r.clone(), &table, 1, 0..1000, 2, &stop).unwrap_err();
        assert_eq!(e, arena::ArenaError::Stopped, "{table:?}");
        // Unset, the same call plays.
        assert!(arena::play_deals_until(r.clone(), &table, 1, 0..4, 2, &Stop::new()).is_ok());
    }
    let stop = Stop::new();
    stop.set();
    assert_eq!(random_selfplay_until(r.clone(), 1000, 1, &stop).games, 0);
    assert_eq!(random_selfplay_until(r, 3, 1, &Stop::new()).games, 3);
}

/// A search cut short by its stop flag ([`Policy::act_until`]) still answers with a legal
/// action; with the flag unset it answers as `act` does, and its generator ends where `act`'s
/// does (the games do not move when a caller passes a flag nobody sets).
#[test]
fn a_search_cut_short_answers_legally_and_an_unset_flag_changes_nothing() {
    use crate::action::ActionMask;
    use crate::stop::Stop;
    let set = Stop::new();
    set.set();
    let unset = Stop::new();
    for (k, g) in positions().iter().enumerate().step_by(97) {
        let mut m = ActionMask::default();
        g.legal_actions(&mut m);
        for spec in [
            BotSpec::Ismcts { simulations: 200 },
            BotSpec::Pimc { worlds: 20 },
            BotSpec::Oracle { worlds: 10 },
            BotSpec::IsmctsNet { simulations: 100 },
        ] {
            let seed = k as u64;
            let cut = spec.build(seed).act_until(g, &set);
            assert!(cut.is_some_and(|a| m.contains(a)), "{spec:?} at {k}: {cut:?} not legal");
            let (mut a, mut b) = (spec.build(seed), spec.build(seed));
            assert_eq!(a.act(g), b.act_until(g, &unset), "{spec:?} at {k}");
            assert_eq!(a.generator().cloned(), b.generator().cloned(), "{spec:?} at {k}");
        }
    }
}

/// Weights files named by their path ([`file`]).
mod file_bots {
    use super::super::file::is_file_name;
    use super::super::{BotSpec, RandomBot, net, net1};
    use crate::game::Game;
    use crate::rules::{Rules, load_spec};
    use std::collections::HashMap;
    use std::sync::Arc;

    fn temp(name: &str, bytes: &[u8]) -> String {
        let dir = std::env::temp_dir().join(format!("eights-file-bot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_string_lossy().into_owned()
    }

    #[test]
    fn the_shipped_card_network_by_path_plays_as_net() {
        let path = temp("card.safetensors", net::WEIGHTS_FILE);
        let spec = BotSpec::parse(&path).unwrap();
        assert_eq!(BotSpec::parse(&spec.name()).unwrap(), spec, "the name parses back to the same file");
        let r = Arc::new(Rules::from_spec(load_spec("one_card", None).unwrap(), 3).unwrap());
        spec.check_rules(&r).unwrap();
        for s in 0..6 {
            let mut g = Game::new(r.clone(), 70 + s);
            let (mut a, mut b, mut rnd) = (spec.build(1), BotSpec::Net.build(1), RandomBot::new(s));
            let mut k = 0;
            while g.current_player().is_some() {
                let x = a.act(&g);
                assert_eq!(x, b.act(&g));
                g.apply(if k % 3 == 0 { x.unwrap() } else { rnd.act(&g).unwrap() });
                k += 1;
            }
        }
    }

    #[test]
    fn the_shipped_flat_file_by_path_refuses_other_rules_naming_itself() {
        let path = temp("flat.safetensors", net1::WEIGHTS_FILE);
        let spec = BotSpec::parse(&path).unwrap();
        let r = Arc::new(Rules::from_spec(load_spec("crazy_eights", None).unwrap(), 3).unwrap());
        let e = spec.check_rules(&r).unwrap_err();
        assert!(e.contains("flat.safetensors") && e.contains("with 2 players") && e.contains("3 players"), "{e}");
    }

    #[test]
    fn only_net1_and_a_flat_file_play_fixed_rules() {
        // Test input, not a user's: the shipped weights written to a temporary folder.
        let flat = BotSpec::parse(&temp("flat2.safetensors", net1::WEIGHTS_FILE)).unwrap();
        let card = BotSpec::parse(&temp("card2.safetensors", net::WEIGHTS_FILE)).unwrap();
        assert!(!flat.plays_every_rule_set() && !BotSpec::Net1.plays_every_rule_set());
        assert!(card.plays_every_rule_set() && BotSpec::Net.plays_every_rule_set());
        // Fixed names of this test, each a valid bot: no user's input reaches the unwrap.
        for name in ["random", "heuristic", "ismcts:10", "ismcts_net:10", "pimc:4", "oracle:2"] {
            assert!(BotSpec::parse(name).unwrap().plays_every_rule_set(), "{name}");
        }
    }

    #[test]
    fn bad_files_are_errors_naming_the_file() {
        let missing = BotSpec::parse("/no/such/dir/x.safetensors").unwrap_err();
        assert!(missing.contains("x.safetensors") && missing.contains("cannot open"), "{missing}");
        let junk = BotSpec::parse(&temp("junk.safetensors", b"not a safetensors file at all")).unwrap_err();
        assert!(junk.contains("junk.safetensors") && junk.contains("not a safetensors file"), "{junk}");
        let empty = safetensors::serialize(
            Vec::<(String, safetensors::tensor::TensorView<'_>)>::new(),
            Some(HashMap::from([("format".to_string(), "other".to_string())])),
        )
        .unwrap();
        let other = BotSpec::parse(&temp("other.safetensors", &empty)).unwrap_err();
        assert!(other.contains("\"other\"") && other.contains("eights-net-v1"), "{other}");
        let dir = std::env::temp_dir().join(format!("eights-dir-{}.safetensors", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(BotSpec::parse(&dir.to_string_lossy()).unwrap_err().contains("folder"));
        assert!(is_file_name(" A.SAFETENSORS ") && !is_file_name(".safetensors") && !is_file_name("net"));
    }

    /// The shipped `crazy_eights` network renamed `agent`, with house rules and three players
    /// recorded in its metadata, as a trained agent's file holds them.
    fn agent_file(toml: &str, players: &str) -> Vec<u8> {
        let st = safetensors::SafeTensors::deserialize(net1::WEIGHTS_FILE).unwrap();
        let (_, meta) = safetensors::SafeTensors::read_metadata(net1::WEIGHTS_FILE).unwrap();
        let mut meta = meta.metadata().clone().unwrap();
        meta.insert("presets".into(), "agent".into());
        meta.insert("agent.rules".into(), toml.into());
        meta.insert("players".into(), players.into());
        let views: Vec<_> = st
            .tensors()
            .into_iter()
            .filter_map(|(n, t)| n.strip_prefix("crazy_eights.").map(|k| (format!("agent.{k}"), t)))
            .collect();
        safetensors::serialize(views, Some(meta)).unwrap()
    }

    // Test code only: the unwraps below build presets and rule sets known to be valid and the
    // shipped files; a panic there is a failing test, never a user's input.
    #[test]
    fn a_flat_file_plays_the_rules_it_records_and_only_those() {
        let toml = "inherits = \"crazy_eights\"\nname = \"house\"\n\n[deal]\nhand_size = 6\n";
        let spec = BotSpec::parse(&temp("house.safetensors", &agent_file(toml, "3"))).unwrap();
        let mut house = load_spec("crazy_eights", None).unwrap();
        house.name = "house".into();
        house.deal.hand_size = 6;
        house.deal.hand_size_by_players.clear();
        let r = Arc::new(Rules::from_spec(house.clone(), 3).unwrap());
        spec.check_rules(&r).unwrap();
        let mut g = Game::new(r, 5);
        let mut bot = spec.build(0);
        while g.current_player().is_some() {
            let a = bot.act(&g).unwrap();
            assert!(g.legal_action_vec().contains(&a));
            g.apply(a);
        }
        for (spec_of, n) in [(house.clone(), 2), (load_spec("crazy_eights", None).unwrap(), 3)] {
            let e = spec.check_rules(&Rules::from_spec(spec_of, n).unwrap()).unwrap_err();
            assert!(e.contains("house.safetensors") && e.contains("\"house\"") && e.contains("with 3 players"), "{e}");
        }
        // Where the rules came from (`inherits`) is not part of them.
        house.inherits = Some("crazy_eights".into());
        spec.check_rules(&Rules::from_spec(house.clone(), 3).unwrap()).unwrap();
        // Nor are names and prose: the same game under another name is still the game it
        // learned, and its deals and moves play out the same.
        let mut renamed = house.clone();
        renamed.name = "our_table".into();
        renamed.title = "Our table".into();
        renamed.source = "a family".into();
        renamed.description = "Crazy eights with six cards each.".into();
        let renamed = Arc::new(Rules::from_spec(renamed, 3).unwrap());
        spec.check_rules(&renamed).unwrap();
        let (mut a, mut b) =
            (Game::new(renamed, 9), Game::new(Arc::new(Rules::from_spec(house.clone(), 3).unwrap()), 9));
        let (mut bot_a, mut bot_b) = (spec.build(0), spec.build(0));
        while let Some(x) = bot_a.act(&a) {
            assert_eq!(Some(x), bot_b.act(&b));
            a.apply(x);
            b.apply(x);
        }
        assert!(b.current_player().is_none());
        // One changed card is another game, whatever its name.
        let mut other = house;
        other.deal.hand_size = 7;
        let e = spec.check_rules(&Rules::from_spec(other, 3).unwrap()).unwrap_err();
        assert!(e.contains("\"house\"") && e.contains("under rules that play differently"), "{e}");
    }

    #[test]
    fn the_shipped_flat_net_plays_its_presets_under_any_name() {
        let mut spec = load_spec("crazy_eights", None).unwrap();
        spec.name = "eights_at_home".into();
        spec.title = "Eights at home".into();
        let bot = BotSpec::parse("net1").unwrap();
        let r = Arc::new(Rules::from_spec(spec.clone(), 2).unwrap());
        bot.check_rules(&r).unwrap();
        let mut g = Game::new(r, 3);
        let mut p = bot.build(0);
        while g.current_player().is_some() {
            let a = p.act(&g).unwrap();
            g.apply(a);
        }
        spec.deal.hand_size_by_players.clear();
        spec.deal.hand_size = 5;
        let e = bot.check_rules(&Rules::from_spec(spec, 2).unwrap()).unwrap_err();
        assert!(e.contains("crazy_eights") && e.contains("\"eights_at_home\""), "{e}");
    }
}
