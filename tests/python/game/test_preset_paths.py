"""A path to a house-rules TOML file is accepted wherever a preset name is (issue #61): every
entry point plays the file's rules when given its path, as a string or a ``pathlib.Path``,
exactly as when given the ``eights.Rules`` read from it; a missing file, a folder, a bad value
and an unknown name get one clear error naming the argument and what it allows."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

import eights
import eights.generalization
from eights.rules import is_rules_path, resolve_preset

HOUSE = Path(__file__).resolve().parents[3] / "examples" / "house_rules.toml"
pytestmark = pytest.mark.skipif(not HOUSE.is_file(), reason="the examples folder is not here")


def _eof():
    raise EOFError


def _entries():
    """Each entry point as a function of a preset argument, returning what it played: a
    game, whose rules dict is compared, or a result naming the rules."""
    gymnasium = pytest.importorskip("gymnasium")
    from eights.cli.terminal import play
    from eights.envs.pettingzoo import parallel_env, raw_env

    def make(p):
        env = eights.make(p, num_players=2, seed=0)
        env.reset(seed=1)
        return env.unwrapped.game

    def gym_make(p):
        env = gymnasium.make("eights/crazy_eights-v1", preset=p, num_players=2)
        env.reset(seed=1)
        return env.unwrapped.game

    def aec(p):
        env = raw_env(p, 2)
        env.reset(seed=1)
        return env.game

    def parallel(p):
        env = parallel_env(p, 2)
        env.reset(seed=1)
        return env.unwrapped.game

    def vec(p):
        v = eights.VecEnv(p, num_envs=2, num_players=2, seed=0)
        v.reset(seed=1)
        return v.episode_rules(0)

    def terminal(p):
        out = io.StringIO()
        play(p, 2, read_line=_eof, out=out, seed=0)
        return out.getvalue()

    return {
        "Rules": lambda p: eights.Rules(p),
        "Game": lambda p: eights.Game(p, 2, seed=0),
        "make": make,
        "gymnasium.make": gym_make,
        "pettingzoo.raw_env": aec,
        "pettingzoo.parallel_env": parallel,
        "VecEnv": vec,
        "arena.evaluate": lambda p: eights.arena.evaluate("heuristic", "random", preset=p, games=2, seed=0).preset,
        "arena.tournament": lambda p: eights.arena.tournament(["random", "heuristic"], preset=p, games=2).preset,
        "arena.play": lambda p: eights.arena.play(["heuristic", "random"], p, games=3, seed=0)["decisions"].tolist(),
        "generalization.evaluate": lambda p: (
            eights.generalization.evaluate("heuristic", rule_sets=[p], games=2, bootstrap=100).rule_sets[0].name
        ),
        "random_selfplay": lambda p: eights.random_selfplay(p, 2, games=5, seed=0)["decisions"],
        "ObservationBounds": lambda p: eights.observation.ObservationBounds(p, 2).spec,
        "play": terminal,
    }


ENTRIES = [
    "Rules",
    "Game",
    "make",
    "gymnasium.make",
    "pettingzoo.raw_env",
    "pettingzoo.parallel_env",
    "VecEnv",
    "arena.evaluate",
    "arena.tournament",
    "arena.play",
    "generalization.evaluate",
    "random_selfplay",
    "ObservationBounds",
    "play",
]


def _same(a, b):
    """What two entry-point results must share: the rules of a game, or the value itself."""
    if isinstance(a, eights.Game):
        return a.rules_dict() == b.rules_dict() and a.hand(0) == b.hand(0)
    return a == b


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("form", ["str", "Path"])
def test_a_toml_path_plays_the_files_rules(entry, form):
    pytest.importorskip("pettingzoo")
    run = _entries()[entry]
    path = str(HOUSE) if form == "str" else HOUSE
    from_path, from_rules = run(path), run(eights.Rules.from_toml(HOUSE))
    assert _same(from_path, from_rules)
    if entry != "ObservationBounds":  # (the house rules deal the preset's deck: same bounds)
        # ... and not the rules of the preset the file inherits (the two really differ).
        assert not _same(from_path, run("crazy_eights"))


def test_a_relative_path_and_the_house_name_in_results(tmp_path, monkeypatch):
    shutil.copy(HOUSE, tmp_path / "house.toml")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    # The report of #61: `--preset ../house.toml` was taken for a preset name.
    r = eights.arena.evaluate("heuristic", "random", preset="../house.toml", games=2, seed=0)
    assert r.preset == "house_eights"
    assert eights.Game("../house.toml", 2).rules_dict()["name"] == "house_eights"


def test_a_name_and_a_path_are_told_apart():
    assert not is_rules_path("crazy_eights")
    for text in ("house.toml", "HOUSE.TOML", "rules/house", "./x", "../house.toml"):
        assert is_rules_path(text), text
    # Every preset is a name, never a path.
    assert not any(is_rules_path(p) for p in eights.presets())
    assert resolve_preset("switch_blackjack") == "switch_blackjack"
    rules = eights.Rules("crazy_eights", deal__hand_size=4)
    assert resolve_preset(rules) is rules


@pytest.mark.parametrize("entry", ["Rules", "Game", "make", "VecEnv", "arena.evaluate", "random_selfplay"])
def test_a_file_whose_name_is_not_utf8_plays_everywhere(entry, tmp_path):
    """A name of bytes that are not UTF-8 reaches Python as a ``str`` with lone surrogates
    (``surrogateescape``): ``make`` played such a file while ``Game`` said it was "not valid
    text"; every entry point now reads it."""
    pytest.importorskip("pettingzoo")
    name = tmp_path / os.fsdecode(b"house\xff.toml")
    try:
        shutil.copy(HOUSE, name)
    except (OSError, UnicodeError):
        pytest.skip("this file system takes only UTF-8 names")
    run = _entries()[entry]
    assert _same(run(str(name)), run(eights.Rules.from_toml(HOUSE)))


@pytest.mark.parametrize("entry", ["Rules", "Game", "make", "VecEnv", "arena.evaluate", "generalization.evaluate"])
def test_a_missing_file_is_a_file_not_found_error_naming_it(entry, tmp_path):
    pytest.importorskip("pettingzoo")
    missing = tmp_path / "nowhere" / "house.toml"
    with pytest.raises(FileNotFoundError) as info:
        _entries()[entry](str(missing))
    text = str(info.value)
    assert str(missing) in text and "no such file" in text and "a path to a .toml file" in text


def test_rules_of_a_path_or_of_rules_take_overrides_on_top():
    """``eights.Rules`` takes what a preset argument takes: a file's path (its overrides on top
    of the file's, as ``replace`` puts them) and an ``eights.Rules``."""
    house = eights.Rules.from_toml(HOUSE)
    assert house.to_dict()["deal"]["hand_size"] != 5
    for base in (str(HOUSE), HOUSE, house):
        r = eights.Rules(base, deal__hand_size=5)
        assert r == house.replace(deal__hand_size=5) and r.to_dict()["deal"]["hand_size"] == 5
        assert r.name == house.name
    assert eights.Rules(house) == house


def test_from_toml_of_a_missing_file_names_it(tmp_path):
    missing = tmp_path / "missing.toml"
    with pytest.raises(FileNotFoundError, match="no such file") as info:
        eights.Rules.from_toml(missing)
    assert str(missing) in str(info.value)


def test_a_folder_and_bad_files_name_the_path(tmp_path):
    with pytest.raises(IsADirectoryError, match="is a folder"):
        eights.Game(str(tmp_path) + "/", 2)
    bad = tmp_path / "bad.toml"
    bad.write_text('inherits = "crazy_eights"\n[deal]\nhand_sise = 3\n')
    with pytest.raises(eights.RulesError, match="hand_sise") as info:
        eights.make(str(bad))
    assert str(bad) in str(info.value)
    broken = tmp_path / "broken.toml"
    broken.write_text("inherits = \n[deal")
    with pytest.raises(ValueError, match="invalid TOML") as info:
        eights.VecEnv(str(broken), num_envs=1)
    assert str(broken) in str(info.value)


def test_bad_values_name_the_argument_and_what_it_allows():
    allowed = "a preset name (str), a path to a .toml file or an eights.Rules"
    for value in (5, None, 2.5, b"crazy_eights"):
        with pytest.raises(TypeError) as info:
            eights.Game(value, 2)
        assert str(info.value).startswith("preset must be " + allowed), value
    with pytest.raises(ValueError) as info:
        eights.make("crazy_nines")
    text = str(info.value)
    assert 'unknown preset "crazy_nines"' in text and "crazy_eights" in text and allowed in text
    with pytest.raises(TypeError, match="rule_sets\\[1\\] must be"):
        eights.generalization.evaluate("heuristic", rule_sets=["crazy_eights", 3], games=2)


def test_a_list_of_rule_sets_may_hold_paths():
    env = eights.make(["crazy_eights", str(HOUSE)], num_players=2, obs_rules=True)
    names = set()
    for seed in range(12):
        env.reset(seed=seed)
        names.add(env.unwrapped.game.rules_dict()["name"])
    assert names == {"crazy_eights", "house_eights"}


def test_the_seeded_games_of_a_path_and_of_its_rules_are_the_same():
    a = eights.make(str(HOUSE), opponents="heuristic", seed=0)
    b = eights.make(eights.Rules.from_toml(HOUSE), opponents="heuristic", seed=0)
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    for _ in range(30):
        assert np.array_equal(oa, ob)
        action = int(np.flatnonzero(a.unwrapped.action_masks())[0])
        oa, ra, ta, _, _ = a.step(action)
        ob, rb, tb, _, _ = b.step(action)
        assert ra == rb and ta == tb
        if ta:
            oa, _ = a.reset(seed=6)
            ob, _ = b.reset(seed=6)


def test_a_misspelt_preset_gets_a_did_you_mean_and_the_option_no_python_types(capsys):
    with pytest.raises(ValueError, match=r'unknown preset "swtich_blackjack" \(did you mean switch_blackjack\?\)'):
        eights.make("swtich_blackjack")
    # On the command line: no "(str)" nor "an eights.Rules", which a shell cannot give.
    from eights.__main__ import main

    with pytest.raises(SystemExit) as end:
        main(["rules", "--preset", "crazy_eight"])
    assert end.value.code == 2
    err = capsys.readouterr().err
    assert "(did you mean crazy_eights?)" in err and "(str)" not in err and "eights.Rules" not in err
    assert "--preset must be a preset name or the path of a house-rules .toml file" in err


def test_a_preset_name_beside_a_rules_file_of_that_name_points_to_the_file(tmp_path, monkeypatch, capsys):
    # `--preset house` beside house.toml listed the presets and said nothing of the file.
    from eights.__main__ import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.toml").write_text('inherits = "crazy_eights"\n', encoding="utf-8")
    with pytest.raises(SystemExit) as end:
        main(["rules", "--preset", "house"])
    assert end.value.code == 2
    assert 'unknown preset "house" (did you mean the file house.toml?)' in capsys.readouterr().err
    with pytest.raises(ValueError, match=r'unknown preset "pub"; available presets'):
        eights.Rules("pub")  # no pub.toml here: no guess


def test_a_misspelt_parent_in_a_rules_file_gets_a_did_you_mean_too():
    # `inherits = "crazy_eightz"` listed the presets and named none, where --preset guessed.
    guess = r'unknown preset "crazy_eightz" \(did you mean crazy_eights\?\); available presets'
    with pytest.raises(ValueError, match=guess):
        eights.Rules.from_toml('inherits = "crazy_eightz"\n')
    with pytest.raises(ValueError, match=guess):
        eights.Rules.from_dict({"inherits": "crazy_eightz", "deal": {"hand_size": 5}})
    with pytest.raises(ValueError, match=guess):
        eights.Rules("crazy_eightz")
    with pytest.raises(ValueError, match=r'unknown preset "zzzz"; available presets'):
        eights.Rules.from_toml('inherits = "zzzz"\n')
