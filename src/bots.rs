//! Baseline policies and the random self-play runner.
//!
//! Every bot implements [`Policy`]: it sees the game only through the acting player's
//! information (legal actions, own hand, the public table, hand sizes) and never reads hidden
//! cards. The ladder, weakest first:
//!
//! * [`RandomBot`] (`"random"`): uniform among the legal actions, with its own seeded
//!   xoshiro256++ stream (never the game's), so the same seeds reproduce the same games.
//! * [`heuristic::HeuristicBot`] (`"heuristic"`): a documented human strategy.
//! * [`ismcts::IsmctsBot`] (`"ismcts:N"`): information-set Monte Carlo tree search over
//!   determinizations ([`Game::determinize`]) with `N` simulations per decision, biased
//!   towards the heuristic's choices, with short heuristic playouts.
//! * [`pimc::PimcBot`] (`"pimc:N"`): determinized Monte Carlo with paired playouts of every
//!   legal action in `N` sampled worlds (a rollout improvement of the heuristic).
//! * [`pimc::PimcBot::oracle`] (`"oracle:N"`): the same search seeing every hand (never a
//!   fair opponent): it measures how much the rules reward knowing and deciding.
//! * [`card_net::CardNetBot`] (`"net"`): one learned network for every rule set and table
//!   size, reading the rules encoding card by card ([`card_net::weights`]); batched where many
//!   games ask at once.
//! * [`net::NetBot`] (`"net1"`): the first learned bots, three flat networks each trained by
//!   self-play for one two-player preset ([`net::weights`]).
//!
//! [`BotSpec`] parses the names above; [`arena`] plays duplicate-deal matches between
//! them in parallel. [`random_selfplay`] plays whole games between random bots in a tight
//! Rust loop and reports results and speed; it is the engine's smoke test.

pub mod arena;
pub mod card_net;
pub mod heuristic;
pub mod ismcts;
pub mod net;
pub mod pimc;

use crate::action::ActionMask;
use crate::game::{Game, derive_seed};
use crate::rules::{MAX_PLAYERS, Rules};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Instant;

/// Uniform random legal actions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: Xoshiro256PlusPlus::seed_from_u64(seed) }
    }

    /// A uniformly drawn legal action, or `None` when the game is over.
    pub fn act(&mut self, g: &Game) -> Option<usize> {
        let mut m = ActionMask::default();
        g.legal_actions(&mut m);
        self.pick(&m)
    }

    /// A uniform member of `m`: the `i`-th set id for `i = rng.random_range(0..m.len())`.
    ///
    /// The hot path of every random playout, so it counts and selects word by word (empty
    /// words cost one test; the mask is read with the same word loads that filled it) and
    /// draws `i` with `RandomBot::below` rather than through `random_range`'s call.
    #[inline]
    pub fn pick(&mut self, m: &ActionMask) -> Option<usize> {
        let w = m.0;
        let ones = |x: u64| if x == 0 { 0 } else { x.count_ones() };
        let c = [ones(w[0]), ones(w[1]), ones(w[2]), ones(w[3])];
        let k = c[0] + c[1] + c[2] + c[3];
        if k == 0 {
            return None;
        }
        let mut i = self.below(k);
        for (j, (&x, &n)) in w.iter().zip(&c).enumerate() {
            if i < n {
                let mut x = x;
                for _ in 0..i {
                    x &= x - 1;
                }
                return Some(j * 64 + x.trailing_zeros() as usize);
            }
            i -= n;
        }
        // No input reaches this: `below(k)` returns `i < k = c[0] + c[1] + c[2] + c[3]`, so
        // the loop returns in the word where the running count passes `i`.
        unreachable!("i < k, the number of set ids")
    }

    /// A uniform draw from `0..k` (`k > 0`), the same value and generator state as
    /// `rng.random_range(0..k as usize)`: rand's single-sample method for a range that fits
    /// in 32 bits (a widening multiply of one `u32`, with a second draw in the rare case the
    /// low half may carry). The golden self-play file, and a test below against
    /// `random_range`, pin the equality.
    #[inline]
    fn below(&mut self, k: u32) -> u32 {
        let m = u64::from(self.rng.next_u32()) * u64::from(k);
        let (mut hi, lo) = ((m >> 32) as u32, m as u32);
        if lo > k.wrapping_neg() {
            let hi2 = ((u64::from(self.rng.next_u32()) * u64::from(k)) >> 32) as u32;
            hi += u32::from(lo.checked_add(hi2).is_none());
        }
        hi
    }
}

/// A playing policy: picks a legal action for the player to act.
///
/// Implementations must use only what that player may know: the legal actions, its own hand,
/// the public table (top card, active suit, pending chain, discard pile, direction, scores)
/// and the other players' hand sizes; search policies sample the rest with
/// [`Game::determinize`].
pub trait Policy: Send + Sync {
    /// A legal action of the player to act, or `None` when the game is over or truncated.
    fn act(&mut self, g: &Game) -> Option<usize>;
    /// The bot's name as a [`BotSpec`] string (`"random"`, `"heuristic"`, `"ismcts:400"`, `"pimc:50"`).
    fn name(&self) -> String;
}

impl Policy for RandomBot {
    fn act(&mut self, g: &Game) -> Option<usize> {
        RandomBot::act(self, g)
    }
    fn name(&self) -> String {
        "random".into()
    }
}

/// A built-in bot by name: `"random"`, `"heuristic"`, `"ismcts"` / `"ismcts:N"` (N
/// simulations per decision, default [`ismcts::DEFAULT_SIMULATIONS`]) or `"pimc"` /
/// `"pimc:N"` (N sampled worlds per decision, default [`pimc::DEFAULT_WORLDS`]), `"net"` (the
/// learned policy of every rule set) or `"net1"` (the first learned policies; only on the rules
/// they were trained for, see [`BotSpec::check_rules`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    Random,
    Heuristic,
    Ismcts {
        simulations: u32,
    },
    Pimc {
        worlds: u32,
    },
    /// PIMC seeing every hand ([`pimc::PimcBot::oracle`]); it reads hidden cards on purpose.
    Oracle {
        worlds: u32,
    },
    /// The learned network of every rule set ([`card_net`]).
    Net,
    /// The first learned networks, one per preset they were trained on ([`net`]).
    Net1,
}

/// The names [`BotSpec::parse`] accepts, for error messages.
pub const BOT_SPEC_HELP: &str = "\"random\", \"heuristic\", \"ismcts\", \"ismcts:N\" (N simulations), \"pimc\" or \"pimc:N\" (N worlds), \"oracle:N\" (pimc seeing every hand, for measurement), N in 1..=1000000, \"net\" (the learned bot, every rule set) or \"net1\" (the first learned bots: three two-player presets)";

impl BotSpec {
    /// Parse a bot name; the error says what was wrong and what is allowed.
    pub fn parse(text: &str) -> Result<BotSpec, String> {
        let t = text.trim().to_ascii_lowercase();
        let (head, arg) = match t.split_once(':') {
            Some((h, a)) => (h, Some(a)),
            None => (t.as_str(), None),
        };
        let count = |a: &str| match a.parse::<u32>() {
            Ok(k) if (1..=1_000_000).contains(&k) => Ok(k),
            _ => Err(format!(
                "bad count {a:?} in bot name {text:?}: expected an integer in 1..=1000000, e.g. \"{head}:400\""
            )),
        };
        match (head, arg) {
            ("random", None) => Ok(BotSpec::Random),
            ("heuristic", None) => Ok(BotSpec::Heuristic),
            ("ismcts", None) => Ok(BotSpec::Ismcts { simulations: ismcts::DEFAULT_SIMULATIONS }),
            ("ismcts", Some(a)) => Ok(BotSpec::Ismcts { simulations: count(a)? }),
            ("pimc", None) => Ok(BotSpec::Pimc { worlds: pimc::DEFAULT_WORLDS }),
            ("pimc", Some(a)) => Ok(BotSpec::Pimc { worlds: count(a)? }),
            ("oracle", None) => Ok(BotSpec::Oracle { worlds: pimc::DEFAULT_WORLDS }),
            ("oracle", Some(a)) => Ok(BotSpec::Oracle { worlds: count(a)? }),
            ("net", None) => Ok(BotSpec::Net),
            ("net1", None) => Ok(BotSpec::Net1),
            ("random" | "heuristic" | "net" | "net1", Some(_)) => {
                Err(format!("bot {head:?} takes no parameter (got {text:?}); allowed bots: {BOT_SPEC_HELP}"))
            }
            _ => Err(format!("unknown bot {text:?}; allowed bots: {BOT_SPEC_HELP}")),
        }
    }

    /// A fresh bot with its own seeded generator.
    pub fn build(&self, seed: u64) -> Box<dyn Policy> {
        match *self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Heuristic => Box::new(heuristic::HeuristicBot::new()),
            BotSpec::Ismcts { simulations } => Box::new(ismcts::IsmctsBot::new(simulations, seed)),
            BotSpec::Pimc { worlds } => Box::new(pimc::PimcBot::new(worlds, seed)),
            BotSpec::Oracle { worlds } => Box::new(pimc::PimcBot::oracle(worlds, seed)),
            BotSpec::Net => Box::new(card_net::CardNetBot::new()),
            BotSpec::Net1 => Box::new(net::NetBot::new()),
        }
    }

    /// Whether this bot can play `rules`: every bot can, except `net1`, which plays only the
    /// rules it was trained for (the error names them).
    pub fn check_rules(&self, rules: &Rules) -> Result<(), String> {
        match self {
            BotSpec::Net => card_net::weights().map(|_| ()),
            BotSpec::Net1 => net::policy_for(rules).map(|_| ()),
            _ => Ok(()),
        }
    }

    /// The canonical name (parses back to the same spec).
    pub fn name(&self) -> String {
        match self {
            BotSpec::Random => "random".into(),
            BotSpec::Heuristic => "heuristic".into(),
            BotSpec::Ismcts { simulations } => format!("ismcts:{simulations}"),
            BotSpec::Pimc { worlds } => format!("pimc:{worlds}"),
            BotSpec::Oracle { worlds } => format!("oracle:{worlds}"),
            BotSpec::Net => "net".into(),
            BotSpec::Net1 => "net1".into(),
        }
    }
}

/// Results of [`random_selfplay`].
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SelfPlayStats {
    pub games: u64,
    /// Games won per seat.
    pub wins: Vec<u64>,
    pub no_winner: u64,
    pub truncated: u64,
    pub decisions: u64,
    pub seconds: f64,
}

/// Play `games` random-vs-random games; game `i` is dealt from `derive_seed(seed, i)`.
pub fn random_selfplay(rules: Arc<Rules>, games: u64, seed: u64) -> SelfPlayStats {
    let n = rules.num_players as usize;
    let mut wins = [0u64; MAX_PLAYERS];
    let mut stats = SelfPlayStats { games, ..Default::default() };
    let start = Instant::now();
    let mut g = Game::new(rules, derive_seed(seed, 0));
    let mut bot = RandomBot::new(derive_seed(seed ^ 0x5EED, 0));
    let mut m = ActionMask::default();
    for i in 0..games {
        if i > 0 {
            g.reset(derive_seed(seed, i), &[]).expect("an empty deck prefix is always valid");
        }
        loop {
            g.legal_actions(&mut m);
            match bot.pick(&m) {
                Some(a) => g.apply(a),
                None => break,
            }
        }
        stats.decisions += g.decisions() as u64;
        if g.is_truncated() {
            stats.truncated += 1;
        }
        match g.winner() {
            Some(w) => wins[w] += 1,
            None => stats.no_winner += 1,
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats.wins = wins[..n].to_vec();
    stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::preset_names;
    use rand::RngExt;

    /// The preset's rules for `n` players, or for the nearest player count it allows.
    fn rules(p: &str, n: usize) -> Arc<Rules> {
        let spec = crate::rules::load_spec(p, None).unwrap();
        let n = n.clamp(spec.players.min as usize, spec.players.max as usize);
        Arc::new(Rules::from_spec(spec, n).unwrap())
    }

    #[test]
    fn below_draws_what_random_range_draws() {
        // Small ranges (every playout) and ranges near 2^32, where the second draw is common.
        for seed in 0..50u64 {
            let mut a = RandomBot::new(seed);
            let mut b = Xoshiro256PlusPlus::seed_from_u64(seed);
            for j in 0..2000u64 {
                let k = match j % 4 {
                    0 => 1 + (j % 197) as u32,
                    1 => u32::MAX - (j as u32),
                    2 => (1 << 31) + 1 + j as u32,
                    _ => 3 << 30,
                };
                assert_eq!(a.below(k) as usize, b.random_range(0..k as usize), "seed {seed} k {k}");
            }
            assert_eq!(a.rng, b, "the generators stay in step");
        }
    }

    #[test]
    fn pick_is_the_drawn_member_of_the_mask() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for seed in 0..200u64 {
            let mut m = ActionMask::default();
            for _ in 0..(seed % 12) {
                x = derive_seed(x, seed);
                m.set((x % crate::action::NUM_ACTIONS as u64) as usize);
            }
            let mut a = RandomBot::new(seed);
            let mut b = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..20 {
                let want = if m.is_empty() { None } else { m.nth(b.random_range(0..m.len())) };
                assert_eq!(a.pick(&m), want);
            }
        }
    }

    #[test]
    fn bot_names_parse_and_round_trip() {
        for name in ["random", "heuristic", "ismcts:400", "pimc:50", "ismcts:1", "oracle:20"] {
            assert_eq!(BotSpec::parse(name).unwrap().name(), name);
        }
        assert_eq!(BotSpec::parse(" ISMCTS ").unwrap(), BotSpec::Ismcts { simulations: ismcts::DEFAULT_SIMULATIONS });
        for bad in ["minimax", "ismcts:0", "ismcts:x", "ismcts:-3", "random:3", "pimc:", ""] {
            let e = BotSpec::parse(bad).unwrap_err();
            assert!(e.contains("heuristic") || e.contains("1..=1000000"), "{bad}: {e}");
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
        let specs = [BotSpec::Heuristic, BotSpec::Ismcts { simulations: 24 }, BotSpec::Pimc { worlds: 3 }];
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
                table.extend([BotSpec::Pimc { worlds: 2 }, BotSpec::Random]);
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
            for spec in [BotSpec::Ismcts { simulations: 30 }, BotSpec::Pimc { worlds: 4 }] {
                assert_eq!(spec.build(3).act(&g), spec.build(3).act(&g));
            }
        }
    }
}
