"""Twin deals in the PPO stage of the rules-reading ``net`` (``netlab.cardppo_twins``):
the copies of a game are dealt the same rules and cards; each copy's moves from the decision
where the copies part are credited with its return minus the other copies' mean; decisions
that carry no gradient are left out; a tiny run trains with them."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights.train needs safetensors (pip install '.[train]')")

from eights import NUM_ACTIONS, RULES_SIZE  # noqa: E402
from eights.train.cardnet import CardNet, export  # noqa: E402
from netlab.cardppo import CardPPOConfig, card_ppo  # noqa: E402
from netlab.cardppo_games import MixedGames  # noqa: E402
from netlab.cardppo_twins import TwinBook, twin_advantages  # noqa: E402
from netlab.imitation import RulesTable  # noqa: E402


def test_the_copies_of_a_game_are_dealt_the_same_rules_and_cards():
    games = MixedGames("2:heuristic:6,4:heuristic:8:presets", 1, seed=3, table=RulesTable(), copies=2)
    games.reset(11)
    assert games.N == 2 * (6 + 8)
    for p in np.unique(games.pair):
        a, b = np.flatnonzero(games.pair == p)
        np.testing.assert_array_equal(games.obs[a], games.obs[b])
        np.testing.assert_array_equal(games.enc[a], games.enc[b])
        assert games.game_group[a] == games.game_group[b]
    # Different games of one copy are different deals.
    first = np.flatnonzero(games.pair == games.pair[0])[0]
    assert not np.array_equal(games.obs[first], games.obs[first + 1])
    # Without copies, every env keeps the seed it had before copies existed (seed + 7 k).
    single = MixedGames("2:heuristic:6", 1, seed=3, table=RulesTable())
    assert single.base == list(range(len(single.envs)))
    with pytest.raises(ValueError, match="copies"):
        MixedGames("2:heuristic:6", 1, seed=3, table=RulesTable(), copies=0)


def _samples(rows):
    """Decisions ``(game, t, act, legal moves)`` as the flat arrays of a rollout."""
    mask = np.zeros((len(rows), NUM_ACTIONS), bool)
    for i, (_, _, _, legal) in enumerate(rows):
        mask[i, :legal] = True
    return {
        "game": np.array([r[0] for r in rows]),
        "t": np.array([r[1] for r in rows]),
        "act": np.array([r[2] for r in rows]),
        "mask": mask,
    }


def test_each_copy_is_credited_from_where_the_copies_part_with_its_return_minus_the_others():
    # Two copies (games 0..3 are copy 0, 4..7 copy 1; deal d is games d and d + 4).
    pair = np.array([0, 1, 2, 3, 0, 1, 2, 3])
    rows = [
        # deal 0: the copies play alike and tie: nothing to learn
        (0, 0, 5, 3),
        (0, 1, 6, 3),
        (4, 0, 5, 3),
        (4, 1, 6, 3),
        # deal 1: they part at t = 1 (7 against 8); copy 0 wins
        (1, 0, 5, 3),
        (1, 1, 7, 9),
        (1, 2, 0, 1),
        (1, 3, 2, 3),
        (5, 0, 5, 3),
        (5, 1, 8, 9),
        (5, 2, 4, 9),
        # deal 2: they part at once, copy 1 wins, but copy 0 never finished
        (2, 0, 1, 3),
        (6, 0, 2, 3),
        # deal 3: they part, copy 0 wins, but the deal is a held-out rule set
        (3, 0, 1, 3),
        (7, 0, 2, 3),
    ]
    s = _samples(rows)
    ret = np.array([0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 1.0, 0.0], np.float32)
    finished = np.array([True, True, False, True, True, True, True, True])
    counted = np.array([True, True, True, False, True, True, True, True])
    adv, keep, stats = twin_advantages(s, ret, finished, counted, pair, copies=2)
    # Deal 1: copy 0 returned 1, copy 1 returned -1: advantages +2 and -2 from t = 1 on, the
    # forced move (one legal action) of copy 0 at t = 2 left out.
    want_keep = [False] * 4 + [False, True, False, True] + [False, True, True] + [False] * 4
    np.testing.assert_array_equal(keep, want_keep)
    np.testing.assert_array_equal(adv[keep], [2.0, 2.0, -2.0, -2.0])
    assert stats["deals"] == 2  # deals 0 and 1; 2 unfinished, 3 held out
    assert stats["parted"] == 0.5 and stats["differ"] == 0.5 and stats["parted_at"] == 1.0


def test_with_three_copies_the_advantages_of_a_deal_sum_to_zero():
    pair = np.array([0, 0, 0])
    s = _samples([(0, 0, 1, 2), (1, 0, 2, 2), (2, 0, 2, 2), (2, 1, 3, 4)])
    ret = np.array([1.0, 0.0, 0.0], np.float32)
    adv, keep, _ = twin_advantages(s, ret, np.ones(3, bool), np.ones(3, bool), pair, copies=3)
    # 1 - (0 + 0) / 2, and 0 - (1 + 0) / 2 for the two losers
    np.testing.assert_allclose(adv, [1.0, -0.5, -0.5, -0.5])
    assert keep.all()


def _buffers(T, n, plays):
    """Rollout buffers ``(T, n)`` with the decisions ``plays``: ``(t, game, act, reward, done,
    rules row)``; every other entry is no decision."""
    buf = {
        "obs": np.zeros((T, n, 4), np.float32),
        "mask": np.zeros((T, n, NUM_ACTIONS), bool),
        **{k: np.zeros((T, n), np.int64) for k in ("act", "ridx", "label")},
        **{k: np.zeros((T, n), np.float32) for k in ("logp", "rew", "done")},
        "valid": np.zeros((T, n), bool),
    }
    for t, g, a, r, d, ridx in plays:
        buf["valid"][t, g] = True
        buf["mask"][t, g, :3] = True
        buf["act"][t, g], buf["rew"][t, g], buf["done"][t, g], buf["ridx"][t, g] = a, r, d, ridx
        buf["obs"][t, g, 0] = 10 * g + t  # to recognise the decision
    return buf


def test_the_book_hands_out_a_deal_once_every_copy_has_finished_it():
    # Games 0 and 1 are the two copies of one deal, games 2 and 3 of another.
    games = SimpleNamespace(N=4, copies=2, pair=np.array([0, 1, 0, 1]))
    book = TwinBook(games, most=10)
    table = RulesTable()
    rows = [table.add(np.full(RULES_SIZE, float(x), np.float32)) for x in (7, 8)]
    # Rollout 1: game 0 plays two moves and wins; game 2 plays two other moves and is still on;
    # games 1 and 3 (the second deal) both end at once with the same moves: nothing to learn.
    buf = _buffers(
        3,
        4,
        [
            (0, 0, 1, 0.0, 0, rows[0]),
            (1, 0, 2, 1.0, 1, rows[0]),
            (0, 2, 1, 0.0, 0, rows[0]),
            (1, 2, 0, 0.0, 0, rows[0]),
            (0, 1, 1, 1.0, 1, rows[1]),
            (0, 3, 1, 1.0, 1, rows[1]),
        ],
    )
    samples, rules, stats = book.add(buf, table, np.zeros(4, bool))
    assert stats["deals"] == 1 and stats["parted"] == 0.0  # the second deal, played alike
    assert not samples["valid"].any()
    assert len(book.held["game"]) == 4  # the first deal waits for game 2
    # Rollout 2: game 2 (pending for game 0, 1 and 3: their first step is the dummy) loses.
    buf = _buffers(2, 4, [(0, 2, 1, -1.0, 1, rows[0])])
    samples, rules, stats = book.add(buf, table, np.array([True, True, False, True]))
    assert stats == {"deals": 1, "parted": 1.0, "differ": 1.0, "parted_at": 1.0}
    kept = samples["valid"]
    # From the episode's second decision on: game 0's winning move (rollout 1, step 1: 1) at +2,
    # and game 2's last two moves (rollout 1, step 1: 21; rollout 2, step 0: 20) at -2.
    np.testing.assert_array_equal(np.sort(samples["obs"][kept, 0]), [1.0, 20.0, 21.0])
    np.testing.assert_array_equal(np.sort(samples["adv"][kept]), [-2.0, -2.0, 2.0])
    np.testing.assert_array_equal(rules.rows[samples["ridx"][kept]][:, 0], [7.0, 7.0, 7.0])
    assert len(book.held["game"]) == 0


def test_a_restart_drops_the_deals_some_copy_has_not_finished():
    games = SimpleNamespace(N=2, copies=2, pair=np.array([0, 0]))
    book = TwinBook(games, most=4)
    table = RulesTable()
    r = table.add(np.zeros(RULES_SIZE, np.float32))
    book.add(_buffers(1, 2, [(0, 0, 1, 1.0, 1, r), (0, 1, 2, 0.0, 0, r)]), table, np.zeros(2, bool))
    book.restart()  # the caller dealt both games anew: game 0's finished deal has no partner
    samples, _, stats = book.add(_buffers(1, 2, [(0, 1, 1, -1.0, 1, r)]), table, np.zeros(2, bool))
    assert stats["deals"] == 0 and len(samples["game"]) == 0
    assert list(book.episode) == [0, 1] and len(book.held["game"]) == 1  # waits for game 0
    # A game that finishes more episodes between restarts than the book keeps is an error.
    with pytest.raises(RuntimeError, match="restart sooner"):
        book.add(_buffers(8, 2, [(t, 1, 1, 0.0, 1, r) for t in (0, 2, 4, 6)]), table, np.zeros(2, bool))


def test_a_tiny_run_with_twin_deals_trains_the_policy_and_resumes(tmp_path):
    torch.manual_seed(0)
    init = tmp_path / "init.safetensors"
    export(CardNet(), str(init), {"stages": "[]"}, dtype=torch.float32)
    # One rollout between new deals: the second update starts on games dealt anew.
    cfg = CardPPOConfig(
        tables="2:heuristic:32,3:heuristic:12:presets", copies=2, num_steps=48, block=4, blocks=8, twin_redeal=1
    )
    out = tmp_path / "run"
    net = card_ppo(str(out), cfg, minutes=1e-6, init=str(init), log=lambda s: None)
    before = {k: v.clone() for k, v in net.state_dict().items()}
    net = card_ppo(str(out), cfg, minutes=1e-6, log=lambda s: None)
    rows = [json.loads(x) for x in (out / "curve.jsonl").read_text().splitlines()]
    assert [r["update"] for r in rows] == [1, 2]
    assert all(r["value_only"] is False and r["twin_deals"] > 0 for r in rows)
    assert rows[-1]["twin_kept"] > 0 and rows[0]["twin_held"] == 0  # nothing waits after a new deal
    moved = [k for k, v in net.state_dict().items() if not torch.equal(v, before[k])]
    assert moved and not any(k.startswith("v.") for k in moved)  # the policy moved, the value did not
    with pytest.raises(ValueError, match="copies"):
        card_ppo(str(tmp_path / "x"), CardPPOConfig(copies=2, dagger="ismcts:10"), 1e-6, init=str(init))
