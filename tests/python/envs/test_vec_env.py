"""eights.VecEnv: equivalence with single games, determinism across thread counts,
autoreset and truncation semantics, Python opponents, and input errors."""

import gymnasium
import numpy as np
import pytest

import eights
from eights import OpponentPool, VecEnv


def run(env, steps, seed=0):
    """Step with random_actions(); return copies of every output."""
    out = []
    obs, info = env.reset(seed=seed)
    out.append((obs.copy(), info["action_mask"].copy(), info["current_player"].copy()))
    for _ in range(steps):
        a = env.random_actions().copy()
        obs, r, te, tr, info = env.step(a)
        out.append(
            (a, obs.copy(), r.copy(), te.copy(), tr.copy(), info["action_mask"].copy(), info["current_player"].copy())
        )
    return out


def test_is_a_gymnasium_vector_env_with_declared_spaces():
    env = VecEnv("crazy_eights", num_envs=3, seed=1)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    assert env.single_observation_space.shape == (eights.OBS_SIZE,)
    assert env.single_action_space == gymnasium.spaces.Discrete(eights.NUM_ACTIONS)
    assert env.observation_space.shape == (3, eights.OBS_SIZE)
    assert env.action_space.shape == (3,)
    obs, info = env.reset()
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == bool and info["action_mask"].shape == (3, eights.NUM_ACTIONS)
    assert (info["current_player"] == 0).all()
    assert env.action_masks().any(axis=1).all()
    same = VecEnv("crazy_eights", num_envs=3, autoreset="same_step")
    assert same.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert 0 < env.state_bytes_per_env < 4096
    assert 0 < eights._core.game_state_bytes() <= env.state_bytes_per_env


def test_self_play_matches_games_stepped_one_by_one():
    """Every seat driven by the caller: the batch shows exactly what single games dealt from
    the documented episode seeds show."""
    n, seed, preset, rules = 4, 3, "crazy_eights_specials", {"deal": {"hand_size": 3}}
    env = VecEnv(preset, num_envs=n, num_players=3, self_play=True, rules=rules)
    obs, info = env.reset(seed=seed)
    episodes = [0] * n

    def deal(i):
        episodes[i] += 1
        return eights.Game(preset, 3, seed=eights.episode_seed(seed, i, episodes[i] - 1), rules=rules)

    games = [deal(i) for i in range(n)]
    rng = np.random.default_rng(0)
    ended = 0
    for _step in range(300):
        for i, g in enumerate(games):
            p = g.current_player
            if p < 0:
                continue
            assert info["current_player"][i] == p
            np.testing.assert_array_equal(obs[i], g.observation(p))
            np.testing.assert_array_equal(info["action_mask"][i], g.action_mask())
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, rewards, term, trunc, info = env.step(acts)
        for i, g in enumerate(games):
            if g.current_player < 0:  # next-step autoreset: a new deal
                games[i] = deal(i)
                assert not term[i] and not trunc[i] and (rewards[i] == 0).all()
                continue
            g.step(int(acts[i]))
            assert term[i] == g.is_terminal and trunc[i] == g.is_truncated
            np.testing.assert_allclose(rewards[i], g.returns("win_loss") if g.is_terminal else 0, atol=1e-6)
            ended += term[i]
    assert ended >= 3, "the run covers finished episodes and autoresets"


def test_thread_count_does_not_change_results():
    kw = dict(num_players=2, seed=5)
    one = run(VecEnv("switch_blackjack", 300, num_threads=1, **kw), 40, seed=5)
    two = run(VecEnv("switch_blackjack", 300, num_threads=2, **kw), 40, seed=5)
    assert len(one) == len(two)
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_next_step_autoreset_and_truncation():
    env = VecEnv("crazy_eights", 2, self_play=True, rules={"limits": {"max_decisions": 5}}, seed=0)
    env.reset()
    for t in range(1, 6):
        obs, r, term, trunc, info = env.step(env.random_actions())
        assert list(trunc) == [t == 5] * 2 and not term.any() and (r == 0).all()
    assert (info["current_player"] == -1).all() and not info["action_mask"].any()
    # The next step ignores the actions, even out-of-range ones, and deals again.
    obs, r, term, trunc, info = env.step(np.array([-1, 500]))
    assert not trunc.any() and not term.any() and (info["current_player"] >= 0).all()
    assert info["action_mask"].any(axis=1).all()


def test_same_step_autoreset_reports_final_observations():
    env = VecEnv("crazy_eights", 3, autoreset="same_step", rules={"limits": {"max_decisions": 6}}, seed=2)
    env.reset()
    seen_end = False
    for _ in range(10):
        before = env._obs.copy()
        obs, r, term, trunc, info = env.step(env.random_actions())
        done = term | trunc
        np.testing.assert_array_equal(info["_final_obs"], done)
        assert info["action_mask"].any(axis=1).all(), "every game shows a live (new) episode"
        if done.any():
            seen_end = True
            for i in np.flatnonzero(done):
                assert not np.array_equal(info["final_obs"][i], obs[i])
                assert not np.array_equal(before[i], obs[i])
    assert seen_end


def test_bad_actions_raise_clear_errors_and_change_nothing():
    env = VecEnv("crazy_eights", 4, seed=9)
    obs, info = env.reset()
    snapshot = [x.copy() for x in (obs, info["action_mask"], info["current_player"])]
    legal = env.random_actions().copy()
    illegal = legal.copy()
    illegal[2] = np.flatnonzero(~info["action_mask"][2])[0]
    cases = [
        (legal.astype(np.float32), TypeError, "integers"),
        (legal.astype(bool), TypeError, "integers"),
        (legal[:3], ValueError, "shape"),
        (legal.reshape(2, 2), ValueError, "shape"),
        (np.where(np.arange(4) == 1, 197, legal), ValueError, "env 1 is out of range"),
        (np.where(np.arange(4) == 1, -3, legal), ValueError, "out of range"),
        (illegal, eights.IllegalActionError, "env 2"),
    ]
    for bad, exc, text in cases:
        with pytest.raises(exc, match=text):
            env.step(bad)
        np.testing.assert_array_equal(obs, snapshot[0])
        np.testing.assert_array_equal(info["action_mask"], snapshot[1])
    # Nothing changed: the batch continues exactly like a fresh one.
    fresh = VecEnv("crazy_eights", 4, seed=9)
    fresh.reset()
    a1 = fresh.random_actions().copy()
    np.testing.assert_array_equal(a1, legal)
    o1 = fresh.step(a1)[0].copy()
    o2 = env.step(legal.astype(np.int32))[0]  # other integer dtypes are accepted
    np.testing.assert_array_equal(o1, o2)


def test_step_before_reset_and_bad_arguments():
    env = VecEnv("crazy_eights", 2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="learner_seat"):
        VecEnv("crazy_eights", 2, learner_seat=2)
    with pytest.raises(ValueError, match="autoreset"):
        VecEnv("crazy_eights", 2, autoreset="later")
    with pytest.raises(ValueError, match="obs_dtype"):
        VecEnv("crazy_eights", 2, obs_dtype="float16")
    with pytest.raises(ValueError, match="num_envs"):
        VecEnv("crazy_eights", 0)
    with pytest.raises(eights.RulesError):
        VecEnv("crazy_eights", 2, rules={"deal": {"hand_sise": 4}})


def test_compact_observations_keep_the_layout():
    f = VecEnv("crazy_eights", 8, seed=4)
    u = VecEnv("crazy_eights", 8, seed=4, obs_dtype="uint8")
    i = VecEnv("crazy_eights", 8, seed=4, obs_dtype="int8")
    for e in (f, u, i):
        e.reset()
    for _ in range(20):
        a = f.random_actions().copy()
        of = f.step(a)[0]
        ou = u.step(a)[0]
        oi = i.step(a)[0]
        assert ou.dtype == np.uint8 and oi.dtype == np.int8
        np.testing.assert_array_equal(ou, np.clip(of, 0, 255).astype(np.uint8))
        np.testing.assert_array_equal(oi, np.clip(of, -128, 127).astype(np.int8))


def test_python_opponents_are_called_in_batches_for_their_seat():
    calls = []
    to_act = eights.Game("crazy_eights").observation_spec()["to_act"][0]

    def first_legal(obs, mask):
        calls.append(len(obs))
        assert obs.shape[1] == eights.OBS_SIZE and mask.shape[1] == eights.NUM_ACTIONS
        assert (obs[:, to_act] == 1).all(), "the observation is the opponent's, to act"
        return mask.argmax(axis=1)

    env = VecEnv("crazy_eights", 16, num_players=3, opponents=first_legal, learner_seat=1, seed=0)
    obs, info = env.reset()
    assert (info["current_player"] == 1).all(), "the learner is to act after reset"
    assert calls and max(calls) == 16
    for _ in range(100):
        obs, r, term, trunc, info = env.step(env.random_actions())
        live = ~(term | trunc)
        assert (info["current_player"][live] == 1).all()
        assert (info["current_player"][~live] == -1).all()


def test_opponent_pool_samples_a_snapshot_per_episode():
    used = {0: 0, 1: 0}

    def snapshot(k):
        def policy(obs, mask):
            used[k] += len(obs)
            return mask.argmax(axis=1) if k == 0 else (mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1))

        return policy

    pool = OpponentPool([snapshot(0), snapshot(1)], weights=[1, 3], seed=0)
    assert len(pool) == 2
    env = VecEnv("crazy_eights", 32, opponents=pool, seed=1)
    env.reset()
    first = env._pool_choice[1].copy()
    assert set(np.unique(first)) == {0, 1}
    ended = np.zeros(32, dtype=bool)
    for _ in range(300):
        obs, r, term, trunc, info = env.step(env.random_actions())
        ended |= term | trunc
    assert used[0] > 0 and used[1] > used[0]
    assert ended.any()
    with pytest.raises(ValueError, match="empty"):
        OpponentPool().sample(3)
    with pytest.raises(TypeError):
        OpponentPool([42])
    # Weights near the float limit draw as their ratios say (their sum overflowed to inf and
    # numpy refused the probabilities).
    big = OpponentPool(["random", "heuristic"], weights=[1e308, 1e308], seed=0).sample(4000)
    assert 1800 < (big == 1).sum() < 2200


def test_pool_choices_tell_which_snapshot_plays_each_game():
    # Seat 0 (the pool) moves first. Snapshot 0 always draws (a 7-card hand
    # becomes 8); snapshot 1 plays its first legal card when it has one (7 -> 6).
    def drawer(obs, mask):
        return np.full(len(obs), 58)

    def player(obs, mask):
        return np.where(mask[:, :54].any(1), mask[:, :54].argmax(1), mask.argmax(1))  # a play, else nominate or draw

    pool = OpponentPool([drawer, player], seed=5)
    env = VecEnv("crazy_eights", 64, opponents=pool, learner_seat=1, seed=2)
    assert VecEnv("crazy_eights", 2).pool_choices() == {}
    obs, info = env.reset()
    choices = env.pool_choices()
    assert list(choices) == [0]
    choice = choices[0]
    sizes = obs[:, eights.Game("crazy_eights").observation_spec()["hand_sizes"][0]]  # seat 0 seen from seat 1
    assert set(np.unique(choice)) == {0, 1}
    # (A deal starting on an eight has the dealer, seat 1, nominate first: seat 0 keeps 7.)
    assert (sizes[choice == 0] != 6).all() and (sizes[choice == 0] == 8).mean() > 0.5
    assert (sizes[choice == 1] == 6).mean() > 0.5
    choice[:] = 7
    assert set(np.unique(env.pool_choices()[0])) == {0, 1}, "a copy is returned"


def test_bad_opponent_actions_are_reported():
    env = VecEnv("crazy_eights", 4, opponents=lambda obs, mask: np.full(len(obs), 196), learner_seat=1)
    with pytest.raises(eights.IllegalActionError, match="opponent"):
        env.reset(seed=0)
    mixed = VecEnv("crazy_eights", 4, num_players=3, opponents=["random", lambda o, m: np.full(len(o), 196)])
    mixed.reset(seed=0)
    with pytest.raises(eights.IllegalActionError, match="opponent"):
        mixed.step(mixed.random_actions())


def test_builtin_bots_and_python_opponents_mix_per_seat():
    env = VecEnv("crazy_eights", 4, num_players=3, opponents=["random", lambda o, m: m.argmax(1)], seed=0)
    env.reset()
    for _ in range(50):
        _, _, term, trunc, info = env.step(env.random_actions())
        assert (info["current_player"][~(term | trunc)] == 0).all()


def _recording(env):
    """Wrap the core's bot_actions to check each answer against eights.Bot on the same state."""
    core = env._core
    real = core.bot_actions
    calls = []

    class Spy:
        def __getattr__(self, name):
            return getattr(core, name)

        def bot_actions(self, bot, rows):
            out = real(bot, rows)
            for r, a in zip(rows, out):
                game = eights.Game.from_dict(core.game_dict(int(r)))
                if bot == "random":  # its own stream: only legality can be checked
                    assert a in game.legal_actions()
                else:
                    assert a == eights.Bot(bot, seed=0).act(game), (bot, int(r))
                assert game.current_player != env.learner_seat
            calls.append((bot, len(rows)))
            return out

    env._core = Spy()
    return calls


@pytest.mark.parametrize("preset,players", [("crazy_eights", 2), ("switch_blackjack", 3)])
def test_builtin_heuristic_opponents_play_the_rust_bot_on_the_real_state(preset, players):
    # A pool of one built-in bot is played from Python through bot_actions (checked against
    # eights.Bot on each state); the plain name is played inside the step: the same games.
    env = VecEnv(preset, 8, num_players=players, opponents=OpponentPool(["heuristic"]), seed=3)
    inside = VecEnv(preset, 8, num_players=players, opponents="heuristic", seed=3)
    calls = _recording(env)
    env.reset()
    inside.reset()
    ended = np.zeros(8, dtype=bool)
    for _ in range(150):
        _, _, term, trunc, info = env.step(env.random_actions())
        obs, _, term2, _, info2 = inside.step(inside.random_actions())
        np.testing.assert_array_equal(obs, env._obs)
        np.testing.assert_array_equal(term, term2)
        np.testing.assert_array_equal(info["action_mask"], info2["action_mask"])
        ended |= term | trunc
        assert (info["current_player"][~(term | trunc)] == 0).all()
    assert calls and all(bot == "heuristic" for bot, _ in calls)
    assert ended.any()


def test_opponent_pool_mixes_builtin_bots_and_snapshots():
    seen = []

    def snapshot(obs, mask):
        seen.append(len(obs))
        return mask.argmax(axis=1)

    pool = OpponentPool(["heuristic", snapshot, "random"], weights=[2, 1, 1], seed=0)
    assert pool[0] == "heuristic" and pool[2] == "random"
    env = VecEnv("crazy_eights", 32, opponents=pool, seed=2)
    calls = _recording(env)
    env.reset()
    for _ in range(200):
        env.step(env.random_actions())
    bots = {bot for bot, _ in calls}
    assert bots == {"heuristic", "random"} and seen
    # Outside a VecEnv a built-in entry cannot act: it needs the game.
    with pytest.raises(ValueError, match="built-in bot"):
        pool.act(np.zeros((1, eights.OBS_SIZE), np.float32), np.ones((1, eights.NUM_ACTIONS), bool), np.array([0]))


def test_builtin_opponent_names_and_rows_are_checked():
    with pytest.raises(ValueError, match="unknown bot"):
        VecEnv("crazy_eights", 2, opponents="heuristc")
    with pytest.raises(ValueError, match="unknown bot"):
        OpponentPool(["ismcts", "alphazero"])
    env = VecEnv("crazy_eights", 2, opponents="heuristic", seed=0)
    env.reset()
    with pytest.raises(ValueError, match="out of range"):
        env._core.bot_actions("heuristic", np.array([0, 2], dtype=np.int64))
    # A game whose episode is over (or a learner's turn) still answers: -1 only when over.
    out = env._core.bot_actions("heuristic", np.array([0, 1], dtype=np.int64))
    assert out.shape == (2,) and (out >= 0).all()


def test_bot_policies_give_the_search_visit_shares_and_one_hot_rows_for_other_bots():
    env = VecEnv("crazy_eights", 6, num_players=3, opponents="heuristic", seed=2)
    env.reset()
    rows = np.arange(6, dtype=np.int64)
    shares = env.bot_policies("ismcts:40", rows)
    assert shares.shape == (6, eights.NUM_ACTIONS) and shares.dtype == np.float32
    np.testing.assert_allclose(shares.sum(1), 1.0, atol=1e-5)
    np.testing.assert_allclose(shares * 40, np.round(shares * 40), atol=1e-3)  # visit counts over 40
    assert (shares.argmax(1) == env.bot_actions("ismcts:40", rows)).all()
    legal = np.asarray(env._core.action_masks, bool)
    assert legal.shape == shares.shape and not (shares[~legal] > 0).any()
    one_hot = env.bot_policies("heuristic", rows)
    assert (one_hot.sum(1) == 1).all() and (one_hot.argmax(1) == env.bot_actions("heuristic", rows)).all()
    with pytest.raises(ValueError, match="unknown bot"):
        env.bot_policies("alphazero", rows)
    with pytest.raises(ValueError, match="out of range"):
        env.bot_policies("ismcts:5", np.array([6], dtype=np.int64))
    # root: -1 is the heuristic's choice, the plain search; one entry per row.
    np.testing.assert_array_equal(env.bot_policies("ismcts:40", rows, np.full(6, -1, np.int64)), shares)
    with pytest.raises(ValueError, match="root must have one entry per row"):
        env.bot_policies("ismcts:40", rows, np.zeros(2, np.int64))
    with pytest.raises(TypeError, match="root must be a 1-d integer array"):
        env.bot_policies("ismcts:40", rows, np.zeros(6))
    # Every game when rows is omitted, as bot_actions.
    np.testing.assert_array_equal(env.bot_policies("heuristic"), one_hot)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before bot_policies\(\)"):
        VecEnv("crazy_eights", 2, seed=0).bot_policies("heuristic")


def test_ismcts_net_is_the_search_rooted_on_nets_move_wherever_a_bot_plays():
    env = VecEnv("switch_blackjack", 8, num_players=2, opponents="heuristic", seed=4)
    env.reset()
    rows = np.arange(8, dtype=np.int64)
    net = env.bot_actions("net", rows)
    rooted = env.bot_policies("ismcts_net:32", rows)
    np.testing.assert_array_equal(rooted, env.bot_policies("ismcts:32", rows, net))
    assert (env.bot_actions("ismcts_net:32", rows) == rooted.argmax(1)).all()
    # As an opponent inside the step, in the arena and as a Bot.
    opp = VecEnv("crazy_eights", 4, num_players=3, opponents="ismcts_net:8", seed=1)
    opp.reset()
    for _ in range(5):
        opp.step(np.array([opp.action_masks()[i].argmax() for i in range(4)]))
    r = eights.arena.evaluate("ismcts_net:8", "heuristic", preset="crazy_eights", games=4, seed=0)
    assert 0.0 <= r.win_rate <= 1.0
    g = eights.Game("crazy_eights", 2, seed=3)
    assert eights.Bot("ismcts_net:8").act(g) in g.legal_actions()


def test_an_opponent_policy_that_raises_leaves_the_batch_to_be_reset():
    """A Python opponent that raises mid-step leaves games with an opponent to act; the next
    step said "play it with step_opponents() before step()", a method users do not call. It now
    asks for reset(), and after it the batch plays on."""
    calls = [0]

    def flaky(obs, mask):
        calls[0] += 1
        if calls[0] == 3:
            raise RuntimeError("the policy failed")
        return mask.argmax(axis=1)

    env = VecEnv("crazy_eights", 8, opponents=flaky, seed=0)
    env.reset()
    with pytest.raises(RuntimeError, match="the policy failed"):
        for _ in range(10):
            env.step(env.random_actions())
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step(np.zeros(8, dtype=np.int64))
    with pytest.raises(RuntimeError, match=r"call reset\(\) before random_actions\(\)"):
        env.random_actions()
    env.reset()
    for _ in range(5):
        env.step(env.random_actions())


def test_a_game_of_the_batch_is_a_copy_with_the_batchs_legal_actions():
    # Research and the soak reached for the private VecEnv._core.game_dict to see one game.
    env = eights.VecEnv("crazy_eights", 4, num_players=3, seed=5)
    env.reset(seed=5)
    for _ in range(3):
        env.step(env.random_actions())
    masks = env.action_masks()
    for i in range(4):
        game = env.game(i)
        assert isinstance(game, eights.Game) and not game.is_terminal
        assert np.array_equal(np.flatnonzero(masks[i]), game.legal_actions())
    copy = env.game(1)
    before = copy.to_dict()
    env.step(env.random_actions())
    assert copy.to_dict() == before  # the batch stepped, the copy did not
    in_batch = env.game(1).to_dict()
    copy.step(copy.legal_actions()[0])
    assert env.game(1).to_dict() == in_batch  # stepping the copy leaves the batch
    with pytest.raises(ValueError, match=r"i must be in \[0, 3\]"):
        env.game(4)


def test_one_action_given_to_step_is_told_step_takes_one_per_game():
    # It read the opponents' message: "a batch's policy gets ... goes in eights.make".
    env = eights.VecEnv("crazy_eights", 3, num_threads=1, seed=0)
    env.reset()
    want = r"^actions must have shape \(3,\), got \(\) \(one action: step takes an action for each of the 3 games"
    with pytest.raises(ValueError, match=want):
        env.step(int(np.flatnonzero(env.action_masks()[0])[0]))


def test_a_policy_of_one_game_as_a_batch_opponent_is_told_where_it_goes():
    # A notebook walk passed eights.make's kind of opponent, f(obs, mask) -> one action, to a
    # VecEnv and read "must have shape (3,), got ()".
    env = eights.VecEnv("crazy_eights", 3, opponents=lambda o, m: int(np.flatnonzero(m[0])[0]), seed=0)
    with pytest.raises(ValueError, match=r"got \(\) \(one action: a batch's policy gets every waiting game's rows"):
        env.reset()
        for _ in range(20):
            env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
