//! The learned bot `net`: one network for every rule set and table size, reading the rules
//! encoding one card at a time (trained by `research/train_card_net.py`; the PyTorch model is
//! `eights.train.cardnet.CardNet`, whose module documentation states the architecture). Shipped
//! as one safetensors file (`src/bots/weights/net.safetensors`, format [`FORMAT`]) and played here
//! with a batched forward pass, no PyTorch needed.
//!
//! A decision's work is split by how often its inputs change:
//! * **once per rule set** ([`RulesPart`], cached per `Arc<Rules>` in the caller's
//!   [`NetScratch`]): each face's rules embedding `R[c]` and the table-wide summary `T`;
//! * **once per decision**: the 12 dynamic values of each face, one `[B * 54, 12] x [12, W]`
//!   product, the pooled context (two layers), the non-card logits;
//! * **once per card in hand** (files of format [`FORMAT_ATTENTION`]): the attention layer
//!   among the faces in the observer's hand and the top card (two `W x W` products per face,
//!   a score per pair), before the pooling;
//! * **once per legal card**: the card head (`W x W`), only where "play", "give" or "keep" that
//!   card is legal, since no other card's logit can be chosen.
//!
//! **Loop guard.** The network is deterministic: at every seat it can go round in a circle,
//! the same positions again and again (queens of clubs handed round through the stock), for
//! ever when the rules set no decision limit, or play hands so long that a match meets the
//! decision cap. Once the hand in progress has seen more than [`LOOP_GUARD`] plays, or the game
//! more than [`DECISION_GUARD`] decisions, `net` plays the heuristic's choice
//! ([`super::heuristic::HeuristicBot::choose`]); past `2 * LOOP_GUARD` plays in the hand, one
//! decision in [`super::heuristic::LOOP_BREAK`] with a choice is the heuristic's rule-10 draw
//! (a legal action drawn uniformly by a hash of the game's seed and its decision count, so a
//! position that comes back gets another draw). Never while the player can go out with its last
//! card. All of it is a function of the game, so a game replayed from its seed plays the same.
//! On 2,500 rule sets drawn from the rule space at 2 to 10 players this brings the games that
//! meet the default cap from 113 to 27 of 14,993 (the heuristic's: 41; `scripts/truncation_rates.py`);
//! on the presets it changes long games of `bitch` and the countdown presets at four players.
//!
//! Inputs pass through `squash(x) = sign(x) ln(1 + |x|)`. The per-card rules columns are read by
//! the names stored in the file, so a column added to the encoding later is ignored by a
//! network trained before it, and a file naming a column the encoding lacks is refused.

mod attention;

use super::tensors::tensor;
use crate::action::{ActionMask, NUM_ACTIONS};
use crate::card::NUM_FACES;
use crate::game::Game;
use crate::observation::{OBS_SIZE, encode};
use crate::rules::encode::{CARD_FEATURE_NAMES, TABLE_FEATURE_NAMES};
use crate::rules::{CARD_FEATURES, RULES_SIZE, Rules};
use attention::{Attention, AttentionScratch};
use ndarray::linalg::general_mat_mul;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut2, s};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use safetensors::SafeTensors;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The shipped weights.
pub const WEIGHTS_FILE: &[u8] = include_bytes!("../weights/net.safetensors");
/// The format tag the weights file carries in its metadata.
pub const FORMAT: &str = "eights-net-v2";
/// The format tag of a file whose network has the attention layer (metadata
/// `attention = "bilinear"`, tensors `att_a` and `att_b`); a reader of [`FORMAT`] alone would
/// play it without the layer, so it is told apart.
pub const FORMAT_ATTENTION: &str = "eights-net-v3";

/// Plays in one hand after which the loop guard acts (see the module documentation). Below
/// the heuristic's [`super::heuristic::LOOP_GUARD`]: `net` circles in hands the heuristic
/// ends (measured by `scripts/truncation_rates.py`).
pub const LOOP_GUARD: u32 = 300;
/// Decisions in a game after which the loop guard acts: with `net` at every seat a match of
/// 38's at eight players can play hands of a thousand decisions, so that the match, not one
/// hand, meets the cap. Net's games of the presets are shorter.
pub const DECISION_GUARD: u32 = 1000;

/// Dynamic values per face (see `CARD_DYNAMIC` in `eights.train.cardnet`).
pub const NUM_DYNAMIC: usize = 12;
const NUM_IDENTITY: usize = 18;
// Observation offsets, read from the observation module (the one place they are written).
const HAND: usize = crate::observation::HAND;
const TOP: usize = crate::observation::TOP_CARD;
const ACTIVE: usize = crate::observation::ACTIVE_SUIT;
const CONSTRAINT_SUIT: usize = crate::observation::CONSTRAINT_SUIT;
const PLAYED: usize = crate::observation::PLAYED;
const ROGUE: usize = crate::observation::ROGUE_TOP;
const ASKED: usize = crate::observation::ASKED;
const WILD_RANK: usize = crate::observation::WILD_RANK;
const SCORES: usize = crate::observation::SCORES;
const QS: usize = 3 * 13 + 11;
/// The observation's per-card slices; every other index is table-wide.
const CARD_SLICES: [usize; 4] = [HAND, TOP, PLAYED, ROGUE];
/// Actions about no single card: 54..62 and 170..197.
const NUM_OTHER: usize = 8 + (NUM_ACTIONS - 170);
const NUM_GLOBAL_OBS: usize = OBS_SIZE - 4 * NUM_FACES;

/// The table-wide rules column `countdown` (scores count down and name each player's wild rank).
fn countdown_column() -> usize {
    TABLE_FEATURE_NAMES.iter().position(|n| *n == "countdown").unwrap_or(usize::MAX)
}

/// Each face's dynamic values (`CARD_DYNAMIC` in `eights.train.cardnet`), squashed, into the
/// 54 rows of `d`, from an observation `o`, its mask `m`, and whether the rules count down
/// (the observer's score then names its own wild rank, shown as `wild_rank`).
fn dynamic_values(o: &[f32], m: &ActionMask, countdown: bool, d: &mut ArrayViewMut2<'_, f32>) {
    // The observer's own countdown wild rank (rank = score, 1 = ace), as an index 0..13.
    let own_wild = if countdown {
        let s = (o[SCORES] * 100.0).round();
        if (1.0..=13.0).contains(&s) { s as usize - 1 } else { usize::MAX }
    } else {
        usize::MAX
    };
    for c in 0..NUM_FACES {
        let joker = c >= 52;
        let rank_on_top =
            if joker { o[TOP + 52] + o[TOP + 53] } else { (0..4).map(|s| o[TOP + s * 13 + c % 13]).sum() };
        let asked = if joker { o[ASKED + 14] } else { o[ASKED + c % 13] + if c == QS { o[ASKED + 13] } else { 0.0 } };
        let wild = if joker {
            0.0
        } else if c % 13 == own_wild {
            o[WILD_RANK + c % 13].max(1.0)
        } else {
            o[WILD_RANK + c % 13]
        };
        let vals = [
            o[HAND + c],
            o[TOP + c],
            o[PLAYED + c],
            o[ROGUE + c],
            f32::from(u8::from(m.contains(c))),
            f32::from(u8::from(m.contains(62 + c))),
            f32::from(u8::from(m.contains(116 + c))),
            if joker { 0.0 } else { o[ACTIVE + c / 13] },
            rank_on_top,
            wild,
            asked,
            if joker { 0.0 } else { o[CONSTRAINT_SUIT + c / 13] },
        ];
        for (x, v) in d.row_mut(c).iter_mut().zip(vals) {
            *x = squash(v);
        }
    }
}

fn other_action(k: usize) -> usize {
    if k < 8 { 54 + k } else { 170 + (k - 8) }
}

fn global_obs() -> [usize; NUM_GLOBAL_OBS] {
    let mut out = [0; NUM_GLOBAL_OBS];
    let mut k = 0;
    for i in 0..OBS_SIZE {
        if !CARD_SLICES.iter().any(|&s| (s..s + NUM_FACES).contains(&i)) {
            out[k] = i;
            k += 1;
        }
    }
    out
}

/// `sign(x) ln(1 + |x|)`, with the values most inputs hold (0 and 1) answered without a
/// logarithm (the same float either way: `ln_1p(1.0)` is `LN_2` rounded).
#[inline(always)]
fn squash(x: f32) -> f32 {
    if x == 0.0 {
        0.0
    } else if x == 1.0 {
        std::f32::consts::LN_2
    } else {
        x.signum() * x.abs().ln_1p()
    }
}

/// A linear layer, weights stored `[in, out]` (for `x . w`), and its bias.
#[derive(Clone, Debug)]
struct Linear {
    w: Array2<f32>,
    b: Array1<f32>,
}

impl Linear {
    fn load(st: &SafeTensors<'_>, name: &str, out: usize, inp: usize) -> Result<Linear, String> {
        let w = Array2::from_shape_vec((out, inp), tensor(st, &format!("{name}.weight"), &[out, inp])?)
            .map_err(|e| e.to_string())?;
        let b = Array1::from_vec(tensor(st, &format!("{name}.bias"), &[out])?);
        Ok(Linear { w: w.t().as_standard_layout().into_owned(), b })
    }
    fn outputs(&self) -> usize {
        self.b.len()
    }
    /// `out = x . w + b` for one input vector.
    fn apply(&self, x: ArrayView1<'_, f32>, out: &mut [f32]) {
        out.copy_from_slice(self.b.as_slice().unwrap_or(&[]));
        // Rows of the weights as slices, so that the inner loop vectorises whether or not
        // this call is inlined (an ndarray row iterator does not). No input reaches the
        // `expect`: `load` keeps `w` in standard layout.
        let w = self.w.as_slice().expect("a standard-layout array is contiguous");
        let n = out.len();
        for (v, row) in x.iter().zip(w.chunks_exact(n)) {
            if *v != 0.0 {
                for (o, &w) in out.iter_mut().zip(row) {
                    *o += v * w;
                }
            }
        }
    }
}

/// The network of a weights file (see the module documentation).
#[derive(Clone, Debug)]
pub struct CardNet {
    width: usize,
    context: usize,
    card_idx: Vec<usize>,
    table_idx: Vec<usize>,
    r1: Linear,
    r2: Linear,
    t1: Linear,
    d: Linear,
    c1: Linear,
    c2: Linear,
    u: Linear,
    x: Linear,
    a: Linear,
    o: Linear,
    att: Option<Attention>,
    global: [usize; NUM_GLOBAL_OBS],
    /// The metadata of the file (the training record among it).
    pub metadata: HashMap<String, String>,
}

/// What the network computes once per rule set: `R` (`[54, W]`) and `T`.
#[derive(Clone, Debug)]
pub struct RulesPart {
    r: Array2<f32>,
    t: Array1<f32>,
    /// The rules' `countdown` column: each player's score names its own wild rank.
    countdown: bool,
}

/// The encoding's positions of the rules columns a file lists under `key`, each at most once (as
/// the Python loader requires: a column read twice would give the network an input it never had).
fn columns(meta: &HashMap<String, String>, key: &str, names: &[&str]) -> Result<Vec<usize>, String> {
    let list = meta.get(key).ok_or_else(|| format!("net weights: metadata {key:?} missing"))?;
    let mut idx = Vec::new();
    for n in list.split(',') {
        let i = names.iter().position(|m| *m == n).ok_or_else(|| {
            format!("net weights: rules column {n:?} (in {key}) is not in this version's rules encoding")
        })?;
        if idx.contains(&i) {
            return Err(format!(
                "net weights: rules column {n:?} named twice in metadata {key:?} (each of the encoding's {} \
                 columns at most once)",
                names.len()
            ));
        }
        idx.push(i);
    }
    Ok(idx)
}

impl CardNet {
    /// Parse and validate a weights file.
    pub fn parse(bytes: &[u8]) -> Result<CardNet, String> {
        let (_, meta) = SafeTensors::read_metadata(bytes).map_err(|e| format!("net weights: {e}"))?;
        let meta = meta.metadata().clone().unwrap_or_default();
        let get = |k: &str| meta.get(k).ok_or_else(|| format!("net weights: metadata {k:?} missing"));
        let format = get("format")?;
        if format != FORMAT && format != FORMAT_ATTENTION {
            return Err(format!("net weights: format must be {FORMAT:?} or {FORMAT_ATTENTION:?}, got {format:?}"));
        }
        let attention = meta.get("attention").map(String::as_str);
        match (format.as_str(), attention) {
            (FORMAT, None) | (FORMAT_ATTENTION, Some("bilinear")) => {}
            _ => {
                return Err(format!(
                    "net weights: metadata \"attention\" must be absent in format {FORMAT:?} and \"bilinear\" in \
                     {FORMAT_ATTENTION:?}, got {attention:?} in {format:?}"
                ));
            }
        }
        let num = |k: &str| -> Result<usize, String> {
            get(k)?.parse::<usize>().ok().filter(|&v| (1..=4096).contains(&v)).ok_or_else(|| {
                let got = meta.get(k).map_or_else(|| "nothing".to_string(), |v| crate::rules::quoted(v));
                format!("net weights: metadata {k:?} must be an integer in [1, 4096], got {got}")
            })
        };
        let (w, cx, tw) = (num("width")?, num("context")?, num("table_width")?);
        let card_idx = columns(&meta, "card_columns", &CARD_FEATURE_NAMES)?;
        let table_idx = columns(&meta, "table_columns", &TABLE_FEATURE_NAMES)?;
        let st = SafeTensors::deserialize(bytes).map_err(|e| format!("net weights: {e}"))?;
        let l = |name: &str, out: usize, inp: usize| Linear::load(&st, name, out, inp);
        Ok(CardNet {
            width: w,
            context: cx,
            r1: l("r1", w, card_idx.len() + NUM_IDENTITY)?,
            r2: l("r2", w, w)?,
            t1: l("t1", tw, table_idx.len())?,
            d: l("d", w, NUM_DYNAMIC)?,
            c1: l("c1", cx, 3 * w + NUM_GLOBAL_OBS + NUM_OTHER + tw)?,
            c2: l("c2", cx, cx)?,
            u: l("u", w, w)?,
            x: l("x", w, cx)?,
            a: l("a", 3, w)?,
            o: l("o", NUM_OTHER, cx)?,
            att: if attention.is_some() { Some(Attention::load(&st, w)?) } else { None },
            card_idx,
            table_idx,
            global: global_obs(),
            metadata: meta,
        })
    }

    /// Units per card.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The rules part of a rules encoding (`RULES_SIZE` values).
    pub fn rules_part(&self, enc: &[f32]) -> RulesPart {
        let w = self.width;
        let mut r = Array2::zeros((NUM_FACES, w));
        let mut input = Array1::zeros(self.card_idx.len() + NUM_IDENTITY);
        let mut hidden = vec![0.0; w];
        for c in 0..NUM_FACES {
            let row = &enc[c * CARD_FEATURES..(c + 1) * CARD_FEATURES];
            input.fill(0.0);
            for (k, &i) in self.card_idx.iter().enumerate() {
                input[k] = squash(row[i]);
            }
            let k = self.card_idx.len();
            if c >= 52 {
                input[k + 4] = 1.0;
            } else {
                input[k + c / 13] = 1.0;
                input[k + 5 + c % 13] = 1.0;
            }
            self.r1.apply(input.view(), &mut hidden);
            hidden.iter_mut().for_each(|v| *v = v.max(0.0));
            let mut out = r.row_mut(c);
            // No input reaches the panic: `r` is made by `zeros` just above, in standard layout.
            let out = out.as_slice_mut().expect("a row of a standard-layout array is contiguous");
            self.r2.apply(ArrayView1::from(&hidden[..]), out);
        }
        let table = &enc[NUM_FACES * CARD_FEATURES..];
        let t_in: Array1<f32> = self.table_idx.iter().map(|&i| squash(table[i])).collect();
        let mut t = vec![0.0; self.t1.outputs()];
        self.t1.apply(t_in.view(), &mut t);
        t.iter_mut().for_each(|v| *v = v.max(0.0));
        RulesPart { r, t: Array1::from_vec(t), countdown: table.get(countdown_column()).is_some_and(|v| *v > 0.5) }
    }

    /// Logits `[B, NUM_ACTIONS]` of observations `[B, OBS_SIZE]`, masks and the rules
    /// encoding of each row (`[B, RULES_SIZE]`), as the PyTorch model computes them (illegal
    /// actions at -1e9). For tests and the bindings; the bots use [`CardNet::act_games_into`].
    pub fn logits(&self, obs: ArrayView2<'_, f32>, masks: &[ActionMask], rules: ArrayView2<'_, f32>) -> Array2<f32> {
        let b = obs.nrows();
        let mut sc = NetScratch::default();
        sc.reserve(self, b);
        let mut parts: Vec<RulesPart> = Vec::new();
        for (k, &mask) in masks[..b].iter().enumerate() {
            sc.obs.row_mut(k).assign(&obs.row(k));
            sc.masks[k] = mask;
            let enc = rules.row(k).to_vec();
            parts.push(self.rules_part(&enc));
            sc.entry[k] = k;
        }
        self.forward(b, &mut sc, &parts);
        let mut out = Array2::from_elem((b, NUM_ACTIONS), -1e9f32);
        for k in 0..b {
            for a in sc.masks[k].iter() {
                out[[k, a]] = sc.logit(k, a);
            }
        }
        out
    }

    /// The context's input `z` of one decision: the pooled card embeddings `hk` (`[54 * W]`),
    /// the table-wide observation values, the mask of the actions about no one card, and `T`.
    /// With `RELU`, `hk` holds the embeddings before `relu(. + b_d + R[c])`, applied here row
    /// by row as the rows are pooled (the two versions compile apart, each loop tight). No
    /// input reaches the `expect`s: `b_d`, `R` and `T` are made by `from_vec` or `zeros`.
    fn summarise<const RELU: bool>(&self, o: &[f32], m: &ActionMask, part: &RulesPart, hk: &mut [f32], z: &mut [f32]) {
        let w = self.width;
        let bias = self.d.b.as_slice().expect("contiguous");
        let rk = part.r.as_slice().expect("a standard-layout array is contiguous");
        z[..3 * w].fill(0.0);
        z[w..2 * w].fill(f32::NEG_INFINITY);
        let hand_total: f32 = o[HAND..HAND + NUM_FACES].iter().map(|v| v.max(0.0)).sum();
        for c in 0..NUM_FACES {
            let hr = &mut hk[c * w..(c + 1) * w];
            let rc = &rk[c * w..(c + 1) * w];
            let hand = o[HAND + c].max(0.0);
            let (sum, rest) = z.split_at_mut(w);
            let (max, wsum) = rest.split_at_mut(w);
            for j in 0..w {
                let v = if RELU { (hr[j] + bias[j] + rc[j]).max(0.0) } else { hr[j] };
                hr[j] = v;
                sum[j] += v;
                max[j] = max[j].max(v);
                wsum[j] += hand * v;
            }
        }
        let denom = hand_total.max(1.0);
        for j in 0..w {
            z[j] /= NUM_FACES as f32;
            z[2 * w + j] /= denom;
        }
        let mut at = 3 * w;
        for &i in &self.global {
            z[at] = squash(o[i]);
            at += 1;
        }
        for q in 0..NUM_OTHER {
            z[at] = squash(f32::from(u8::from(m.contains(other_action(q)))));
            at += 1;
        }
        z[at..].copy_from_slice(part.t.as_slice().expect("contiguous"));
    }

    /// No input reaches this pass's `expect`s: every array of a [`NetScratch`] and of a
    /// [`RulesPart`] is made by `zeros` in standard (row-major) layout and never sliced by
    /// column, so each of its rows is contiguous.
    ///
    /// The forward pass over the first `b` rows of `sc` (observations, masks and rules entries
    /// filled); leaves the context, the non-card logits and the card embeddings in `sc`, and the
    /// legal card logits in `sc.card_logits`.
    fn forward(&self, b: usize, sc: &mut NetScratch, parts: &[RulesPart]) {
        let w = self.width;
        // Dynamic values, squashed: [B * 54, 12].
        for k in 0..b {
            let o = sc.obs.row(k);
            let o = o.as_slice().expect("a row of a standard-layout array is contiguous");
            let countdown = parts[sc.entry[k]].countdown;
            let mut d = sc.dynamic.slice_mut(s![k * NUM_FACES..(k + 1) * NUM_FACES, ..]);
            dynamic_values(o, &sc.masks[k], countdown, &mut d);
        }
        let rows = b * NUM_FACES;
        let mut h = sc.h.slice_mut(s![..rows, ..]);
        general_mat_mul(1.0, &sc.dynamic.slice(s![..rows, ..]), &self.d.w, 0.0, &mut h);
        // h = relu(. + b_d + R[c]); the attention among the cards in hand; then the pooled
        // summaries into z. Without attention the ReLU is done row by row as the rows are
        // pooled (`fused`), while they are in the first-level cache.
        let bias = self.d.b.as_slice().expect("contiguous");
        let fused = self.att.is_none();
        if let Some(att) = &self.att {
            // The attention reads every face's embedding, so the ReLU comes first, apart.
            for k in 0..b {
                let mut hk = h.slice_mut(s![k * NUM_FACES..(k + 1) * NUM_FACES, ..]);
                // Whole rows of `sc.h` and a `RulesPart`, both made by `zeros`: no input
                // reaches these `expect`s (see the doc above).
                let hk = hk.as_slice_mut().expect("rows of a standard-layout array are contiguous");
                let rk = parts[sc.entry[k]].r.as_slice().expect("a standard-layout array is contiguous");
                for (hr, rr) in hk.chunks_exact_mut(w).zip(rk.chunks_exact(w)) {
                    for j in 0..w {
                        hr[j] = (hr[j] + bias[j] + rr[j]).max(0.0);
                    }
                }
            }
            let obs = &sc.obs;
            let seen = |k: usize, c: usize| obs[[k, HAND + c]] > 0.0 || obs[[k, TOP + c]] > 0.0;
            att.apply(seen, b, &mut h, &mut sc.att);
        }
        for k in 0..b {
            let part = &parts[sc.entry[k]];
            let mut z = sc.z.row_mut(k);
            let z = z.as_slice_mut().expect("a row of a standard-layout array is contiguous");
            let o = sc.obs.row(k);
            let o = o.as_slice().expect("a row of a standard-layout array is contiguous");
            let mut hk = h.slice_mut(s![k * NUM_FACES..(k + 1) * NUM_FACES, ..]);
            let hk = hk.as_slice_mut().expect("rows of a standard-layout array are contiguous");
            if fused {
                self.summarise::<true>(o, &sc.masks[k], part, hk, z);
            } else {
                self.summarise::<false>(o, &sc.masks[k], part, hk, z);
            }
        }
        // The context and the row-wise heads.
        let dense = |x: ArrayView2<'_, f32>, l: &Linear, out: &mut Array2<f32>, relu: bool| {
            let mut y = out.slice_mut(s![..b, ..]);
            general_mat_mul(1.0, &x, &l.w, 0.0, &mut y);
            y += &l.b;
            if relu {
                y.mapv_inplace(|v| v.max(0.0));
            }
        };
        dense(sc.z.slice(s![..b, ..]), &self.c1, &mut sc.c1, true);
        dense(sc.c1.slice(s![..b, ..]), &self.c2, &mut sc.ctx, true);
        dense(sc.ctx.slice(s![..b, ..]), &self.x, &mut sc.xc, false);
        dense(sc.ctx.slice(s![..b, ..]), &self.o, &mut sc.other, false);
        // The card heads where a card's action is legal.
        let u = &mut sc.u;
        for k in 0..b {
            let m = sc.masks[k];
            for c in 0..NUM_FACES {
                if !(m.contains(c) || m.contains(62 + c) || m.contains(116 + c)) {
                    continue;
                }
                let hr = h.row(k * NUM_FACES + c);
                self.u.apply(hr, u);
                for (j, v) in u.iter_mut().enumerate() {
                    *v = (*v + sc.xc[[k, j]]).max(0.0);
                }
                let mut out = [0.0f32; 3];
                self.a.apply(ArrayView1::from(&u[..]), &mut out);
                sc.card_logits[[k, c, 0]] = out[0];
                sc.card_logits[[k, c, 1]] = out[1];
                sc.card_logits[[k, c, 2]] = out[2];
            }
        }
    }

    /// Greedy actions for the player to act in each game (`None` for a finished game), one
    /// batched forward pass; the answers live in `scratch` until its next use. No allocation
    /// once the scratch's buffers are large enough, except the rules part of a rule set the
    /// scratch has not seen (once per `Arc<Rules>`).
    pub fn act_games_into<'g, 's>(
        &self,
        games: impl ExactSizeIterator<Item = &'g Game>,
        scratch: &'s mut NetScratch,
    ) -> &'s [Option<usize>] {
        let b = self.forward_games(games, scratch);
        for k in 0..b {
            if scratch.acts[k].is_some() {
                continue; // the loop guard's draw
            }
            let mut best: Option<(usize, f32)> = None;
            for a in scratch.masks[k].iter() {
                let v = scratch.logit(k, a);
                if best.is_none_or(|(_, x)| v > x) {
                    best = Some((a, v));
                }
            }
            scratch.acts[k] = best.map(|(a, _)| a);
        }
        &scratch.acts[..b]
    }

    /// Actions drawn from the network's policy (the softmax of its logits over the legal
    /// actions) for the player to act in each game, game `k`'s draw from a generator seeded
    /// with `seeds[k]` alone (Gumbel-max), so the draws do not depend on how games are
    /// batched; the loop guard as in [`CardNet::act_games_into`]. `seeds` has one entry per game.
    pub fn sample_games_into<'g, 's>(
        &self,
        games: impl ExactSizeIterator<Item = &'g Game>,
        seeds: &[u64],
        scratch: &'s mut NetScratch,
    ) -> &'s [Option<usize>] {
        let b = self.forward_games(games, scratch);
        for (k, &seed) in seeds.iter().enumerate().take(b) {
            if scratch.acts[k].is_some() {
                continue; // the loop guard's draw
            }
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut best: Option<(usize, f64)> = None;
            for a in scratch.masks[k].iter() {
                // Gumbel noise -ln(-ln u), u in (0, 1).
                let u = rng.random::<f64>().max(f64::MIN_POSITIVE);
                let v = f64::from(scratch.logit(k, a)) - (-u.ln()).ln();
                if best.is_none_or(|(_, x)| v > x) {
                    best = Some((a, v));
                }
            }
            scratch.acts[k] = best.map(|(a, _)| a);
        }
        &scratch.acts[..b]
    }

    /// Encode each game for its player to act, with its legal actions and the loop guard's
    /// answer where it takes over, and run one forward pass; returns the games read.
    fn forward_games<'g>(&self, games: impl ExactSizeIterator<Item = &'g Game>, scratch: &mut NetScratch) -> usize {
        let n = games.len();
        scratch.reserve(self, n);
        scratch.cache.make_room(n);
        let mut b = 0;
        for (k, g) in games.take(n).enumerate() {
            b = k + 1;
            let entry = scratch.cache.entry(self, g.rules());
            let m = &mut scratch.masks[k];
            *m = ActionMask::default();
            let mut row = scratch.obs.row_mut(k);
            let row = row.as_slice_mut().expect("a row of a standard-layout array is contiguous");
            match g.current_player() {
                Some(p) => {
                    encode(g, p, row);
                    g.legal_actions(m);
                    let long = g.plays() > LOOP_GUARD || g.decisions() > DECISION_GUARD;
                    scratch.acts[k] = if long { loop_guard(g, p, m) } else { None };
                }
                None => {
                    row.fill(0.0);
                    scratch.acts[k] = None;
                }
            }
            scratch.entry[k] = entry;
        }
        let parts = std::mem::take(&mut scratch.cache.parts);
        self.forward(b, scratch, &parts);
        scratch.cache.parts = parts;
        b
    }
}

/// The loop guard's action for player `p` of `g` (legal actions `m`): the heuristic's choice,
/// or `None` for the network's own while `p` can go out with its last card.
#[cold]
#[inline(never)]
fn loop_guard(g: &Game, p: usize, m: &ActionMask) -> Option<usize> {
    if g.hand(p).len() == 1 && m.play_bits() != 0 {
        return None;
    }
    if g.plays() > 2 * LOOP_GUARD
        && let Some(a) = super::heuristic::loop_break(g, m)
    {
        return Some(a);
    }
    super::heuristic::HeuristicBot::new().choose(g, m)
}

/// The rules parts of the rule sets a caller has met, by `Arc<Rules>` identity (each entry holds
/// a clone of its `Arc`, so an address is never reused while cached). Full, it starts over
/// before the next batch.
#[derive(Clone, Debug, Default)]
pub struct RulesCache {
    keys: HashMap<usize, usize>,
    held: Vec<Arc<Rules>>,
    parts: Vec<RulesPart>,
    enc: Vec<f32>,
}

/// The most rule sets a cache holds before it starts over.
pub const RULES_CACHE_SIZE: usize = 4096;

impl RulesCache {
    /// Start over when `n` more rule sets might not fit: only between batches, since a batch's
    /// rows hold indices into the cache.
    fn make_room(&mut self, n: usize) {
        if self.held.len() + n > RULES_CACHE_SIZE {
            self.keys.clear();
            self.held.clear();
            self.parts.clear();
        }
    }

    fn entry(&mut self, net: &CardNet, rules: &Arc<Rules>) -> usize {
        let key = Arc::as_ptr(rules) as usize;
        if let Some(&i) = self.keys.get(&key) {
            return i;
        }
        self.enc.resize(RULES_SIZE, 0.0);
        rules.encode(&mut self.enc);
        self.parts.push(net.rules_part(&self.enc));
        self.held.push(rules.clone());
        self.keys.insert(key, self.parts.len() - 1);
        self.parts.len() - 1
    }
}

/// The buffers of a batched forward pass, kept by each caller between calls (grown, never
/// shrunk), and its cache of rules parts.
#[derive(Clone, Debug, Default)]
pub struct NetScratch {
    obs: Array2<f32>,
    masks: Vec<ActionMask>,
    entry: Vec<usize>,
    dynamic: Array2<f32>,
    h: Array2<f32>,
    z: Array2<f32>,
    c1: Array2<f32>,
    ctx: Array2<f32>,
    xc: Array2<f32>,
    other: Array2<f32>,
    card_logits: ndarray::Array3<f32>,
    /// A card head's hidden units (`width`), reused card after card.
    u: Vec<f32>,
    acts: Vec<Option<usize>>,
    cache: RulesCache,
    att: AttentionScratch,
}

impl NetScratch {
    fn reserve(&mut self, net: &CardNet, b: usize) {
        if self.obs.nrows() >= b && self.h.ncols() == net.width && self.ctx.ncols() == net.context {
            return;
        }
        let rows = b.max(self.obs.nrows());
        let (w, cx) = (net.width, net.context);
        self.obs = Array2::zeros((rows, OBS_SIZE));
        self.masks = vec![ActionMask::default(); rows];
        self.entry = vec![0; rows];
        self.dynamic = Array2::zeros((rows * NUM_FACES, NUM_DYNAMIC));
        self.h = Array2::zeros((rows * NUM_FACES, w));
        self.z = Array2::zeros((rows, net.c1.w.nrows()));
        self.c1 = Array2::zeros((rows, cx));
        self.ctx = Array2::zeros((rows, cx));
        self.xc = Array2::zeros((rows, w));
        self.other = Array2::zeros((rows, NUM_OTHER));
        self.card_logits = ndarray::Array3::zeros((rows, NUM_FACES, 3));
        self.u = vec![0.0; w];
        self.acts = vec![None; rows];
    }

    /// The logit of legal action `a` of row `k` after a forward pass.
    fn logit(&self, k: usize, a: usize) -> f32 {
        match a {
            0..54 => self.card_logits[[k, a, 0]],
            62..116 => self.card_logits[[k, a - 62, 1]],
            116..170 => self.card_logits[[k, a - 116, 2]],
            54..62 => self.other[[k, a - 54]],
            _ => self.other[[k, a - 170 + 8]],
        }
    }
}

/// The environment variable naming a weights file that `net` plays instead of the shipped one
/// (read once, at the first use of `net` in a process).
pub const WEIGHTS_ENV: &str = "EIGHTS_NET_WEIGHTS";

/// The bytes of the weights file `net` plays: the shipped file, or the file that
/// [`WEIGHTS_ENV`] names (read once, after the checks of a bot file's path: an unreadable
/// file, a pipe or device, or one too large is an error naming it).
pub fn weights_file() -> Result<&'static [u8], String> {
    static SRC: OnceLock<Result<std::borrow::Cow<'static, [u8]>, String>> = OnceLock::new();
    let src = SRC.get_or_init(|| match std::env::var_os(WEIGHTS_ENV) {
        Some(path) => {
            let shown = path.to_string_lossy();
            super::tensors::checked_file(path.as_ref(), WEIGHTS_ENV)
                .and_then(|(full, _)| std::fs::read(full).map_err(|e| format!("cannot read it ({e})")))
                .map(std::borrow::Cow::Owned)
                .map_err(|e| format!("{WEIGHTS_ENV}={shown}: {e}"))
        }
        None => Ok(std::borrow::Cow::Borrowed(WEIGHTS_FILE)),
    });
    src.as_ref().map(|c| c.as_ref()).map_err(Clone::clone)
}

/// The network `net` plays ([`weights_file`]), parsed once.
pub fn weights() -> Result<&'static CardNet, String> {
    static CELL: OnceLock<Result<CardNet, String>> = OnceLock::new();
    CELL.get_or_init(|| {
        let bytes = weights_file()?;
        CardNet::parse(bytes).map_err(|e| match std::env::var_os(WEIGHTS_ENV) {
            Some(path) => format!("{WEIGHTS_ENV}={}: {e}", path.to_string_lossy()),
            None => e,
        })
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The `net` bot as a [`super::policy::Policy`]: one forward pass per decision (the arena and the
/// `VecEnv` batch their decisions through [`CardNet::act_games_into`]).
#[derive(Clone, Debug, Default)]
pub struct NetBot {
    /// The network it plays: `None` for `net`'s ([`weights`]).
    net: Option<&'static CardNet>,
    scratch: NetScratch,
}

impl NetBot {
    pub fn new() -> NetBot {
        NetBot::default()
    }

    /// A bot playing `net` (a file named by its path) instead of `net`'s network.
    pub fn of(net: &'static CardNet) -> NetBot {
        NetBot { net: Some(net), scratch: NetScratch::default() }
    }
}

impl super::policy::Policy for NetBot {
    fn act(&mut self, g: &Game) -> Option<usize> {
        let net = match self.net {
            Some(n) => n,
            None => weights().ok()?,
        };
        net.act_games_into(std::iter::once(g), &mut self.scratch)[0]
    }
    fn name(&self) -> String {
        "net".into()
    }
}

#[cfg(test)]
mod tests;
