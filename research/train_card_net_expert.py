"""Expert iteration offline for the rules-reading ``net`` (:mod:`netlab.expert`): label a
fixed set of ``net``'s own states with a search rooted on ``net``, then train the network on
them. Collections resume at their next shard; several collections (one per process, each its
own seed) may feed one distillation.

    python research/train_card_net_expert.py collect --out runs/ei/labels0 --minutes 60 --seed 0
    python research/train_card_net_expert.py distill --labels runs/ei/labels0 --out runs/ei/d0 \\
        --init src/bots/weights/net.safetensors --epochs 8 --power 3
    python research/export_card_net.py --ckpt runs/ei/d0/ckpt.pt --out candidate.safetensors \\
        --previous src/bots/weights/net.safetensors --stage "..."
"""

from __future__ import annotations

import argparse
from dataclasses import fields

from netlab.device import pick_device
from netlab.expert import CollectConfig, DistillConfig, collect, distill, load_shards


def _flags(ap: argparse.ArgumentParser, cls) -> None:
    for f in fields(cls):
        ap.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("collect", help="label net's states with the search")
    c.add_argument("--out", required=True)
    c.add_argument("--states", type=int, default=2_000_000)
    c.add_argument("--minutes", type=float, default=60.0)
    _flags(c, CollectConfig)
    d = sub.add_parser("distill", help="train the network on labelled states")
    d.add_argument("--labels", nargs="+", required=True, help="folders of labels_*.npz shards")
    d.add_argument("--out", required=True)
    d.add_argument("--init", default="src/bots/weights/net.safetensors")
    d.add_argument("--device", default="auto", help="auto (CUDA when PyTorch sees a GPU), cpu, cuda[:K]")
    _flags(d, DistillConfig)
    args = ap.parse_args()
    if args.what == "collect":
        cfg = CollectConfig(**{f.name: getattr(args, f.name) for f in fields(CollectConfig)})
        n = collect(args.out, cfg, args.states, args.minutes)
        print(f"{args.out}: {n} labelled states")
    else:
        cfg = DistillConfig(**{f.name: getattr(args, f.name) for f in fields(DistillConfig)})
        labels = load_shards(args.labels, cfg.valid, cfg.seed)
        print(f"{labels.size} states, {len(labels.rules)} rule sets")
        distill(args.out, labels, args.init, cfg, device=str(pick_device(args.device)))


if __name__ == "__main__":
    main()
