"""Hardening: bad input of every kind gets a clear Python exception naming the argument or
the field (never a Rust panic, an abort or a silently corrupted state), and a call that
raises leaves the object exactly as it was. Tests that could kill the interpreter run in a
subprocess."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import eights
from eights import _core

LINUX = sys.platform.startswith("linux")


# Every child process is capped at 4 GiB of address space (on Linux), so that a check that
# is missing cannot take the machine's memory; tests lower the cap further where they need.
_CAP = """
import resource, sys
if sys.platform.startswith("linux"):
    resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, resource.RLIM_INFINITY))
"""


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", _CAP + textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout
    )


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "eights", *args], capture_output=True, text=True, timeout=timeout)


def state(preset: str = "crazy_eights", n: int = 2, seed: int = 1) -> dict:
    return eights.Game(preset, n, seed=seed).to_dict()


def load_error(d: dict) -> BaseException:
    """The exception from_dict raises for ``d`` (fails the test if it accepts it)."""
    with pytest.raises(ValueError) as info:
        eights.Game.from_dict(d)
    return info.value


def is_plain_value_error(e: BaseException) -> bool:
    return isinstance(e, ValueError) and not isinstance(e, OverflowError)


# --------------------------------------------------------------------------------------
# Aborts: sizes are checked before allocating.


@pytest.mark.parametrize(
    "call",
    ["eights.VecEnv('crazy_eights', 10**9)", "eights._core.VecEnvCore('crazy_eights', 10**9)"],
)
def test_huge_num_envs_is_a_value_error_not_an_abort(call):
    r = run_python(
        f"""
        import eights
        try:
            {call}
        except ValueError as e:
            print("ValueError:", e)
        """
    )
    assert r.returncode == 0, r.stderr
    assert "ValueError:" in r.stdout and "num_envs" in r.stdout


@pytest.mark.skipif(not LINUX, reason="uses RLIMIT_AS and /proc")
@pytest.mark.parametrize("where", ["rust_state", "numpy_buffers"])
def test_out_of_memory_is_a_memory_error(where):
    # Address space limited to what is mapped now plus some headroom: the games' Rust state
    # fits ("numpy_buffers") or not ("rust_state"); either way the answer is MemoryError.
    r = run_python(
        f"""
        import resource
        import numpy as np
        import eights
        from eights import _core

        n = 100_000
        per_env = _core.VecEnvCore("crazy_eights", 1, num_threads=1).state_bytes_per_env
        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * resource.getpagesize()
        headroom = 32 * 2**20 if "{where}" == "rust_state" else per_env * n + 64 * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (mapped + headroom, resource.RLIM_INFINITY))
        try:
            _core.VecEnvCore("crazy_eights", n, num_threads=1)
        except MemoryError as e:
            print("MemoryError:", e)
        """
    )
    assert r.returncode == 0, r.stderr
    assert "MemoryError:" in r.stdout, r.stdout + r.stderr


@pytest.mark.skipif(not LINUX, reason="uses RLIMIT_AS")
def test_arena_thread_pool_that_cannot_start_is_an_error():
    r = run_python(
        """
        import resource
        from eights import _core

        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (mapped + 8 * 2**20, resource.RLIM_INFINITY))
        try:
            _core.arena_play("crazy_eights", 2, ["random", "random"], threads=64)
        except (RuntimeError, MemoryError) as e:
            print("raised:", type(e).__name__, e)
        """
    )
    assert r.returncode == 0, r.stderr
    assert "raised:" in r.stdout and "thread" in r.stdout, r.stdout + r.stderr


# --------------------------------------------------------------------------------------
# Snapshots: every field in range and consistent with the others.


@pytest.mark.parametrize("path", [("restrict",), ("turn", "restrict")])
@pytest.mark.parametrize("value", [{"suit": 200}, {"suit": 4}, {"also": 4}, {"ask": 15}, {"ask": 255}])
def test_snapshot_restrict_out_of_range(path, value):
    d = state()
    target = d
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    e = load_error(d)
    assert "restrict" in str(e)


def test_snapshot_restrict_in_range_is_accepted_and_observed():
    # one_card sets the attack-suit constraint (chain.after = "attack_suit_only"); a state of
    # rules that never set it is refused (test_position_zones.py).
    d = state("one_card", 3)
    d["restrict"] = {"suit": 3}
    g = eights.Game.from_dict(d)
    obs = g.observation(0)
    assert np.isfinite(obs).all()


@pytest.mark.parametrize(
    "change, field",
    [
        ({"phase": "game_over", "terminal": False}, "phase"),
        ({"terminal": True, "phase": "play"}, "terminal"),
        ({"winner": 9}, "winner"),
        ({"hand_winner": 200}, "hand_winner"),
        ({"current": 2}, "current"),
        ({"dealer": 255}, "dealer"),
        ({"direction": 0}, "direction"),
        ({"num_players": 11}, "num_players"),
        ({"num_players": 1}, "num_players"),
        ({"terminal": True, "truncated": True, "phase": "game_over"}, "truncated"),
        ({"went_out": 5}, "went_out"),
        ({"nominated": "X"}, "nominated"),
        ({"format": 99}, "format"),
        ({"rank_run": ["RJ"]}, "rank_run"),
        ({"rank_run": ["5H", "5H"]}, "rank_run"),
        ({"rank_run": 4}, "rank_run"),
        ({"rng": {"s": [0, 0, 0, 0]}}, "rng"),
    ],
)
def test_snapshot_inconsistent_fields(change, field):
    d = state()
    d.update(change)
    e = load_error(d)
    assert is_plain_value_error(e)
    assert field in str(e), str(e)


def _one_card_in_phase(phase, variants=()):
    """A one_card state (no start card: an empty pile is a lead) in ``phase``, by random play."""
    for seed in range(200):
        rng = random.Random(seed)
        g = eights.Game("one_card", 3, seed=seed, rules={"variants": list(variants)} if variants else None)
        while not (g.is_terminal or g.is_truncated):
            if g.phase == phase:
                return g.to_dict()
            g.step(rng.choice(g.legal_actions()))
    raise AssertionError(f"no one_card game reached phase {phase}")


@pytest.mark.parametrize("phase", ["nominate", "continue"])
def test_snapshot_empty_pile_outside_a_lead(phase):
    # An empty pile is a lead (deal.starter = "none"): a state that needs a top card and has
    # none is refused, naming discard (it used to load and panic on the next step).
    d = _one_card_in_phase(phase)
    d["stock"] = d["stock"] + d["discard"]
    d["discard"] = []
    e = load_error(d)
    assert is_plain_value_error(e) and "discard" in str(e), str(e)


def test_snapshot_seats_out_of_the_hand_match_the_places_under_play_for_second():
    d = state("one_card", 3)
    d["rules"] = eights.Rules("one_card", variants=["play_for_second"]).to_dict()
    eights.Game.from_dict(d)
    for done in range(1, 8):
        d["done"] = done
        e = load_error(d)
        assert is_plain_value_error(e) and "done" in str(e), str(e)


def test_a_turn_cannot_begin_on_four_of_a_kind():
    # sevens_and_eights: four cards of one rank in a row end the hand.
    with pytest.raises(ValueError, match="discard"):
        eights.Game.from_position(
            "sevens_and_eights", 2, hands=[["3H", "4C"], ["KD", "9S"]], discard=["9C", "5H", "5D", "5C", "5S"]
        )
    d = eights.Game.from_position(
        "sevens_and_eights", 2, hands=[["3H", "4C"], ["KD", "9S"]], discard=["9C", "5H", "5D", "5C"]
    ).to_dict()
    d["stock"].remove("5S")
    d["discard"].append("5S")
    d["rank_run"] = ["5H", "5D", "5C", "5S"]
    e = load_error(d)
    assert is_plain_value_error(e) and "rank_run" in str(e), str(e)


@pytest.mark.parametrize(
    "path, value",
    [
        (("chain", "group"), 200),
        (("chain", "amount"), 65535),
        (("turn", "skips"), 255),
        (("turn", "chain_group"), 250),
        (("turn", "give_due"), 255),
        (("turn", "gave"), 200),
        (("turn", "pass_hands"), "left"),
        (("interlude", "suit"), 7),
        (("interlude", "seat"), 9),
        (("pass_streak",), 255),
        (("hands_played",), 2**32 - 1),
        (("decisions",), 2**32 - 1),
    ],
)
def test_snapshot_counters_out_of_range(path, value):
    d = state()
    target = d
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    try:
        g = eights.Game.from_dict(d)
    except ValueError as e:
        assert is_plain_value_error(e)
        return
    # Accepted: then it must play to the end with the invariants holding.
    _play_to_end(g)


def _play_to_end(g, seed: int = 0, limit: int = 20000) -> None:
    rng = np.random.default_rng(seed)
    cards = sum(g.hand_sizes) + g.stock_size + g.discard_size + len(g.rogue_pile())
    for _ in range(limit):
        legal = g.legal_actions()
        assert list(np.flatnonzero(g.action_mask())) == legal
        assert (not legal) == (g.is_terminal or g.is_truncated)
        assert sum(g.hand_sizes) + g.stock_size + g.discard_size + len(g.rogue_pile()) == cards
        for p in range(g.num_players):
            assert np.isfinite(g.observation(p)).all()
        if not legal:
            return
        g.step(int(rng.choice(legal)))
    raise AssertionError("no end")


def test_snapshot_duplicate_cards_and_unknown_cards():
    d = state()
    d["hands"][0] = d["hands"][0] + d["hands"][0]
    assert "deck" in str(load_error(d)) or "copies" in str(load_error(d))
    d = state()
    d["hands"][0][0] = "ZZ"
    load_error(d)


@pytest.mark.parametrize("value", [-1, 2**64, 1.5, "7", True])
def test_snapshot_seed_out_of_range(value):
    d = state()
    d["seed"] = value
    e = load_error(d)
    assert is_plain_value_error(e)


def test_snapshot_not_a_dict():
    with pytest.raises(TypeError):
        eights.Game.from_dict([1, 2])
    with pytest.raises((TypeError, ValueError)):
        eights.Game.from_dict(None)


def test_every_accepted_mutation_of_a_snapshot_plays_to_the_end():
    """A small Python-side fuzz over real mid-game states (the Rust harness goes further)."""
    rng = np.random.default_rng(5)
    presets = eights.presets()
    boundary = [-1, 0, 1, 3, 4, 7, 13, 15, 53, 54, 200, 255, 256, 65535, 2**31, 2**32]
    accepted = 0
    for case in range(150):
        preset = presets[case % len(presets)]
        g = eights.Game(preset, max(2, eights.preset_rules(preset)["players"]["min"]), seed=case)
        for _ in range(int(rng.integers(0, 40))):
            if not g.legal_actions():
                break
            g.step(int(rng.choice(g.legal_actions())))
        d = g.to_dict()
        keys = [k for k in d if k not in ("rules", "rng")]
        k = keys[int(rng.integers(len(keys)))]
        if isinstance(d[k], dict) and d[k]:
            sub = list(d[k])[int(rng.integers(len(d[k])))]
            d[k][sub] = int(rng.choice(boundary))
        else:
            d[k] = int(rng.choice(boundary))
        try:
            g2 = eights.Game.from_dict(d)
        except ValueError as e:
            assert is_plain_value_error(e), (k, e)
            continue
        accepted += 1
        _play_to_end(g2, case)
    assert accepted > 0


# --------------------------------------------------------------------------------------
# Positions.


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"current_player": -1}, "current_player"),
        ({"current_player": 2}, "current_player"),
        ({"direction": 200}, "direction"),
        ({"direction": 0}, "direction"),
        ({"pending_draw": 65536}, "pending_draw"),
        ({"pending_draw": -1}, "pending_draw"),
        ({"dealer": -1}, "dealer"),
        ({"dealer": 2}, "dealer"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"scores": [2**31, 0]}, "scores"),
        ({"scores": [0, -(2**31) - 1]}, "scores"),
        ({"nominated_suit": "X"}, "suit"),
    ],
)
def test_from_position_arguments_out_of_range(kwargs, name):
    base = dict(hands=[["8H", "2C"], ["3D"]], discard=["4H"])
    with pytest.raises(ValueError) as info:
        eights.Game.from_position("crazy_eights", 2, **base, **kwargs)
    assert is_plain_value_error(info.value), repr(info.value)
    assert name in str(info.value)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"current_player": True}, "current_player"),
        ({"direction": True}, "direction"),
        ({"pending_draw": False}, "pending_draw"),
        ({"seed": True}, "seed"),
    ],
)
def test_from_position_refuses_bools(kwargs, name):
    base = dict(hands=[["8H", "2C"], ["3D"]], discard=["4H"])
    with pytest.raises(TypeError, match=name):
        eights.Game.from_position("crazy_eights", 2, **base, **kwargs)


def test_from_position_scores_that_would_overflow():
    base = dict(hands=[["8H", "2C"], ["3D"]], discard=["4H"])
    with pytest.raises(ValueError, match="scores"):
        eights.Game.from_position("crazy_eights", 2, **base, scores=[2**31 - 1, 0])


# --------------------------------------------------------------------------------------
# The actions array is read once (validated copy).


def test_vec_env_step_applies_only_validated_actions():
    n = 2048
    core = _core.VecEnvCore("crazy_eights", n, num_players=2, self_play=True, num_threads=2)
    core.reset(3)
    actions = np.zeros(n, dtype=np.int64)
    stop = threading.Event()
    rng = np.random.default_rng(0)
    junk = rng.integers(0, 197, size=n).astype(np.int64)

    def scribble() -> None:
        while not stop.is_set():
            actions[:] = junk  # legal ids of other games, mostly illegal here

    t = threading.Thread(target=scribble, daemon=True)
    t.start()
    steps = 0
    try:
        deadline = time.perf_counter() + 2.0
        while time.perf_counter() < deadline:
            good = core.random_actions().copy()
            actions[:] = good
            try:
                core.step(actions)
                steps += 1
            except ValueError:
                pass  # the scribbler was faster: refused, nothing changed
    finally:
        stop.set()
        t.join()
    deck = 52
    for i in range(0, n, 7):
        g = eights.Game.from_dict(core.game_dict(i))
        assert sum(g.hand_sizes) + g.stock_size + g.discard_size == deck, i


# --------------------------------------------------------------------------------------
# Rules: ranges and conversion errors name the field.


@pytest.mark.parametrize(
    "series, field",
    [
        ({"target": 2**31}, "series.target"),
        ({"target": 2**32 - 1}, "series.target"),
        ({"target": None, "target_per_player": 2**30}, "series.target_per_player"),
    ],
)
def test_match_target_out_of_range(series, field):
    with pytest.raises(eights.RulesError, match=field.replace(".", r"\.")):
        eights.Game("crazy_eights", 4, rules={"series": {"match": True, **series}})


def test_large_match_target_is_not_reached_after_one_hand():
    g = eights.Game("crazy_eights", 2, seed=0, rules={"series": {"match": True, "target": 1_000_000}})
    rng = np.random.default_rng(0)
    while g.hands_played == 0 and g.legal_actions():
        g.step(int(rng.choice(g.legal_actions())))
    assert g.hands_played == 1
    assert not g.is_terminal


@pytest.mark.parametrize(
    "rules, field",
    [
        ({"deal": {"hand_size": float("nan")}}, "deal.hand_size"),
        ({"deal": {"hand_size": float("inf")}}, "deal.hand_size"),
        ({"deal": {"hand_size": 2**70}}, "deal.hand_size"),
        ({"score": {"winner_bonus": float("nan")}}, "score.winner_bonus"),
        ({"limits": {"max_decisions": -1}}, "limits.max_decisions"),
    ],
)
def test_rule_values_out_of_range_name_the_field(rules, field):
    with pytest.raises(eights.RulesError, match=field.replace(".", r"\.")):
        eights.Game("crazy_eights", 2, rules=rules)


def test_toml_date_names_the_field():
    text = 'inherits = "crazy_eights"\n[deal]\nhand_size = 1979-05-27\n'
    with pytest.raises(eights.RulesError, match=r"deal\.hand_size"):
        eights.Rules.from_toml(text)


def test_rule_override_date_names_the_field():
    import datetime

    with pytest.raises(eights.RulesError, match=r"deal\.hand_size"):
        eights.Game("crazy_eights", 2, rules={"deal": {"hand_size": datetime.date(1979, 5, 27)}})


def test_deeply_nested_rules_are_a_rules_error():
    deep: dict = {}
    cur = deep
    for _ in range(5000):
        cur["x"] = {}
        cur = cur["x"]
    with pytest.raises(eights.RulesError):
        eights.Game("crazy_eights", 2, rules=deep)
    text = "x = " + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(eights.RulesError):
        eights.Rules.from_toml(text)


@pytest.mark.parametrize(
    "key", ["a" + ".a" * 60_000 + " = 1", "[a" + ".a" * 60_000 + "]", "x = {a" + ".a" * 60_000 + " = 1}"]
)
def test_a_dotted_key_of_too_many_parts_is_refused_before_the_parser(key):
    # The TOML parser builds such a key's tables in quadratic time: 60,000 parts (120 KB) took
    # 37 s to be refused as too deep, and one 64 KB request held the web server 10 s.
    import time

    start = time.perf_counter()
    with pytest.raises(eights.RulesError, match="a key with more than 32 dotted parts"):
        eights.Rules.from_toml('inherits = "crazy_eights"\n' + key + "\n")
    assert time.perf_counter() - start < 2.0  # far from the parser's tens of seconds


def test_dots_in_strings_comments_and_numbers_are_no_key_parts():
    many = ".".join("abcdefghijklmnopqrstuvwxyz0123456789")  # 35 dots
    text = "\n".join(
        [
            'inherits = "crazy_eights"',
            f"# {many}",
            f'description = "{many} \\" {many}"',
            f"title = '{many}'",
            f'source = """{many}\n{many}"""',
            "[deal]",
            "hand_size = 5  # " + many,
        ]
    )
    rules = eights.Rules.from_toml(text)
    assert rules.to_dict()["deal"]["hand_size"] == 5 and rules.to_dict()["title"] == many


@pytest.mark.parametrize(
    "field, values, allowed",
    [
        ("deck.packs", [-1, 0, 5, 300], "a whole number from 1 to 4"),
        ("deck.packs_by_players.6", [-1, 0, 5], "a whole number from 1 to 4"),
        ("deck.jokers", [-1, 1, 3], "0 or 2 (jokers per pack)"),
        ("deal.hand_size", [-3, 0, 256], "a whole number from 1 to 255 (and the deal must fit the deck)"),
        ("players.max", [1, 11, 300], "a whole number from 2 to 10"),
        ("series.target", [-5, 0, 10**6 + 1, 10**7, 2**32], "a whole number from 1 to 1,000,000"),
        ("score.values.A", [-10_001, 10_001, 2**31], "a whole number from -10,000 to 10,000 (card points)"),
        ("score.winner_bonus", [-(10**6) - 1, 10**6 + 1, 2**31], "a whole number from -1,000,000 to 1,000,000"),
        ("limits.max_decisions", [-1, 10**7 + 1, 2**32], "a whole number from 0 to 10,000,000 (0: no cap)"),
    ],
)
def test_a_rules_field_is_given_one_range_whatever_refuses_the_value(field, values, allowed):
    # A value the field's type cannot hold was refused with the type's range (deck.packs = -1:
    # "from 0 to 255"), one it can hold with another ("must be 1 to 4"); series.target had three.
    for value in values:
        rules = value
        for key in reversed(field.split(".")):
            rules = {key: rules}
        with pytest.raises(eights.RulesError) as refused:
            eights.Rules("crazy_eights", rules)
        message = str(refused.value)
        assert message.startswith(f"invalid rules field '{field}': "), message
        assert message.endswith((f"expected {allowed}", f"must be {allowed}, got {value:,}")), message


@pytest.mark.parametrize(
    "rules, field",
    [
        ({"score": {"values": {"A": 2**31}}}, "score.values"),
        ({"score": {"winner_bonus": 2**31}}, "score.winner_bonus"),
        ({"score": {"winner_bonus": 10**9}}, "score.winner_bonus"),
        ({"score": {"values": {"A": 10**9}}}, "score.values"),
    ],
)
def test_score_values_that_could_overflow_are_refused(rules, field):
    with pytest.raises(eights.RulesError, match=field.replace(".", r"\.")):
        eights.Game("crazy_eights", 2, rules=rules)


# --------------------------------------------------------------------------------------
# Integer arguments: ValueError naming the argument and the range; bools refused.

OUT_OF_RANGE = [
    ("Game(seed=-1)", lambda: eights.Game("crazy_eights", 2, seed=-1), "seed"),
    ("Game(seed=2**64)", lambda: eights.Game("crazy_eights", 2, seed=2**64), "seed"),
    ("Game(num_players=2**70)", lambda: eights.Game("crazy_eights", 2**70), "num_players"),
    ("make(seed=2**64)", lambda: eights.make("crazy_eights", seed=2**64), "seed"),
    ("make(seed=-1)", lambda: eights.make("crazy_eights", seed=-1), "seed"),
    ("make(num_players=2**70)", lambda: eights.make("crazy_eights", num_players=2**70), "num_players"),
    ("make(learner_seat=2**70)", lambda: eights.make("crazy_eights", learner_seat=2**70), "learner_seat"),
    ("hand(2**70)", lambda: eights.Game("crazy_eights", 2, seed=0).hand(2**70), "player"),
    ("observation(-1)", lambda: eights.Game("crazy_eights", 2, seed=0).observation(-1), "player"),
    ("reset(seed=-1)", lambda: eights.Game("crazy_eights", 2, seed=0).reset(seed=-1), "seed"),
    ("reset(seed=2**64)", lambda: eights.Game("crazy_eights", 2, seed=0).reset(seed=2**64), "seed"),
    ("action_to_string(2**70)", lambda: eights.Game("crazy_eights", 2, seed=0).action_to_string(2**70), "action"),
    ("VecEnv(num_envs=2**70)", lambda: eights.VecEnv("crazy_eights", 2**70), "num_envs"),
    ("VecEnv(num_envs=0)", lambda: eights.VecEnv("crazy_eights", 0), "num_envs"),
    ("VecEnv(num_threads=2**70)", lambda: eights.VecEnv("crazy_eights", 2, num_threads=2**70), "num_threads"),
    ("VecEnvCore(num_envs=2**70)", lambda: _core.VecEnvCore("crazy_eights", 2**70), "num_envs"),
    ("VecEnvCore(learner_seat=2**70)", lambda: _core.VecEnvCore("crazy_eights", 2, learner_seat=2**70), "learner_seat"),
    ("VecEnvCore.reset(-1)", lambda: _core.VecEnvCore("crazy_eights", 2).reset(-1), "seed"),
    ("VecEnvCore.game_dict(-1)", lambda: _core.VecEnvCore("crazy_eights", 2).game_dict(-1), "env"),
    ("VecEnvCore.game_dict(2**70)", lambda: _core.VecEnvCore("crazy_eights", 2).game_dict(2**70), "env"),
    ("random_selfplay(games=2**64)", lambda: eights.random_selfplay("crazy_eights", games=2**64), "games"),
    ("random_selfplay(games=-1)", lambda: eights.random_selfplay("crazy_eights", games=-1), "games"),
    ("random_selfplay(seed=-1)", lambda: eights.random_selfplay("crazy_eights", games=1, seed=-1), "seed"),
    ("RandomBot(seed=-1)", lambda: eights.RandomBot(seed=-1), "seed"),
    ("Bot(seed=2**64)", lambda: eights.Bot("random", seed=2**64), "seed"),
    ("determinize(player=2**70)", lambda: _core.determinize(eights.Game("crazy_eights", 2, seed=0), 2**70), "player"),
    ("determinize(seed=-1)", lambda: _core.determinize(eights.Game("crazy_eights", 2, seed=0), 0, seed=-1), "seed"),
    ("derive_seed(-1, 0)", lambda: _core.derive_seed(-1, 0), "seed"),
    ("episode_seed(0, -1, 0)", lambda: _core.episode_seed(0, -1, 0), "i"),
    ("arena_agent_at(0, 0, 0)", lambda: _core.arena_agent_at(0, 0, 0), "n"),
    ("arena_agent_at(-1, 0, 2)", lambda: _core.arena_agent_at(-1, 0, 2), "seat"),
    ("arena_bot_seed(0, 0, 2**70, 0)", lambda: _core.arena_bot_seed(0, 0, 2**70, 0), "rotation"),
    (
        "arena_play(threads=2**70)",
        lambda: _core.arena_play("crazy_eights", 2, ["random", "random"], threads=2**70),
        "threads",
    ),
    (
        "arena_play(start+count)",
        lambda: _core.arena_play("crazy_eights", 2, ["random", "random"], start=2**64 - 1, count=2),
        "start",
    ),
    ("arena.play(games=2**70)", lambda: eights.arena.play(["random", "random"], games=2**70), "games"),
    ("arena.play(seed=2**64)", lambda: eights.arena.play(["random", "random"], games=1, seed=2**64), "seed"),
    ("Rules.validate(2**70)", lambda: eights.Rules("crazy_eights").validate(2**70), "num_players"),
    ("game_from_spec(seed=-1)", lambda: eights.Rules("crazy_eights").game(2, seed=-1), "seed"),
]


@pytest.mark.parametrize("label, call, name", OUT_OF_RANGE, ids=[x[0] for x in OUT_OF_RANGE])
def test_integer_out_of_range_is_a_value_error_naming_it(label, call, name):
    with pytest.raises(ValueError) as info:
        call()
    assert is_plain_value_error(info.value), f"{label}: {type(info.value).__name__}: {info.value}"
    assert name in str(info.value), f"{label}: {info.value}"


@pytest.mark.skipif(not LINUX, reason="uses RLIMIT_AS")
@pytest.mark.parametrize(
    "call",
    [
        "eights.VecEnv('crazy_eights', 2, num_threads=10**6)",
        "_core.VecEnvCore('crazy_eights', 2, num_threads=10**6)",
        "_core.arena_play('crazy_eights', 2, ['random', 'random'], threads=10**6)",
        "eights.arena.play(['random', 'random'], games=1, threads=10**6)",
    ],
)
def test_huge_thread_counts_are_refused_before_starting_threads(call):
    # In a subprocess with limited memory: starting a million threads must not be tried.
    r = run_python(
        f"""
        import resource
        import eights
        from eights import _core

        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (mapped + 2**30, resource.RLIM_INFINITY))
        try:
            {call}
        except ValueError as e:
            print("ValueError:", e)
        """
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "ValueError:" in r.stdout and "threads" in r.stdout, r.stdout


BOOLS = [
    ("Game(num_players=True)", lambda: eights.Game("crazy_eights", True), "num_players"),
    ("Game(seed=True)", lambda: eights.Game("crazy_eights", 2, seed=True), "seed"),
    ("hand(True)", lambda: eights.Game("crazy_eights", 2, seed=0).hand(True), "player"),
    ("observation(False)", lambda: eights.Game("crazy_eights", 2, seed=0).observation(False), "player"),
    ("reset(seed=True)", lambda: eights.Game("crazy_eights", 2, seed=0).reset(seed=True), "seed"),
    ("make(num_players=True)", lambda: eights.make("crazy_eights", num_players=True), "num_players"),
    ("make(seed=True)", lambda: eights.make("crazy_eights", seed=True), "seed"),
    ("VecEnv(num_envs=True)", lambda: eights.VecEnv("crazy_eights", True), "num_envs"),
    ("VecEnv(seed=True)", lambda: eights.VecEnv("crazy_eights", 2, seed=True), "seed"),
    ("VecEnvCore(num_envs=True)", lambda: _core.VecEnvCore("crazy_eights", True), "num_envs"),
    ("VecEnvCore.reset(True)", lambda: _core.VecEnvCore("crazy_eights", 2).reset(True), "seed"),
    ("random_selfplay(games=True)", lambda: eights.random_selfplay("crazy_eights", games=True), "games"),
    ("RandomBot(seed=True)", lambda: eights.RandomBot(seed=True), "seed"),
    ("Bot(seed=True)", lambda: eights.Bot("random", seed=True), "seed"),
    ("arena.play(games=True)", lambda: eights.arena.play(["random", "random"], games=True), "games"),
    (
        "arena_play(threads=True)",
        lambda: _core.arena_play("crazy_eights", 2, ["random", "random"], threads=True),
        "threads",
    ),
    ("Rules.game(seed=True)", lambda: eights.Rules("crazy_eights").game(2, seed=True), "seed"),
]


@pytest.mark.parametrize("label, call, name", BOOLS, ids=[x[0] for x in BOOLS])
def test_bools_are_refused_where_an_int_is_meant(label, call, name):
    with pytest.raises(TypeError) as info:
        call()
    assert name in str(info.value), f"{label}: {info.value}"


def test_pettingzoo_refuses_bools_and_out_of_range_seeds():
    pz = pytest.importorskip("eights.envs.pettingzoo")
    with pytest.raises(TypeError, match="num_players"):
        pz.raw_env("crazy_eights", num_players=True)
    env = pz.raw_env("crazy_eights")
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed=True)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=2**64)


# --------------------------------------------------------------------------------------
# Failed calls leave the object exactly as it was.


def test_failed_env_reset_with_a_bad_deck_changes_nothing():
    env = eights.make("crazy_eights", num_players=2, seed=0)
    env.reset(seed=1)
    before = (env.game.to_dict(), env.np_random.bit_generator.state, dict(env._opponents), env._started)
    with pytest.raises(ValueError):
        env.reset(seed=5, options={"deck": ["8H", "8H"]})
    with pytest.raises(ValueError):
        env.reset(options={"deck": ["ZZ"]})
    after = (env.game.to_dict(), env.np_random.bit_generator.state, dict(env._opponents), env._started)
    assert after == before


def test_failed_env_reset_with_a_bad_seed_changes_nothing():
    env = eights.make("crazy_eights", num_players=2, seed=0)
    env.reset(seed=1)
    before = (env.game.to_dict(), env.np_random.bit_generator.state)
    for bad in (-1, 2**64, True, 1.5):
        with pytest.raises((TypeError, ValueError)):
            env.reset(seed=bad)
    assert (env.game.to_dict(), env.np_random.bit_generator.state) == before


def test_failed_pettingzoo_reset_with_a_bad_deck_changes_nothing():
    pz = pytest.importorskip("eights.envs.pettingzoo")
    env = pz.raw_env("crazy_eights")
    env.reset(seed=1)
    env.step(env.game.legal_actions()[0])
    before = (env.game.to_dict(), env._np_random.bit_generator.state, env.agent_selection, env._decisions)
    with pytest.raises(ValueError):
        env.reset(seed=5, options={"deck": ["8H", "8H"]})
    after = (env.game.to_dict(), env._np_random.bit_generator.state, env.agent_selection, env._decisions)
    assert after == before


def test_failed_game_calls_change_nothing():
    g = eights.Game("switch_blackjack", 3, seed=4)
    before = g.to_dict()
    illegal = next(a for a in range(g.num_actions) if a not in g.legal_actions())
    for bad in (illegal, -1, 10**30, "play ZZ", 1.5, True, None):
        with pytest.raises((ValueError, TypeError)):
            g.step(bad)
    with pytest.raises(ValueError):
        g.reset(seed=1, deck=["8H", "8H"])
    with pytest.raises(ValueError):
        g.reset(seed=-1)
    assert g.to_dict() == before


def test_failed_env_step_changes_nothing():
    env = eights.make("crazy_eights", num_players=2, seed=0, illegal_action="raise")
    env.reset(seed=1)
    before = (env.game.to_dict(), env.np_random.bit_generator.state, list(env.history))
    illegal = next(a for a in range(env.game.num_actions) if a not in env.game.legal_actions())
    for bad in (illegal, -1, 2**70, True, "draw", np.zeros(2, dtype=np.int64)):
        with pytest.raises((ValueError, TypeError)):
            env.step(bad)
    assert (env.game.to_dict(), env.np_random.bit_generator.state, list(env.history)) == before


def test_failed_vec_env_calls_change_nothing():
    env = eights.VecEnv("crazy_eights", 8, self_play=True, seed=0)
    env.reset(seed=2)
    snap = lambda: (  # noqa: E731
        [env._core.game_dict(i) for i in range(8)],
        env._core.observations.copy(),
        env._core.action_masks.copy(),
        env._core.rewards.copy(),
        env.np_random.bit_generator.state,
    )
    before = snap()
    mask = env.action_masks()
    illegal = np.array([np.flatnonzero(~m)[0] for m in mask], dtype=np.int64)
    for bad in (illegal, np.full(8, -1), np.full(8, 2**40), np.zeros(3, dtype=np.int64), np.zeros(8) + 0.5):
        with pytest.raises((ValueError, TypeError)):
            env.step(bad)
    for seed in (-1, 2**64, True):
        with pytest.raises((ValueError, TypeError)):
            env.reset(seed=seed)
    after = snap()
    assert after[0] == before[0] and after[4] == before[4]
    for a, b in zip(after[1:4], before[1:4]):
        np.testing.assert_array_equal(a, b)


def test_failed_pettingzoo_step_changes_nothing():
    pz = pytest.importorskip("eights.envs.pettingzoo")
    env = pz.raw_env("crazy_eights")
    env.reset(seed=3)
    before = (env.game.to_dict(), env.agent_selection, dict(env.rewards), env._decisions)
    illegal = next(a for a in range(197) if a not in env.game.legal_actions())
    for bad in (illegal, -1, 2**70, True):
        with pytest.raises((ValueError, TypeError)):
            env.step(bad)
    assert (env.game.to_dict(), env.agent_selection, dict(env.rewards), env._decisions) == before


# --------------------------------------------------------------------------------------
# Clear errors.


@pytest.mark.parametrize("make", ["raw_env", "env"])
@pytest.mark.parametrize("method", ["step", "observe", "last"])
def test_pettingzoo_before_reset_is_a_clear_error(method, make):
    # The wrapped env() let PettingZoo's AssertionError ("reset() needs to be called before
    # step.") and AttributeError (last(): "agent_selection cannot be accessed before reset") through.
    pz = pytest.importorskip("eights.envs.pettingzoo")
    env = getattr(pz, make)("crazy_eights")
    call = {"step": lambda: env.step(0), "observe": lambda: env.observe("player_0"), "last": lambda: env.last()}
    with pytest.raises(RuntimeError, match=rf"^call reset\(\) before {method}\(\)$"):
        call[method]()


def test_vec_env_random_actions_before_reset_is_a_clear_error():
    # It returned zeros (action 0, "play AC", illegal) where step() and the bot queries said
    # to call reset() first.
    env = eights.VecEnv("crazy_eights", 2)
    with pytest.raises(RuntimeError, match=r"^call reset\(\) before random_actions\(\)$"):
        env.random_actions()
    env.reset(seed=0)
    assert env.action_masks()[np.arange(2), env.random_actions()].all()


@pytest.mark.parametrize(
    "args",
    [
        ["selfplay", "--games", "1", "--seed", "18446744073709551616", "--python-loop", "0"],
        ["selfplay", "--games", "18446744073709551616", "--python-loop", "0"],
        ["selfplay", "--games", "1", "--players", "100000000000000000000", "--python-loop", "0"],
        ["arena", "--agents", "random,random", "--games", "1", "--seed", "-1"],
        ["arena", "--agents", "random,random", "--games", "1", "--threads", "100000000"],
        ["soak", "--seconds", "nan"],
    ],
)
def test_cli_out_of_range_numbers_exit_2_without_traceback(args):
    r = run_cli(*args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert "error" in r.stderr


def test_cli_arena_plot_into_a_missing_folder_fails_before_playing(tmp_path):
    start = time.perf_counter()
    r = run_cli(
        "arena",
        "--agents",
        "random,heuristic",
        "--games",
        "5000",
        "--no-progress",
        "--plot",
        str(tmp_path / "missing_dir" / "x.png"),
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert "missing_dir" in r.stderr
    assert "rating" not in r.stdout.lower()  # the tournament did not run
    assert time.perf_counter() - start < 30


# --------------------------------------------------------------------------------------
# The soak command.


def test_soak_command_runs_and_reports():
    r = run_cli("soak", "--seconds", "0.001", "--presets", "crazy_eights,switch_blackjack", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    import json

    res = json.loads(r.stdout)
    assert res["violations"] == 0
    assert res["rounds"] == 1
    assert min(res["decisions"].values()) > 0
    assert res["rss_end"] > 0
    assert res["table_sizes"] >= 2 + 6  # crazy_eights 2..7 at least, switch_blackjack 2+


def test_soak_reports_a_broken_invariant(monkeypatch):
    from eights.diagnostics import soak

    counter = iter(range(10**9))
    monkeypatch.setattr(soak, "_cards_in_play", lambda g: next(counter))
    res = soak.soak(0.001, presets=["crazy_eights"])
    assert res["violations"] > 0
    assert any("not conserved" in f for f in res["failures"])


def test_pickle_round_trip_still_works():
    g = eights.Game("crazy_eights_xtreme", 3, seed=2)
    for _ in range(10):
        g.step(g.legal_actions()[0])
    assert pickle.loads(pickle.dumps(g)).to_dict() == g.to_dict()
    assert copy.deepcopy(g).to_dict() == g.to_dict()


# --------------------------------------------------------------------------------------
# numpy results: a failed allocation is MemoryError, never a panic or an abort.


def test_result_arrays_report_a_failed_allocation_as_memory_error():
    # numpy.zeros replaced before the bindings first use it: every result array the bindings
    # allocate through it (those sized by the caller or the game) must surface its
    # MemoryError (rust-numpy's own constructors would panic). The per-decision arrays go
    # through numpy's C API instead; the test below exhausts memory for those.
    r = run_python(
        """
        import numpy, eights
        from eights import _core
        g = eights.Game("crazy_eights", 2, seed=1)
        env = _core.VecEnvCore("crazy_eights", 4)
        env.reset(0)
        real = numpy.zeros
        def boom(*args, **kwargs):
            raise MemoryError("numpy could not allocate")
        numpy.zeros = boom
        calls = {
            "rules_features": lambda: g.rules_features(),
            "arena_play": lambda: _core.arena_play("crazy_eights", 2, ["random", "random"], count=2),
            "bot_actions": lambda: env.bot_actions("random", numpy.arange(4, dtype=numpy.int64)),
            "VecEnvCore": lambda: _core.VecEnvCore("crazy_eights", 4),
        }
        for name, call in calls.items():
            try:
                call()
            except MemoryError:
                print(name, "MemoryError")
            except BaseException as e:
                print(name, type(e).__name__, e)
        numpy.zeros = real
        assert g.observation(0).shape == (g.observation_size,)
        print("after", int(g.action_mask().sum()) == len(g.legal_actions()))
        """
    )
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.split("\n")
    for name in ("rules_features", "arena_play", "bot_actions", "VecEnvCore"):
        assert f"{name} MemoryError" in lines, r.stdout + r.stderr
    assert "after True" in lines


@pytest.mark.skipif(not LINUX, reason="uses RLIMIT_AS and /proc")
@pytest.mark.parametrize("headroom_mib", [1, 16, 32, 48, 64])
def test_per_decision_arrays_under_memory_exhaustion_raise_memory_error(headroom_mib):
    # Address space capped just above what is mapped, then observations, masks and returns
    # kept alive until memory runs out: the end must be a MemoryError (whichever allocation
    # fails first), never a PanicException from a null array pointer or an abort. Which
    # allocation fails first depends on the headroom, so several are tried: with 32 MiB a
    # 3-byte Rust copy of the type name "int" (made while checking the seat argument) used to
    # be the one, and the process aborted.
    r = run_python(
        f"""
        import resource
        import eights
        headroom = {headroom_mib} * 2**20
        g = eights.Game("crazy_eights", 2, seed=1)
        keep = []
        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (mapped + headroom, resource.RLIM_INFINITY))
        try:
            for _ in range(10**7):
                keep.append(g.observation(0))
                keep.append(g.action_mask())
                keep.append(g.returns())
        except MemoryError:
            n = len(keep)
            keep.clear()
            print("MemoryError after", n)
        """
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "MemoryError after" in r.stdout, r.stdout + r.stderr


def test_result_arrays_hold_the_values():
    g = eights.Game("crazy_eights", 3, seed=4)
    mask = g.action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
    assert list(np.flatnonzero(mask)) == g.legal_actions()
    feats = g.rules_features()
    assert feats.dtype == np.float32 and feats.shape == (54, len(g.rules_feature_names()))
    res = _core.arena_play("crazy_eights", 3, ["random", "heuristic", "random"], count=2, seed=3)
    assert res["hand_points"].shape == (6, 3) and res["score_returns"].shape == (6, 3)
    assert res["deal"].tolist() == [0, 0, 0, 1, 1, 1]
    assert np.allclose(res["score_returns"].sum(axis=1), 0)


# --------------------------------------------------------------------------------------
# The fast soak (soak --decisions N).


def test_fast_soak_runs_clean_and_is_deterministic_across_thread_counts():
    from eights.diagnostics import soak

    a = soak.fast_soak(20_000, seed=3, presets=["crazy_eights", "stalin"], num_threads=1, full_every=50)
    b = soak.fast_soak(20_000, seed=3, presets=["crazy_eights", "stalin"], num_threads=2, full_every=50)
    assert a["violations"] == 0, a["failures"]
    assert a["decisions"] >= 20_000
    assert a["observations_checked"] > 0.9 * a["decisions"] - a["games"]
    assert a["full_checks"] >= 2 * a["games"]
    for k in ("games", "decisions", "truncated", "observations_checked", "full_checks"):
        assert a[k] == b[k], k


def test_fast_soak_checks_the_declared_bounds():
    # Bounds that no observation meets: the first checked decision is a violation.
    low = [5.0] * eights.OBS_SIZE
    runner = _core.FastSoak([("crazy_eights", 2, low, [6.0] * eights.OBS_SIZE)], seed=1)
    res = runner.run(0, 3)
    assert res["violations"] == 3 and "outside" in res["failures"][0]


def test_fast_soak_arguments_are_checked():
    with pytest.raises(ValueError, match="obs_every"):
        _core.FastSoak([("crazy_eights", 2, None, None)], obs_every=0)
    with pytest.raises(TypeError, match="full_every"):
        _core.FastSoak([("crazy_eights", 2, None, None)], full_every=True)
    with pytest.raises(ValueError, match="low"):
        _core.FastSoak([("crazy_eights", 2, [0.0], None)])
    with pytest.raises(ValueError, match="num_players"):
        _core.FastSoak([("crazy_eights", 1, None, None)])
    with pytest.raises(ValueError, match="tables"):
        _core.FastSoak([])
    from eights.diagnostics import soak

    with pytest.raises(ValueError, match="decisions"):
        soak.fast_soak(-1)


def test_soak_command_fast_mode():
    r = run_cli("soak", "--decisions", "5000", "--presets", "crazy_eights", "--full-every", "100", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    import json

    res = json.loads(r.stdout)
    assert res["mode"] == "fast" and res["violations"] == 0 and res["decisions"] >= 5000
    assert res["tables"] >= 6
    bad = run_cli("soak", "--decisions", "-5")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
