//! The batch's threads on a rayon pool (`--features rayon-pool`): the same interface as
//! [`super::crew`]'s hand-written crew, kept so the two can be timed against each other
//! (`benchmarks/compare_builds.py`). A call hands its chunks to a [`rayon::ThreadPool`] of
//! `threads` threads and the caller sleeps until they are done.
//!
//! A process forked from the one that built the pool inherits the pool but not its threads:
//! there a call runs on the calling thread alone, and dropping the pool lets it go without
//! waking its (absent) threads.

use rayon::prelude::*;

/// `threads` rayon threads for one batch.
pub(crate) struct Crew {
    /// `None` only while a forked child drops it.
    inner: Option<rayon::ThreadPool>,
    threads: usize,
    /// The process that built the pool (a forked child has none of its threads).
    pid: u32,
}

impl Crew {
    /// A pool of `threads` threads.
    pub(crate) fn new(threads: usize) -> std::io::Result<Crew> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("eights-vecenv-{i}"))
            .build()
            .map_err(std::io::Error::other)?;
        Ok(Crew { inner: Some(pool), threads, pid: std::process::id() })
    }

    /// Threads that take part in a call.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// Whether this is a forked child's copy, whose calls run on the calling thread alone.
    pub(crate) fn forked(&self) -> bool {
        std::process::id() != self.pid
    }

    /// Run `f(k)` once for every `k` in `0..n` on the pool; returns when all have finished.
    /// A panic in `f` is raised again here.
    pub(crate) fn run(&mut self, n: usize, f: &(dyn Fn(usize) + Sync)) {
        match &self.inner {
            Some(pool) if std::process::id() == self.pid => {
                pool.install(|| (0..n).into_par_iter().with_max_len(1).for_each(f));
            }
            // A forked child: the pool's threads were not copied with the process.
            _ => (0..n).for_each(f),
        }
    }
}

impl Crew {
    /// `f(k)` for every `k` in `0..n`, then, unless one of them panicked, `g(k)` for every `k`
    /// in `0..m` (two calls on the pool; the crew makes it one).
    pub(crate) fn run_then(&mut self, n: usize, f: &(dyn Fn(usize) + Sync), m: usize, g: &(dyn Fn(usize) + Sync)) {
        self.run(n, f);
        self.run(m, g);
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        if std::process::id() != self.pid {
            // A forked child: waking the parent's threads could block on a lock one of them
            // held at the fork; the pool is let go instead.
            std::mem::forget(self.inner.take());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

    #[test]
    fn every_chunk_runs_once_on_any_thread_count() {
        for threads in [1, 2, 3, 8] {
            let mut pool = Crew::new(threads).unwrap();
            assert_eq!(pool.threads(), threads);
            for n in [0, 1, 5, 64, 1000] {
                let hits: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
                pool.run(n, &|k| {
                    hits[k].fetch_add(1, Ordering::Relaxed);
                });
                assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "threads {threads}, n {n}");
            }
        }
    }

    #[test]
    fn a_panic_in_a_chunk_reaches_the_caller_and_the_pool_goes_on() {
        let mut pool = Crew::new(2).unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.run(256, &|k| {
                if k == 200 {
                    panic!("chunk 200");
                }
            })
        }));
        assert!(r.is_err());
        let count = AtomicUsize::new(0);
        pool.run(10, &|_| {
            count.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(count.into_inner(), 10);
    }
}
