//! A request to stop a long loop early: one flag, set from another thread (the Python
//! bindings set it on Ctrl-C, see `python::interrupt`) and read by the loops that can run for
//! long (the arena, random and checked self-play, the soak) between games and decisions. A
//! loop that sees it set returns what it has, or an error its caller drops: a stopped call
//! gives no result.

use std::sync::atomic::{AtomicBool, Ordering};

/// A stop flag (see the module documentation).
#[derive(Debug, Default)]
pub struct Stop(AtomicBool);

/// A flag nobody sets: for the callers that run a loop to its end.
pub static NEVER: Stop = Stop::new();

impl Stop {
    /// A flag not yet set.
    pub const fn new() -> Stop {
        Stop(AtomicBool::new(false))
    }

    /// Ask the loops reading this flag to stop.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Take back a request: a flag that lives with an object (a `VecEnv`'s) is cleared by its
    /// holder before each call that reads it.
    pub fn clear(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Has a stop been asked for? One relaxed load: cheap enough for every decision.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
