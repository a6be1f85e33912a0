"""Every documented variant of every preset is audited (docs/fidelity.md#variants-one-by-one).

The section "Variants, one by one" of docs/fidelity.md holds a table per preset: variant |
source sentence | what it changes | test. This check reads it and asks, for every variant that
``eights.Rules(preset).variants`` documents:

* a row in that preset's table, quoting the source (a quoted sentence in the second cell);
* a test named in the last cell as ``file.py::test_name`` (a file of ``tests/python/scenarios``)
  that exists and names the variant in its text (decorators, signature and docstring
  included), and whose docstring quotes the source.

A variant added without its row and its test fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import eights

ROOT = Path(__file__).resolve().parents[3]
FIDELITY = ROOT / "docs" / "fidelity.md"
SCENARIOS = ROOT / "tests" / "python" / "scenarios"

pytestmark = pytest.mark.skipif(not FIDELITY.is_file(), reason="needs the source tree (docs/)")

SECTION = "## Variants, one by one"
PRESET_HEADING = re.compile(r"^### `(\w+)` variants\s*$")
ROW = re.compile(r"^\| `(\w+)` \|(.*)\|\s*$")
TEST_REF = re.compile(r"`?([\w]+\.py)::(\w+)")


def _rows() -> Dict[Tuple[str, str], List[str]]:
    """``(preset, variant) -> [source, change, test]`` cells of the section's tables."""
    text = FIDELITY.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    rows: Dict[Tuple[str, str], List[str]] = {}
    preset = None
    for line in text[start : end if end >= 0 else len(text)].splitlines():
        m = PRESET_HEADING.match(line)
        if m:
            preset = m.group(1)
            continue
        m = ROW.match(line)
        if m and preset is not None:
            cells = [c.strip() for c in m.group(2).split(" | ")]
            assert (preset, m.group(1)) not in rows, f"two rows for {preset}/{m.group(1)}"
            rows[(preset, m.group(1))] = cells
    return rows


def _functions(path: Path) -> Dict[str, Tuple[str, str]]:
    """``name -> (text with decorators, docstring)`` of the test functions of a file."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    out = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            out[node.name] = ("\n".join(lines[first - 1 : node.end_lineno]), ast.get_docstring(node) or "")
    return out


def _documented() -> List[Tuple[str, str]]:
    return [(p, v) for p in eights.presets() for v in eights.Rules(p).variants]


def _cases():
    for preset, variant in _documented():
        yield pytest.param(preset, variant, id=f"{preset}/{variant}")


ROWS = _rows()


@pytest.mark.parametrize("preset, variant", list(_cases()))
def test_every_documented_variant_has_a_row_and_a_test(preset, variant):
    assert (preset, variant) in ROWS, f"docs/fidelity.md has no row for {preset}/{variant}"
    source, change, test = ROWS[(preset, variant)]
    assert '"' in source, f"{preset}/{variant}: the row quotes no source sentence"
    assert change, f"{preset}/{variant}: the row does not say what the variant changes"
    refs = TEST_REF.findall(test)
    assert refs, f"{preset}/{variant}: the row names no test"
    for file, name in refs:
        path = SCENARIOS / file
        assert path.is_file(), f"{preset}/{variant}: {file} is not a scenario test file"
        functions = _functions(path)
        assert name in functions, f"{preset}/{variant}: {file} has no test {name}"
        text, doc = functions[name]
        assert variant in text, f"{preset}/{variant}: {file}::{name} does not name the variant"
        assert '"' in doc, f"{preset}/{variant}: {file}::{name} quotes no source in its docstring"


def test_no_row_for_a_variant_that_is_not_documented():
    documented = set(_documented())
    assert [key for key in ROWS if key not in documented] == []
