"""The thread sweep as a picture: each row's decisions a second at 1, 2, 4, ... threads as a
ratio to its own one-thread cell, beside the ideal line, and the rates themselves.

    python benchmarks/throughput.py --thread-sweep --json sweep.json
    python benchmarks/plot_thread_sweep.py sweep.json sweep.svg

Needs matplotlib (``pip install 'eights[plot]'``). The SVG is the same byte for byte when the
data are. ``docs/figures/thread_sweep_16_cores.svg`` comes from
``benchmarks/results/thread_sweep_16_cores.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

#: The scaling targets of the speed work at 16 threads (docs/benchmarks.md), by row.
TARGETS_AT_16 = {
    "learner vs heuristic, b=16384": 10,
    "self-play, b=4096": 8,
    "self-play, b=16384": 12,
    "arena net vs heuristic, games=1000": 10,
}


#: Matplotlib's default cycle without its grey, which the ideal line uses.
COLORS = [f"C{k}" for k in range(10) if k != 7]


def load(path: Path) -> dict:
    """A sweep written by ``throughput.py --thread-sweep --json``, checked for the fields the
    plot reads."""
    record = json.loads(path.read_text(encoding="utf-8"))
    threads = record.get("threads")
    rows = record.get("rows")
    if not isinstance(threads, list) or not threads or threads[0] != 1 or not isinstance(rows, dict) or not rows:
        raise ValueError(f"{path}: not a thread sweep (needs 'threads' starting at 1 and 'rows')")
    for name, cells in rows.items():
        if not isinstance(cells, list) or len(cells) != len(threads) or not all(c > 0 for c in cells):
            raise ValueError(f"{path}: row {name!r} needs {len(threads)} positive cells, got {cells!r}")
    return record


def plot(record: dict, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    threads = record["threads"]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.6))
    ax.plot(threads, threads, color="grey", ls="--", lw=1, label="ideal")
    for i, (name, cells) in enumerate(record["rows"].items()):
        color = COLORS[i % len(COLORS)]
        style = ":" if "uint8" in name or "obs_rules" in name else "-"
        ax.plot(threads, [c / cells[0] for c in cells], marker="o", ms=3, ls=style, color=color, label=name)
        bx.plot(threads, cells, marker="o", ms=3, ls=style, color=color, label=name)
        target = TARGETS_AT_16.get(name)
        if target and threads[-1] == 16:
            ax.plot([16], [target], marker="_", ms=14, mew=2, color=color)
    for axis in (ax, bx):
        axis.set_xscale("log", base=2)
        axis.set_xticks(threads, [str(t) for t in threads])
        axis.set_xlabel("threads")
        axis.grid(alpha=0.3)
    ax.set_yscale("log", base=2)
    ax.set_yticks(threads, [str(t) for t in threads])
    ax.set_ylabel("decisions a second / one thread's")
    ax.set_title("speed-up (a bar: the target at 16 threads)", fontsize=10)
    bx.set_yscale("log")
    bx.set_ylabel("decisions a second")
    bx.set_title("rate", fontsize=10)
    bx.legend(fontsize=7, loc="upper left")
    where = f"{record.get('machine', '?')}, {record.get('date', '?')}"
    if record.get("commit"):
        where += f", {record['commit']}"
    table = f"{record.get('preset', '?')} at {record.get('players', '?')} players"
    fig.suptitle(f"Thread sweep, {table} ({where})", fontsize=10)
    fig.tight_layout()
    with matplotlib.rc_context({"svg.hashsalt": "eights"}):
        fig.savefig(out, metadata={"Date": None} if out.suffix == ".svg" else None)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweep", type=Path, help="a JSON file written by throughput.py --thread-sweep --json")
    ap.add_argument("out", type=Path, help="the picture (.svg or .png)")
    args = ap.parse_args(argv)
    try:
        record = load(args.sweep)
    except (OSError, ValueError) as exc:  # json.JSONDecodeError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return 2
    plot(record, args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
