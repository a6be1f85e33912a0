"""A misspelt setting of an environment (``players=3``, ``opponent=``, ``num_player=``) fell
into its ``**rules`` catch-all and came back as a rules-model error (``invalid type: integer
`3`, expected struct PlayersSpec``); it is now a ``TypeError`` like Python's own ``unexpected
keyword argument``, with a "did you mean" read from the env's signature. And a closed
``VecEnv`` says so instead of asking for ``reset()``."""

from __future__ import annotations

import gymnasium
import pytest

import eights


def _env(name):
    """The env-making callable of that name (PettingZoo's skipped without it)."""
    if name == "make":
        return eights.make
    if name == "EightsEnv":
        return eights.EightsEnv
    if name == "VecEnv":
        return lambda preset, **kwargs: eights.VecEnv(preset, 2, **kwargs)
    return getattr(pytest.importorskip("eights.envs.pettingzoo"), name)


@pytest.mark.parametrize(
    "name, key, value, want",
    [
        ("make", "players", 3, "num_players"),
        ("make", "opponent", "heuristic", "opponents"),
        ("make", "num_player", 3, "num_players"),
        ("make", "seeds", 1, "seed"),
        ("make", "rule", {"deal": {"hand_size": 4}}, "rules"),
        ("EightsEnv", "players", 3, "num_players"),
        ("VecEnv", "num_player", 3, "num_players"),
        ("VecEnv", "self_plays", True, "self_play"),
        ("env", "rewards", "score", "reward"),
        ("parallel_env", "max_cycle", 3, "max_cycles"),
        ("raw_env", "render_views", "all", "render_view"),
    ],
)
def test_a_misspelt_env_keyword_is_a_type_error_with_did_you_mean(name, key, value, want):
    words = rf"^{name}\(\) got an unexpected keyword argument '{key}': did you mean {want}\? \(other keywords are rules"
    with pytest.raises(TypeError, match=words) as err:
        _env(name)("crazy_eights", **{key: value})
    assert "the rules field" in str(err.value)  # what the other keywords are


@pytest.mark.parametrize("name", ["env", "parallel_env", "raw_env"])
def test_seed_given_to_a_pettingzoo_env_says_it_is_seeded_through_reset(name):
    # Was a rules error listing every rules field: PettingZoo envs take their seed in reset().
    words = rf"^{name}\(\) got an unexpected keyword argument 'seed': this env is seeded through reset\(seed=\.\.\.\)"
    with pytest.raises(TypeError, match=words):
        _env(name)("crazy_eights", seed=0)
    _env(name)("crazy_eights").reset(seed=0)
    # The envs whose constructor takes a seed keep it (gymnasium.make passes it to EightsEnv).
    for other in ("make", "EightsEnv", "VecEnv"):
        assert _env(other)("crazy_eights", seed=0).num_players == 2
    assert gymnasium.make("eights/crazy_eights-v1", seed=0).unwrapped.num_players == 2


def test_gymnasium_make_names_the_env_class():
    with pytest.raises(
        TypeError, match=r"EightsEnv\(\) got an unexpected keyword argument 'players': did you mean num_players\?"
    ):
        gymnasium.make("eights/crazy_eights-v1", players=3)


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("foo", 3, r"invalid rules field 'foo': unknown field `foo`"),  # close to no keyword
        ("two_player", 3, r"invalid rules field 'two_player': invalid type"),  # a rules table, not close enough
        ("deal__hand_siz", 3, r"invalid rules field 'deal.hand_siz'"),  # a path into a rules table
        ("variants", ["nope"], r"variants"),  # a rules field of its own kind
    ],
)
def test_other_unknown_keywords_keep_the_rules_error(key, value, message):
    with pytest.raises(eights.RulesError, match=message):
        eights.make("crazy_eights", **{key: value})


@pytest.mark.parametrize("how", ["make", "EightsEnv", "VecEnv", "env", "gymnasium.make"])
def test_a_keyword_that_is_neither_a_setting_nor_a_rules_field_is_also_a_type_error(how):
    # Was a RulesError (a ValueError) alone. Python's convention for an unknown keyword is a
    # TypeError "got an unexpected keyword argument", which tools build on: TorchRL's
    # GymEnv("eights/crazy_eights-v1") passes frameskip= and drops it on that TypeError only.
    name = "EightsEnv" if how == "gymnasium.make" else how

    def make(**kwargs):
        if how == "gymnasium.make":
            return gymnasium.make("eights/crazy_eights-v1", **kwargs)
        return _env(how)("crazy_eights", **kwargs)

    with pytest.raises(TypeError, match=rf"^{name}\(\) got an unexpected keyword argument 'frameskip'") as err:
        make(frameskip=4)
    assert isinstance(err.value, eights.RulesError)  # and still the rules error it was, word for word
    assert "invalid rules field 'frameskip': unknown field `frameskip`, expected one of `name`" in str(err.value)
    # The engine's hint for a field of another table is kept.
    with pytest.raises(TypeError, match=r"`hand_size` is a field of another table: `deal\.hand_size`"):
        make(hand_size=8)


def test_a_rules_table_given_as_a_table_is_still_a_rule_override():
    env = eights.make("crazy_eights", num_players=3, players={"min": 2, "max": 5}, deal={"hand_size": 4})
    assert env.rules == {"players": {"min": 2, "max": 5}, "deal": {"hand_size": 4}}
    assert eights.VecEnv("crazy_eights", 2, players__max=5).rules == {"players": {"max": 5}}


def test_the_keywords_come_from_the_signature():
    from eights._utils.overrides import env_overrides

    def table(preset, colour="red", *, stakes=1, **rules):
        return rules

    with pytest.raises(
        TypeError, match=r"^table\(\) got an unexpected keyword argument 'color': did you mean colour\?"
    ):
        env_overrides({"color": "blue"}, table)
    with pytest.raises(TypeError, match=r"did you mean stakes\?"):
        env_overrides({"stake": 2}, table)
    # Keywords of a function the catch-all is passed on to are accepted as they are.
    assert env_overrides({"colour": "blue", "deal__hand_size": 4}, eights.make, table) == {
        "colour": "blue",
        "deal__hand_size": 4,
    }


@pytest.mark.parametrize(
    "call, method",
    [
        (lambda e: e.step(e.random_actions()), "random_actions"),
        (lambda e: e.step([0, 0]), "step"),
        (lambda e: e.reset(seed=1), "reset"),
        (lambda e: e.bot_actions("random"), "bot_actions"),
        (lambda e: e.bot_policies("random"), "bot_policies"),
    ],
)
def test_a_closed_vec_env_says_it_is_closed(call, method):
    envs = eights.VecEnv("crazy_eights", 2, seed=0)
    envs.reset()
    envs.close()
    # Before: "call reset() before step()", and reset() dealt the closed batch again.
    with pytest.raises(RuntimeError, match=rf"^the VecEnv is closed: {method}\(\) cannot be called after close\(\)"):
        call(envs)


def test_a_vec_env_never_reset_still_asks_for_reset():
    envs = eights.VecEnv("crazy_eights", 2, seed=0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        envs.step([0, 0])
    with pytest.raises(RuntimeError, match=r"call reset\(\) before bot_actions\(\)"):
        envs.bot_actions("random")
