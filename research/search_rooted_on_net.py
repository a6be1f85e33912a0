"""The search rooted on ``net`` against the plain search, on the same deals: a bot plays the
learner's seat of ``VecEnv`` games against ``heuristic`` in every other seat, every preset at
its smallest table (or at ``--players``), ``--deals`` games a seat, each seat its own seed, so
two runs of different bots play the same deals and their difference is paired.

    python research/search_rooted_on_net.py play --bot ismcts:400 --out plain.json
    python research/search_rooted_on_net.py play --bot ismcts_net:400 --out rooted.json
    python research/search_rooted_on_net.py compare plain.json rooted.json

``compare`` prints a markdown table: each preset's win shares and the paired difference with
its 95% bootstrap interval over games, then the means as shares of the fair share.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def play(bot: str, deals: int, players: int, only: list, path: str, threads: int = 1) -> dict:
    """Play the presets (see the module documentation) with ``threads`` threads stepping each
    ``VecEnv`` and answering its bot (the games do not depend on it); the results so far are
    written to ``path`` after each preset."""
    from eights import Rules, presets
    from eights.envs.vector import VecEnv

    out, t0 = {}, time.time()
    for p in presets():
        allowed = Rules(p).players
        if (only and p not in only) or (players and players not in allowed):
            continue
        n = players or min(allowed)
        wins = []
        for seat in range(n):
            env = VecEnv(p, deals, n, opponents="heuristic", learner_seat=seat, num_threads=threads)
            env.reset(seed=1000 + seat)
            done, result = np.zeros(deals, bool), np.zeros(deals)
            while not done.all():
                mask = env.action_masks()
                rows = np.flatnonzero(mask.any(1)).astype(np.int64)
                act = np.zeros(deals, np.int64)
                if len(rows):
                    act[rows] = env.bot_actions(bot, rows)
                _, r, term, trunc, _ = env.step(act)
                new = (term | trunc) & ~done
                result[new] = r[new]
                done |= term | trunc
            wins.append((result > 0).astype(float))
        w = np.concatenate(wins)
        out[p] = {"players": n, "wins": w.tolist()}
        with open(path, "w") as f:
            json.dump(out, f)
        print(f"{bot} {p:<30} {n} {w.mean():.3f}  {time.time() - t0:.0f}s", flush=True)
    return out


def compare(a: dict, b: dict) -> None:
    rng = np.random.default_rng(0)
    fair_a, fair_b, better, worse = [], [], 0, 0
    print("| preset | players | first | second | second minus first [95%] |\n|---|---|---|---|---|")
    for p in a:
        if p not in b:
            continue
        x, y, n = np.array(a[p]["wins"]), np.array(b[p]["wins"]), a[p]["players"]
        d = y - x
        boots = [d[rng.integers(0, len(d), len(d))].mean() for _ in range(2000)]
        lo, hi = np.percentile(boots, [2.5, 97.5])
        better, worse = better + int(lo > 0), worse + int(hi < 0)
        fair_a.append(x.mean() * n)
        fair_b.append(y.mean() * n)
        print(f"| `{p}` | {n} | {x.mean():.3f} | {y.mean():.3f} | {d.mean():+.3f} [{lo:+.3f}, {hi:+.3f}] |")
    print(
        f"\nmean share of fair: first {np.mean(fair_a):.4f}, second {np.mean(fair_b):.4f}; "
        f"second better on {better}, worse on {worse} of {len(fair_a)}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("play")
    p.add_argument("--bot", required=True)
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--players", type=int, default=0, help="presets that allow N players, at N (0: smallest)")
    p.add_argument("--presets", default="", help="comma-separated (default: all)")
    p.add_argument("--out", required=True)
    p.add_argument("--threads", type=int, default=1, help="threads of each VecEnv (the same games at any count)")
    c = sub.add_parser("compare")
    c.add_argument("first")
    c.add_argument("second")
    args = ap.parse_args()
    if args.what == "play":
        play(args.bot, args.deals, args.players, [x for x in args.presets.split(",") if x], args.out, args.threads)
    else:
        with open(args.first) as f, open(args.second) as g:
            compare(json.load(f), json.load(g))


if __name__ == "__main__":
    main()
