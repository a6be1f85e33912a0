"""Two ``net`` weights files on the same duplicate deals of every preset, at its smallest table
against ``heuristic`` in every other seat (the deals of the quick check,
``research/net_quick_check.py``): the paired difference A - B of the mean share of fair over
the presets, with a 95% interval from a bootstrap over the deals within each preset, and each
preset's own difference. What the quick check's two means cannot say: whether a candidate's
lead is more than the deals' noise.

    python research/net_paired_check.py runs/stretch/candidate.safetensors src/bots/weights/net.safetensors --deals 1000
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

from eights import Rules, presets
from eights.arena import evaluate
from eights.arena.stats import bootstrap_ci, per_deal


def shares(path: str, preset: str, players: int, deals: int, seed: int) -> np.ndarray:
    """Per deal, the file's mean result over its seats as a multiple of the fair share."""
    r = evaluate(os.path.abspath(path), "heuristic", preset=preset, num_players=players, games=deals, seed=seed)
    return per_deal(r.raw, players) * players


def paired(a: str, b: str, deals: int = 1000, seed: int = 0, resamples: int = 2000, log=print) -> dict:
    """``a`` - ``b`` on the same deals of every preset: the mean over the presets of the paired
    difference of the mean share of fair, its 95% bootstrap interval (deal ``k`` of every preset
    resampled together) and each preset's own difference, as :func:`main` writes them."""
    diffs, rows = [], {}
    for p in presets():
        n = min(Rules(p).players)
        d = shares(a, p, n, deals, seed) - shares(b, p, n, deals, seed)
        diffs.append(d)
        rows[p] = {"players": n, "diff": float(d.mean())}
        log(f"{p:<30} {n}  {d.mean():+.4f}")
    mean_per_deal = np.stack(diffs).mean(axis=0)
    lo, hi = bootstrap_ci(mean_per_deal, np.random.default_rng(seed), resamples)
    out = {"a": a, "b": b, "deals": deals, "seed": seed, "mean": float(mean_per_deal.mean()), "ci": [lo, hi]}
    out["ahead"] = sum(v["diff"] > 0 for v in rows.values())
    out["behind"] = sum(v["diff"] < 0 for v in rows.values())
    return {**out, "presets": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="a net weights file (eights-net-v2 or -v3)")
    ap.add_argument("b", help="the file it is compared with, on the same deals")
    ap.add_argument("--deals", type=int, default=1000, help="duplicate deals a preset (default: 1000)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the deals (default: 0, the quick check's)")
    ap.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples (default: 2000)")
    ap.add_argument("--json", default="", help="write the results here")
    args = ap.parse_args(argv)
    out = paired(args.a, args.b, args.deals, args.seed, args.resamples, log=lambda s: print(s, flush=True))
    lo, hi = out["ci"]
    print(f"{args.a} - {args.b}: {out['mean']:+.4f} [{lo:+.4f}, {hi:+.4f}] of the fair share, mean over", end=" ")
    print(f"{len(out['presets'])} presets;")
    print(f"ahead on {out['ahead']}, behind on {out['behind']} ({args.deals} deals a preset)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
