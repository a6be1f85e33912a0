"""Layout of the source tree: no import cycle among the modules of the Python package
(``python/eights/*.py``) nor among the modules of the Rust crate (``src/``).  Both graphs
are read from the source files, so these tests skip when the tests run without the tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "eights"
SRC = ROOT / "src"

Graph = Dict[str, Set[str]]

def find_cycle(graph: Graph) -> Optional[List[str]]:
    """A cycle of ``graph`` as ``[a, b, ..., a]``, or None; self-loops are ignored."""
    state: Dict[str, int] = {}  # 1: on the current path, 2: done
    path: List[str] = []

    def visit(node: str) -> Optional[List[str]]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt == node:
                continue
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


# ------------------------------------------------------------------ Python


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST) -> Iterable[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` blocks (their
    ``else`` branches run, so they count)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def python_imports(source: str, modules: Set[str]) -> Set[str]:
    """Sibling modules a package module imports, at any depth (inside functions too).
    ``import eights`` or ``from eights import <name>`` (not a module) is the package's
    ``__init__``."""
    found: Set[str] = set()

    def package_names(names: List[ast.alias]) -> None:
        for alias in names:
            found.add(alias.name if alias.name in modules else "__init__")

    for node in _runtime_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "eights":
                    found.add(parts[1] if len(parts) > 1 and parts[1] in modules else "__init__")
        elif isinstance(node, ast.ImportFrom):
            if node.level > 1:
                continue  # outside the package
            if node.level == 1:
                parts = node.module.split(".") if node.module else []
            elif node.module and node.module.split(".")[0] == "eights":
                parts = node.module.split(".")[1:]
            else:
                continue
            if parts:
                found.add(parts[0] if parts[0] in modules else "__init__")
            else:
                package_names(node.names)
    return found


def python_graph(package: Path) -> Graph:
    files = sorted(package.glob("*.py"))
    modules = {f.stem for f in files} | {p.stem for p in package.glob("_core*")}
    return {f.stem: python_imports(f.read_text(encoding="utf-8"), modules) - {f.stem} for f in files}


# ------------------------------------------------------------------ Rust

_PLAIN_COMMENT = re.compile(r"(?m)(?<![:/\"])//(?![/!]).*$")
_CRATE_PATH = re.compile(r"\bcrate::(\{|[A-Za-z_][A-Za-z0-9_]*)")


def _group_heads(text: str, start: int) -> Set[str]:
    """First path segments of the items of the ``{...}`` group opening at ``text[start]``."""
    depth, items, item = 0, [], ""
    for ch in text[start:]:
        if ch == "{":
            depth += 1
            if depth == 1:
                continue
        elif ch == "}":
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and ch == ",":
            items.append(item)
            item = ""
        else:
            item += ch
    items.append(item)
    heads = {re.split(r"::|\{|\s", it.strip(), maxsplit=1)[0] for it in items}
    return {h for h in heads if h and h not in ("self", "super")}


def rust_uses(source: str) -> Set[str]:
    """First segments of every ``crate::<module>`` path in a Rust file (``use`` lines,
    grouped ``use crate::{a, b::c}``, paths in code and doc links; plain ``//`` comments
    do not count)."""
    text = _PLAIN_COMMENT.sub("", source)
    found: Set[str] = set()
    for m in _CRATE_PATH.finditer(text):
        if m.group(1) == "{":
            found |= _group_heads(text, m.start(1))
        else:
            found.add(m.group(1))
    return found


def rust_module(path: Path, src: Path) -> str:
    """The crate module a file belongs to: the first path segment under ``src/``."""
    rel = path.relative_to(src)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def rust_graph(src: Path) -> Graph:
    graph: Graph = {}
    for f in sorted(src.rglob("*.rs")):
        module = rust_module(f, src)
        graph.setdefault(module, set()).update(rust_uses(f.read_text(encoding="utf-8")) - {module})
    return graph


# ------------------------------------------------------------------ tests


def test_find_cycle_finds_cycles_and_only_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"d"}}) is None
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


def test_import_parsers_see_every_form():
    modules = {"env", "rules", "_core", "render", "_checks"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import _core\n"
        "from .render import x\n"
        "if TYPE_CHECKING:\n    from .rules import Rules\nelse:\n    from ._checks import y\n"
        "def f():\n    import eights.env\n"
        "from eights import Game\n"
    )
    assert python_imports(source, modules) == {"_core", "render", "_checks", "env", "__init__"}
    rust = (
        "use crate::card::{Card, Suit};\n"
        "use crate::{rules::{self, Rules}, game::Game};\n"
        "// crate::bots is only named in a comment\n"
        "/// See [`crate::vec_env::VecEnv`].\n"
        "fn f() { crate::observation::encode(); super::x(); }\n"
    )
    assert rust_uses(rust) == {"card", "rules", "game", "vec_env", "observation"}
    assert rust_module(Path("/s/game/legal.rs"), Path("/s")) == "game"
    assert rust_module(Path("/s/python/mod.rs"), Path("/s")) == "python"
    assert rust_module(Path("/s/card.rs"), Path("/s")) == "card"


@pytest.mark.skipif(not PACKAGE.is_dir(), reason="the package source tree is not here")
def test_python_modules_have_no_import_cycle():
    graph = python_graph(PACKAGE)
    assert {"env", "rules", "vec_env"} <= set(graph)
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph) or [])}"


@pytest.mark.skipif(not SRC.is_dir(), reason="the Rust source tree is not here")
def test_rust_modules_have_no_cycle():
    graph = rust_graph(SRC)
    assert {"game", "rules", "python"} <= set(graph)
    assert find_cycle(graph) is None, f"module cycle: {' -> '.join(find_cycle(graph) or [])}"
