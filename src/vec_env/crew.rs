//! The batch's worker threads: a fork-join for one call at a time in which the calling
//! thread works too, and idle workers spin briefly before they sleep.
//!
//! A step of a batch is short (tens of microseconds at b=1024) and comes right after the
//! previous one. A general pool makes the caller hand the work over and sleep until a worker
//! wakes it, and wakes sleeping workers for every call; on a small machine those wake-ups
//! cost as much as the step. Here the caller takes chunks like any worker, a worker that is
//! still asleep simply takes none (the caller never waits for a worker to start, only for
//! the chunks already taken to finish), and workers poll for the next call for
//! [`SPIN`] before they park. `threads` = workers + the caller, so `num_threads = 2` uses
//! two cores, not three.
//!
//! Chunks are claimed with affinity: chunk range `t` of `threads` equal ranges belongs to
//! thread `t` (worker `t`, the caller last), which takes it from the front; a thread that has
//! run out of its own takes what is left of the others' from the back. The batch's calls cut
//! the same games into the same chunks step after step, so each thread steps the same games
//! and finds their state still in its own core's cache, while a late worker's share is
//! still run by the others.
//!
//! Protocol (one `u64` of state: epoch in the high 32 bits, an open flag, the count of
//! workers inside the current call):
//! * [`Crew::run`] writes the job while the state is closed with no worker inside, then
//!   opens a new epoch and wakes parked workers;
//! * a worker joins only by incrementing the count while that epoch is open, and leaves by
//!   decrementing it;
//! * when the chunks run out the caller closes the epoch (no worker can join any more) and
//!   waits for the count to drop to zero. Only then does `run` return, so no worker ever
//!   holds the job after its closure is gone.
//!
//! **Two phases** ([`Crew::run_then`]): a call may carry a second set of chunks that starts
//! only when every chunk of the first has finished (the check of a step's actions, then the
//! step), in the same epoch: one hand-off instead of two. Each thread adds the count of
//! first-phase chunks it ran to one counter when it has none left to take, and waits for the
//! counter to reach the first phase's count; a first-phase chunk that panics still counts,
//! and then no thread starts the second phase.
//!
//! A process forked from the one that started the workers inherits the crew but not its
//! threads: there a call runs on the calling thread alone, and dropping the crew leaves the
//! (absent) workers alone instead of joining them.

use std::cell::Cell;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an idle worker polls for the next call before it parks.
const SPIN: Duration = Duration::from_micros(50);

const OPEN: u64 = 1 << 31;
const ACTIVE: u64 = OPEN - 1;

type Panic = Box<dyn std::any::Any + Send + 'static>;

/// The caller's closure with its lifetime erased (see the module's protocol).
type Erased = *const (dyn Fn(usize) + Sync + 'static);

/// One call: `f(k)` for every chunk `k` of the threads' ranges, then, when there is a second
/// phase, `g(k)` for its `n` chunks in the second set of ranges, once all of the first
/// phase's `first` chunks have finished.
#[derive(Copy, Clone)]
struct Job {
    f: Erased,
    then: Option<(Erased, usize)>,
}

struct Shared {
    state: AtomicU64,
    /// Written by [`Crew::run`] only while closed with no worker inside; read by workers only
    /// after joining an open epoch.
    job: UnsafeCell<Option<Job>>,
    /// Each thread's share of the current call's chunks, `front | back << 32` (worker `t`'s
    /// at `t`, the caller's last): the owner takes the front, the others steal the back.
    ranges: Vec<Share>,
    /// The same for a call's second phase.
    ranges2: Vec<Share>,
    /// First-phase chunks finished in the current call, and whether one of them panicked
    /// (reset at the start of every call, while closed with no worker inside).
    done: AtomicUsize,
    broke: AtomicBool,
    parked: Vec<AtomicBool>,
    stop: AtomicBool,
    panic: Mutex<Option<Panic>>,
}

// SAFETY: `job` is the only non-Sync field; the protocol above makes its writes and reads
// exclusive (writes happen-before the Release store that opens an epoch, reads happen after the
// Acquire join of that epoch, and the next write waits until every joined worker has left).
unsafe impl Sync for Shared {}
// SAFETY: the raw closure pointer in `job` is only dereferenced under the same protocol.
unsafe impl Send for Shared {}

/// One thread's range of chunks, alone on its cache lines.
#[repr(align(128))]
struct Share(AtomicU64);

const FRONT: u64 = 0xFFFF_FFFF;

impl Share {
    /// Take the range's first chunk (`back`: its last), if any is left.
    fn take(&self, back: bool) -> Option<usize> {
        let mut r = self.0.load(Ordering::Acquire);
        loop {
            let (front, end) = (r & FRONT, r >> 32);
            if front >= end {
                return None;
            }
            let (next, k) = if back { (r - (1 << 32), end - 1) } else { (r + 1, front) };
            match self.0.compare_exchange_weak(r, next, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Some(k as usize),
                Err(now) => r = now,
            }
        }
    }
}

/// Adds a thread's count of first-phase chunks to [`Shared::done`] when the thread has none
/// left to take, or when one of them panics (which then also marks the call broken).
struct Count<'a> {
    sh: &'a Shared,
    ran: Cell<usize>,
}

impl Drop for Count<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.sh.broke.store(true, Ordering::Relaxed);
            // The chunk that panicked counts too.
            self.ran.set(self.ran.get() + 1);
        }
        self.sh.done.fetch_add(self.ran.get(), Ordering::Release);
    }
}

impl Shared {
    /// Run thread `me`'s chunks of `job`: its own range of each phase, then the others' until
    /// none is left; between the phases, wait for every first-phase chunk to finish.
    fn claim(&self, job: Job, me: usize) {
        match job.then {
            None => self.claim_in(&self.ranges, job.f, me, None),
            Some((g, first)) => {
                {
                    let count = Count { sh: self, ran: Cell::new(0) };
                    self.claim_in(&self.ranges, job.f, me, Some(&count.ran));
                }
                let mut spins = 0u32;
                while self.done.load(Ordering::Acquire) < first {
                    spins += 1;
                    if spins < 1 << 12 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
                if !self.broke.load(Ordering::Relaxed) {
                    self.claim_in(&self.ranges2, g, me, None);
                }
            }
        }
    }

    /// Run `f` on thread `me`'s own chunks of `ranges`, then on the others' from the back;
    /// `ran` counts them.
    fn claim_in(&self, ranges: &[Share], f: Erased, me: usize, ran: Option<&Cell<usize>>) {
        let run = |k: usize| {
            // SAFETY: the caller's closure outlives the call (it waits for every worker that
            // joined), and each chunk is taken once.
            unsafe { (*f)(k) };
            if let Some(r) = ran {
                r.set(r.get() + 1);
            }
        };
        while let Some(k) = ranges[me].take(false) {
            run(k);
        }
        let t = ranges.len();
        for off in 1..t {
            let victim = &ranges[(me + off) % t];
            while let Some(k) = victim.take(true) {
                run(k);
            }
        }
    }
}

/// Worker threads for one batch (see the module documentation).
pub(crate) struct Crew {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    /// The process that started the workers (a forked child has none of them).
    pid: u32,
}

impl Crew {
    /// A crew of `threads` threads in all: the caller and `threads - 1` workers.
    pub(crate) fn new(threads: usize) -> std::io::Result<Crew> {
        let n = threads.saturating_sub(1);
        let shared = Arc::new(Shared {
            state: AtomicU64::new(0),
            job: UnsafeCell::new(None),
            ranges: (0..=n).map(|_| Share(AtomicU64::new(0))).collect(),
            ranges2: (0..=n).map(|_| Share(AtomicU64::new(0))).collect(),
            done: AtomicUsize::new(0),
            broke: AtomicBool::new(false),
            parked: (0..n).map(|_| AtomicBool::new(false)).collect(),
            stop: AtomicBool::new(false),
            panic: Mutex::new(None),
        });
        let mut crew = Crew { shared, workers: Vec::with_capacity(n), pid: std::process::id() };
        for i in 0..n {
            let sh = crew.shared.clone();
            // On an error `crew` is dropped, which stops the workers already started.
            let h = std::thread::Builder::new().name(format!("eights-vecenv-{i}")).spawn(move || work(&sh, i))?;
            crew.workers.push(h);
        }
        Ok(crew)
    }

    /// Threads that take part in a call (the workers and the caller).
    pub(crate) fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Whether this is a forked child's copy, whose calls run on the calling thread alone.
    pub(crate) fn forked(&self) -> bool {
        std::process::id() != self.pid
    }

    /// Run `f(k)` once for every `k` in `0..n`, on the calling thread and the workers; returns
    /// when all have finished. A panic in `f` is raised again here, after every worker has
    /// left the call.
    pub(crate) fn run(&mut self, n: usize, f: &(dyn Fn(usize) + Sync)) {
        if self.forked() {
            // A forked child: the workers were not copied with the process.
            (0..n).for_each(f);
            return;
        }
        // SAFETY: only the lifetime is erased; the protocol keeps every use inside this call.
        let f: Erased = unsafe { std::mem::transmute(f) };
        self.call(Job { f, then: None }, n, 0);
    }

    /// [`Crew::run`] for `n` chunks of `f`, then, once every one of them has finished,
    /// `g(k)` for every `k` in `0..m`, in one call (see the module documentation). `g` does
    /// not run at all when some `f(k)` panics; that panic is raised here.
    pub(crate) fn run_then(&mut self, n: usize, f: &(dyn Fn(usize) + Sync), m: usize, g: &(dyn Fn(usize) + Sync)) {
        if std::process::id() != self.pid {
            (0..n).for_each(f);
            (0..m).for_each(g);
            return;
        }
        // SAFETY: as in `run`.
        let (f, g): (Erased, Erased) = unsafe { (std::mem::transmute(f), std::mem::transmute(g)) };
        self.call(Job { f, then: Some((g, n)) }, n, m);
    }

    /// One call of `job`: `n` first-phase chunks, `m` second-phase ones.
    fn call(&mut self, job: Job, n: usize, m: usize) {
        let sh = &*self.shared;
        // SAFETY: the state is closed with no worker inside (every call ends that way and
        // `&mut self` rules out a concurrent one), so no worker reads `job` now.
        unsafe { *sh.job.get() = Some(job) };
        sh.done.store(0, Ordering::Relaxed);
        sh.broke.store(false, Ordering::Relaxed);
        let t = sh.ranges.len() as u64;
        // A call has at most one chunk per game (a batch holds at most 2^20), far below the
        // 2^32 a range's halves can hold.
        for (ranges, n) in [(&sh.ranges, n), (&sh.ranges2, m)] {
            let n64 = u64::try_from(n).ok().filter(|&n| n <= FRONT).expect("fewer than 2^32 chunks");
            for (i, share) in ranges.iter().enumerate() {
                let i = i as u64;
                share.0.store((n64 * i / t) | ((n64 * (i + 1) / t) << 32), Ordering::Relaxed);
            }
        }
        let epoch = (sh.state.load(Ordering::Relaxed) >> 32).wrapping_add(1) & 0xFFFF_FFFF;
        sh.state.store((epoch << 32) | OPEN, Ordering::SeqCst);
        for (w, parked) in self.workers.iter().zip(&sh.parked) {
            if parked.load(Ordering::SeqCst) {
                w.thread().unpark();
            }
        }
        /// Closes the epoch and waits for the workers inside, also when `f` panics here.
        struct Close<'a>(&'a Shared);
        impl Drop for Close<'_> {
            fn drop(&mut self) {
                let sh = self.0;
                sh.state.fetch_and(!OPEN, Ordering::AcqRel);
                let mut spins = 0u32;
                while sh.state.load(Ordering::Acquire) & ACTIVE != 0 {
                    spins += 1;
                    if spins < 1 << 12 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
                if std::thread::panicking() {
                    // The caller's own panic is the one raised; a worker's of the same call
                    // must not be raised by the next call.
                    drop(sh.panic.lock().unwrap_or_else(|e| e.into_inner()).take());
                }
            }
        }
        let close = Close(sh);
        sh.claim(job, sh.ranges.len() - 1);
        drop(close);
        let panic = sh.panic.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(p) = panic {
            std::panic::resume_unwind(p);
        }
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        if std::process::id() != self.pid {
            // A forked child: the workers exist only in the parent, and joining a thread
            // that is not there panics. Their handles are let go without a join.
            self.workers.drain(..).for_each(std::mem::forget);
            return;
        }
        self.shared.stop.store(true, Ordering::SeqCst);
        for w in &self.workers {
            w.thread().unpark();
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// A worker: join each open epoch once, take chunks, then poll and park.
fn work(sh: &Shared, me: usize) {
    let mut seen = 0u64;
    let mut idle = Instant::now();
    let mut polls = 0u32;
    loop {
        if sh.stop.load(Ordering::Acquire) {
            return;
        }
        let s = sh.state.load(Ordering::Acquire);
        let epoch = s >> 32;
        if epoch != seen {
            if s & OPEN == 0 {
                // Closed before this worker got there: nothing to do for that call.
                seen = epoch;
                continue;
            }
            if sh.state.compare_exchange_weak(s, s + 1, Ordering::AcqRel, Ordering::Acquire).is_err() {
                continue;
            }
            seen = epoch;
            // SAFETY: joined an open epoch, so the job was written before it opened and stays
            // valid until this worker leaves.
            let job = unsafe { (*sh.job.get()).expect("an open call has a job") };
            if let Err(p) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sh.claim(job, me))) {
                *sh.panic.lock().unwrap_or_else(|e| e.into_inner()) = Some(p);
            }
            sh.state.fetch_sub(1, Ordering::Release);
            idle = Instant::now();
            polls = 0;
            continue;
        }
        polls = polls.wrapping_add(1);
        if polls % 64 != 0 || idle.elapsed() < SPIN {
            std::hint::spin_loop();
            continue;
        }
        // Park, unless a call opened after the check above (the caller reads `parked` after
        // opening, so one of the two sides sees the other).
        sh.parked[me].store(true, Ordering::SeqCst);
        if sh.state.load(Ordering::SeqCst) >> 32 == seen && !sh.stop.load(Ordering::SeqCst) {
            std::thread::park();
        }
        sh.parked[me].store(false, Ordering::SeqCst);
        idle = Instant::now();
        polls = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, AtomicUsize};

    #[test]
    fn every_chunk_runs_once_on_any_thread_count() {
        for threads in [1, 2, 3, 8] {
            let mut crew = Crew::new(threads).unwrap();
            assert_eq!(crew.threads(), threads);
            for n in [0, 1, 5, 64, 1000] {
                let hits: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
                crew.run(n, &|k| {
                    hits[k].fetch_add(1, Ordering::Relaxed);
                });
                assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "threads {threads}, n {n}");
            }
        }
    }

    #[test]
    fn calls_after_the_workers_park_still_run_everything() {
        let mut crew = Crew::new(3).unwrap();
        for _ in 0..3 {
            std::thread::sleep(SPIN * 20);
            let sum = AtomicUsize::new(0);
            crew.run(100, &|k| {
                sum.fetch_add(k, Ordering::Relaxed);
            });
            assert_eq!(sum.into_inner(), 4950);
        }
    }

    #[test]
    fn the_second_phase_starts_after_every_first_phase_chunk_and_each_runs_once() {
        for threads in [1, 2, 3, 8] {
            let mut crew = Crew::new(threads).unwrap();
            for (n, m) in [(0, 0), (0, 7), (5, 0), (1, 1), (64, 256), (1000, 300)] {
                let first: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
                let second: Vec<AtomicU32> = (0..m).map(|_| AtomicU32::new(0)).collect();
                let finished = AtomicUsize::new(0);
                let early = AtomicUsize::new(0);
                crew.run_then(
                    n,
                    &|k| {
                        // Slow first-phase chunks, so that a second phase that did not wait shows.
                        for _ in 0..200 {
                            std::hint::spin_loop();
                        }
                        first[k].fetch_add(1, Ordering::Relaxed);
                        finished.fetch_add(1, Ordering::Release);
                    },
                    m,
                    &|k| {
                        if finished.load(Ordering::Acquire) != n {
                            early.fetch_add(1, Ordering::Relaxed);
                        }
                        second[k].fetch_add(1, Ordering::Relaxed);
                    },
                );
                let once = |v: &[AtomicU32]| v.iter().all(|h| h.load(Ordering::Relaxed) == 1);
                assert!(once(&first) && once(&second), "threads {threads}, n {n}, m {m}");
                assert_eq!(early.into_inner(), 0, "threads {threads}, n {n}, m {m}");
            }
        }
    }

    #[test]
    fn a_panic_in_the_first_phase_skips_the_second_and_the_crew_goes_on() {
        for threads in [1, 2, 4] {
            let mut crew = Crew::new(threads).unwrap();
            let second = AtomicUsize::new(0);
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crew.run_then(
                    256,
                    &|k| {
                        if k == 100 {
                            panic!("chunk 100");
                        }
                    },
                    64,
                    &|_| {
                        second.fetch_add(1, Ordering::Relaxed);
                    },
                )
            }));
            assert!(r.is_err(), "threads {threads}");
            assert_eq!(second.load(Ordering::Relaxed), 0, "threads {threads}");
            let count = AtomicUsize::new(0);
            crew.run_then(
                10,
                &|_| {
                    count.fetch_add(1, Ordering::Relaxed);
                },
                10,
                &|_| {
                    count.fetch_add(1, Ordering::Relaxed);
                },
            );
            assert_eq!(count.into_inner(), 20, "threads {threads}");
        }
    }

    #[test]
    fn a_call_where_several_threads_panic_raises_one_panic_and_the_next_call_none() {
        let mut crew = Crew::new(4).unwrap();
        for _ in 0..20 {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crew.run(64, &|_| {
                    std::thread::sleep(Duration::from_micros(20));
                    panic!("every chunk")
                })
            }));
            assert!(r.is_err());
            let count = AtomicUsize::new(0);
            crew.run(10, &|_| {
                count.fetch_add(1, Ordering::Relaxed);
            });
            assert_eq!(count.into_inner(), 10);
        }
    }

    #[test]
    fn many_short_calls_in_a_row_each_run_every_chunk_once() {
        // Back to back, so that workers still leaving one call meet the next one opening.
        for threads in [2, 5, 16] {
            // Test code: only a failure to start a thread (out of resources) reaches it.
            let mut crew = Crew::new(threads).unwrap();
            for call in 0..3000usize {
                let n = 1 + call % 37;
                let hits: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
                let second = AtomicUsize::new(0);
                if call % 2 == 0 {
                    crew.run(n, &|k| {
                        hits[k].fetch_add(1, Ordering::Relaxed);
                    });
                } else {
                    crew.run_then(
                        n,
                        &|k| {
                            hits[k].fetch_add(1, Ordering::Relaxed);
                        },
                        3,
                        &|_| {
                            second.fetch_add(1, Ordering::Relaxed);
                        },
                    );
                    assert_eq!(second.load(Ordering::Relaxed), 3, "threads {threads}, call {call}");
                }
                assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "threads {threads}, call {call}");
            }
            assert_eq!(crew.shared.state.load(Ordering::SeqCst) & (OPEN | ACTIVE), 0);
        }
    }

    #[test]
    fn a_panic_in_a_chunk_reaches_the_caller_and_the_crew_goes_on() {
        let mut crew = Crew::new(2).unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crew.run(256, &|k| {
                if k == 200 {
                    panic!("chunk 200");
                }
            })
        }));
        assert!(r.is_err());
        let count = AtomicUsize::new(0);
        crew.run(10, &|_| {
            count.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(count.into_inner(), 10);
    }
}
