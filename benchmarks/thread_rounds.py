"""One thread against all of them, round by round: the thread sweep's 16 / 1 rows with a ratio
per round instead of best against best.

A round times each row at 1 thread and at ``--threads`` (the machine's cores by default), one
right after the other, and gives the ratio of the two; the order flips every other round. On a
shared or virtual machine the one-thread cell moves by a third from minute to minute, and a
ratio of two best cells taken minutes apart moves with it: the median of the per-round ratios,
with its range, is the steadier figure.

``--pin-one CPU`` (or ``auto``: the CPU that has served the fewest interrupts, from
``/proc/interrupts``, chosen before any timing) adds a third cell to each round: the one-thread
work held on that CPU. Where a few CPUs serve most of a host's interrupts and run a thread
slower, the unpinned one-thread cell lands on them now and then; the pinned cell does not,
and its ratio is the one to read beside the plain one.

    python benchmarks/thread_rounds.py --rounds 8 --seconds 0.8
    python benchmarks/thread_rounds.py --rounds 8 --seconds 0.8 --pin-one auto
"""

import argparse
import functools
import os
import statistics
from typing import Callable, Dict, Optional, TypeVar


def _throughput():
    """``benchmarks/throughput.py``, the rows' code (imported when a row runs, so the helpers
    below load without it)."""
    import throughput

    return throughput


ROWS = {
    "self-play, b=4096": lambda s, t: _throughput().eights_vec("crazy_eights", 2, s, 4096, t),
    "self-play, b=16384": lambda s, t: _throughput().eights_vec("crazy_eights", 2, s, 16384, t),
    "learner vs heuristic, b=16384": lambda s, t: _throughput().eights_vec_bots("crazy_eights", 2, s, 16384, t),
    "arena net vs heuristic, games=1000": lambda s, t: _throughput().arena_net("crazy_eights", 2, s, 1000, t),
}


R = TypeVar("R")


def interrupts_per_cpu(text: str) -> Dict[int, int]:
    """Interrupts served by each CPU, from the text of ``/proc/interrupts`` (a header of CPU
    names, then a line per source with a count per CPU)."""
    lines = text.splitlines()
    cpus = [int(c[3:]) for c in lines[0].split() if c.startswith("CPU")]
    total = dict.fromkeys(cpus, 0)
    for line in lines[1:]:
        counts = line.split()[1 : 1 + len(cpus)]
        if len(counts) == len(cpus) and all(c.isdigit() for c in counts):
            for cpu, c in zip(cpus, counts):
                total[cpu] += int(c)
    return total


def quietest_cpu(text: str, allowed) -> int:
    """The CPU among ``allowed`` that has served the fewest interrupts (the lowest on a tie)."""
    served = interrupts_per_cpu(text)
    choice = [c for c in sorted(allowed) if c in served]
    if not choice:
        raise ValueError("--pin-one auto: /proc/interrupts names none of the CPUs this process may run on")
    return min(choice, key=lambda c: (served[c], c))


def on_cpu(cpu: int, work: Callable[[], R]) -> R:
    """``work()`` with this thread held on ``cpu`` (threads it starts inherit that), then the
    thread's CPUs as they were."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        return work()
    finally:
        os.sched_setaffinity(0, before)


def pin_arg(value: str, allowed) -> Optional[int]:
    """``--pin-one``: ``none``, ``auto`` or a CPU this process may run on."""
    if value == "none":
        return None
    if value == "auto":
        with open("/proc/interrupts") as f:
            return quietest_cpu(f.read(), allowed)
    if not value.isdigit() or int(value) not in allowed:
        raise ValueError(f"--pin-one: 'none', 'auto' or one of the CPUs {sorted(allowed)}, got {value!r}")
    return int(value)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=0.8, help="measuring time a cell")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="the many-thread count")
    ap.add_argument("--rows", nargs="*", default=list(ROWS), help=f"rows to run (default: all of {list(ROWS)})")
    ap.add_argument("--pin-one", default="none", help="none, auto or a CPU: a third cell, one thread held there")
    args = ap.parse_args(argv)
    unknown = [r for r in args.rows if r not in ROWS]
    if unknown:
        ap.error(f"--rows: unknown {unknown}; known: {list(ROWS)}")
    if args.rounds < 1 or args.threads < 2 or args.seconds <= 0:
        ap.error("--rounds must be at least 1, --threads at least 2 and --seconds above 0")
    try:
        pin = pin_arg(args.pin_one, os.sched_getaffinity(0))
    except (OSError, ValueError) as exc:
        ap.error(str(exc))
    many = args.threads
    kinds = [1, "pinned", many] if pin is not None else [1, many]
    if pin is not None:
        print(f"one-thread work also held on CPU {pin}", flush=True)
    cells = {}
    for k in range(args.rounds):
        for name in args.rows:
            for t in kinds if k % 2 == 0 else kinds[::-1]:
                if t == "pinned":
                    rate = on_cpu(pin, functools.partial(ROWS[name], args.seconds, 1))
                else:
                    rate = ROWS[name](args.seconds, t)
                cells.setdefault((name, t), []).append(rate)
        print(f"round {k + 1} of {args.rounds} done", flush=True)

    def spread(xs, scale=1e6):
        return f"{statistics.median(xs) / scale:.2f} M ({min(xs) / scale:.2f} to {max(xs) / scale:.2f})"

    def per_round(one, all_):
        ratios = [b / a for a, b in zip(one, all_)]
        return f"{statistics.median(ratios):.2f} ({min(ratios):.2f} to {max(ratios):.2f})"

    head = f"{args.rounds} rounds, {args.seconds} s a cell, {os.cpu_count()} cores"
    print(f"\n{head}; decisions a second, median (range):")
    extra = f" 1 thread on CPU {pin} | {many} / 1 on CPU {pin}, per round |" if pin is not None else ""
    print(f"| row | 1 thread | {many} threads | {many} / 1, per round | best / best |{extra}")
    print("|---|---|---|---|---|" + ("---|---|" if pin is not None else ""))
    for name in args.rows:
        one, all_ = cells[name, 1], cells[name, many]
        line = f"| {name} | {spread(one)} | {spread(all_)} | {per_round(one, all_)} | {max(all_) / max(one):.2f} |"
        if pin is not None:
            line += f" {spread(cells[name, 'pinned'])} | {per_round(cells[name, 'pinned'], all_)} |"
        print(line)


if __name__ == "__main__":
    main()
