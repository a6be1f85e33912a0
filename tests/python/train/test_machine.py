"""How ``eights train`` picks its threads (:func:`eights.train.machine.pick_threads`): the
given counts kept, one PyTorch thread beside a GPU, and on a machine of up to 2 cores PyTorch
on every core only when nothing else runs as the run starts (read from the cores busy now, not
the lagging load average)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")

from eights.train import machine  # noqa: E402


@pytest.mark.parametrize(
    "cores,idle,device,want",
    [
        (2, True, "cpu", (1, 2)),  # an idle 2-core machine: the update on both cores
        (2, False, "cpu", (1, 1)),  # a busy one: a second thread would fight the other work
        (1, True, "cpu", (1, 1)),
        (16, False, "cpu", (8, 8)),
        (16, True, "cuda", (8, 1)),  # beside a GPU PyTorch only launches the kernels
    ],
)
def test_threads_follow_the_cores_and_the_load(monkeypatch, cores, idle, device, want):
    monkeypatch.setattr(machine, "cores", lambda: cores)
    monkeypatch.setattr(machine, "idle", lambda: idle)
    assert machine.pick_threads(None, None, device) == want
    assert machine.pick_threads(3, 5, device) == (3, 5)


def test_idle_reads_the_cores_busy_now(monkeypatch):
    # Two readings of /proc/stat a quarter of a second apart: (idle, total) ticks.
    monkeypatch.setattr(machine.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(machine.time, "sleep", lambda s: None)
    monkeypatch.setattr(machine.os, "getloadavg", lambda: (5.0, 5.0, 5.0))  # lags: not read

    def readings(*pairs):
        it = iter(pairs)
        monkeypatch.setattr(machine, "_cpu_times", lambda: next(it))

    readings((1000, 2000), (1045, 2050))  # 45 of 50 ticks idle: 0.2 of 2 cores busy
    assert machine.busy_cores() == pytest.approx(0.2)
    readings((1000, 2000), (1045, 2050))
    assert machine.idle()
    readings((1000, 2000), (1020, 2050))  # 20 of 50 idle: 1.2 cores busy
    assert not machine.idle()


def test_idle_falls_back_to_the_load_average(monkeypatch):
    def no_proc_stat():
        raise OSError("no /proc/stat here")

    monkeypatch.setattr(machine, "_cpu_times", no_proc_stat)
    assert machine.busy_cores() is None
    monkeypatch.setattr(machine.os, "getloadavg", lambda: (0.2, 3.0, 3.0))
    assert machine.idle()
    monkeypatch.setattr(machine.os, "getloadavg", lambda: (1.5, 0.1, 0.1))
    assert not machine.idle()

    def unknown():
        raise OSError("no load average here")

    monkeypatch.setattr(machine.os, "getloadavg", unknown)
    assert not machine.idle()


def test_proc_stat_is_read_where_there_is_one():
    try:
        idle, total = machine._cpu_times()
    except OSError:
        pytest.skip("no /proc/stat on this system")
    assert 0 <= idle <= total


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, 2000])
def test_bad_thread_counts_are_named(bad):
    with pytest.raises(ValueError, match=r"env_threads must be an integer in \[1, 1024\]"):
        machine.pick_threads(bad, 1, "cpu")
    with pytest.raises(ValueError, match=r"torch_threads must be an integer in \[1, 1024\]"):
        machine.pick_threads(1, bad, "cpu")
