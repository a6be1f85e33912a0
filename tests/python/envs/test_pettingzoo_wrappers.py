"""`eights.envs.pettingzoo.env()` is PettingZoo's wrapper chain (as its classic games build it)
whose wrappers read the per-step attributes (`agents`, `agent_selection`, `rewards`, ...) from
the bare env directly: what they return, before and after `reset`, and after a copy."""

import copy
import pickle

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.utils import wrappers  # noqa: E402

from eights.envs.pettingzoo import env as make_env  # noqa: E402
from eights.envs.pettingzoo import raw_env  # noqa: E402

_READ_THROUGH = ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "_cumulative_rewards")


def test_env_is_still_pettingzoos_wrapper_chain():
    env = make_env("crazy_eights", 3)
    assert isinstance(env, wrappers.OrderEnforcingWrapper)
    assert isinstance(env.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(env.env.env, wrappers.TerminateIllegalWrapper)
    assert isinstance(env.env.env.env, raw_env) and env.unwrapped is env.env.env.env
    assert str(env) == str(env.unwrapped)


def test_before_reset_the_wrapped_env_refuses_as_pettingzoo_does():
    env = make_env("crazy_eights", 2)
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    assert not hasattr(env, "_cumulative_rewards")
    assert not hasattr(env.env, "agents")  # the inner wrappers: the bare env has none yet


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_wrapper_reads_what_the_bare_env_holds(n):
    env = make_env("switch_blackjack", n)
    env.reset(seed=n)
    raw = env.unwrapped
    for agent in env.agent_iter():
        assert agent == raw.agent_selection
        for w in (env, env.env, env.env.env):
            for name in _READ_THROUGH:
                assert getattr(w, name) is getattr(raw, name), (type(w).__name__, name)
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    assert env.agents == [] and env.num_agents == 0


def test_an_illegal_move_through_the_wrappers_still_ends_the_hand(caplog):
    env = make_env("crazy_eights", 3, illegal_reward=-2.0)
    env.reset(seed=1)
    obs, *_ = env.last()
    bad = int((obs["action_mask"] == 0).nonzero()[0][0])
    first = env.agent_selection
    env.step(bad)
    assert all(env.terminations.values()) and env._cumulative_rewards[first] == -2.0
    assert env.rewards is env.unwrapped.rewards


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_wrapped_env_copied_mid_hand_reads_its_own_bare_env(how):
    env = make_env("crazy_eights", 2)
    env.reset(seed=3)
    for _ in range(3):
        obs, *_ = env.last()
        env.step(int(obs["action_mask"].nonzero()[0][0]))
    other = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    assert other.unwrapped is not env.unwrapped
    for w in (other, other.env, other.env.env):
        assert w._raw is other.unwrapped
    assert other.agent_selection == env.agent_selection and other.rewards == env.rewards


def test_a_value_set_on_a_wrapper_still_hides_the_bare_envs_as_in_pettingzoo():
    env = make_env("crazy_eights", 2)
    env.reset(seed=0)
    env.env.infos = {"mine": 1}  # PettingZoo's wrappers let a caller shadow an attribute
    assert env.env.infos == {"mine": 1} and env.unwrapped.infos != {"mine": 1}


def test_the_bounds_wrapper_passes_an_int_in_range_and_asserts_on_anything_else():
    # Its fast path (a plain int in range goes straight on) leaves PettingZoo's assertion for
    # every other action: out of range, another type, or None for a live agent.
    env = make_env("crazy_eights", 2)
    env.reset(seed=0)
    bounds = env.env
    legal = [a for a in range(197) if env.last()[0]["action_mask"][a]]
    for bad in (197, -1, 2.0, None):
        with pytest.raises(AssertionError, match="action is not in action space"):
            bounds.step(bad)
    before = env.unwrapped.game.to_dict()
    bounds.step(legal[0])
    assert env.unwrapped.game.to_dict() != before  # played
