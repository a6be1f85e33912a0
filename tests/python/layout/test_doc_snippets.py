"""The Python examples of the documentation stay true: every ```python block of ``docs/``
compiles and every name it takes from the package exists; the blocks of the pages a reader
runs as written (the tutorials, the rules an agent sees, the envs' spawn example, the
network's export, the API page's doctest) run, a page's blocks in order in one namespace,
in a scratch folder that has the repository's ``examples/`` and the files a page asks the reader to
save (``SAVED``; the page shows each whole). A block left out of the run
says why in ``NOT_RUN``: it trains for minutes, needs a Ray cluster, or stands for the
reader's own policy. The README's snippets have their own test (``test_readme.py``)."""

from __future__ import annotations

import ast
import doctest
import importlib
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from _helpers import import_or_skip

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"

pytestmark = pytest.mark.skipif(not DOCS.is_dir(), reason="needs the source tree (docs/)")

#: (page, index of the block on its page) -> why it does not run here; its names are checked.
NOT_RUN: Dict[Tuple[str, int], str] = {
    ("baselines.md", 0): "trains a best response for a million decisions",
    ("cluster.md", 0): "needs a running Ray cluster (ray='auto')",
    ("rules_agents_see.md", 3): "the generalization benchmark with a search bot: minutes on two cores",
    ("tools.md", 0): "needs Stable-Baselines3 and moviepy, and writes videos",
    ("tools.md", 1): "needs OpenSpiel; its own tests run the same calls",
    ("tutorials/arena.md", 0): "my_policy stands for the reader's policy",
    ("tutorials/arena.md", 1): "trains a best response for a million decisions",
}

#: Pages whose blocks need an optional extra to run: (module, extra).
NEEDS = {"net.md": ("torch", "train")}

#: Files a page shows whole and asks the reader to save before its blocks run: page -> (the
#: name to save it as, the repository's copy). The page's block must be the file, byte for byte.
SAVED = {"tutorials/house_rules.md": ("house_rules.toml", "examples/house_rules.toml")}


def _blocks() -> Dict[str, List[str]]:
    pages = {}
    for path in sorted(DOCS.rglob("*.md")):
        found = re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), re.M | re.S)
        if found:
            pages[path.relative_to(DOCS).as_posix()] = found
    return pages


PAGES = _blocks()
BLOCKS = [(page, i) for page, blocks in PAGES.items() for i in range(len(blocks))]


def _source(page: str, index: int) -> str:
    """A block as a program: a doctest block as the code of its examples."""
    text = PAGES[page][index]
    if text.lstrip().startswith(">>>"):
        return "".join(ex.source for ex in doctest.DocTestParser().get_examples(text))
    return text


def _walk(value: object, attrs: List[str], where: str) -> None:
    """``value.a.b...`` exists, as far as the chain runs through modules and classes."""
    for attr in attrs:
        if not isinstance(value, (types.ModuleType, type)):
            return
        if isinstance(value, types.ModuleType) and not hasattr(value, attr):
            # a submodule not imported by its package: importable by name
            try:
                value = importlib.import_module(f"{value.__name__}.{attr}")
                continue
            except ImportError:
                pass
        assert hasattr(value, attr), f"{where}: {getattr(value, '__name__', value)} has no {attr!r}"
        value = getattr(value, attr)


def _chain(node: ast.expr) -> Tuple[str, List[str]]:
    attrs: List[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    return (node.id if isinstance(node, ast.Name) else ""), attrs[::-1]


@pytest.mark.parametrize("page,index", BLOCKS, ids=[f"{p}-{i}" for p, i in BLOCKS])
def test_the_block_names_what_the_package_has(page, index):
    where = f"docs/{page} block {index + 1}"
    tree = ast.parse(_source(page, index), where)
    bound: Dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "eights":
                    import_or_skip(alias.name)
                    top = alias.name.split(".")[0]
                    bound[alias.asname or top] = import_or_skip(alias.asname and alias.name or top)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "eights":
            module = import_or_skip(node.module or "")
            for alias in node.names:
                _walk(module, [alias.name], where)
                bound[alias.asname or alias.name] = getattr(module, alias.name, None) or import_or_skip(
                    f"{module.__name__}.{alias.name}"
                )
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(getattr(node, "ctx", None), ast.Store):
            name, attrs = _chain(node)
            if name in bound:
                _walk(bound[name], attrs, where)


def _program(page: str, index: int) -> str:
    """A block as it runs: a doctest block through doctest, so its outputs are compared."""
    text = PAGES[page][index]
    if not text.lstrip().startswith(">>>"):
        return text
    return (
        "import doctest\n"
        f"_test = doctest.DocTestParser().get_doctest({text!r}, {{}}, 'docs/{page}', None, 0)\n"
        "_runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)\n"
        "_runner.run(_test)\n"
        "assert _runner.failures == 0, 'a doctest example failed (above)'\n"
    )


RUN_PAGES = sorted({page for page, i in BLOCKS if (page, i) not in NOT_RUN})


@pytest.mark.slow
@pytest.mark.parametrize("page", RUN_PAGES)
def test_the_page_runs(page, tmp_path):
    if page in NEEDS:
        pytest.importorskip(*NEEDS[page][:1], reason=f"needs the {NEEDS[page][1]} extra")
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    if page in SAVED:  # what the reader saved from the page (the next test holds them equal)
        name, copy = SAVED[page]
        (tmp_path / name).write_bytes((ROOT / copy).read_bytes())
    program = "\n".join(
        f"# docs/{page} block {i + 1}\n{_program(page, i)}" for i in range(len(PAGES[page])) if (page, i) not in NOT_RUN
    )
    (tmp_path / "page.py").write_text(program, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "page.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )  # fmt: skip
    assert done.returncode == 0, f"docs/{page}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


def test_the_python_blocks_import_no_internal_module():
    """A reader copies the docs' code into their own: it goes through public paths, never
    ``eights._core`` or another underscore module (the fine-tuning recipe of docs/net.md
    loaded the shipped network through ``_core.card_net_weights``)."""
    private = re.compile(r"\beights\.(_\w+)|from eights import (_\w+)|from eights\.\S*\._\w+")
    found = [f"{page}, block {i}: {m.group(0)}" for page, i in BLOCKS for m in private.finditer(PAGES[page][i])]
    assert not found, found


@pytest.mark.parametrize("page", sorted(SAVED))
def test_a_file_the_page_asks_to_save_is_shown_whole(page):
    name, copy = SAVED[page]
    shown = re.findall(r"^```toml\n(.*?)^```", (DOCS / page).read_text(encoding="utf-8"), re.M | re.S)
    assert (ROOT / copy).read_text(encoding="utf-8") in shown, f"docs/{page} does not show {copy} as it is"
