"""How a command's process ends: quickly, once its work is done."""

from __future__ import annotations

import subprocess
import sys


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
        "from eights.cli import _freeze_unless_nanobind\n"
        "assert seen.count(_freeze_unless_nanobind) == 1, seen\n"
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
    check looks for nanobind's function type in any extension module; the fake one here
    stands for such a module."""
    code = (
        "import gc, sys, types\n"
        "from eights.cli import _freeze_unless_nanobind, _nanobind_loaded\n"
        "assert not _nanobind_loaded()\n"
        "nb_func = type('nb_func', (), {})\n"
        "fake = types.ModuleType('fake_ext'); fake.__file__ = '/x/fake_ext.so'; fake.f = nb_func()\n"
        "sys.modules['fake_ext'] = fake\n"
        "assert _nanobind_loaded()\n"
        "_freeze_unless_nanobind()\n"
        "print('frozen', gc.get_freeze_count() > 0)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "frozen False"
