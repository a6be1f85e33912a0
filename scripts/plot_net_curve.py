"""The training curve of the rules-reading ``net``: agreement with ``heuristic`` on fixed
validation states and the quick score against it, over labelled decisions, stage by stage.

    python scripts/plot_net_curve.py   # benchmarks/results/net/curve_stage*.jsonl -> docs/figures/net_curve.svg
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "net"
FIGURE = ROOT / "docs" / "figures" / "net_curve.svg"


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stages = sorted(RESULTS.glob("curve_stage*.jsonl"))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 3.8))
    offset = 0
    labels = {1: "stage 1: imitating heuristic", 2: "stage 2: distilling ismcts:200"}
    for k, path in enumerate(stages, 1):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        x = [(offset + r["decisions"]) / 1e6 for r in rows]
        ax.plot(x, [r["val_acc"] for r in rows], label=labels.get(k, path.stem))
        ev = [(offset + r["decisions"]) / 1e6 for r in rows if "vs_heuristic" in r]
        bx.plot(ev, [r["vs_heuristic"] for r in rows if "vs_heuristic" in r], "o-", label=labels.get(k, path.stem))
        offset += rows[-1]["decisions"]
    ax.set_xlabel("labelled decisions (millions)")
    ax.set_ylabel("agreement with heuristic (fixed states)")
    ax.legend(fontsize=8)
    bx.axhline(1.0, color="grey", ls="--", lw=1)
    bx.set_xlabel("labelled decisions (millions)")
    bx.set_ylabel("score / fair share against heuristic")
    bx.set_title("100 games per preset, smallest table (noisy)", fontsize=9)
    bx.legend(fontsize=8)
    fig.tight_layout()
    with matplotlib.rc_context({"svg.hashsalt": "eights"}):
        fig.savefig(FIGURE, metadata={"Date": None})
    print(f"wrote {FIGURE}")


if __name__ == "__main__":
    main()
