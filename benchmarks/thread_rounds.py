"""One thread against all of them, round by round: the thread sweep's 16 / 1 rows with a ratio
per round instead of best against best.

A round times each row at 1 thread and at ``--threads`` (the machine's cores by default), one
right after the other, and gives the ratio of the two; the order flips every other round. On a
shared or virtual machine the one-thread cell moves by a third from minute to minute, and a
ratio of two best cells taken minutes apart moves with it: the median of the per-round ratios,
with its range, is the steadier figure.

    python benchmarks/thread_rounds.py --rounds 8 --seconds 0.8
"""

import argparse
import os
import statistics

import throughput as T

ROWS = {
    "self-play, b=4096": lambda s, t: T.eights_vec("crazy_eights", 2, s, 4096, t),
    "self-play, b=16384": lambda s, t: T.eights_vec("crazy_eights", 2, s, 16384, t),
    "learner vs heuristic, b=16384": lambda s, t: T.eights_vec_bots("crazy_eights", 2, s, 16384, t),
    "arena net vs heuristic, games=1000": lambda s, t: T.arena_net("crazy_eights", 2, s, 1000, t),
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=0.8, help="measuring time a cell")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="the many-thread count")
    ap.add_argument("--rows", nargs="*", default=list(ROWS), help=f"rows to run (default: all of {list(ROWS)})")
    args = ap.parse_args(argv)
    unknown = [r for r in args.rows if r not in ROWS]
    if unknown:
        ap.error(f"--rows: unknown {unknown}; known: {list(ROWS)}")
    if args.rounds < 1 or args.threads < 2 or args.seconds <= 0:
        ap.error("--rounds must be at least 1, --threads at least 2 and --seconds above 0")
    many = args.threads
    cells = {}
    for k in range(args.rounds):
        for name in args.rows:
            for t in (1, many) if k % 2 == 0 else (many, 1):
                cells.setdefault((name, t), []).append(ROWS[name](args.seconds, t))
        print(f"round {k + 1} of {args.rounds} done", flush=True)

    def spread(xs, scale=1e6):
        return f"{statistics.median(xs) / scale:.2f} M ({min(xs) / scale:.2f} to {max(xs) / scale:.2f})"

    head = f"{args.rounds} rounds, {args.seconds} s a cell, {os.cpu_count()} cores"
    print(f"\n{head}; decisions a second, median (range):")
    print(f"| row | 1 thread | {many} threads | {many} / 1, per round | best / best |")
    print("|---|---|---|---|---|")
    for name in args.rows:
        one, all_ = cells[name, 1], cells[name, many]
        ratios = [b / a for a, b in zip(one, all_)]
        per = f"{statistics.median(ratios):.2f} ({min(ratios):.2f} to {max(ratios):.2f})"
        print(f"| {name} | {spread(one)} | {spread(all_)} | {per} | {max(all_) / max(one):.2f} |")


if __name__ == "__main__":
    main()
