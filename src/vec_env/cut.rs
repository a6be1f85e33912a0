//! A batch's games and output rows handed out to the crew's threads chunk by chunk, without
//! cutting them up first.
//!
//! A call over the batch runs chunk `k` (games `k * per ..`) on whichever thread takes it.
//! Splitting every slice into its chunks before the call is serial work for the calling
//! thread, about as long as a chunk's own work once the chunks are small; here each thread
//! makes its chunk's slices itself from the batch's base pointers. Sound because the crew
//! runs each chunk exactly once and the chunks' ranges do not overlap ([`Crew::run`]).
//!
//! [`Crew::run`]: super::crew::Crew::run

use super::rows::Outputs;
use super::slot::{Games, Hot, Slot};
use crate::action::NUM_ACTIONS;
use crate::observation::OBS_SIZE;
use crate::rules::RULES_SIZE;
use std::marker::PhantomData;
use std::ops::Range;

/// A mutable slice of rows `width` wide, handed out in disjoint ranges of rows.
pub(super) struct Cut<'a, T> {
    ptr: *mut T,
    /// Rows (not elements).
    rows: usize,
    width: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: a `Cut` hands out `&mut [T]` of disjoint ranges (the contract of `rows`), which
// needs `T: Send` to cross threads, and `&[T]` of ranges no `&mut` covers (`rows_ref`),
// which needs `T: Sync`.
unsafe impl<T: Send + Sync> Sync for Cut<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync> Send for Cut<'_, T> {}

impl<'a, T> Cut<'a, T> {
    /// `s`, `width` elements a row.
    pub(super) fn new(s: &'a mut [T], width: usize) -> Cut<'a, T> {
        debug_assert!(width > 0 && s.len() % width == 0);
        Cut { ptr: s.as_mut_ptr(), rows: s.len() / width, width, _borrow: PhantomData }
    }

    /// Rows `r`.
    ///
    /// # Safety
    /// No two slices alive at the same time may come from overlapping ranges.
    #[allow(clippy::mut_from_ref)]
    pub(super) unsafe fn rows(&self, r: Range<usize>) -> &mut [T] {
        assert!(r.start <= r.end && r.end <= self.rows, "rows {r:?} of {}", self.rows);
        // SAFETY: in bounds (checked above) of the slice this cut borrows for 'a; the caller
        // promises the range is not handed out twice at once.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(r.start * self.width), (r.end - r.start) * self.width) }
    }
}

impl<T> Cut<'_, T> {
    /// Rows `r`, to read.
    ///
    /// # Safety
    /// No slice from [`Cut::rows`] of an overlapping range may be alive at the same time.
    pub(super) unsafe fn rows_ref(&self, r: Range<usize>) -> &[T] {
        assert!(r.start <= r.end && r.end <= self.rows, "rows {r:?} of {}", self.rows);
        // SAFETY: in bounds of the borrowed slice; the caller promises no writer of the range.
        unsafe { std::slice::from_raw_parts(self.ptr.add(r.start * self.width), (r.end - r.start) * self.width) }
    }
}

/// A batch's games and outputs ([`Games`], [`Outputs`]), cut by game.
pub(super) struct GamesCut<'a, O, M> {
    slots: Cut<'a, Slot>,
    hot: Cut<'a, Hot>,
    start: usize,
    obs: Cut<'a, O>,
    mask: Cut<'a, M>,
    rewards: Cut<'a, f32>,
    terminated: Cut<'a, bool>,
    truncated: Cut<'a, bool>,
    to_act: Cut<'a, i32>,
    final_obs: Option<Cut<'a, O>>,
    rules: Option<Cut<'a, f32>>,
    rules_id: Option<Cut<'a, u64>>,
    final_rules: Option<Cut<'a, f32>>,
}

impl<'a, O, M> GamesCut<'a, O, M> {
    /// `games` and their output rows (`width` rewards a game).
    pub(super) fn new(games: Games<'a>, out: Outputs<'a, O, M>, width: usize) -> GamesCut<'a, O, M> {
        let Outputs { obs, mask, rewards, terminated, truncated, to_act, final_obs, rules, rules_id, final_rules } =
            out;
        GamesCut {
            slots: Cut::new(games.slots, 1),
            hot: Cut::new(games.hot, 1),
            start: games.start,
            obs: Cut::new(obs, OBS_SIZE),
            mask: Cut::new(mask, NUM_ACTIONS),
            rewards: Cut::new(rewards, width),
            terminated: Cut::new(terminated, 1),
            truncated: Cut::new(truncated, 1),
            to_act: Cut::new(to_act, 1),
            final_obs: final_obs.map(|x| Cut::new(x, OBS_SIZE)),
            rules: rules.map(|x| Cut::new(x, RULES_SIZE)),
            rules_id: rules_id.map(|x| Cut::new(x, 1)),
            final_rules: final_rules.map(|x| Cut::new(x, RULES_SIZE)),
        }
    }

    /// The `hot` rows of games `r`, to read.
    ///
    /// # Safety
    /// No result of [`GamesCut::games`] for an overlapping range may be alive at the same time.
    pub(super) unsafe fn hot(&self, r: Range<usize>) -> &[Hot] {
        // SAFETY: the caller's promise.
        unsafe { self.hot.rows_ref(r) }
    }

    /// Games `r` with their rows.
    ///
    /// # Safety
    /// No two results alive at the same time may come from overlapping ranges.
    pub(super) unsafe fn games(&self, r: Range<usize>) -> (Games<'_>, Outputs<'_, O, M>) {
        // SAFETY (every call): the caller's promise, passed on to each field's cut.
        unsafe {
            let games =
                Games { slots: self.slots.rows(r.clone()), hot: self.hot.rows(r.clone()), start: self.start + r.start };
            let out = Outputs {
                obs: self.obs.rows(r.clone()),
                mask: self.mask.rows(r.clone()),
                rewards: self.rewards.rows(r.clone()),
                terminated: self.terminated.rows(r.clone()),
                truncated: self.truncated.rows(r.clone()),
                to_act: self.to_act.rows(r.clone()),
                final_obs: self.final_obs.as_ref().map(|c| c.rows(r.clone())),
                rules: self.rules.as_ref().map(|c| c.rows(r.clone())),
                rules_id: self.rules_id.as_ref().map(|c| c.rows(r.clone())),
                final_rules: self.final_rules.as_ref().map(|c| c.rows(r.clone())),
            };
            (games, out)
        }
    }
}
