"""Train the rules-reading ``net`` (:class:`eights.train.cardnet.CardNet`): the imitation stage
(:func:`netlab.warmstart.warm_start`), resumable from ``--out``'s checkpoint.

    python research/train_card_net.py --out runs/card_net --minutes 120 --seed 0
"""

from __future__ import annotations

import argparse

import torch

from eights import Rules, presets
from netlab.warmstart import WarmStartConfig, warm_start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="runs/card_net", help="checkpoint and curve folder (resumed if present)")
    ap.add_argument("--minutes", type=float, default=60.0, help="wall time of this stretch")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2, help="PyTorch threads")
    ap.add_argument("--lr", type=float, default=WarmStartConfig.lr)
    ap.add_argument("--teacher", default="heuristic", help="the bot that labels the states (e.g. ismcts:200)")
    ap.add_argument(
        "--init",
        default=None,
        help="a checkpoint (.pt) or exported file (.safetensors) whose network a new run starts from",
    )
    ap.add_argument("--games", default="", help="games per table size, e.g. 2:128,4:64 (default: the config's)")
    ap.add_argument("--collect", type=int, default=WarmStartConfig.collect, help="new decisions per iteration")
    ap.add_argument("--updates", type=int, default=WarmStartConfig.updates, help="Adam steps per iteration")
    ap.add_argument("--capacity", type=int, default=WarmStartConfig.capacity, help="replay buffer size")
    ap.add_argument("--beta-ramp", type=int, default=WarmStartConfig.beta_ramp)
    ap.add_argument("--env-threads", type=int, default=0, help="threads of the collecting envs (0: one per core)")
    ap.add_argument("--device", default="auto", help="auto (CUDA when PyTorch sees a GPU), cpu, cuda[:K]")
    ap.add_argument("--arch", default="card", help="card, or flat:H for the flat baseline H wide")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    cfg = WarmStartConfig(
        seed=args.seed,
        lr=args.lr,
        eval_every=25,
        eval_games=100,
        teacher=args.teacher,
        collect=args.collect,
        updates=args.updates,
        capacity=args.capacity,
        beta_ramp=args.beta_ramp,
        env_threads=args.env_threads,
        device=args.device,
        arch=args.arch,
    )
    if args.games:
        cfg.games = {int(k): int(v) for k, v in (x.split(":") for x in args.games.split(","))}
    smallest = [(p, min(Rules(p).players)) for p in presets()]
    warm_start(args.out, cfg, args.minutes, eval_presets=smallest, init=args.init)


if __name__ == "__main__":
    main()
