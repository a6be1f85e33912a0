"""How often the search's answer at ``N`` playouts stands at ``4N``: the noise in the labels of
:mod:`netlab.expert`.

Plays the expert collection's groups of tables with ``net`` in the learner's seat and, at
decisions with more than one legal move (after ``--warmup`` steps, so that the games are at
every stage), asks the search rooted on ``net``'s move for its root
visit shares at ``N`` and at ``4N`` playouts (the same seed, so the longer search continues the
shorter one's tree). Prints how often the two top moves agree, split by whether the short
search keeps ``net``'s move or departs from it, and by the short search's top share.

    python research/search_stability.py --states 4000 --sims 400 --json stability.json
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from netlab.cardppo_games import MixedGames
from netlab.expert import CollectConfig
from netlab.imitation import RulesTable


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", type=int, default=4000)
    ap.add_argument("--sims", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--warmup", type=int, default=300, help="steps played before asking (games at every stage)")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    games = MixedGames(CollectConfig().tables, 1, args.seed, RulesTable())
    games.reset()
    short_top, long_top, moves, short_share = [], [], [], []
    have = 0
    for _ in range(args.warmup):
        act = games.labels("net")
        act[act < 0] = 0
        games.step(act)
    while have < args.states:
        greedy = games.labels("net")
        asked = np.flatnonzero((games.mask.sum(1) > 1) & ~games.skip & (greedy >= 0))
        asked = asked[: args.states - have]
        if len(asked):
            a = games.policies_of(f"ismcts:{args.sims}", asked, greedy[asked])
            b = games.policies_of(f"ismcts:{4 * args.sims}", asked, greedy[asked])
            ok = (a.sum(1) > 0.5) & (b.sum(1) > 0.5)
            short_top.append(a[ok].argmax(1))
            long_top.append(b[ok].argmax(1))
            short_share.append(a[ok].max(1))
            moves.append(greedy[asked][ok])
            have += int(ok.sum())
        act = greedy.copy()
        act[act < 0] = 0
        games.step(act)
    s, lng, m, share = (np.concatenate(x) for x in (short_top, long_top, moves, short_share))
    keeps, departs = s == m, s != m
    out = {
        "sims": args.sims,
        "states": int(len(s)),
        "short_departs_from_net": round(float(departs.mean()), 4),
        "long_agrees_with_short": round(float((s == lng).mean()), 4),
        "long_agrees_where_short_keeps_net": round(float((s == lng)[keeps].mean()), 4),
        "long_agrees_where_short_departs": round(float((s == lng)[departs].mean()), 4),
        "long_returns_to_net_where_short_departs": round(float((lng == m)[departs].mean()), 4),
        "long_departs_from_net": round(float((lng != m).mean()), 4),
    }
    for lo, hi in ((0.0, 0.4), (0.4, 0.6), (0.6, 1.01)):
        sel = departs & (share >= lo) & (share < hi)
        out[f"departs_top_share_{lo}_{min(hi, 1.0)}"] = {
            "states": int(sel.sum()),
            "long_agrees": round(float((s == lng)[sel].mean()), 4) if sel.any() else None,
        }
    print(json.dumps(out, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
