"""How a command's process ends: quickly, once its work is done."""

from __future__ import annotations

import subprocess
import sys


def test_the_command_line_skips_the_exit_collections_once():
    """``main`` registers ``gc.freeze`` to run at exit, once however often it is called, so
    a command that imported torch ends without collecting its 190,000 objects again (0.5 to
    1 s after the last line, measured)."""
    code = (
        "import atexit, gc, sys\n"
        "from eights.cli import main\n"
        "seen, register = [], atexit.register\n"
        "atexit.register = lambda f, *a, **k: (seen.append(f), register(f, *a, **k))[1]\n"
        "main(['presets']); main(['presets'])\n"
        "assert seen.count(gc.freeze) == 1, seen\n"
        "assert gc.get_freeze_count() == 0\n"
        "atexit._run_exitfuncs()\n"
        "print('frozen', gc.get_freeze_count() > 0)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "frozen True"
