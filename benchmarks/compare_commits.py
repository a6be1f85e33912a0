"""Two commits built side by side and timed alternately, so a loss of speed shows before it lands.

    python benchmarks/compare_commits.py 41b16da               # 41b16da against HEAD
    python benchmarks/compare_commits.py main WORKTREE         # uncommitted changes against main
    python benchmarks/compare_commits.py 41b16da HEAD --rounds 5 --seconds 3
    python benchmarks/compare_commits.py 41b16da --instructions  # and instruction counts (valgrind)
    python benchmarks/compare_commits.py 41b16da --cache --rounds 0  # and cache misses (cachegrind)

Each commit is exported with ``git archive`` into a folder of its own under ``--dir`` (default
``target/compare_commits/<commit>``), built there with ``maturin build --release`` into its own
Cargo target directory, and its wheel unpacked beside it; a second run over the same commit
builds nothing. ``WORKTREE`` stands for the checkout's tracked files as they are now (a commit
object made by ``git stash create``, which touches neither the index nor the working tree).

Then ``--rounds`` rounds, each timing every row for build A and then for build B (A B A B ...),
every measurement in a fresh Python process that imports that build's ``eights``. A moment of
load on a shared machine lowers a pair, not a build: the script prints each round's figures and
the ratio B/A of the pair, then the median over the rounds. The rows, as in
``benchmarks/throughput.py`` (the same loops, decisions per second):

* ``engine``: ``eights.random_selfplay`` (the whole loop in Rust, one thread);
* ``vec b=4096 threads=2`` and ``threads=1``: ``VecEnv(self_play=True)`` stepped with
  ``random_actions()``, float32 observations, bool masks;
* ``net``: the ``net`` bot's decisions against ``heuristic``, one thread, as ``python -m eights
  botspeed`` times them (the time inside the bot's calls, the arena batching its games);
* ``OpenSpiel C++``: ``pyspiel.evaluate_bots`` with uniform random bots, once per round
  (skipped when ``pyspiel`` is missing, or with ``--no-openspiel``), the baseline of the
  VecEnv ratio the speed targets name.

``--instructions`` also builds ``examples/profile_loop.rs`` in each tree and counts the
instructions of a fixed amount of engine, VecEnv and ``net`` work under ``valgrind --tool=callgrind``:
a count does not move with the machine's load, so it shows a change of a percent or two that
wall-clock timing on a busy machine cannot (``callgrind_annotate`` on the files it leaves in
the build folders says where the instructions went).

``--cache`` runs the same fixed work under ``valgrind --tool=cachegrind`` with its cache and
branch simulation instead, and reports next to the instructions the data reads and writes,
the simulated first-level data cache misses, the last-level misses and the mispredicted
branches (each less the same command with no work). The simulated caches have a fixed
geometry (``CACHE_GEOMETRY``: a 48 KiB 12-way data cache and a 1 MiB 16-way last level, a
core's L1d and L2 on the machine the figures in ``docs/speed_across_commits.md`` come from;
a 4,096-game batch, about 8 MiB of game state, fits in neither), so the counts are the same
on any machine and under any load. The simulation ignores prefetch hints and the hardware
prefetchers: a miss it counts is a cache line the work touched and had not touched recently,
which is what a smaller or better ordered game state saves.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve()
ROWS = ("engine", "vec b=4096 threads=2", "vec b=4096 threads=1", "net")
# The fixed work counted under valgrind (profile_loop's first argument) and its label.
FIXED_WORK = (
    ("engine", "engine, 200,000 decisions"),
    ("vec", "VecEnv b=4096, 30 steps, 1 thread"),
    ("net", "net, 256 games x 200 passes"),
)
# cachegrind's simulated caches (size, associativity, line size): see the module docstring.
CACHE_GEOMETRY = ["--I1=32768,8,64", "--D1=49152,12,64", "--LL=1048576,16,64"]
# The cachegrind summary lines read, and the figures reported from them.
CACHE_EVENTS = (
    "instructions",
    "data reads",
    "data writes",
    "D1 read misses",
    "D1 write misses",
    "LL read misses",
    "LL write misses",
    "mispredicts",
)


# ----- the measurements, run in a child process with one build's eights on its path ---------


def timed(fn, seconds):
    """Call ``fn()`` (returning decisions done) until ``seconds`` pass; return decisions/s."""
    fn()  # warm-up
    done, start = 0, time.perf_counter()
    while True:
        done += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def engine_rate(preset, players, seconds):
    import eights

    games = 500
    stats = eights.random_selfplay(preset, players, games=games, seed=1)  # warm-up and calibration
    games = max(500, int(games * seconds / max(stats["seconds"], 1e-6)))
    stats = eights.random_selfplay(preset, players, games=games, seed=2)
    return stats["decisions"] / stats["seconds"]


def vec_rate(preset, players, seconds, num_envs, threads):
    import eights

    env = eights.VecEnv(preset, num_envs, num_players=players, self_play=True, num_threads=threads, seed=0)
    env.reset()
    steps = max(1, 20000 // num_envs)

    def chunk():
        for _ in range(steps):
            env.step(env.random_actions())
        return steps * num_envs

    return timed(chunk, seconds)


def net_rate(preset, players, seconds):
    """The ``net`` bot's decisions/s against ``heuristic`` (one thread), as ``botspeed`` counts
    them: the seconds spent inside the bot's calls."""
    from eights import arena

    dec, sec, seed = 0.0, 0.0, 0
    arena.play(["net"] + ["heuristic"] * (players - 1), preset, 20, 0, threads=1)  # warm-up
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or dec == 0:
        seed += 1
        res = arena.play(["net"] + ["heuristic"] * (players - 1), preset, 200, seed, threads=1)
        dec += float(res["agent_decisions"][0])
        sec += float(res["agent_seconds"][0])
    return dec / sec


def openspiel_rate(players, seconds):
    """OpenSpiel's all-C++ loop in decisions/s: games/s of ``evaluate_bots`` times the decisions
    per game of the same game and policy played in Python (as ``throughput.py`` counts them)."""
    import random

    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(0)
    decisions, games = 0, 200
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(players)]
    seed = [0]

    def chunk():
        for _ in range(20):
            seed[0] += 1
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed[0])
        return 20

    return timed(chunk, seconds) * decisions / games


def worker(args):
    """Measure one row and print it as JSON (the child process's side)."""
    out = {}
    if args.row == "openspiel":
        out["rate"] = openspiel_rate(args.players, args.seconds)
    else:
        import eights

        out["eights"] = eights.__file__
        if args.row == "engine":
            out["rate"] = engine_rate(args.preset, args.players, args.seconds)
        elif args.row == "net":
            out["rate"] = net_rate(args.preset, args.players, args.seconds)
        else:
            threads = int(args.row.rsplit("=", 1)[1])
            out["rate"] = vec_rate(args.preset, args.players, args.seconds, 4096, threads)
    print(json.dumps(out))


# ----- builds -----------------------------------------------------------------------------------


def git(*argv, cwd, data=False):
    r = subprocess.run(["git", *argv], cwd=cwd, capture_output=True, check=True)
    return r.stdout if data else r.stdout.decode().strip()


def resolve(rev, repo):
    """The commit a revision names; ``WORKTREE``: the tracked files as they are now."""
    if rev == "WORKTREE":
        return git("stash", "create", cwd=repo) or git("rev-parse", "HEAD^{commit}", cwd=repo)
    return git("rev-parse", f"{rev}^{{commit}}", cwd=repo)


def build(sha, repo, root, instructions):
    """Export and build `sha` under `root/<sha>`; return that folder (kept between runs)."""
    home = root / sha[:12]
    src, site = home / "src", home / "site"
    env = dict(os.environ, CARGO_TARGET_DIR=str(home / "target"))
    if not (src / "Cargo.toml").exists():
        src.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(git("archive", sha, cwd=repo, data=True))) as tar:
            if hasattr(tarfile, "data_filter"):  # Python 3.12, and 3.8-3.11 security releases
                tar.extractall(src, filter="data")
            else:
                tar.extractall(src)  # our own repository's files
    if not (site / "eights").is_dir():
        print(f"building {sha[:12]} (maturin build --release) in {home}", flush=True)
        wheels = home / "wheel"
        subprocess.run(["maturin", "build", "--release", "--out", str(wheels)], cwd=src, env=env, check=True)
        (wheel,) = sorted(wheels.glob("*.whl"))
        with zipfile.ZipFile(wheel) as z:
            z.extractall(site)
    loop = home / "target" / "release" / "examples" / "profile_loop"
    if instructions and not loop.exists():
        print(f"building {sha[:12]} examples/profile_loop.rs", flush=True)
        cmd = ["cargo", "build", "--release", "--example", "profile_loop"]
        subprocess.run(cmd, cwd=src, env=env, check=True)
    return home


def measure(home, row, args):
    """One row of one build, in a fresh process; decisions/s."""
    env = dict(os.environ)
    if home is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(home / "site"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    cmd = [sys.executable, str(HERE), "--worker", row, "--preset", args.preset]
    cmd += ["--players", str(args.players), "--seconds", str(args.seconds)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    out = json.loads(r.stdout.strip().splitlines()[-1])
    if home is not None and not Path(out["eights"]).resolve().is_relative_to((home / "site").resolve()):
        sys.exit(f"the child imported {out['eights']}, not the build in {home}")
    return out["rate"]


def fixed_work(what, args):
    """The profile_loop arguments of a fixed amount of work and of the same command with none."""
    table = [args.preset, str(args.players)]
    return {
        "engine": (["engine", *table, "200000"], ["engine", *table, "0"]),
        "vec": (["vec", *table, "4096", "30", "1"], ["vec", *table, "4096", "0", "1"]),
        "net": (["net", *table, "256", "200"], ["net", *table, "256", "0"]),
    }[what]


def instruction_count(home, what, args):
    """Instructions of a fixed amount of work (profile_loop) under callgrind, less those of the
    same command with no work (loading the rules, building the batch)."""
    loop = home / "target" / "release" / "examples" / "profile_loop"

    def count(work, out):
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(loop), *work]
        r = subprocess.run(cmd, capture_output=True, text=True, check=True)
        refs = [line for line in r.stderr.splitlines() if "refs:" in line]
        return int(refs[-1].split("refs:")[1].replace(",", "").strip())

    work, idle = fixed_work(what, args)
    return count(work, home / f"callgrind.{what}.out") - count(idle, os.devnull)


def cachegrind_summary(stderr):
    """The figures of ``CACHE_EVENTS`` from cachegrind's summary (``==pid== D1  misses: ...``)."""
    lines = {}
    for line in stderr.splitlines():
        body = line.split("==", 2)[-1].strip()
        if ":" in body:
            key, _, value = body.partition(":")
            lines[" ".join(key.split())] = value

    def split(key):
        # "46,362,280  (29,722,538 rd   + 16,639,742 wr)" -> total, rd, wr
        words = lines[key].replace("(", " ").replace("+", " ").split()
        nums = [int(x.replace(",", "")) for x in words if x[0].isdigit()]
        return nums + [0] * (3 - len(nums))

    _, dr, dw = split("D refs")
    _, d1r, d1w = split("D1 misses")
    _, llr, llw = split("LLd misses")
    mis = split("Mispredicts")[0]
    return dict(zip(CACHE_EVENTS, (split("I refs")[0], dr, dw, d1r, d1w, llr, llw, mis)))


def cache_counts(home, what, args):
    """``CACHE_EVENTS`` of a fixed amount of work under cachegrind's cache and branch
    simulation, less those of the same command with no work."""
    loop = home / "target" / "release" / "examples" / "profile_loop"

    def count(work, out):
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes", *CACHE_GEOMETRY]
        cmd += [f"--cachegrind-out-file={out}", str(loop), *work]
        r = subprocess.run(cmd, capture_output=True, text=True, check=True)
        return cachegrind_summary(r.stderr)

    work, idle = fixed_work(what, args)
    a, b = count(work, home / f"cachegrind.{what}.out"), count(idle, os.devnull)
    return {k: a[k] - b[k] for k in CACHE_EVENTS}


# ----- the comparison ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", nargs="?", help="the baseline commit (any git revision)")
    ap.add_argument("b", nargs="?", default="HEAD", help="the commit compared with it (default HEAD; WORKTREE)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of A B timings (default 3)")
    ap.add_argument("--seconds", type=float, default=2.0, help="measuring time per row and build (default 2)")
    ap.add_argument("--preset", default="crazy_eights")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--dir", type=Path, help="build folder (default target/compare_commits in the checkout)")
    ap.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel C++ row")
    ap.add_argument("--instructions", action="store_true", help="also count instructions under callgrind")
    ap.add_argument("--cache", action="store_true", help="also count cache misses and mispredicts (cachegrind)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        args.row = args.worker
        worker(args)
        return
    if not args.a:
        ap.error("name the baseline commit")
    repo = Path(git("rev-parse", "--show-toplevel", cwd=HERE.parent))
    root = (args.dir or repo / "target" / "compare_commits").resolve()
    shas = [resolve(args.a, repo), resolve(args.b, repo)]
    names = [f"A {args.a} ({shas[0][:9]})", f"B {args.b} ({shas[1][:9]})"]
    homes = [build(sha, repo, root, args.instructions or args.cache) for sha in shas]
    print(f"\n{names[0]}\n{names[1]}")
    print(f"{args.preset}, {args.players} players, {args.seconds:g} s per row, {args.rounds} rounds of A then B")

    if args.instructions:
        print("\ninstructions for a fixed amount of work (callgrind; the same command with no work subtracted)")
        for what, label in FIXED_WORK:
            a, b = (instruction_count(h, what, args) for h in homes)
            print(f"  {label:<36} A {a:>14,}  B {b:>14,}  B/A {b / a:.4f}")

    if args.cache:
        geometry = " ".join(CACHE_GEOMETRY)
        print(f"\ncachegrind, simulated caches {geometry} (the same command with no work subtracted)")
        for what, label in FIXED_WORK:
            a, b = (cache_counts(h, what, args) for h in homes)
            print(f"  {label}")
            for k in CACHE_EVENTS:
                ratio = f"{b[k] / a[k]:.4f}" if a[k] else "-"
                print(f"    {k:<18} A {a[k]:>14,}  B {b[k]:>14,}  B/A {ratio}")

    openspiel = not args.no_openspiel
    if openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("(pyspiel is not installed: no OpenSpiel row; pip install open_spiel)")
            openspiel = False
    figures = {row: ([], []) for row in ROWS}
    base = []
    for r in range(args.rounds):
        print(f"\nround {r + 1} of {args.rounds}", flush=True)
        if openspiel:
            base.append(measure(None, "openspiel", args))
            print(f"  {'OpenSpiel C++ evaluate_bots':<24} {base[-1] / 1e6:8.2f} M/s", flush=True)
        for row in ROWS:
            a = measure(homes[0], row, args)
            b = measure(homes[1], row, args)
            figures[row][0].append(a)
            figures[row][1].append(b)
            print(f"  {row:<24} A {a / 1e6:8.2f} M/s  B {b / 1e6:8.2f} M/s  B/A {b / a:.3f}", flush=True)

    if args.rounds < 1:
        return
    print("\nsummary (decisions/s; each build's median over the rounds; the median of the pair ratios)")
    for row in ROWS:
        a, b = figures[row]
        ratios = [y / x for x, y in zip(a, b)]
        line = f"  {row:<24} A {statistics.median(a) / 1e6:8.2f} M  B {statistics.median(b) / 1e6:8.2f} M"
        line += f"  B/A {statistics.median(ratios):.3f} (rounds {min(ratios):.3f}-{max(ratios):.3f})"
        print(line)
    if base:
        print(f"  {'OpenSpiel C++':<24} {statistics.median(base) / 1e6:8.2f} M")
        for row in ROWS[1:2]:
            a, b = figures[row]
            ra = statistics.median(x / y for x, y in zip(a, base))
            rb = statistics.median(x / y for x, y in zip(b, base))
            print(f"  {row} / OpenSpiel C++ (pair by pair, median): A {ra:.2f}x  B {rb:.2f}x")


if __name__ == "__main__":
    main()
