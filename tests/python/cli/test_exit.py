"""How a command's process ends: quickly, once its work is done."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_the_command_line_skips_the_exit_collections_once():
    """``main`` registers ``gc.freeze`` (unless nanobind) to run at exit, once however often it is called, so
    a command that imported torch ends without collecting its 190,000 objects again (0.5 to
    1 s after the last line, measured)."""
    code = (
        "import atexit, gc, sys\n"
        "from eights.cli import main\n"
        "seen, register = [], atexit.register\n"
        "atexit.register = lambda f, *a, **k: (seen.append(f), register(f, *a, **k))[1]\n"
        "main(['presets']); main(['presets'])\n"
        "from eights.cli import _end_quickly\n"
        "assert seen.count(_end_quickly) == 1, seen\n"
        "assert gc.get_freeze_count() == 0\n"
        "atexit._run_exitfuncs()\n"
        "print('frozen', gc.get_freeze_count() > 0)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "frozen True"


def test_a_command_that_loaded_nanobind_ends_without_its_leak_warnings():
    """nanobind reports the objects of its extensions still alive at exit; frozen, they all
    are (about 30 lines after every ``train`` run once PyTorch had loaded Triton's). The
    exit handler still freezes (skipping it cost 0.8 s an exit), then points stderr at the
    null device. A fake module stands for a nanobind extension; what is written to stderr
    before the handler shows, what is written after does not."""
    code = (
        "import gc, os, sys, types\n"
        "from eights.cli import _end_quickly, _nanobind_loaded\n"
        "assert not _nanobind_loaded()\n"
        "nb_func = type('nb_func', (), {})\n"
        "fake = types.ModuleType('fake_ext'); fake.__file__ = '/x/fake_ext.so'; fake.f = nb_func()\n"
        "sys.modules['fake_ext'] = fake\n"
        "assert _nanobind_loaded()\n"
        "sys.stderr.write('before\\n')\n"
        "_end_quickly()\n"
        "os.write(2, b'after\\n')\n"
        "print('frozen', gc.get_freeze_count() > 0)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "frozen True"
    assert r.stderr == "before\n"


def test_a_training_run_ends_without_nanobind_warnings(tmp_path):
    # The end to end case, where PyTorch brings Triton's nanobind extension.
    pytest.importorskip("torch")
    pytest.importorskip("triton")
    argv = ["train", "--decisions", "200", "--num-envs", "8", "--num-steps", "8", "--eval-deals", "0"]
    argv += ["--no-progress", "--out", str(tmp_path / "run")]
    r = subprocess.run([sys.executable, "-m", "eights", *argv], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "nanobind" not in r.stderr and "leaked" not in r.stderr, r.stderr[-2000:]


@pytest.mark.parametrize("command", [["presets"], ["selfplay", "--games", "200", "--python-loop", "0"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(command):
    """``eights presets | head -1``: the reader closes the pipe before the command writes.
    Python's exit flush then raised ``BrokenPipeError`` with a traceback (2 runs of 3 with
    ``head -1``); the command now stops with no word and status 141 (128 + SIGPIPE)."""
    proc = subprocess.Popen([sys.executable, "-m", "eights", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line
    _, stderr = proc.communicate(timeout=120)
    assert stderr.decode() == ""
    assert proc.returncode == 141
