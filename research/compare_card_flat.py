"""The card network against flat MLPs at the same imitation budget: each checkpoint of
``research/train_card_net.py --arch ...`` (same seed, same settings, side by side on the same
machine) plays ``heuristic`` on every preset at its smallest table and on the generalization
benchmark's held-out house-rule sets (never stored in training), on the same duplicate deals.

    python research/compare_card_flat.py runs/cmp_card runs/cmp_flat_256 runs/cmp_flat_11 \
        --deals 100 --json research/results/net/card_vs_flat.json

For each run: its architecture, parameters, training samples a second, iterations, labelled
decisions and minutes, its last validation agreement with ``heuristic``, and the mean win share
against ``heuristic`` as a fraction of the fair share on the presets and on the held-out sets.
"""

from __future__ import annotations

import argparse
import json
import os

import numpy as np
import torch

from eights import Rules, presets
from eights.generalization import evaluate
from eights.generalization.splits import split
from eights.train.cardnet import CardNetAgent, from_checkpoint
from eights.train.files import load_checkpoint
from netlab.flatnet import build


def load_run(folder: str):
    """The network of a run's checkpoint, its config and its curve."""
    ck = load_checkpoint(os.path.join(folder, "ckpt.pt"), ("model", "config"))
    cfg = ck["config"]
    arch = cfg.get("arch", "card")
    if arch == "card":
        net = from_checkpoint(ck["model"], cfg["width"], cfg["context"])
    else:
        net = build(arch, cfg["width"], cfg["context"])
        net.load_state_dict(ck["model"])
    with open(os.path.join(folder, "curve.jsonl")) as f:
        curve = [json.loads(line) for line in f]
    return net.eval(), arch, curve


def fair_share(agent, sets, deals: int, seed: int) -> float:
    """The mean over rule sets of the win share against ``heuristic`` times the player count."""
    shares = []
    for rules, n in sets:
        res = evaluate(agent, num_players=n, games=deals, seed=seed, rule_sets=[rules]).rule_sets[0]
        shares.append(res.win_rate * n)
    return float(np.mean(shares))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="run folders of research/train_card_net.py")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    smallest = [(Rules(p), min(Rules(p).players)) for p in presets()]
    heldout = [(r, 2) for r in split("heldout_house", 2)]
    rows = []
    for folder in args.runs:
        net, arch, curve = load_run(folder)
        agent = CardNetAgent(net, arch)
        last = curve[-1]
        row = {
            "run": os.path.basename(folder.rstrip("/")),
            "arch": arch,
            "parameters": sum(p.numel() for p in net.parameters()),
            "iterations": last["iteration"],
            "decisions": last["decisions"],
            "minutes": last["minutes"],
            "samples_per_s": int(np.median([r["samples_per_s"] for r in curve])),
            "val_acc": last["val_acc"],
            "presets": fair_share(agent, smallest, args.deals, args.seed),
            "heldout_house": fair_share(agent, heldout, args.deals, args.seed),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"deals": args.deals, "seed": args.seed, "runs": rows}, f, indent=1)


if __name__ == "__main__":
    main()
