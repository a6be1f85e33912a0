"""Every output path of every command (``--out``, ``--record``, ``--json``, ``--plot``, the
checkpoint folder) is checked before the work starts: a missing folder, a folder where a file
is wanted, a file where a folder is wanted, an unwritable place, a chart format matplotlib
does not write, or two outputs on one path exit 2 with one line naming the flag and the path,
before anything is played or trained, and write nothing."""

from __future__ import annotations

import json
import os
import time

import pytest

from eights._utils.outputs import file_problem, folder_problem
from eights.cli import main

#: A folder no process can create files in, root included.
UNWRITABLE = "/proc" if os.path.isdir("/proc/self") else None


def _refused(capsys, argv, flag, path, what):
    """``main(argv)`` exits 2 at once with ``flag path: ...what...`` and prints no results."""
    start = time.perf_counter()
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert f"{flag} {path}: " in err and what in err, err
    assert "Traceback" not in err and "saved" not in out and "rating" not in out.lower(), out
    assert time.perf_counter() - start < 20


def _bad_files(tmp_path, ext=".json"):
    """(path, what the error says) for each bad place of a file."""
    a_file = tmp_path / "a_file.txt"
    a_file.write_text("x")
    (tmp_path / f"folder{ext}").mkdir(exist_ok=True)
    cases = [
        (str(tmp_path / "missing" / f"r{ext}"), "does not exist"),
        (str(tmp_path / f"folder{ext}"), "is a folder"),
        (str(a_file / f"r{ext}"), "is not a folder"),
    ]
    if UNWRITABLE:
        cases.append((f"{UNWRITABLE}/r{ext}", "not writable"))
    return cases


ARENA = ["arena", "--agents", "random,heuristic", "--games", "200", "--no-progress", "--bootstrap", "100"]


def test_arena_out_is_checked_before_the_tournament(tmp_path, capsys):
    for path, what in _bad_files(tmp_path):
        _refused(capsys, ARENA + ["--out", path], "--out", path, what)
    good = str(tmp_path / "r.json")
    later = str(tmp_path / "missing" / "r.csv")
    _refused(capsys, ARENA + ["--out", good, "--out", later], "--out", later, "does not exist")
    assert not os.path.exists(good)  # nothing written when a later output is bad
    _refused(capsys, ARENA + ["--out", good, "--out", good], "--out", good, "the same path")


def test_arena_record_is_checked_before_the_tournament(tmp_path, capsys):
    a_file = tmp_path / "taken"
    a_file.write_text("keep me")
    _refused(capsys, ARENA + ["--record", str(a_file)], "--record", str(a_file), "is a file, not a folder")
    assert a_file.read_text() == "keep me"
    nested = a_file / "sub"
    _refused(capsys, ARENA + ["--record", str(nested)], "--record", str(nested), "is a file, not a folder")
    if UNWRITABLE:
        _refused(capsys, ARENA + ["--record", f"{UNWRITABLE}/rec"], "--record", f"{UNWRITABLE}/rec", "not writable")


def test_arena_plot_is_checked_before_the_tournament(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    for path, what in _bad_files(tmp_path, ".png"):
        _refused(capsys, ARENA + ["--plot", path], "--plot", path, what)
    bad = str(tmp_path / "chart.xyz")
    _refused(capsys, ARENA + ["--plot", bad], "--plot", bad, "matplotlib cannot write .xyz charts")


def test_arena_writes_every_output_to_good_paths(tmp_path, capsys):
    out, csv_out, rec = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "new" / "records"
    argv = ["arena", "--agents", "random,heuristic", "--games", "2", "--no-progress", "--bootstrap", "100"]
    assert main(argv + ["--out", str(out), "--out", str(csv_out), "--record", str(rec)]) == 0
    assert json.loads(out.read_text())["agents"] and csv_out.read_text().startswith("preset,")
    assert len(list(rec.glob("episode_*.json"))) == 4  # 2 deals, seats rotated


GENERALIZE = ["generalize", "--agent", "random", "--games", "50", "--no-progress"]


def test_generalize_outputs_are_checked_before_the_run(tmp_path, capsys):
    for path, what in _bad_files(tmp_path):
        _refused(capsys, GENERALIZE + ["--out", path], "--out", path, what)
    if pytest.importorskip("matplotlib"):
        for path, what in _bad_files(tmp_path, ".png"):
            _refused(capsys, GENERALIZE + ["--plot", path], "--plot", path, what)
        out = str(tmp_path / "same.png")
        _refused(capsys, GENERALIZE + ["--out", out, "--plot", out], "--plot", out, "the same path")


def test_exploit_outputs_are_checked_before_training(tmp_path, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    exploit = ["exploit", "--agent", "random", "--decisions", "100000", "--no-progress"]
    for path, what in _bad_files(tmp_path):
        _refused(capsys, exploit + ["--json", path], "--json", path, what)
    for path, what in _bad_files(tmp_path, ".svg"):
        _refused(capsys, exploit + ["--plot", path], "--plot", path, what)
    a_file = tmp_path / "a_file.txt"
    _refused(capsys, exploit + ["--out", str(a_file)], "--out", str(a_file), "is a file, not a folder")
    _refused(capsys, exploit + ["--out", str(a_file / "run")], "--out", str(a_file / "run"), "is a file")
    assert a_file.read_text() == "x"


def test_the_checks_themselves(tmp_path):
    assert file_problem(str(tmp_path / "new.json")) is None
    assert folder_problem(str(tmp_path / "a" / "b" / "c")) is None  # created with its parents
    (tmp_path / "f").write_text("")
    assert file_problem(str(tmp_path / "f")) is None  # an existing file is overwritten
    assert "is a file" in folder_problem(str(tmp_path / "f"))
    assert file_problem("") == "an empty path" and folder_problem("") == "an empty path"


def test_a_missing_root_ends_the_search_for_a_parent(monkeypatch):
    # On Windows a missing drive (Q:\\) is its own dirname: the search for an existing parent
    # went round for ever. Here no folder exists at all, the root included.
    monkeypatch.setattr(os.path, "exists", lambda p: False)
    assert folder_problem("/nowhere/out") == "/ does not exist (no such drive or share)"


SMALL_ARENA = ["arena", "--agents", "random,heuristic", "--games", "2", "--no-progress", "--bootstrap", "100"]


def _refused_at_once(capsys, argv, *what):
    """``main(argv)`` exits 2 with one line saying ``what``, before any game (no table)."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert all(w in err for w in what) and "Traceback" not in err, err
    assert "rating" not in out.lower() and "saved" not in out, out


@pytest.mark.parametrize("name", [".json", ".CSV", "dir.toml/..json"])
def test_arena_out_with_no_name_before_its_extension_is_refused_before_the_tournament(
    tmp_path, capsys, name, monkeypatch
):
    # The check used endswith and the save os.path.splitext: ".json" passed the check, the
    # tournament ran, and the save refused it, losing the results.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dir.toml").mkdir()
    _refused_at_once(capsys, SMALL_ARENA + ["--out", name], "--out must name a .json or .csv file", repr(name))


def test_arena_out_check_refuses_exactly_what_the_save_refuses(tmp_path, capsys):
    from eights import arena
    from eights.arena.report import results_format

    result = arena.tournament(["random", "heuristic"], games=2, bootstrap=100)
    (tmp_path / "cli").mkdir()
    for name in ["r.json", "R.CSV", "r.tar.json", ".json", "..csv", "r.json.txt", "r", "r.", ".hidden.csv"]:
        try:
            results_format(name)
            checked = True
        except ValueError:
            checked = False
        try:
            result.save(str(tmp_path / name))
            saved = True
        except ValueError:
            saved = False
        assert checked == saved, name
        assert main(SMALL_ARENA + ["--out", str(tmp_path / "cli" / name)]) == (0 if checked else 2), name
        capsys.readouterr()


def test_arena_chart_without_an_extension_is_reported_where_it_is_written(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    assert main(SMALL_ARENA + ["--plot", str(tmp_path / "chart")]) == 0
    out = capsys.readouterr().out
    assert f"chart saved to {tmp_path / 'chart.png'}\n" in out, out
    assert (tmp_path / "chart.png").is_file() and not (tmp_path / "chart").exists()
    # The path checked before the tournament is the one written: a folder there is refused.
    (tmp_path / "taken.png").mkdir()
    path = str(tmp_path / "taken.png")
    _refused_at_once(capsys, SMALL_ARENA + ["--plot", str(tmp_path / "taken")], f"--plot {path}: ", "is a folder")


def test_generalize_chart_without_an_extension_is_reported_where_it_is_written(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    argv = ["generalize", "--agent", "random", "--games", "1", "--no-progress", "--plot", str(tmp_path / "chart.")]
    assert main(argv) == 0
    assert f"chart saved to {tmp_path / 'chart.png'}\n" in capsys.readouterr().out
    assert (tmp_path / "chart.png").is_file()


@pytest.mark.parametrize("command", ["exploit", "train"])
def test_training_charts_without_an_extension_are_reported_where_they_are_written(command, tmp_path, capsys):
    # Both said "x" and wrote "x.png" (matplotlib adds its default format's extension).
    pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    small = ["--decisions", "10", "--no-progress"]
    if command == "exploit":
        argv = ["exploit", "--agent", "random", "--num-envs", "4", *small, "--eval-deals", "2"]
        said = "chart saved to"
    else:
        argv = [
            "train",
            "--num-envs",
            "4",
            "--num-steps",
            "4",
            *small,
            "--eval-deals",
            "0",
            "--out",
            str(tmp_path / "r"),
        ]
        said = "learning curve:"
    assert main(argv + ["--plot", str(tmp_path / "chart")]) == 0
    assert f"{said} {tmp_path / 'chart.png'}\n" in capsys.readouterr().out
    assert (tmp_path / "chart.png").is_file() and not (tmp_path / "chart").exists()
