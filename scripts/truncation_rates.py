"""How often each bot hits the decision cap on rule sets drawn from the rule space: the same
seeded draws for every bot, so the counts compare.

    python scripts/truncation_rates.py --sets 2500 --bots heuristic,net --seed 0

Draw ``i`` (``0 <= i < --sets``) is played at ``n = 2 + i % 9`` players (2 to 10) on the rule
set ``RuleSpace(num_players=n).sample(_core.derive_seed(seed, i))``, with the bot in every seat:
``--deals`` duplicate deals, each in every rotation (``n`` games a deal), as the arena plays
them under the rule set's own cap (``limits.max_decisions``, 5,000 unless a draw changes it).
Prints per bot the games played, the games truncated, and the draws on which only that bot
truncates; ``--json`` also writes the counts per draw.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from eights import _core
from eights.rules import RuleSpace


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", type=int, default=2500)
    ap.add_argument("--bots", default="heuristic,net")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--deals", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--json", default=None, help="write the per-draw counts here")
    args = ap.parse_args()
    bots = [b for b in args.bots.split(",") if b]
    spaces = {n: RuleSpace(num_players=n) for n in range(2, 11)}
    draws = []
    for i in range(args.sets):
        n = 2 + i % 9
        draws.append((n, spaces[n].sample(_core.derive_seed(args.seed, i))))
    per_draw = {b: [] for b in bots}
    for bot in bots:
        t0 = time.perf_counter()
        games = 0
        for i, (n, rules) in enumerate(draws):
            seed = _core.derive_seed(args.seed, i)
            res = _core.arena_play(rules, n, [bot] * n, seed=seed, count=args.deals, threads=args.threads)
            games += len(res["truncated"])
            per_draw[bot].append(int(np.sum(res["truncated"])))
        trunc = sum(per_draw[bot])
        took = time.perf_counter() - t0
        print(f"{bot}: {trunc} truncated of {games} games on {args.sets} draws ({took:.0f} s)", flush=True)
    for bot in bots:
        others = [b for b in bots if b != bot]
        only = [i for i in range(args.sets) if per_draw[bot][i] and not any(per_draw[o][i] for o in others)]
        worst = max(range(args.sets), key=lambda i: per_draw[bot][i]) if args.sets else None
        print(f"{bot}: truncates on {sum(1 for x in per_draw[bot] if x)} draws, alone on {len(only)}", end="")
        if worst is not None and per_draw[bot][worst]:
            n = draws[worst][0]
            print(f"; most on draw {worst} ({n} players): {per_draw[bot][worst]} of {n * args.deals}", end="")
        print()
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seed": args.seed, "deals": args.deals, "truncated": per_draw}, f)


if __name__ == "__main__":
    main()
