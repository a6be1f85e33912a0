"""Train the rules-reading ``net`` by PPO across the rule space
(:func:`netlab.cardppo.card_ppo`), from the imitation network, resumable from ``--out``'s
checkpoint.

    python research/train_card_net_ppo.py --out runs/card_net_ppo \
        --init src/bots/weights/net.safetensors --minutes 110 --seed 3 --lr 3e-4

``--device auto`` (the default) runs the network on CUDA when PyTorch sees a GPU;
``--env-threads 0`` (the default) steps the envs side by side on one thread per core.
"""

from __future__ import annotations

import argparse
import dataclasses

import torch

from netlab.cardppo import CardPPOConfig, card_ppo
from netlab.device import env_threads


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="runs/card_net_ppo", help="checkpoint and curve folder (resumed if present)")
    ap.add_argument("--init", default=None, help="the network a new run starts from (.pt or .safetensors)")
    ap.add_argument("--minutes", type=float, default=60.0, help="wall time of this stretch")
    ap.add_argument("--threads", type=int, default=2, help="PyTorch threads")
    helps = {
        "device": "where the network runs: auto (CUDA when PyTorch sees a GPU), cpu, cuda[:K]",
        "env_threads": "threads stepping the envs side by side (0: one per core)",
    }
    for f in dataclasses.fields(CardPPOConfig):
        flag = "--" + f.name.replace("_", "-")
        ap.add_argument(flag, type=type(f.default), default=f.default, help=helps.get(f.name))
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    cfg = CardPPOConfig(**{f.name: getattr(args, f.name) for f in dataclasses.fields(CardPPOConfig)})
    cfg.env_threads = env_threads(cfg.env_threads)  # the checkpoint records the count used
    card_ppo(args.out, cfg, args.minutes, init=args.init)


if __name__ == "__main__":
    main()
