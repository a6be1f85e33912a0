"""The charts of the results (a tournament's ratings, a best response's learning curve, a
generalization result, a training run's curve): drawn outside pyplot, so that the caller's
matplotlib backend (a notebook's inline one) stays as it was and no figure is left with
pyplot; ``plot()`` without a path returns the figure, with one it saves there."""

from __future__ import annotations

import os

import numpy as np
import pytest

from eights import arena
from eights import generalization as G
from eights.arena import Budget, ExploitResult

matplotlib = pytest.importorskip("matplotlib")

from matplotlib.figure import Figure  # noqa: E402


@pytest.fixture
def other_backend():
    """The backend set to one the charts must leave alone (pdf: always there, non-interactive,
    not Agg), restored afterwards; yields a check that it is still set and that pyplot holds no
    new figure."""
    import matplotlib.pyplot as plt

    before, figures = matplotlib.get_backend(), plt.get_fignums()
    matplotlib.use("pdf")

    def unchanged():
        assert matplotlib.get_backend() == "pdf"
        assert plt.get_fignums() == figures

    try:
        yield unchanged
    finally:
        matplotlib.use(before)


def _tournament():
    return arena.tournament(["random", ("<b>mine</b>", "heuristic")], games=6, seed=0, bootstrap=100)


def _exploit_result():
    curve = [
        {"decisions": d, "minutes": d / 1e4, "games": 10, "win_rate": w, "ci_low": w - 0.1, "ci_high": w + 0.1}
        for d, w in [(100, 0.3), (200, 0.45), (300, 0.5)]
    ]
    return ExploitResult(
        agent="heuristic", preset="crazy_eights", num_players=2, seed=0, budget=Budget(decisions=300),
        warm_start=None, decisions=300, updates=3, minutes=0.1, cpu_minutes=0.1, hardware="cpu",
        stopped="budget", curve=curve, win_rate=0.5, ci=(0.4, 0.6),
    )  # fmt: skip


def test_a_saved_chart_leaves_the_callers_backend_and_pyplot_alone(tmp_path, other_backend):
    # matplotlib.use("Agg") in every chart switched a notebook's inline backend off for the
    # rest of the session: the user's own plt.plot() then showed nothing.
    t = _tournament()
    assert t.plot(str(tmp_path / "ratings")) == str(tmp_path / "ratings.png")
    assert (tmp_path / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    other_backend()
    r = _exploit_result()
    assert r.plot(str(tmp_path / "curve.svg")) == str(tmp_path / "curve.svg")
    assert arena.plot_exploit([r, r], str(tmp_path / "two.pdf")) == str(tmp_path / "two.pdf")
    assert b"<svg" in (tmp_path / "curve.svg").read_bytes()[:500]
    other_backend()
    g = G.evaluate("heuristic", games=2, rule_sets=["crazy_eights", "one_card"], bootstrap=100)
    assert g.plot(str(tmp_path / "g.png")) == str(tmp_path / "g.png")
    other_backend()


def test_a_chart_without_a_path_is_the_figure(tmp_path, monkeypatch, other_backend):
    monkeypatch.chdir(tmp_path)
    t = _tournament()
    fig = t.plot()
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert [x.get_text() for x in ax.get_yticklabels()] == ["random", "<b>mine</b>"]
    assert "Elo scale" in ax.get_xlabel()
    exploit_fig = _exploit_result().plot()
    assert isinstance(exploit_fig, Figure) and len(exploit_fig.axes) == 1
    g = G.evaluate("heuristic", games=2, rule_sets=["crazy_eights"], bootstrap=100)
    assert isinstance(g.plot(), Figure)
    assert isinstance(arena.plot_exploit([_exploit_result()]), Figure)
    assert os.listdir(tmp_path) == []  # nothing written
    other_backend()
    # The figure saves as any other.
    fig.savefig(tmp_path / "again.png")
    assert (tmp_path / "again.png").stat().st_size > 1000


def test_the_training_curve_leaves_the_backend_alone(tmp_path, other_backend):
    pytest.importorskip("torch", reason="eights.train needs the train extra")
    from eights.train.curves import LearningCurve

    curve = LearningCurve()
    curve.points = [{"step": s, "seconds": 1.0, "vs_random": w} for s, w in [(10, 0.4), (20, np.nan), (30, 0.6)]]
    curve.plot(str(tmp_path / "c.png"), "t", fair=0.5)
    assert (tmp_path / "c.png").stat().st_size > 1000
    other_backend()
