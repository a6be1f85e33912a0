//! The attention layer of the `net` network (files of format `eights-net-v3`): the faces in the
//! observer's hand and the top card see each other before the pooling. Every decision's faces
//! of a batch are gathered into one matrix, so `h A` and `h B` are two matrix products for the
//! batch; the scores and the softmax run per decision.

use crate::bots::tensors::tensor;
use crate::card::NUM_FACES;
use ndarray::linalg::general_mat_mul;
use ndarray::{Array2, ArrayViewMut2, s};
use safetensors::SafeTensors;

/// The first `len` values of a standard-layout array (every array here is made by `zeros`, in
/// standard layout, so no input reaches the `expect`).
fn flat(m: &Array2<f32>, len: usize) -> &[f32] {
    &m.as_slice().expect("a standard-layout array is contiguous")[..len]
}

/// `a . b` with eight partial sums (so that it vectorises).
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for j in 0..8 {
            acc[j] += x[j] * y[j];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// The attention layer among the faces in hand and the top card: for each such face `i`,
/// `h[i] += sum_j softmax_j(h[i] A . h[j]) (h[j] B)` over the same faces of its decision
/// (`A`, `B`: `[W, W]`, applied as `x . A`, as PyTorch's `hs @ A`).
#[derive(Clone, Debug)]
pub(super) struct Attention {
    a: Array2<f32>,
    b: Array2<f32>,
}

/// The attention layer's buffers (grown, never shrunk): the faces of every decision of a batch
/// gathered into one matrix, so that `h A` and `h B` are two matrix products for the batch.
#[derive(Clone, Debug, Default)]
pub(super) struct AttentionScratch {
    /// Each gathered face's row in the batch's card embeddings.
    rows: Vec<usize>,
    /// Where each decision's faces start in `rows` (`b + 1` entries).
    start: Vec<usize>,
    hs: Array2<f32>,
    qa: Array2<f32>,
    v: Array2<f32>,
    p: Vec<f32>,
}

impl Attention {
    pub(super) fn load(st: &SafeTensors<'_>, w: usize) -> Result<Attention, String> {
        let m = |name: &str| {
            Array2::from_shape_vec((w, w), tensor(st, name, &[w, w])?).map_err(|e| format!("net weights: {name}: {e}"))
        };
        Ok(Attention { a: m("att_a")?, b: m("att_b")? })
    }

    /// The layer on the card embeddings `h` (`[b * 54, W]`) of `b` decisions, among the faces
    /// `c` of decision `k` for which `seen(k, c)` (in the observer's hand or on top); every
    /// delta is computed from the embeddings before any is added. No input reaches the
    /// `expect`s: `h` and the scratch's arrays are made by `zeros`, in standard layout, and
    /// sliced by rows only. (Kept out of the forward pass's body, whose loops compile worse
    /// with it inlined.)
    #[inline(never)]
    pub(super) fn apply(
        &self,
        seen: impl Fn(usize, usize) -> bool,
        b: usize,
        h: &mut ArrayViewMut2<'_, f32>,
        sc: &mut AttentionScratch,
    ) {
        let w = self.a.nrows();
        sc.rows.clear();
        sc.start.clear();
        for k in 0..b {
            sc.start.push(sc.rows.len());
            sc.rows.extend((0..NUM_FACES).filter(|&c| seen(k, c)).map(|c| k * NUM_FACES + c));
        }
        sc.start.push(sc.rows.len());
        let n = sc.rows.len();
        if sc.hs.nrows() < n || sc.hs.ncols() != w {
            let cap = n.max(sc.hs.nrows());
            sc.hs = Array2::zeros((cap, w));
            sc.qa = Array2::zeros((cap, w));
            sc.v = Array2::zeros((cap, w));
        }
        for (t, &r) in sc.rows.iter().enumerate() {
            sc.hs.row_mut(t).assign(&h.row(r));
        }
        let hs = sc.hs.slice(s![..n, ..]);
        general_mat_mul(1.0, &hs, &self.a, 0.0, &mut sc.qa.slice_mut(s![..n, ..]));
        general_mat_mul(1.0, &hs, &self.b, 0.0, &mut sc.v.slice_mut(s![..n, ..]));
        let (hs, qa, v) = (flat(&sc.hs, n * w), flat(&sc.qa, n * w), flat(&sc.v, n * w));
        for k in 0..b {
            let (lo, hi) = (sc.start[k], sc.start[k + 1]);
            sc.p.resize(sc.p.len().max(hi - lo), 0.0);
            for i in lo..hi {
                let q = &qa[i * w..(i + 1) * w];
                let mut top = f32::NEG_INFINITY;
                for j in lo..hi {
                    let score = dot(q, &hs[j * w..(j + 1) * w]);
                    sc.p[j - lo] = score;
                    top = top.max(score);
                }
                let mut total = 0.0;
                for p in &mut sc.p[..hi - lo] {
                    *p = (*p - top).exp();
                    total += *p;
                }
                let mut out = h.row_mut(sc.rows[i]);
                // A row of the caller's `zeros`-made embeddings: no input reaches the `expect`.
                let out = out.as_slice_mut().expect("a row of a standard-layout array is contiguous");
                for j in lo..hi {
                    let p = sc.p[j - lo] / total;
                    for (x, &y) in out.iter_mut().zip(&v[j * w..(j + 1) * w]) {
                        *x += p * y;
                    }
                }
            }
        }
    }
}
