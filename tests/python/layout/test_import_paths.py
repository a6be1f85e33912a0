"""One public import path per module: the short modules (``eights.env``, ``eights.vec_env``,
``eights.pettingzoo``, ``eights.sb3``, ``eights.rllib``, ``eights.openspiel``,
``eights.replay``) are deprecated re-exports that warn when imported, naming the module that
replaces them (CONTRIBUTING.md, "Public import paths"), and nothing the project writes (docs,
docstrings, examples, benchmarks, scripts, tests) uses them, except the deprecation tests of
this file. ``import eights`` itself imports none of them."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import eights

PACKAGE = Path(eights.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[3]

#: short path -> the module it re-exports, and an optional package that module needs.
SHORT = {
    "eights.env": ("eights.envs.gym", None),
    "eights.vec_env": ("eights.envs.vector", None),
    "eights.pettingzoo": ("eights.envs.pettingzoo", "pettingzoo"),
    "eights.sb3": ("eights.integrations.sb3", "stable_baselines3"),
    "eights.rllib": ("eights.integrations.rllib", "ray.rllib"),
    "eights.openspiel": ("eights.integrations.openspiel", "pyspiel"),
    "eights.replay": ("eights.records", None),
}

_NAMES = "|".join(name.split(".")[1] for name in SHORT)
#: Uses of a short path: imports of it, attribute access through it, entry points
#: (``eights.env:EightsEnv``) and module names in strings (``importorskip("eights.sb3")``).
#: Prose that names a short path as deprecated is not a use.
USES = [
    re.compile(rf"\bimport eights\.({_NAMES})\b"),
    re.compile(rf"\bfrom eights\.({_NAMES}) import\b"),
    re.compile(rf"\bfrom eights import [^\n#]*\b({_NAMES})\b"),
    re.compile(rf"\beights\.({_NAMES})(\.[A-Za-z_]|:)"),
    re.compile(rf"[\"']eights\.({_NAMES})[\"']"),
]
#: The same imports written relative to the package, in the modules directly in it (in a
#: subpackage ``from . import replay`` is a sibling, such as the command ``eights.cli.replay``).
RELATIVE_USES = [
    re.compile(rf"\bfrom \. import [^\n#]*\b({_NAMES})\b"),
    re.compile(rf"\bfrom \.({_NAMES}) import\b"),
]


def _short_module_files() -> set:
    return {PACKAGE / (name.split(".")[1] + ".py") for name in SHORT}


def _project_files() -> list:
    """The files whose text teaches an import path: docs, docstrings and code."""
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "mkdocs.yml"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    for folder in ("examples", "benchmarks", "scripts", "tests"):
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".ipynb", ".md"))
    files += sorted(PACKAGE.rglob("*.py")) + sorted(PACKAGE.rglob("*.pyi"))
    skip = _short_module_files() | {Path(__file__).resolve()}
    return [f for f in files if f.is_file() and f.resolve() not in skip]


@pytest.mark.parametrize("short", sorted(SHORT))
def test_every_short_module_warns_and_names_its_replacement(short):
    long, needs = SHORT[short]
    if needs:
        pytest.importorskip(needs)
    module = importlib.import_module(long)
    saved = sys.modules.pop(short, None)
    try:
        with pytest.warns(DeprecationWarning, match=re.escape(f"{short} is deprecated")) as record:
            old = importlib.import_module(short)
        assert any(long in str(w.message) for w in record), [str(w.message) for w in record]
        # Still a working re-export: the same objects under the old name.
        public = [name for name in getattr(module, "__all__", []) if hasattr(module, name)]
        assert public and all(getattr(old, name) is getattr(module, name) for name in public)
    finally:
        sys.modules.pop(short, None)
        if saved is not None:
            sys.modules[short] = saved


def test_importing_eights_imports_no_short_module():
    code = f"import sys, eights; print(sorted(m for m in sys.modules if m in {sorted(SHORT)!r}))"
    res = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", code], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def test_the_patterns_see_every_form_of_use():
    uses = [
        "import eights.env",
        "from eights.pettingzoo import raw_env",
        "from eights import arena, replay",
        "env = eights.sb3.VecEnv('crazy_eights')",
        'entry_point="eights.env:EightsEnv"',
        'pytest.importorskip("eights.rllib")',
    ]
    prose = [
        "The short modules `eights.env` and `eights.replay` are deprecated.",
        "import eights.envs.gym",
        "from eights.envs.pettingzoo import raw_env",
        "eights.records.load_record(path)",
        "from eights import records",
    ]
    assert all(any(p.search(text) for p in USES) for text in uses)
    assert not any(p.search(text) for p in USES for text in prose)
    relative = ["from .vec_env import VecEnv", "from . import _core, env"]
    assert all(any(p.search(text) for p in RELATIVE_USES) for text in relative)
    assert not any(p.search("from .envs.vector import VecEnv") for p in RELATIVE_USES)


def test_no_doc_example_or_test_uses_a_short_path():
    found = []
    for path in _project_files():
        patterns = USES + (RELATIVE_USES if path.parent == PACKAGE else [])
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(p.search(line) for p in patterns):
                found.append(f"{path.relative_to(ROOT)}:{k}: {line.strip()}")
    assert not found, "short import paths in use (import the long ones):\n" + "\n".join(found)
