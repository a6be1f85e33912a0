"""The shape of the Python package, so that a newcomer can read it top-down: short modules
and functions, few modules at the top, one seed bound; and tests that import their helpers
without editing ``sys.path``.

The package is read from where ``eights`` is imported (the source tree, or an installed
wheel, which ships the same ``.py`` files); the tests from this folder's parent.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import eights

PACKAGE = Path(eights.__file__).resolve().parent
TESTS = Path(__file__).resolve().parents[1]

MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 80
MAX_TOP_LEVEL_MODULES = 14
SEED_BOUND_NAME = re.compile(r"^_?(SEED_BOUND|U64_MAX)$")


def _modules():
    return sorted(PACKAGE.rglob("*.py"))


def _rel(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def _parse(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_no_module_is_longer_than_450_lines():
    long = {}
    for path in _modules():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_MODULE_LINES:
            long[_rel(path)] = n
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_function_is_longer_than_80_lines():
    # A function's lines run from its ``def`` (decorators excluded) to its last line.
    long = {}
    for path in _modules():
        for node in ast.walk(_parse(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long[f"{_rel(path)}:{node.lineno} {node.name}"] = n
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_few_modules_directly_in_the_package():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, f"{len(top)} modules directly in eights/: {top}"


def _sys_path_edits(tree: ast.AST):
    """Lines that change ``sys.path``: a call of one of its methods (``sys.path.insert``,
    ``append``, ...) or an assignment to it or to an item of it."""

    def is_sys_path(node: ast.AST) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "path"
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        )

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_sys_path(node.func.value):
            yield node.lineno
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if is_sys_path(target) or (isinstance(target, ast.Subscript) and is_sys_path(target.value)):
                yield node.lineno


def test_sys_path_edit_finder_sees_every_form():
    source = (
        "import sys\nsys.path.insert(0, 'x')\nsys.path.append('y')\nsys.path = []\n"
        "sys.path[:0] = ['z']\nsys.path += ['w']\nprint(sys.path)\n"
    )
    assert sorted(_sys_path_edits(ast.parse(source))) == [2, 3, 4, 5, 6]


def test_no_test_edits_sys_path():
    edits = [
        f"{path.relative_to(TESTS).as_posix()}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        for line in _sys_path_edits(_parse(path))
    ]
    assert not edits, f"sys.path edits under tests/python: {edits}"


def test_one_definition_of_the_seed_bound():
    # Every entry point takes seeds in one range: its bound is assigned once, and every
    # other module imports it.
    found = []
    for path in _modules():
        for node in ast.walk(_parse(path)):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and SEED_BOUND_NAME.match(target.id):
                    found.append(f"{_rel(path)}:{node.lineno} {target.id}")
    assert len(found) == 1, f"seed bound assigned {len(found)} times: {found}"
