"""One rules argument everywhere: every entry point that takes a preset accepts a preset name,
an ``eights.Rules`` (a house-rules TOML file included) or overrides, and refuses a bad one
with the same error text."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import eights

HOUSE = Path(__file__).resolve().parents[3] / "examples" / "house_rules.toml"
pytestmark = pytest.mark.skipif(not HOUSE.is_file(), reason="the examples folder is not here")

TYPE_TEXT = "preset must be a preset name (str), a path to a .toml file or an eights.Rules, got int"


def _house():
    return eights.Rules.from_toml(HOUSE)


def _eof():
    raise EOFError


def _entry_points():
    """Each entry point as a function of (preset, overrides): it builds or plays something."""
    from eights.cli.terminal import play
    from eights.envs.pettingzoo import raw_env

    return {
        "Game": lambda p, o: eights.Game(p, 2, seed=0, rules=o),
        "make": lambda p, o: eights.make(p, num_players=2, seed=0, rules=o).reset(),
        "VecEnv": lambda p, o: eights.VecEnv(p, num_envs=2, num_players=2, seed=0, rules=o).reset(),
        "pettingzoo": lambda p, o: raw_env(p, 2, rules=o).reset(seed=0),
        "arena.evaluate": lambda p, o: eights.arena.evaluate(
            "heuristic", "random", preset=p, num_players=2, games=2, seed=0, rules=o
        ),
        "arena.tournament": lambda p, o: eights.arena.tournament(
            ["random", "heuristic"], preset=p, num_players=2, games=2, seed=0, rules=o
        ),
        "play": lambda p, o: play(p, 2, read_line=_eof, out=io.StringIO(), seed=0, rules=o),
    }


@pytest.fixture(params=["Game", "make", "VecEnv", "pettingzoo", "arena.evaluate", "arena.tournament", "play"])
def entry(request):
    pytest.importorskip("pettingzoo")
    return _entry_points()[request.param]


def test_a_preset_name_plays(entry):
    entry("switch_blackjack", None)


def test_a_house_rules_file_plays(entry):
    entry(_house(), None)


def test_rules_with_overrides_play(entry):
    entry(eights.Rules("crazy_eights", deal__hand_size=4), None)
    entry("crazy_eights", {"deal": {"hand_size": 4}})
    entry(_house(), {"deal": {"hand_size": 6}})


def test_a_bad_preset_type_is_one_error_text(entry):
    with pytest.raises(TypeError) as info:
        entry(5, None)
    assert str(info.value) == TYPE_TEXT


def test_an_unknown_preset_is_a_value_error_naming_it(entry):
    with pytest.raises(ValueError, match="no_such_game"):
        entry("no_such_game", None)


def test_a_misspelt_override_names_the_field(entry):
    with pytest.raises(eights.RulesError, match="hand_sise"):
        entry("crazy_eights", {"deal": {"hand_sise": 4}})


def test_overrides_on_a_house_file_are_applied():
    g = eights.Game(_house(), 2, seed=0, rules={"deal": {"hand_size": 6}})
    assert len(g.hand(0)) == 6
    v = eights.VecEnv(_house(), num_envs=1, num_players=2, seed=0, rules={"deal": {"hand_size": 6}}, self_play=True)
    obs, _ = v.reset()
    a, b = v.obs_bounds.spec["hand"]
    assert obs[0, a:b].sum() == 6


def test_the_house_rules_differ_from_their_preset_in_play():
    # Same seeds, different rules: the arena must really play the file's rules.
    base = eights.arena.evaluate("heuristic", "heuristic", preset="crazy_eights", num_players=2, games=20, seed=3)
    house = eights.arena.evaluate("heuristic", "heuristic", preset=_house(), num_players=2, games=20, seed=3)
    assert house.preset == "house_eights"
    assert not np.array_equal(base.raw["decisions"], house.raw["decisions"])


def test_the_cli_arena_takes_a_house_rules_file():
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "eights",
            "arena",
            "--rules",
            str(HOUSE),
            "--agents",
            "random,heuristic",
            "--games",
            "4",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    assert "house_eights" in res.stdout
