"""What ``eights train --init net`` buys: two run folders' agents (or the shipped ``net`` bot)
against ``heuristic`` in every other seat, on the same duplicate deals, and their paired
difference per deal with a 95% bootstrap interval.

    python benchmarks/train_init.py --rules examples/switch_house.toml --players 3 \\
        runs/switch_house_net runs/switch_house          # A - B, paired on 1,000 deals
    python benchmarks/train_init.py --rules examples/switch_house.toml --players 3 net runs/switch_house

An agent is a run folder (its ``final.safetensors``), an agent file, or ``net`` (the shipped
card network at minute 0, played by PyTorch as the fine-tuned one is). Several agents joined by
commas are one side: runs of one recipe with different seeds, their mean result on each deal
(the interval is still over deals, now of what the recipe gives on average):

    python benchmarks/train_init.py --rules examples/switch_multiples.toml --players 3 \\
        runs/net_s0,runs/net_s1 runs/scratch_s0,runs/scratch_s1
"""

from __future__ import annotations

import argparse
import os

import numpy as np

import eights
from eights.arena import evaluate
from eights.arena.stats import bootstrap_ci
from eights.arena.stats import per_deal as deal_means
from eights.train import GreedyPolicy
from eights.train.cardpolicy import shipped_card_policy
from eights.train.run import resolve_rules


def _agent(spec: str, rules: eights.Rules, players: int):
    if spec == "net":  # played as the fine-tuned network is, by PyTorch
        return GreedyPolicy(shipped_card_policy(rules.encode(players)).eval(), "net (minute 0)")
    path = os.path.join(spec, "final.safetensors") if os.path.isdir(spec) else spec
    return os.path.abspath(path)  # an agent file plays by its path, in Rust


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("a", help="the first agent: a run folder, an agent file or net (several: comma separated)")
    p.add_argument("b", help="the second agent, played on the same deals (several: comma separated)")
    p.add_argument("--rules", default="crazy_eights", help="preset name or TOML file (default: crazy_eights)")
    p.add_argument("--players", type=int, default=2, help="table size (default: 2)")
    p.add_argument("--deals", type=int, default=1000, help="duplicate deals (default: 1000)")
    p.add_argument("--seed", type=int, default=12345, help="seed of the deals (default: 12345)")
    p.add_argument("--opponent", default="heuristic", help="the bot in every other seat (default: heuristic)")
    args = p.parse_args()
    rules = resolve_rules(args.rules)
    n, per_deal = args.players, []
    for side in (args.a, args.b):
        runs = []
        for spec in side.split(","):
            r = evaluate(
                _agent(spec, rules, n), args.opponent, preset=rules, num_players=n, games=args.deals, seed=args.seed
            )
            print(f"{spec}: {r.win_rate:.3f} [{r.ci[0]:.3f}, {r.ci[1]:.3f}] against {args.opponent} ({r.deals} deals)")
            runs.append(deal_means(r.raw, n))
        per_deal.append(np.mean(runs, axis=0))
    diff = per_deal[0] - per_deal[1]
    lo, hi = bootstrap_ci(diff, np.random.default_rng(args.seed), 4000)
    print(f"paired difference {args.a} - {args.b}: {diff.mean():+.3f} [{lo:+.3f}, {hi:+.3f}] over {args.deals} deals")


if __name__ == "__main__":
    main()
