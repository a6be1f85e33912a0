"""The Gymnasium environment: API conformance, opponents, seeding, errors."""

from __future__ import annotations

import importlib
import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import eights
from _helpers import PRESETS, mentions_card
from eights._utils.overrides import merge_rule_overrides
from eights.envs.spaces import LegalActionSpace


def _check_env_quietly(env, **kwargs):
    """Run check_env; fail on any warning except the infinite-Box-bounds notes."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, **kwargs)
    unexpected = [str(w.message) for w in caught if "infinity" not in str(w.message)]
    assert not unexpected, unexpected


def _random_episode(env, seed, action_seed, max_steps=10_000):
    """Play one episode sampling from the mask; return the trajectory."""
    rng = np.random.default_rng(action_seed)
    obs, info = env.reset(seed=seed)
    trajectory = [(obs.tobytes(), info["action_mask"].tobytes(), info["current_player"])]
    for _ in range(max_steps):
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        obs, reward, terminated, truncated, info = env.step(action)
        trajectory.append((obs.tobytes(), reward, terminated, truncated, info["action_mask"].tobytes()))
        if terminated or truncated:
            return trajectory
    raise AssertionError("episode did not end")


# --------------------------------------------------------------------------
# Gymnasium conformance and registration
# --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_check_env(preset):
    # check_env steps with action_space.sample() drawn *before* a seeded
    # reset, so it needs an env that tolerates illegal actions.
    _check_env_quietly(eights.make(preset, illegal_action="random"), skip_render_check=True)


def test_check_env_registered_with_render_check():
    env = gymnasium.make("eights/crazy_eights-v1", illegal_action="random", render_mode="ansi")
    # The unwrapped env carries the spec, which enables the determinism and
    # render checks that need it.
    _check_env_quietly(env.unwrapped)


def test_registered_ids():
    for preset in eights.presets():
        spec = gymnasium.spec(f"eights/{preset}-v1")
        assert spec.namespace == "eights"
        assert spec.entry_point == "eights.envs.gym:EightsEnv"
        fewest = eights.Rules(preset).players.start  # a preset for 4 or more: its fewest
        assert spec.kwargs == ({"preset": preset} if fewest <= 2 else {"preset": preset, "num_players": fewest})


def test_v0_ids_warn_and_point_to_v1():
    # docs/envs.md#version-history: -v1 is the current observation; -v0 still makes the same
    # environment, and Gymnasium warns that it is out of date, naming v1.
    for preset in ("crazy_eights", "switch_blackjack"):
        assert gymnasium.spec(f"eights/{preset}-v0").kwargs == {"preset": preset}
        with pytest.warns(DeprecationWarning, match=r"eights/crazy_eights-v0|eights/switch_blackjack-v0") as rec:
            env = gymnasium.make(f"eights/{preset}-v0")
        assert any("v1" in str(w.message) for w in rec)
        assert isinstance(env.unwrapped, eights.EightsEnv) and env.unwrapped.preset == preset
        assert env.observation_space.shape == (eights.OBS_SIZE,)
    with pytest.warns(DeprecationWarning, match="v1"):
        envs = gymnasium.make_vec("eights/crazy_eights-v0", num_envs=2)
    assert isinstance(envs, eights.VecEnv)


def test_v1_ids_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        gymnasium.make("eights/crazy_eights-v1").close()
        gymnasium.make_vec("eights/crazy_eights-v1", num_envs=2).close()


def test_registration_is_idempotent():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        importlib.reload(eights)
    assert not [w for w in caught if "Overriding" in str(w.message)]
    assert "eights/crazy_eights-v1" in gymnasium.registry


def test_gymnasium_make():
    env = gymnasium.make("eights/crazy_eights-v1", num_players=3, seed=0)
    obs, info = env.reset(seed=1)
    assert isinstance(env.unwrapped, eights.EightsEnv)
    assert env.unwrapped.preset == "crazy_eights"
    assert env.unwrapped.num_players == 3
    assert obs.shape == env.observation_space.shape
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert obs in env.observation_space
    env.close()


def test_spaces_and_attributes():
    env = eights.make("crazy_eights", num_players=3, seed=0)
    assert isinstance(env.game, eights.Game)
    assert env.preset == "crazy_eights" and env.num_players == 3
    assert env.action_space == gymnasium.spaces.Discrete(eights.NUM_ACTIONS)
    assert env.observation_space.shape == (env.game.observation_size,)
    assert env.observation_space.dtype == np.float32
    assert env.metadata["render_modes"] == ["ansi", "html", "rgb_array", "human"]


# --------------------------------------------------------------------------
# reset / step
# --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_reset_returns_a_learner_decision(preset):
    env = eights.make(preset, num_players=3, learner_seat=1)
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        assert obs.dtype == np.float32 and obs.shape == (env.game.observation_size,)
        np.testing.assert_array_equal(obs, env.game.observation(1))
        assert set(info) >= {"action_mask", "current_player", "phase"}
        assert info["current_player"] == 1 == env.game.current_player
        assert info["phase"] == env.game.phase != "game_over"
        mask = info["action_mask"]
        assert mask.dtype == np.bool_ and mask.shape == (eights.NUM_ACTIONS,) and mask.any()
        np.testing.assert_array_equal(mask, env.action_masks())


def test_action_masks_match_info_every_step():
    env = eights.make("crazy_eights", seed=0)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    done = False
    while not done:
        np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
        assert env.action_masks().tolist() == env.game.action_mask().tolist()
        obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        done = terminated or truncated
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
    assert not info["action_mask"].any()


@pytest.mark.parametrize("preset", PRESETS)
def test_full_random_episode_win_loss(preset):
    env = eights.make(preset, num_players=2)
    finished_with_winner = 0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        rewards = []
        terminated = truncated = False
        while not (terminated or truncated):
            assert info["current_player"] == 0
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, reward, terminated, truncated, info = env.step(action)
            assert isinstance(reward, float)
            assert type(terminated) is bool and type(truncated) is bool
            assert obs in env.observation_space
            rewards.append(reward)
        assert all(r == 0.0 for r in rewards[:-1])
        assert rewards[-1] in (1.0, -1.0, 0.0)
        assert terminated == env.game.is_terminal and truncated == env.game.is_truncated
        winner = env.game.winner
        expected = 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
        assert rewards[-1] == expected
        finished_with_winner += winner is not None
        assert info["current_player"] == -1
    assert finished_with_winner > 0


def test_score_reward():
    env = eights.make("crazy_eights", reward="score", seed=3)
    obs, info = env.reset()
    rng = np.random.default_rng(3)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        done = terminated or truncated
        if not done:
            assert reward == 0.0
    assert reward == pytest.approx(float(env.game.returns("score")[0]))


def test_action_space_sample_is_legal():
    env = eights.make("crazy_eights_specials", num_players=3, seed=5)
    obs, info = env.reset()
    env.action_space.seed(5)
    done = False
    steps = 0
    while not done:
        action = env.action_space.sample()
        assert info["action_mask"][action]
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
    assert steps > 0
    # With an explicit mask it behaves like a plain Discrete space.
    mask = np.zeros(eights.NUM_ACTIONS, dtype=np.int8)
    mask[58] = 1
    assert env.action_space.sample(mask=mask) == 58
    # A pickled copy no longer follows the env and samples like Discrete.
    copy = pickle.loads(pickle.dumps(env.action_space))
    assert isinstance(copy, LegalActionSpace) and copy == env.action_space
    assert 0 <= copy.sample() < eights.NUM_ACTIONS


def _contains_before_gymnasium_1_4(space, x):
    """``Discrete.contains`` of Gymnasium 1.0 to 1.3: a Python int cast to int64 first."""
    if isinstance(x, int):
        as_int64 = np.int64(x)  # OverflowError past 64 bits
    elif isinstance(x, (np.generic, np.ndarray)) and np.issubdtype(x.dtype, np.integer) and x.shape == ():
        as_int64 = np.int64(x)
    else:
        return False
    return bool(space.start <= as_int64 < space.start + space.n)


def test_action_space_contains_answers_for_any_int(monkeypatch):
    # Gymnasium before 1.4 (the package takes >= 1.0) raised OverflowError for contains(2**64):
    # its Discrete cast the int to int64. The version installed here is simulated.
    monkeypatch.setattr(gymnasium.spaces.Discrete, "contains", _contains_before_gymnasium_1_4)
    pz = pytest.importorskip("eights.envs.pettingzoo")
    vec = eights.VecEnv("crazy_eights", 2)
    for space in (
        eights.make("crazy_eights").action_space,
        vec.single_action_space,
        pz.raw_env().action_space("player_0"),
    ):
        for x in (2**64, -(2**64), 2**63, eights.NUM_ACTIONS, -1):
            assert space.contains(x) is False and x not in space
        assert space.contains(0) and space.contains(np.int64(196)) and 196 in space
        assert not space.contains(np.int64(197)) and not space.contains("0") and not space.contains(1.0)


def test_same_seed_same_trajectory():
    env_a = eights.make("crazy_eights", num_players=3)
    env_b = eights.make("crazy_eights", num_players=3)
    assert _random_episode(env_a, 123, 0) == _random_episode(env_b, 123, 0)
    # Reusing one env gives the same result as a fresh one.
    assert _random_episode(env_a, 123, 0) == _random_episode(env_b, 123, 0)
    firsts = {_random_episode(env_a, seed, 0)[0][0] for seed in range(5)}
    assert len(firsts) > 1, "different seeds should deal differently"


def test_constructor_seed_drives_the_first_reset():
    seeded = eights.make("crazy_eights", seed=7)
    obs_a, _ = seeded.reset()
    obs_b, _ = eights.make("crazy_eights").reset(seed=7)
    np.testing.assert_array_equal(obs_a, obs_b)
    # Unseeded resets continue the RNG stream deterministically.
    other = eights.make("crazy_eights", seed=7)
    other.reset()
    np.testing.assert_array_equal(seeded.reset()[0], other.reset()[0])


def test_reset_deck_option():
    env = eights.make("crazy_eights", seed=0)
    obs, info = env.reset(seed=0, options={"deck": ["10D"]})
    assert "TD" in env.game.hand(0)
    with pytest.raises(ValueError, match="deck"):
        env.reset(options={"dek": ["TD"]})


# --------------------------------------------------------------------------
# Opponents
# --------------------------------------------------------------------------


def test_callable_opponent_receives_obs_and_mask_and_its_actions_are_played():
    env = None
    calls = []

    def opponent(obs, mask):
        game = env.game
        legal = np.flatnonzero(mask)
        action = legal[-1]  # a numpy integer on purpose
        calls.append(
            {
                "obs": obs,
                "mask": mask,
                "seat": game.current_player,
                "expected_obs": game.observation(game.current_player),
                "legal": game.legal_actions(),
                "before": game.clone(),
                "action": int(action),
            }
        )
        return action

    env = eights.make("crazy_eights", opponents=opponent, seed=3)
    rng = np.random.default_rng(3)
    for _episode in range(3):
        obs, info = env.reset()
        done = False
        while not done:
            before = env.game.clone()
            first_call = len(calls)
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            # Replaying the learner's action and then exactly the actions the
            # opponent returned must reproduce the env's game state.
            replay = before
            replay.step(action)
            for call in calls[first_call:]:
                assert replay.to_dict() == call["before"].to_dict()
                replay.step(call["action"])
            assert replay.to_dict() == env.game.to_dict()

    assert calls, "the opponent was never asked to act"
    for call in calls:
        assert call["seat"] == 1
        assert call["obs"].dtype == np.float32
        np.testing.assert_array_equal(call["obs"], call["expected_obs"])
        assert call["mask"].dtype == np.bool_ and call["mask"].shape == (eights.NUM_ACTIONS,)
        assert np.flatnonzero(call["mask"]).tolist() == call["legal"]


def test_object_opponent_with_act_method():
    class Policy:
        def __init__(self):
            self.calls = 0

        def act(self, obs, mask):
            self.calls += 1
            return int(np.flatnonzero(mask)[0])

    policy = Policy()
    env = eights.make("crazy_eights", opponents=policy, seed=1)
    _random_episode(env, 1, 1)
    assert policy.calls > 0


def test_random_bot_instance_as_opponent():
    env = eights.make("crazy_eights", opponents=eights.RandomBot(4), seed=2)
    trajectory = _random_episode(env, 2, 2)
    assert trajectory[-1][2] or trajectory[-1][3]


@pytest.mark.parametrize("learner_seat", [0, 1, 2])
def test_list_of_opponents_follows_seat_order(learner_seat):
    env = None
    seats_seen = {"first": set(), "second": set()}

    def policy(tag):
        def act(obs, mask):
            seats_seen[tag].add(env.game.current_player)
            return int(np.flatnonzero(mask)[0])

        return act

    env = eights.make(
        "crazy_eights",
        num_players=3,
        learner_seat=learner_seat,
        opponents=[policy("first"), policy("second")],
        seed=0,
    )
    for seed in range(3):
        trajectory = _random_episode(env, seed, seed)
        assert trajectory[0][2] == learner_seat
    others = [seat for seat in range(3) if seat != learner_seat]
    assert seats_seen == {"first": {others[0]}, "second": {others[1]}}


def test_mixed_opponent_list():
    calls = []

    def policy(obs, mask):
        calls.append(1)
        return int(np.flatnonzero(mask)[-1])

    env = eights.make("crazy_eights", num_players=3, opponents=["random", policy], seed=0)
    _random_episode(env, 0, 0)
    assert calls


def test_opponent_errors():
    with pytest.raises(ValueError, match="random"):
        eights.make("crazy_eights", opponents="minimax")
    with pytest.raises(ValueError, match="random"):
        eights.make("crazy_eights", num_players=3, opponents=["random", "greedy"])
    with pytest.raises(ValueError, match="2"):
        eights.make("crazy_eights", num_players=3, opponents=["random"])
    with pytest.raises(TypeError):
        eights.make("crazy_eights", opponents=42)


def test_opponent_returning_an_illegal_action():
    def cheater(obs, mask):
        return int(np.flatnonzero(~mask)[0])

    env = eights.make("crazy_eights", opponents=cheater, seed=0)
    with pytest.raises(eights.IllegalActionError, match="seat 1"):
        _random_episode(env, 0, 0)


def test_opponent_returning_a_non_integer():
    env = eights.make("crazy_eights", opponents=lambda obs, mask: "draw", seed=0)
    with pytest.raises(TypeError, match="seat 1"):
        _random_episode(env, 0, 0)


# --------------------------------------------------------------------------
# Rules overrides
# --------------------------------------------------------------------------


def _dealt_hand_sizes(env):
    probe = env.game.clone()
    probe.reset(seed=0)
    return probe.hand_sizes


@pytest.mark.parametrize(
    "kwargs",
    [
        {"deal__hand_size": 4},
        {"rules": {"deal": {"hand_size": 4}}},
        {"deal": {"hand_size": 4}},
        {"rules": {"deal.hand_size": 4}},
    ],
)
def test_rule_overrides_change_the_hand_size(kwargs):
    env = eights.make("crazy_eights", seed=0, **kwargs)
    env.reset()
    assert env.rules == {"deal": {"hand_size": 4}}
    assert _dealt_hand_sizes(env) == [4, 4]
    assert _dealt_hand_sizes(eights.make("crazy_eights", seed=0)) != [4, 4]


def test_rule_overrides_through_gymnasium_make():
    env = gymnasium.make("eights/crazy_eights-v1", deal__hand_size=4)
    env.reset(seed=0)
    assert _dealt_hand_sizes(env.unwrapped) == [4, 4]


def test_merge_rule_overrides():
    assert merge_rule_overrides() is None
    assert merge_rule_overrides({}) is None
    assert merge_rule_overrides({"deal": {"hand_size": 4}}, deal__start_card=True) == {
        "deal": {"hand_size": 4, "start_card": True}
    }
    assert merge_rule_overrides({"a.b": 1, "a": {"c": 2}}, a__d__e=3) == {"a": {"b": 1, "c": 2, "d": {"e": 3}}}
    # The same value twice is fine; conflicting values are not.
    assert merge_rule_overrides({"deal": {"hand_size": 4}}, deal__hand_size=4) == {"deal": {"hand_size": 4}}
    with pytest.raises(ValueError, match="deal.hand_size"):
        merge_rule_overrides({"deal": {"hand_size": 4}}, deal__hand_size=5)
    with pytest.raises(ValueError, match="deal"):
        merge_rule_overrides({"deal": 4}, deal__hand_size=5)
    with pytest.raises(TypeError):
        merge_rule_overrides([("deal", 4)])
    # The caller's dicts are not modified.
    rules = {"deal": {"hand_size": 4}}
    merge_rule_overrides(rules, deal__other=1)
    assert rules == {"deal": {"hand_size": 4}}


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


def test_illegal_learner_action_raises_and_leaves_env_unchanged():
    env = eights.make("crazy_eights", seed=0, illegal_action="raise")
    obs, info = env.reset()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    before = env.game.to_dict()
    for action in (illegal, 999, -1, eights.NUM_ACTIONS):
        with pytest.raises(eights.IllegalActionError):
            env.step(action)
        assert env.game.to_dict() == before
    for action in (1.5, None, "draw", True, np.array([0.0])):
        with pytest.raises(TypeError):
            env.step(action)
        assert env.game.to_dict() == before
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.array(legal))  # 0-d integer arrays are accepted


def test_illegal_action_random_mode():
    env = eights.make("crazy_eights", illegal_action="random", seed=0)
    obs, info = env.reset()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert info["illegal_action"] is True
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["illegal_action"] is False
    # Replacement actions come from the env's RNG, so they are reproducible.
    a = eights.make("crazy_eights", illegal_action="random")
    b = eights.make("crazy_eights", illegal_action="random")
    a.reset(seed=9)
    b.reset(seed=9)
    a.step(999)
    b.step(999)
    assert a.game.to_dict() == b.game.to_dict()


def test_illegal_actions_that_end_episodes_warn_once_per_env():
    # Plain PPO on eights.make printed one warning per illegal action (500 in its first 512
    # steps): each message named its action, so Python's once-per-message filter never held.
    import warnings

    env = eights.make("crazy_eights", seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for episode in range(3):
            _, info = env.reset(seed=episode)
            _, reward, terminated, _, info = env.step(int(np.flatnonzero(~info["action_mask"])[0]))
            assert terminated and info["illegal_action"] is True and reward == -1.0
    ours = [w for w in caught if "illegal_action='terminate'" in str(w.message)]
    assert len(ours) == 1 and "Later illegal actions of this env" in str(ours[0].message)
    with warnings.catch_warnings(record=True) as caught:  # another env warns of its own first
        warnings.simplefilter("always")
        other = eights.make("crazy_eights", seed=0)
        _, info = other.reset(seed=0)
        other.step(int(np.flatnonzero(~info["action_mask"])[0]))
    assert sum("illegal_action='terminate'" in str(w.message) for w in caught) == 1


def test_step_after_the_end_raises():
    env = eights.make("crazy_eights", seed=0)
    _random_episode(env, 0, 0)
    before = env.game.to_dict()
    with pytest.raises(eights.IllegalActionError):
        env.step(58)
    assert env.game.to_dict() == before


def test_step_before_reset_raises():
    env = eights.make("crazy_eights", seed=0)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(58)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="win_loss"):
        eights.make("crazy_eights", reward="points")
    with pytest.raises(ValueError, match="learner_seat"):
        eights.make("crazy_eights", learner_seat=2)
    with pytest.raises(ValueError, match="'ansi', 'html', 'rgb_array', 'human'"):
        eights.make("crazy_eights", render_mode="rgb")
    with pytest.raises(ValueError, match="raise"):
        eights.make("crazy_eights", illegal_action="ignore")
    with pytest.raises(TypeError):
        eights.make("crazy_eights", num_players=2.0)
    with pytest.raises(TypeError):
        eights.make(7)
    with pytest.raises(ValueError):
        eights.make("crazy_nines")


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------


def test_render_ansi():
    env = eights.make("crazy_eights", render_mode="ansi", seed=0)
    env.reset()
    text = env.render()
    assert isinstance(text, str) and mentions_card(text, env.game.top_card)


def test_render_without_mode_warns_and_returns_none():
    env = eights.make("crazy_eights", seed=0)
    env.reset()
    with pytest.warns(UserWarning, match="render"):
        assert env.render() is None


def test_opponents_that_never_hand_the_turn_back_are_stopped(monkeypatch):
    # Opponents going round in a circle without the learner (rules with no decision cap)
    # held env.step for ever; VecEnv gave up after 10,000 moves, and now so does the env.
    from eights.agents import seats

    monkeypatch.setattr(seats, "MAX_OPPONENT_MOVES", 1)
    outcomes = {}
    for learner in range(4):
        env = eights.make("crazy_eights", num_players=4, learner_seat=learner, opponents="heuristic")
        try:
            env.reset(seed=5)
            outcomes[learner] = "ok"
        except RuntimeError as exc:
            assert f"the opponents made 1 moves without seat {learner} (the learner) to act" in str(exc)
            assert "set limits.max_decisions" in str(exc)
            outcomes[learner] = "stopped"
    # The seat the deal reaches after two or three opponents is stopped; one reached sooner is not.
    assert "stopped" in outcomes.values() and "ok" in outcomes.values(), outcomes
