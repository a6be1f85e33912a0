"""Every documented variant of every preset is audited (docs/fidelity.md#variants-one-by-one).

The section "Variants, one by one" of docs/fidelity.md holds a table per preset: variant |
source sentence | what it changes | test. This check reads it and asks, for every variant that
``eights.Rules(preset).variants`` documents:

* a row in that preset's table, quoting the source (a quoted sentence in the second cell);
* a test named in the last cell as ``file.py::test_name`` (a file of ``tests/python/scenarios``)
  that exists and names the variant in its text (decorators, signature and docstring
  included), and whose docstring quotes the source.

A variant whose source sentence speaks of scoring, of the end of a hand or of a match
(``SCORING``) also needs a test that plays a hand to its end under the variant and reads the
result: its row names it after ``ends a hand:``, and the test, besides the above, reads the
end (``is_terminal`` or ``hands_played``) and the result (points, scores, returns, the
finishing order or the winner). Its expected numbers are counted by hand from the sentence,
in its docstring.

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
# A source sentence about scoring, the end of a hand or a match.
SCORING = re.compile(
    r"scor|point|doubl|\bwins?\b|winner|loser|loses|game ends|game is over|blocked|end of the round|"
    r"2nd place|no card to play|until no one",
    re.IGNORECASE,
)
# The tests named after "ends a hand:" in a row's last cell.
END_REFS = re.compile(r"ends a hand: ((?:`[\w]+\.py::\w+`(?:, )?)+)")
ENDS = ("is_terminal", "hands_played")
READS = ("hand_points", "scores", "returns(", "finishing_order", "winner")


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


def _scoring_cases():
    for preset, variant in _documented():
        source = ROWS.get((preset, variant), [""])[0]
        if SCORING.search(source):
            yield pytest.param(preset, variant, id=f"{preset}/{variant}")


@pytest.mark.parametrize("preset, variant", list(_scoring_cases()))
def test_every_scoring_variant_has_a_test_that_ends_a_hand(preset, variant):
    test = ROWS[(preset, variant)][2]
    found = END_REFS.search(test)
    assert found, f"{preset}/{variant}: the sentence speaks of the end; the row names no test after 'ends a hand:'"
    for file, name in TEST_REF.findall(found.group(1)):
        functions = _functions(SCENARIOS / file)
        assert name in functions, f"{preset}/{variant}: {file} has no test {name}"
        text, doc = functions[name]
        assert variant in text, f"{preset}/{variant}: {file}::{name} does not name the variant"
        assert '"' in doc, f"{preset}/{variant}: {file}::{name} quotes no source in its docstring"
        assert any(e in text for e in ENDS), f"{preset}/{variant}: {file}::{name} does not check the end of the hand"
        assert any(r in text for r in READS), f"{preset}/{variant}: {file}::{name} reads no result"


def test_the_scoring_audit_covers_the_variants_it_should():
    """The sentence test is no blind spot: the variants whose sentences are about the score
    or the end, as read from the sources, are all selected."""
    selected = {key for key in ROWS if SCORING.search(ROWS[key][0])}
    expected = {
        ("crazy_eights_xtreme", v)
        for v in ("alternative_scoring", "double_trouble", "match_to_100", "silly_hat", "single_pack", "winner_bonus")
    } | {
        ("crazy_eights_countdown", "no_reshuffle"),
        ("kings_reverse", "consecutive_passes"),
        ("one_card", "play_for_second"),
        ("one_card", "previous_loser"),
        ("advanced_switch", "match_to_250"),
        ("zodiac", "match_to_55"),
    }
    assert expected <= selected, sorted(expected - selected)
