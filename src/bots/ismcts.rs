//! Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
//! Whitehouse 2012).
//!
//! Each simulation samples a determinization of the hidden cards consistent with what the
//! acting player knows ([`Game::determinize`]: its own hand, the public discard pile, hand
//! and stock sizes, cards it saw go into other hands, the faces the record of declined plays
//! rules out of the other hands), then walks one shared tree of action
//! sequences: at each node only the children legal in this determinization are candidates,
//! chosen by UCB1 with availability counts (`mean + c * sqrt(ln(available) / visits)`, `c` =
//! [`EXPLORATION`]) plus a progressive bias towards the heuristic: the child the
//! [`HeuristicBot`] would choose in this determinization gets `+ bias / (visits + 1)`, a head
//! start that fades as the search gathers evidence. How much head start depends on how much
//! the evidence is worth: `bias` runs from [`HEURISTIC_BIAS`], when the search's playouts end
//! their games (a won or lost game is exact), to [`CUT_BIAS`], when they are all cut short (a
//! race estimate many decisions from the end is noisy), by the share of this search's
//! playouts so far that were cut short. With the small bias alone, in long games (the
//! countdown presets, `bitch`) the search followed the noise of its race estimates away from
//! the heuristic's move, and lost to the heuristic. An untried legal
//! action is expanded (a uniformly drawn one), then the game is played out with the
//! heuristic policy (the random tail of the game comes from the determinization's re-seeded
//! generator) for at most [`PLAYOUT_DECISIONS`] decisions. Each node on the path is credited
//! with the result for the player who chose its action ([`playout_rewards`]): 1 for a win, 0
//! for a loss, 1/n for a game without a winner; a playout cut short is scored as a race, a
//! softmax of `-`[`HAND_SIZE_WEIGHT`]` * `[`cards_to_go`] over the players: the cards each
//! still has to shed before it can win, which is its hand, plus, where scores count down
//! (`countdown`), the hands it will be dealt each time it goes out. (Scoring the hand alone
//! made going out look like a loss in the countdown presets, where going out at score `s`
//! deals `s - 1` new cards, and the search avoided it.)
//! The action of the most visited root child is played (ties: the lower action id).
//!
//! `ismcts_net:N` ([`IsmctsBot::rooted_on_net`]) is the same search with `net`'s greedy move in
//! the heuristic's place at the root: the root's progressive bias favours the network's move,
//! so the search keeps it unless its playouts find a better one; deeper nodes and the playouts
//! keep the heuristic.
//!
//! A decision with a single legal action is returned without search. The bot is
//! deterministic for a given seed: all its randomness comes from its own xoshiro256++
//! stream, never from the game's.

use super::heuristic::HeuristicBot;
use super::net::NetBot;
use super::policy::Policy;
use crate::action::ActionMask;
use crate::game::{Game, KnownCards};
use crate::stop::{NEVER, Stop};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Simulations per decision of `"ismcts"` without a count.
pub const DEFAULT_SIMULATIONS: u32 = 400;
/// UCB1 exploration constant.
pub const EXPLORATION: f64 = 0.7;
/// Progressive bias of the heuristic's choice at a node, `bias / (visits + 1)`, when every
/// playout of the search ends its game.
pub const HEURISTIC_BIAS: f64 = 1.0;
/// The same bias when every playout of the search is cut short (see the module documentation:
/// the bias runs between the two by the share of playouts cut short).
pub const CUT_BIAS: f64 = 5.0;
/// Playout decisions before a playout is cut short and scored by hand sizes.
pub const PLAYOUT_DECISIONS: u32 = 20;
/// Weight of a card still to shed ([`cards_to_go`]) in the race score of a playout cut short.
pub const HAND_SIZE_WEIGHT: f64 = 0.5;
/// Longest playout of `pimc`, in decisions, before it is scored as a draw.
pub const ROLLOUT_LIMIT: u32 = 500;

const NONE: u32 = u32::MAX;
/// Simulations between two reads of a search's stop flag ([`IsmctsBot::search_until`]): a
/// few milliseconds of search at most, one relaxed load per 64 simulations.
pub const STOP_EVERY: u32 = 64;

#[derive(Clone, Debug)]
struct Node {
    action: u16,
    /// The player who chose `action`.
    player: u8,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    available: u32,
    reward: f64,
}

/// The ISMCTS bot (see the module documentation).
#[derive(Clone, Debug)]
pub struct IsmctsBot {
    simulations: u32,
    rng: Xoshiro256PlusPlus,
    nodes: Vec<Node>,
    path: Vec<u32>,
    rollout: HeuristicBot,
    /// `net`, whose move the root favours ([`IsmctsBot::rooted_on_net`]).
    root_net: Option<NetBot>,
}

impl IsmctsBot {
    /// A bot running `simulations` simulations per decision, seeded with `seed`.
    pub fn new(simulations: u32, seed: u64) -> Self {
        IsmctsBot {
            simulations: simulations.max(1),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            nodes: Vec::new(),
            path: Vec::new(),
            rollout: HeuristicBot::new(),
            root_net: None,
        }
    }

    /// `ismcts_net:N`: the search whose root favours `net`'s greedy move where the plain one
    /// favours the heuristic's (see the module documentation), seeded with `seed`.
    pub fn rooted_on_net(simulations: u32, seed: u64) -> Self {
        IsmctsBot { root_net: Some(NetBot::new()), ..IsmctsBot::new(simulations, seed) }
    }

    /// Simulations per decision.
    pub fn simulations(&self) -> u32 {
        self.simulations
    }

    fn add_child(&mut self, parent: u32, action: usize, player: usize) -> u32 {
        let id = self.nodes.len() as u32;
        let next = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action: action as u16,
            player: player as u8,
            first_child: NONE,
            next_sibling: next,
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        self.nodes[parent as usize].first_child = id;
        id
    }

    /// Run the search from `g` and return the chosen action.
    pub fn search(&mut self, g: &Game) -> Option<usize> {
        self.search_into(g, None, None, &NEVER)
    }

    /// [`search`](Self::search) until `stop` is set (read every [`STOP_EVERY`] simulations):
    /// then the most visited root child so far, or the root's favoured action before any.
    pub fn search_until(&mut self, g: &Game, stop: &Stop) -> Option<usize> {
        self.search_into(g, None, None, stop)
    }

    /// [`search`](Self::search), also writing the root's visit shares to `shares` (one entry
    /// per action id, [`crate::action::NUM_ACTIONS`] of them): each root child's visits over
    /// the simulations, zero for the other actions; a decision with a single legal action puts
    /// 1 on it, a finished game leaves every entry 0. `root`, when it is a legal action, takes
    /// the heuristic's place at the root: the progressive bias favours it there (a learner's
    /// own move, say, so that the search leaves it only on evidence); deeper nodes keep the
    /// heuristic's bias. With `root = None` the action returned is `search`'s with the same
    /// seed: the most visited (ties: the lower id). A bot [`rooted_on_net`](Self::rooted_on_net)
    /// given no `root` favours `net`'s move.
    pub fn search_policy(&mut self, g: &Game, root: Option<usize>, shares: &mut [f32]) -> Option<usize> {
        self.search_policy_until(g, root, shares, &NEVER)
    }

    /// [`search_policy`](Self::search_policy) until `stop` is set (read every
    /// [`STOP_EVERY`] simulations): the shares of the simulations run by then.
    pub fn search_policy_until(
        &mut self,
        g: &Game,
        root: Option<usize>,
        shares: &mut [f32],
        stop: &Stop,
    ) -> Option<usize> {
        shares.fill(0.0);
        self.search_into(g, root, Some(shares), stop)
    }

    fn search_into(&mut self, g: &Game, root: Option<usize>, shares: Option<&mut [f32]>, stop: &Stop) -> Option<usize> {
        let me = g.current_player()?;
        let mut m = ActionMask::default();
        g.legal_actions(&mut m);
        if m.len() <= 1 {
            let a = m.nth(0);
            if let (Some(s), Some(a)) = (shares, a) {
                s[a] = 1.0;
            }
            return a;
        }
        let n = g.num_players();
        self.nodes.clear();
        self.nodes.push(Node {
            action: 0,
            player: 0,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        let mut rewards = [0.0f64; crate::rules::MAX_PLAYERS];
        // The root's legal actions are the same in every determinization: one heuristic call
        // (or the caller's choice, or net's for a bot rooted on it).
        let root = root.or_else(|| self.root_net.as_mut().and_then(|net| net.act(g)));
        let root_h = match root {
            Some(a) if m.contains(a) => Some(a),
            _ => self.rollout.choose(g, &m),
        };
        // Playouts cut short so far, and playouts so far: the bias runs between the two bounds.
        let (mut cut, mut played) = (0u32, 0u32);
        for k in 0..self.simulations {
            if k % STOP_EVERY == 0 && stop.is_set() {
                return self.root_choice(shares).or(root_h);
            }
            let bias = HEURISTIC_BIAS + (CUT_BIAS - HEURISTIC_BIAS) * f64::from(cut + 1) / f64::from(played + 1);
            let mut d = g.determinize_world(me, &KnownCards::default(), &mut self.rng);
            self.path.clear();
            let mut node = 0u32;
            // Selection and expansion.
            while let Some(p) = d.current_player() {
                d.legal_actions(&mut m);
                let mut untried = m;
                let mut child = self.nodes[node as usize].first_child;
                while child != NONE {
                    let c = &mut self.nodes[child as usize];
                    let a = c.action as usize;
                    if m.contains(a) {
                        c.available += 1;
                        untried.0[a >> 6] &= !(1u64 << (a & 63));
                    }
                    child = c.next_sibling;
                }
                if !untried.is_empty() {
                    let k = self.rng.random_range(0..untried.len());
                    let a = untried.nth(k).expect("k < len");
                    let id = self.add_child(node, a, p);
                    d.apply(a);
                    self.path.push(id);
                    break;
                }
                let hb = if node == 0 { root_h } else { self.rollout.choose(&d, &m) };
                let mut best = (f64::NEG_INFINITY, NONE);
                let mut child = self.nodes[node as usize].first_child;
                while child != NONE {
                    let c = &self.nodes[child as usize];
                    if m.contains(c.action as usize) {
                        let v = c.visits.max(1) as f64;
                        let mut ucb = c.reward / v + EXPLORATION * ((c.available as f64).ln() / v).sqrt();
                        if hb == Some(c.action as usize) {
                            ucb += bias / (v + 1.0);
                        }
                        if ucb > best.0 {
                            best = (ucb, child);
                        }
                    }
                    child = c.next_sibling;
                }
                node = best.1;
                d.apply(self.nodes[node as usize].action as usize);
                self.path.push(node);
            }
            // Playout.
            let mut steps = 0;
            while d.current_player().is_some() && steps < PLAYOUT_DECISIONS {
                d.legal_actions(&mut m);
                match self.rollout.choose(&d, &m) {
                    Some(a) => d.apply(a),
                    None => break,
                }
                steps += 1;
            }
            played += 1;
            if d.current_player().is_some() {
                cut += 1;
            }
            playout_rewards(&d, &mut rewards[..n]);
            for &i in &self.path {
                let node = &mut self.nodes[i as usize];
                node.visits += 1;
                node.reward += rewards[node.player as usize];
            }
        }
        self.root_choice(shares)
    }

    /// The most visited root child's action (ties: the lower id), writing the root's visit
    /// shares to `shares` when given.
    fn root_choice(&self, mut shares: Option<&mut [f32]>) -> Option<usize> {
        let mut best: Option<(u32, usize)> = None;
        // Every simulation passes through exactly one root child.
        let total = self.simulations as f32;
        let mut child = self.nodes[0].first_child;
        while child != NONE {
            let c = &self.nodes[child as usize];
            let a = c.action as usize;
            if let Some(s) = shares.as_deref_mut() {
                s[a] = c.visits as f32 / total;
            }
            let better = match best {
                None => true,
                Some((v, b)) => c.visits > v || (c.visits == v && a < b),
            };
            if better {
                best = Some((c.visits, a));
            }
            child = c.next_sibling;
        }
        best.map(|(_, a)| a)
    }
}

/// Each seat's reward, `rewards[q]` for seat `q` (one entry per seat), at the end of a
/// playout in `d` (see the module documentation): the winner 1 and the others 0, `1/n` each
/// when the game ended or was truncated without a winner, and for a game still running the
/// race estimate from [`cards_to_go`]. The rewards sum to 1.
pub fn playout_rewards(d: &Game, rewards: &mut [f64]) {
    let n = rewards.len();
    match (d.is_terminal(), d.winner()) {
        (true, Some(w)) => {
            rewards.fill(0.0);
            rewards[w] = 1.0;
        }
        _ if d.current_player().is_some() => {
            // A race: a softmax of minus the cards each seat still has to shed.
            let mut z = 0.0;
            for (q, r) in rewards.iter_mut().enumerate() {
                *r = (-HAND_SIZE_WEIGHT * cards_to_go(d, q) as f64).exp();
                z += *r;
            }
            for r in rewards.iter_mut() {
                *r /= z;
            }
        }
        _ => rewards.fill(1.0 / n as f64),
    }
}

/// The cards seat `q` still has to shed to win: its hand, plus under countdown scoring the
/// hands it will be dealt on going out (score `s` re-deals `s - 1`, then `s - 2`, ... 1).
pub fn cards_to_go(g: &Game, q: usize) -> u32 {
    let held = g.hand(q).len() as u32;
    if !g.rules().settings.countdown {
        return held;
    }
    // A player who went out on a wild is dealt its new hand once the suit is named.
    let held = held + g.countdown_cards_owed(q);
    let s = g.scores()[q].max(1) as u32;
    held + s * (s - 1) / 2
}

impl Policy for IsmctsBot {
    fn act(&mut self, g: &Game) -> Option<usize> {
        self.search(g)
    }
    fn act_until(&mut self, g: &Game, stop: &Stop) -> Option<usize> {
        self.search_until(g, stop)
    }
    fn name(&self) -> String {
        let head = if self.root_net.is_some() { "ismcts_net" } else { "ismcts" };
        format!("{head}:{}", self.simulations)
    }
    fn generator(&mut self) -> Option<&mut Xoshiro256PlusPlus> {
        Some(&mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::bots::policy::RandomBot;
    use crate::rules::Rules;
    use std::sync::Arc;

    fn rules(preset: &str) -> Arc<Rules> {
        Arc::new(Rules::load(preset, 2, None).unwrap())
    }

    /// Positions of random play in `preset` where the player to act holds one card and may
    /// play it, with the id of that play.
    fn last_card_positions(preset: &str, games: u64) -> Vec<(Game, usize)> {
        let mut out = Vec::new();
        for s in 0..games {
            let mut g = Game::new(rules(preset), 40 + s);
            let mut bot = RandomBot::new(s);
            while let Some(p) = g.current_player() {
                if g.hand(p).len() == 1 && g.phase() == crate::game::Phase::Play {
                    let c = g.hand(p).iter().next().unwrap();
                    let play = Action::Play(c).id();
                    if g.legal_action_vec().contains(&play) {
                        out.push((g.clone(), play));
                    }
                }
                let a = bot.act(&g).unwrap();
                g.apply(a);
            }
        }
        out
    }

    /// Crazy Eights Countdown: "A player who goes out lowers their score by one and is dealt
    /// that many new cards at once ... The first player to reach zero wins." Going out from
    /// one card at score `s` leaves `s - 1` cards in hand, yet it takes exactly one card off
    /// what the player still has to shed; the hand size alone would say it added `s - 2`.
    #[test]
    fn going_out_in_countdown_takes_one_card_off_the_cards_to_go() {
        let mut checked = 0;
        for (g, play) in last_card_positions("crazy_eights_countdown", 40) {
            let p = g.current_player().unwrap();
            let s = g.scores()[p] as u32;
            // Score s with one card: 1 + (s-1) + (s-2) + ... + 1 cards to go.
            assert_eq!(cards_to_go(&g, p), 1 + (1..s).sum::<u32>());
            let mut after = g.clone();
            after.apply(play);
            if after.is_terminal() {
                assert_eq!(after.winner(), Some(p), "out at score 1 wins");
                continue;
            }
            if after.phase() == crate::game::Phase::Nominate {
                // Out on a wild: the suit is named before the new hand is dealt.
                assert_eq!(after.hand(p).len(), 0);
                assert_eq!(cards_to_go(&after, p), cards_to_go(&g, p) - 1);
                after.apply(after.legal_action_vec()[0]);
            }
            assert_eq!(after.hand(p).len() as u32, s - 1, "dealt s - 1 new cards");
            assert_eq!(cards_to_go(&after, p), cards_to_go(&g, p) - 1);
            checked += 1;
        }
        assert!(checked > 20, "only {checked} positions");
        // Without countdown scoring the cards to go are the hand.
        let g = Game::new(rules("crazy_eights"), 1);
        assert_eq!(cards_to_go(&g, 0), g.hand(0).len() as u32);
    }

    /// The countdown collapse: the search declined to go out (a draw instead) because the
    /// new hand looked like a loss. Now it goes out whenever it can, as any player would.
    #[test]
    fn ismcts_goes_out_in_the_countdown_presets() {
        for preset in ["crazy_eights_countdown", "bitch"] {
            let pos = last_card_positions(preset, 30);
            assert!(pos.len() > 20, "{preset}: only {} positions", pos.len());
            let declined = pos
                .iter()
                .enumerate()
                .filter(|(i, (g, play))| IsmctsBot::new(100, *i as u64).search(g) != Some(*play))
                .count();
            assert!(declined * 20 <= pos.len(), "{preset}: declined to go out {declined} times of {}", pos.len());
        }
    }

    #[test]
    fn playout_rewards_sum_to_one_and_favour_fewer_cards_to_go() {
        let g = Game::new(rules("crazy_eights"), 3);
        let mut r = [0.0; 2];
        playout_rewards(&g, &mut r);
        assert!((r[0] + r[1] - 1.0).abs() < 1e-12);
        assert!((r[0] - 0.5).abs() < 1e-12, "equal hands, equal chances: {r:?}");
    }
}
