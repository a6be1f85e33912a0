"""The generalization benchmark: its splits (held-out rule sets whose mechanics all appear
in training), evaluate's per-rule-set results and aggregates, refusals, agents that read
the rules, and the command line."""

import json
import subprocess
import sys

import numpy as np
import pytest

import eights
from eights import generalization as G
from eights.cli import main
from eights.rules import encoding as E
from eights.rules.space import derive_seed


def _mechanics(rules, n=2):
    cards, table = E.split(rules.encode(n))
    used = {E.CARD_FEATURE_NAMES[j] for j in np.flatnonzero(cards.any(axis=0))}
    return used | {E.TABLE_FEATURE_NAMES[j] for j in np.flatnonzero(table)}


def test_held_out_presets_use_only_mechanics_seen_in_training():
    train = set()
    for p in G.train_presets(2):
        r = eights.Rules(p)
        for v in [None] + r.variants:
            try:
                train |= _mechanics(r if v is None else r.with_variants(v))
            except eights.RulesError:  # a variant for other tables (allow_500 needs 3 players)
                pass
    for r in G.split("heldout_presets"):
        assert _mechanics(r) <= train, (r.name, sorted(_mechanics(r) - train))


def test_splits_are_disjoint_and_fixed():
    train = {r.name for r in G.split("train_presets")}
    held = {r.name for r in G.split("heldout_presets")}
    assert not train & held and held == set(G.HELDOUT_PRESETS)
    assert len(train) + len(held) == 22  # the presets that allow two players
    house = G.split("heldout_house")
    assert len(house) == G.HOUSE_RULES_COUNT
    assert [r.to_toml() for r in house] == [r.to_toml() for r in G.split("heldout_house")]
    assert all(r.preset in train for r in house)
    assert all(G.heldout_house_space().changes(0) is not None for _ in range(1))
    for r in house:
        eights.Game(r, 2, seed=0)
    with pytest.raises(ValueError, match="unknown split"):
        G.split("test")


def test_heldout_house_sets_have_at_least_three_changes():
    # Single-change draws recur in training (199 of 200,000 training draws equalled one);
    # the held-out house sets keep to draws of MIN_HOUSE_CHANGES or more.
    space = G.heldout_house_space()
    house = G.split("heldout_house")
    kept = [s for s in (derive_seed(G.HOUSE_SEED, i) for i in range(400)) if len(space.changes(s)) >= 3]
    assert G.MIN_HOUSE_CHANGES == 3
    assert [r.to_toml() for r in house] == [space.sample(s).to_toml() for s in kept[: G.HOUSE_RULES_COUNT]]
    for r in house:
        assert r != eights.Rules(r.preset), r.preset


def test_train_space_draws_only_train_presets():
    space = G.train_space()
    assert set(space.presets) == set(G.train_presets())


def test_evaluate_reports_each_rule_set_and_the_aggregates():
    res = G.evaluate("heuristic", "heldout_presets", games=40, opponent="random", seed=1)
    rates = [r.win_rate for r in res.rule_sets]
    assert len(rates) == 5 and all(r.ci[0] <= r.win_rate <= r.ci[1] for r in res.rule_sets)
    assert res.mean == pytest.approx(np.mean(rates))
    assert res.mean_ci[0] <= res.mean <= res.mean_ci[1]
    assert res.iqm_ci[0] <= res.iqm <= res.iqm_ci[1]
    assert res.mean_ci[0] > res.fair_share  # the heuristic beats random on held-out rules too
    again = G.evaluate("heuristic", "heldout_presets", games=40, opponent="random", seed=1)
    assert again.to_dict() == res.to_dict()
    assert "IQM" in res.table()


def test_iqm_is_the_mean_of_the_middle_half():
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(0)
    for k in (4, 5, 8, 13, 40):
        x = rng.random((7, k))
        np.testing.assert_allclose(G.iqm(x, axis=1), scipy_stats.trim_mean(x, 0.25, axis=1))


def test_a_bot_refused_by_a_rule_set_is_reported_not_raised():
    res = G.evaluate("net1", "heldout_presets", games=10)
    refused = [r.name for r in res.rule_sets if r.refused]
    assert refused == ["fat_buddah", "chase_the_ace", "sevens_and_eights", "crazy_eights_countdown_blog"]
    assert "trained for" in res.rule_sets[0].refused
    assert res.mean == res.rule_sets[-1].win_rate


class ReadsTheRules:
    """A policy that reads the rules: it checks what it is given, and plays the first legal action."""

    obs_rules = True
    name = "reads_rules"

    def __init__(self):
        self.seen = set()

    def act_batch(self, obs, masks):
        assert set(obs) == {"obs", "rules"}
        assert obs["obs"].shape == (len(masks), eights.OBS_SIZE)
        assert obs["rules"].shape == (len(masks), eights.RULES_SIZE)
        self.seen.update(map(bytes, obs["rules"]))
        return [int(np.flatnonzero(m)[0]) for m in masks]


def test_an_agent_that_reads_the_rules_is_given_them():
    agent = ReadsTheRules()
    res = G.evaluate(agent, "heldout_presets", games=4)
    assert len(agent.seen) == 5 and res.agent == "reads_rules"
    expected = {bytes(r.encode(2)) for r in G.split("heldout_presets")}
    assert agent.seen == expected


def test_command_line(tmp_path):
    out = tmp_path / "res.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "eights",
            "generalize",
            "--agent",
            "random",
            "--split",
            "heldout_house",
            "--games",
            "3",
            "--no-progress",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "IQM" in proc.stdout
    data = json.loads(out.read_text())
    assert len(data["rule_sets"]) == G.HOUSE_RULES_COUNT
    bad = subprocess.run(
        [sys.executable, "-m", "eights", "generalize", "--agent", "random", "--split", "nope"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "--split" in bad.stderr


def test_a_rules_table_grows_from_any_capacity():
    # RulesTable(0).add spun for ever: doubling an empty array leaves it empty.
    pytest.importorskip("torch")
    from eights.generalization.learners import RULES_SIZE, RulesTable

    table = RulesTable(0)
    rows = np.arange(3 * RULES_SIZE, dtype=np.float32).reshape(3, RULES_SIZE)
    assert list(table.add(rows)) == [0, 1, 2]
    assert list(table.add(rows[:1])) == [3]
    np.testing.assert_array_equal(table.rows[:3], rows)
    np.testing.assert_array_equal(table.rows[3], rows[0])


def _strict_json(path):
    """The file's JSON, refusing NaN and Infinity (not JSON)."""

    def refuse(constant):
        raise AssertionError(f"{path} holds {constant}, which is not JSON")

    return json.loads(path.read_text(), parse_constant=refuse)


def test_refused_rule_sets_are_null_in_the_json(tmp_path):
    res = G.evaluate("net1", "heldout_presets", games=2)
    res.save(str(tmp_path / "g.json"))
    data = _strict_json(tmp_path / "g.json")
    assert data == res.to_dict()
    first = data["rule_sets"][0]
    assert first["refused"] and first["win_rate"] is None and first["ci"] == [None, None]
    assert data["mean"] == res.mean  # the aggregates of the played rule set stay numbers


def test_a_result_with_no_rule_set_played_is_valid_json(tmp_path):
    res = G.evaluate("net1", "heldout_house", games=1)  # every house set is refused: nothing played
    assert all(r.refused for r in res.rule_sets)
    res.save(str(tmp_path / "g.json"))
    data = _strict_json(tmp_path / "g.json")
    assert data["mean"] is None and data["iqm_ci"] == [None, None]
    assert "nan" not in res.table() and "(0 of 40 rule sets played)" in res.table()


def test_command_line_refuses_an_agent_that_plays_no_rule_set(tmp_path, capsys):
    # It printed "mean nan [nan, nan]", "(0 of 40 rule sets played)", wrote bare NaN and exited 0.
    out = tmp_path / "g.json"
    argv = ["generalize", "--agent", "net1", "--split", "heldout_house", "--games", "2", "--no-progress"]
    assert main(argv + ["--out", str(out)]) == 2
    stdout, err = capsys.readouterr()
    assert "--agent net1: net1 can play none of the 40 rule sets of split 'heldout_house'" in err, err
    assert "trained for" in err and "Traceback" not in err
    assert stdout == "" and not out.exists()


def test_the_rule_sets_a_player_count_leaves_out_are_named(capsys):
    # At 10 players the heldout_presets split plays 3 of its 5 presets; it said "(3 of 3 rule
    # sets played)" and nothing of the other two.
    left = ["chase_the_ace", "sevens_and_eights"]
    assert G.unseated("heldout_presets", 10) == left and G.unseated("heldout_presets", 2) == []
    res = G.evaluate("random", "heldout_presets", num_players=10, games=1)
    assert res.left_out == left and res.to_dict()["left_out"] == left
    assert main(["generalize", "--agent", "random", "--players", "10", "--games", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "(3 of 3 rule sets played)" in out
    assert f"2 of 5 rule sets of the split do not seat 10 players, left out: {', '.join(left)}" in out, out


def test_a_split_with_no_rule_set_for_the_player_count_is_refused(monkeypatch, capsys):
    # No split is empty at 2 to 10 players today; were one, the run would play nothing.
    import importlib

    evaluate_module = importlib.import_module("eights.generalization.evaluate")
    monkeypatch.setattr(evaluate_module, "_split", lambda name, n: [])
    with pytest.raises(ValueError, match="num_players=10: no rule set of split 'heldout_presets' seats 10"):
        G.evaluate("random", "heldout_presets", num_players=10, games=1)
    monkeypatch.setattr(G, "split", lambda name, n: [])
    assert main(["generalize", "--agent", "random", "--players", "10", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert "--players 10: no rule set of split 'heldout_presets' seats 10 players" in err and out == "", err


def test_an_opponent_refused_by_a_rule_set_is_refused_before_any_game():
    calls = []

    def first_legal(obs, mask):
        calls.append(1)
        return int(np.flatnonzero(mask)[0])

    with pytest.raises(ValueError, match="opponent net1 cannot play the rule set one_card"):
        G.evaluate(first_legal, rule_sets=["crazy_eights", "one_card"], opponent="net1", games=1)
    assert calls == []  # crazy_eights was not played first


def test_bootstrap_is_checked_before_any_game():
    # Checked only at the end, after every game: 0 gave IndexError, -1 a numpy error, 'x' a
    # TypeError, 2**40 "Unable to allocate 8 TiB", and 99 was taken (the arena wants >= 100).
    calls = []

    def first_legal(obs, mask):
        calls.append(1)
        return int(np.flatnonzero(mask)[0])

    for bad, error, message in [
        (0, ValueError, r"bootstrap must be >= 100, got 0"),
        (-1, ValueError, r"bootstrap must be >= 100"),
        (99, ValueError, r"bootstrap must be >= 100, got 99"),
        (2**40, ValueError, r"bootstrap must be in \[100, 1000000\]"),
        ("x", TypeError, r"bootstrap must be an integer"),
    ]:
        with pytest.raises(error, match=message):
            G.evaluate(first_legal, rule_sets=["crazy_eights"], games=1, bootstrap=bad)
    assert calls == []


def test_an_empty_list_of_rule_sets_is_refused():
    # It returned a mean and an IQM of NaN, labelled with the default split's name.
    with pytest.raises(ValueError, match=r"^rule_sets must name at least one rule set"):
        G.evaluate("random", rule_sets=[])
