//! The batched-bot layer: how the built-in bots answer for many games at once, for the
//! callers that play many games side by side (the arena's batched tables, `VecEnv`'s
//! built-in opponents and its `bot_actions`).
//!
//! It owns the only knowledge those callers need of the concrete bots: which bots answer a
//! whole batch in one pass ([`Style::Batched`]: the learned bots), which are cheap enough to
//! answer one game at a time on the caller's thread ([`Style::Quick`]) and which search
//! ([`Style::Search`]: milliseconds a decision, worth spreading over threads); the scratch
//! space of the batched passes ([`BotBatch`], one per thread, reused between calls) and the
//! queue of games waiting for them. Every answer depends only on its own game (and, for the
//! bots that draw, on the stream or seed the caller hands in), never on the other games of a
//! batch, so a caller may cut its games into batches any way it likes.

use super::file::{AgentFile, FileNet};
use super::heuristic::HeuristicBot;
use super::ismcts::IsmctsBot;
use super::policy::RandomBot;
use super::spec::BotSpec;
use super::{net, net1};
use crate::action::ActionMask;
use crate::game::Game;
use crate::seed::derive_seed;
use crate::stop::Stop;
use std::sync::Arc;
use std::time::Instant;

/// How a bot is played over many games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// One batched forward pass for every waiting game ([`BotBatch::answer`]).
    Batched,
    /// A fraction of a microsecond to a few microseconds a decision ([`act_one`]).
    Quick,
    /// A search: milliseconds a decision, each seeded by its caller ([`act_one`]).
    Search,
}

/// How `spec` is played over many games.
pub fn style(spec: BotSpec) -> Style {
    match spec {
        BotSpec::Net | BotSpec::Net1 | BotSpec::File(_) => Style::Batched,
        BotSpec::Random | BotSpec::Heuristic => Style::Quick,
        BotSpec::Ismcts { .. } | BotSpec::IsmctsNet { .. } | BotSpec::Pimc { .. } | BotSpec::Oracle { .. } => {
            Style::Search
        }
    }
}

/// The decision of bot `spec` for the seat to act in `game`, whose legal actions are `mask`,
/// built afresh for this decision: `random` draws from `stream`, a search bot is seeded with
/// `seed`, the learned bots answer through one forward pass of their own (a caller with many
/// games batches them instead, see [`BotBatch`]). `None` when the game is over. A search
/// reads `stop` as [`Policy::act_until`](super::policy::Policy::act_until) does.
pub fn act_one(
    spec: BotSpec,
    game: &Game,
    mask: &ActionMask,
    stream: &mut RandomBot,
    seed: u64,
    stop: &Stop,
) -> Option<usize> {
    match spec {
        BotSpec::Random => stream.pick(mask),
        BotSpec::Heuristic => HeuristicBot::new().choose(game, mask),
        _ => spec.build(seed).act_until(game, stop),
    }
}

/// Whether `spec` gives a search policy (its root visit shares) through [`search_policy`].
pub fn has_search_policy(spec: BotSpec) -> bool {
    matches!(spec, BotSpec::Ismcts { .. } | BotSpec::IsmctsNet { .. })
}

/// The root visit shares of search bot `spec` seeded with `seed` in `game` into `row`
/// ([`IsmctsBot::search_policy`]; `favour`: the action its root favours in the heuristic's
/// place). Nothing is written for a bot without a search policy ([`has_search_policy`]).
pub fn search_policy(spec: BotSpec, game: &Game, seed: u64, favour: Option<usize>, row: &mut [f32], stop: &Stop) {
    let mut bot = match spec {
        BotSpec::Ismcts { simulations } => IsmctsBot::new(simulations, seed),
        BotSpec::IsmctsNet { simulations } => IsmctsBot::rooted_on_net(simulations, seed),
        _ => return,
    };
    bot.search_policy_until(game, favour, row, stop);
}

/// Whether any bot of `table` answers in batches.
pub fn any_batched(table: &[BotSpec]) -> bool {
    table.iter().any(|&s| style(s) == Style::Batched)
}

/// One answer of a batched bot: game `game` (the caller's index) plays `action`; `seconds` is
/// its share of the batch's time.
#[derive(Copy, Clone, Debug)]
pub struct Answer {
    pub spec: BotSpec,
    pub game: usize,
    pub action: Option<usize>,
    pub seconds: f64,
}

/// The batched bots' scratch space and queue, kept by each caller (one per thread) between
/// calls, so that a decision allocates nothing once the buffers have grown to the batch.
#[derive(Clone, Debug, Default)]
pub struct BotBatch {
    net: net::NetScratch,
    net1: net1::Net1Scratch,
    /// The buffers of each weights file played so far (a card network's cache of rules parts
    /// belongs to its own network).
    files: Vec<(&'static AgentFile, FileScratch)>,
    /// The games waiting, per batched bot, in the order they were queued.
    waiting: Vec<(BotSpec, Vec<usize>)>,
    answers: Vec<Answer>,
    /// Indices into one list: the games of one rule set (`net1`), and those left.
    group: Vec<usize>,
    left: Vec<usize>,
    /// Draw the card network's moves from its policy instead of taking the greedy one (see
    /// [`BotBatch::sample_with`]), and the seed of each game of a list.
    sample: Option<u64>,
    seeds: Vec<u64>,
}

impl BotBatch {
    /// Queue game `game` (the caller's index) for batched bot `spec`.
    pub fn wait(&mut self, spec: BotSpec, game: usize) {
        match self.waiting.iter_mut().find(|(s, _)| *s == spec) {
            Some((_, list)) => list.push(game),
            None => self.waiting.push((spec, vec![game])),
        }
    }

    /// With `Some(seed)`, the card network (`net`, a card network's file) draws each answer
    /// from its policy, game `i`'s draw seeded with `derive_seed(seed, i)` alone
    /// ([`net::CardNet::sample_games_into`]); with `None` (the default) it plays its greedy move.
    /// A flat network has no sampled answers: [`BotBatch::answer`] is then an error.
    pub fn sample_with(&mut self, seed: Option<u64>) {
        self.sample = seed;
    }

    /// Whether a game waits.
    pub fn is_waiting(&self) -> bool {
        self.waiting.iter().any(|(_, l)| !l.is_empty())
    }

    /// Answer every waiting game (`game(i)`: the caller's game `i`, which must be running) with
    /// one batched pass per bot (and, for `net1`, per rule set), and empty the queue. The
    /// answers, in queue order per bot, stay in [`BotBatch::answers`] until the next call. An
    /// error (a learned bot without weights, `net1` on rules it was not trained for) leaves
    /// no answer.
    pub fn answer<'g>(&mut self, game: impl Fn(usize) -> &'g Game) -> Result<(), String> {
        self.answers.clear();
        let mut waiting = std::mem::take(&mut self.waiting);
        let r = waiting.iter().try_for_each(|(spec, list)| self.answer_list(*spec, list, &game));
        waiting.iter_mut().for_each(|(_, l)| l.clear());
        self.waiting = waiting;
        if r.is_err() {
            self.answers.clear();
        }
        r
    }

    /// The answers of the last [`BotBatch::answer`].
    pub fn answers(&self) -> &[Answer] {
        &self.answers
    }

    fn answer_list<'g>(
        &mut self,
        spec: BotSpec,
        list: &[usize],
        game: &impl Fn(usize) -> &'g Game,
    ) -> Result<(), String> {
        if list.is_empty() {
            return Ok(());
        }
        let t = Instant::now();
        let start = self.answers.len();
        match spec {
            BotSpec::Net => {
                let acts = card_answers(net::weights()?, list, game, self.sample, &mut self.seeds, &mut self.net);
                let answer = |(&i, &action): (&usize, &Option<usize>)| Answer { spec, game: i, action, seconds: 0.0 };
                self.answers.extend(list.iter().zip(acts).map(answer));
            }
            _ if self.sample.is_some() && !matches!(spec, BotSpec::File(f) if matches!(f.net, FileNet::Card(_))) => {
                return Err(format!(
                    "seed is for the card network's sampled moves (net, or its files), and {} has none: leave \
                     seed out",
                    spec.name()
                ));
            }
            BotSpec::Net1 => {
                let mut flat = Flat { answers: &mut self.answers, group: &mut self.group, left: &mut self.left };
                flat.answer(spec, net1::weights()?, &mut self.net1, list, game)?;
            }
            BotSpec::File(f) => {
                let k = match self.files.iter().position(|(g, _)| *g == f) {
                    Some(k) => k,
                    None => {
                        self.files.push((f, FileScratch::default()));
                        self.files.len() - 1
                    }
                };
                let scratch = &mut self.files[k].1;
                match &f.net {
                    FileNet::Card(n) => {
                        let acts = card_answers(n, list, game, self.sample, &mut self.seeds, &mut scratch.card);
                        let answer =
                            |(&i, &action): (&usize, &Option<usize>)| Answer { spec, game: i, action, seconds: 0.0 };
                        self.answers.extend(list.iter().zip(acts).map(answer));
                    }
                    FileNet::Flat(w) => {
                        let mut flat =
                            Flat { answers: &mut self.answers, group: &mut self.group, left: &mut self.left };
                        flat.answer(spec, w, &mut scratch.flat, list, game)?;
                    }
                }
            }
            _ => {
                for &i in list {
                    let action = spec.build(0).act(game(i));
                    self.answers.push(Answer { spec, game: i, action, seconds: 0.0 });
                }
            }
        }
        let dt = t.elapsed().as_secs_f64() / list.len() as f64;
        self.answers[start..].iter_mut().for_each(|a| a.seconds = dt);
        Ok(())
    }
}

/// The card network `n`'s answers for the games of `list`: greedy, or drawn with `sample`'s
/// per-game seeds (see [`BotBatch::sample_with`]).
fn card_answers<'g, 's>(
    n: &net::CardNet,
    list: &[usize],
    game: &impl Fn(usize) -> &'g Game,
    sample: Option<u64>,
    seeds: &mut Vec<u64>,
    scratch: &'s mut net::NetScratch,
) -> &'s [Option<usize>] {
    let games = list.iter().map(|&i| game(i));
    match sample {
        None => n.act_games_into(games, scratch),
        Some(seed) => {
            seeds.clear();
            seeds.extend(list.iter().map(|&i| derive_seed(seed, i as u64)));
            n.sample_games_into(games, seeds, scratch)
        }
    }
}

/// The buffers of one weights file's network.
#[derive(Clone, Debug, Default)]
struct FileScratch {
    flat: net1::Net1Scratch,
    card: net::NetScratch,
}

/// The answers of a flat network (`net1`, or a file of its format) and the index lists it
/// groups its games with.
struct Flat<'b> {
    answers: &'b mut Vec<Answer>,
    group: &'b mut Vec<usize>,
    left: &'b mut Vec<usize>,
}

impl Flat<'_> {
    /// One pass of `weights` per rule set among the games of `list` (a batch of mixed rules
    /// groups its games by the rule set they play); answers in `list`'s order.
    fn answer<'g>(
        &mut self,
        spec: BotSpec,
        weights: &net1::Net1Weights,
        scratch: &mut net1::Net1Scratch,
        list: &[usize],
        game: &impl Fn(usize) -> &'g Game,
    ) -> Result<(), String> {
        let start = self.answers.len();
        let none = Answer { spec, game: 0, action: None, seconds: 0.0 };
        self.answers.extend(list.iter().map(|&i| Answer { game: i, ..none }));
        self.left.clear();
        self.left.extend(0..list.len());
        while let Some(&first) = self.left.first() {
            let rules = game(list[first]).rules().clone();
            let policy = weights.for_rules(&rules)?;
            self.group.clear();
            let (group, left) = (&mut *self.group, &mut *self.left);
            left.retain(|&j| {
                let same = Arc::ptr_eq(game(list[j]).rules(), &rules);
                if same {
                    group.push(j);
                }
                !same
            });
            let acts = policy.act_games_into(group.iter().map(|&j| game(list[j])), scratch);
            for (&j, &a) in group.iter().zip(acts) {
                self.answers[start + j].action = a;
            }
        }
        Ok(())
    }
}
