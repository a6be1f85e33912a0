//! How evenly a self-play step's work spreads over many threads, for a choice of chunk size,
//! measured on any machine with one thread: the wait for the last thread that a machine with
//! more cores would see.
//!
//! `cargo run --release --example chunk_balance [-- BATCH STEPS]` (default 4096 games, 400 steps).
//!
//! A step of a large batch runs in chunks of games; each thread steps its own range of chunks
//! and then takes chunks not yet started from the others' ranges (`src/vec_env/crew.rs`). A
//! step's cost differs from game to game (a game that ends is dealt again) and from moment to
//! moment (an interrupt, a cache miss), so the threads finish apart, and a thread that is done
//! can only help with whole chunks. This bench times self-play steps of `BATCH / 16` batches of
//! 16 games each (one thread, random legal actions), then replays every measured step through
//! that schedule for 2, 16 and 64 threads and several chunk sizes (16-game pieces summed into
//! chunks), plus a fixed cost per chunk. It prints the mean over the steps of the slowest
//! thread's time over the mean thread's time (1.000: perfectly even), as measured and with
//! each piece capped at twice the median piece (the interrupts left out).

use eights::rules::Rules;
use eights::vec_env::{Autoreset, Buffers, Config, Mode, VecEnv};
use std::collections::BinaryHeap;
use std::sync::Arc;
use std::time::Instant;

/// Games a piece: the smallest chunk the batch hands out.
const PIECE: usize = 16;
/// A chunk's own cost (claiming it, cutting its rows), about what the 2-core machine measures.
const CHUNK_NS: f64 = 40.0;

/// The slowest thread's time over the mean thread's for one step whose chunks cost `chunks`.
fn makespan(chunks: &[f64], threads: usize) -> f64 {
    let n = chunks.len();
    // [front, end) of each thread's own range of chunks.
    let mut ranges: Vec<(usize, usize)> = (0..threads).map(|t| (n * t / threads, n * (t + 1) / threads)).collect();
    // Threads by the time they are next free (a max-heap of negated times, as integers).
    let mut free: BinaryHeap<(i64, std::cmp::Reverse<usize>)> =
        (0..threads).map(|t| (0, std::cmp::Reverse(t))).collect();
    let mut end = 0i64;
    while let Some((neg, std::cmp::Reverse(t))) = free.pop() {
        let now = -neg;
        let k = if ranges[t].0 < ranges[t].1 {
            ranges[t].0 += 1;
            Some(ranges[t].0 - 1)
        } else {
            (1..threads).map(|off| (t + off) % threads).find(|&v| ranges[v].0 < ranges[v].1).map(|v| {
                ranges[v].1 -= 1;
                ranges[v].1
            })
        };
        match k {
            Some(k) => free.push((-(now + chunks[k] as i64), std::cmp::Reverse(t))),
            None => end = end.max(now),
        }
    }
    end as f64 / (chunks.iter().sum::<f64>() / threads as f64)
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let batch = args.first().copied().unwrap_or(4096).next_multiple_of(PIECE);
    let steps = args.get(1).copied().unwrap_or(400);
    let rules = Arc::new(Rules::load("crazy_eights", 2, None).unwrap());
    let cfg = Config {
        num_envs: PIECE,
        num_threads: 1,
        autoreset: Autoreset::NextStep,
        mode: Mode::SelfPlay,
        score_rewards: false,
    };
    let mut pieces: Vec<(VecEnv, Buffers<f32>, Vec<i64>)> = (0..batch / PIECE)
        .map(|i| {
            let mut e = VecEnv::new(rules.clone(), cfg).unwrap();
            let mut b = Buffers::new(&e);
            e.reset(i as u64, b.outputs()).unwrap();
            (e, b, vec![0; PIECE])
        })
        .collect();
    let mut times = vec![vec![0f64; pieces.len()]; steps];
    for s in 0..200 + steps {
        for (j, (e, b, a)) in pieces.iter_mut().enumerate() {
            e.random_actions(a).unwrap();
            let t = Instant::now();
            e.step(a, b.outputs()).unwrap();
            if s >= 200 {
                times[s - 200][j] = t.elapsed().as_nanos() as f64;
            }
        }
    }
    let mut all: Vec<f64> = times.iter().flatten().copied().collect();
    all.sort_by(f64::total_cmp);
    let median = all[all.len() / 2];
    println!(
        "b={batch}, {steps} steps: a 16-game piece takes {median:.0} ns (median; 99th percentile {:.0}, max {:.0})",
        all[all.len() * 99 / 100],
        all[all.len() - 1]
    );
    println!("| threads | games a chunk | chunks a thread | slowest / mean thread | the same, interrupts left out |");
    println!("|---|---|---|---|---|");
    for threads in [2, 16, 64] {
        for chunk in [16, 32, 64, 128, 256] {
            let per_thread = batch as f64 / (chunk * threads) as f64;
            if per_thread < 1.0 {
                continue;
            }
            let mut sums = [0f64; 2];
            for step in &times {
                for (c, sum) in sums.iter_mut().enumerate() {
                    let cost: Vec<f64> = step
                        .chunks(chunk / PIECE)
                        .map(|p| {
                            CHUNK_NS + p.iter().map(|&x| if c == 1 { x.min(2.0 * median) } else { x }).sum::<f64>()
                        })
                        .collect();
                    *sum += makespan(&cost, threads);
                }
            }
            let n = times.len() as f64;
            println!("| {threads} | {chunk} | {per_thread:.1} | {:.3} | {:.3} |", sums[0] / n, sums[1] / n);
        }
    }
}
