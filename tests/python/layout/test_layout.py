"""Layout of the source tree: no import cycle among the modules of the Python package
(``python/eights/``, subpackages included) nor among the files of the Rust crate (``src/``,
submodules included), every Rust path into the crate pointing down the layer list of
``src/lib.rs``, and no Rust function over :data:`MAX_FN_LINES` lines.  The graphs and
functions are read from the source files, so these tests skip when the tests run without
the tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple

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

Module = Tuple[str, ...]

_PLAIN_COMMENT = re.compile(r"(?m)(?<![:/\"])//(?![/!]).*$")
_BLOCK_COMMENT = re.compile(r"/\*(?![*!]).*?\*/", re.S)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INLINE_MOD = re.compile(r"\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{")
#: The start of a path: ``crate::``, ``super::``, ``self::`` or a lowercase name (a child
#: module when the name is one) followed by ``::``, not itself inside a longer path.
_PATH_START = re.compile(r"(?<![\w:])(?:crate|super|self|[a-z_][a-z0-9_]*)\s*::")


def _use_tree(text: str, i: int) -> Tuple[List[List[str]], int]:
    """The paths of the use tree (or plain path) at ``text[i]``, as segment lists: the
    segments joined by ``::``, then a ``{...}`` group whose items are trees in turn;
    ``self`` in a group stands for its prefix. Returns the paths and where the tree ends."""
    segs: List[str] = []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if text.startswith("{", i):
            paths: List[List[str]] = []
            i += 1
            while i < len(text) and text[i] != "}":
                if text[i] in ", \t\n":
                    i += 1
                    continue
                sub, j = _use_tree(text, i)
                paths += [segs + [x for x in p if x != "self"] for p in sub]
                depth = 0  # skip ``as name`` up to the next item
                while j < len(text) and not (depth == 0 and text[j] in ",}"):
                    depth += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                i = max(j, i + 1)
            return paths or [segs], i + 1
        m = _IDENT.match(text, i)
        if not m:
            return [segs], i
        segs.append(m.group(0))
        i = m.end()
        while i < len(text) and text[i].isspace():
            i += 1
        if not text.startswith("::", i):
            return [segs], i
        i += 2


def _absolute(segs: List[str], here: Module, modules: Set[Module]) -> Optional[Module]:
    """The crate path that ``segs``, written in module ``here``, names; None for a path
    outside the crate (``std::``, ``serde_json::``, an enum's variant...)."""
    head = segs[0] if segs else ""
    if head == "crate":
        return tuple(segs[1:])
    if head in ("self", "super"):
        base = list(here)
        k = 0
        while k < len(segs) and segs[k] in ("self", "super"):
            if segs[k] == "super":
                if not base:
                    return None
                base.pop()
            k += 1
        return tuple(base) + tuple(segs[k:])
    if here + (head,) in modules:
        return here + tuple(segs)
    return None


def _module_of(path: Module, modules: Set[Module]) -> Module:
    """The deepest module of ``path`` (the crate root ``()`` when none)."""
    for k in range(len(path), 0, -1):
        if path[:k] in modules:
            return path[:k]
    return ()


def rust_uses(source: str, here: Module, modules: Set[Module]) -> Set[Module]:
    """The modules of the crate (each a file of ``modules``) that a file of module ``here``
    names, as a reader of it sees them: ``use`` lines (grouped ``use crate::{a, b::c}``
    too), paths in code and doc links, from ``crate::``, ``super::`` (``super::super::``),
    ``self::`` or the name of a child module; a path names the deepest module it passes
    through. Inline modules (``mod tests { use super::*; }``) count for the file, their
    ``super`` being the file's module. ``mod x;`` declarations and plain ``//`` comments do
    not count, nor does the file's own module."""
    found: Set[Module] = set()

    def scan(text: str, logical: Module) -> None:
        outer, last = [], 0
        for m in _INLINE_MOD.finditer(text):
            if m.start() < last:
                continue  # inside an inline module already scanned
            depth, j = 0, m.end() - 1
            while j < len(text):
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
            scan(text[m.end() : j - 1], logical + (m.group(1),))
            outer.append(text[last : m.start()])
            last = j
        body = " ".join(outer + [text[last:]])
        for m in _PATH_START.finditer(body):
            for segs in _use_tree(body, m.start())[0]:
                path = _absolute(segs, logical, modules)
                if path is not None:
                    found.add(_module_of(path, modules))

    scan(_PLAIN_COMMENT.sub("", _BLOCK_COMMENT.sub("", source)), here)
    return found - {here}


def rust_module(path: Path, src: Path) -> Module:
    """The crate module a file holds: ``src/game/legal.rs`` is ``("game", "legal")``,
    ``src/game/mod.rs`` and ``src/game.rs`` are ``("game",)``, ``src/lib.rs`` the root ``()``."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod" or parts == ["lib"]:
        parts.pop()
    return tuple(parts)


def _rust_name(m: Module) -> str:
    return "::".join(m) or "crate"


def rust_graph(src: Path) -> Graph:
    """The graph of the crate's files (submodules included) by module path (``game::legal``;
    ``crate`` for ``lib.rs``): an edge for every module a file names (see :func:`rust_uses`)."""
    files = {f: rust_module(f, src) for f in sorted(src.rglob("*.rs"))}
    modules = set(files.values())
    graph: Graph = {}
    for f, m in files.items():
        uses = rust_uses(f.read_text(encoding="utf-8"), m, modules)
        graph.setdefault(_rust_name(m), set()).update(_rust_name(u) for u in uses)
    return graph


def strongly_connected(graph: Graph) -> List[List[str]]:
    """The strongly connected parts of ``graph`` with more than one node (each sorted), in
    sorted order: every import circle lies within one."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    parts: List[List[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                parts.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(parts)


#: Import circles of the Rust crate not yet undone: none. A parent ``mod.rs`` (or
#: ``bots.rs``) that re-exports its files' names (``pub use child::Y``) defines nothing its
#: files use, and its files import from the file that defines a name, never through the
#: parent. A new circle fails the test, and so does an entry here that is no longer a
#: circle (remove it).
KNOWN_RUST_CIRCLES: List[List[str]] = []

_LIB_MOD = re.compile(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;")
_LAYER_ITEM = re.compile(r"^//!\s*(\d+)\.\s")
_DOC_COMMENT = re.compile(r"(?m)^\s*//[/!].*$")


def rust_layers(lib_source: str) -> Dict[str, int]:
    """The layer of each top-level module of the crate, from the numbered list in the
    documentation of ``src/lib.rs`` ("Layers, bottom up"): an item ``N. ...`` and the lines
    indented under it put the modules they name in backquotes (``[`card`]``, ```python```) at
    layer ``N``. Only modules that ``lib.rs`` declares count."""
    declared = set(_LIB_MOD.findall(lib_source))
    layers: Dict[str, int] = {}
    layer: Optional[int] = None
    for line in lib_source.splitlines():
        if not line.startswith("//!"):
            continue
        item = _LAYER_ITEM.match(line)
        if item:
            layer = int(item.group(1))
        elif not line.startswith("//!   "):
            layer = None  # the list, or the item, ended
        if layer is not None:
            for name in re.findall(r"`([a-z_][a-z0-9_]*)`", line):
                if name in declared:
                    layers.setdefault(name, layer)
    return layers


def upward_uses(src: Path, layers: Dict[str, int]) -> List[str]:
    """``file: path`` for every path into the crate (``use crate::``, ``super::``, in code,
    tests included; doc comments do not count) that names a module of a higher layer than
    the file's own."""
    files = {f: rust_module(f, src) for f in sorted(src.rglob("*.rs"))}
    modules = set(files.values())
    found = []
    for f, here in files.items():
        if not here:
            continue  # lib.rs declares the modules
        for used in rust_uses(_DOC_COMMENT.sub("", f.read_text(encoding="utf-8")), here, modules):
            low, high = layers.get(here[0], 0), layers.get(used[0], 0) if used else 0
            if high > low:
                found.append(f"{f.relative_to(src)} (layer {low}): {_rust_name(used)} (layer {high})")
    return found


#: Most lines a Rust function may span, from the line of its ``{`` to that of its ``}``.
MAX_FN_LINES = 120

_FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")
_RAW_STRING = re.compile(r'(?<![\w])r(#*)"')
_CHAR = re.compile(r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'\n])'")


def _blank(text: str) -> str:
    """``text`` with comments, strings and character literals blanked out (newlines kept),
    so that braces inside them do not count."""
    out: List[str] = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif (raw := _RAW_STRING.match(text, i)) is not None:
            end = '"' + raw.group(1)
            j = text.find(end, raw.end())
            j = n if j < 0 else j + len(end)
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
        elif (ch := _CHAR.match(text, i)) is not None:
            j = ch.end()
        else:
            out.append(text[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:j]))
        i = j
    return "".join(out)


def rust_functions(source: str) -> List[Tuple[str, int, int]]:
    """Every function with a body in a Rust file: ``(name, line of fn, lines of the body)``,
    the body counted from the line of its opening brace to the line of its closing one."""
    text = _blank(source)
    found = []
    for m in _FN.finditer(text):
        i, depth = m.end(), 0
        while i < len(text) and not (depth <= 0 and text[i] in "{;"):
            depth += {"(": 1, "[": 1, "<": 1, ")": -1, "]": -1, ">": -1}.get(text[i], 0)
            i += 1
        if i >= len(text) or text[i] == ";":
            continue  # a declaration without a body (in a trait)
        depth, j = 0, i
        while j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            if depth == 0:
                break
            j += 1
        found.append((m.group(1), text.count("\n", 0, m.start()) + 1, text.count("\n", i, j) + 1))
    return found


# ------------------------------------------------------------------ tests


def test_find_cycle_finds_cycles_and_only_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"d"}}) is None
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


def test_import_parsers_see_every_form():
    modules = {"records", "rules", "_core", "render", "_checks"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import _core\n"
        "from .render import x\n"
        "if TYPE_CHECKING:\n    from .rules import Rules\nelse:\n    from ._checks import y\n"
        "def f():\n    import eights.records\n"
        "from eights import Game\n"
    )
    assert python_imports(source, modules) == {"_core", "render", "_checks", "records", "__init__"}
    assert rust_module(Path("/s/game/legal.rs"), Path("/s")) == ("game", "legal")
    assert rust_module(Path("/s/python/mod.rs"), Path("/s")) == ("python",)
    assert rust_module(Path("/s/bots.rs"), Path("/s")) == ("bots",)
    assert rust_module(Path("/s/lib.rs"), Path("/s")) == ()


def test_rust_reader_sees_submodules():
    modules = {(), ("card",), ("game",), ("game", "legal"), ("game", "state"), ("rules",), ("rules", "spec")}
    modules |= {("rules", "spec", "cards"), ("vec_env",), ("observation",), ("bots",)}
    rust = (
        "use crate::card::{Card, Suit};\n"
        "use crate::{rules::{self, spec::cards::Wild}, game::Game};\n"
        "use super::state::State;\n"
        "use super::super::bots as b;\n"
        "// crate::bots::x and super::legal are only named in a comment\n"
        "/* crate::vec_env is in a block comment */\n"
        "/// See [`crate::vec_env::VecEnv`].\n"
        "fn f() { crate::observation::encode(); self::g(); std::mem::swap(); }\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::legal;\n}\n"
    )
    here = ("game", "legal")
    uses = rust_uses(rust, here, modules)
    assert uses == {("card",), ("rules",), ("rules", "spec", "cards"), ("game",), ("game", "state"), ("bots",)} | {
        ("vec_env",),
        ("observation",),
    }
    # A child module by name, and `self` in a group: the module itself does not count.
    parent = "pub use spec::cards::*;\nuse self::spec::{self as s};\nmod spec;\n"
    assert rust_uses(parent, ("rules",), modules) == {("rules", "spec", "cards"), ("rules", "spec")}
    assert rust_uses("mod spec;\n", ("rules",), modules) == set()


def test_strongly_connected_finds_every_circle():
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c"}, "e": {"a"}}
    assert strongly_connected(graph) == [["a", "b"], ["c", "d"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_rust_function_reader_counts_body_lines():
    source = (
        "trait T { fn decl(&self) -> u8; }\n"
        "fn one() -> Result<Vec<u8>, ()> { Ok(vec![]) }\n"
        "pub(crate) fn three<T: Into<u8>>(x: T)\nwhere T: Copy\n{\n"
        '    let s = "}}}"; let c = \'{\'; let r = r#"{"#; // }\n'
        "    /* } */ let f = |y: u8| { y };\n}\n"
    )
    assert rust_functions(source) == [("one", 2, 1), ("three", 3, 4)]


def test_rust_layer_reader_and_check(tmp_path):
    lib = (
        "//! Layers, bottom up:\n"
        "//! 1. [`card`], [`card_set`]: cards;\n"
        "//!    [`seed`]: seeds.\n"
        "//! 2. [`game`]: the game; `python` (feature `python`)\n"
        "//!\n"
        "//! [`bots`] plays.\n"
        "pub mod bots;\npub mod card;\npub mod card_set;\npub mod game;\npub mod seed;\nmod python;\n"
    )
    layers = rust_layers(lib)
    assert layers == {"card": 1, "card_set": 1, "seed": 1, "game": 2, "python": 2}
    (tmp_path / "game").mkdir()
    (tmp_path / "lib.rs").write_text(lib)
    (tmp_path / "card.rs").write_text("/// Unlike [`crate::game::Game`] (a doc link).\nuse crate::seed::derive;\n")
    (tmp_path / "seed.rs").write_text("#[cfg(test)]\nmod tests {\n    use crate::game::Game;\n}\n")
    (tmp_path / "game" / "mod.rs").write_text("use crate::card::Card;\nmod legal;\n")
    (tmp_path / "game" / "legal.rs").write_text("use super::super::card_set::CardSet;\n")
    assert upward_uses(tmp_path, layers) == ["seed.rs (layer 1): game (layer 2)"]


@pytest.mark.skipif(not SRC.is_dir(), reason="the Rust source tree is not here")
def test_rust_paths_point_down_the_layer_list_of_lib_rs():
    lib = (SRC / "lib.rs").read_text(encoding="utf-8")
    layers = rust_layers(lib)
    assert set(layers) == set(_LIB_MOD.findall(lib)), "a module of lib.rs is missing from its layer list"
    assert layers["card"] < layers["rules"] < layers["game"] < layers["observation"] < layers["bots"]
    up = upward_uses(SRC, layers)
    assert not up, "paths up the layer list of src/lib.rs:\n" + "\n".join(up)


@pytest.mark.skipif(not PACKAGE.is_dir(), reason="the package source tree is not here")
def test_python_modules_have_no_import_cycle():
    graph = python_graph(PACKAGE)
    assert {"records", "rules", "envs.vector"} <= set(graph)
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph) or [])}"


def subpackage_graph(graph: Graph) -> Graph:
    """``graph`` with every module folded into its subpackage (``arena.run`` into ``arena``;
    the package's own modules stay as they are)."""
    top = {m.split(".")[0] for m in graph if "." in m}

    def unit(m: str) -> str:
        head = m.split(".")[0]
        return head if head in top else m

    folded: Graph = {}
    for m, deps in graph.items():
        folded.setdefault(unit(m), set()).update(unit(d) for d in deps if unit(d) != unit(m))
    return folded


def test_subpackage_graph_folds_modules_into_their_subpackage():
    graph = {"arena.run": {"train.ppo"}, "train.ppo": {"arena"}, "arena": {"arena.run"}, "records": set()}
    assert subpackage_graph(graph) == {"arena": {"train"}, "train": {"arena"}, "records": set()}


@pytest.mark.skipif(not PACKAGE.is_dir(), reason="the package source tree is not here")
def test_python_subpackages_have_no_import_cycle():
    # Subpackages are layers too: arena.exploit once imported train, whose run folder imports
    # the arena, a circle no module-level check saw.
    graph = subpackage_graph(python_graph(PACKAGE))
    assert {"arena", "train", "envs", "agents"} <= set(graph)
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph) or [])}"


@pytest.mark.skipif(not SRC.is_dir(), reason="the Rust source tree is not here")
def test_rust_files_have_no_circle_but_the_known_ones():
    graph = rust_graph(SRC)
    assert {"game", "game::legal", "rules::encode::cards", "python::game", "python::rules"} <= set(graph)
    assert "python::game" not in graph["python::rules"], "python::rules uses python::game again"
    assert strongly_connected(graph) == KNOWN_RUST_CIRCLES


@pytest.mark.skipif(not SRC.is_dir(), reason="the Rust source tree is not here")
def test_rust_functions_are_at_most_120_lines():
    long = [
        f"{f.relative_to(ROOT)}:{line} {name} ({n} lines)"
        for f in sorted(SRC.rglob("*.rs"))
        for name, line, n in rust_functions(f.read_text(encoding="utf-8"))
        if n > MAX_FN_LINES
    ]
    assert not long, "functions over 120 lines: " + ", ".join(long)
