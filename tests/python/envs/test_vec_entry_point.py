"""gymnasium.make_vec(..., vectorization_mode="vector_entry_point") returns eights.VecEnv, and
the vector env's action space samples legal actions."""

import gymnasium
import numpy as np
import pytest

import eights


@pytest.mark.parametrize("preset", eights.presets())
def test_every_registered_id_has_a_vector_entry_point(preset):
    spec = gymnasium.spec(f"eights/{preset}-v1")
    assert spec.vector_entry_point is not None


def test_make_vec_returns_the_rust_vec_env():
    envs = gymnasium.make_vec(
        "eights/switch_blackjack-v1", num_envs=8, vectorization_mode="vector_entry_point", num_players=3
    )
    assert isinstance(envs, eights.VecEnv)
    assert envs.num_envs == 8 and envs.num_players == 3 and envs.preset == "switch_blackjack"
    obs, info = envs.reset(seed=0)
    assert obs.shape == (8, eights.OBS_SIZE)
    # With no mode given, make_vec picks the vector entry point too.
    assert isinstance(gymnasium.make_vec("eights/crazy_eights-v1", num_envs=2), eights.VecEnv)
    # The sync mode still builds Python envs.
    sync = gymnasium.make_vec("eights/crazy_eights-v1", num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


def test_action_space_sample_is_legal():
    envs = eights.VecEnv("crazy_eights_specials", num_envs=64, num_players=3, seed=1)
    envs.reset()
    for _ in range(200):
        masks = envs.action_masks().copy()
        actions = envs.action_space.sample()
        assert actions.shape == (64,)
        legal = masks[np.arange(64), actions]
        # A game with no legal action (episode just ended) gets 0, which the step ignores.
        assert (legal | ~masks.any(axis=1)).all()
        envs.step(actions)  # raises IllegalActionError on an illegal action


def test_action_space_sample_with_a_mask_and_before_reset():
    envs = eights.VecEnv("crazy_eights", num_envs=4, seed=0)
    with pytest.raises(RuntimeError, match="random_actions"):
        envs.action_space.sample()
    mask = np.zeros((4, eights.NUM_ACTIONS), dtype=bool)
    mask[:, 58] = True
    mask[2, 60] = True
    for _ in range(20):
        a = envs.action_space.sample(mask=mask)
        assert a[0] == a[1] == a[3] == 58 and a[2] in (58, 60)
    with pytest.raises(ValueError, match="shape"):
        envs.action_space.sample(mask=np.ones((3, eights.NUM_ACTIONS), dtype=bool))
    # The draws are uniform over the legal actions.
    counts = np.bincount([envs.action_space.sample(mask=mask)[2] for _ in range(400)], minlength=61)
    assert 140 < counts[58] < 260 and counts[58] + counts[60] == 400
