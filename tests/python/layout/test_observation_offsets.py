"""One source for the observation layout: the offsets of the observation's slices are written
down once, in the Rust observation module (``src/observation/``, its public constants and
``observation_spec()``), and every other file reads them from there.  These tests read the
project's Python and Rust sources and fail on an offset written as a number outside that
module: a named offset constant given a number (``TOP = 54``, ``const ROGUE: usize = 228;``)
or an observation indexed or sliced at a number that is a slice's start (``obs[:, 150]``,
``obs[:, 54:108]``, ``o[108 + 4]``).  A number added to a name (``obs[:, HAND : HAND + 54]``,
a slice's length) is not an offset."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterable, List, Optional, Set, Tuple

import pytest

from eights import _core

ROOT = Path(__file__).resolve().parents[3]
SPEC = _core.observation_spec()
#: The offsets: every slice's start but the first (0 is also a batch row), and the end.
OFFSETS: Set[int] = {start for start, _ in SPEC.values() if start} | {_core.OBS_SIZE}
#: Names an offset constant takes: each slice's name in capitals, and the short names the
#: networks use (``TOP`` for ``top_card``, ...).
OFFSET_NAMES: Set[str] = {name.upper() for name in SPEC} | {"TOP", "ACTIVE", "ROGUE"}
#: What an observation is called where it is indexed: ``obs``, ``obs_rows``, ``observation``,
#: ``o`` (a single row, in Rust), ``self.obs``, ``g.observation(0)``.
_OBS_NAME = re.compile(r"^(o|obs\w*|\w+_obs|observations?)$")

#: The files searched: the package, its tests, scripts, examples, benchmarks and the Rust
#: crate with its tests, examples and benches, less the observation module itself.
PY_DIRS = ("python", "tests/python", "scripts", "examples", "benchmarks", "research")
RS_DIRS = ("src", "tests", "examples", "benches", "research")
OWNER = ROOT / "src" / "observation"


def _literal(node: ast.expr) -> Optional[int]:
    """The value of an int literal, or of arithmetic on int literals only (``108 + 4``)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        a, b = _literal(node.left), _literal(node.right)
        if a is not None and b is not None:
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}[type(node.op)]
    return None


def _leading(node: ast.expr) -> Iterable[int]:
    """The literal values that stand for an offset in an index bound: the bound itself when
    it is all literals, and the literal a sum starts from (``150 + k``)."""
    value = _literal(node)
    if value is not None:
        yield value
    while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        node = node.left
        value = _literal(node)
        if value is not None:
            yield value
            break


def _is_observation(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        node = node.func
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return bool(_OBS_NAME.match(name))


def python_offsets(source: str) -> List[Tuple[int, str]]:
    """``(line, text)`` of every literal observation offset in a Python source."""
    found: List[Tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and _is_observation(node.value):
            index = node.slice.elts[-1] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
            bounds = [index.lower, index.upper] if isinstance(index, ast.Slice) else [index]
            if any(v in OFFSETS for b in bounds if b is not None for v in _leading(b)):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            if node.value is None:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
                pairs = zip(names, values if len(values) == len(names) else [])
                if any(isinstance(n, ast.Name) and n.id in OFFSET_NAMES and _literal(v) is not None for n, v in pairs):
                    found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


_RS_CONST = re.compile(r"\b(?:const|static)\s+([A-Z_][A-Z0-9_]*)\s*:\s*usize\s*=\s*([0-9_+*\s]+);")
_RS_INDEX = re.compile(r"(?<![\w.])(o|obs\w*|\w+_obs|observations?)\s*\[([^\[\]]*)\]")
_RS_LEADING = re.compile(r"^\s*([0-9][0-9_]*)\s*(?:[-+]|$)")


def rust_offsets(source: str) -> List[Tuple[int, str]]:
    """``(line, text)`` of every literal observation offset in a Rust source (comments and
    doc comments skipped)."""
    found: List[Tuple[int, str]] = []
    for lineno, line in enumerate(source.splitlines(), 1):
        code = line.split("//", 1)[0]
        for m in _RS_CONST.finditer(code):
            if m.group(1) in OFFSET_NAMES:
                found.append((lineno, m.group(0)))
        for m in _RS_INDEX.finditer(code):
            bounds = re.split(r"\.\.=?|,", m.group(2))
            for bound in bounds:
                lead = _RS_LEADING.match(bound)
                whole = re.fullmatch(r"[0-9_+*\s]+", bound.strip() or "x")
                values = [int(lead.group(1).replace("_", ""))] if lead else []
                if whole:
                    values.append(_literal(ast.parse(bound.replace("_", "").strip(), mode="eval").body) or 0)
                if any(v in OFFSETS for v in values):
                    found.append((lineno, m.group(0)))
                    break
    return found


def _files(dirs: Iterable[str], suffix: str) -> List[Path]:
    files = []
    for d in dirs:
        base = ROOT / d
        if base.is_dir():
            files += [f for f in sorted(base.rglob(f"*{suffix}")) if "target" not in f.relative_to(ROOT).parts[:1]]
    return [f for f in files if OWNER not in f.parents and ".venv" not in f.parts]


def test_the_readers_see_every_form():
    py = (
        "HAND, TOP, ACTIVE = 0, 54, 108\n"
        "SCORES = 150\n"
        "x = obs[:, 54:108]\n"
        "y = obs[:, 108 + 4 + 1 + 1 + 1 + 3 + 12]\n"
        "z = self.obs[0, 310:]\n"
        "w = g.observation(0)[150]\n"
        "ok = obs[:, HAND : HAND + 54] + obs[:, SEATS + 2] + mask[:, 62:116] + obs[0, 0:3] + obs[3]\n"
        "NAME = observation_spec()['hand'][0]\n"
    )
    assert sorted({line for line, _ in python_offsets(py)}) == [1, 2, 3, 4, 5, 6]
    rs = (
        "const TOP: usize = 54;\n"
        "const ROGUE: usize = crate::observation::ROGUE_TOP;\n"
        "let a = o[ACTIVE + c / 13] + o[TOP + 52];\n"
        "let b = o[150] + o[282 + c % 13];\n"
        "let c = &obs[162..216];\n"
        "// o[150] in a comment\n"
        "const QS: usize = 3 * 13 + 11;\n"
    )
    assert sorted({line for line, _ in rust_offsets(rs)}) == [1, 4, 5]


@pytest.mark.skipif(not (ROOT / "src" / "observation").is_dir(), reason="the source tree is not here")
def test_no_literal_observation_offset_outside_the_observation_module():
    found = [
        f"{f.relative_to(ROOT)}:{line}: {text}"
        for f in _files(PY_DIRS, ".py")
        if f != Path(__file__).resolve()
        for line, text in python_offsets(f.read_text(encoding="utf-8"))
    ]
    found += [
        f"{f.relative_to(ROOT)}:{line}: {text}"
        for f in _files(RS_DIRS, ".rs")
        for line, text in rust_offsets(f.read_text(encoding="utf-8"))
    ]
    assert not found, "observation offsets written as numbers (read them from observation_spec()):\n" + "\n".join(found)
