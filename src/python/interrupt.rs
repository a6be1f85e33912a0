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
    run_watched(py, stop, |py| py.check_signals(), work)
}

/// [`run_interruptible`] that also stops the work when `cancel` (an object with `is_set()`,
/// such as a `threading.Event`) is set, from any thread: read every [`POLL`], it raises
/// `concurrent.futures.CancelledError`. This is how a search on a worker thread, where no
/// signal handler runs, is stopped by the thread that waits for it.
pub fn run_cancellable<T, F>(py: Python<'_>, cancel: Option<&Bound<'_, PyAny>>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Stop) -> T + Send,
{
    let stop = Stop::new();
    let check = |py: Python<'_>| -> PyResult<()> {
        py.check_signals()?;
        match cancel {
            Some(c) if c.call_method0("is_set")?.is_truthy()? => {
                let futures = py.import("concurrent.futures")?;
                Err(PyErr::from_value(futures.getattr("CancelledError")?.call1(("the search was cancelled",))?))
            }
            _ => Ok(()),
        }
    };
    run_watched(py, &stop, check, || work(&stop))
}

/// The one loop behind the helpers above: `work` on a pool thread, `check` run with the GIL
/// every [`POLL`] until the work ends; when `check` fails, `stop` is set and its error raised.
fn run_watched<T, F, C>(py: Python<'_>, stop: &Stop, check: C, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
    C: Fn(Python<'_>) -> PyResult<()>,
{
    let done = Done::new();
    // The work runs on a thread of a pool kept from call to call: spawning a thread for each
    // call cost about 50 microseconds, a quarter of an `ismcts:100` decision. Without a pool,
    // on a thread started for the call.
    let raised = match call_pool() {
        Some(pool) => pool.in_place_scope(|s| {
            s.spawn(|_| done.run(work));
            done.wait_checking(py, stop, &check)
        }),
        None => std::thread::scope(|s| {
            s.spawn(|| done.run(work));
            done.wait_checking(py, stop, &check)
        }),
    };
    match (done.take(), raised) {
        (Some(Err(panic)), _) => std::panic::resume_unwind(panic),
        (Some(Ok(_)), Some(e)) => Err(e),
        (Some(Ok(v)), None) => Ok(v),
        // Both scopes end after their work: never reached.
        (None, _) => Err(pyo3::exceptions::PyRuntimeError::new_err("the work ended without an answer")),
    }
}

/// The answer of a call's work (its value, or its panic), and the signal that it is there.
struct Done<T>(Mutex<Option<std::thread::Result<T>>>, Condvar);

impl<T: Send> Done<T> {
    fn new() -> Self {
        Done(Mutex::new(None), Condvar::new())
    }

    /// Run `work` and keep its answer; a panic is caught and kept for the caller, so the
    /// waiter never waits for ever.
    fn run(&self, work: impl FnOnce() -> T) {
        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(out);
        self.1.notify_all();
    }

    /// Whether the answer is there, waiting up to `timeout` (for ever with `None`).
    fn wait(&self, timeout: Option<Duration>) -> bool {
        let guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let guard = match timeout {
            Some(t) => self.1.wait_timeout_while(guard, t, |d| d.is_none()).unwrap_or_else(|e| e.into_inner()).0,
            None => self.1.wait_while(guard, |d| d.is_none()).unwrap_or_else(|e| e.into_inner()),
        };
        guard.is_some()
    }

    /// Wait for the answer without the GIL, running `check` (Python's signal handlers, and
    /// any cancel flag) every [`POLL`]; when it fails, set `stop` and wait for the work to read
    /// it. The check's exception.
    fn wait_checking(&self, py: Python<'_>, stop: &Stop, check: &dyn Fn(Python<'_>) -> PyResult<()>) -> Option<PyErr> {
        let mut raised = None;
        while !py.detach(|| self.wait(Some(POLL))) {
            if let Err(e) = check(py) {
                stop.set();
                raised = Some(e);
                break;
            }
        }
        // The work has finished, or reads `stop` within a decision.
        py.detach(|| self.wait(None));
        raised
    }

    fn take(self) -> Option<std::thread::Result<T>> {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner())
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
