"""No loader unpickles code: every ``torch.load`` in the package, the scripts, the examples
(and the research code, when the tree has it) passes ``weights_only=True``, and
``weights_only=False`` appears nowhere, nor ``allow_pickle=True`` or a bare ``pickle.load``;
a stable-baselines3 model's ``load`` is given ``custom_objects`` (what SB3 would unpickle,
eights.agents.sb3_file), and an unpickler of our own defines ``find_class`` (the globals it
may name). The files are read from the source tree, so these tests skip without it."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterator, List

import pytest

ROOT = Path(__file__).resolve().parents[3]
FOLDERS = ("python", "scripts", "examples", "research")

pytestmark = pytest.mark.skipif(not (ROOT / "python" / "eights").is_dir(), reason="needs the source tree")


def _sources() -> Iterator[Path]:
    for folder in FOLDERS:
        if (ROOT / folder).is_dir():
            yield from sorted((ROOT / folder).rglob("*.py"))


#: stable-baselines3 and sb3-contrib algorithms, and the name a loop over them uses.
SB3_LOADERS = {"PPO", "A2C", "DQN", "SAC", "TD3", "DDPG", "HER", "MaskablePPO", "RecurrentPPO", "QRDQN", "TRPO", "ARS"}


def _unsafe_calls(tree: ast.AST) -> Iterator[ast.AST]:
    """``torch.load`` calls without ``weights_only=True``, ``pickle.load(s)`` calls, SB3
    ``load`` calls without ``custom_objects``, and ``pickle.Unpickler`` subclasses without
    a ``find_class``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b) == "pickle.Unpickler" for b in node.bases):
            if not any(isinstance(f, ast.FunctionDef) and f.name == "find_class" for f in node.body):
                yield node
            continue
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner = node.func.value
        name = f"{owner.id}.{node.func.attr}" if isinstance(owner, ast.Name) else ""
        if name == "torch.load":
            flag = next((k.value for k in node.keywords if k.arg == "weights_only"), None)
            if not (isinstance(flag, ast.Constant) and flag.value is True):
                yield node
        elif name in ("pickle.load", "pickle.loads", "pickle.Unpickler", "dill.load", "cloudpickle.load"):
            yield node
        elif node.func.attr == "load" and isinstance(owner, ast.Name) and owner.id in SB3_LOADERS | {"cls"}:
            if not any(k.arg == "custom_objects" for k in node.keywords):
                yield node


def test_the_sources_are_found():
    assert any(p.name == "files.py" for p in _sources())


def test_no_loader_unpickles_code():
    found: List[str] = []
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT)
        for m in re.finditer(r"weights_only\s*=\s*False|allow_pickle\s*=\s*True", text):
            found.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
        for call in _unsafe_calls(ast.parse(text, str(rel))):
            found.append(f"{rel}:{call.lineno}: {ast.unparse(call).splitlines()[0][:80]}")
    assert not found, "loaders that could run code from a file:\n" + "\n".join(found)


def test_the_check_finds_an_unsafe_load():
    """The checker itself: it flags each unsafe form and passes the safe one."""
    bad = [
        "torch.load(p)",
        "torch.load(p, weights_only=False)",
        "torch.load(p, weights_only=flag)",
        "pickle.load(f)",
        "pickle.loads(b)",
        "MaskablePPO.load(path)",
        "cls.load(path, device='cpu')",
        "class U(pickle.Unpickler):\n    pass",
    ]
    for source in bad:
        assert len(list(_unsafe_calls(ast.parse(source)))) == 1, source
    assert not list(_unsafe_calls(ast.parse("torch.load(p, weights_only=True, map_location='cpu')")))
    assert not list(_unsafe_calls(ast.parse("cls.load(path, device='cpu', custom_objects=objects)")))
    assert not list(_unsafe_calls(ast.parse("class U(pickle.Unpickler):\n    def find_class(self, m, n): ...")))
