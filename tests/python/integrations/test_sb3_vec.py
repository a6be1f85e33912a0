"""eights.integrations.sb3.SB3VecEnv: an SB3 VecEnv over the Rust batch, trained on by MaskablePPO."""

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

import eights
import eights.integrations.sb3


def test_protocol_and_autoreset():
    from stable_baselines3.common.vec_env import VecEnv as SB3VecEnv

    venv = eights.integrations.sb3.SB3VecEnv("crazy_eights", num_envs=16, seed=0, num_threads=1)
    assert isinstance(venv, SB3VecEnv) and venv.num_envs == 16
    obs = venv.reset()
    assert obs.shape == (16, eights.OBS_SIZE) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        masks = venv.action_masks()
        assert masks.shape == (16, eights.NUM_ACTIONS) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        assert obs.shape == (16, eights.OBS_SIZE) and rewards.shape == dones.shape == (16,)
        for i in np.flatnonzero(dones):
            ended += 1
            assert infos[i]["terminal_observation"].shape == (eights.OBS_SIZE,)
            assert rewards[i] in (-1.0, 1.0) or infos[i]["TimeLimit.truncated"]
        assert (rewards[~dones] == 0).all()
    assert ended > 5  # random play draws a lot: episodes last ~200 learner steps
    # sb3-contrib reads the masks through env_method / has_attr.
    assert venv.has_attr("action_masks")
    per_env = venv.env_method("action_masks", indices=[0, 3])
    assert len(per_env) == 2 and np.array_equal(per_env[1], venv.action_masks()[3])
    venv.close()


def test_per_env_calls_read_the_batch_and_refuse_what_they_cannot_scope():
    venv = eights.integrations.sb3.SB3VecEnv("switch_blackjack", num_envs=4, num_players=3, seed=0, num_threads=1)
    venv.reset()
    # The batch's attributes, one per game (get_attr("num_players") raised AttributeError).
    assert venv.get_attr("num_players") == [3, 3, 3, 3] and venv.get_attr("preset", indices=[1]) == ["switch_blackjack"]
    assert venv.get_attr("action_space", indices=[0]) == [venv.action_space]  # a game's, not the batch's
    with pytest.raises(AttributeError):
        venv.get_attr("no_such_attribute")
    # A method runs on the whole batch: a subset of the games is refused (reset on [0] reset all four).
    before = venv.venv.game(2).to_dict()
    with pytest.raises(
        ValueError, match=r"env_method\('reset', indices=\[0\]\): the games of an SB3VecEnv are one batch"
    ):
        venv.env_method("reset", indices=[0])
    assert venv.venv.game(2).to_dict() == before
    assert len(venv.env_method("action_masks", indices=[0])) == 1  # read per game
    assert len(venv.env_method("reset")) == 4
    venv.close()


def test_an_illegal_action_says_which_algorithms_train_on_it_and_leaves_the_batch():
    # Plain PPO on an SB3VecEnv failed its first rollout with the engine's error alone.
    venv = eights.integrations.sb3.SB3VecEnv("crazy_eights", num_envs=2, seed=0, num_threads=1)
    venv.reset()
    before = [venv.venv.game(i).to_dict() for i in range(2)]
    with pytest.raises(eights.IllegalActionError, match=r"for env 0 .*takes legal actions only: .*MaskablePPO"):
        venv.step(np.array([155, 155]))  # keep AS: never legal at the start of a deal
    assert [venv.venv.game(i).to_dict() for i in range(2)] == before
    venv.close()


def test_set_options_refuses_what_the_batch_cannot_take_and_keeps_the_options_in_force():
    # set_options was inherited: a {"deck": ...} was stored and then dropped at the next reset.
    venv = eights.integrations.sb3.SB3VecEnv("crazy_eights", num_envs=3, seed=0, num_threads=1)
    venv.set_options({})
    venv.set_options([{}, None, {}])
    assert venv._options == [{}, None, {}]
    with pytest.raises(ValueError, match=r"take no reset option, got \['deck'\]; .*DummyVecEnv"):
        venv.set_options({"deck": ["8H"]})
    with pytest.raises(ValueError, match=r"got \['reset_mask'\] for env 1"):
        venv.set_options([{}, {"reset_mask": True}, {}])
    with pytest.raises(ValueError, match=r"one dict per env \(3\), got 2"):
        venv.set_options([{}, {}])
    with pytest.raises(TypeError, match="options must be dicts or None, got str"):
        venv.set_options("deck")
    assert venv._options == [{}, None, {}]  # a refused call leaves the options in force
    first = venv.reset()
    venv.seed(0)
    assert np.array_equal(venv.reset(), first)
    venv.close()


def test_same_seed_same_games():
    a = eights.integrations.sb3.SB3VecEnv("switch_blackjack", num_envs=4, num_players=3)
    b = eights.integrations.sb3.SB3VecEnv("switch_blackjack", num_envs=4, num_players=3)
    a.seed(7)
    b.seed(7)
    assert np.array_equal(a.reset(), b.reset())


def test_maskable_ppo_learns_on_it():
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    torch.set_num_threads(1)
    # Two-card hands against the heuristic bot: short episodes, so some end within the budget.
    venv = VecMonitor(
        eights.integrations.sb3.SB3VecEnv(
            "crazy_eights",
            num_envs=8,
            seed=0,
            scale_obs=True,
            num_threads=1,
            opponents="heuristic",
            deal={"hand_size_by_players": {"2": 2}},
        )
    )
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    assert len(model.ep_info_buffer) > 0  # whole episodes were played and logged
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=np.stack(venv.env_method("action_masks")), deterministic=True)
    masks = venv.venv.action_masks()
    assert masks[np.arange(8), actions].all()


def _batch(seed=0):
    venv = eights.integrations.sb3.SB3VecEnv("crazy_eights", num_envs=2, seed=seed, num_threads=1)
    venv.reset()
    return venv


def _games(venv):
    return [venv.venv.game(i).to_dict() for i in range(venv.num_envs)]


_BAD_ACTIONS = {
    # step_async copied with casting="unsafe" and no check: truncated, parsed, cast or reshaped.
    "float": lambda legal: legal + 0.9,
    "float-exact": lambda legal: legal.astype(np.float64),  # VecEnv.step refuses any float dtype
    "string": lambda legal: np.array([str(a) for a in legal]),
    "bool": lambda legal: np.ones(len(legal), dtype=bool),
    "nan": lambda legal: np.full(len(legal), np.nan),
    "uint64-max": lambda legal: np.full(len(legal), 2**64 - 1, dtype=np.uint64),
    "none": lambda legal: None,
    "short": lambda legal: legal[:1],
    "predict-pair": lambda legal: (legal, None),
}


@pytest.mark.parametrize("kind", list(_BAD_ACTIONS))
def test_step_checks_its_actions_as_vec_env_step_does_and_steps_nothing(kind):
    venv, twin = _batch(), _batch()
    legal = np.array([np.flatnonzero(m)[0] for m in venv.action_masks()])
    bad = _BAD_ACTIONS[kind](legal)
    plain = eights.VecEnv("crazy_eights", 2, num_threads=1, autoreset="same_step", seed=0)
    plain.reset()
    with pytest.raises((TypeError, ValueError)) as want:
        plain.step(bad)
    before = _games(venv)
    with pytest.raises(want.type) as got:
        venv.step(bad)
    assert str(got.value) == str(want.value) and "actions" in str(got.value)
    assert _games(venv) == before
    # Nothing stepped, no generator drawn: the next step is the one a batch without the bad call takes.
    obs, rewards, dones, _ = venv.step(legal)
    obs2, rewards2, dones2, _ = twin.step(legal)
    assert np.array_equal(obs, obs2) and np.array_equal(rewards, rewards2) and np.array_equal(dones, dones2)
    assert _games(venv) == _games(twin)


def test_step_takes_any_integer_actions():
    venv, twin = _batch(), _batch()
    legal = np.array([np.flatnonzero(m)[0] for m in venv.action_masks()])
    venv.step(legal.astype(np.uint8))
    twin.step([int(a) for a in legal])
    assert _games(venv) == _games(twin)


def test_step_takes_actions_of_shape_n_by_1_as_dummy_vec_env_does():
    from stable_baselines3.common.vec_env import DummyVecEnv

    # DummyVecEnv steps env i on actions[i], so a column of actions, shape (n, 1), plays.
    dummy = DummyVecEnv([lambda: eights.make("crazy_eights", seed=0) for _ in range(2)])
    dummy.reset()
    column = np.array([[np.flatnonzero(m)[0]] for m in dummy.env_method("action_masks")])
    dummy.step(column)
    venv, twin = _batch(), _batch()
    legal = np.array([np.flatnonzero(m)[0] for m in venv.action_masks()])
    venv.step(legal.reshape(2, 1))  # was "actions must have shape (2,), got (2, 1)"
    twin.step(legal)
    assert _games(venv) == _games(twin)
    legal = np.array([np.flatnonzero(m)[0] for m in venv.action_masks()])
    venv.step([[int(a)] for a in legal])
    twin.step(legal)
    assert _games(venv) == _games(twin)
    # Still refused in that shape: floats, bools, out of range, the wrong number of actions.
    for bad, error, message in [
        (legal.reshape(2, 1) + 0.5, TypeError, r"actions must be integers .* got dtype float64"),
        (np.ones((2, 1), dtype=bool), TypeError, r"actions must be integers .* got dtype bool"),
        (np.full((2, 1), 2**64 - 1, dtype=np.uint64), ValueError, r"actions are out of range"),
        (np.stack([legal, legal], axis=1), ValueError, r"actions must have shape \(2,\), got \(2, 2\)"),
        (int(legal[0]), ValueError, r"got \(\) \(one action: step takes an action for each of the 2 games"),
    ]:
        with pytest.raises(error, match=message):
            venv.step(bad)
    assert _games(venv) == _games(twin)


def test_step_of_one_env_takes_one_action_and_torch_tensors():
    torch = pytest.importorskip("torch")
    one = eights.integrations.sb3.SB3VecEnv("crazy_eights", num_envs=1, seed=0, num_threads=1)
    twin = eights.integrations.sb3.SB3VecEnv("crazy_eights", num_envs=1, seed=0, num_threads=1)
    one.reset(), twin.reset()
    action = int(np.flatnonzero(one.action_masks()[0])[0])
    one.step(action)  # one env, one action: shape () has the one value
    twin.step(np.array([action]))
    assert _games(one) == _games(twin)
    venv, twin = _batch(), _batch()
    legal = np.array([np.flatnonzero(m)[0] for m in venv.action_masks()])
    venv.step(torch.tensor(legal).reshape(2, 1))
    twin.step(legal)
    assert _games(venv) == _games(twin)
    with pytest.raises(TypeError, match=r"actions must be integers .* got dtype float32"):
        venv.step(torch.tensor(legal, dtype=torch.float32).reshape(2, 1))


def test_seed_is_the_packages_seed_range_and_deals_as_given():
    def dealt(seed):
        venv = eights.integrations.sb3.SB3VecEnv("crazy_eights", num_envs=2, num_threads=1)
        venv.seed(seed)
        venv.reset()
        return _games(venv)

    plain = eights.VecEnv("crazy_eights", 2, num_threads=1, autoreset="same_step")
    plain.reset(seed=2**63)
    # int(seed) % 2**63 dealt seed(2**63) as seed(0).
    assert dealt(2**63) == [plain.game(i).to_dict() for i in range(2)] != dealt(0)
    assert dealt(2**64 - 1) != dealt(2**63 - 1)
    venv = eights.integrations.sb3.SB3VecEnv("crazy_eights", num_envs=2, num_threads=1)
    assert len(venv.seed(None)) == 2  # SB3 draws a seed for None
    venv.seed(5)
    for bad, error, message in [
        (-1, ValueError, r"seed must be in \[0, 2\*\*64\), got -1"),  # was dealt as 2**63 - 1
        (2**64, ValueError, r"seed must be in \[0, 2\*\*64\), got 18446744073709551616"),
        (1.9, TypeError, r"seed must be an integer, got 1.9 \(type float\)"),  # was dealt as 1
        (True, TypeError, r"seed must be an integer, got True \(type bool\)"),
        ("3", TypeError, r"seed must be an integer, got '3' \(type str\)"),
    ]:
        with pytest.raises(error, match=message):
            venv.seed(bad)
    venv.reset()
    assert _games(venv) == dealt(5)  # the seed in force was kept


def test_indices_are_checked_against_num_envs():
    venv = _batch()
    # env_method("action_masks", indices=[9]) was a raw IndexError, get_attr(indices=[99]) answered.
    with pytest.raises(ValueError, match=r"indices\[0\] must be in \[-2, 1\], got 9"):
        venv.env_method("action_masks", indices=[9])
    with pytest.raises(ValueError, match=r"indices\[1\] must be in \[-2, 1\], got 99"):
        venv.get_attr("num_players", indices=[0, 99])
    with pytest.raises(ValueError, match=r"indices must be in \[-2, 1\], got -3"):
        venv.env_is_wrapped(object, indices=-3)
    with pytest.raises(TypeError, match=r"indices\[0\] must be an integer, got True \(type bool\)"):
        venv.get_attr("num_players", indices=[True])
    with pytest.raises(TypeError, match=r"indices must be None, an env index or a list of env indices, got '0'"):
        venv.get_attr("num_players", indices="0")
    assert venv.get_attr("num_players", indices=np.int64(1)) == [2]
    assert len(venv.env_method("action_masks", indices=np.array([1, 0]))) == 2
    assert venv.env_is_wrapped(object, indices=range(2)) == [False, False]


def test_negative_indices_count_from_the_end_as_in_dummy_vec_env():
    from stable_baselines3.common.vec_env import DummyVecEnv

    dummy = DummyVecEnv([lambda: eights.make("crazy_eights", seed=0) for _ in range(2)])
    venv = _batch()
    for indices in [-1, [-2], [-1, 0], np.array([-2, -1])]:
        assert venv.get_attr("num_players", indices=indices) == dummy.get_attr("num_players", indices=indices)
        assert venv.env_is_wrapped(object, indices=indices) == dummy.env_is_wrapped(object, indices=indices)
    assert venv.get_attr("num_players", indices=np.int64(-1)) == [2]  # a numpy index too (DummyVecEnv's is a list)
    masks = venv.action_masks()
    got = venv.env_method("action_masks", indices=[-1, -2])
    assert np.array_equal(got[0], masks[1]) and np.array_equal(got[1], masks[0])
    assert len(venv.env_method("seed", 3, indices=[-1, 0])) == 2  # every game, named from either end
    with pytest.raises(IndexError):
        dummy.get_attr("num_players", indices=-3)  # past the start: DummyVecEnv's list refuses it, as this does
    with pytest.raises(ValueError, match=r"indices must be in \[-2, 1\], got -3"):
        venv.get_attr("num_players", indices=-3)
