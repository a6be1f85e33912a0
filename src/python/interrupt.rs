//! Ctrl-C for long calls: [`run_interruptible`] runs a piece of work on a thread of its own
//! while the calling thread, the GIL released, waits for it and every [`POLL`] takes the GIL
//! back to run Python's signal handlers. When a handler raises (`KeyboardInterrupt` on Ctrl-C),
//! the work's [`Stop`] flag is set, the work ends at its next check (between games or
//! decisions, see [`crate::stop`]) and the call raises that exception; a stopped call returns
//! nothing. Every binding that can run for long goes through this one helper.

use crate::stop::Stop;
use pyo3::prelude::*;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// How often the waiting thread runs the signal handlers.
pub const POLL: Duration = Duration::from_millis(100);

/// Run `work` (given the flag it must read) with the GIL released, stopping it and raising
/// the handler's exception when a Python signal handler raises meanwhile (only the main
/// thread runs them, so a call from another thread runs to its end). A panic in `work` goes
/// on as a panic in the caller.
pub fn run_interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Stop) -> T + Send,
{
    let stop = Stop::new();
    run_interruptible_on(py, &stop, || work(&stop))
}

/// [`run_interruptible`] with a flag the work already reads (an object's own, such as a
/// `VecEnv`'s): set when a signal handler raises.
pub fn run_interruptible_on<T, F>(py: Python<'_>, stop: &Stop, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    let done = (Mutex::new(false), Condvar::new());
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            // Sets `done` even when `work` panics, so the waiter never waits for ever.
            struct Done<'a>(&'a (Mutex<bool>, Condvar));
            impl Drop for Done<'_> {
                fn drop(&mut self) {
                    let (lock, cv) = self.0;
                    *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
                    cv.notify_all();
                }
            }
            let _done = Done(&done);
            work()
        });
        let mut raised = None;
        loop {
            let finished = py.detach(|| {
                let (lock, cv) = &done;
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let (guard, _) = cv.wait_timeout_while(guard, POLL, |d| !*d).unwrap_or_else(|e| e.into_inner());
                *guard
            });
            if finished {
                break;
            }
            if let Err(e) = py.check_signals() {
                stop.set();
                raised = Some(e);
                break;
            }
        }
        // The worker has finished, or reads `stop` within a decision: joined without the GIL.
        let out = py.detach(|| worker.join());
        match (out, raised) {
            (Err(panic), _) => std::panic::resume_unwind(panic),
            (Ok(_), Some(e)) => Err(e),
            (Ok(v), None) => Ok(v),
        }
    })
}
