"""scripts/ladder.py, the bot ladder of docs/baselines.md: its short run end to end, resuming
from its results file, adding a column, and keeping the rest of the document."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

import eights

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "ladder.py"
DOC = ROOT / "docs" / "baselines.md"


@pytest.fixture(scope="module")
def ladder():
    spec = importlib.util.spec_from_file_location("eights_ladder_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    # Registered first: its dataclass looks its module up while the class is built.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.fixture(scope="module")
def short_run(ladder, tmp_path_factory):
    """One short run (4 deals, crazy_eights and one_left) into a fresh directory."""
    d = tmp_path_factory.mktemp("ladder")
    results, out = d / "results.jsonl", d / "baselines.md"
    assert ladder.main(["--short", "--results", str(results), "--out", str(out)]) == 0
    return ladder, results, out


def test_tables_are_the_smallest_and_four_players(ladder):
    assert ladder.tables("crazy_eights") == [2, 4]
    assert ladder.tables("one_left") == [2]  # two players only
    assert ladder.tables("one_card") == [2]  # at most three
    assert ladder.tables("rose_mau") == [5]  # five at least
    assert ladder.tables("stalin") == [4]


def test_a_short_run_fills_every_cell(short_run):
    ladder, results, out = short_run
    text = out.read_text(encoding="utf-8")
    assert text.count(ladder.BEGIN) == 1 and text.count(ladder.END) == 1
    body = text.split(ladder.BEGIN)[1].split(ladder.END)[0]
    rows = [line for line in body.splitlines() if line.startswith("| `")]
    # crazy_eights at 2 and 4 players, one_left at 2 only.
    assert [r.split("|")[1:3] for r in rows] == [
        [" `crazy_eights` ", " 2 "],
        [" `one_left` ", " 2 "],
        [" `crazy_eights` ", " 4 "],
    ]
    assert "…" not in "".join(rows), "every match was played"
    one_left = rows[1].split("|")
    assert one_left[7].strip() not in ("—", ""), "net plays every rule set"
    assert one_left[8].strip() == "—", "net1 does not play one_left"
    records = [json.loads(line) for line in results.read_text().splitlines()]
    played = [r for r in records if "skipped" not in r]
    assert {(r["agent"], r["opponent"]) for r in played} == {
        ("heuristic", "random"),
        ("ismcts:400", "heuristic"),
        ("pimc:50", "heuristic"),
        ("net", "heuristic"),
        ("net1", "heuristic"),
        ("oracle:50", "ismcts:400"),
    }
    for r in played:
        assert 0.0 <= r["low"] <= r["win_rate"] <= r["high"] <= 1.0
        assert r["deals"] == 4 and r["games"] == 4 * r["players"]
        assert 0.0 < r["choice_share"] <= 1.0
    assert "python scripts/ladder.py --deals 4 --presets crazy_eights,one_left" in body


def test_a_second_run_resumes_and_a_new_column_adds_only_its_matches(short_run, capsys):
    ladder, results, out = short_run
    before = results.read_text().splitlines()
    args = ["--short", "--results", str(results), "--out", str(out)]
    assert ladder.main(args) == 0
    assert "0 matches to play" in capsys.readouterr().out
    assert results.read_text().splitlines() == before
    assert ladder.main(args + ["--column", "random_vs_heuristic=random,heuristic"]) == 0
    added = [json.loads(line) for line in results.read_text().splitlines()[len(before) :]]
    assert [(r["preset"], r["players"], r["agent"]) for r in added] == [
        ("crazy_eights", 2, "random"),
        ("one_left", 2, "random"),
        ("crazy_eights", 4, "random"),
    ]
    assert "`random` vs `heuristic`" in out.read_text(encoding="utf-8")


def test_writing_the_table_keeps_the_rest_of_the_document(ladder, tmp_path):
    doc = tmp_path / "baselines.md"
    doc.write_text(
        f"# Baselines\n\nIntro.\n\n{ladder.BEGIN}\nold table\n{ladder.END}\n\n## Exploitability\n\nKept.\n",
        encoding="utf-8",
    )
    ladder.write_doc(doc, "new table\n")
    assert doc.read_text(encoding="utf-8") == (
        f"# Baselines\n\nIntro.\n\n{ladder.BEGIN}\nnew table\n{ladder.END}\n\n## Exploitability\n\nKept.\n"
    )
    bare = tmp_path / "other.md"
    bare.write_text("# Notes\n\nText.\n", encoding="utf-8")
    ladder.write_doc(bare, "t\n")
    assert bare.read_text(encoding="utf-8") == f"# Notes\n\nText.\n\n{ladder.BEGIN}\nt\n{ladder.END}\n"


def test_a_bad_column_is_an_error_naming_the_option(ladder):
    with pytest.raises(SystemExit):
        ladder.main(["--column", "nonsense", "--render-only"])


def test_the_published_table_has_a_row_per_preset(ladder):
    text = DOC.read_text(encoding="utf-8")
    body = text.split(ladder.BEGIN)[1].split(ladder.END)[0]
    for p in eights.presets():
        for n in ladder.tables(p):
            assert f"| `{p}` | {n} |" in body, (p, n)


def test_every_column_marks_a_shortfall_and_only_targets_count_against_the_ladder(ladder):
    """A cell whose interval does not clear 1/n is marked in any column; a target's shortfall is
    listed where the ladder does not hold, another column's in its own line."""
    cols = ladder.COLUMNS
    heur, search, pimc = cols[0], cols[1], cols[2]

    def rec(win, low, high):
        return {"win_rate": win, "low": low, "high": high, "games": 10, "no_winner": 0, "choice_share": 0.5}

    done = {
        ladder.match_key("crazy_eights", 2, heur, 1000, 0): rec(0.9, 0.85, 0.95),
        ladder.match_key("crazy_eights", 2, search, 1000, 0): rec(0.52, 0.49, 0.55),
        ladder.match_key("crazy_eights", 2, pimc, 1000, 0): rec(0.47, 0.45, 0.49),
    }
    body = ladder.render(done, ["crazy_eights"], cols, 1000, 0, "cmd")
    row = next(line for line in body.splitlines() if line.startswith("| `crazy_eights` | 2 |"))
    cells = [c.strip() for c in row.split("|")[4:7]]
    assert cells == ["0.900 [0.850, 0.950]", "0.520 [0.490, 0.550] ✗", "0.470 [0.450, 0.490] ✗"]
    holds = body.split("### Where the ladder does not hold")[1]
    assert "* `crazy_eights` (2 players): `ismcts:400` vs `heuristic` 0.520" in holds
    assert "* `crazy_eights` (2 players): `pimc:50`" not in holds
    assert "intervals that do not clear the fair share: `pimc:50` vs `heuristic` on `crazy_eights` (2 players)" in holds
