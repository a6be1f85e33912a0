//! The output rows of a batch: the caller's slices ([`Outputs`], split into one [`Row`]
//! per game), buffers that own them ([`Buffers`]), the observation and mask element types,
//! the mask written eight ids per store from its bitset, and the prefetch hint that fetches
//! a later game's state while the current one steps.

use crate::action::{ActionMask, NUM_ACTIONS};
use crate::game::Game;
use crate::observation::{self, OBS_SIZE, ObsScalar};
use crate::rules::RULES_SIZE;

/// The output slices of a batch, row `i` for game `i`. Lengths: `obs` `num_envs * OBS_SIZE`,
/// `mask` `num_envs * NUM_ACTIONS`, `rewards` `num_envs * reward_width()`, the others
/// `num_envs`; `final_obs` (`num_envs * OBS_SIZE`) is needed with [`Autoreset::SameStep`](super::config::Autoreset::SameStep)
/// and written only for games whose episode ended in the step.
pub struct Outputs<'a, O, M> {
    pub obs: &'a mut [O],
    pub mask: &'a mut [M],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    /// The seat to act, or -1 when the episode is over.
    pub to_act: &'a mut [i32],
    pub final_obs: Option<&'a mut [O]>,
    /// `num_envs * RULES_SIZE`: each game's rules encoding ([`crate::rules::Rules::encode`]),
    /// written when the game is dealt (a reset or an autoreset), never by other steps.
    pub rules: Option<&'a mut [f32]>,
    /// `num_envs`: each game's rules id, written when it is dealt: the index in the list of
    /// rule sets, or the rule-space seed of the draw (0 for a batch of one rule set).
    pub rules_id: Option<&'a mut [u64]>,
    /// `num_envs * RULES_SIZE`, with [`Autoreset::SameStep`](super::config::Autoreset::SameStep): the
    /// rules encoding of the episode that ended in the step (beside `final_obs`).
    pub final_rules: Option<&'a mut [f32]>,
}

/// One game's rows of [`Outputs`]: the rows every step writes, and the outputs written only
/// at a deal or at the end of an episode, reached through the whole chunk's slices and the
/// game's index `j` in the chunk (so a step that writes none of them costs nothing for them).
pub(super) struct Row<'r, 'a, O, M> {
    pub(super) obs: &'r mut [O],
    pub(super) mask: &'r mut [M],
    pub(super) rewards: &'r mut [f32],
    pub(super) terminated: &'r mut bool,
    pub(super) truncated: &'r mut bool,
    pub(super) to_act: &'r mut i32,
    pub(super) j: usize,
    pub(super) rare: &'r mut Rare<'a, O>,
}

/// The optional outputs of a chunk of games (see [`Outputs`]), written rarely: at a deal
/// (`rules`, `rules_id`) or when an episode ends with a same-step autoreset (`final_obs`,
/// `final_rules`).
pub(super) struct Rare<'a, O> {
    pub(super) final_obs: Option<&'a mut [O]>,
    pub(super) rules: Option<&'a mut [f32]>,
    pub(super) rules_id: Option<&'a mut [u64]>,
    pub(super) final_rules: Option<&'a mut [f32]>,
    /// The first game of the chunk (its `j`) whose random opponents gave up
    /// ([`Row::gave_up`]).
    pub(super) gave_up: Option<usize>,
}

/// The rows of a chunk, reached game by game in any order (where the batch's sequential pass
/// walks them in turn).
pub(super) struct Lines<'a, O, M> {
    obs: &'a mut [O],
    mask: &'a mut [M],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    to_act: &'a mut [i32],
    width: usize,
    rare: Rare<'a, O>,
}

impl<'a, O, M> Lines<'a, O, M> {
    /// The row of game `j` of the chunk.
    pub(super) fn row(&mut self, j: usize) -> Row<'_, 'a, O, M> {
        let w = self.width;
        Row {
            obs: &mut self.obs[j * OBS_SIZE..(j + 1) * OBS_SIZE],
            mask: &mut self.mask[j * NUM_ACTIONS..(j + 1) * NUM_ACTIONS],
            rewards: &mut self.rewards[j * w..(j + 1) * w],
            terminated: &mut self.terminated[j],
            truncated: &mut self.truncated[j],
            to_act: &mut self.to_act[j],
            j,
            rare: &mut self.rare,
        }
    }
}

impl<O, M> Row<'_, '_, O, M> {
    /// The random opponents of this game made [`MAX_OPPONENT_MOVES`](super::config::MAX_OPPONENT_MOVES)
    /// moves in a row without the learner to act: the call fails
    /// ([`VecEnvError::Opponents`](super::config::VecEnvError::Opponents)).
    #[cold]
    #[inline(never)]
    pub(super) fn gave_up(&mut self) {
        self.rare.gave_up.get_or_insert(self.j);
    }
    /// This game's row of `final_obs`, if the caller passed it.
    pub(super) fn final_obs(&mut self) -> Option<&mut [O]> {
        let j = self.j;
        self.rare.final_obs.as_deref_mut().map(|x| &mut x[j * OBS_SIZE..(j + 1) * OBS_SIZE])
    }
    /// This game's row of `rules`, if the caller passed it.
    pub(super) fn rules(&mut self) -> Option<&mut [f32]> {
        let j = self.j;
        self.rare.rules.as_deref_mut().map(|x| &mut x[j * RULES_SIZE..(j + 1) * RULES_SIZE])
    }
    /// This game's entry of `rules_id`, if the caller passed it.
    pub(super) fn rules_id(&mut self) -> Option<&mut u64> {
        let j = self.j;
        self.rare.rules_id.as_deref_mut().map(|x| &mut x[j])
    }
    /// This game's row of `final_rules`, if the caller passed it.
    pub(super) fn final_rules(&mut self) -> Option<&mut [f32]> {
        let j = self.j;
        self.rare.final_rules.as_deref_mut().map(|x| &mut x[j * RULES_SIZE..(j + 1) * RULES_SIZE])
    }
}

impl<'a, O, M> Outputs<'a, O, M> {
    /// The same rows, borrowed for a shorter while.
    pub(super) fn reborrow(&mut self) -> Outputs<'_, O, M> {
        Outputs {
            obs: self.obs,
            mask: self.mask,
            rewards: self.rewards,
            terminated: self.terminated,
            truncated: self.truncated,
            to_act: self.to_act,
            final_obs: self.final_obs.as_deref_mut(),
            rules: self.rules.as_deref_mut(),
            rules_id: self.rules_id.as_deref_mut(),
            final_rules: self.final_rules.as_deref_mut(),
        }
    }

    /// The rows of a chunk for access game by game ([`Lines::row`]).
    pub(super) fn lines(self, width: usize) -> Lines<'a, O, M> {
        let Outputs { obs, mask, rewards, terminated, truncated, to_act, final_obs, rules, rules_id, final_rules } =
            self;
        let rare = Rare { final_obs, rules, rules_id, final_rules, gave_up: None };
        Lines { obs, mask, rewards, terminated, truncated, to_act, width, rare }
    }
}

/// An observation element type: `f32`, or compact `u8` / `i8` (same layout; each value
/// converted with Rust's saturating, truncating `as` cast, so `u8` turns the direction -1
/// into 0 and fractional scores into their integer part).
pub trait ObsValue: ObsScalar + Send + Sync + 'static {
    /// Write player `p`'s observation of `g` into `out` (length [`OBS_SIZE`]).
    fn encode(g: &Game, p: usize, out: &mut [Self]) {
        observation::encode_into(g, p, out);
    }
    /// The bytes of a row (every bit pattern of these types is a valid value, so the row
    /// may be written through them).
    #[doc(hidden)]
    fn row_bytes(row: &mut [Self]) -> &mut [u8];
}

macro_rules! obs_value {
    ($($t:ty),*) => {$(
        impl ObsValue for $t {
            #[inline(always)]
            fn row_bytes(row: &mut [$t]) -> &mut [u8] {
                let len = std::mem::size_of_val(row);
                // SAFETY: `$t` is a plain number type with no padding for which every bit
                // pattern is valid; the byte view covers exactly the row's memory and
                // borrows it mutably for its lifetime.
                unsafe { std::slice::from_raw_parts_mut(row.as_mut_ptr().cast::<u8>(), len) }
            }
        }
    )*};
}
obs_value!(f32, u8, i8);

/// A mask element type: `bool` or `u8` (0/1).
pub trait MaskValue: Copy + Send + Sync + 'static {
    const FALSE: Self;
    const TRUE: Self;
    /// The bytes of a row; only the bytes 0 and 1 may be written through them.
    #[doc(hidden)]
    fn row_bytes(row: &mut [Self]) -> &mut [u8];
}
impl MaskValue for bool {
    const FALSE: bool = false;
    const TRUE: bool = true;
    #[inline(always)]
    fn row_bytes(row: &mut [bool]) -> &mut [u8] {
        // SAFETY: `bool` is one byte; callers write only 0 and 1, the valid `bool` bytes.
        unsafe { std::slice::from_raw_parts_mut(row.as_mut_ptr().cast::<u8>(), row.len()) }
    }
}
impl MaskValue for u8 {
    const FALSE: u8 = 0;
    const TRUE: u8 = 1;
    #[inline(always)]
    fn row_bytes(row: &mut [u8]) -> &mut [u8] {
        row
    }
}

/// Byte `b` spread into eight 0/1 bytes (bit `k` of `b` in byte `k`, little-endian).
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b & (1 << k) != 0 {
                t[b] |= 1 << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// Write player `p`'s observation of `g` into `out`.
#[inline]
pub(crate) fn write_obs<O: ObsValue>(g: &Game, p: usize, out: &mut [O]) {
    O::encode(g, p, out);
}

/// Write `mask` as one 0/1 element per action id, eight ids per store.
#[inline]
pub(crate) fn write_mask<M: MaskValue>(mask: &ActionMask, out: &mut [M]) {
    let out: &mut [u8; NUM_ACTIONS] = M::row_bytes(out).try_into().expect("a mask row holds NUM_ACTIONS elements");
    let byte = |i: usize| SPREAD[(mask.0[i / 8] >> (8 * (i % 8))) as u8 as usize].to_le_bytes();
    for i in 0..NUM_ACTIONS / 8 {
        out[8 * i..8 * i + 8].copy_from_slice(&byte(i));
    }
    const TAIL: usize = NUM_ACTIONS % 8;
    out[NUM_ACTIONS - TAIL..].copy_from_slice(&byte(NUM_ACTIONS / 8)[..TAIL]);
}

/// Hint the cache to fetch the lines holding the `len` bytes at `p` (a prefetch never
/// faults, whatever the address).
#[inline(always)]
pub(crate) fn prefetch(p: *const u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        if len == 0 {
            return;
        }
        // From the line holding the first byte to the line holding the last one.
        let first = (p as usize) & !63;
        let lines = ((p as usize + len - 1) - first) / 64 + 1;
        let start = p.wrapping_sub(p as usize - first).cast::<i8>();
        for k in 0..lines {
            // SAFETY: a prefetch is only a hint; it reads nothing and never faults, and SSE is
            // part of the x86_64 baseline. `wrapping_add` keeps the address computation defined.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(64 * k)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, len);
}

/// Output buffers owned in one place, for Rust callers and tests (the rules outputs only
/// after [`Buffers::with_rules`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Buffers<O> {
    pub obs: Vec<O>,
    pub mask: Vec<bool>,
    pub rewards: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub to_act: Vec<i32>,
    pub final_obs: Vec<O>,
    pub rules: Vec<f32>,
    pub rules_id: Vec<u64>,
    pub final_rules: Vec<f32>,
}

impl<O: ObsValue + Default> Buffers<O> {
    /// These buffers with the rules outputs too (`rules`, `rules_id`, `final_rules`).
    pub fn with_rules(mut self) -> Self {
        let n = self.terminated.len();
        self.rules = vec![0.0; n * RULES_SIZE];
        self.rules_id = vec![0; n];
        self.final_rules = vec![0.0; n * RULES_SIZE];
        self
    }

    /// The [`Outputs`] view of these buffers.
    pub fn outputs(&mut self) -> Outputs<'_, O, bool> {
        Outputs {
            obs: &mut self.obs,
            mask: &mut self.mask,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            to_act: &mut self.to_act,
            final_obs: Some(&mut self.final_obs),
            rules: (!self.rules.is_empty()).then_some(&mut self.rules[..]),
            rules_id: (!self.rules_id.is_empty()).then_some(&mut self.rules_id[..]),
            final_rules: (!self.final_rules.is_empty()).then_some(&mut self.final_rules[..]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_table_puts_bit_k_in_byte_k() {
        for (b, spread) in SPREAD.iter().enumerate() {
            let bytes = spread.to_le_bytes();
            for (k, &x) in bytes.iter().enumerate() {
                assert_eq!(x, ((b >> k) & 1) as u8, "byte {b:#x}, bit {k}");
            }
        }
    }

    #[test]
    fn mask_row_matches_the_set_ids() {
        let mut m = ActionMask::default();
        for id in [0, 7, 8, 53, 63, 64, 127, 128, 191, 192, NUM_ACTIONS - 1] {
            m.set(id);
        }
        let mut row = vec![true; NUM_ACTIONS];
        write_mask(&m, &mut row);
        let want: Vec<bool> = (0..NUM_ACTIONS).map(|id| m.contains(id)).collect();
        assert_eq!(row, want);
        let mut bytes = vec![7u8; NUM_ACTIONS];
        write_mask(&ActionMask::default(), &mut bytes);
        assert!(bytes.iter().all(|&x| x == 0));
    }
}
