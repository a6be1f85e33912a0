"""Every citation of a document in the tests (Python and Rust) resolves: the file is in the
repository and, when a section is named (``docs/rules_catalog.md#switch_blackjack``), one of
its headings has that anchor, computed as the documentation site (Python-Markdown's ``toc``)
and GitHub compute it.  And no test cites a catalog that is not in the repository."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

from markdown_helpers import anchors, slugify

ROOT = Path(__file__).resolve().parents[3]
CATALOG = ROOT / "docs" / "rules_catalog.md"

pytestmark = pytest.mark.skipif(not CATALOG.is_file(), reason="needs the source tree (docs/)")

# A repository document, optionally with a section: docs/x.md, docs/tutorials/x.md#anchor,
# CONTRIBUTING.md#typing, benchmarks/README.md.
CITATION = re.compile(r"(?<![\w/.-])((?:docs|benchmarks)/[\w./-]*\w\.md|[A-Z]+\.md)(?:#([\w-]+))?")


def citations(paths: List[Path]) -> List[Tuple[str, int, str, str]]:
    """``(file, line, document, anchor)`` for every citation in ``paths``."""
    out = []
    for path in paths:
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in CITATION.finditer(line):
                out.append((str(path.relative_to(ROOT)), i, m.group(1), m.group(2) or ""))
    return out


def unresolved(cited: List[Tuple[str, int, str, str]]) -> List[str]:
    cache: Dict[Path, Set[str]] = {}
    bad = []
    for where, line, doc, anchor in cited:
        path = ROOT / doc
        if not path.is_file():
            bad.append(f"{where}:{line}: {doc} is not a file of the repository")
            continue
        if anchor:
            if path not in cache:
                cache[path] = anchors(path.read_text(encoding="utf-8"))
            if anchor not in cache[path]:
                bad.append(f"{where}:{line}: {doc} has no section #{anchor}")
    return bad


def _test_files() -> List[Path]:
    files = sorted((ROOT / "tests" / "python").rglob("*.py")) + sorted((ROOT / "tests").glob("*.rs"))
    return [f for f in files if f.resolve() != Path(__file__).resolve()]  # this file's examples aside


def test_the_anchor_rules_are_the_sites():
    text = "# Rules catalog\n\n## `crazy_eights`: basic game\n\n```\n# not a heading\n```\n## One left\n## One left\n"
    assert anchors(text) == {"rules-catalog", "crazy_eights-basic-game", "one-left", "one-left_1"}
    assert slugify("Batched environments (`eights.VecEnv`)") == "batched-environments-eightsvecenv"


def test_a_wrong_citation_is_reported():
    cited = [("t.py", 1, "docs/rules_catalog.md", "no-such-section"), ("t.py", 2, "docs/no_such_page.md", "")]
    assert len(unresolved(cited)) == 2
    assert unresolved([("t.py", 3, "docs/rules_catalog.md", "switch_blackjack")]) == []


def test_every_citation_in_the_tests_resolves():
    cited = citations(_test_files())
    # The scenario tests alone cite the catalog for every preset they check.
    assert sum(1 for _, _, doc, anchor in cited if doc == "docs/rules_catalog.md" and anchor) >= 50
    assert unresolved(cited) == []


def test_every_scenario_file_cites_its_preset_section():
    import eights

    for path in sorted((ROOT / "tests" / "python" / "scenarios").glob("test_scenarios_*.py")):
        text = path.read_text(encoding="utf-8")
        preset = re.search(r'^PRESET = "(\w+)"', text, re.M)
        if preset is None or preset.group(1) not in eights.presets():
            continue
        assert f"docs/rules_catalog.md#{preset.group(1)}" in text, path.name


def test_the_catalog_has_a_section_and_scenario_checks_for_every_preset():
    import eights

    found = anchors(CATALOG.read_text(encoding="utf-8"))
    for preset in eights.presets():
        assert preset in found and f"{preset}-scenario-checks" in found, preset


def test_no_test_cites_a_file_outside_the_repository():
    for path in _test_files() + sorted((ROOT / "src").rglob("*.rs")) + sorted((ROOT / "python").rglob("*.py")):
        assert "RULES.md" not in path.read_text(encoding="utf-8"), path
