"""OpponentPool.act's arguments: a ``choice`` that does not hold one snapshot index of the
pool per row is a ValueError/TypeError naming it, and a batch whose observations are a
dict (``obs_rules``) reaches every snapshot as the dict of its rows."""

import numpy as np
import pytest

import eights
from eights.agents.pool import OpponentPool


def first_legal(obs, mask):
    return np.argmax(mask, axis=1)


OBS = np.zeros((3, 10), dtype=np.float32)
MASK = np.ones((3, eights.NUM_ACTIONS), dtype=bool)


@pytest.mark.parametrize(
    "size, choice, error, message",
    [
        # An index past the pool used to be IndexError "list index out of range".
        (1, [1, 0, 0], ValueError, r"choice must hold snapshot indices in \[0, 1\) for a pool of 1, got 1"),
        # -1 used to play the last snapshot, silently.
        (2, [-1, 0, 0], ValueError, r"choice must hold snapshot indices in \[0, 2\) for a pool of 2, got -1"),
        # Too short used to return fewer actions than rows, silently.
        (2, [0, 0], ValueError, r"choice must have shape \(3,\), got \(2,\)"),
        (2, [[0], [0], [0]], ValueError, r"choice must have shape \(3,\), got \(3, 1\)"),
        # Floats and bools used to be compared with the indices (0.0 == 0, False == 0).
        (2, [0.0, 0.0, 0.0], TypeError, "choice must be integers"),
        (2, [False, False, False], TypeError, "choice must be integers"),
        # None used to be "object of type 'NoneType' has no len()".
        (2, None, TypeError, "choice must be integers"),
    ],
)
def test_act_checks_choice(size, choice, error, message):
    pool = OpponentPool([first_legal] * size)
    with pytest.raises(error, match=message):
        pool.act(OBS, MASK, None if choice is None else np.array(choice))


def test_a_uint64_choice_past_int64_is_named_as_a_snapshot_index():
    # It read "action ids are in [0, 196]", a message about actions.
    pool = OpponentPool([first_legal] * 2)
    choice = np.array([0, 2**63 + 5, 1], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"choice are out of range: snapshot indices are in \[0, 2\) for a pool of 2"):
        pool.act(OBS, MASK, choice)


def test_act_checks_the_rows_of_obs_and_mask():
    pool = OpponentPool([first_legal])
    # Obs with fewer rows than mask used to be an IndexError inside the batch.
    with pytest.raises(ValueError, match=r"obs must have one row per row of mask \(3\), got shape \(2, 10\)"):
        pool.act(OBS[:2], MASK, np.zeros(3, dtype=int))
    # A mask without rows used to be a TypeError from len().
    with pytest.raises(ValueError, match=r"mask must have shape \(rows, NUM_ACTIONS\)"):
        pool.act(OBS, None, np.zeros(3, dtype=int))
    # A list of indices and an empty batch still play.
    pool.add(first_legal)
    assert pool.act(OBS, MASK, [0, 1, 0]).tolist() == [0, 0, 0]
    assert pool.act(OBS[:0], MASK[:0], np.zeros(0, dtype=int)).shape == (0,)


@pytest.mark.parametrize("width", [5, eights.NUM_ACTIONS + 1])
@pytest.mark.parametrize("rows", [3, 0])
def test_act_checks_the_width_of_mask(rows, width):
    # A mask of the wrong width ((3, 5)) reached the policies.
    calls = []
    pool = OpponentPool([lambda obs, mask: calls.append(mask) or np.zeros(len(mask), dtype=int)])
    want = rf"mask must have shape \(rows, NUM_ACTIONS\) = \(rows, 197\), got shape \({rows}, {width}\)"
    with pytest.raises(ValueError, match=want):
        pool.act(OBS[:rows], np.ones((rows, width), dtype=bool), np.zeros(rows, dtype=int))
    assert calls == []


def test_vec_env_with_rules_in_the_observation_plays_a_pool_of_policies():
    # obs_rules=True gives the opponents a dict of arrays; a pool's callable snapshot used to
    # fail with "TypeError: unhashable type: 'numpy.ndarray'" (the dict indexed by rows).
    seen = []

    def policy(obs, mask):
        seen.append(sorted(obs))
        return np.argmax(mask, axis=1)

    env = eights.VecEnv("crazy_eights", num_envs=3, opponents=OpponentPool([policy]), obs_rules=True, seed=0)
    obs, info = env.reset(seed=0)
    for _ in range(5):
        obs, *_ = env.step(np.argmax(env.action_masks(), axis=1))
    assert seen and all(keys == ["obs", "rules"] for keys in seen)
