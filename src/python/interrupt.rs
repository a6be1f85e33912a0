//! Ctrl-C for long calls: [`run_interruptible`] runs a piece of work on another thread
//! while the calling thread, the GIL released, waits for it and every [`POLL`] takes the GIL
//! back to run Python's signal handlers. When a handler raises (`KeyboardInterrupt` on Ctrl-C),
//! the work's [`Stop`] flag is set, the work ends at its next check (between games or
//! decisions, see [`crate::stop`]) and the call raises that exception; a stopped call returns
//! nothing. Every binding that can run for long goes through this one helper.

use crate::stop::Stop;
use pyo3::prelude::*;
use std::sync::{Arc, Condvar, Mutex};
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
    // The work runs on a thread of a pool kept from call to call: spawning a thread for each
    // call cost about 50 microseconds, a quarter of an `ismcts:100` decision.
    let Some(pool) = call_pool() else {
        return run_on_new_thread(py, stop, work);
    };
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
    let raised = pool.in_place_scope(|s| {
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

/// The pool the calls' work runs on, one per process: a child forked from a process that
/// had one inherits it without its threads (a job sent there would wait for ever), so it
/// builds its own. `None` when no thread can be started or the pool is out of reach.
fn call_pool() -> Option<Arc<rayon::ThreadPool>> {
    static POOL: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = Mutex::new(None);
    let pid = std::process::id();
    // Callers hold the GIL, so the lock is free unless this process was forked while another
    // thread held it (a child's copy then stays locked): a thread of its own for the call then.
    let mut kept = match POOL.try_lock() {
        Ok(kept) => kept,
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return None,
    };
    match kept.take() {
        Some((owner, pool)) if owner == pid => {
            *kept = Some((owner, pool.clone()));
            return Some(pool);
        }
        // The parent's pool: its threads were not copied, and dropping it here would signal
        // them. Left alone.
        Some(inherited) => std::mem::forget(inherited),
        None => {}
    }
    // One thread for each Python thread that may wait on a call at once (more wait their turn).
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 64));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("eights-call-{i}"))
        .build()
        .ok()
        .map(Arc::new)?;
    *kept = Some((pid, pool.clone()));
    Some(pool)
}

/// [`run_interruptible_on`] on a thread started for the call (when no pool can be built).
fn run_on_new_thread<T, F>(py: Python<'_>, stop: &Stop, work: F) -> PyResult<T>
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
        let out = py.detach(|| worker.join());
        match (out, raised) {
            (Err(panic), _) => std::panic::resume_unwind(panic),
            (Ok(_), Some(e)) => Err(e),
            (Ok(v), None) => Ok(v),
        }
    })
}
