#!/usr/bin/env python3
"""The bot ladder: how the built-in bots fare against each other on every preset, written into
``docs/baselines.md`` between the markers ``<!-- ladder:begin -->`` and ``<!-- ladder:end -->``
(the rest of the file is kept).

For every preset, at its smallest table (2 players, or the fewest it allows) and at 4 players
where it allows them, every column of :data:`COLUMNS` is one duplicate-deal match
(``eights.arena.evaluate``: the win rate of the first bot with its 95% interval). The table
adds the share of decisions with a real choice (more than one legal action, every seat, in the
games of ``ismcts:400`` against ``heuristic``) and, at the smallest table, the all-seeing
player's edge (``oracle:50``, which sees every hand, against ``ismcts:400``), and its closing
note names the presets where a bot does not beat the one below it.

Results are kept one JSON line per match in ``benchmarks/results/ladder.jsonl``; a run computes only
the matches missing there, so it can be stopped and resumed, and a new column (a later bot)
is added by listing it in :data:`COLUMNS` (or ``--column``) and running again.

    python scripts/ladder.py                      # every preset, 1,000 deals per match
    python scripts/ladder.py --render-only        # rewrite the table from the results file
    python scripts/ladder.py --short --results /tmp/l.jsonl --out /tmp/l.md   # a quick check (CI)

The full run takes hours on one thread (``--threads``, default 1; the results do not depend
on it). ``--ray auto`` spreads each match's deals over the Ray cluster started on this machine
(``--ray local`` starts one here, ``--ray HOST:PORT`` joins another; see docs/cluster.md), with
the same results:

    python scripts/ladder.py --ray auto
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "baselines.md"
RESULTS = ROOT / "benchmarks" / "results" / "ladder.jsonl"
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"


@dataclass(frozen=True)
class Column:
    """One match per table: ``agent`` against ``opponent`` in every other seat."""

    key: str
    agent: str
    opponent: str
    #: Duplicate deals per match, or None for the run's ``--deals``.
    deals: Optional[int] = None
    #: Played only at the preset's smallest table.
    smallest_only: bool = False
    #: A target: the lower end of the interval must be above the fair share.
    target: bool = False


#: The ladder's columns, in the table's order. A new bot is a new entry (then run again).
COLUMNS: Tuple[Column, ...] = (
    Column("heuristic_vs_random", "heuristic", "random", target=True),
    Column("ismcts_vs_heuristic", "ismcts:400", "heuristic", target=True),
    Column("pimc_vs_heuristic", "pimc:50", "heuristic"),
    Column("net_vs_heuristic", "net", "heuristic"),
    Column("net1_vs_heuristic", "net1", "heuristic"),
    Column("oracle_vs_ismcts", "oracle:50", "ismcts:400", deals=300, smallest_only=True),
)
#: The column whose games give the choice share.
CHOICE_FROM = "ismcts_vs_heuristic"
#: The presets whose ``ismcts:400`` must reach this against ``heuristic`` (issue target).
SEARCH_FLOOR = {"crazy_eights_countdown": 0.55, "crazy_eights_countdown_blog": 0.55, "bitch": 0.55}


def tables(preset: str) -> List[int]:
    """The player counts of a preset's rows: its smallest table (at least 2), and 4 when it
    allows 4 and that is not already the smallest."""
    import eights

    players = eights.Rules(preset).to_dict()["players"]
    lo, hi = max(2, int(players["min"])), int(players["max"])
    return [lo] + ([4] if lo < 4 <= hi else [])


def match_key(preset: str, players: int, col: Column, deals: int, seed: int) -> str:
    return f"{preset}|{players}|{col.agent}|{col.opponent}|{deals}|{seed}"


def load(path: Path) -> Dict[str, Dict[str, Any]]:
    """The results file as {match key: record} (a later line wins; missing file: empty)."""
    out: Dict[str, Dict[str, Any]] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                out[rec["key"]] = rec
    return out


def play(
    preset: str, players: int, col: Column, deals: int, seed: int, threads: int, ray: Optional[str] = None
) -> Dict[str, Any]:
    """Play one match and return its record (or why the agent cannot play these rules), on the
    Ray cluster ``ray`` when given."""
    from eights import arena
    from eights._core import check_bot_rules

    rec: Dict[str, Any] = {
        "key": match_key(preset, players, col, deals, seed),
        "preset": preset,
        "players": players,
        "agent": col.agent,
        "opponent": col.opponent,
        "deals": deals,
        "seed": seed,
    }
    try:
        check_bot_rules(col.agent, preset, players, None)
    except ValueError as e:
        return {**rec, "skipped": str(e)}
    t = time.perf_counter()
    r = arena.evaluate(
        col.agent, col.opponent, preset=preset, num_players=players, games=deals, seed=seed, threads=threads, ray=ray
    )
    return {
        **rec,
        "win_rate": r.win_rate,
        "low": r.ci[0],
        "high": r.ci[1],
        "games": r.games,
        "no_winner": r.no_winner,
        "truncated": r.truncated,
        "mean_length": r.mean_length,
        "choice_share": r.choice_share,
        "seconds": time.perf_counter() - t,
        "threads": threads,
        "machine": machine() if ray is None else cluster_machine(),
        "version": _VERSION or _version(),
        "date": datetime.date.today().isoformat(),
    }


def plan(
    presets: Sequence[str], columns: Sequence[Column], deals: int, seed: int
) -> List[Tuple[str, int, Column, int]]:
    """Every match of the ladder: the smallest tables first, column by column (the cheap
    columns first), then the 4-player tables."""
    rows = [(p, n, i) for p in presets for i, n in enumerate(tables(p))]
    out = []
    for level in (0, 1):
        for col in columns:
            if level and col.smallest_only:
                continue
            out += [(p, n, col, col.deals or deals) for p, n, i in rows if i == level]
    return out


def run(
    presets: Sequence[str],
    columns: Sequence[Column],
    deals: int,
    seed: int,
    threads: int,
    results: Path,
    log: Any = print,
    ray: Optional[str] = None,
) -> Dict[str, Dict[str, Any]]:
    """Play every match missing from ``results`` (appending each as it finishes), on the Ray
    cluster ``ray`` when given."""
    done = load(results)
    todo = [m for m in plan(presets, columns, deals, seed) if match_key(m[0], m[1], m[2], m[3], seed) not in done]
    log(f"{len(todo)} matches to play, {len(done)} already in {results}")
    results.parent.mkdir(parents=True, exist_ok=True)
    for i, (preset, n, col, d) in enumerate(todo, 1):
        rec = play(preset, n, col, d, seed, threads, ray)
        with results.open("a", encoding="utf-8") as f:
            f.write(json.dumps(rec, sort_keys=True) + "\n")
        done[rec["key"]] = rec
        what = f"skipped ({rec['skipped'][:60]}...)" if "skipped" in rec else _cell(rec)
        log(f"[{i}/{len(todo)}] {preset} {n}p {col.agent} vs {col.opponent}: {what} {rec.get('seconds', 0):.0f}s")
    return done


def _cell(rec: Optional[Dict[str, Any]]) -> str:
    if rec is None:
        return "…"
    if "skipped" in rec:
        return "—"
    return f"{rec['win_rate']:.3f} [{rec['low']:.3f}, {rec['high']:.3f}]"


def _get(
    done: Dict[str, Dict[str, Any]], preset: str, n: int, col: Column, deals: int, seed: int
) -> Optional[Dict[str, Any]]:
    return done.get(match_key(preset, n, col, col.deals or deals, seed))


def _short(rec: Optional[Dict[str, Any]], n: int) -> bool:
    """Whether a cell's interval does not clear the fair share."""
    return rec is not None and "skipped" not in rec and rec["low"] <= 1.0 / n


def _provenance(recs: List[Dict[str, Any]]) -> str:
    """Where and when the matches shown were played, and their thinking time in total."""
    played = [r for r in recs if "seconds" in r]
    if not played:
        return "no match played yet"
    dates = sorted({r["date"] for r in played})
    when = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
    machines = ", ".join(sorted({r["machine"] for r in played}))
    versions = ", ".join(sorted({r["version"] for r in played}))
    threads = ", ".join(str(t) for t in sorted({r["threads"] for r in played}))
    hours = sum(r["seconds"] for r in played) / 3600
    per = "per match" + (" (per task on a Ray cluster)" if "Ray cluster" in machines else "")
    return f"{when}; {machines}; {threads} thread(s) {per}, {hours:.1f} hours in all; eights {versions}"


def render(
    done: Dict[str, Dict[str, Any]],
    presets: Sequence[str],
    columns: Sequence[Column],
    deals: int,
    seed: int,
    command: str,
) -> str:
    """The generated part of docs/baselines.md (without the markers)."""
    choice_col = next((c for c in columns if c.key == CHOICE_FROM), None)
    shown = [
        r
        for p in presets
        for i, n in enumerate(tables(p))
        for c in columns
        if not (i and c.smallest_only) and (r := _get(done, p, n, c, deals, seed))
    ]
    seer_deals = next((c.deals for c in columns if c.smallest_only and c.deals), deals)
    choice_agent = choice_col.agent if choice_col else "?"
    lines = [
        f"Generated by `{command}` ({_provenance(shown)}).",
        "",
        f"Each cell is the first bot's win rate against the second bot in every other seat over {deals:,}",
        f"duplicate deals (seed {seed}; the all-seeing column {seer_deals:,}), with its 95% bootstrap interval",
        "over deals; a game without a winner counts 1/n to every seat. *choice*: the share of decisions",
        f"with more than one legal action, every seat, in the games of the `{choice_agent}` column.",
        "✗: the interval does not clear the fair share (1/n), in any column.",
        "—: the bot does not play these rules. …: not run yet.",
        "",
    ]
    notes: List[str] = []
    others: List[str] = []
    for level, title in ((0, "2 players (or the smallest table a preset allows)"), (1, "4 players")):
        cols = [c for c in columns if not (level and c.smallest_only)]
        head = ["preset", "players", "choice"] + [f"`{c.agent}` vs `{c.opponent}`" for c in cols]
        lines += [f"### {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for p in presets:
            ns = tables(p)
            if level >= len(ns):
                continue
            n = ns[level]
            cr = _get(done, p, n, choice_col, deals, seed) if choice_col else None
            choice = f"{cr['choice_share']:.2f}" if cr and "choice_share" in cr else "…"
            cells = []
            for c in cols:
                rec = _get(done, p, n, c, deals, seed)
                mark = " ✗" if _short(rec, n) else ""
                cells.append(_cell(rec) + mark)
                floor = SEARCH_FLOOR.get(p, 0.0) if level == 0 and c.key == CHOICE_FROM else 0.0
                if (mark and c.target) or (rec and "low" in rec and rec["win_rate"] < floor):
                    notes.append(_note(done, p, n, c, choice, columns, deals, seed, floor))
                elif mark:
                    others.append(f"`{c.agent}` vs `{c.opponent}` on `{p}` ({n} players) {_cell(rec)}")
            lines.append(f"| `{p}` | {n} | {choice} | " + " | ".join(cells) + " |")
        lines.append("")
    targets = ", ".join(f"`{c.agent}` vs `{c.opponent}`" for c in columns if c.target)
    lines += _closing(notes, others, targets, done)
    return "\n".join(lines).rstrip() + "\n"


def _note(done, p: str, n: int, col: Column, choice: str, columns, deals: int, seed: int, floor: float) -> str:
    seer = next((c for c in columns if c.smallest_only), None)
    edge = _get(done, p, n, seer, deals, seed) if seer else None
    rec = _get(done, p, n, col, deals, seed)
    what = f"`{col.agent}` vs `{col.opponent}` {_cell(rec)}"
    if floor:
        what += f" (target {floor:.2f})"
    seen = f"; all-seeing edge {_cell(edge)}" if edge and "low" in edge else ""
    return f"* `{p}` ({n} players): {what}; choice share {choice}{seen}."


def _closing(notes: List[str], others: List[str], targets: str, done: Dict[str, Dict[str, Any]]) -> List[str]:
    out = ["### Where the ladder does not hold", ""]
    if notes:
        out += [
            "Where a bot does not clear the one below it, with how much the rules leave to decide "
            "(the choice share) and how much an all-seeing player gains against `ismcts:400`:",
            "",
        ]
        out += notes
    else:
        out += ["Nowhere: on every preset each target's interval clears the fair share."]
    if others:
        out += [
            "",
            f"Outside the targets ({targets}), intervals that do not clear the fair share: " + "; ".join(others) + ".",
        ]
    blocked = sorted({r["preset"] for r in done.values() if r.get("games") and r["no_winner"] > 0.05 * r["games"]})
    if blocked:
        out += [
            "",
            "Presets where more than 5% of some match's games end without a winner (a game without "
            "one counts 1/n to every seat, which pulls win rates towards the fair share): "
            + ", ".join(f"`{p}`" for p in blocked)
            + ".",
        ]
    return out


def write_doc(path: Path, body: str) -> None:
    """Put ``body`` between the markers of ``path`` (creating the file, or the markers at its
    end, when missing); everything outside the markers is kept."""
    text = path.read_text(encoding="utf-8") if path.is_file() else "# Baselines\n\n"
    block = f"{BEGIN}\n{body}{END}"
    if BEGIN in text and END in text and text.index(BEGIN) < text.index(END):
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def machine() -> str:
    """The machine in words: system, processor model, cores and Python version."""
    cpu = platform.processor() or platform.machine()
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
        cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{platform.system()}, {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def cluster_machine() -> str:
    """The Ray cluster a match ran on, in words: its nodes and CPUs, and the driver's machine."""
    import ray

    nodes = [n for n in ray.nodes() if n.get("Alive")]
    cpus = int(ray.cluster_resources().get("CPU", 0))
    return f"Ray cluster of {len(nodes)} node(s), {cpus} CPUs (driver: {machine()})"


#: The version of the code a run plays, taken once when it starts (see :func:`main`).
_VERSION = ""


def _version() -> str:
    import eights

    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        )
        return f"{eights.__version__} ({rev.stdout.strip()})"
    except (OSError, subprocess.CalledProcessError):
        return eights.__version__


def parse_column(text: str) -> Column:
    """``key=agent,opponent`` (``--column``)."""
    try:
        key, pair = text.split("=", 1)
        agent, opponent = pair.split(",", 1)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--column takes key=agent,opponent (e.g. net2=net2,heuristic), got {text!r}"
        ) from None
    return Column(key.strip(), agent.strip(), opponent.strip())


def main(argv: Optional[Iterable[str]] = None) -> int:
    import eights

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000, help="duplicate deals per match (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="seed of every match (default 0)")
    ap.add_argument("--threads", type=int, default=1, help="threads per match (default 1; results do not depend on it)")
    ap.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="play on a Ray cluster: auto (started here with 'ray start'), local (start one) or host:port",
    )
    ap.add_argument("--presets", default="", help="comma-separated presets (default: all)")
    ap.add_argument(
        "--column", action="append", type=parse_column, default=[], help="an extra column key=agent,opponent"
    )
    ap.add_argument("--results", type=Path, default=RESULTS, help=f"results file (default {RESULTS.relative_to(ROOT)})")
    ap.add_argument("--out", type=Path, default=DOC, help=f"document to write (default {DOC.relative_to(ROOT)})")
    ap.add_argument("--render-only", action="store_true", help="only rewrite the table from the results file")
    ap.add_argument("--only", default="", help="comma-separated column keys to play this time (default: all)")
    ap.add_argument("--short", action="store_true", help="a quick check: 4 deals, crazy_eights and one_left")
    args = ap.parse_args(None if argv is None else list(argv))
    if args.short:
        args.deals, args.presets = 4, args.presets or "crazy_eights,one_left"
        columns = [
            Column(c.key, c.agent, c.opponent, 4 if c.deals else None, c.smallest_only, c.target) for c in COLUMNS
        ]
    else:
        columns = list(COLUMNS)
    columns += args.column
    presets = [p.strip() for p in args.presets.split(",") if p.strip()] or eights.presets()
    unknown = sorted(set(presets) - set(eights.presets()))
    if unknown or args.deals < 1:
        ap.error(f"unknown presets {unknown}" if unknown else "--deals must be at least 1")
    global _VERSION
    _VERSION = _version()  # the commit the run starts from, for every match it plays
    only = {k.strip() for k in args.only.split(",") if k.strip()}
    if only - {c.key for c in columns}:
        ap.error(
            f"--only: unknown columns {sorted(only - {c.key for c in columns})}; known: {[c.key for c in columns]}"
        )
    if args.render_only:
        done = load(args.results)
    else:
        playing = [c for c in columns if not only or c.key in only]
        done = run(presets, playing, args.deals, args.seed, args.threads, args.results, ray=args.ray)
    command = "python scripts/ladder.py" + ("" if args.deals == 1000 else f" --deals {args.deals}")
    command += "" if args.seed == 0 else f" --seed {args.seed}"
    command += "" if args.presets == "" else f" --presets {args.presets}"
    command += "".join(f" --column {c.key}={c.agent},{c.opponent}" for c in args.column)
    write_doc(args.out, render(done, presets, columns, args.deals, args.seed, command))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
