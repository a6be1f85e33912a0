"""``benchmarks/thread_rounds.py --pin-one``: the interrupts each CPU served are read from
``/proc/interrupts`` as the kernel writes it, ``auto`` picks the CPU that served the fewest
among those the process may run on, a bad value is refused naming the option, and a short run
prints the pinned cell's columns; the pinned work gives the thread's CPUs back."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "thread_rounds.py"
_spec = importlib.util.spec_from_file_location("thread_rounds", SCRIPT)
thread_rounds = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(thread_rounds)

#: The head of a 4-CPU machine's /proc/interrupts: sources with a count per CPU, and the
#: summary lines (ERR, MIS) that carry one count for the machine.
INTERRUPTS = """\
           CPU0       CPU1       CPU2       CPU3
  0:         44          0          0          0  IR-IO-APIC    2-edge      timer
 24:          5     900000         10          7  PCI-MSI 65536-edge      virtio0-input.0
LOC:     120000     110000      90000     130000   Local timer interrupts
RES:        300        200        100        400   Rescheduling interrupts
ERR:          0
MIS:          0
"""


def test_interrupts_are_summed_per_cpu_from_the_kernels_table():
    assert thread_rounds.interrupts_per_cpu(INTERRUPTS) == {
        0: 44 + 5 + 120000 + 300,
        1: 900000 + 110000 + 200,
        2: 10 + 90000 + 100,
        3: 7 + 130000 + 400,
    }


def test_auto_picks_the_quietest_cpu_the_process_may_use():
    assert thread_rounds.quietest_cpu(INTERRUPTS, {0, 1, 2, 3}) == 2
    assert thread_rounds.quietest_cpu(INTERRUPTS, {1, 3}) == 3
    assert thread_rounds.quietest_cpu(INTERRUPTS, {1, 7}) == 1
    with pytest.raises(ValueError, match="--pin-one auto"):
        thread_rounds.quietest_cpu(INTERRUPTS, {8, 9})


def test_bad_pin_values_are_refused_naming_the_option(capsys):
    allowed = os.sched_getaffinity(0)
    assert thread_rounds.pin_arg("none", allowed) is None
    assert thread_rounds.pin_arg(str(min(allowed)), allowed) == min(allowed)
    for bad in ("-1", "x", str(max(allowed) + 1000)):
        with pytest.raises(ValueError, match="--pin-one: 'none', 'auto' or one of the CPUs"):
            thread_rounds.pin_arg(bad, allowed)
    with pytest.raises(SystemExit):
        thread_rounds.main(["--pin-one", "x", "--rounds", "1"])
    assert "--pin-one" in capsys.readouterr().err


def test_on_cpu_holds_the_work_there_and_gives_the_cpus_back():
    before = os.sched_getaffinity(0)
    cpu = max(before)
    assert thread_rounds.on_cpu(cpu, lambda: os.sched_getaffinity(0)) == {cpu}
    assert os.sched_getaffinity(0) == before
    with pytest.raises(ZeroDivisionError):
        thread_rounds.on_cpu(cpu, lambda: 1 / 0)
    assert os.sched_getaffinity(0) == before


def test_a_short_run_prints_the_pinned_columns():
    cpu = min(os.sched_getaffinity(0))
    argv = [
        "--rounds",
        "2",
        "--seconds",
        "0.02",
        "--threads",
        "2",
        "--rows",
        "self-play, b=4096",
        "--pin-one",
        str(cpu),
    ]
    out = subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, check=True).stdout
    head = next(line for line in out.splitlines() if line.startswith("| row |"))
    assert head.endswith(f"| 1 thread on CPU {cpu} | 2 / 1 on CPU {cpu}, per round |")
    row = next(line for line in out.splitlines() if line.startswith("| self-play, b=4096 |"))
    assert row.count("|") == head.count("|")
