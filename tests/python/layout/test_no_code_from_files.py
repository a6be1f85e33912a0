"""No loader unpickles code: every ``torch.load`` in the package, the scripts, the examples
(and the research code, when the tree has it) passes ``weights_only=True``, and
``weights_only=False`` appears nowhere, nor ``allow_pickle=True`` or a bare ``pickle.load``;
nor any other loader that runs what it reads (``_unsafe_calls`` lists them); a
stable-baselines3 model's ``load`` is given ``custom_objects`` (what SB3 would unpickle,
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

#: Calls that run code from what they read, whatever their arguments (dotted as written).
ALWAYS_UNSAFE = {
    f"{module}.{fn}"
    for module in ("pickle", "cloudpickle", "dill", "marshal", "joblib", "_pickle")
    for fn in ("load", "loads", "Unpickler", "_Unpickler")
} | {
    "shelve.open",
    "pd.read_pickle",
    "pandas.read_pickle",
    "yaml.load",
    "yaml.unsafe_load",
    "yaml.full_load",
    "Algorithm.from_checkpoint",
    "Policy.from_checkpoint",
    "eval",
    "exec",
}
#: Modules whose loaders may not be imported by name (``from pickle import loads``).
UNSAFE_IMPORTS = {"pickle": None, "cloudpickle": None, "dill": None, "marshal": None, "torch": {"load"}}


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def _keyword(node: ast.Call, name: str):
    return next((k.value for k in node.keywords if k.arg == name), None)


def _is_constant(value, expected) -> bool:
    return isinstance(value, ast.Constant) and value.value is expected


def _unsafe_calls(tree: ast.AST) -> Iterator[ast.AST]:
    """Loaders that could run code: ``torch.load`` (or ``th.load``) without
    ``weights_only=True`` or with a ``pickle_module``; ``np.load`` with ``allow_pickle`` not
    ``False``; pickle, cloudpickle, dill, marshal, joblib, shelve, pandas' and YAML's loaders,
    RLlib checkpoints, ``eval`` and ``exec``; an SB3 ``load`` without a non-empty
    ``custom_objects``; those loaders imported by name; and an unpickler subclass without a
    ``find_class``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            if any(_dotted(b) in ("pickle.Unpickler", "pickle._Unpickler") for b in node.bases):
                if not any(isinstance(f, ast.FunctionDef) and f.name == "find_class" for f in node.body):
                    yield node
            continue
        if isinstance(node, ast.ImportFrom) and node.module in UNSAFE_IMPORTS:
            names = UNSAFE_IMPORTS[node.module]
            if any(names is None or a.name in names for a in node.names):
                yield node
            continue
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        if name in ("torch.load", "th.load"):
            if not _is_constant(_keyword(node, "weights_only"), True) or _keyword(node, "pickle_module") is not None:
                yield node
        elif name in ("np.load", "numpy.load"):
            flag = _keyword(node, "allow_pickle")
            if flag is not None and not _is_constant(flag, False):
                yield node
        elif name in ALWAYS_UNSAFE:
            yield node
        elif name.endswith(".load") and name.split(".")[0] in SB3_LOADERS | {"cls"}:
            objects = _keyword(node, "custom_objects")
            if objects is None or (isinstance(objects, ast.Dict) and not objects.keys):
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
        "th.load(p)",
        "torch.load(p, weights_only=True, pickle_module=pickle)",
        "from torch import load",
        "from pickle import loads",
        "pickle.load(f)",
        "pickle.loads(b)",
        "cloudpickle.loads(b)",
        "dill.loads(b)",
        "marshal.loads(b)",
        "joblib.load(p)",
        "shelve.open(p)",
        "pd.read_pickle(p)",
        "yaml.load(s)",
        "yaml.unsafe_load(s)",
        "np.load(p, allow_pickle=True)",
        "np.load(p, allow_pickle=flag)",
        "eval(text)",
        "exec(text)",
        "Algorithm.from_checkpoint(p)",
        "MaskablePPO.load(path)",
        "MaskablePPO.load(path, custom_objects={})",
        "cls.load(path, device='cpu')",
        "class U(pickle.Unpickler):\n    pass",
        "class U(pickle._Unpickler):\n    pass",
    ]
    for source in bad:
        assert len(list(_unsafe_calls(ast.parse(source)))) == 1, source
    assert not list(_unsafe_calls(ast.parse("torch.load(p, weights_only=True, map_location='cpu')")))
    assert not list(_unsafe_calls(ast.parse("cls.load(path, device='cpu', custom_objects=objects)")))
    assert not list(_unsafe_calls(ast.parse("np.load(p)")))
    assert not list(_unsafe_calls(ast.parse("net.eval()")))
    assert not list(_unsafe_calls(ast.parse("from cardnet import from_checkpoint; from_checkpoint(state, 32, 4)")))
    assert not list(_unsafe_calls(ast.parse("class U(pickle.Unpickler):\n    def find_class(self, m, n): ...")))
