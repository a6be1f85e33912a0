"""The stretch of the rules-reading ``net``: one command that continues the committed file by PPO
on whatever the machine has (CUDA when PyTorch sees a GPU, every core for the envs), exports
the result, runs the fixed quick check on it and on the committed file, writes the curve and
says whether the new file may replace the committed one: the gate is the two files on the same
2,000 fixed deals a preset (``research/net_paired_check.py``, seed 7), and the new file passes
when the 95% interval of its paired lead is above 0 and it also leads on 2,000 fresh deals a
preset (a seed drawn from the candidate's bytes), so that a file picked for its luck on the
fixed deals does not pass. It never replaces the committed file itself.

    python research/stretch.py --minutes 6 --out runs/stretch            # a GPU host: about 7 minutes in all
    python research/stretch.py --minutes 6 --out runs/stretch64 --width 64
    python research/stretch.py --minutes 6 --out runs/stretch64b --width 64 \
        --init research/results/net/stretch_h100_w64/candidate.safetensors     # a candidate continued

The recipe is stage 5's (:mod:`netlab.cardppo`, the notes' table "Training, a stage at a
time") with its groups of tables ``--scale`` times larger, so a step's forward pass covers
more games (default 8 on a GPU, 1 on the CPU). ``--out`` holds ``train/`` (the checkpoint and
``curve.jsonl``; a second call resumes it), ``candidate.safetensors`` (eights-net-v2),
``check_candidate.json`` and ``check_committed.json`` (the quick checks; ``check_start.json``
too when ``--init`` names another file), ``gate.json`` (the paired check against the committed
file; ``gate_start.json`` against the start, when it is another file; ``confirm.json``, the
fresh deals, when the gate passes), ``curve.csv``,
``curve.png`` and ``summary.json``. ``--width 64`` widens the network first
(:func:`eights.train.cardnet_grow.widen`: new units, same play).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
import time
from typing import Dict, List, Optional, Tuple

import numpy as np
import torch

from export_card_net import export_checkpoint
from net_paired_check import paired
from netlab.cardppo import CardPPOConfig, card_ppo
from netlab.cardppo_games import parse_tables
from netlab.device import describe, env_threads, pick_device

HERE = os.path.dirname(os.path.abspath(__file__))
COMMITTED = "src/bots/weights/net.safetensors"
#: Stage 5's groups of tables (the shipped file's last stage).
STAGE5_TABLES = (
    "2:heuristic:128,2:heuristic:192:presets,3:heuristic:36,4:heuristic:96,4:heuristic:256:presets,"
    "5:heuristic:100:presets,5:heuristic:20,6:heuristic:24,2:net:64"
)
#: Blocks of 16 decisions a minibatch on a GPU: four times the CPU recipe's, so an epoch over
#: the eight-times-larger rollout takes about as many steps as the CPU recipe's did (14, not
#: 55), each a minibatch of 16,384 decisions; on an H100 the update's cost is per minibatch
#: more than per decision (``research/profile_update.py``: 311,000 samples a second at 4,096,
#: 770,000 at 16,384), and a one-minute stretch ran 1.3x the decisions a second.
GPU_BLOCKS = 1024
#: The fixed quick check: its deals and seed (``research/net_quick_check.py``). The record of
#: every stage since the first; too few deals to tell files 1% of the fair share apart (a lead
#: of 0.016 there once vanished on 2,000 fresh deals), so it no longer decides.
FIXED_DEALS, FIXED_SEED = 200, 0
#: The gate: the candidate and the committed file on the same duplicate deals of every preset
#: (``research/net_paired_check.py``), 2,000 a preset from seed 7 (deals no quick check plays),
#: the same every time. Its 95% interval of the paired difference is about +-0.007 of the fair
#: share wide: a lead of 1% shows.
GATE_DEALS, GATE_SEED = 2000, 7
#: The gate's deals are the same for every candidate, so among many candidates some lead on
#: them by luck (one in 40 of files no stronger than the committed one passes the interval).
#: A candidate that passes plays ``GATE_DEALS`` fresh deals a preset too, from a seed of its
#: own (:func:`confirm_seed`), and must lead there as well (a mean above 0, the gate's interval
#: having done the rest): a file only as strong as the committed one then passes one time in
#: 80; one with a real lead of 0.7% of the fair share (the width-64 candidate's, a standard
#: error of about 0.0033 on these deals) leads on the fresh deals 49 times in 50.
#: What ``summary.json`` keeps of a gate's result (``gate.json`` has every preset's too).
GATE_KEYS = ("deals", "seed", "mean", "ci", "ahead", "behind")


def confirm_seed(path: str) -> int:
    """The seed of the fresh deals that confirm a candidate: from the sha256 of its bytes, so
    the same file always meets the same deals and another file other deals; never the gate's."""
    with open(path, "rb") as f:
        seed = int.from_bytes(hashlib.sha256(f.read()).digest()[:8], "little") >> 1
    return seed + 1 if seed == GATE_SEED else seed


def scale_tables(spec: str, k: int) -> str:
    """``spec`` with every group's games multiplied by ``k``."""
    if k < 1:
        raise ValueError(f"scale: at least 1, got {k}")
    return ",".join(f"{n}:{opp}:{games * k}:{space}" for n, opp, games, space in parse_tables(spec))


def quick_checks(files: Dict[str, str], out: str, deals: int) -> Dict[str, dict]:
    """The quick check of each weights file (``{name: path}``), side by side in processes of
    their own; each result is also written to ``out/check_<name>.json``."""
    procs = {}
    for name, path in files.items():
        js = os.path.join(out, f"check_{name}.json")
        cmd = [sys.executable, os.path.join(HERE, "net_quick_check.py"), "--weights", path, "--json", js]
        cmd += ["--deals", str(deals), "--seed", str(FIXED_SEED)]
        log = open(os.path.join(out, f"check_{name}.log"), "w")
        procs[name] = (subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), js, log)
    results = {}
    for name, (proc, js, log) in procs.items():
        if proc.wait() != 0:
            raise RuntimeError(f"the quick check of {files[name]} failed (see {log.name})")
        log.close()
        with open(js) as f:
            results[name] = json.load(f)
    return results


def gate_passed(gate: dict, fixed: bool, trained: bool = True) -> bool:
    """The gate's own test: on its fixed deals (``fixed``), after the policy trained, the 95%
    interval of the paired lead over the committed file lies above 0."""
    return fixed and trained and gate["ci"][0] > 0


def verdict(
    gate: dict, fixed: bool, out_file: str, trained: bool = True, confirm: Optional[dict] = None
) -> Tuple[bool, str]:
    """Whether the candidate may replace the committed file, and the line that says so: on the
    gate's fixed deals (``fixed``), after the policy trained (the first updates move the value
    head alone), the 95% interval of its paired lead over the committed file (``gate``, as
    :func:`net_paired_check.paired` returns it) must lie above 0, and on the fresh deals of
    :func:`confirm_seed` (``confirm``, played once the gate passed) its lead must be above 0. A
    lead inside the deals' noise is not enough: replacing the file moves every ``net`` figure
    of the docs."""
    lead = f"{gate['mean']:+.4f} [{gate['ci'][0]:+.4f}, {gate['ci'][1]:+.4f}] of the fair share"
    if not fixed:
        return False, f"paired lead {lead}, not on the gate's deals (they differ): no verdict, nothing to commit"
    if not trained:
        return False, "the policy has not trained yet (the first updates train the value head alone): nothing to commit"
    if gate_passed(gate, fixed, trained):
        if confirm is None:
            return False, f"paired lead {lead} on the gate's deals, not yet confirmed on fresh deals: nothing to commit"
        fresh = f"{confirm['mean']:+.4f} [{confirm['ci'][0]:+.4f}, {confirm['ci'][1]:+.4f}]"
        if confirm["mean"] <= 0:
            return False, (
                f"not confirmed: paired lead {lead} on the gate's {gate['deals']} deals a preset, but "
                f"{fresh} on {confirm['deals']} fresh deals (seed {confirm['seed']}): keep the committed file"
            )
        return True, (
            f"stronger: paired lead {lead} over the committed file on {gate['deals']} deals a preset, "
            f"{fresh} on {confirm['deals']} fresh deals (seed {confirm['seed']}); "
            f"to commit it, cp {shlex.quote(out_file)} {COMMITTED}"
        )
    if gate["ci"][1] < 0:
        return False, (
            f"weaker: paired lead {lead} over the committed file on {gate['deals']} deals a preset "
            "(the interval lies below 0): keep the committed file"
        )
    return False, (
        f"not shown stronger: paired lead {lead} over the committed file on {gate['deals']} deals a preset "
        "(the interval holds 0): keep the committed file"
    )


def write_curve(rows: List[dict], csv_path: str, png_path: str, title: str) -> None:
    """The run's curve as a table (one line per update) and a figure: the win share times the
    players by group over learner decisions, and learner decisions a second."""
    groups = sorted({k[4:] for r in rows for k in r if k.startswith("win_")})
    cols = ["update", "decisions", "minutes", "decisions_per_s", "collect_s", "ppo_s", "update_s", "ent", "kl", "agree"]
    with open(csv_path, "w") as f:
        f.write(",".join(cols + [f"share_{g}" for g in groups]) + "\n")
        for r in rows:
            cells = [r.get(c, "") for c in cols]
            # The win share times the players (1: the fair share), where games of the group ended.
            cells += [round(r[f"win_{g}"] * int(g.split("p")[0]), 4) if f"win_{g}" in r else "" for g in groups]
            f.write(",".join(map(str, cells)) + "\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 3.8))
    x = np.array([r["decisions"] / 1e6 for r in rows])
    k = max(1, min(10, len(rows) // 5))  # updates per window
    for g in groups:
        wins = np.array([r.get(f"win_{g}", 0.0) * r.get(f"games_{g}", 0) for r in rows])
        games = np.array([r.get(f"games_{g}", 0) for r in rows], float)
        played = np.convolve(games, np.ones(k), "valid")
        w = np.convolve(wins, np.ones(k), "valid") / np.where(played > 0, played, np.nan)
        ax.plot(x[k - 1 :], w * int(g.split("p")[0]), lw=1, label=g.replace("_", " "))
    ax.axhline(1.0, color="grey", ls="--", lw=1)
    ax.set_xlabel("learner decisions (millions)")
    ax.set_ylabel("win share x players (training games)")
    ax.legend(fontsize=7, ncol=2)
    bx.plot([r["update"] for r in rows], [r["decisions_per_s"] for r in rows], lw=1)
    bx.set_xlabel("update")
    bx.set_ylabel("learner decisions a second")
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    plt.close(fig)


def _recorded(argv: List[str]) -> List[str]:
    """The arguments the file's record keeps: all but ``--out`` (a folder of the machine that
    trained it, not part of the recipe)."""
    out, skip = [], False
    for a in argv:
        if skip or a.startswith("--out="):
            skip = False
            continue
        skip = a == "--out"
        if not skip:
            out.append(a)
    return out


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="runs/stretch", help="the run's folder (its train/ is resumed if present)")
    ap.add_argument("--minutes", type=float, default=6.0, help="training wall time (the checks come after)")
    ap.add_argument(
        "--init",
        default=COMMITTED,
        help="the file a new run starts from (default: the committed file; the verdict is always against the "
        "committed file, and another start is quick-checked beside it)",
    )
    ap.add_argument("--device", default="auto", help="auto (CUDA when PyTorch sees a GPU), cpu, cuda[:K]")
    ap.add_argument("--env-threads", type=int, default=0, help="threads stepping the envs at once (0: one per core)")
    ap.add_argument("--threads", type=int, default=0, help="PyTorch threads (0: 4 beside a GPU, every core without)")
    ap.add_argument("--scale", type=int, default=0, help="games per group times this (0: 8 on a GPU, 1 on the CPU)")
    ap.add_argument("--tables", default=STAGE5_TABLES, help="groups players:opponent:games[:space], before --scale")
    ap.add_argument("--width", type=int, default=32, help="units per card (above the file's: widened first)")
    ap.add_argument("--context", type=int, default=96, help="context units (above the file's: widened first)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--shaping", type=float, default=0.05)
    ap.add_argument("--shaping-updates", type=int, default=600)
    ap.add_argument("--num-steps", type=int, default=CardPPOConfig.num_steps)
    ap.add_argument(
        "--blocks",
        type=int,
        default=0,
        help=f"blocks of 16 decisions a minibatch (0: {GPU_BLOCKS} on a GPU, {CardPPOConfig.blocks} on the CPU)",
    )
    ap.add_argument("--deals", type=int, default=FIXED_DEALS, help="quick-check deals (200: the fixed check)")
    ap.add_argument(
        "--gate-deals",
        type=int,
        default=GATE_DEALS,
        help=f"the gate's paired deals a preset ({GATE_DEALS}: the fixed gate, the only one that gives a verdict)",
    )
    return ap.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    t_start = time.time()
    device = pick_device(args.device)
    cuda = device.type == "cuda"
    torch.set_num_threads(args.threads or (min(4, os.cpu_count() or 1) if cuda else (os.cpu_count() or 1)))
    scale = args.scale or (8 if cuda else 1)
    blocks = args.blocks or (GPU_BLOCKS if cuda else CardPPOConfig.blocks)
    cfg = CardPPOConfig(
        seed=args.seed,
        tables=scale_tables(args.tables, scale),
        num_steps=args.num_steps,
        lr=args.lr,
        blocks=blocks,
        bc_coef=0.0,
        shaping=args.shaping,
        shaping_updates=args.shaping_updates,
        width=args.width,
        context=args.context,
        env_threads=env_threads(args.env_threads),
        device=str(device),
    )
    os.makedirs(args.out, exist_ok=True)
    train = os.path.join(args.out, "train")
    where = f"{describe(device)}, {cfg.env_threads} env threads, {os.cpu_count()} cores"
    print(f"stretch on {where}; tables x{scale}: {cfg.tables}", flush=True)
    card_ppo(train, cfg, args.minutes, init=args.init, log=lambda s: print(s, flush=True))
    rows = [json.loads(line) for line in open(os.path.join(train, "curve.jsonl")) if line.strip()]
    t_train = time.time() - t_start
    decisions = rows[-1]["decisions"]
    # The curve keeps minutes to two decimals: a run shorter than that falls back on the wall time.
    seconds = 60 * rows[-1]["minutes"] or t_train
    warm = [r["decisions_per_s"] for r in rows[1:]] or [rows[0]["decisions_per_s"]]
    rate, median = decisions / max(seconds, 1e-9), float(np.median(warm))
    print(f"learner decisions a second: {rate:,.0f} over the run, {median:,.0f} the median update after the first")
    candidate = os.path.join(args.out, "candidate.safetensors")
    command = "python research/stretch.py " + " ".join(shlex.quote(a) for a in _recorded(argv or sys.argv[1:]))
    stage = f"stretch, PPO on {where}: {command} ({decisions} learner decisions)"
    export_checkpoint(os.path.join(train, "ckpt.pt"), candidate, [stage], previous=args.init, hardware=where)
    # The verdict is against the committed file, whatever the run started from; a start of its
    # own (a candidate continued) is checked beside them.
    files = {"candidate": candidate, "committed": COMMITTED}
    if os.path.abspath(args.init) != os.path.abspath(COMMITTED):
        files["start"] = args.init
    checks = quick_checks(files, args.out, args.deals)
    new, old = checks["candidate"]["mean_of_fair"], checks["committed"]["mean_of_fair"]
    start = checks["start"]["mean_of_fair"] if "start" in checks else None
    fixed = args.gate_deals == GATE_DEALS
    trained = any(not r["value_only"] for r in rows)
    gates = {}
    for name in [n for n in ("committed", "start") if n in files]:
        print(f"gate: the candidate against the {name} file, {args.gate_deals} paired deals a preset", flush=True)
        gates[name] = paired(candidate, files[name], args.gate_deals, GATE_SEED, log=lambda s: None)
        suffix = "" if name == "committed" else "_" + name
        with open(os.path.join(args.out, f"gate{suffix}.json"), "w") as f:
            json.dump(gates[name], f, indent=1)
    gate = gates["committed"]
    confirm = None
    if gate_passed(gate, fixed, trained):
        seed = confirm_seed(candidate)
        print(f"confirm: the candidate against the committed file, {GATE_DEALS} fresh deals (seed {seed})", flush=True)
        confirm = paired(candidate, COMMITTED, GATE_DEALS, seed, log=lambda s: None)
        with open(os.path.join(args.out, "confirm.json"), "w") as f:
            json.dump(confirm, f, indent=1)
    ok, line = verdict(gate, fixed, candidate, trained, confirm)
    title = f"stretch: {decisions / 1e6:.1f} M learner decisions, {median:,.0f}/s on {where}; "
    title += f"paired lead {gate['mean']:+.4f} [{gate['ci'][0]:+.4f}, {gate['ci'][1]:+.4f}]"
    write_curve(rows, os.path.join(args.out, "curve.csv"), os.path.join(args.out, "curve.png"), title)
    summary = {
        "device": where,
        "tables": cfg.tables,
        "width": cfg.width,
        "updates": rows[-1]["update"],
        "policy_updates": sum(not r["value_only"] for r in rows),
        "decisions": decisions,
        "train_minutes": rows[-1]["minutes"],
        "decisions_per_s": round(rate),
        "decisions_per_s_median": round(median),
        "quick_check": {"candidate": new, "committed": old, "deals": args.deals, "fixed": args.deals == FIXED_DEALS},
        "gate": {k: gate[k] for k in GATE_KEYS} | {"fixed": fixed},
        "confirm": {k: confirm[k] for k in GATE_KEYS} if confirm is not None else None,
        "start": {"file": args.init, "quick_check": start, "gate": {k: gates["start"][k] for k in GATE_KEYS}}
        if start is not None
        else None,
        "stronger": ok,
        "verdict": line,
        "wall_minutes": round((time.time() - t_start) / 60, 2),
        "train_wall_minutes": round(t_train / 60, 2),
    }
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(f"quick check: candidate {new:.4f}, committed {old:.4f} of the fair share ({args.deals} deals a preset)")
    if start is not None:
        print(f"the file the run started from, {args.init}: {start:.4f}")
        g = gates["start"]
        print(f"paired lead over it: {g['mean']:+.4f} [{g['ci'][0]:+.4f}, {g['ci'][1]:+.4f}]")
    print(line)
    print(f"wall time {summary['wall_minutes']} minutes; {args.out}/curve.png, curve.csv, summary.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
