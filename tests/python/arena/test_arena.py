"""The arena: duplicate deals, statistics, determinism, errors; bots and determinize.

Strength claims are measured with ``python -m eights arena``, not here: these tests
check the machinery and stay fast.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import eights
from eights import arena
from eights.agents import as_agent
from eights.arena.run import _play_python

PRESETS = eights.presets()


def test_rotations_replay_identical_deals():
    # The same deterministic bot in both seats: each rotation of a deal is the same game
    # with the seats swapped, so every deal scores exactly one win each.
    for preset in ["crazy_eights", "switch_blackjack"]:
        res = arena.play(["heuristic", "heuristic"], preset=preset, games=30, seed=4)
        assert res["deal"].tolist() == [d for d in range(30) for _ in range(2)]
        assert res["rotation"].tolist() == [0, 1] * 30
        winners = res["winner"].reshape(30, 2)
        assert (winners[:, 0] == winners[:, 1]).all(), "same seat wins both replays"
        length = res["decisions"].reshape(30, 2)
        assert (length[:, 0] == length[:, 1]).all()
        points = res["hand_points"].reshape(30, 2, 2)
        np.testing.assert_array_equal(points[:, 0], points[:, 1])
        r = arena.evaluate("heuristic", "heuristic", preset=preset, games=30, seed=4)
        assert r.win_rate == pytest.approx(0.5)


def test_python_agents_see_the_same_deals_as_rust():
    # The Python loop (used as soon as one agent is Python) deals and seeds exactly as the
    # Rust loop: built-in bots give identical games on both paths.
    rust = arena.play(["heuristic", "random"], preset="crazy_eights_specials", games=6, seed=9)

    table = [as_agent("heuristic"), as_agent("random")]
    py = _play_python(table, "crazy_eights_specials", 2, 9, 0, 6, None)
    for key in ["deal", "rotation", "winner", "decisions", "hand_points", "score_returns"]:
        np.testing.assert_array_equal(rust[key], py[key], err_msg=key)
    for key in ["agent_decisions", "agent_choices"]:
        np.testing.assert_array_equal(rust[key], py[key], err_msg=key)


def test_choice_share_counts_decisions_with_more_than_one_legal_action():
    # Replay the arena's games from its schedule and count the decisions with a choice by hand.
    from eights._core import arena_schedule

    res = arena.play(["heuristic", "random"], preset="one_left", games=5, seed=3, threads=1)
    table = [as_agent("heuristic"), as_agent("random")]
    sched = arena_schedule(3, 2, 0, 5)
    decisions = choices = 0
    for gi, deal_seed in enumerate(sched["deal_seed"]):
        g = eights.Game("one_left", 2, seed=int(deal_seed))
        bots = [table[k].make_bot(int(s)) for k, s in zip(sched["agent"][gi], sched["bot_seed"][gi])]
        while not (g.is_terminal or g.is_truncated):
            decisions += 1
            choices += len(g.legal_actions()) > 1
            g.step(bots[g.current_player].act(g))
    assert res["agent_decisions"].sum() == decisions
    assert res["agent_choices"].sum() == choices
    assert 0 < choices < decisions  # One Left forces many plays
    r = arena.evaluate("heuristic", "random", preset="one_left", games=5, seed=3, threads=1)
    assert r.choice_share == pytest.approx(choices / decisions)


def test_self_play_is_even_within_its_interval():
    r = arena.evaluate("random", "random", preset="crazy_eights", games=400, seed=1)
    lo, hi = r.ci
    assert lo < 0.5 < hi
    assert r.ci_method == "bootstrap over deals"
    assert r.games == 800 and r.wins + r.losses + r.no_winner == 800


def test_the_bootstrap_by_counts_matches_resampling_the_deals():
    # Resampling by the counts of each distinct result must give the interval that drawing
    # deal indices gives: both computed here with many resamples, the index draw written out.
    from eights.arena.stats import bootstrap_ci

    per_deal = np.random.default_rng(5).choice([0.0, 0.5, 1.0, 1 / 3], size=600, p=[0.3, 0.25, 0.35, 0.1])
    idx = np.random.default_rng(6).integers(0, len(per_deal), size=(20000, len(per_deal)))
    by_index = np.percentile(per_deal[idx].mean(axis=1), [2.5, 97.5])
    by_counts = bootstrap_ci(per_deal, np.random.default_rng(7), 20000)
    assert by_counts == pytest.approx(by_index, abs=0.003)
    # The same seed gives the same interval; many distinct results take the index path.
    assert bootstrap_ci(per_deal, np.random.default_rng(7), 500) == bootstrap_ci(
        per_deal, np.random.default_rng(7), 500
    )
    spread = np.random.default_rng(8).normal(size=400)
    lo, hi = bootstrap_ci(spread, np.random.default_rng(9), 4000)
    half = 1.96 * spread.std() / np.sqrt(len(spread))
    assert lo == pytest.approx(spread.mean() - half, abs=0.02) and hi == pytest.approx(spread.mean() + half, abs=0.02)


def test_interval_shrinks_with_games():
    small = arena.evaluate("random", "random", preset="crazy_eights", games=50, seed=2)
    large = arena.evaluate("random", "random", preset="crazy_eights", games=800, seed=2)
    w_small = small.ci[1] - small.ci[0]
    w_large = large.ci[1] - large.ci[0]
    assert w_large < w_small / 2.5


def test_determinism_by_seed_and_threads():
    a = arena.evaluate("pimc:2", "heuristic", preset="crazy_eights", games=8, seed=5, threads=1)
    b = arena.evaluate("pimc:2", "heuristic", preset="crazy_eights", games=8, seed=5, threads=2)
    c = arena.evaluate("pimc:2", "heuristic", preset="crazy_eights", games=8, seed=6)
    for key in ["winner", "decisions", "hand_points"]:
        np.testing.assert_array_equal(a.raw[key], b.raw[key])
    assert (a.win_rate, a.ci) == (b.win_rate, b.ci)
    assert not np.array_equal(a.raw["decisions"], c.raw["decisions"])


def test_python_callables_and_batched_objects():
    calls = {"act": 0, "batch": 0}

    def first_legal(obs, mask):
        calls["act"] += 1
        assert obs.shape == (eights.OBS_SIZE,) and mask.shape == (eights.NUM_ACTIONS,)
        return int(np.flatnonzero(mask)[0])

    class Batched:
        name = "batched"

        def act_batch(self, obs, masks):
            calls["batch"] += 1
            assert obs.shape[0] == masks.shape[0] and obs.shape[1] == eights.OBS_SIZE
            return np.asarray([np.flatnonzero(m)[-1] for m in masks])

    r = arena.evaluate(first_legal, Batched(), preset="switch_blackjack", games=20, seed=0, batch_size=16)
    assert calls["act"] > 0 and 0 < calls["batch"] < calls["act"]
    assert r.agent == "first_legal" and r.opponents == ["batched"]
    r2 = arena.evaluate(("mine", first_legal), "heuristic", num_players=3, preset="crazy_eights", games=4)
    assert r2.agent == "mine" and r2.games == 12


def test_illegal_python_agent_is_reported():
    # The engine's own error for an illegal action, as Game, the envs and VecEnv raise (it was
    # a plain ValueError; IllegalActionError is one, so `except ValueError` still holds).
    with pytest.raises(eights.IllegalActionError, match="illegal action 196"):
        arena.evaluate(lambda obs, mask: 196, "random", games=2)
    with pytest.raises(TypeError, match="integers"):
        arena.evaluate(lambda obs, mask: "draw", "random", games=2)


@pytest.mark.parametrize(
    "bad, exc, text",
    [
        ("minimax", ValueError, 'unknown bot "minimax"; allowed bots: .*heuristic'),
        # A misspelt bot gets a guess, its parameter kept; a name close to none gets none.
        ("heuristc", ValueError, 'unknown bot "heuristc" \\(did you mean "heuristic"\\?\\); allowed'),
        ("ISMCT:400", ValueError, 'unknown bot "ISMCT:400" \\(did you mean "ismcts:400"\\?\\)'),
        ("ismcts:0", ValueError, r"\[1, 1000000\]"),
        ("ismcts:many", ValueError, r"\[1, 1000000\]"),
        ("random:3", ValueError, "takes no parameter"),
        (42, TypeError, "bot name"),
        (eights.RandomBot(1), TypeError, "by name"),
        # A saved model's path that names no file: that, not the advice to load the model.
        ("no_such_model.zip", ValueError, "no such model file: 'no_such_model.zip'"),
    ],
)
def test_bad_agent_specs(bad, exc, text):
    with pytest.raises(exc, match=text):
        arena.evaluate(bad, "random", games=1)
    with pytest.raises(exc, match=text):
        arena.tournament(["random", bad], games=1)


def test_bad_arguments():
    with pytest.raises(ValueError, match="num_players - 1 = 2"):
        arena.evaluate("random", ["random"], num_players=3, games=1)
    with pytest.raises(ValueError, match="games must be >= 1"):
        arena.evaluate("random", "random", games=0)
    with pytest.raises(TypeError, match="games must be an integer"):
        arena.evaluate("random", "random", games=2.5)
    with pytest.raises(ValueError, match="unknown preset"):
        arena.evaluate("random", "random", preset="uno", games=1)
    with pytest.raises(ValueError, match="at least 3 agents"):
        arena.tournament(["random", "heuristic"], num_players=3, games=1)
    with pytest.raises(ValueError, match="unique"):
        arena.tournament(["random", "random", ("random#1", "heuristic")], games=1)
    with pytest.raises(TypeError, match="list of agents"):
        arena.tournament("random,heuristic", games=1)


def _no_game(obs, mask):
    """A Python agent that fails its first decision: a game played where none should be."""
    raise AssertionError("a game was played")


def test_play_refuses_a_string_table_and_a_progress_that_cannot_be_called():
    # "random" was read as the bots 'r', 'a', ... ("table[0]: unknown bot 'r'"); progress=5
    # failed with "'int' object is not callable" after the first chunk of games.
    with pytest.raises(TypeError, match=r"table must be a list of agents, one per seat, .* got 'random'"):
        arena.play("random", games=1)
    for bad in (5, True, "yes"):
        with pytest.raises(TypeError, match="progress must be None or a callable taking the number of games"):
            arena.play([_no_game, "random"], games=1, progress=bad)
    done = []
    arena.play(("random", "random"), games=3, progress=done.append)
    assert sum(done) == 6


def test_the_cluster_checks_progress_before_joining_a_cluster():
    # cluster.play took any progress, and an int failed only after the first task came back.
    from eights.arena import cluster

    with pytest.raises(TypeError, match="progress must be None or a callable"):
        cluster.play(["random", "random"], "127.0.0.1:1", games=2, progress=5)


def test_a_tournament_with_too_many_tables_is_refused_before_any_is_built():
    # 22 agents at 10 players (646,646 tables) were accepted; 40 built 8.5e8 tuples first.
    field = [("a0", _no_game)] + [(f"a{i}", "random") for i in range(1, 40)]
    with pytest.raises(ValueError, match=r"agents and num_players: 22 agents at 10 players make 646,646 tables"):
        arena.tournament(field[:22], num_players=10, games=1)
    with pytest.raises(ValueError, match=r"40 agents at 10 players make 847,660,528 tables"):
        arena.tournament(field, num_players=10, games=1)
    with pytest.raises(ValueError, match=r"games: 3 tables .* are 3,000,000,000 deals; a tournament plays at most"):
        arena.tournament(field[:3], games=10**9)


def test_a_large_bootstrap_is_drawn_in_parts_or_through_the_outcomes(monkeypatch):
    # 10**6 resamples of 10**5 deals played every game, then raised numpy's MemoryError for a
    # 745 GiB matrix (a traceback; the results lost); smaller ones ran seconds deaf to Ctrl-C.
    from eights.arena import ratings

    agents = ["random", "heuristic", "net"]
    whole = arena.tournament(agents, games=600, bootstrap=2000, seed=4)
    # In parts of a few resamples: the intervals of one draw, to the bit.
    monkeypatch.setattr(ratings, "RESAMPLE_PART", 7 * 600)
    parts = arena.tournament(agents, games=600, bootstrap=2000, seed=4)
    assert np.array_equal(whole.rating_ci, parts.rating_ci) and whole.profiled == parts.profiled
    # Past the bound, through each table's distinct outcomes: the same law, other draws.
    monkeypatch.setattr(ratings, "MAX_RESAMPLE_COUNTS", 0)
    outcomes = arena.tournament(agents, games=600, bootstrap=2000, seed=4)
    assert np.allclose(whole.rating_ci, outcomes.rating_ci, atol=8.0), (whole.rating_ci, outcomes.rating_ci)
    assert not np.array_equal(whole.rating_ci, outcomes.rating_ci)


# Found from any folder of the tests (they are grouped by concern and may move).
HOUSE_RULES = next(
    p / "examples" / "house_rules.toml"
    for p in Path(__file__).resolve().parents
    if (p / "examples" / "house_rules.toml").is_file()
)


def test_arena_plays_an_eights_rules():
    # A Rules from a TOML file and a Rules built with overrides play like preset names: in
    # the Rust threads (built-in bots) and in the Python loop (a Python agent), which give
    # the same games for the same seed.
    house = eights.Rules.from_toml(str(HOUSE_RULES))
    r = arena.evaluate("heuristic", "random", preset=house, games=6, seed=2, bootstrap=100)
    assert r.preset == "house_eights" and r.games == 12
    short = eights.Rules("crazy_eights", deal={"hand_size": 5})
    rust = arena.play(["heuristic", "random"], preset=short, games=4, seed=3)
    table = [as_agent("heuristic"), as_agent("random")]
    py = _play_python(table, short, 2, 3, 0, 4, None)
    for key in ["winner", "decisions", "hand_points"]:
        np.testing.assert_array_equal(rust[key], py[key], err_msg=key)
    plain = arena.play(["heuristic", "random"], games=4, seed=3)
    assert not np.array_equal(rust["decisions"], plain["decisions"]), "the overrides change the games"
    # Overrides on top of a Rules, as on a preset name.
    same = arena.play(["heuristic", "random"], preset="crazy_eights", rules={"deal": {"hand_size": 5}}, games=4, seed=3)
    np.testing.assert_array_equal(rust["decisions"], same["decisions"])
    t = arena.tournament(
        ["random", ("mine", lambda obs, mask: int(np.flatnonzero(mask)[0]))], preset=house, games=3, bootstrap=100
    )
    assert t.preset == "house_eights" and "house_eights" in t.table()


def test_arena_refuses_a_bad_preset_naming_it():
    for call in (arena.evaluate, lambda *a, **k: arena.tournament(["random", "heuristic"], **k)):
        allowed = r"a preset name \(str\), a path to a .toml file or an eights.Rules"
        with pytest.raises(TypeError, match=rf"preset must be {allowed}, got int"):
            call("random", "random", preset=42, games=1)
        with pytest.raises(ValueError, match="unknown preset"):
            call("random", "random", preset="uno", games=1)
    with pytest.raises(eights.RulesError, match=r"deal\.hand_size"):
        arena.play(["random", "random"], preset=eights.Rules("crazy_eights"), rules={"deal": {"hand_size": 500}})


def test_tournament_ratings_and_chart(tmp_path):
    t = arena.tournament(["random", "heuristic", "pimc:2"], preset="crazy_eights", games=30, seed=3, bootstrap=200)
    assert t.agents == ["random", "heuristic", "pimc:2"]
    assert t.ratings[0] == 0 and len(t.matches) == 3
    assert (t.rating_ci[:, 0] <= t.ratings + 1e-9).all() and (t.ratings <= t.rating_ci[:, 1] + 1e-9).all()
    assert t.win_rate(1, 0) + t.win_rate(0, 1) == pytest.approx(1.0)
    text = t.table()
    assert "heuristic" in text and "95%" in text
    t3 = arena.tournament(["random", "heuristic", "pimc:2"], num_players=3, games=4, bootstrap=100)
    assert len(t3.matches) == 1 and t3.matches[0].games == 12
    pytest.importorskip("matplotlib")
    path = tmp_path / "ratings.png"
    t.plot(str(path))
    assert path.stat().st_size > 1000


def test_a_bot_given_twice_fills_two_seats_numbered_as_evaluate_numbers_them():
    # At three players, one table: the first agent against two copies of the bot, the games
    # evaluate plays against that bot at both other seats.
    t = arena.tournament(["random", "heuristic", "heuristic"], num_players=3, games=20, seed=5, bootstrap=100)
    e = arena.evaluate("random", "heuristic", num_players=3, games=20, seed=5, bootstrap=100)
    assert t.agents == ["random", "heuristic#1", "heuristic#2"] and len(t.matches) == 1
    assert e.opponents == ["heuristic#1", "heuristic#2"]
    m = t.matches[0]
    assert (m.wins, m.losses, m.mean_length) == (e.wins, e.losses, e.mean_length)
    # At two players the copies meet each other too: three tables.
    t2 = arena.tournament(["heuristic", "random", "heuristic"], games=10, seed=1, bootstrap=100)
    assert t2.agents == ["heuristic#1", "random", "heuristic#2"] and len(t2.matches) == 3


def test_two_weights_files_of_one_name_are_told_apart_by_their_paths(tmp_path):
    # Two runs' final.safetensors share a label (the run's name, or the stem): they were
    # rated as NAME#1 and NAME#2, the numbering of one agent given twice.
    import shutil

    shipped = Path(eights.__file__).resolve().parents[2] / "src" / "bots" / "weights" / "net.safetensors"
    if not shipped.exists():
        pytest.skip("needs the source tree's weights file")
    paths = []
    for run in ("one", "two"):
        (tmp_path / run).mkdir()
        paths.append(str(tmp_path / run / "final.safetensors"))
        shutil.copy(shipped, paths[-1])
    label = as_agent(paths[0], "agent").label
    assert as_agent(paths[1], "agent").label == label
    t = arena.tournament([paths[0], paths[1], "random"], games=2, seed=1, bootstrap=100)
    assert t.agents == [f"{label} [{paths[0]}]", f"{label} [{paths[1]}]", "random"]
    # The same file given twice is one agent in two seats: numbered.
    t = arena.tournament([paths[0], "random", paths[0]], games=2, seed=1, bootstrap=100)
    assert t.agents == [f"{label}#1", "random", f"{label}#2"]


def test_a_sweep_is_named_and_its_agents_intervals_come_from_the_profile_likelihood():
    # pimc:20 wins all 20 games against random (10 deals, both seats; seed 1): every resample is the same
    # sweep, so the bootstrap alone gave pimc:20 an interval as narrow as the prior's point.
    t = arena.tournament(["random", "heuristic", "pimc:20"], games=10, seed=1, bootstrap=100)
    assert t.wins[2, 0] == 20 and t.wins[0, 2] == 0 and t.wins[0, 1] > 0
    assert t.sweeps() == [(2, 0)]
    assert 2 in t.profiled and 0 not in t.profiled
    prof = arena.profile_intervals(t.wins)
    assert t.rating_ci[2, 0] <= prof[2, 0] + 1e-9 and t.rating_ci[2, 1] >= prof[2, 1] - 1e-9
    assert t.rating_ci[2, 1] - t.ratings[2] > 200 and t.ratings[2] - t.rating_ci[2, 0] > 100
    text = t.table()
    assert "note: pimc:20 won every game against random." in text
    assert "*: widened to the profile likelihood" in text
    assert [line for line in text.splitlines() if line.startswith("pimc:20")][0].count("]*") == 1
    d = t.to_dict()
    assert d["sweeps"] == [["pimc:20", "random"]]
    assert d["agents"][2]["interval"] == "bootstrap over deals, widened to the profile likelihood"
    assert d["agents"][0]["interval"] == "bootstrap over deals"
    even = arena.tournament(["heuristic", "pimc:2"], games=40, seed=1, bootstrap=100)
    assert even.sweeps() == [] and even.profiled == []
    assert "note:" not in even.table() and "*:" not in even.table() and even.to_dict()["sweeps"] == []


def test_a_near_sweep_is_widened_too():
    # random wins 2 of heuristic's 80 games (seed 1): a sweep in more than 2.5% of the resamples, whose
    # upper percentile is then the prior's gap.
    t = arena.tournament(["random", "heuristic"], games=40, seed=1, bootstrap=200)
    assert t.wins[0, 1] == 2 and t.sweeps() == [] and t.profiled == [1]
    prof = arena.profile_intervals(t.wins)
    assert t.rating_ci[1, 1] >= prof[1, 1] - 1e-9


def _log_sigmoid(d):
    return -np.logaddexp(0.0, -d)


def test_profile_intervals_of_a_sweep_match_a_grid_search():
    # Two agents, 20 wins to none, half a virtual win each way: the gap's likelihood is
    # 20.5 log s(x) + 0.5 log s(-x); its 95% interval is where it is within 3.8415 / 2 of its top.
    x = np.linspace(-5, 20, 500001)
    like = 20.5 * _log_sigmoid(x) + 0.5 * _log_sigmoid(-x)
    inside = x[like >= like.max() - 3.841458820694124 / 2] * 400 / np.log(10)
    got = arena.profile_intervals(np.array([[0.0, 0.0], [20.0, 0.0]]))
    np.testing.assert_allclose(got[0], [0, 0])
    np.testing.assert_allclose(got[1], [inside.min(), inside.max()], atol=0.05)


def _third_agents_profile(wins: np.ndarray, t: np.ndarray, x1: np.ndarray) -> np.ndarray:
    """Agent 2's 95% profile-likelihood set on the grid ``t`` (Elo scale), by brute force: the
    best likelihood over agent 1's strength ``x1``, agent 0 held at 0, with half a virtual win
    each way between the pairs that met."""
    w = wins + 0.5 * ((wins + wins.T) > 0)
    t, x1 = t[:, None], x1[None, :]
    strengths = [np.zeros_like(t * x1), x1 + 0 * t, t + 0 * x1]
    like = sum(w[i, j] * _log_sigmoid(strengths[i] - strengths[j]) for i in range(3) for j in range(3) if i != j)
    profile = like.max(axis=1)
    return t[profile >= like.max() - 3.841458820694124 / 2, 0] * 400 / np.log(10)


def test_profile_intervals_of_three_agents_match_a_grid_search():
    # Agent 2's profile: the best likelihood over agent 1's strength, agent 0 held at 0.
    wins = np.array([[0.0, 30, 5], [20, 0, 12], [40, 25, 0]])
    inside = _third_agents_profile(wins, np.linspace(-1, 4, 2001), np.linspace(-3, 3, 2001))
    got = arena.profile_intervals(wins)
    np.testing.assert_allclose(got[2], [inside.min(), inside.max()], atol=1.5)
    assert got[1, 0] < arena.bradley_terry(wins)[1] < got[1, 1]
    # Agent 2 played no one: no common scale.
    with pytest.raises(ValueError, match=r"link every agent to agent 0; agents \[2\] are not linked"):
        arena.profile_intervals(np.array([[0.0, 1, 0], [1, 0, 0], [0, 0, 0]]))
    with pytest.raises(ValueError, match="square matrix of finite counts"):
        arena.profile_intervals(np.array([[0.0, -1], [1, 0]]))
    with pytest.raises(ValueError, match="prior must be"):
        arena.profile_intervals(wins, prior=float("nan"))


def test_profile_intervals_need_the_pairs_linked_not_every_pair_met():
    # At a table of three, two agents that the third always beat never meet: agents 0 and 1
    # here. The pairs 0-2 and 1-2 link them; agent 2's profile is a grid search over agent 1.
    wins = np.array([[0.0, 0, 0], [0, 0, 0], [3, 3, 0]])
    inside = _third_agents_profile(wins, np.linspace(-2, 12, 2801), np.linspace(-6, 6, 2401))
    got = arena.profile_intervals(wins)
    np.testing.assert_allclose(got[2], [inside.min(), inside.max()], atol=3)
    assert np.isfinite(got[1:]).all()


def test_a_tournament_where_two_agents_never_meet_still_reports():
    # "eights arena --agents drawer:draw,random,heuristic --preset switch_blackjack --players 3
    # --games 3 --seed 1" ended with "profile_intervals needs every pair of agents to have
    # played" and no table: heuristic won every game, so drawer and random never met.
    def draw(obs, mask):
        return 58 if mask[58] else int(np.flatnonzero(mask)[0])

    t = arena.tournament(
        [("drawer", draw), "random", "heuristic"], preset="switch_blackjack", num_players=3, games=3, seed=1
    )
    assert "heuristic" in t.table() and np.isfinite(t.rating_ci).all() and t.profiled == [1, 2]
    with pytest.raises(ValueError, match="prior > 0"):
        arena.profile_intervals(np.array([[0.0, 0], [3, 0]]), prior=0)


def test_bradley_terry_recovers_known_strengths():
    # i beats j with probability 1 / (1 + 10 ** ((r_j - r_i) / 400)) for ratings 0, 200, 400.
    r = np.array([0.0, 200.0, 400.0])
    p = 1 / (1 + 10 ** ((r[None, :] - r[:, None]) / 400))
    wins = p * 10000
    np.fill_diagonal(wins, 0)
    np.testing.assert_allclose(arena.bradley_terry(wins, prior=0), r, atol=1e-3)


def test_bradley_terry_checks_wins_and_its_arguments():
    # Before: 5 gave [[0.]], [] a numpy zero-size error, a (2, 3) matrix a broadcast error,
    # NaN and negative counts were fitted, 1e308 gave NaN ratings, a negative tol was taken.
    from eights.arena.ratings import sweep_pairs

    for bad in (5, [], np.zeros((2, 3)), np.zeros((0, 0))):
        with pytest.raises(ValueError, match=r"wins must be a square matrix of finite counts \(k, k\)"):
            arena.bradley_terry(bad)
    for bad in ([[0, np.nan], [1, 0]], [[0, -1], [1, 0]], [[0, 1e308], [1e308, 0]]):
        with pytest.raises(ValueError, match=r"wins must be a square matrix of finite counts in \[0, 2\*\*53\]"):
            arena.bradley_terry(bad)
    for bad in ("x", [[0, "x"], [1, 0]], [[0, 1], [1]]):
        with pytest.raises(TypeError, match="wins must be a square matrix"):
            arena.bradley_terry(bad)
    with pytest.raises(ValueError, match="tol must be a finite number >= 0"):
        arena.bradley_terry([[0, 1], [2, 0]], tol=-1)
    with pytest.raises(ValueError, match=r"prior must be a finite number in \[0, 2\*\*53\]"):
        arena.bradley_terry([[0, 1], [2, 0]], prior=1e308)
    with pytest.raises(ValueError, match="wins must be a square matrix"):
        sweep_pairs(np.zeros((2, 3)))
    # The largest counts still fit, and a stack of matrices is fitted at once.
    assert np.isfinite(arena.bradley_terry([[0, 2**53], [1, 0]])).all()
    assert arena.bradley_terry(np.zeros((3, 2, 2))).shape == (3, 2)


@pytest.mark.parametrize(
    "agents, error, message",
    [
        ([5], ValueError, r"agents must be agent indices in \[0, 2\] \(the rows of wins\), got 5 at agents\[0\]"),
        ([1, -1], ValueError, r"in \[0, 2\] \(the rows of wins\), got -1 at agents\[1\]"),  # LinAlgError
        ([2**64], ValueError, r"in \[0, 2\] \(the rows of wins\), got 18446744073709551616"),  # IndexError
        ([True], TypeError, r"agents must be a list of agent indices \(int\) in \[0, 2\].*got True"),  # infinities
        ([0.5], TypeError, r"got 0.5 \(type float\) at agents\[0\]"),  # IndexError
        ("x", TypeError, r"agents must be a list of agent indices \(int\) in \[0, 2\].*got 'x' \(type str\)"),
        (5, TypeError, r"got 5 \(type int\)"),
        ([1, 2, 1], ValueError, "agent 1 is listed twice in agents; list each agent once"),
    ],
    ids=["past-k", "negative", "huge", "bool", "float", "str", "int", "twice"],
)
def test_profile_intervals_checks_agents(agents, error, message):
    # Before: IndexError, LinAlgError (a singular matrix), numpy's index errors, and [True]
    # taken, returning infinities for every agent.
    wins = np.array([[0.0, 30, 5], [20, 0, 12], [40, 25, 0]])
    with pytest.raises(error, match=message):
        arena.profile_intervals(wins, agents=agents)


def test_profile_intervals_takes_numpy_indices_and_an_array_of_them():
    # An array of agents was "the truth value of an array ... is ambiguous".
    wins = np.array([[0.0, 30, 5], [20, 0, 12], [40, 25, 0]])
    every = arena.profile_intervals(wins)
    np.testing.assert_allclose(arena.profile_intervals(wins, agents=np.array([1, 2])), every)
    some = arena.profile_intervals(wins, agents=[np.int64(2)])
    np.testing.assert_allclose(some[[0, 2]], every[[0, 2]])
    assert np.isnan(some[1]).all()


def test_wilson_interval():
    lo, hi = arena.wilson_interval(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.192, abs=0.005)
    assert arena.wilson_interval(0, 10)[0] == 0.0 and arena.wilson_interval(10, 10)[1] == pytest.approx(1.0)


@pytest.mark.parametrize("preset", PRESETS)
def test_bots_as_env_opponents(preset):
    n = eights.preset_rules(preset)["players"]["min"]
    for opp in ["heuristic", "ismcts:8", "pimc:2"]:
        env = eights.make(preset, num_players=n, opponents=opp, seed=0)
        obs, info = env.reset()
        done = False
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
    with pytest.raises(ValueError, match=r"\[1, 1000000\]"):
        eights.make(preset, num_players=n, opponents="ismcts:zero")


def test_bot_class_and_determinize():
    g = eights.Game("crazy_eights_xtreme", 3, seed=2)
    bot = eights.Bot("ismcts:10", seed=1)
    assert bot.name == "ismcts:10"
    assert bot.act(g) in g.legal_actions()
    assert eights.Bot("heuristic").act(g) in g.legal_actions()
    me = g.current_player
    d = eights.determinize(g, me, seed=7)
    assert d.hand(me) == g.hand(me)
    assert d.discard_pile() == g.discard_pile()
    assert d.hand_sizes == g.hand_sizes and d.stock_size == g.stock_size
    hidden = sorted(sum((g.hand(p) for p in range(3) if p != me), []) + g.stock())
    hidden_d = sorted(sum((d.hand(p) for p in range(3) if p != me), []) + d.stock())
    assert hidden == hidden_d
    assert d.to_dict() == eights.determinize(g, me, seed=7).to_dict()
    assert d.to_dict() != eights.determinize(g, me, seed=8).to_dict()
    with pytest.raises(ValueError, match=r"player must be in \[0, 2\]"):
        eights.determinize(g, 3)
    with pytest.raises(ValueError, match="unknown bot"):
        eights.Bot("alphazero")


def test_cli_arena(tmp_path, capsys):
    from eights.__main__ import main

    path = tmp_path / "r.png"
    args = ["arena", "--agents", "random,heuristic", "--games", "20", "--no-progress", "--bootstrap", "100"]
    plot = ["--plot", str(path)] if _has_matplotlib() else []
    assert main(args + plot) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "rating" in out
    assert main(["arena", "--agents", "random,minimax", "--games", "2"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    three = ["arena", "--players", "3", "--agents", "random,heuristic,heuristic", "--games", "4", "--no-progress"]
    assert main(three + ["--bootstrap", "100"]) == 0
    assert "random vs heuristic#1, heuristic#2" in capsys.readouterr().out


def _has_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def test_longest_decision_is_recorded():
    res = arena.play(["ismcts:20", "random"], "crazy_eights", games=3, seed=1, threads=1)
    longest, total, count = res["agent_max_seconds"], res["agent_seconds"], res["agent_decisions"]
    assert longest.shape == (2,)
    for k in range(2):
        # The longest decision is one of them: at least the mean, at most the total.
        assert total[k] / count[k] <= longest[k] <= total[k]


def test_cli_botspeed(capsys):
    from eights.__main__ import main

    assert main(["botspeed", "--presets", "crazy_eights", "--bots", "random,ismcts:10", "--games", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line.startswith("crazy_eights")]
    assert [r[1] for r in rows] == ["random", "ismcts:10"]
    for r in rows:
        rate, ms, longest = float(r[2].replace(",", "")), float(r[3]), float(r[4])
        assert rate > 0 and 0 <= ms <= longest
    assert main(["botspeed", "--bots", "random,minimax", "--games", "1"]) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_cli_botspeed_needs_a_bot_and_a_preset(capsys):
    # It used to end in "error: max() arg is an empty sequence".
    from eights.__main__ import main

    assert main(["botspeed", "--bots", "", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "--bots needs at least one bot name" in err and "max()" not in err
    assert main(["botspeed", "--presets", " , ", "--games", "1"]) == 2
    assert "--presets needs at least one preset name" in capsys.readouterr().err


def test_wilson_interval_reaches_the_ends_at_all_or_nothing():
    from eights.arena.stats import wilson_interval

    for trials in (1, 7, 80, 1000):
        lo, hi = wilson_interval(trials, trials)
        assert hi == 1.0 and lo < 1.0
        lo, hi = wilson_interval(0, trials)
        assert lo == 0.0 and hi > 0.0


def test_ranges_of_deals_played_apart_join_into_the_whole_run():
    # What a Ray task does (eights.arena.cluster): play deals [a, b) alone. Joined in order, the
    # ranges are the run, built-in bots (Rust) and a Python policy (the Python loop) alike.
    from eights.arena.run import checked_table, concat, play_range

    def lowest(obs, mask):
        return int(np.flatnonzero(mask)[0])

    for table in (["pimc:3", "heuristic", "random"], [lowest, "heuristic", "random"]):
        whole = arena.play(table, "switch_blackjack", games=7, seed=8)
        agents, n, *_ = checked_table(table, "switch_blackjack", 7, 8, 0, None, 256)
        parts = [play_range(agents, "switch_blackjack", 8, a, b - a, 1, None, 2) for a, b in ((0, 3), (3, 4), (4, 7))]
        joined = concat(parts, n)
        for key in set(whole) - {"agent_seconds", "agent_max_seconds"}:
            np.testing.assert_array_equal(whole[key], joined[key], err_msg=key)


def test_a_ray_task_plays_a_weights_file_from_its_bytes_not_the_drivers_path(tmp_path, monkeypatch):
    # A worker on another machine has no file at the driver's path: the task gets the file's
    # bytes, writes them under its temporary folder by their digest, and plays that copy.
    from eights.arena.cluster import FILES_DIR, agent_files, play_shipped
    from eights.arena.run import checked_table, play_range

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "worker"))
    committed = Path(__file__).resolve().parents[3] / "src" / "bots" / "weights" / "net.safetensors"
    driver = tmp_path / "driver" / "mine.safetensors"
    driver.parent.mkdir()
    driver.write_bytes(committed.read_bytes())
    agents, n, *_ = checked_table([str(driver), "heuristic"], "crazy_eights", 6, 5, 0, None, 256)
    files = agent_files(agents)
    assert list(files) == [agents[0].bot] and files[agents[0].bot][1] == committed.read_bytes()
    here = play_range(agents, "crazy_eights", 5, 0, 6, 1, None, 256)
    driver.unlink()  # gone from the driver's path, as on another machine
    folder = tmp_path / "worker" / FILES_DIR
    for k in range(3):  # a later task on the same worker reuses the copy, or mends a spoilt one
        there = play_shipped(agents, files, "crazy_eights", 5, 0, 6, 1, None, 256)
        for key in set(here) - {"agent_seconds", "agent_max_seconds"}:
            np.testing.assert_array_equal(here[key], there[key], err_msg=key)
        written = list(folder.iterdir())
        assert [p.name for p in written] == [files[agents[0].bot][0] + ".safetensors"]
        assert written[0].read_bytes() == committed.read_bytes()
        if k == 1:
            written[0].write_bytes(bytes(len(committed.read_bytes())))
    # Without the bytes the task would look for the driver's path, and find nothing.
    with pytest.raises(ValueError, match="mine.safetensors"):
        play_shipped(agents, {}, "crazy_eights", 5, 0, 6, 1, None, 256)


def test_ray_tasks_cover_every_deal_once_in_order():
    from eights.arena.cluster import MAX_TASKS, deal_ranges

    assert deal_ranges(3) == [(0, 1), (1, 1), (2, 1)]
    assert MAX_TASKS == 256
    ranges = deal_ranges(1000)  # 256 tasks of 3 or 4 deals
    assert len(ranges) == 256 and {c for _, c in ranges} == {3, 4}
    assert [d for a, c in ranges for d in range(a, a + c)] == list(range(1000))


def test_bad_ray_arguments_are_refused_before_any_game(tmp_path, monkeypatch, capsys):
    with pytest.raises(TypeError, match="ray must be None or 'local'"):
        arena.evaluate("random", games=2, ray=1)
    with pytest.raises(ValueError, match="ray must be 'local'.*empty string"):
        arena.tournament(["random", "heuristic"], games=2, ray=" ")
    for bad in ("bogus", "host:99999", "host:", ":8265", "ray://nowhere"):  # Ray's own error named no option
        with pytest.raises(ValueError, match=r"ray must be 'local'.*host:port or ray://host:port"):
            arena.evaluate("random", games=2, ray=bad)
    with pytest.raises(ValueError, match="record_dir cannot be combined with ray"):
        arena.evaluate("random", games=2, ray="local", record_dir=str(tmp_path / "r"))
    assert not (tmp_path / "r").exists()
    # Without Ray installed: the error names the extra to install.
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install 'eights\[rllib\]'"):
        arena.evaluate("random", games=2, ray="local")
    from eights.__main__ import main

    assert main(["arena", "--agents", "random,heuristic", "--games", "2", "--ray", "local"]) == 2
    err = capsys.readouterr().err
    assert "error: --ray local:" in err and "pip install 'eights[rllib]'" in err
    assert main(["arena", "--agents", "random,heuristic", "--games", "2", "--ray", "bogus"]) == 2
    assert "error: --ray bogus: must be 'local'" in capsys.readouterr().err
    assert main(["arena", "--games", "2", "--ray", "auto", "--record", str(tmp_path / "r")]) == 2
    assert "--record cannot be combined with --ray" in capsys.readouterr().err


def test_a_folder_or_a_pipe_given_as_a_model_file_is_named_so(tmp_path):
    # An audit: a folder or a FIFO named like a model was "no such model file".
    import os

    from eights.agents import load_agent

    folder = tmp_path / "run.zip"
    folder.mkdir()
    cases = [(folder, "a folder, not a model file")]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.zip")
        cases.append((tmp_path / "pipe.zip", r"not a regular file \(a pipe, a device\?\)"))
    for path, why in cases:
        with pytest.raises(ValueError, match=why):
            load_agent(str(path))
        with pytest.raises(ValueError, match=why):
            arena.evaluate(str(path), "random", games=1)


def test_results_on_changed_rules_name_the_changes(tmp_path):
    # A result on the preset with overrides was labelled, and saved, as the preset alone: a
    # results file could not be told from one on the plain preset.
    changes = {"deal": {"hand_size": 4}, "variants": ["multiple_cards"]}
    label = "crazy_eights + deal.hand_size=4, variants=multiple_cards"
    r = arena.evaluate("heuristic", "random", games=2, seed=0, rules=changes)
    assert r.preset == label and f"on {label} (2 players" in str(r)
    t = arena.tournament(["random", "heuristic"], games=2, seed=0, rules=changes)
    assert t.preset == label and t.table().startswith(f"{label}, 2 players")
    t.save(str(tmp_path / "t.json"))
    assert json.loads((tmp_path / "t.json").read_text())["preset"] == label
    assert arena.evaluate("heuristic", "random", games=2, seed=0).preset == "crazy_eights"
