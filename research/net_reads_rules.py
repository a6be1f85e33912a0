"""Does ``net`` read the rules? On the generalization benchmark's 40 held-out house-rule sets
(never drawn in training), the shipped network plays against ``heuristic`` twice on the same
duplicate deals: told the true rules encoding, and told the encoding of the preset each set was
derived from. The paired difference per deal, bootstrapped over deals within each set and then
averaged over sets, says what reading the rules is worth. The true-rules games are the built-in
bot's (all in Rust); the told-the-parent games go through the Python arena loop, which is slow
on the sets whose matches run to the decision limit.

    python research/net_reads_rules.py --deals 1000 --out docs/data/net_reads_rules.json
    python research/net_reads_rules.py --deals 1000 --true-only   # the zero-shot score alone (fast)
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from eights import Rules
from eights.generalization import evaluate
from eights.generalization.splits import split
from eights.train.cardnet import CardNetAgent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--sets", type=int, default=40, help="the first N held-out sets")
    ap.add_argument("--out", default="")
    ap.add_argument("--true-only", action="store_true", help="skip the told-the-parent games (the slow half)")
    args = ap.parse_args()
    net = None  # the Rust forward pass of the shipped weights (eights._core.card_net_logits)
    rows = []
    diffs = []
    rng = np.random.default_rng(args.seed)
    trues = []
    for r in split("heldout_house", args.players)[: args.sets]:
        n = args.players
        true = evaluate("net", num_players=n, games=args.deals, seed=args.seed, rule_sets=[r]).rule_sets[0]
        a = np.asarray(true.per_deal, float)
        trues.append(a)
        row = {"set": r.name, "preset": r.preset, "true": true.win_rate}
        if args.true_only:
            rows.append(row)
            print(f"{r.name:<58} true {true.win_rate:.3f}", flush=True)
            continue
        parent = Rules(r.preset).encode(n)
        told = evaluate(
            CardNetAgent(net, "net|parent", parent), num_players=n, games=args.deals, seed=args.seed, rule_sets=[r]
        ).rule_sets[0]
        d = a - np.asarray(told.per_deal, float)
        diffs.append(d)
        rows.append({**row, "parent": told.win_rate, "diff": float(d.mean())})
        print(f"{r.name:<58} true {true.win_rate:.3f}  parent {told.win_rate:.3f}  diff {d.mean():+.3f}", flush=True)

    def boot(per_set):  # the mean over sets, resampling deals within each set
        return np.percentile(
            [np.mean([d[rng.integers(0, len(d), len(d))].mean() for d in per_set]) for _ in range(2000)], [2.5, 97.5]
        )

    truth = float(np.mean([x["true"] for x in rows]))
    t_lo, t_hi = boot(trues)
    print(f"mean against heuristic, true rules: {truth:.4f} [{t_lo:.4f}, {t_hi:.4f}]")
    summary = {"deals": args.deals, "seed": args.seed, "players": args.players, "sets": rows, "mean_true": truth,
               "true_ci": [float(t_lo), float(t_hi)]}  # fmt: skip
    if diffs:
        means = np.array([d.mean() for d in diffs])
        lo, hi = boot(diffs)
        print(f"mean against heuristic, parent preset's: {np.mean([x['parent'] for x in rows]):.4f}")
        print(f"paired difference (true - parent), mean over sets: {means.mean():+.4f} [{lo:+.4f}, {hi:+.4f}]")
        summary.update(mean_diff=float(means.mean()), diff_ci=[float(lo), float(hi)])
    if args.out:
        with open(args.out, "w") as f:
            json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
