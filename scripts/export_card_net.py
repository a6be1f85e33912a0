"""Export a checkpoint of ``scripts/train_card_net.py`` as the ``net`` bot's weights file
(``eights-net-v2``, float16), with the training record in its metadata.

    python scripts/export_card_net.py --ckpt runs/card_net/ckpt.pt --out src/bots/net/card.safetensors \
        --stage "imitation: ..."
"""

from __future__ import annotations

import argparse
import json
import platform

import torch

from eights.train.cardnet import export, from_checkpoint


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckpt", default="runs/card_net/ckpt.pt")
    ap.add_argument("--out", default="src/bots/net/card.safetensors")
    ap.add_argument("--stage", action="append", default=[], help="a line of the training record (repeatable)")
    args = ap.parse_args()
    ck = torch.load(args.ckpt, weights_only=False)
    cfg = ck["config"]
    net = from_checkpoint(ck["model"], cfg["width"], cfg["context"])
    state = ck["state"]
    record = {
        "stages": json.dumps(args.stage),
        "iterations": str(state["iteration"]),
        "decisions": str(state["decisions"]),
        "train_minutes": f"{state['seconds'] / 60:.1f}",
        "hardware": f"{platform.machine()}, {torch.get_num_threads()} PyTorch threads",
        "config": json.dumps(cfg),
    }
    export(net, args.out, record)
    print(f"wrote {args.out}: iteration {state['iteration']}, {state['decisions']} decisions")


if __name__ == "__main__":
    main()
