"""The PPO stage of the rules-reading ``net`` (``netlab.cardppo``): a tiny run writes a
checkpoint and a curve and resumes where it stopped; the first updates move the value head
alone; the groups of tables parse as documented."""

from __future__ import annotations

import json

import numpy as np
import pytest

import eights

torch = pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights.train needs safetensors (pip install '.[train]')")

from eights.train.cardnet import CardNet, export  # noqa: E402
from netlab.cardppo import CardPPOConfig, card_ppo  # noqa: E402
from netlab.cardppo_games import parse_tables  # noqa: E402


def test_tables_parse_as_documented():
    want = [(2, "heuristic", 256, "all"), (4, "net", 64, "presets")]
    assert parse_tables("2:heuristic:256, 4:net:64:presets") == want
    assert parse_tables("2:heuristic:64:crazy_eights") == [(2, "heuristic", 64, "crazy_eights")]
    with pytest.raises(ValueError, match="players:opponent:games"):
        parse_tables("2:heuristic:256:house")


def test_a_tiny_run_trains_the_value_head_first_then_resumes(tmp_path):
    torch.manual_seed(0)
    start = CardNet()
    init = tmp_path / "init.safetensors"
    export(start, str(init), {"stages": "[]"}, dtype=torch.float32)
    cfg = CardPPOConfig(tables="2:heuristic:8,3:heuristic:6:presets", num_steps=8, value_updates=2, block=4, blocks=8)
    out = tmp_path / "run"
    # A budget of ~0 minutes still runs one update per call.
    net = card_ppo(str(out), cfg, minutes=1e-6, init=str(init), log=lambda s: None)
    rows = [json.loads(x) for x in (out / "curve.jsonl").read_text().splitlines()]
    assert [r["update"] for r in rows] == [1] and rows[0]["value_only"] is True
    policy = {k: v for k, v in net.state_dict().items() if not k.startswith("v.")}
    for k, v in policy.items():  # the imitation network's policy did not move
        assert torch.equal(v, start.state_dict()[k].to(v.dtype)), k
    net = card_ppo(str(out), cfg, minutes=1e-6, log=lambda s: None)
    net = card_ppo(str(out), cfg, minutes=1e-6, log=lambda s: None)
    rows = [json.loads(x) for x in (out / "curve.jsonl").read_text().splitlines()]
    assert [r["update"] for r in rows] == [1, 2, 3]
    assert [r["value_only"] for r in rows] == [True, True, False]
    assert rows[-1]["decisions"] > rows[0]["decisions"] > 0
    moved = [k for k, v in net.state_dict().items() if not k.startswith("v.") and not torch.equal(v, policy[k])]
    assert moved  # the third update trained the policy


def test_the_shaping_potential_compares_the_own_hand_with_the_mean_opponent_hand():
    from netlab.cardppo_games import HAND_SIZES, SEATS, potential

    obs = np.zeros((3, 346), np.float32)
    obs[:, [0, 5, 40]] = 1.0  # three cards in hand
    obs[:, HAND_SIZES : HAND_SIZES + 2] = [5.0, 7.0]
    obs[:, SEATS : SEATS + 2] = 1.0
    obs[1, HAND_SIZES + 2] = 30.0  # a seat that is not at the table does not count
    obs[2, HAND_SIZES : HAND_SIZES + 2] = [40.0, 40.0]  # clipped at +coef
    got = potential(obs, 0.2)
    assert got == pytest.approx([0.2 * 3 / 10, 0.2 * 3 / 10, 0.2])
    assert not potential(obs, 0.0).any()


def test_shaping_telescopes_to_minus_the_first_potential_over_a_finished_game():
    from netlab.cardppo import _rollout
    from netlab.cardppo_games import MixedGames, PartsCache, potential
    from netlab.imitation import RulesTable

    cfg = CardPPOConfig(tables="2:heuristic:8:presets,4:heuristic:8:presets")
    games = MixedGames(cfg.tables, cfg.env_threads, seed=3, table=RulesTable())
    torch.manual_seed(0)
    net = CardNet()
    cache = PartsCache(net, games.table)
    games.reset()
    cache.refresh(games.table)
    phi0 = potential(games.obs, 0.5)
    buf, _, _, _ = _rollout(net, games, cache, 60, np.zeros(games.N, bool), shaping=0.5, gamma=1.0)
    checked = 0
    for g in range(games.N):
        ends = np.flatnonzero(buf["done"][:, g] > 0)
        if len(ends) == 0:
            continue
        # The first game of every column starts at step 0 with potential phi0[g].
        total = buf["shaping"][: ends[0] + 1, g].sum()
        assert total == pytest.approx(-phi0[g], abs=1e-5)
        checked += 1
    assert checked >= games.N // 2


def test_a_tiny_run_with_a_search_teacher_keeps_its_labels_across_a_resume(tmp_path):
    torch.manual_seed(0)
    init = tmp_path / "init.safetensors"
    export(CardNet(), str(init), {"stages": "[]"}, dtype=torch.float32)
    cfg = CardPPOConfig(
        tables="2:heuristic:8,4:heuristic:8:presets,4:heuristic:8",
        num_steps=8,
        value_updates=0,
        block=4,
        blocks=8,
        dagger="ismcts:10",
        dagger_labels=16,
        dagger_batch=8,
    )
    out = tmp_path / "run"
    card_ppo(str(out), cfg, minutes=1e-6, init=str(init), log=lambda s: None)
    assert (out / "dagger.npz").exists()
    card_ppo(str(out), cfg, minutes=1e-6, log=lambda s: None)
    rows = [json.loads(x) for x in (out / "curve.jsonl").read_text().splitlines()]
    # 16 labels per rollout, all at the 4-player preset tables; the resumed run kept the first 16.
    assert [r["dagger_size"] for r in rows] == [16, 32]
    assert "dagger" in rows[1] and "dagger" not in rows[0]  # the term starts once 4 batches (32) are held


def test_the_search_teacher_keeps_only_the_states_where_it_is_sure_and_disagrees(tmp_path):
    from netlab.cardppo_games import MixedGames, SearchLabels
    from netlab.imitation import RulesTable

    games = MixedGames("4:heuristic:16:presets", 1, seed=4, table=RulesTable())
    games.reset()
    valid = games.mask.any(1) & ~games.skip
    rows = np.flatnonzero(valid)
    pol = np.zeros((games.N, eights.NUM_ACTIONS), np.float32)
    pol[rows] = games.policies_of("ismcts:20", rows)  # the answers depend only on each game
    top = pol.argmax(1)

    def teacher(keep, greedy):
        s = SearchLabels("ismcts:20", "4", 64, 100, 8, games, str(tmp_path / "d.npz"), 0, keep=keep)
        s.label(valid, 64, greedy)
        return s

    # A threshold between the least and the most sure answers, so the filter has work to do.
    keep = float(np.median(pol[rows].max(1)))
    assert pol[rows].max(1).min() < keep <= pol[rows].max(1).max()
    assert teacher(keep, top).buffer.size == 0  # the network agrees everywhere: nothing kept
    sure = valid & (pol.max(1) >= keep)
    s = teacher(keep, np.full(games.N, -1))  # the network disagrees everywhere
    assert 0 < s.buffer.size == sure.sum() < valid.sum()
    np.testing.assert_allclose(s.target[: s.buffer.size], pol[sure], atol=1e-3)
    assert teacher(0.0, top).buffer.size == valid.sum()  # no filter: every state asked about
    # The term waits for dagger_start labels, and for four minibatches at least.
    n = s.buffer.size
    later = SearchLabels("ismcts:20", "4", 64, 100, 2, games, str(tmp_path / "s.npz"), 0, start=n + 1)
    later.label(valid, 64, np.full(games.N, -1))
    assert later.buffer.size == valid.sum() and later.ready() == (valid.sum() >= n + 1)
    assert SearchLabels("ismcts:20", "4", 64, 100, 8, games, str(tmp_path / "t.npz"), 0, start=3).start == 32
    idx = np.arange(s.buffer.size)
    np.testing.assert_allclose(s.batch_of(idx)[2].numpy(), pol[sure], atol=1e-3)
    hard = s.batch_of(idx, top=True)[2].numpy()  # dagger_target = "top": one-hot on the top action
    assert (hard.sum(1) == 1).all() and (hard.argmax(1) == top[sure]).all()
    # root = "learner": the search's root favours the network's move; -1 rows are the plain search.
    learner = SearchLabels("ismcts:20", "4", 64, 100, 8, games, str(tmp_path / "l.npz"), 0, root="learner")
    learner.label(valid, 64, np.full(games.N, -1))
    np.testing.assert_allclose(learner.target[: learner.buffer.size], pol[valid], atol=1e-3)
    with pytest.raises(ValueError, match="root"):
        SearchLabels("ismcts:20", "4", 64, 100, 8, games, str(tmp_path / "x.npz"), 0, root="search")
    s.save()  # the policies survive a resume
    again = SearchLabels("ismcts:20", "4", 64, 100, 8, games, str(tmp_path / "d.npz"), 0, keep=keep)
    np.testing.assert_array_equal(again.target[: s.buffer.size], s.target[: s.buffer.size])


def test_a_wider_config_widens_the_starting_network_and_trains_it(tmp_path):
    torch.manual_seed(0)
    init = tmp_path / "init.safetensors"
    export(CardNet(width=8, context=16), str(init), {"stages": "[]"}, dtype=torch.float32)
    cfg = CardPPOConfig(tables="2:heuristic:8", num_steps=8, value_updates=0, block=4, blocks=8, width=12, context=24)
    logs = []
    net = card_ppo(str(tmp_path / "run"), cfg, minutes=1e-6, init=str(init), log=logs.append)
    assert (net.width, net.context) == (12, 24)
    assert any("widened" in line for line in logs)
    assert net.a.weight[:, 8:].abs().sum() > 0  # the new units' outgoing weights moved
    net = card_ppo(str(tmp_path / "run"), cfg, minutes=1e-6, log=lambda s: None)  # resumes at the new size
    assert (net.width, net.context) == (12, 24)


def test_a_run_is_its_seed_s_whatever_the_env_threads(tmp_path):
    # The new value head is drawn from the seed, and the envs' threads do not change the games:
    # two runs from one file and one seed train the same network on the CPU.
    init = tmp_path / "init.safetensors"
    export(CardNet(width=8, context=16), str(init), {"stages": "[]"}, dtype=torch.float32)
    nets = []
    for threads in (1, 2):
        cfg = CardPPOConfig(
            tables="2:heuristic:8,4:heuristic:8:presets", num_steps=8, value_updates=0, block=4, blocks=8,
            width=8, context=16, env_threads=threads, device="cpu", seed=5,
        )  # fmt: skip
        torch.manual_seed(threads)  # whatever the caller's generator holds
        nets.append(card_ppo(str(tmp_path / f"run{threads}"), cfg, minutes=1e-6, init=str(init), log=lambda s: None))
    for (k, a), b in zip(nets[0].state_dict().items(), nets[1].state_dict().values()):
        assert torch.equal(a, b), k


def test_the_envs_stepped_side_by_side_play_the_games_they_play_one_after_another():
    from netlab.cardppo_games import MixedGames
    from netlab.imitation import RulesTable

    tables = "2:heuristic:8,3:heuristic:9:presets,4:net:8"
    one, many = (MixedGames(tables, t, seed=5, table=RulesTable()) for t in (1, 3))
    assert one.pool is None and many.pool is not None
    for g in (one, many):
        g.reset()
    rng = np.random.default_rng(0)
    for _ in range(12):
        np.testing.assert_array_equal(one.obs, many.obs)
        np.testing.assert_array_equal(one.mask, many.mask)
        act = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in one.mask], np.int64)
        (r1, d1, n1), (r2, d2, n2) = one.step(act), many.step(act)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
        assert n1 == n2
    np.testing.assert_array_equal(one.rules_id, many.rules_id)
