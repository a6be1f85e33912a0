"""How the results show in IPython and Jupyter: as their table (the text ``print`` gives, not the
dataclass repr with its numpy arrays), and in Jupyter as HTML tables with every label escaped."""

from __future__ import annotations

import html

import pytest

from eights import arena
from eights import generalization as G
from eights.arena import Budget, ExploitResult

pytest.importorskip("IPython")

from IPython.core.formatters import DisplayFormatter  # noqa: E402

BAD = "<script>alert(1)</script>"


def _shown(obj):
    data, _ = DisplayFormatter().format(obj)
    return data


def _safe(markup: str) -> None:
    assert "<script" not in markup and html.escape(BAD) in markup


def test_a_tournament_shows_as_its_table():
    t = arena.tournament(["random", (BAD, "heuristic"), "heuristic"], games=6, seed=0, bootstrap=100)
    data = _shown(t)
    assert data["text/plain"] == t.table() and "array(" not in data["text/plain"]
    markup = data["text/html"]
    _safe(markup)
    assert markup.count("<table") == 2
    for a, r in zip(t.agents, t.ratings):
        assert html.escape(a) in markup and f">{r:.0f}<" in markup
    for m in t.matches:
        assert f">{m.win_rate:.3f}<" in markup
    assert repr(t).startswith("TournamentResult(agents=")  # repr itself unchanged


def test_a_tournament_shows_its_notes():
    # random never beats ismcts: a sweep, noted under the text table and the HTML one.
    t = arena.tournament(["random", "pimc:20"], games=4, seed=0, bootstrap=100)
    assert t.sweeps()
    markup = _shown(t)["text/html"]
    assert "pimc:20 won every game against random" in markup and "*" in markup


def test_a_match_shows_as_its_numbers():
    r = arena.evaluate((BAD, "heuristic"), "random", games=6, seed=0, bootstrap=100)
    data = _shown(r)
    assert data["text/plain"] == str(r)
    _safe(data["text/html"])
    assert f">{r.win_rate:.3f}<" in data["text/html"] and "decisions/s" in data["text/html"]


def test_a_generalization_result_shows_its_rule_sets_and_refusals():
    g = G.evaluate("net1", games=2, rule_sets=["crazy_eights", "one_card"], bootstrap=100)
    data = _shown(g)
    assert data["text/plain"] == g.table()
    markup = data["text/html"]
    assert "crazy_eights" in markup and "one_card refused: " in markup and ">IQM<" in markup
    assert f">{g.mean:.3f}<" in markup
    rules = G.evaluate(("a<b>", "heuristic"), games=2, rule_sets=["crazy_eights"], bootstrap=100)
    assert "a&lt;b&gt;" in _shown(rules)["text/html"]


def test_an_exploit_result_shows_as_its_text():
    curve = [{"decisions": 100, "minutes": 0.1, "games": 4, "win_rate": 0.5, "ci_low": 0.2, "ci_high": 0.8}]
    r = ExploitResult(
        agent=BAD, preset="crazy_eights", num_players=2, seed=0, budget=Budget(decisions=100), warm_start=None,
        decisions=100, updates=1, minutes=0.1, cpu_minutes=0.1, hardware="cpu", stopped="budget", curve=curve,
    )  # fmt: skip
    assert _shown(r)["text/plain"] == r.table()


def test_a_training_result_shows_as_its_text():
    pytest.importorskip("torch", reason="eights.train needs the train extra")
    from eights.train import TrainResult

    arena_results = {"random": {"win_rate": 0.9, "ci": (0.8, 1.0), "deals": 10}}
    r = TrainResult("run", "run/final.safetensors", 1000, 0.5, 2, "cpu", 1, 1, arena_results)
    assert _shown(r)["text/plain"] == str(r) and "vs random" in str(r)
