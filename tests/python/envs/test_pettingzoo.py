"""The PettingZoo AEC environment (eights.envs.pettingzoo): PettingZoo's own API, seed and
parallel tests, plus the conventions the module documents (masks, rewards, truncation,
illegal actions, seeding)."""

import re

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils.conversions import aec_to_parallel  # noqa: E402

import eights  # noqa: E402
from eights.envs.pettingzoo import env as make_env  # noqa: E402
from eights.envs.pettingzoo import parallel_env, raw_env  # noqa: E402

# kings_reverse has a give phase (after an ace the player hands cards to another seat).
TABLES = [("crazy_eights", 2), ("switch_blackjack", 3), ("kings_reverse", 4)]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("preset,n", TABLES)
def test_pettingzoo_api_test(preset, n):
    api_test(make_env(preset, n, render_mode="ansi"), num_cycles=1000)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("preset,n", TABLES)
def test_pettingzoo_seed_test(preset, n):
    seed_test(lambda: make_env(preset, n), num_cycles=500)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("preset,n", TABLES)
def test_parallel_api_test_turn_based(preset, n):
    parallel_api_test(parallel_env(preset, n), num_cycles=1000)


def test_aec_to_parallel_refuses_a_turn_based_game():
    # A player may act twice in a row (an eight, then its suit), so the game is not
    # parallelizable in PettingZoo's sense; the generic conversion must refuse it.
    assert make_env().metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(make_env())


def _play(env, seed, rng_seed=0, limit=100_000):
    """Play a whole episode with seeded uniform legal actions; returns the log."""
    rng = np.random.default_rng(rng_seed)
    env.reset(seed=seed)
    log = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        log.append((agent, action))
        env.step(action)
    return log, totals


@pytest.mark.parametrize("preset,n", TABLES)
def test_same_seed_same_games_different_seed_different_deal(preset, n):
    a, b, c = make_env(preset, n), make_env(preset, n), make_env(preset, n)
    assert _play(a, seed=11) == _play(b, seed=11)
    # a second episode from the continued stream also matches
    a.reset()
    b.reset()
    assert a.unwrapped.game.hand(0) == b.unwrapped.game.hand(0)
    c.reset(seed=12)
    a.reset(seed=11)
    assert [a.unwrapped.game.hand(p) for p in range(n)] != [c.unwrapped.game.hand(p) for p in range(n)]


def test_give_phase_is_reached_in_kings_reverse():
    # The give-phase preset really exercises "give" actions through the AEC API.
    env = make_env("kings_reverse", 4)
    seen = set()
    for seed in range(40):
        log, _ = _play(env, seed=seed, rng_seed=seed)
        seen |= {env.unwrapped.game.action_to_string(a).split()[0] for _, a in log}
        if "give" in seen:
            break
    assert "give" in seen


@pytest.mark.parametrize("preset,n", TABLES)
def test_masks_only_for_the_agent_to_act(preset, n):
    env = make_env(preset, n)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    game = env.unwrapped.game
    for _ in range(60):
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        acting = env.agent_selection
        assert acting == f"player_{game.current_player}"
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (eights.NUM_ACTIONS,)
            if agent == acting:
                assert np.array_equal(mask.astype(bool), game.action_mask())
            else:
                assert not mask.any()
        env.step(int(rng.choice(np.flatnonzero(env.observe(acting)["action_mask"]))))


@pytest.mark.parametrize("preset,n", TABLES)
def test_win_loss_rewards_at_the_end(preset, n):
    env = make_env(preset, n)
    for seed in range(5):
        _, totals = _play(env, seed=seed, rng_seed=seed)
        game = env.unwrapped.game
        if game.winner is None:  # truncated or no winner: nobody is paid
            assert all(v == 0.0 for v in totals.values())
            continue
        for p in range(n):
            expected = 1.0 if p == game.winner else -1.0 / (n - 1)
            assert totals[f"player_{p}"] == pytest.approx(expected)
        # after the end every mask is zero
        assert all(not env.unwrapped.observe(a)["action_mask"].any() for a in env.possible_agents)


def test_rewards_are_zero_before_the_end():
    env = make_env("crazy_eights", 2)
    env.reset(seed=0)
    for _ in range(5):
        obs, reward, term, trunc, _ = env.last()
        assert reward == 0.0 and not term and not trunc
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_max_cycles_truncates_every_agent_after_that_many_decisions():
    env = make_env("crazy_eights", 3, max_cycles=4)
    env.reset(seed=0)
    for _i in range(4):
        assert not any(env.truncations.values())
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(v == 0.0 for v in env._cumulative_rewards.values())
    log, totals = _play(env, seed=0)
    assert len(log) == 4 and not env.agents


def test_engine_decision_cap_truncates():
    # A tiny decision cap forces the engine's own truncation.
    env = make_env("crazy_eights", 2, rules={"limits": {"max_decisions": 3}})
    log, totals = _play(env, seed=0)
    assert env.unwrapped.game.is_truncated
    assert len(log) == 3 and all(v == 0.0 for v in totals.values())


def test_illegal_action_terminates_with_penalty(caplog):
    env = make_env("crazy_eights", 3, illegal_reward=-1.0)
    env.reset(seed=0)
    obs, *_ = env.last()
    offender = env.agent_selection
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)
    assert "Illegal move" in caplog.text  # PettingZoo logs a warning
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term
        totals[agent] += reward
        env.step(None)
    assert totals[offender] == -1.0
    assert all(v == 0.0 for a, v in totals.items() if a != offender)


def test_raw_env_raises_on_illegal_action_and_stays_unchanged():
    env = raw_env("crazy_eights", 2)
    env.reset(seed=0)
    before = env.unwrapped.game.to_dict()
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(eights.IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.game.to_dict() == before
    with pytest.raises(TypeError):
        env.step("draw")


@pytest.mark.parametrize(
    "action, error, words",
    [
        (-1, eights.IllegalActionError, "action -1 is out of range"),
        (2**64, eights.IllegalActionError, "is out of range"),
        ("draw", TypeError, "action must be an integer in [0, 197), got the string 'draw'"),
        (1.5, TypeError, "action must be an integer"),
        (None, TypeError, "action must be an integer"),
        (True, TypeError, "got True"),
        (np.array([3, 4]), TypeError, "numpy array of shape (2,)"),
    ],
)
def test_the_wrapped_env_refuses_a_bad_action_as_raw_env_does(action, error, words):
    # PettingZoo's AssertOutOfBoundsWrapper said only "action is not in action space" (an
    # assert, gone under python -O: -1 was then played as an illegal move), and a bool
    # indexed the action mask as a mask. The env is unchanged after the refusal.
    env = make_env("crazy_eights", 2)
    env.reset(seed=0)
    before, agent = env.unwrapped.game.to_dict(), env.agent_selection
    with pytest.raises(error, match=re.escape(words)):
        env.step(action)
    assert env.unwrapped.game.to_dict() == before and env.agent_selection == agent
    mask = env.observe(agent)["action_mask"]
    env.step(np.int64(np.flatnonzero(mask)[0]))  # a numpy integer is an action
    assert env.unwrapped.game.to_dict() != before


def test_spaces_are_cached_and_typed():
    env = make_env("switch_blackjack", 3)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        assert env.action_space(agent).n == eights.NUM_ACTIONS
        space = env.observation_space(agent)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].dtype == np.int8
    env.reset(seed=0)
    for agent in env.agents:
        assert env.observation_space(agent).contains(env.observe(agent))
    with pytest.raises(ValueError, match="player_0"):
        env.unwrapped.observation_space("player_9")


def test_bad_arguments():
    with pytest.raises(ValueError, match="'ansi', 'html', 'rgb_array', 'human'"):
        raw_env(render_mode="video")
    with pytest.raises(ValueError, match="win_loss"):
        raw_env(reward="points")
    with pytest.raises(ValueError, match="max_cycles"):
        raw_env(max_cycles=0)
    with pytest.raises(ValueError):
        raw_env("no_such_preset")
    with pytest.raises(ValueError):
        raw_env("crazy_eights", num_players=1)


def test_ansi_render_of_the_aec_env():
    env = make_env("switch_blackjack", 3, render_mode="ansi")
    env.reset(seed=2)
    obs, *_ = env.last()
    first = env.agent_selection
    action = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(action)
    game = env.unwrapped.game
    text = env.render()
    if not (game.is_terminal or game.is_truncated):
        acting = env.agent_selection
        assert f"{acting} to act" in text
        seat = int(acting.split("_")[1])
        suit_symbols = dict(zip("CDHS", "♣♦♥♠"))
        for card in game.hand(seat):
            shown = card if card in ("RJ", "BJ") else card[0] + suit_symbols[card[1]]
            assert shown in text
    assert f"Last actions: {first} " in text


def test_after_every_agent_has_left_step_and_last_say_the_game_is_over():
    # Once every done agent was stepped with None, step(None), step(0) and last() raised
    # KeyError 'player_1', and observe() did for the seat to act at a max_cycles cut.
    env = raw_env("crazy_eights", 3, max_cycles=2)
    _play(env, seed=0)
    assert env.agents == [] and env.game.current_player >= 0
    before = env.game.to_dict()
    for call in (lambda: env.step(None), lambda: env.step(0), lambda: env.last()):
        with pytest.raises(RuntimeError, match=r"the game is over .*call reset\(\)"):
            call()
    for agent in env.possible_agents:  # every seat can still be observed, with no legal action
        assert not env.observe(agent)["action_mask"].any()
    assert env.game.to_dict() == before
    env.reset(seed=1)
    assert env.agents == env.possible_agents


def test_the_wrapped_env_after_every_agent_has_left(caplog):
    # step() keeps PettingZoo's convention (a warning, nothing done); last() was a KeyError.
    env = make_env("crazy_eights", 3, max_cycles=2)
    _play(env, seed=0)
    env.step(None)
    assert "Should reset() first" in caplog.text
    with pytest.raises(RuntimeError, match="the game is over"):
        env.last()
    assert str(env).startswith("eights.envs.pettingzoo.raw_env(")


def test_an_agent_that_is_not_a_name_is_a_type_error():
    # A list or dict gave "unhashable type: 'list'".
    env = raw_env("crazy_eights", 2)
    env.reset(seed=0)
    for call in (lambda: env.observe([]), lambda: env.observation_space({}), lambda: env.action_space([])):
        with pytest.raises(TypeError, match=r"agent must be an agent name, one of \['player_0', 'player_1'\]"):
            call()


def test_illegal_reward_must_be_a_finite_number():
    # All three were accepted.
    with pytest.raises(TypeError, match="illegal_reward must be a number"):
        make_env(illegal_reward="x")
    for bad in (float("nan"), 2**2000):
        with pytest.raises(ValueError, match="illegal_reward must be a finite number"):
            make_env(illegal_reward=bad)


def test_parallel_step_checks_its_actions():
    # Before: AttributeError (no 'agents'), KeyError 'player_0', "'NoneType' object is not subscriptable".
    env = parallel_env("crazy_eights", 2)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step({})
    env.reset(seed=0)
    before = env.unwrapped.game.to_dict()
    with pytest.raises(TypeError, match="actions must be a dict with one action per live agent"):
        env.step(None)
    with pytest.raises(ValueError, match="no action for 'player_0', 'player_1'"):
        env.step({})
    with pytest.raises(ValueError, match="actions for agents that are not live: 'x'"):
        env.step({"x": 0, "player_0": 0, "player_1": 0})
    assert env.unwrapped.game.to_dict() == before
    while env.agents:
        masks = {a: env.unwrapped.observe(a)["action_mask"] for a in env.agents}
        env.step({a: int(np.flatnonzero(m)[0]) if m.any() else 0 for a, m in masks.items()})
    with pytest.warns(UserWarning, match="call reset"):
        assert env.step({}) == ({}, {}, {}, {}, {})


def test_the_pettingzoo_name_carries_the_envs_version():
    # PettingZoo names an env with its version (tictactoe_v3); this one stayed eights_v0 when
    # the observation grew from 297 to 346 values and the Gymnasium ids moved to -v1.
    from eights.envs.registration import ENV_VERSION

    assert gymnasium_id_version() == ENV_VERSION >= 1
    for make in (make_env, raw_env, parallel_env):
        assert make("crazy_eights").metadata["name"] == f"eights_v{ENV_VERSION}"


def gymnasium_id_version() -> int:
    import gymnasium

    return max(gymnasium.spec(i).version for i in gymnasium.registry if i.startswith("eights/crazy_eights-"))


def test_a_huge_unknown_agent_name_is_not_echoed_whole():
    # observe, action_space, observation_space and the parallel step echoed all of a
    # million-character name (a ValueError of a million characters).
    huge = "x" * 10**6
    env, par = make_env("crazy_eights", 2), parallel_env("crazy_eights", 2)
    env.reset(seed=0)
    par.reset(seed=0)
    for call in (
        lambda: env.observe(huge),
        lambda: env.action_space(huge),
        lambda: env.observation_space(huge),
        lambda: par.step({huge: 0, "player_0": 0, "player_1": 0}),
    ):
        with pytest.raises(ValueError, match=r"xxx\.\.\.' \(1,000,000 characters\)") as err:
            call()
        assert len(str(err.value)) < 300
    many = {f"a{k}": 0 for k in range(100)}
    with pytest.raises(ValueError, match="'a0', 'a1', 'a2', 'a3', 'a4' and 95 more$"):
        par.step({**many, "player_0": 0, "player_1": 0})
    with pytest.raises(ValueError, match=r"unknown agent 'x'; agents are \['player_0', 'player_1'\]"):
        env.observe("x")


def test_parallel_infos_name_the_agent_to_act_and_are_new_dicts_at_every_call():
    # PettingZoo's turn_based_aec_to_parallel wrote "active_agent" into the AEC env's own info
    # dicts and returned those: the infos of a step changed when the next step ran (a step kept
    # in a buffer named the wrong agent), the bare env's infos gained the key, the reset's
    # infos named no agent, and the last step's named the agent of the step before.
    env = parallel_env("switch_blackjack", 3)
    obs, infos = env.reset(seed=0)
    raw = env.unwrapped
    to_act = raw.agent_selection
    assert infos == {a: {"active_agent": to_act} for a in env.agents}
    assert obs[to_act]["action_mask"].any()
    kept = []
    while env.agents:
        actions = {
            a: int(np.flatnonzero(obs[a]["action_mask"])[0]) if obs[a]["action_mask"].any() else 0 for a in env.agents
        }
        obs, rewards, terms, truncs, infos = env.step(actions)
        live = env.agents
        expected = {a: ({"active_agent": raw.agent_selection} if a in live else {}) for a in infos}
        assert infos == expected
        if live:  # the agent named is the one whose mask holds its legal actions
            assert obs[raw.agent_selection]["action_mask"].any()
        kept.append((infos, {a: dict(i) for a, i in infos.items()}))
        assert all(i == {} for i in raw.infos.values())  # the bare env's infos are left alone
    assert kept[-1][0] == {a: {} for a in env.possible_agents}  # nobody is to act once the hand is over
    for returned, copy in kept:
        assert returned == copy  # no later step changed what an earlier one returned
