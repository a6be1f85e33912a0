"""Layout of the source tree: no import cycle among the modules of the Python package
(``python/eights/*.py``) nor among the modules of the Rust crate (``src/``).  Both graphs
are read from the source files, so these tests skip when the tests run without the tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set

import pytest

ROOT = Path(__file__).resolve().parents[3]
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
                return path[path.index(nxt) :] + [nxt]
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


def python_imports(source: str, modules: Set[str], package: str = "") -> Set[str]:
    """Modules of the package that a module imports, at any depth (inside functions too),
    as dotted names relative to the package (``envs.gym``; ``envs`` for a subpackage's
    ``__init__``).  ``package`` is the importing module's own subpackage (``""`` at the
    top).  ``import eights`` or ``from eights import <name>`` (not a module) is the
    package's ``__init__``."""
    found: Set[str] = set()
    here = package.split(".") if package else []

    def resolve(parts: List[str]) -> str:
        """The deepest module of ``parts`` that exists (a package's ``__init__`` when the
        rest names an attribute)."""
        for k in range(len(parts), 0, -1):
            name = ".".join(parts[:k])
            if name in modules:
                return name
        return "__init__"

    def add_names(base: List[str], names: List[ast.alias]) -> None:
        for alias in names:
            found.add(resolve(base + [alias.name]))

    for node in _runtime_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "eights":
                    found.add(resolve(parts[1:]))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if node.level - 1 > len(here):
                    continue  # outside the package
                base = here[: len(here) - (node.level - 1)]
                parts = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "eights":
                parts = node.module.split(".")[1:]
            else:
                continue
            # ``from .envs import gym`` imports a module; ``from .envs.gym import make`` a name.
            if any(".".join(parts + [a.name]) in modules for a in node.names):
                add_names(parts, node.names)
            else:
                found.add(resolve(parts))
    return found


def python_graph(package: Path) -> Graph:
    """The import graph of every module of the package, subpackages included, by dotted
    name relative to the package (``__init__`` for the package itself)."""
    files = sorted(package.rglob("*.py"))

    def name(f: Path) -> str:
        parts = list(f.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts) or "__init__"

    def home(f: Path) -> str:
        return ".".join(f.relative_to(package).parent.parts)

    modules = {name(f) for f in files} | {p.name.split(".")[0] for p in package.glob("_core*")}
    return {name(f): python_imports(f.read_text(encoding="utf-8"), modules, home(f)) - {name(f)} for f in files}


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
    modules = {"play", "rules", "_core", "render", "_checks"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import _core\n"
        "from .render import x\n"
        "if TYPE_CHECKING:\n    from .rules import Rules\nelse:\n    from ._checks import y\n"
        "def f():\n    import eights.play\n"
        "from eights import Game\n"
    )
    assert python_imports(source, modules) == {"_core", "render", "_checks", "play", "__init__"}
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
    assert {"game", "rules", "envs.vector"} <= set(graph)
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph) or [])}"


@pytest.mark.skipif(not SRC.is_dir(), reason="the Rust source tree is not here")
def test_rust_modules_have_no_cycle():
    graph = rust_graph(SRC)
    assert {"game", "rules", "python"} <= set(graph)
    assert find_cycle(graph) is None, f"module cycle: {' -> '.join(find_cycle(graph) or [])}"
