//! Ctrl-C for long calls: [`run_interruptible`] runs a piece of work on another thread
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
    // The work runs on a thread of rayon's global pool, kept from call to call: spawning a
    // thread for each call cost about 50 microseconds, a quarter of an `ismcts:100` decision.
    let done = (Mutex::new(None::<std::thread::Result<T>>), Condvar::new());
    let wait = |timeout: Option<Duration>| {
        let (lock, cv) = &done;
        let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        let guard = match timeout {
            Some(t) => cv.wait_timeout_while(guard, t, |d| d.is_none()).unwrap_or_else(|e| e.into_inner()).0,
            None => cv.wait_while(guard, |d| d.is_none()).unwrap_or_else(|e| e.into_inner()),
        };
        guard.is_some()
    };
    let raised = rayon::in_place_scope(|s| {
        s.spawn(|_| {
            // A panic is caught and handed to the caller, so the waiter never waits for ever.
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let (lock, cv) = &done;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = Some(out);
            cv.notify_all();
        });
        let mut raised = None;
        while !py.detach(|| wait(Some(POLL))) {
            if let Err(e) = py.check_signals() {
                stop.set();
                raised = Some(e);
                break;
            }
        }
        // The work has finished, or reads `stop` within a decision: waited for without the GIL.
        py.detach(|| wait(None));
        raised
    });
    let out = done.0.into_inner().unwrap_or_else(|e| e.into_inner());
    match (out, raised) {
        (Some(Err(panic)), _) => std::panic::resume_unwind(panic),
        (Some(Ok(_)), Some(e)) => Err(e),
        (Some(Ok(v)), None) => Ok(v),
        // The scope ends after its work: never reached.
        (None, _) => Err(pyo3::exceptions::PyRuntimeError::new_err("the work ended without an answer")),
    }
}
