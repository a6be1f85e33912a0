"""``benchmarks/throughput.py --thread-sweep --json`` and ``benchmarks/plot_thread_sweep.py``:
the sweep's cells written as JSON, read back and drawn; a file that is no sweep is refused
naming what it lacks; the committed figure is the one its committed data draw."""

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[3]


def _module(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


throughput = _module("throughput")
plot_thread_sweep = _module("plot_thread_sweep")


def test_the_sweep_writes_its_cells_and_the_plot_reads_them(tmp_path, monkeypatch):
    # Each row's rate grows with the threads in a known way (no timing: the measurements are
    # stubbed), so the file's cells can be checked one by one.
    monkeypatch.setattr(throughput, "eights_vec_bots", lambda p, n, s, b, t, obs_rules=False: 100.0 * t)
    monkeypatch.setattr(throughput, "eights_vec", lambda p, n, s, b, t: 200.0 * t + b)
    monkeypatch.setattr(throughput, "eights_vec_dtype", lambda p, n, s, b, t, d: 300.0 * t)
    monkeypatch.setattr(throughput, "arena_vs_heuristic", lambda bot, p, n, s, deals, t: 50.0 * t)
    out = tmp_path / "sweep.json"
    throughput.thread_sweep("crazy_eights", 2, 0.1, 1, 3, json_path=str(out))
    record = json.loads(out.read_text())
    assert record["threads"] == [1, 2, 3]
    assert record["rows"]["learner vs heuristic, b=16384"] == [100.0, 200.0, 300.0]
    assert record["rows"]["self-play, b=4096"] == [4296.0, 4496.0, 4696.0]
    assert len(record["rows"]) == 8 and record["preset"] == "crazy_eights" and record["players"] == 2
    picture = tmp_path / "sweep.svg"
    assert plot_thread_sweep.main([str(out), str(picture)]) == 0
    assert picture.read_text().startswith("<?xml")


@pytest.mark.parametrize(
    "record, says",
    [
        ({"rows": {"a": [1.0]}}, "needs 'threads' starting at 1"),
        ({"threads": [2, 4], "rows": {"a": [1.0, 2.0]}}, "needs 'threads' starting at 1"),
        ({"threads": [1, 2], "rows": {"a": [1.0]}}, "row 'a' needs 2 positive cells"),
        ({"threads": [1, 2], "rows": {"a": [1.0, 0.0]}}, "row 'a' needs 2 positive cells"),
    ],
)
def test_a_file_that_is_no_sweep_is_refused_naming_what_it_lacks(tmp_path, capsys, record, says):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert plot_thread_sweep.main([str(path), str(tmp_path / "x.svg")]) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()


def test_the_committed_figure_is_drawn_from_the_committed_sweep(tmp_path):
    picture = tmp_path / "sweep.svg"
    plot_thread_sweep.main([str(ROOT / "benchmarks" / "results" / "thread_sweep_16_cores.json"), str(picture)])
    committed = ROOT / "docs" / "figures" / "thread_sweep_16_cores.svg"
    if picture.read_bytes() != committed.read_bytes():
        # Another matplotlib draws other bytes: compare what the picture shows, its text.
        import re

        texts = [re.findall(r"<!-- (.*?) -->", p.read_text()) for p in (picture, committed)]
        assert len(texts[1]) > 20 and texts[0] == texts[1]
