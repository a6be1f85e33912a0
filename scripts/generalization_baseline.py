"""The measured baseline of the generalization benchmark (``eights.generalization``): PPO
generalists trained on the train split with and without the rules in the observation, and a
specialist trained on each held-out preset, all for the same budget; then their win rates
against the heuristic on the held-out presets (zero-shot for the generalists) and house rules.

    python scripts/generalization_baseline.py                # train, evaluate, report (about 45 min on 2 cores)
    python scripts/generalization_baseline.py --report-only  # the table and the chart from the JSON

Runs (2 players, the learner in one seat and the ``heuristic`` in the other, each seat in
turn, seed 0, the package's PPO with its default hyperparameters, ``--decisions`` learner
decisions each; 2,000,000 by default, the committed measurement):

* ``generalist_rules``: rules drawn from ``train_space()`` every episode, ``obs_rules=True``;
  the network reads the rules encoding through a learned projection (a per-card layer shared
  by the 54 cards, then ``--rules-width`` ReLU units) concatenated to the normalised
  observation before the first hidden layer (``eights.generalization.learners``);
* ``generalist``: the same rules, the plain observation;
* ``specialist_<preset>``: one held-out preset only, the plain observation.

Against the heuristic rather than in self-play: the benchmark judges the win rate against the
heuristic, and at a budget of minutes a learner that trains against that opponent gets
furthest towards it (self-play spends its games beating itself); it is also the learner of
``eights.train.exploit`` (``eights.train.best_response``), measured in ``docs/baselines.md``.

Each run keeps ``checkpoint.pt`` and, once evaluated, ``result.json`` in ``--runs/<run>``;
started again the script skips finished runs and resumes a stopped one. The evaluation plays
the greedy policy against the heuristic with duplicate deals (``--eval-seed``; the same deals
for every agent on a rule set, so the specialist-minus-generalist gap is paired deal by deal).
The results (training summaries, curves, evaluations; no weights) go to ``--data``, the table
between the ``generalization`` markers of ``--doc`` (docs/rules_agents_see.md),
the chart to ``--plot``.
Needs the ``train`` and ``plot`` extras. ``tests/python/generalization`` runs the whole
pipeline at a tiny budget (``--decisions 300 --num-envs 8 --num-steps 16 --hidden 16
--house-sets 2``, a few deals) into a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules_agents_see.md"
FIGURE = ROOT / "docs" / "figures" / "generalization_baseline.svg"
DATA = ROOT / "benchmarks" / "results" / "generalization" / "baseline.json"
BEGIN, END = "<!-- generalization:begin -->", "<!-- generalization:end -->"
GENERALISTS = ("generalist_rules", "generalist")
#: Bootstrap resamples of the paired gap intervals, and their seed.
BOOTSTRAP, BOOT_SEED = 2000, 0x6A9


# ---------------------------------------------------------------------------- the learners


def learners():
    """The learners (:mod:`eights.generalization.learners`), imported late: --report-only needs no torch."""
    from eights.generalization import learners

    return learners


def run_names() -> List[str]:
    from eights import generalization as G

    return list(GENERALISTS) + [f"specialist_{r.name}" for r in G.split("heldout_presets")]


def _config(args: argparse.Namespace):
    from eights.train import PPOConfig

    return PPOConfig(num_envs=args.num_envs, num_steps=args.num_steps, hidden=args.hidden)


def train_run(name: str, args: argparse.Namespace):
    """Train (or resume) run ``name`` to the budget; returns the trainer."""
    from eights import generalization as G
    from eights.agents import as_agent

    generalist = name in GENERALISTS
    preset = G.train_space() if generalist else name[len("specialist_") :]
    identity = {"agent": "heuristic", "preset": "train_space" if generalist else preset, "num_players": 2}
    identity.update(seed=args.seed, warm_start=None, run=name, rules_width=args.rules_width)
    width = args.rules_width if name == "generalist_rules" else 0
    trainer = learners().Learner(width, as_agent("heuristic"), preset, 2, args.seed, _config(args), identity)
    checkpoint = os.path.join(args.runs, name, "checkpoint.pt")
    if os.path.exists(checkpoint):
        trainer.load(checkpoint)
        print(f"{name}: resuming at {trainer.decisions:,} decisions", flush=True)

    def report(stats: Dict[str, float]) -> None:
        if trainer.updates % 10 == 0:
            recent = trainer.curve[-1]["win_rate"] if trainer.curve else float("nan")
            print(f"{name}: {trainer.decisions:,} decisions, {trainer.seconds / 60:.1f} min, "
                  f"training win rate {recent:.3f}", flush=True)  # fmt: skip

    stopped = trainer.train(args.decisions, None, args.curve_every, checkpoint, 20, report)
    if stopped != "budget":
        raise KeyboardInterrupt
    return trainer


def evaluate_run(name: str, trainer: Any, args: argparse.Namespace) -> Dict[str, Any]:
    """The run's evaluations: generalists on both held-out splits, a specialist on its preset."""
    from eights import Rules
    from eights import generalization as G

    agent = learners().Greedy(trainer.net, name, obs_rules=name == "generalist_rules")
    plan = [("heldout_presets", args.preset_games), ("heldout_house", args.house_games)]
    out: Dict[str, Any] = {}
    for split, games in plan if name in GENERALISTS else plan[:1]:
        t0 = time.perf_counter()
        sets = [Rules(name[len("specialist_") :])] if name not in GENERALISTS else None
        if split == "heldout_house" and args.house_sets:
            sets = G.split(split)[: args.house_sets]
        res = G.evaluate(agent, split, games=games, seed=args.eval_seed, threads=1, rule_sets=sets)
        out[split] = res.to_dict()
        out[split]["minutes"] = (time.perf_counter() - t0) / 60
        if split == "heldout_presets":  # per-deal scores (0, 1/2, 1) for the paired gaps
            out[split]["per_deal"] = {r.name: r.per_deal.tolist() for r in res.rule_sets}
        print(res.table(), flush=True)
    return out


def evaluate_bot(name: str, args: argparse.Namespace, note: str) -> Dict[str, Any]:
    """A built-in bot on both held-out splits, with the runs' evaluation settings."""
    from eights import generalization as G

    out: Dict[str, Any] = {"note": note}
    for split, games in [("heldout_presets", args.preset_games), ("heldout_house", args.house_games)]:
        sets = G.split(split)[: args.house_sets] if split == "heldout_house" and args.house_sets else None
        res = G.evaluate(name, split, games=games, seed=args.eval_seed, threads=1, rule_sets=sets)
        out[split] = res.to_dict()
        print(res.table(), flush=True)
    return out


def finished(result: Dict[str, Any], args: argparse.Namespace) -> bool:
    """Whether a saved result is of this budget and evaluation."""
    from eights.generalization import HOUSE_RULES_COUNT

    ev = result["eval"]
    same = result["budget"] == args.decisions and result["eval_seed"] == args.eval_seed
    same = same and ev["heldout_presets"]["deals"] == args.preset_games
    if "heldout_house" in ev:
        house = ev["heldout_house"]
        same = (
            same
            and house["deals"] == args.house_games
            and len(house["rule_sets"]) == (args.house_sets or HOUSE_RULES_COUNT)
        )
    return same


def run_one(name: str, args: argparse.Namespace) -> Dict[str, Any]:
    """Train, evaluate and save run ``name`` (or read it back when it is finished)."""
    path = os.path.join(args.runs, name, "result.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            result = json.load(f)
        if finished(result, args):
            return result
    trainer = train_run(name, args)
    t0 = time.perf_counter()
    evals = evaluate_run(name, trainer, args)
    summary = trainer.summary()
    result = {"run": name, "budget": args.decisions, "eval_seed": args.eval_seed, **summary}
    result.update(rules_width=trainer.rules_width, curve=trainer.curve, eval=evals)
    result["eval_minutes"] = (time.perf_counter() - t0) / 60
    with open(path, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return result


# ---------------------------------------------------------------------------- the report


def _boot(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap means of ``values`` (resampled over deals)."""
    return values[rng.integers(0, len(values), size=(BOOTSTRAP, len(values)))].mean(1)


def _with_ci(value: float, boots: np.ndarray) -> tuple:
    return float(value), tuple(float(x) for x in np.percentile(boots, [2.5, 97.5]))


def gaps(data: Dict[str, Any]) -> Dict[str, Dict[str, tuple]]:
    """The specialists' mean over the held-out presets, and per generalist the gap
    (specialist minus generalist, deal by deal) on each preset and on their mean, each with a
    95% bootstrap interval over deals (stratified by preset)."""
    runs, rng = data["runs"], np.random.default_rng(BOOT_SEED)
    presets = [r["name"] for r in runs["generalist"]["eval"]["heldout_presets"]["rule_sets"]]
    spec = {p: np.asarray(runs[f"specialist_{p}"]["eval"]["heldout_presets"]["per_deal"][p]) for p in presets}
    boots = np.mean([_boot(spec[p], rng) for p in presets], axis=0)
    out = {"specialist": {"mean": _with_ci(np.mean([spec[p].mean() for p in presets]), boots)}}
    for g in GENERALISTS:
        rows, boots = {}, []
        for p in presets:
            d = spec[p] - np.asarray(runs[g]["eval"]["heldout_presets"]["per_deal"][p])
            boots.append(_boot(d, rng))
            rows[p] = _with_ci(d.mean(), boots[-1])
        rows["mean"] = _with_ci(np.mean([rows[p][0] for p in presets]), np.mean(boots, axis=0))
        out[g] = rows
    return out


def _cell(value: Optional[float], ci: Any, bold: bool = False) -> str:
    if value is None or ci is None or None in ci:  # a rule set the bot does not play (null in the JSON)
        return "–"
    v = f"**{value:.3f}**" if bold else f"{value:.3f}"
    return f"{v} [{ci[0]:.3f}, {ci[1]:.3f}]"


def _gap_cell(value: float, ci: Any) -> str:
    return f"{value:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}]"


def table(data: Dict[str, Any]) -> str:
    """The markdown table of the baseline (win rates against the heuristic with 95% intervals)."""
    runs, gap = data["runs"], gaps(data)
    held = {g: runs[g]["eval"]["heldout_presets"] for g in GENERALISTS}
    presets = [r["name"] for r in held["generalist"]["rule_sets"]]
    bots = data.get("bots", {})
    lines = [
        "| held-out rule sets | specialist (trained on it) | generalist, rules in the observation | "
        "generalist, no rules | gap, with rules | gap, no rules |" + "".join(f" `{b}` (built-in) |" for b in bots),
        "|---|---|---|---|---|---|" + "---|" * len(bots),
    ]

    def bot_cells(split: str, key: Any, bold: bool = False) -> str:
        """The built-in bots' cells of a row: rule set ``key`` (an index) or an aggregate."""
        out = []
        for b in bots.values():
            ev = b[split]
            if isinstance(key, int):
                r = ev["rule_sets"][key]
                out.append(_cell(r["win_rate"], r["ci"]))
            else:
                out.append(_cell(ev[key], ev[f"{key}_ci"], bold))
        return "".join(f" {c} |" for c in out)

    spec_rates = []
    for i, p in enumerate(presets):
        s = runs[f"specialist_{p}"]["eval"]["heldout_presets"]["rule_sets"][0]
        spec_rates.append(s["win_rate"])
        cells = [_cell(held[g]["rule_sets"][i]["win_rate"], held[g]["rule_sets"][i]["ci"]) for g in GENERALISTS]
        gaps_ = [_gap_cell(*gap[g][p]) for g in GENERALISTS]
        lines.append(
            f"| `{p}` | {_cell(s['win_rate'], s['ci'])} | {' | '.join(cells)} | {' | '.join(gaps_)} |"
            + bot_cells("heldout_presets", i)
        )
    means = [_cell(held[g]["mean"], held[g]["mean_ci"], True) for g in GENERALISTS]
    gap_means = [_gap_cell(*gap[g]["mean"]) for g in GENERALISTS]
    lines.append(
        f"| mean of the {len(presets)} presets | {_cell(*gap['specialist']['mean'], True)} | {' | '.join(means)} | "
        f"{' | '.join(gap_means)} |" + bot_cells("heldout_presets", "mean", True)
    )
    iqms = [_cell(held[g]["iqm"], held[g]["iqm_ci"]) for g in GENERALISTS]
    lines.append(
        f"| IQM of the {len(presets)} presets | {iqm_value(spec_rates):.3f} | {' | '.join(iqms)} | | |"
        + bot_cells("heldout_presets", "iqm")
    )
    house = {g: runs[g]["eval"]["heldout_house"] for g in GENERALISTS}
    n = len(house["generalist"]["rule_sets"])
    for what in ("mean", "iqm"):
        cells = [_cell(house[g][what], house[g][f"{what}_ci"], what == "mean") for g in GENERALISTS]
        label = "mean" if what == "mean" else "IQM"
        lines.append(
            f"| {label} of the {n} held-out house rule sets | - | {' | '.join(cells)} | | |"
            + bot_cells("heldout_house", what, what == "mean")
        )
    lines += ["", footnote(data)]
    for name, b in bots.items():
        lines += ["", f"`{name}` (built-in): {b['note']}"]
    return "\n".join(lines)


def iqm_value(values: List[float]) -> float:
    from eights.generalization import iqm

    return float(iqm(np.asarray(values)))


def footnote(data: Dict[str, Any]) -> str:
    """The budget, the evaluation and the hardware, in words."""
    runs = data["runs"]
    some = runs["generalist"]
    minutes = ", ".join(f"{name} {r['minutes']:.1f} ({r['cpu_minutes']:.1f})" for name, r in runs.items())
    hardware = "; ".join(sorted({r["hardware"] for r in runs.values()}))
    held, house = some["eval"]["heldout_presets"], some["eval"]["heldout_house"]
    return (
        f"{data['decisions']:,} learner decisions per run (seed {data['seed']}); greedy policies evaluated on "
        f"{held['deals']:,} duplicate deals per held-out preset and {house['deals']} per house rule set "
        f"(seed {data['eval_seed']}), 2 players, against `heuristic` (0.5 is even). The gap is specialist minus "
        f"generalist on the same deals, with a paired bootstrap interval. Training minutes, wall (CPU): {minutes}. "
        f"Hardware: {hardware}."
    )


def plot(data: Dict[str, Any], path: str) -> None:
    """The chart: win rates per held-out preset and on average (left), the learning curves (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = data["runs"]
    held = {g: runs[g]["eval"]["heldout_presets"] for g in GENERALISTS}
    presets = [r["name"] for r in held["generalist"]["rule_sets"]]
    rows = presets + ["mean (presets)", "mean (house rules)"]
    series = {"specialist": [], "generalist_rules": [], "generalist": []}
    for i, p in enumerate(presets):
        s = runs[f"specialist_{p}"]["eval"]["heldout_presets"]["rule_sets"][0]
        series["specialist"].append((s["win_rate"], *s["ci"]))
        for g in GENERALISTS:
            r = held[g]["rule_sets"][i]
            series[g].append((r["win_rate"], *r["ci"]))
    mean, ci = gaps(data)["specialist"]["mean"]
    series["specialist"] += [(mean, *ci), (np.nan, np.nan, np.nan)]
    for g in GENERALISTS:
        house = runs[g]["eval"]["heldout_house"]
        series[g] += [(held[g]["mean"], *held[g]["mean_ci"]), (house["mean"], *house["mean_ci"])]
    labels = {"specialist": "specialist (trained on the preset)", "generalist_rules": "generalist, rules seen",
              "generalist": "generalist, no rules"}  # fmt: skip
    colours = {"specialist": "#55a868", "generalist_rules": "#4c72b0", "generalist": "#dd8452"}
    with matplotlib.rc_context({"svg.hashsalt": "eights"}):  # the same SVG from the same data
        _draw(plt, rows, series, labels, colours, runs, path)


def _draw(plt: Any, rows: List[str], series: Dict[str, list], labels: Dict[str, str], colours, runs, path) -> None:
    fig, (ax, cx) = plt.subplots(1, 2, figsize=(12, 4.6), gridspec_kw={"width_ratios": [1.1, 1]})
    y = np.arange(len(rows))
    for k, (key, vals) in enumerate(series.items()):
        v = np.array(vals, float)
        err = np.nan_to_num(np.clip(np.stack([v[:, 0] - v[:, 1], v[:, 2] - v[:, 0]]), 0, None))
        ax.barh(y + (k - 1) * 0.27, v[:, 0], 0.27, xerr=err, color=colours[key], capsize=2, label=labels[key])
    ax.axvline(0.5, color="grey", ls="--", lw=1)
    ax.set_yticks(y)
    ax.set_yticklabels(rows, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate against heuristic (95% interval); dashed: even")
    ax.legend(loc="lower right", fontsize=7)
    ax.set_title("zero-shot on held-out rules vs a specialist", fontsize=9)
    for name, r in runs.items():
        c = r["curve"]
        style = (
            dict(color=colours[name], lw=2)
            if name in GENERALISTS
            else dict(color=colours["specialist"], lw=1, alpha=0.6)
        )
        cx.plot([p["decisions"] / 1e6 for p in c], [p["win_rate"] for p in c], **style)
    cx.axhline(0.5, color="grey", ls="--", lw=1)
    cx.set_xlabel("learner decisions (millions)")
    cx.set_ylabel("score in training games against heuristic")
    cx.set_title("learning curves: generalists on the train split, specialists (thin) on their preset", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def write_table(text: str, doc: Path) -> None:
    """Put ``text`` between the markers of ``doc`` (they must exist)."""
    body = doc.read_text(encoding="utf-8")
    if BEGIN not in body or END not in body:
        raise SystemExit(f"{doc} has no {BEGIN} ... {END} markers")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    doc.write_text(pattern.sub(lambda _: f"{BEGIN}\n{text}\n{END}", body), encoding="utf-8")


def report(data: Dict[str, Any], args: argparse.Namespace) -> str:
    text = table(data)
    for doc in args.doc.split(","):
        write_table(text, Path(doc))
    plot(data, args.plot)
    return text


def parse(argv: Optional[List[str]]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--decisions", type=int, default=2_000_000, help="learner decisions per run (every run)")
    p.add_argument("--seed", type=int, default=0, help="training seed")
    p.add_argument("--eval-seed", type=int, default=1, help="seed of the evaluation's duplicate deals")
    p.add_argument("--preset-games", type=int, default=500, help="duplicate deals per held-out preset")
    p.add_argument("--house-games", type=int, default=100, help="duplicate deals per held-out house rule set")
    p.add_argument("--house-sets", type=int, default=0, help="evaluate on the first K house rule sets (0: all)")
    p.add_argument("--runs", default="runs/generalization", help="folder of the runs (checkpoints, results)")
    p.add_argument("--only", default="", help="comma-separated runs to train now (default: all)")
    p.add_argument("--num-envs", type=int, default=128, help="PPO: games in parallel")
    p.add_argument("--num-steps", type=int, default=64, help="PPO: decisions per game per rollout")
    p.add_argument("--hidden", type=int, default=192, help="PPO: width of the two hidden layers")
    p.add_argument("--rules-width", type=int, default=64, help="units of the rules projection")
    p.add_argument("--curve-every", type=int, default=5, help="updates per learning-curve point")
    p.add_argument("--data", default=str(DATA), help="the results JSON")
    p.add_argument("--doc", default=f"{DOC}", help="the markdown files with the table's markers")
    p.add_argument("--plot", default=str(FIGURE), help="the chart (SVG)")
    p.add_argument("--report-only", action="store_true", help="rebuild the table and chart from --data")
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=NOTE",
        help="evaluate a built-in bot on both held-out splits and add its column (with --report-only: to --data)",
    )
    return p.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse(argv)
    if args.report_only:
        with open(args.data, encoding="utf-8") as f:
            data = json.load(f)
        if args.bot:
            for spec in args.bot:
                name, _, note = spec.partition("=")
                data.setdefault("bots", {})[name] = evaluate_bot(name, args, note)
            with open(args.data, "w", encoding="utf-8") as f:
                json.dump(data, f, separators=(",", ":"))
                f.write("\n")
        print(report(data, args))
        return 0
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        names = run_names()
        for name in [n for n in names if not args.only or n in args.only.split(",")]:
            os.makedirs(os.path.join(args.runs, name), exist_ok=True)
            run_one(name, args)
    finally:
        torch.set_num_threads(before)
    results = {}
    for name in names:
        path = os.path.join(args.runs, name, "result.json")
        if not os.path.exists(path):
            print(f"{name} is not finished; no report yet", file=sys.stderr)
            return 1
        with open(path, encoding="utf-8") as f:
            results[name] = json.load(f)
    data = {"decisions": args.decisions, "seed": args.seed, "eval_seed": args.eval_seed, "runs": results}
    os.makedirs(os.path.dirname(os.path.abspath(args.data)), exist_ok=True)
    with open(args.data, "w", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(report(data, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
