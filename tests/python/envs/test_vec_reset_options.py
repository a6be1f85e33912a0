"""`eights.VecEnv.reset` under Gymnasium's vector conventions: a list of seeds (one per game),
`options={"reset_mask": ...}` (only the marked games are dealt), and the info's `_key` masks."""

import gymnasium
import numpy as np
import pytest

import eights
from eights import OpponentPool, VecEnv

N = 8


def _play(env, steps):
    """Step `env` with each game's own stream of legal actions (`random_actions`, seeded with
    the game); the observations seen."""
    return np.stack([env.step(env.random_actions())[0].copy() for _ in range(steps)])


def test_a_list_of_seeds_deals_each_game_as_game_zero_of_its_seed():
    env = VecEnv("crazy_eights", 3, copy=True)
    obs, _ = env.reset(seed=[5, 5, 7])
    one = VecEnv("crazy_eights", 3, copy=True)
    five, _ = one.reset(seed=5)
    seven, _ = one.reset(seed=7)
    np.testing.assert_array_equal(obs[0], five[0])
    np.testing.assert_array_equal(obs[1], five[0])
    np.testing.assert_array_equal(obs[2], seven[0])
    assert not np.array_equal(five[0], five[1]), "game 1 of seed 5 is another deal"
    # Equal seeds give equal games move for move, the built-in opponents' replies included.
    later = _play(env, 30)
    np.testing.assert_array_equal(later[:, 0], later[:, 1])


def test_a_seed_array_and_none_entries_are_taken():
    a = VecEnv("crazy_eights", 3, seed=11, copy=True)
    b = VecEnv("crazy_eights", 3, seed=11, copy=True)
    obs_a, _ = a.reset(seed=np.array([3, None, 4], dtype=object))
    obs_b, _ = b.reset(seed=[3, None, 4])
    np.testing.assert_array_equal(obs_a, obs_b)  # the None entry is drawn from the env's generator
    three, _ = VecEnv("crazy_eights", 1).reset(seed=3)
    np.testing.assert_array_equal(obs_a[0], three[0])
    # A 0-d array is one seed for the batch, as an integer is.
    np.testing.assert_array_equal(a.reset(seed=np.int64(3))[0], a.reset(seed=np.array(3))[0])


def _first_legal(obs, mask):
    """A Python opponent: the first legal action of each game."""
    return mask.argmax(axis=1)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"opponents": "heuristic"},
        {"opponents": _first_legal, "learner_seat": 1},
        {"self_play": True},
        {"autoreset": "same_step"},
    ],
    ids=["random", "heuristic", "python_opponent", "self_play", "same_step"],
)
def test_a_reset_mask_deals_only_the_games_it_marks(kwargs):
    env = VecEnv("crazy_eights", N, copy=True, **kwargs)
    twin = VecEnv("crazy_eights", N, copy=True, **kwargs)
    env.reset(seed=1)
    twin.reset(seed=1)
    before = _play(env, 6)[-1]
    _play(twin, 6)
    mask = np.zeros(N, bool)
    mask[[1, 4]] = True
    obs, info = env.reset(seed=9, options={"reset_mask": mask})
    fresh, fresh_info = VecEnv("crazy_eights", N, copy=True, **kwargs).reset(seed=9)
    # The marked games are dealt as a full reset with the same seed deals them ...
    np.testing.assert_array_equal(obs[mask], fresh[mask])
    np.testing.assert_array_equal(info["action_mask"][mask], fresh_info["action_mask"][mask])
    # ... and the others go on as if nothing had happened.
    np.testing.assert_array_equal(obs[~mask], before[~mask])
    # Every game has its own streams (deals, opponents, random_actions): the unmarked ones
    # play on exactly as in a batch never partly reset.
    np.testing.assert_array_equal(_play(env, 10)[:, ~mask], _play(twin, 10)[:, ~mask])


def test_a_reset_mask_keeps_the_other_games_flags():
    env = VecEnv("crazy_eights", N, copy=True)
    env.reset(seed=2)
    for _ in range(400):
        _, _, term, trunc, _ = env.step(env.random_actions())
        if (term | trunc).any():
            break
    done = term | trunc
    assert done.any()
    mask = ~done  # deal the live games again; the ended ones still await next-step autoreset
    _, info = env.reset(seed=4, options={"reset_mask": mask})
    assert not info["action_mask"][done].any(), "an ended game keeps its empty mask until its next step"
    assert info["action_mask"][mask].any(axis=1).all()


def test_a_reset_mask_draws_the_pool_again_only_for_the_games_it_deals():
    pool = OpponentPool(["random", "heuristic", "random"], seed=0)
    env = VecEnv("crazy_eights", 64, opponents=pool, seed=3)
    env.reset()
    first = env.pool_choices()[1]
    mask = np.zeros(64, bool)
    mask[:32] = True
    env.reset(options={"reset_mask": mask})
    second = env.pool_choices()[1]
    np.testing.assert_array_equal(second[32:], first[32:])
    assert not np.array_equal(second[:32], first[:32])


def test_bad_reset_arguments_are_refused_and_change_nothing():
    env = VecEnv("crazy_eights", 4, copy=True)
    twin = VecEnv("crazy_eights", 4, copy=True)
    with pytest.raises(RuntimeError, match=r"reset_mask.*call reset\(\) first"):
        env.reset(options={"reset_mask": np.ones(4, bool)})
    env.reset(seed=0)
    twin.reset(seed=0)
    env.np_random.integers(9)  # the generators at some point of their streams, the same in both
    twin.np_random.integers(9)
    bad = [
        (
            {"options": {"reset_mask": [True] * 4}},
            TypeError,
            r"options\['reset_mask'\] must be a numpy array of dtype bool",
        ),
        ({"options": {"reset_mask": np.ones(4, int)}}, TypeError, r"dtype bool"),
        ({"options": {"reset_mask": np.ones(3, bool)}}, ValueError, r"shape \(4,\), got \(3,\)"),
        ({"options": {"reset_mask": np.zeros(4, bool)}}, ValueError, r"at least one game"),
        ({"options": {"deck": []}}, ValueError, r"only the option 'reset_mask', got \['deck'\]"),
        ({"seed": [1, 2, 3]}, ValueError, r"one seed per game \(4\), got 3"),
        ({"seed": [1, -2, 3, 4]}, ValueError, r"seed\[1\] must be in \[0, 2\*\*64\)"),
        ({"seed": [1, "x", 3, 4]}, TypeError, r"seed\[1\]"),
        ({"seed": [True, 2, 3, 4]}, TypeError, r"seed\[0\] must be an integer"),
        ({"seed": 1.5}, TypeError, r"seed must be an integer"),
        ({"seed": [None, -1, 2, 3]}, ValueError, r"seed\[1\]"),  # refused before the None is drawn
    ]
    for kwargs, exc, match in bad:
        with pytest.raises(exc, match=match):
            env.reset(**kwargs)
    # The games and the generator are as in the twin, which saw none of the bad calls.
    for _ in range(5):
        np.testing.assert_array_equal(env.step(env.random_actions())[0], twin.step(twin.random_actions())[0])
    np.testing.assert_array_equal(env.reset(seed=[None] * 4)[0], twin.reset(seed=[None] * 4)[0])


def test_a_masked_reset_under_same_step_reports_no_final_observation():
    env = VecEnv("crazy_eights", N, autoreset="same_step", copy=True)
    env.reset(seed=5)
    for _ in range(500):
        *_, info = env.step(env.random_actions())
        if info["_final_obs"].any():
            break
    assert info["_final_obs"].any()  # those final observations were reported by that step
    mask = ~info["_final_obs"]
    _, info = env.reset(seed=6, options={"reset_mask": mask})
    assert not info["_final_obs"].any() and not info["_final_info"].any()


def test_every_info_key_has_its_gymnasium_mask():
    env = VecEnv("crazy_eights", N)
    _, info = env.reset(seed=0)
    keys = [k for k in info if not k.startswith("_")]
    assert {"action_mask", "current_player"} <= set(keys)
    for key in keys:
        assert info[f"_{key}"].dtype == bool and info[f"_{key}"].shape == (N,) and info[f"_{key}"].all()
    # Gymnasium's own vector wrappers merge their keys beside ours.
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(VecEnv("crazy_eights", N))
    wrapped.reset(seed=0)
    for _ in range(300):
        _, _, _, _, info = wrapped.step(wrapped.env.random_actions())
        if "episode" in info:
            break
    assert info["_episode"].any() and info["_action_mask"].all()


def test_make_vec_takes_the_same_reset_arguments():
    envs = gymnasium.make_vec("eights/crazy_eights-v1", num_envs=3)
    obs, _ = envs.reset(seed=[6, 6, 2])
    np.testing.assert_array_equal(obs[0], obs[1])
    envs.step(
        envs.unwrapped.random_actions() if hasattr(envs.unwrapped, "random_actions") else envs.action_space.sample()
    )
    mask = np.array([False, True, False])
    obs2, _ = envs.reset(seed=6, options={"reset_mask": mask})
    one, _ = eights.VecEnv("crazy_eights", 3).reset(seed=6)
    np.testing.assert_array_equal(obs2[1], one[1])
