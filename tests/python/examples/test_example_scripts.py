"""Every example runs: the small ones here, the training ones in their own test files.

``test_every_example_is_run_by_a_test`` keeps it that way: a new file in ``examples/``
fails it until some test runs the file.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
TESTS = pathlib.Path(__file__).resolve().parents[1]  # tests/python, every subfolder


@pytest.mark.parametrize("script", ["play_random_game.py", "gym_random_agent.py", "house_rules.py"])
def test_small_example_runs(script, tmp_path):
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stdout.strip(), f"{script} printed nothing"


def test_every_example_is_run_by_a_test():
    tests_text = "".join(p.read_text() for p in TESTS.rglob("test_*.py"))
    examples = sorted(p.name for p in EXAMPLES.iterdir() if p.suffix in (".py", ".ipynb"))
    missing = [name for name in examples if name not in tests_text]
    assert not missing, f"examples no test runs: {missing}"
