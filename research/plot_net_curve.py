"""The training curves of the rules-reading ``net``: for the imitation stages, agreement with
``heuristic`` on fixed validation states and the quick score against it, over labelled
decisions; for the PPO stage, the win share against ``heuristic`` in its training games by
table size and the quick check of exported checkpoints (``quick_check_stage3.jsonl``).

    python research/plot_net_curve.py   # results/net/curve_stage*.jsonl -> results/net/figures/net_*curve.svg

The imitation runs of the card network against flat MLPs (``card_vs_flat/curve_*.jsonl``) go to
``results/net/figures/net_card_vs_flat.svg``; the arms of stages 5 to 8 (``stage<k>/arm_*.jsonl``,
the curve every 10th or 5th update, and ``stage<k>/checks_*.jsonl``) to
``results/net/figures/net_stage<k>_arms.svg``; stage 8's arm beside stage 7's arm e, the same
recipe without attention.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "research" / "results" / "net"
FIGURE = RESULTS / "figures" / "net_curve.svg"
PPO_FIGURE = RESULTS / "figures" / "net_ppo_curve.svg"
CMP_FIGURE = RESULTS / "figures" / "net_card_vs_flat.svg"
ARMS_FIGURE = RESULTS / "figures" / "net_stage5_arms.svg"
#: The shipped file each stage's arms start from (stages 6 to 8 shipped nothing).
START_FILE = {5: 4, 6: 5, 7: 5, 8: 5}


def _rows(path: Path) -> list:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _imitation_axes(ax, bx, bx_xlabel: str) -> None:
    """The labels of an imitation figure: agreement on the left, score against heuristic right."""
    ax.set_xlabel("labelled decisions (millions)")
    ax.set_ylabel("agreement with heuristic (fixed states)")
    ax.legend(fontsize=8)
    bx.axhline(1.0, color="grey", ls="--", lw=1)
    bx.set_xlabel(bx_xlabel)
    bx.set_ylabel("score / fair share against heuristic")
    bx.set_title("100 games per preset, smallest table (noisy)", fontsize=9)
    bx.legend(fontsize=8)


def _save(fig, path: Path) -> None:
    """Write ``fig`` as an SVG that is the same byte for byte when the data are."""
    import matplotlib

    fig.tight_layout()
    with matplotlib.rc_context({"svg.hashsalt": "eights"}):
        fig.savefig(path, metadata={"Date": None})
    print(f"wrote {path}")


def plot_ppo(plt, paths: list) -> None:
    """The PPO stages one after the other: smoothed win shares by group over learner decisions
    (a dotted line where a stage starts), and the quick checks of exported checkpoints
    (``quick_check_stage<k>.jsonl``, decisions counted from the start of that stage; the
    4-player check ``quick_check_4p_stage<k>.jsonl`` as squares)."""
    import numpy as np

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 3.8))
    offset, colors = 0, {}
    for path in paths:
        rows = _rows(path)
        groups = sorted({k[4:] for r in rows for k in r if k.startswith("win_")})
        x = np.array([(offset + r["decisions"]) / 1e6 for r in rows])
        for g in groups:
            wins = np.array([r.get(f"win_{g}", 0.0) * r.get(f"games_{g}", 0) for r in rows])
            games = np.array([r.get(f"games_{g}", 0) for r in rows], float)
            k = max(25, len(rows) // 30)  # updates per window
            played = np.convolve(games, np.ones(k), "valid")
            w = np.convolve(wins, np.ones(k), "valid") / np.where(played > 0, played, np.nan)
            n = int(g.split("p")[0])
            label = None if g in colors else g.replace("_", " ")
            (line,) = ax.plot(x[k - 1 :], w * n, label=label, lw=1, color=colors.get(g))
            colors[g] = line.get_color()
        if offset:
            ax.axvline(offset / 1e6, color="grey", ls=":", lw=1)
            bx.axvline(offset / 1e6, color="grey", ls=":", lw=1)
        for prefix, style, color, name in (
            ("quick_check_", "o-", "C0", "smallest table"),
            ("quick_check_4p_", "s-", "C1", "4 players"),
        ):
            qc = RESULTS / path.name.replace("curve_", prefix)
            if qc.exists():
                q = _rows(qc)
                label = None if prefix in colors else name
                bx.plot(
                    [(offset + r["decisions"]) / 1e6 for r in q],
                    [r["mean_of_fair"] for r in q],
                    style,
                    color=color,
                    label=label,
                )
                colors[prefix] = color
        offset += rows[-1]["decisions"]
    ax.axhline(1.0, color="grey", ls="--", lw=1)
    ax.set_xlabel("learner decisions (millions)")
    ax.set_ylabel("win share x players (training games, sampled moves)")
    ax.legend(fontsize=7, ncol=2)
    bx.axhline(1.0, color="grey", ls="--", lw=1)
    bx.set_xlabel("learner decisions (millions)")
    bx.set_ylabel("score / fair share against heuristic")
    bx.set_title("quick check: 200 deals per preset, greedy", fontsize=9)
    bx.legend(fontsize=8)
    _save(fig, PPO_FIGURE)


def plot_card_vs_flat(plt, paths: list) -> None:
    """The imitation runs of the card network and the flat baselines side by side
    (``card_vs_flat/curve_<arch>.jsonl``): agreement with ``heuristic`` over labelled decisions,
    and the quick score against it over minutes of training."""
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 3.8))
    for path in paths:
        rows = _rows(path)
        arch = path.stem.replace("curve_", "").replace("_", ":")
        ax.plot([r["decisions"] / 1e6 for r in rows], [r["val_acc"] for r in rows], label=arch, lw=1)
        ev = [r for r in rows if "vs_heuristic" in r]
        bx.plot([r["minutes"] for r in ev], [r["vs_heuristic"] for r in ev], "o-", label=arch, ms=3)
    _imitation_axes(ax, bx, "minutes of training (the runs side by side, one thread each)")
    _save(fig, CMP_FIGURE)


def plot_arms(plt, paths: list, stage: int) -> None:
    """A stage's arms from the same file: the entropy of the sampled policy over learner
    decisions, and the two quick checks of their exported checkpoints against those of the
    file they all start from (``stage<k>/start.jsonl``; grey lines)."""
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 3.8))
    start = {r["check"]: r["mean_of_fair"] for r in _rows(RESULTS / f"stage{stage}" / "start.jsonl")}
    for k, path in enumerate(paths):
        rows = _rows(path)
        arm = rows[0]["arm"]
        color = f"C{k}"
        ax.plot([r["decisions"] / 1e6 for r in rows], [r["ent"] for r in rows], lw=1, color=color, label=arm)
        checks = _rows(path.parent / path.name.replace("arm_", "checks_"))
        for key, style in (("smallest", "o-"), ("4p", "s--")):
            q = [r for r in checks if r["check"] == key]  # every arm starts from the same file
            x = [0.0] + [r["decisions"] / 1e6 for r in q]
            bx.plot(x, [start[key]] + [r["mean_of_fair"] for r in q], style, color=color, ms=4)
    for key, style in (("smallest", "-"), ("4p", "--")):
        bx.axhline(start[key], color="grey", ls=style, lw=1)
    ax.set_xlabel("learner decisions (millions)")
    ax.set_ylabel("entropy of the policy (training minibatches)")
    ax.legend(fontsize=7)
    bx.set_xlabel("learner decisions (millions)")
    bx.set_ylabel("score / fair share against heuristic")
    start_file = START_FILE[stage]
    bx.set_title(
        f"quick checks: smallest table (circles), 4 players (squares); grey: the stage-{start_file} file", fontsize=9
    )
    _save(fig, ARMS_FIGURE.with_name(f"net_stage{stage}_arms.svg"))


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stages = [p for p in sorted(RESULTS.glob("curve_stage*.jsonl")) if "val_acc" in p.read_text()[:2000]]
    ppo = [p for p in sorted(RESULTS.glob("curve_stage*.jsonl")) if p not in stages]
    if ppo:
        plot_ppo(plt, ppo)
    cmp = sorted((RESULTS / "card_vs_flat").glob("curve_*.jsonl"))
    if cmp:
        plot_card_vs_flat(plt, cmp)
    for stage in (5, 6, 7, 8):
        arms = sorted((RESULTS / f"stage{stage}").glob("arm_*.jsonl"))
        if stage == 8:  # stage 7's arm e, the same recipe without attention, as the control
            arms = [RESULTS / "stage7" / "arm_e.jsonl", *arms]
        if arms:
            plot_arms(plt, arms, stage)
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
    _imitation_axes(ax, bx, "labelled decisions (millions)")
    _save(fig, FIGURE)


if __name__ == "__main__":
    main()
