"""The library apart from its laboratory: the package never imports the research tree, the
research tree imports the package by its public name (never relatively into it) and uses
only its public parts (no ``_core``, no underscore module), and the
package holds one PPO core, one checkpoint writer and one way of turning configuration
dataclasses into command-line flags (research code keeps its own, outside the package)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import eights

PACKAGE = Path(eights.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[3]
RESEARCH = ROOT / "research"

pytestmark = pytest.mark.skipif(not (PACKAGE.is_dir() and RESEARCH.is_dir()), reason="needs the source tree")


def _package_sources():
    return sorted(PACKAGE.rglob("*.py"))


def test_the_package_never_imports_the_research_tree():
    pattern = re.compile(r"^\s*(from|import)\s+(netlab|research)\b", re.M)
    found = [str(p.relative_to(ROOT)) for p in _package_sources() if pattern.search(p.read_text(encoding="utf-8"))]
    assert not found, f"package modules that import research code: {found}"


def test_the_research_tree_imports_the_package_by_its_name():
    sources = sorted(RESEARCH.rglob("*.py"))
    assert sources
    relative_into_package = re.compile(r"^\s*from\s+\.\.+\w", re.M)
    found = [str(p.relative_to(ROOT)) for p in sources if relative_into_package.search(p.read_text(encoding="utf-8"))]
    assert not found, f"research modules importing relatively out of their folder: {found}"
    assert any(re.search(r"^\s*(from|import) eights\b", p.read_text(encoding="utf-8"), re.M) for p in sources)


def test_the_research_tree_uses_only_the_public_api():
    # Research is the package's first user: it reached VecEnv's private core for the search's
    # root visit shares and the bots' moves (now VecEnv.bot_policies and bot_actions).
    # A private name of a public module too (`from eights.train.cardnet import _linear`).
    private = re.compile(
        r"\beights\.(_\w+)|from eights import (_\w+)|from eights\.\S*\._\w+|\._core\b"
        r"|from eights\S* import (\(?\s*)?(\w+\s*,\s*)*_\w+"
    )
    found = [
        f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
        for p in sorted(RESEARCH.rglob("*.py"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if private.search(line.split("#")[0])
    ]
    assert not found, "research code using the package's private parts:\n" + "\n".join(found)


def _modules_matching(pattern: str) -> list:
    rx = re.compile(pattern, re.M)
    return [str(p.relative_to(PACKAGE)) for p in _package_sources() if rx.search(p.read_text(encoding="utf-8"))]


def test_one_ppo_core_in_the_package():
    # GAE (the advantages with a lambda) and the clipped policy loss live in one module.
    assert _modules_matching(r"gamma \* \w+ \* nonterminal|\bdef _?gae\b") == ["train/ppo.py"]
    assert _modules_matching(r"\.clamp\(\s*1(\.0)?\s*-") == ["train/ppo.py"]


def test_one_checkpoint_writer_in_the_package():
    assert _modules_matching(r"\btorch\.save\(") == ["train/files.py"]


def test_one_flags_mechanism_in_the_package():
    # configuration dataclasses turned into command-line flags
    flags = r"dataclasses\.fields\([^)]*\)[\s\S]*add_argument|add_argument[\s\S]*dataclasses\.fields"
    assert _modules_matching(flags) == ["train/config.py"]
