//! The first learned bots, `net1`: small policy networks, one per preset, trained by PPO
//! self-play (see `research/train_net_bot.py`; the bot `net` of every rule set is
//! `bots::net`), shipped in the crate as one safetensors file and played here
//! with an `ndarray` forward pass, one batched matrix product per layer, no PyTorch needed.
//!
//! The file (`src/bots/weights/net1.safetensors`, format `eights-net-v1`) holds, for each preset
//! `P` it was trained on: `P.norm.mean` and `P.norm.inv_std` (`[IN]`), `P.fc1.weight`
//! (`[H, IN]`), `P.fc1.bias`, `P.fc2.weight` (`[H, H]`), `P.fc2.bias`, `P.pi.weight`
//! (`[NUM_ACTIONS, H]`) and `P.pi.bias`, in PyTorch's `[out, in]` layout, each float32 or
//! float16 (widened to float32 on loading; the computation is float32 either way); its
//! metadata names the presets, the player count and the clip of the normaliser. A policy `P`
//! whose metadata holds `P.rules` (the TOML text of a rule set, as `eights.Rules.to_toml`
//! writes it) plays those rules; any other `P` is a preset's name. A trained file named by its
//! path (the module `file`) holds one policy, `agent`, with its rules. A network reads
//! the first `IN <= OBS_SIZE` values of the observation: the layout only ever appends slices, so
//! a network trained before a slice was added keeps reading the same values. The policy:
//! `x = clamp((obs - mean) * inv_std, -clip, clip)`, `h = relu(fc2(relu(fc1(x))))`,
//! `logits = pi(h)`; the bot plays the legal action of the largest logit (deterministic).
//!
//! A network plays only the rules it was trained on: the game must play the same game as the
//! preset's rules or the rules its file records ([`Rules::same_play`]: same player count, same
//! cards and settings; names and prose are not compared); anything else is an error that names
//! the supported presets.

use super::tensors::tensor;
use crate::action::{ActionMask, NUM_ACTIONS};
use crate::game::Game;
use crate::observation::{OBS_SIZE, encode};
use crate::rules::{Rules, load_spec, spec_from_toml};
use ndarray::linalg::general_mat_mul;
use ndarray::{Array1, Array2, ArrayView2, ArrayViewMut2, Axis, s};
use safetensors::SafeTensors;
use std::sync::{Arc, OnceLock};

/// The shipped weights (see the module documentation for the format).
pub const WEIGHTS_FILE: &[u8] = include_bytes!("weights/net1.safetensors");

/// The format tag the weights file must carry in its metadata.
pub const FORMAT: &str = "eights-net-v1";

/// One preset's policy network, ready to run (weights stored transposed: `[in, out]`).
#[derive(Clone, Debug)]
pub struct NetPolicy {
    /// The preset it was trained on.
    pub preset: String,
    /// The player count it was trained for.
    pub players: usize,
    /// The rules it plays, compiled for `players`; `rules.spec.name` names them in errors.
    rules: Rules,
    /// Whether its rules are recorded in the file (`P.rules`) rather than a preset's.
    recorded: bool,
    mean: Array1<f32>,
    inv_std: Array1<f32>,
    clip: f32,
    w1: Array2<f32>,
    b1: Array1<f32>,
    w2: Array2<f32>,
    b2: Array1<f32>,
    wp: Array2<f32>,
    bp: Array1<f32>,
}

/// All the policies of a weights file.
#[derive(Clone, Debug)]
pub struct Net1Weights {
    pub policies: Vec<NetPolicy>,
    /// Who plays them, for error messages: `the net1 bot`, or `bot file "<path>"`.
    pub label: String,
}

fn matrix_t(st: &SafeTensors<'_>, name: &str, out: usize, inp: usize) -> Result<Array2<f32>, String> {
    let w = Array2::from_shape_vec((out, inp), tensor(st, name, &[out, inp])?).map_err(|e| e.to_string())?;
    // Stored [out, in]; kept as a standard-layout [in, out] for `x.dot(w)`.
    Ok(w.t().as_standard_layout().into_owned())
}

/// Most policies a weights file holds (the shipped file has one per preset it was trained on):
/// each is built whole, its weights copied and its rules compiled, so a 1.3 MB file listing
/// one preset 100,000 times asked for about 5 GB, and aborted the process where memory ran out.
pub const MAX_POLICIES: usize = 64;

/// The metadata's `presets`: at most [`MAX_POLICIES`], none twice.
fn check_policy_names(names: &[&str]) -> Result<(), String> {
    if names.len() > MAX_POLICIES {
        return Err(format!(
            "net weights: metadata \"presets\" lists {} policies; a file holds at most {MAX_POLICIES}",
            crate::rules::thousands(names.len())
        ));
    }
    if let Some((i, name)) = names.iter().enumerate().find(|(i, n)| names[..*i].contains(n)) {
        return Err(format!(
            "net weights: metadata \"presets\" lists {} twice (entries {} and {})",
            crate::rules::quoted(name),
            names.iter().position(|n| n == name).unwrap_or(0) + 1,
            i + 1
        ));
    }
    Ok(())
}

impl Net1Weights {
    /// Parse and validate a weights file (see the module documentation).
    pub fn parse(bytes: &[u8]) -> Result<Net1Weights, String> {
        let (_, meta) = SafeTensors::read_metadata(bytes).map_err(|e| format!("net weights: {e}"))?;
        let meta = meta.metadata().clone().unwrap_or_default();
        let get = |k: &str| meta.get(k).ok_or_else(|| format!("net weights: metadata {k:?} missing"));
        if get("format")? != FORMAT {
            return Err(format!("net weights: format must be {FORMAT:?}, got {:?}", get("format")?));
        }
        // A bad value is quoted as the file has it (cut), never as Rust's `Ok("...")`.
        let bad =
            |k: &str, v: &str| format!("net weights: metadata {k:?} is not a number: {}", crate::rules::quoted(v));
        let (players, clip) = (get("players")?, get("clip")?);
        let players: usize = players.parse().map_err(|_| bad("players", players))?;
        let clip: f32 = clip.parse().map_err(|_| bad("clip", clip))?;
        if clip.is_nan() || clip <= 0.0 {
            return Err(format!("net weights: clip must be positive, got {clip}"));
        }
        let st = SafeTensors::deserialize(bytes).map_err(|e| format!("net weights: {e}"))?;
        let names: Vec<&str> = get("presets")?.split(',').filter(|p| !p.is_empty()).collect();
        check_policy_names(&names)?;
        let mut policies = Vec::new();
        for &preset in &names {
            let w1name = format!("{preset}.fc1.weight");
            let h = st
                .tensor(&w1name)
                .map_err(|e| format!("net weights: tensor {w1name:?}: {e}"))?
                .shape()
                .first()
                .copied()
                .unwrap_or(0);
            let inputs = st.tensor(&w1name).map(|t| t.shape().get(1).copied().unwrap_or(0)).unwrap_or(0);
            if h == 0 || inputs == 0 || inputs > OBS_SIZE {
                return Err(format!(
                    "net weights: {w1name:?} must have shape [H, IN] with H > 0 and 0 < IN <= {OBS_SIZE}"
                ));
            }
            let v = |k: &str, n: usize| tensor(&st, &format!("{preset}.{k}"), &[n]).map(Array1::from_vec);
            let recorded = meta.contains_key(&format!("{preset}.rules"));
            let spec = match meta.get(&format!("{preset}.rules")) {
                Some(text) => spec_from_toml(text, &format!("{preset}.rules"))
                    .map_err(|e| format!("net weights: the rules of {preset:?}: {e}"))?,
                None => load_spec(preset, None).map_err(|e| format!("net weights: preset {preset:?}: {e}"))?,
            };
            let rules = Rules::from_spec(spec, players)
                .map_err(|e| format!("net weights: the rules of {preset:?} for {players} players: {e}"))?;
            policies.push(NetPolicy {
                preset: preset.to_string(),
                players,
                rules,
                recorded,
                mean: v("norm.mean", inputs)?,
                inv_std: v("norm.inv_std", inputs)?,
                clip,
                w1: matrix_t(&st, &w1name, h, inputs)?,
                b1: v("fc1.bias", h)?,
                w2: matrix_t(&st, &format!("{preset}.fc2.weight"), h, h)?,
                b2: v("fc2.bias", h)?,
                wp: matrix_t(&st, &format!("{preset}.pi.weight"), NUM_ACTIONS, h)?,
                bp: v("pi.bias", NUM_ACTIONS)?,
            });
        }
        if policies.is_empty() {
            return Err("net weights: no presets".into());
        }
        Ok(Net1Weights { policies, label: "the net1 bot".into() })
    }

    /// The presets with a network, comma-separated (for error messages): each policy's name,
    /// and for one with rules of its own (`P.rules`) the name of those rules.
    pub fn preset_list(&self) -> String {
        let name = |p: &NetPolicy| {
            if p.recorded {
                format!(
                    "the rules {:?} recorded in its metadata {:?}",
                    p.rules.spec.name,
                    format!("{}.rules", p.preset)
                )
            } else {
                p.preset.clone()
            }
        };
        self.policies.iter().map(name).collect::<Vec<_>>().join(", ")
    }

    /// The policy of preset `name` (its name only; see [`Net1Weights::for_rules`] for games).
    pub fn by_name(&self, name: &str) -> Result<&NetPolicy, String> {
        self.policies.iter().find(|p| p.preset == name).ok_or_else(|| {
            format!(
                "{} has no network for preset {}; it was trained for {} ({} players)",
                self.label,
                crate::rules::quoted(name),
                self.preset_list(),
                self.policies[0].players
            )
        })
    }

    /// The policy trained for rules that play the same game as these, or an error naming the
    /// supported presets.
    pub fn for_rules(&self, rules: &Rules) -> Result<&NetPolicy, String> {
        let found = self.policies.iter().find(|p| rules.same_play(&p.rules));
        found.ok_or_else(|| {
            format!(
                "{} plays only the rules it was trained for: {} with {} players{} (got {:?} with {} players{})",
                self.label,
                self.preset_list(),
                self.policies[0].players,
                if self.policies.iter().all(|p| !p.recorded) { ", without overrides or variants" } else { "" },
                rules.spec.name,
                rules.num_players,
                // Only where the preset and the player count match does a difference lie in the rules.
                if self
                    .policies
                    .iter()
                    .any(|p| p.rules.spec.name == rules.spec.name && p.players == usize::from(rules.num_players))
                {
                    ", under rules that play differently"
                } else {
                    ""
                }
            )
        })
    }
}

/// The shipped weights, parsed once.
pub fn weights() -> Result<&'static Net1Weights, String> {
    static CELL: OnceLock<Result<Net1Weights, String>> = OnceLock::new();
    CELL.get_or_init(|| Net1Weights::parse(WEIGHTS_FILE)).as_ref().map_err(Clone::clone)
}

/// The shipped policy for `rules`, or an error naming the presets `net` was trained for.
pub fn policy_for(rules: &Rules) -> Result<&'static NetPolicy, String> {
    weights()?.for_rules(rules)
}

impl NetPolicy {
    /// Width of the hidden layers.
    pub fn hidden(&self) -> usize {
        self.b1.len()
    }

    /// How many leading observation values the network reads.
    pub fn inputs(&self) -> usize {
        self.mean.len()
    }

    /// Logits `[B, NUM_ACTIONS]` of a batch of observations `[B, OBS_SIZE]` (unmasked; the
    /// network reads the first [`NetPolicy::inputs`] columns). Allocates its result; the bots
    /// use [`NetPolicy::logits_into`] with buffers kept between calls.
    pub fn logits(&self, obs: ArrayView2<'_, f32>) -> Array2<f32> {
        self.logits_into(obs, &mut Net1Scratch::default()).to_owned()
    }

    /// [`NetPolicy::logits`] into `scratch`'s buffers (grown when `obs` has more rows than any
    /// batch before, never shrunk): no allocation once they are large enough.
    pub fn logits_into<'s>(&self, obs: ArrayView2<'_, f32>, scratch: &'s mut Net1Scratch) -> ArrayViewMut2<'s, f32> {
        scratch.reserve(obs.nrows(), self.inputs(), self.hidden());
        scratch.obs.slice_mut(s![..obs.nrows(), ..self.inputs()]).assign(&obs.slice(s![.., ..self.inputs()]));
        self.forward(obs.nrows(), scratch)
    }

    /// The forward pass over the first `b` rows of `scratch.obs` (their first `IN` columns).
    fn forward<'s>(&self, b: usize, scratch: &'s mut Net1Scratch) -> ArrayViewMut2<'s, f32> {
        let (c, inputs) = (self.clip, self.inputs());
        let Net1Scratch { obs, h1, h2, logits, .. } = scratch;
        let mut x = obs.slice_mut(s![..b, ..inputs]);
        x -= &self.mean;
        x *= &self.inv_std;
        x.mapv_inplace(|v| v.clamp(-c, c));
        // Each layer: `out = input . weights` (written over whatever the buffer held), then the bias.
        let mut h = h1.slice_mut(s![..b, ..]);
        general_mat_mul(1.0, &x, &self.w1, 0.0, &mut h);
        h += &self.b1;
        h.mapv_inplace(|v| v.max(0.0));
        let mut g = h2.slice_mut(s![..b, ..]);
        general_mat_mul(1.0, &h, &self.w2, 0.0, &mut g);
        g += &self.b2;
        g.mapv_inplace(|v| v.max(0.0));
        let mut l = logits.slice_mut(s![..b, ..]);
        general_mat_mul(1.0, &g, &self.wp, 0.0, &mut l);
        l += &self.bp;
        l
    }

    /// Action probabilities (softmax of the logits over the legal actions, 0 elsewhere) of a
    /// batch; `masks` is `[B, NUM_ACTIONS]`. A row with no legal action is all zeros.
    pub fn probs(&self, obs: ArrayView2<'_, f32>, masks: ArrayView2<'_, bool>) -> Array2<f32> {
        let mut l = self.logits(obs);
        for (mut row, m) in l.axis_iter_mut(Axis(0)).zip(masks.axis_iter(Axis(0))) {
            let max = row.iter().zip(m.iter()).filter(|x| *x.1).map(|x| *x.0).fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0.0f32;
            for (v, &ok) in row.iter_mut().zip(m.iter()) {
                *v = if ok { (*v - max).exp() } else { 0.0 };
                sum += *v;
            }
            if sum > 0.0 {
                row.mapv_inplace(|v| v / sum);
            }
        }
        l
    }

    /// The legal action of the largest logit in `row` (the first on ties), `None` without one.
    fn greedy(row: ndarray::ArrayView1<'_, f32>, mask: &ActionMask) -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for a in mask.iter() {
            let v = row[a];
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((a, v));
            }
        }
        best.map(|(a, _)| a)
    }

    /// Greedy actions for the player to act in each game, one batched forward pass; a finished
    /// game gets `None`. The games must be of this policy's rules (see [`policy_for`]). The
    /// answers live in `scratch` until its next use; no allocation once its buffers are large
    /// enough for the batch.
    pub fn act_games_into<'g, 's>(
        &self,
        games: impl ExactSizeIterator<Item = &'g Game>,
        scratch: &'s mut Net1Scratch,
    ) -> &'s [Option<usize>] {
        scratch.reserve(games.len(), OBS_SIZE, self.hidden());
        let mut b = 0; // the games actually given (an iterator may yield fewer than it said)
        for (k, g) in games.take(scratch.masks.len()).enumerate() {
            b = k + 1;
            let m = &mut scratch.masks[k];
            *m = ActionMask::default();
            let mut row = scratch.obs.row_mut(k);
            // No input reaches the panic: `obs` is made by `zeros` in standard (row-major) layout
            // and never sliced here, so each of its rows is contiguous.
            let row = row.as_slice_mut().expect("a row of a standard-layout array is contiguous");
            match g.current_player() {
                Some(p) => {
                    encode(g, p, row);
                    g.legal_actions(m);
                }
                None => row.fill(0.0),
            }
        }
        self.forward(b, scratch);
        let Net1Scratch { logits, masks, acts, .. } = scratch;
        for (k, (row, m)) in logits.axis_iter(Axis(0)).zip(masks.iter()).take(b).enumerate() {
            acts[k] = Self::greedy(row, m);
        }
        &acts[..b]
    }

    /// [`NetPolicy::act_games_into`] with fresh buffers (allocates: for tests and one-off calls).
    pub fn act_games(&self, games: &[&Game]) -> Vec<Option<usize>> {
        self.act_games_into(games.iter().copied(), &mut Net1Scratch::default()).to_vec()
    }
}

/// The buffers of a batched forward pass, kept by each caller between calls so that a decision
/// allocates nothing: observations, the two hidden layers, the logits, the masks and the answers,
/// each with a row per game of the largest batch so far.
#[derive(Clone, Debug, Default)]
pub struct Net1Scratch {
    obs: Array2<f32>,
    h1: Array2<f32>,
    h2: Array2<f32>,
    logits: Array2<f32>,
    masks: Vec<ActionMask>,
    acts: Vec<Option<usize>>,
}

impl Net1Scratch {
    /// Room for `b` games of a network with `inputs` inputs and `hidden` units (grows only).
    fn reserve(&mut self, b: usize, inputs: usize, hidden: usize) {
        let rows = b.max(self.obs.nrows());
        debug_assert!(inputs <= OBS_SIZE, "a network reads at most OBS_SIZE values (checked on loading)");
        if self.obs.nrows() < b || self.obs.ncols() != OBS_SIZE {
            self.obs = Array2::zeros((rows, OBS_SIZE));
        }
        if self.h1.nrows() < b || self.h1.ncols() != hidden {
            self.h1 = Array2::zeros((rows, hidden));
            self.h2 = Array2::zeros((rows, hidden));
        }
        if self.logits.nrows() < b || self.logits.ncols() != NUM_ACTIONS {
            self.logits = Array2::zeros((rows, NUM_ACTIONS));
        }
        if self.masks.len() < b {
            self.masks.resize(rows, ActionMask::default());
            self.acts.resize(rows, None);
        }
    }
}

/// The `net1` bot as a [`super::policy::Policy`]: one forward pass per decision (the arena and the
/// VecEnv batch decisions through [`NetPolicy::act_games`] instead).
#[derive(Clone, Debug, Default)]
pub struct Net1Bot {
    /// The weights it plays: `None` for the shipped file.
    weights: Option<&'static Net1Weights>,
    policy: Option<&'static NetPolicy>,
    /// The rules `policy` was found for: a game of these same rules needs no new check.
    checked: Option<Arc<Rules>>,
    scratch: Net1Scratch,
}

impl Net1Bot {
    pub fn new() -> Net1Bot {
        Net1Bot::default()
    }

    /// A bot playing `weights` (a file named by its path) instead of the shipped ones.
    pub fn of(weights: &'static Net1Weights) -> Net1Bot {
        Net1Bot { weights: Some(weights), ..Net1Bot::default() }
    }

    /// The policy for `g`'s rules (checked on the first decision and when the rules change).
    pub fn policy(&mut self, g: &Game) -> Result<&'static NetPolicy, String> {
        match (self.policy, &self.checked) {
            (Some(p), Some(r)) if Arc::ptr_eq(r, g.rules()) => Ok(p),
            _ => {
                let p = match self.weights {
                    Some(w) => w.for_rules(g.rules())?,
                    None => policy_for(g.rules())?,
                };
                self.policy = Some(p);
                self.checked = Some(g.rules().clone());
                Ok(p)
            }
        }
    }
}

impl super::policy::Policy for Net1Bot {
    /// `None` when the game is over or its rules are not ones `net` was trained for (the
    /// arena and the bindings check [`policy_for`] first and report that error).
    fn act(&mut self, g: &Game) -> Option<usize> {
        let p = self.policy(g).ok()?;
        p.act_games_into(std::iter::once(g), &mut self.scratch)[0]
    }
    fn name(&self) -> String {
        "net1".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::policy::RandomBot;
    use half::f16;
    use safetensors::Dtype;
    use safetensors::tensor::TensorView;
    use std::sync::Arc;

    fn rules(p: &str, n: usize) -> Arc<Rules> {
        Arc::new(Rules::load(p, n, None).unwrap())
    }

    #[test]
    fn shipped_weights_parse_and_fit_in_one_megabyte() {
        let w = weights().unwrap();
        assert!(WEIGHTS_FILE.len() <= 1_000_000, "{} bytes", WEIGHTS_FILE.len());
        let names: Vec<_> = w.policies.iter().map(|p| p.preset.as_str()).collect();
        assert_eq!(names, ["crazy_eights", "switch_blackjack", "crazy_eights_specials"]);
        assert!(w.policies.iter().all(|p| p.players == 2 && p.hidden() > 0));
    }

    #[test]
    fn net_plays_legal_moves_and_the_batch_agrees_with_single_decisions() {
        for preset in ["crazy_eights", "switch_blackjack", "crazy_eights_specials"] {
            let r = rules(preset, 2);
            let p = policy_for(&r).unwrap();
            let mut positions = Vec::new();
            for s in 0..20 {
                let mut g = Game::new(r.clone(), 40 + s);
                let mut rnd = RandomBot::new(s);
                let mut bot = Net1Bot::new();
                let mut k = 0;
                while g.current_player().is_some() {
                    let a =
                        if k % 2 == 0 { super::super::policy::Policy::act(&mut bot, &g) } else { rnd.act(&g) }.unwrap();
                    assert!(g.legal_action_vec().contains(&a), "{preset}: illegal {a}");
                    positions.push(g.clone());
                    g.apply(a);
                    k += 1;
                }
            }
            let refs: Vec<&Game> = positions.iter().collect();
            let batch = p.act_games(&refs);
            for (g, b) in positions.iter().zip(batch) {
                assert_eq!(b, p.act_games(&[g])[0], "{preset}: batch and single decisions differ");
            }
        }
    }

    #[test]
    fn a_reused_scratch_gives_the_answers_of_fresh_buffers() {
        // Batches that grow and shrink, with finished games among them, through one scratch:
        // every answer equals the one computed with fresh buffers, and the logits equal the
        // allocating `logits` of the same observations. (The unwraps load the shipped weights,
        // ask a random bot to act in a running game and take rows of a fresh standard-layout
        // array: none can fail on this test's fixed inputs.)
        let r = rules("crazy_eights", 2);
        let p = policy_for(&r).unwrap();
        let mut positions = Vec::new();
        for s in 0..6 {
            let mut g = Game::new(r.clone(), 900 + s);
            let mut rnd = RandomBot::new(s);
            while g.current_player().is_some() {
                positions.push(g.clone());
                g.apply(rnd.act(&g).unwrap());
            }
            positions.push(g); // finished: no player to act
        }
        let mut scratch = Net1Scratch::default();
        let mut start = 0;
        for size in [1, 40, 7, 150, 3, 0, 60] {
            let batch = &positions[start..(start + size).min(positions.len())];
            start = (start + size) % (positions.len() - 150);
            let refs: Vec<&Game> = batch.iter().collect();
            let reused = p.act_games_into(batch.iter(), &mut scratch).to_vec();
            assert_eq!(reused, p.act_games(&refs), "batch of {size}");
            assert_eq!(
                reused.iter().filter(|a| a.is_none()).count(),
                batch.iter().filter(|g| g.current_player().is_none()).count()
            );
            let mut obs = Array2::<f32>::zeros((batch.len(), OBS_SIZE));
            for (g, mut row) in batch.iter().zip(obs.axis_iter_mut(Axis(0))) {
                if let Some(q) = g.current_player() {
                    encode(g, q, row.as_slice_mut().unwrap());
                }
            }
            let fresh = p.logits(obs.view());
            assert_eq!(p.logits_into(obs.view(), &mut scratch), fresh, "batch of {size}");
        }
    }

    #[test]
    fn net_refuses_other_rules_naming_its_presets() {
        for (preset, n) in [("crazy_eights", 3), ("one_card", 2), ("switch_blackjack", 4)] {
            let e = policy_for(&rules(preset, n)).unwrap_err();
            assert!(e.contains("crazy_eights, switch_blackjack, crazy_eights_specials"), "{e}");
        }
        let mut spec = load_spec("crazy_eights", None).unwrap();
        spec.deal.hand_size_by_players.clear();
        spec.deal.hand_size = 5;
        let e = policy_for(&Rules::from_spec(spec, 2).unwrap()).unwrap_err();
        assert!(e.contains("under rules that play differently") && e.contains("crazy_eights_specials"), "{e}");
    }

    #[test]
    fn a_bad_weights_file_is_an_error() {
        assert!(Net1Weights::parse(b"not a safetensors file").is_err());
        assert!(Net1Weights::parse(&WEIGHTS_FILE[..WEIGHTS_FILE.len() - 8]).is_err());
    }

    /// The shipped file with every layer (not the normaliser) stored as `dtype`: float16 layers
    /// widened by hand to float32, or their bytes relabelled as bfloat16; metadata unchanged.
    /// Test code only: every unwrap reads the file embedded at build time (which
    /// `shipped_weights_parse_and_fit_in_one_megabyte` checks), so a panic is a test failure.
    fn rewritten(dtype: Dtype) -> Vec<u8> {
        let st = SafeTensors::deserialize(WEIGHTS_FILE).unwrap();
        let (_, meta) = SafeTensors::read_metadata(WEIGHTS_FILE).unwrap();
        let mut data = Vec::new();
        for (name, t) in st.tensors() {
            let (dt, bytes) = match (t.dtype(), dtype) {
                _ if name.contains(".norm.") => (t.dtype(), t.data().to_vec()),
                (Dtype::F16, Dtype::F32) => {
                    let wide =
                        t.data().chunks_exact(2).flat_map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32().to_le_bytes());
                    (Dtype::F32, wide.collect())
                }
                (Dtype::F16, Dtype::BF16) => (Dtype::BF16, t.data().to_vec()),
                (have, want) => panic!("the shipped layers are float16 ({have:?}), cannot rewrite as {want:?}"),
            };
            data.push((name, t.shape().to_vec(), dt, bytes));
        }
        let views = data.iter().map(|(n, shape, dt, b)| (n.clone(), TensorView::new(*dt, shape.clone(), b).unwrap()));
        safetensors::serialize(views, meta.metadata().clone()).unwrap()
    }

    #[test]
    fn float16_and_float32_files_give_the_same_policy() {
        let wide = Net1Weights::parse(&rewritten(Dtype::F32)).unwrap();
        let shipped = weights().unwrap();
        let r = rules("crazy_eights", 2);
        let mut obs = Array2::<f32>::zeros((8, OBS_SIZE));
        for (i, mut row) in obs.rows_mut().into_iter().enumerate() {
            let g = Game::new(r.clone(), 100 + i as u64);
            encode(&g, g.current_player().unwrap(), row.as_slice_mut().unwrap());
        }
        for (a, b) in shipped.policies.iter().zip(&wide.policies) {
            assert_eq!(a.logits(obs.view()), b.logits(obs.view()), "{}", a.preset);
        }
        let e = Net1Weights::parse(&rewritten(Dtype::BF16)).unwrap_err();
        assert!(e.contains("must be float32 or float16, got BF16"), "{e}");
    }

    #[test]
    fn presets_listed_twice_or_past_the_limit_are_refused() {
        // An audit's 1.3 MB file listed one preset 100,000 times: each copy was built whole, and
        // the process aborted when memory ran out. Test code only: the unwraps read the file
        // embedded at build time (as `rewritten` does), so a panic is a test failure.
        let with_presets = |presets: String| {
            let st = SafeTensors::deserialize(WEIGHTS_FILE).unwrap();
            let (_, meta) = SafeTensors::read_metadata(WEIGHTS_FILE).unwrap();
            let mut meta = meta.metadata().clone().unwrap();
            meta.insert("presets".into(), presets);
            safetensors::serialize(st.tensors(), Some(meta)).unwrap()
        };
        let e = Net1Weights::parse(&with_presets("crazy_eights,switch,crazy_eights".into())).unwrap_err();
        assert!(e.contains("lists \"crazy_eights\" twice (entries 1 and 3)"), "{e}");
        let many = vec!["crazy_eights"; 100_000].join(",");
        let e = Net1Weights::parse(&with_presets(many)).unwrap_err();
        assert!(e.contains("lists 100,000 policies; a file holds at most 64"), "{e}");
        assert_eq!(Net1Weights::parse(&with_presets("crazy_eights".into())).unwrap().policies.len(), 1);
    }

    #[test]
    fn probabilities_are_a_masked_softmax() {
        let r = rules("crazy_eights", 2);
        let p = policy_for(&r).unwrap();
        let g = Game::new(r, 3);
        let mut obs = Array2::<f32>::zeros((1, OBS_SIZE));
        encode(&g, g.current_player().unwrap(), obs.as_slice_mut().unwrap());
        let legal = g.legal_action_vec();
        let mut mask = Array2::from_elem((1, NUM_ACTIONS), false);
        for &a in &legal {
            mask[[0, a]] = true;
        }
        let pr = p.probs(obs.view(), mask.view());
        assert!((pr.sum() - 1.0).abs() < 1e-5);
        assert!((0..NUM_ACTIONS).all(|a| legal.contains(&a) || pr[[0, a]] == 0.0));
    }
}
