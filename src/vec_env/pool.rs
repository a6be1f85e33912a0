//! The batch's threads: a [`rayon::ThreadPool`] of `threads` threads per batch, to which a
//! call hands its chunks (the caller sleeps until they are done).
//!
//! It replaced a hand-written fork-join whose caller worked too and whose workers spun before
//! they slept, to save the wake-ups a general pool makes: timed against it on a shared 2-core
//! machine the pool was as fast or faster, with the same CPU time, for four to five times the
//! context switches (`docs/benchmarks.md`, "The batch's threads").
//!
//! A process forked from the one that built the pool inherits the pool but not its threads:
//! there a call runs on the calling thread alone, and dropping the pool lets it go without
//! waking its (absent) threads.

use rayon::prelude::*;

/// `threads` rayon threads for one batch.
pub(crate) struct Pool {
    /// `None` only while a forked child drops it.
    inner: Option<rayon::ThreadPool>,
    threads: usize,
    /// The process that built the pool (a forked child has none of its threads).
    pid: u32,
}

impl Pool {
    /// A pool of `threads` threads.
    pub(crate) fn new(threads: usize) -> std::io::Result<Pool> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("eights-vecenv-{i}"))
            .build()
            .map_err(std::io::Error::other)?;
        Ok(Pool { inner: Some(pool), threads, pid: std::process::id() })
    }

    /// Threads that take part in a call.
    pub(crate) fn threads(&self) -> usize {
        self.threads
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

impl Drop for Pool {
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
            let mut pool = Pool::new(threads).unwrap();
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
        let mut pool = Pool::new(2).unwrap();
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
