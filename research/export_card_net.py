"""Export a checkpoint of ``research/train_card_net.py`` (imitation) or
``research/train_card_net_ppo.py`` (PPO) as the ``net`` bot's weights file (``eights-net-v2``,
float16), with the training record in its metadata: the stages of ``--previous`` (the file the
stage started from; its ``continue:`` line is dropped when this stage gives one), then this
stage's ``--stage`` lines.

    python research/export_card_net.py --ckpt runs/card_net/ckpt.pt --out src/bots/weights/net.safetensors \
        --stage "imitation: ..."
    python research/export_card_net.py --ckpt runs/card_net_ppo/ckpt.pt --out new.safetensors \
        --previous src/bots/weights/net.safetensors --stage "stage 3, PPO: ..."
"""

from __future__ import annotations

import argparse
import json
import platform
from typing import List

import torch

from eights.train.cardnet import export, from_checkpoint
from eights.train.files import header_metadata, load_checkpoint, read_file_header


def export_checkpoint(ckpt: str, out: str, stages: List[str], previous: str = "", hardware: str = "") -> dict:
    """Write the network of checkpoint ``ckpt`` to ``out`` with its training record (the module
    documentation; ``hardware``: the machine in words, by default its architecture and PyTorch
    threads); returns the record."""
    stages = list(stages)
    if previous:
        meta = header_metadata(read_file_header(previous), previous)
        before = json.loads(meta["stages"])
        if any(s.startswith("continue:") for s in stages):  # the new stage's continue line replaces the old
            before = [s for s in before if not s.startswith("continue:")]
        stages = before + stages
    ck = load_checkpoint(ckpt, ("model", "config", "state"), map_location="cpu")  # a GPU run's too
    cfg = ck["config"]
    net = from_checkpoint(ck["model"], cfg["width"], cfg["context"])
    state = ck["state"]
    steps = state.get("iteration", state.get("update"))
    record = {
        "stages": json.dumps(stages),
        "iterations": str(steps),
        "decisions": str(state["decisions"]),
        "train_minutes": f"{state['seconds'] / 60:.1f}",
        "hardware": hardware or f"{platform.machine()}, {torch.get_num_threads()} PyTorch threads",
        "config": json.dumps(cfg),
    }
    export(net, out, record)
    print(f"wrote {out}: iteration {steps}, {state['decisions']} decisions")
    return record


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckpt", default="runs/card_net/ckpt.pt")
    ap.add_argument("--out", default="src/bots/weights/net.safetensors")
    ap.add_argument("--stage", action="append", default=[], help="a line of the training record (repeatable)")
    ap.add_argument("--previous", default="", help="a weights file whose recorded stages come first")
    ap.add_argument("--hardware", default="", help="the training machine in words (default: this one's CPU)")
    args = ap.parse_args()
    export_checkpoint(args.ckpt, args.out, args.stage, args.previous, args.hardware)


if __name__ == "__main__":
    main()
