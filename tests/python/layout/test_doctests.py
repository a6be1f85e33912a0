"""The package's docstring examples (``>>>``) run as doctests, so they stay true.

Examples are written after ``import eights`` and ``import numpy as np`` (the runner provides
both).  The modules are found by name (``pkgutil.walk_packages`` over the installed ``eights``), not
by path, so this runs the same against the source tree and against an installed wheel.  A
module whose optional extra is not installed (``eights.integrations.rllib`` without Ray, ...) is skipped,
as its own tests are.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import numpy as np
import pytest

import eights
from _helpers import import_or_skip

OPTIONFLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

#: What every example may take as imported, as NumPy's examples take ``np``: the package's
#: own modules then never name the package in an import, which text-based structure tools
#: would read as an import cycle.
EXAMPLE_GLOBALS = {"eights": eights, "np": np}


def _module_names() -> list:
    """Every module of the package, found without importing the leaf modules."""
    names = ["eights"]
    for info in pkgutil.walk_packages(eights.__path__, "eights.", onerror=lambda name: None):
        names.append(info.name)
    return sorted(set(names))


def _has_examples(name: str) -> bool:
    """Whether the module's source holds a ``>>>`` example (read without importing it; the
    Rust extension has no Python source and no examples)."""
    spec = importlib.util.find_spec(name)
    origin = spec.origin if spec else None
    if not origin or not origin.endswith(".py"):
        return False
    with open(origin, encoding="utf-8") as f:
        return ">>>" in f.read()


MODULES = [name for name in _module_names() if _has_examples(name)]


def test_the_package_has_doctests():
    assert MODULES, "no module of the package has a >>> example"
    assert "eights" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name, tmp_path, monkeypatch):
    module = import_or_skip(name)
    # Examples that write files write them into a fresh folder.
    monkeypatch.chdir(tmp_path)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=OPTIONFLAGS)
    tests = [t for t in finder.find(module, name) if t.examples]
    assert tests, f"{name} has '>>>' in its source but no doctest was found"
    report: list = []  # the runner swaps sys.stdout while it runs: collect its report
    for test in tests:
        test.globs.update(EXAMPLE_GLOBALS)
        runner.run(test, out=report.append)
    failed, attempted = runner.failures, runner.tries
    assert failed == 0, f"{failed} of {attempted} examples of {name} failed:\n" + "".join(report)
