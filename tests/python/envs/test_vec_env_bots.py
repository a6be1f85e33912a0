"""Built-in bot opponents played inside the step, on the batch's threads: the same games as
the same bots played from Python between steps (through ``bot_actions``, as for a pool), for
every kind of built-in bot, with and without ``obs_rules``, at several table sizes, on one
thread or two; and ``VecEnv.bot_actions``, a bot's moves for the player to act (a teacher's
labels)."""

import numpy as np
import pytest

from eights import OpponentPool, VecEnv

CASES = [
    ("crazy_eights", 2, "heuristic", {}),
    ("crazy_eights", 2, "net1", {"autoreset": "same_step"}),
    ("crazy_eights", 2, "ismcts:6", {"obs_rules": True}),
    ("switch_blackjack", 3, ["net", "random"], {"obs_rules": True, "autoreset": "same_step"}),
    ("crazy_eights_specials", 4, ["pimc:3", "heuristic", "net"], {"learner_seat": 1, "reward": "score"}),
]


def _pooled(opp):
    """The same bots, each as a pool of one: played from Python, a batch per seat and round."""
    return [OpponentPool([o]) for o in opp] if isinstance(opp, list) else OpponentPool([opp])


def _trajectory(env, steps):
    out = []
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        mask = info["action_mask"]
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        obs, rew, term, trunc, info = env.step(acts)
        parts = [obs["obs"], obs["rules"]] if isinstance(obs, dict) else [obs]
        out.append([*parts, rew, term, trunc, info["action_mask"], info["current_player"]])
    return out


@pytest.mark.parametrize("preset,players,opp,kw", CASES)
def test_bots_inside_the_step_play_the_games_python_plays(preset, players, opp, kw):
    search = any(s in str(opp) for s in ("ismcts", "pimc"))
    n, steps = (12, 6) if search else (200, 30)
    ref = _trajectory(VecEnv(preset, n, num_players=players, opponents=_pooled(opp), num_threads=1, **kw), steps)
    for threads in (1, 2):
        env = VecEnv(preset, n, num_players=players, opponents=opp, num_threads=threads, **kw)
        got = _trajectory(env, steps)
        for step, (a, b) in enumerate(zip(ref, got)):
            for x, y in zip(a, b):
                np.testing.assert_array_equal(x, y, err_msg=f"{threads} threads, step {step}")


def test_bot_actions_are_the_bots_moves_for_the_player_to_act():
    env = VecEnv("crazy_eights", 1000, 2, opponents="heuristic", seed=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.bot_actions("heuristic")
    obs, info = env.reset()
    before = obs.copy()
    wins, games = 0, 0
    ended = np.zeros(1000, bool)
    for _ in range(200):
        moves = env.bot_actions("heuristic")
        assert env.bot_actions("heuristic", np.arange(10)).tolist() == moves[:10].tolist()
        live = moves >= 0
        # -1 exactly in the games whose episode ended at the last step (the next step deals
        # them again); a legal move in every other.
        np.testing.assert_array_equal(live, ~ended)
        assert info["action_mask"][np.flatnonzero(live), moves[live]].all()
        np.testing.assert_array_equal(obs, before)  # asking moves nothing
        obs, rew, term, trunc, info = env.step(np.where(live, moves, 0))
        before = obs.copy()
        ended = term | trunc
        wins += int((rew[ended] > 0).sum())
        games += int(ended.sum())
    # The heuristic's own moves against the heuristic: about half the games (a random
    # learner wins about one in five).
    assert games > 1500
    assert 0.44 < wins / games < 0.56, (wins, games)


def test_bot_actions_reject_bad_arguments_and_change_nothing():
    env = VecEnv("crazy_eights", 4, 2, seed=0)
    obs, _ = env.reset()
    kept = obs.copy()
    with pytest.raises(ValueError, match="nope"):
        env.bot_actions("nope")
    with pytest.raises(ValueError, match="out of range"):
        env.bot_actions("heuristic", [0, 4])
    with pytest.raises(TypeError, match="rows must be a 1-d array of game indices"):
        env.bot_actions("heuristic", [[0, 1]])
    with pytest.raises(TypeError, match="rows must be a 1-d array of game indices"):
        env.bot_actions("heuristic", [0.5])
    with pytest.raises(TypeError, match="bot must be a bot name"):
        env.bot_actions(3)
    np.testing.assert_array_equal(obs, kept)


def test_random_opponents_that_keep_the_turn_give_up():
    # Every rank wild with an extra turn, and no card may go out: the seat to act keeps the
    # turn until the decision cap. A reset against the default random opponents played on to
    # it (ten million decisions a game, deaf to Ctrl-C); now it gives up after 10,000 moves,
    # and the batch must be reset.
    card = {"wild": {"enabled": True}, "extra_turn": True, "last_special": "cannot_go_out"}
    rules = {
        "cards": {rank: dict(card) for rank in "A23456789TJQK"},
        "draw": {"voluntary": False},
        "limits": {"max_decisions": 10_000_000},
    }
    env = VecEnv("crazy_eights", 8, 2, rules=rules, num_threads=2)
    with pytest.raises(RuntimeError, match=r"made 10000 moves in a row in env \d+ .*set limits\.max_decisions"):
        env.reset(seed=0)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(np.zeros(8, dtype=np.int64))
