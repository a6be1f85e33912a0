"""docs/presets.md is generated from the preset files and must be up to date."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import eights

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "gen_presets_doc.py"
DOC = ROOT / "docs" / "presets.md"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_presets_doc", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_presets_doc_is_up_to_date():
    expected = _generator().generate()
    current = DOC.read_text(encoding="utf-8") if DOC.is_file() else ""
    assert current == expected, (
        "docs/presets.md is out of date: run `python scripts/gen_presets_doc.py` and commit the result"
    )


def test_presets_doc_covers_every_preset_and_variant():
    text = DOC.read_text(encoding="utf-8")
    for name in eights.presets():
        rules = eights.Rules(name)
        assert f"## `{name}`: {rules.title}" in text
        for variant in rules.variants:
            assert f"| `{variant}`" in text, (name, variant)
        for note in eights.Rules(name).to_dict()["simplifications"]:
            assert note in text


def test_every_preset_file_is_a_preset():
    files = {p.stem for p in (ROOT / "src" / "rules" / "presets").glob("*.toml")}
    assert files == set(eights.presets())


def test_preset_sources_cite_titles_not_file_numbers():
    # Sources name the text (title, author or contributor), never a numbered input file.
    for name in eights.presets():
        source = eights.Rules(name).to_dict()["source"]
        assert source.strip(), name
        assert not re.search(r"seed files?|\bfiles? \d{3}\b", source, re.I), (name, source)


def test_layouts_doc_rules_encoding_is_up_to_date():
    spec = importlib.util.spec_from_file_location("gen_layouts_doc", ROOT / "scripts" / "gen_layouts_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    layouts = ROOT / "docs" / "layouts.md"
    text = layouts.read_text(encoding="utf-8")
    assert module.generate(text) == text, (
        "docs/layouts.md's rules encoding is out of date: run `python scripts/gen_layouts_doc.py` and commit"
    )


def _exploitability_script():
    spec = importlib.util.spec_from_file_location("exploitability", ROOT / "scripts" / "exploitability.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_exploitability_table_is_the_one_the_committed_results_give():
    # docs/baselines.md's table (between the exploit markers) is written by
    # scripts/exploitability.py from the runs' results, kept in benchmarks/results/exploitability.
    script = _exploitability_script()
    args = script.argparse.Namespace(
        agents=",".join(script.AGENTS), presets=",".join(script.PRESETS), starts=",".join(script.STARTS)
    )
    paths = [script.run_dir(str(script.DATA), *run) for run in script.grid(args)]
    results = [script.finished(path) for path in paths]
    assert all(r is not None for r in results), "a run of the measurement has no finished result"
    for r in results:
        assert r.budget.decisions == 1_000_000 and r.decisions >= 1_000_000 and r.eval["deals"] == 1000
    text = script.table(results, [script.start_rate(path, r) for path, r in zip(paths, results)])
    doc = (ROOT / "docs" / "baselines.md").read_text(encoding="utf-8")
    assert f"{script.BEGIN}\n{text}\n{script.END}" in doc, (
        "docs/baselines.md's exploitability table is out of date: run "
        "`python scripts/exploitability.py --report-only --runs benchmarks/results/exploitability`"
    )
