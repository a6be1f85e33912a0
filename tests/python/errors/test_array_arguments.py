"""Every entry point that takes a numpy array names the argument, the dtype and the shape it
expects, and what it was given, and changes nothing (fidelity and hardening, round three)."""

import numpy as np
import pytest

import eights
from eights import _core


@pytest.fixture
def core():
    env = _core.VecEnvCore("crazy_eights", 4, num_threads=1)
    env.reset(0)
    return env


@pytest.mark.parametrize(
    ("out", "got"),
    [
        (np.zeros(4, dtype=np.float64), "dtype float64 and shape (4,)"),
        (np.zeros(4, dtype=np.int32), "dtype int32 and shape (4,)"),
        (np.zeros((4, 1), dtype=np.int64), "dtype int64 and shape (4, 1)"),
        ([0, 0, 0, 0], "list"),
    ],
)
def test_random_actions_out_names_the_argument_and_dtype(core, out, got):
    before = core.observations.copy()
    with pytest.raises(TypeError, match=r"out must be a numpy array of dtype int64 and shape \(4,\), got .*") as e:
        core.random_actions(out)
    assert got in str(e.value)
    assert "not an instance of" not in str(e.value)
    np.testing.assert_array_equal(core.observations, before)


def test_random_actions_out_length_and_writeability(core):
    with pytest.raises(ValueError, match="out must have 4 elements"):
        core.random_actions(np.zeros(3, dtype=np.int64))
    ro = np.zeros(4, dtype=np.int64)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out must be a writeable array"):
        core.random_actions(ro)
    out = np.full(4, -7, dtype=np.int64)
    assert core.random_actions(out) is out
    assert (out >= 0).all()


def test_step_actions_name_the_dtype(core):
    with pytest.raises(
        TypeError, match=r"actions must be a numpy array of dtype int64 and shape \(4,\), got .*float64"
    ):
        core.step(np.zeros(4, dtype=np.float64))


def test_bot_actions_rows_name_the_dtype(core):
    with pytest.raises(TypeError, match=r"rows must be a numpy array of dtype int64 .*got .*float32"):
        core.bot_actions("heuristic", np.zeros(2, dtype=np.float32))
    assert core.bot_actions("heuristic", np.arange(2, dtype=np.int64)).shape == (2,)


def test_net_probs_obs_and_masks_name_the_dtype():
    g = eights.Game("crazy_eights", 2, seed=0)
    obs = g.observation(0)[None, :]
    mask = g.action_mask()[None, :]
    with pytest.raises(TypeError, match=r"obs must be a numpy array of dtype float32 .*got .*float64"):
        _core.net_probs("crazy_eights", obs.astype(np.float64), mask)
    with pytest.raises(TypeError, match=r"masks must be a numpy array of dtype bool .*got .*uint8"):
        _core.net_probs("crazy_eights", obs, mask.astype(np.uint8))
    assert _core.net_probs("crazy_eights", obs, mask).shape == (1, eights.NUM_ACTIONS)


def test_an_opponents_unsigned_action_past_int64_is_named_as_given():
    # 2**64 - 1 from a policy's uint64 array was cast to the engine's int64 and reported as "action -1".
    def policy(obs, mask):
        return np.full(len(mask), 2**64 - 1, np.uint64)

    env = eights.VecEnv("crazy_eights", 2, opponents=policy, learner_seat=1)
    with pytest.raises(
        ValueError, match=r"seat 0 are out of range: action ids are in \[0, 196\], got 18446744073709551615"
    ):
        env.reset(seed=0)


def test_an_opponent_returning_predicts_pair_is_told_to_return_the_actions():
    # SB3's model.predict returns (actions, state); numpy's "inhomogeneous shape" named nothing.
    def policy(obs, mask):
        return np.flatnonzero(mask[0])[:1].repeat(len(mask)), None

    env = eights.VecEnv("crazy_eights", 2, opponents=policy, learner_seat=1)
    with pytest.raises(TypeError, match=r"opponent at seat 0 must be integers .*got a pair \(actions, state\)"):
        env.reset(seed=0)


@pytest.mark.parametrize("big", [2**64, -(2**70)])
def test_step_actions_past_64_bits_are_out_of_range(big):
    # A list of Python ints past int64 and uint64 became an object array: "got dtype object".
    env = eights.VecEnv("crazy_eights", 4, seed=0)
    env.reset()
    with pytest.raises(ValueError, match=rf"actions are out of range: action ids are in \[0, 196\], got {big}$"):
        env.step([big, 1, 1, 1])
    with pytest.raises(TypeError, match=r"actions must be integers .*got \[\[1, 2\], \[3\]\] \(type list\)"):
        env.step([[1, 2], [3]])


def test_integer_actions_in_an_object_array_are_stepped():
    # An object array of integers in range (a policy's list of Python ints put through
    # np.array(..., dtype=object), or numpy integers) was "out of range: ..., got 37".
    plain = eights.VecEnv("crazy_eights", 3, seed=4)
    boxed = eights.VecEnv("crazy_eights", 3, seed=4)
    plain.reset()
    boxed.reset()
    for k in range(6):
        actions = plain.random_actions().copy()
        items = [int(a) for a in actions] if k % 2 else list(actions)  # Python ints, numpy ints
        a = plain.step(actions)
        b = boxed.step(np.array(items, dtype=object))
        for x, y in zip(a[:4], b[:4]):
            np.testing.assert_array_equal(x, y)
    with pytest.raises(TypeError, match=r"actions must be integers .*got dtype object"):
        boxed.step(np.array([1.5, 1, 1], dtype=object))
    with pytest.raises(TypeError, match=r"actions must be integers .*got dtype object"):
        boxed.step(np.array([True, 1, 1], dtype=object))
