"""Built-in bot opponents played inside the step, on the batch's threads: the same games as
the same bots played from Python between steps (through ``bot_actions``, as for a pool), for
every kind of built-in bot, with and without ``obs_rules``, at several table sizes, on one
thread or two."""

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
