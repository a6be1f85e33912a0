"""Rules an agent can see, in every environment: ``obs_rules=True`` adds the rules encoding
(VecEnv, the Gymnasium env, PettingZoo, SB3's vector env, RLlib), and the rules may be a
list of rule sets or an eights.RuleSpace drawn at every episode, the same draws for the
same seeds whatever the thread count."""

import numpy as np
import pytest

import eights

TWO = [p for p in eights.presets() if 2 in eights.Rules(p).players]


def _steps(env, k):
    obs, info = env.reset(seed=3)
    for _ in range(k):
        obs, r, term, trunc, info = env.step(env.random_actions())
    return obs, info


def test_vector_env_of_mixed_rules_shows_each_games_rules():
    env = eights.VecEnv(TWO, num_envs=48, obs_rules=True, num_threads=1)
    assert len(TWO) == 22
    obs, info = _steps(env, 150)
    assert set(obs) == {"obs", "rules"} and obs["rules"].shape == (48, eights.RULES_SIZE)
    assert env.single_observation_space["rules"].shape == (eights.RULES_SIZE,)
    assert env.observation_space.contains({k: v.copy() for k, v in obs.items()})
    ids = info["rules_id"]
    assert len(set(ids.tolist())) > 10
    for i in range(48):
        rules = env.episode_rules(i)
        assert rules == eights.Rules(TWO[ids[i]])
        np.testing.assert_array_equal(obs["rules"][i], rules.encode(2))


def test_vector_env_of_a_rule_space_draws_every_episode():
    space = eights.RuleSpace(house_prob=0.8)
    env = eights.VecEnv(space, num_envs=32, obs_rules=True, num_threads=1, autoreset="same_step")
    obs, info = env.reset(seed=1)
    seen = set()
    for _ in range(200):
        before = obs["rules"].copy()
        obs, r, term, trunc, info = env.step(env.random_actions())
        for i in np.flatnonzero(term | trunc):
            np.testing.assert_array_equal(info["final_obs"]["rules"][i], before[i])
        seen.update(info["rules_id"].tolist())
    assert len(seen) > 60
    for i in range(32):
        np.testing.assert_array_equal(obs["rules"][i], env.episode_rules(i).encode(2))


@pytest.mark.parametrize("preset", [TWO, eights.RuleSpace()])
def test_the_thread_count_does_not_change_the_draws(preset):
    def run(threads):
        env = eights.VecEnv(preset, num_envs=200, obs_rules=True, num_threads=threads)
        obs, info = _steps(env, 60)
        return obs["obs"].copy(), obs["rules"].copy(), info["rules_id"].copy()

    for a, b in zip(run(1), run(2)):
        np.testing.assert_array_equal(a, b)


def test_without_obs_rules_the_layout_is_unchanged():
    env = eights.VecEnv(TWO, num_envs=8, num_threads=1)
    obs, info = env.reset(seed=0)
    assert obs.shape == (8, eights.OBS_SIZE) and "rules_id" in info
    plain = eights.VecEnv("crazy_eights", num_envs=8, num_threads=1)
    obs, info = plain.reset(seed=0)
    assert "rules_id" not in info


def test_mixed_bounds_hold_for_every_rule_set():
    env = eights.VecEnv(TWO, num_envs=64, num_threads=1, scale_obs=True)
    for _ in range(2):
        obs, info = _steps(env, 100)
        assert ((obs >= 0) & (obs <= 1)).all()
    raw = eights.VecEnv(eights.RuleSpace(), num_envs=64, num_threads=1)
    obs, _ = _steps(raw, 100)
    assert raw.observation_space.contains(obs.copy())


def test_net1_is_refused_on_a_rule_space_and_on_a_list_it_does_not_play():
    with pytest.raises(ValueError, match="RuleSpace"):
        eights.VecEnv(eights.RuleSpace(), num_envs=4, opponents="net1")
    with pytest.raises(ValueError, match="net1"):
        eights.VecEnv(["crazy_eights", "one_card"], num_envs=4, opponents="net1")
    eights.VecEnv(["crazy_eights", "switch_blackjack"], num_envs=4, opponents="net1")


def test_net_plays_a_rule_space():
    env = eights.VecEnv(eights.RuleSpace(num_players=2), num_envs=8, opponents="net", seed=3)
    env.reset()
    ended = 0
    for _ in range(400):
        _, _, term, trunc, _ = env.step(env.random_actions())
        ended += int((term | trunc).sum())
    assert ended > 0


def test_bad_rules_arguments():
    with pytest.raises(ValueError, match="empty"):
        eights.VecEnv([], num_envs=4)
    with pytest.raises(TypeError, match="preset names, paths to .toml files and eights.Rules"):
        eights.VecEnv(["crazy_eights", 3], num_envs=4)
    with pytest.raises(ValueError, match="not 3"):
        eights.VecEnv(eights.RuleSpace(num_players=2), num_envs=4, num_players=3)
    with pytest.raises(ValueError, match="overrides"):
        eights.VecEnv(eights.RuleSpace(), num_envs=4, rules={"deal": {"hand_size": 5}})
    with pytest.raises(TypeError, match="obs_rules"):
        eights.VecEnv("crazy_eights", num_envs=4, obs_rules="yes")


def test_gymnasium_env_draws_at_every_reset_and_sees_the_rules():
    env = eights.make(TWO, obs_rules=True, seed=5, opponents="heuristic")
    names = set()
    for _ in range(30):
        obs, info = env.reset()
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(obs["rules"], env.game.rules_encoding())
        names.add(env.game.rules_dict()["name"])
    assert len(names) > 10
    again = eights.make(TWO, obs_rules=True, seed=5, opponents="heuristic")
    env.reset(seed=11)
    again.reset(seed=11)
    assert env.game.to_dict() == again.game.to_dict()
    # A refused deck leaves the env's generator as it was: the next reset deals what it would
    # have dealt (it drew the hand's seed first).
    with pytest.raises(ValueError, match="deck"):
        env.reset(options={"deck": ["AH"]})
    env.reset()
    again.reset()
    assert env.game.to_dict() == again.game.to_dict()


def test_gymnasium_checker_on_a_rule_space():
    from gymnasium.utils.env_checker import check_env

    check_env(eights.make(eights.RuleSpace(), obs_rules=True, seed=0), skip_render_check=True)


def test_pettingzoo_observations_gain_the_rules():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from eights.envs.pettingzoo import env as make_env

    e = make_env(eights.RuleSpace(num_players=3), num_players=3, obs_rules=True)
    e.reset(seed=2)
    obs = e.observe(e.agent_selection)
    assert set(obs) == {"observation", "action_mask", "rules"}
    np.testing.assert_array_equal(obs["rules"], e.unwrapped.game.rules_encoding())
    api_test(make_env(TWO, obs_rules=True), num_cycles=30)


def test_pettingzoo_refuses_a_deck_with_rules_drawn_at_every_episode_before_drawing():
    pytest.importorskip("pettingzoo")
    from eights.envs.pettingzoo import raw_env

    env = raw_env(["crazy_eights", "one_card"], obs_rules=True)
    again = raw_env(["crazy_eights", "one_card"], obs_rules=True)
    env.reset(seed=11)
    again.reset(seed=11)
    assert env.game.to_dict() == again.game.to_dict()
    # Refused after the hand's seed was drawn from the env's generator: the next reset dealt
    # another hand than a twin's.
    with pytest.raises(ValueError, match="needs one rule set"):
        env.reset(options={"deck": ["8H"]})
    for _ in range(3):
        env.reset()
        again.reset()
        assert env.game.to_dict() == again.game.to_dict()


def test_sb3_vector_env_with_the_rules():
    pytest.importorskip("stable_baselines3")
    from eights.integrations import sb3

    v = sb3.SB3VecEnv(TWO, num_envs=4, obs_rules=True, seed=0)
    obs = v.reset()
    assert obs["rules"].shape == (4, eights.RULES_SIZE)
    for _ in range(60):
        masks = v.action_masks()
        obs, rewards, dones, infos = v.step(np.array([np.flatnonzero(m)[0] for m in masks]))
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"]["rules"].shape == (eights.RULES_SIZE,)


def test_rllib_env_with_the_rules():
    pytest.importorskip("ray.rllib")
    from eights.integrations import rllib

    e = rllib.EightsMultiAgentEnv({"preset": eights.RuleSpace(), "obs_rules": True})
    obs, _ = e.reset(seed=1)
    ((agent, o),) = obs.items()
    assert o["rules"].shape == (eights.RULES_SIZE,)
    assert e.observation_spaces[agent].contains(o)


class _ReadsRules:
    """An opponent that reads the rules (``obs_rules = True`` on it): it records what it is
    given and plays the first legal action."""

    obs_rules = True

    def __init__(self) -> None:
        self.seen = []

    def act(self, obs, mask):
        self.seen.append(obs)
        return int(np.flatnonzero(mask)[0])


def test_an_opponent_that_reads_the_rules_is_given_them_at_a_table_without_obs_rules():
    # Before, a single table gave it the observation alone unless the env itself had
    # obs_rules=True: the opponent's own word was read only by the arena.
    opponent = _ReadsRules()
    env = eights.make("crazy_eights", seed=4, opponents=opponent, learner_seat=1)
    env.reset(seed=4)
    assert opponent.seen and all(isinstance(o, dict) and set(o) == {"obs", "rules"} for o in opponent.seen)
    assert np.array_equal(opponent.seen[0]["rules"], eights.Rules("crazy_eights").encode())


def test_a_batch_without_obs_rules_refuses_an_opponent_that_reads_them():
    with pytest.raises(ValueError, match=r"opponent for seat 1: '_ReadsRules' reads the rules .*obs_rules=True"):
        eights.VecEnv("crazy_eights", num_envs=4, opponents=_ReadsRules())
    env = eights.VecEnv("crazy_eights", num_envs=4, opponents=_ReadsRules(), obs_rules=True, seed=0)
    env.reset(seed=0)
    env.step(env.random_actions())


def test_same_step_final_info_is_the_ended_games_info():
    # Gymnasium's same_step vector envs put an ended game's last info in info["final_info"],
    # marked by "_final_info". The same deals with next_step autoreset show that info itself
    # in the step that ends the game: the two must agree, rules_id included.
    space = eights.RuleSpace(house_prob=0.8)
    same = eights.VecEnv(space, num_envs=16, autoreset="same_step", num_threads=1, seed=5)
    nxt = eights.VecEnv(space, num_envs=16, autoreset="next_step", num_threads=1, seed=5)
    same.reset()
    nxt.reset()
    for _ in range(400):
        actions = same.random_actions().copy()
        s = same.step(actions)
        n = nxt.step(actions)
        done = n[2] | n[3]
        np.testing.assert_array_equal(s[2] | s[3], done)
        if done.any():
            break
    else:
        pytest.fail("no game ended")
    info, final = s[4], s[4]["final_info"]
    np.testing.assert_array_equal(info["_final_info"], done)
    for key in ("action_mask", "current_player", "rules_id"):
        np.testing.assert_array_equal(final[f"_{key}"], done)
        np.testing.assert_array_equal(final[key][done], n[4][key][done])
    np.testing.assert_array_equal(final["current_player"][done], -1)
    assert not final["action_mask"][done].any()
    np.testing.assert_array_equal(info["final_obs"][done], n[0][done])


def test_a_vec_env_gives_its_python_opponents_the_rules_or_refuses_those_that_read_them():
    # A plain callable marked obs_rules = True was taken by a VecEnv without obs_rules and
    # given bare observations; an object with act_batch alone was refused with a message
    # naming "an object with act_batch" among what it takes.
    def first_legal(obs, masks):
        first_legal.seen = type(obs).__name__
        return np.array([np.flatnonzero(m)[0] for m in masks])

    class Batched:
        def __init__(self, reads_rules):
            self.obs_rules, self.seen = reads_rules, None

        def act_batch(self, obs, masks):
            self.seen = type(obs).__name__
            return first_legal(obs, masks)

    first_legal.obs_rules = True
    for opponent in (first_legal, Batched(True)):
        with pytest.raises(ValueError, match="reads the rules beside the observation .* obs_rules=True"):
            eights.VecEnv("crazy_eights", 4, opponents=opponent)
    for opponent, obs_rules, seen in (
        (first_legal, True, "dict"),
        (Batched(True), True, "dict"),
        (Batched(False), False, "ndarray"),
    ):
        env = eights.VecEnv("crazy_eights", 4, opponents=opponent, obs_rules=obs_rules, seed=0)
        env.reset()
        env.step(env.random_actions())
        assert (first_legal.seen if opponent is first_legal else opponent.seen) == seen
