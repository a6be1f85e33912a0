"""Two builds of eights already on disk timed alternately over throughput.py's VecEnv rows.

    python benchmarks/compare_builds.py DIR_A DIR_B --rounds 7 --seconds 1

``DIR_A`` and ``DIR_B`` are folders that hold an ``eights`` package each (the Python package
with its compiled ``_core`` beside it), for instance two builds of one commit with different
Cargo features, or the 16-core run of two commits. Each round times every row for both builds
in turn (A B, then B A in the next round), each measurement in a fresh Python process with that
folder first on ``PYTHONPATH``, so a moment of load on a shared machine lowers a pair, not a
build. Prints, per row, each build's median rate and its range over the rounds, and the median
(and range) of the rounds' ratios B / A. One-thread rows run the same code in builds that differ
only in their threads, so their ratios show the noise of the run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# (label, throughput.py function, batch size (deals for the arena), threads)
ROWS = (
    ("learner vs heuristic b=16384", "eights_vec_bots", 16384, 1),
    ("learner vs heuristic b=16384", "eights_vec_bots", 16384, 2),
    ("self-play b=1024", "eights_vec", 1024, 2),
    ("self-play b=4096", "eights_vec", 4096, 1),
    ("self-play b=4096", "eights_vec", 4096, 2),
    ("self-play b=16384", "eights_vec", 16384, 1),
    ("self-play b=16384", "eights_vec", 16384, 2),
    ("learner vs random b=16384", "eights_vec_learner", 16384, 2),
    ("arena net vs heuristic, 1000 deals", "arena_net", 1000, 1),
    ("arena net vs heuristic, 1000 deals", "arena_net", 1000, 2),
)
CHILD = """
import json, sys
sys.path.insert(0, {here!r})
import throughput
print(json.dumps(getattr(throughput, {fn!r})({preset!r}, {players}, {seconds}, {b}, {threads})))
"""


def measure(folder, fn, b, threads, args):
    code = CHILD.format(
        here=str(HERE),
        fn=fn,
        preset=args.preset,
        players=args.players,
        seconds=args.seconds,
        b=b,
        threads=threads,
    )
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(Path(folder).resolve()), os.environ.get("PYTHONPATH")])),
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="folder holding build A's eights package")
    ap.add_argument("b", help="folder holding build B's eights package")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="measuring time per row and build")
    ap.add_argument("--threads", type=int, default=2, help="the multi-threaded rows' thread count")
    ap.add_argument("--preset", default="crazy_eights")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument(
        "--rows",
        nargs="+",
        metavar="TEXT",
        help="only the rows whose label contains one of these (for example 'self-play b=4096')",
    )
    ap.add_argument("--multi-only", action="store_true", help="leave out the one-thread rows")
    args = ap.parse_args()
    rows = [
        (name, fn, b, args.threads if t > 1 else 1)
        for name, fn, b, t in ROWS
        if (not args.rows or any(x in name for x in args.rows)) and not (args.multi_only and t == 1)
    ]
    if not rows:
        ap.error(f"no row matches --rows {args.rows}: the rows are {sorted({r[0] for r in ROWS})}")
    rates = {}
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        for name, fn, b, t in rows:
            for build in order:
                rate = measure(getattr(args, build), fn, b, t, args)
                rates.setdefault((name, t), {}).setdefault(build, []).append(rate)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)

    def cell(xs):
        return f"{statistics.median(xs) / 1e6:.2f} M ({min(xs) / 1e6:.2f} to {max(xs) / 1e6:.2f})"

    print(f"\n{args.rounds} rounds, {args.seconds} s per row and build, decisions (learner steps) a second:")
    print("| row | threads | A | B | B / A |")
    print("|---|---|---|---|---|")
    for (name, t), d in rates.items():
        ratios = [y / x for x, y in zip(d["a"], d["b"])]
        spread = f"{statistics.median(ratios):.2f} ({min(ratios):.2f} to {max(ratios):.2f})"
        print(f"| {name} | {t} | {cell(d['a'])} | {cell(d['b'])} | {spread} |")


if __name__ == "__main__":
    main()
