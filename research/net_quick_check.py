"""The fixed quick check of a ``net`` weights file: 200 duplicate deals against ``heuristic`` on
every preset at its smallest table, the same deals every time (seed 0). A new file is committed
when its mean is at least the committed file's.

    python research/net_quick_check.py                       # the shipped weights
    python research/net_quick_check.py --weights FILE --json out.json
    python research/net_quick_check.py --players 4   # the presets that allow 4 players, at 4
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys


def run(deals: int, seed: int, players: int = 0) -> dict:
    import numpy as np

    from eights import Rules, arena, presets

    rows = {}
    for p in presets():
        allowed = Rules(p).players
        if players and players not in allowed:
            continue
        n = players or min(allowed)
        r = arena.evaluate("net", "heuristic", preset=p, num_players=n, games=deals, seed=seed, threads=1)
        rows[p] = {"players": n, "win_rate": r.win_rate, "ci": list(r.ci), "fair": 1.0 / n}
        print(f"{p:<30} {n}  {r.win_rate:.3f} [{r.ci[0]:.3f}, {r.ci[1]:.3f}]  fair {1.0 / n:.3f}", flush=True)
    rel = [v["win_rate"] / v["fair"] for v in rows.values()]
    above = sum(v["ci"][0] > v["fair"] for v in rows.values())
    print(f"mean share of fair {np.mean(rel):.4f}; lower end above fair on {above} of {len(rows)}")
    return {
        "deals": deals,
        "seed": seed,
        "players": players or "smallest",
        "presets": rows,
        "mean_of_fair": float(np.mean(rel)),
        "above_fair": above,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", default="", help="a net weights file (eights-net-v2 or -v3; default: the shipped one)")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=0, help="presets that allow N players, at N")
    ap.add_argument("--json", default="", help="write the results here")
    args = ap.parse_args()
    if args.weights and os.environ.get("EIGHTS_NET_WEIGHTS") != os.path.abspath(args.weights):
        env = dict(os.environ, EIGHTS_NET_WEIGHTS=os.path.abspath(args.weights))
        return subprocess.call([sys.executable, *sys.argv], env=env)
    out = run(args.deals, args.seed, args.players)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
