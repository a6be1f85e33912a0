"""The test lanes of tests/python/conftest.py: every entry of its table names a test file that
exists (or a test in one), and every lane it assigns is a marker registered in pyproject.toml,
so that a moved or renamed file cannot drop out of its lane unnoticed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import conftest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

HERE = Path(conftest.__file__).resolve().parent
ROOT = HERE.parents[1]


def test_every_lane_entry_names_an_existing_test_file():
    missing = [key for key in conftest.LANES if not (HERE / key.split("::")[0]).is_file()]
    assert not missing, f"lane entries for files that do not exist: {missing}"


def test_every_lane_is_a_registered_marker():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    registered = {m.split(":")[0].strip() for m in config["tool"]["pytest"]["ini_options"]["markers"]}
    used = {lane for lanes in conftest.LANES.values() for lane in lanes}
    assert used and used <= registered, used - registered
    assert {"slow", "train", "browser", "integration"} <= registered


def test_single_test_entries_name_a_test_of_their_file():
    for key in conftest.LANES:
        if "::" in key:
            path, test = key.split("::", 1)
            name = test.split("[")[0]
            assert f"def {name}(" in (HERE / path).read_text(encoding="utf-8"), key


def test_the_pinned_extras_lanes_run_in_ci():
    # The `rllib` and `video` extras stay out of `test` (they pin gymnasium and pillow down):
    # CI installs them after the README's command and runs their lanes, as CONTRIBUTING.md says.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = config["project"]["optional-dependencies"]
    test_extras = "".join(d for d in extras["test"] if d.startswith("eights["))
    assert "rllib" not in test_extras and not any(d.startswith(("ray", "moviepy")) for d in extras["test"])
    command = "pip install '.[rllib,video]' && python -m pytest tests/python -n auto -m \"rllib or video\""
    assert f"if ! {{ {command}; }}; then" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    lanes = {lane for lanes in conftest.LANES.values() for lane in lanes}
    assert {"rllib", "video"} <= lanes
