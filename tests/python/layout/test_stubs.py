"""Typing: the stubs of the Rust extension (python/eights/_core.pyi) must match the built
module, and the package must type-check.  Both run mypy in a subprocess."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

import eights

PACKAGE = Path(eights.__file__).resolve().parent
ROOT = PACKAGE.parent.parent
# Each entry there says why it is needed.
ALLOWLIST = Path(__file__).resolve().parent / "stubtest_allowlist.txt"


def _mypy(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(PACKAGE.parent))
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_package_ships_stubs_and_marker():
    assert (PACKAGE / "_core.pyi").is_file()
    assert (PACKAGE / "py.typed").is_file()


def test_stubtest_core_matches_the_extension(tmp_path):
    # Run from an empty directory with a configuration of its own, so that nothing but the
    # package imported by these tests is checked. The stub imports neither PyTorch nor
    # Gymnasium; mypy reached them through the package's other modules and spent 40 of its
    # 48 s in their stubs, so it does not follow them (what it finds there is Any).
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n[mypy-torch.*]\nfollow_imports = skip\n[mypy-gymnasium.*]\nfollow_imports = skip\n")
    res = _mypy(
        "mypy.stubtest",
        "eights._core",
        "--mypy-config-file",
        str(config),
        "--allowlist",
        str(ALLOWLIST),
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_package_is_clean():
    # The package's source tree (its stubs stand in for the extension, so no build is needed
    # there): the same files whether the tests run on an editable install or on the wheel.
    # The RLlib module is checked against Ray's types (the `rllib` extra, not in `test`).
    pytest.importorskip("ray.rllib", reason="mypy checks eights.integrations.rllib against Ray's types")
    repo = Path(__file__).resolve().parents[3]
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(repo / "pyproject.toml"), str(repo / "python" / "eights")],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stdout + res.stderr
