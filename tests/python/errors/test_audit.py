"""The audit of the public entry points against bad input (docs/robustness.md, "Bad input, entry
point by entry point"): one case per row of its table, each calling the entry point with the
row's bad value and checking the exception type and the message the row quotes. The table names
these cases by id (``test_audit.py::test_bad_argument[<id>]``); ``test_robustness_table``
checks that every id the table names is here and that every case here is in the table."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import eights
from eights import arena
from eights.cli import main

NAN = float("nan")


def _ended_record_with_one_more() -> dict:
    """The record of a finished hand with one more action after its end."""
    g = eights.Game("crazy_eights", 2, seed=3)
    while not g.is_terminal:
        g.step(g.legal_actions()[0])
    record = g.record()
    return dict(record, actions=[*record["actions"], [0, 58]])


def _game():
    return eights.Game("crazy_eights", 2, seed=1)


def _position(**changes):
    position = dict(hands=[["5H"], ["6H"]], discard=["5C"])
    return eights.Game.from_position("crazy_eights", 2, **{**position, **changes})


def _finished():
    g = _game()
    while not g.is_terminal:
        g.step(g.legal_actions()[0])
    return g


def _vec(**kw):
    return eights.VecEnv(**{"preset": "crazy_eights", "num_envs": 2, **kw})


def _reset(env):
    env.reset()
    return env


def _with_jacks_wild():
    """Rules with a variant applied, resolved (as `Rules.to_dict` writes them)."""
    return eights.Rules.from_dict(eights.Rules("crazy_eights", variants=["jacks_wild"]).to_dict())


def _state_with_variants(variants):
    """A `Game.to_dict` state under `jacks_wild` whose rules list `variants` instead."""
    state = eights.Game(_with_jacks_wild(), 2, seed=0).to_dict()
    state["rules"]["variants"] = variants
    return state


def _make(**kw):
    return eights.make(**{"preset": "crazy_eights", **kw})


def _evaluate(**kw):
    return arena.evaluate(**{"agent": "random", "games": 1, "bootstrap": 100, **kw})


def _tournament(**kw):
    return arena.tournament(**{"agents": ["random", "heuristic"], "games": 1, "bootstrap": 100, **kw})


def _generalize(**kw):
    from eights.generalization import evaluate

    return evaluate(**{"agent": "random", "split": "heldout_presets", "games": 1, **kw})


#: id -> (call, exception type, regex the message matches).
CASES = {
    # eights.make
    "make-preset-type": (lambda: _make(preset=5), TypeError, "preset must be a preset name"),
    "make-preset-unknown": (lambda: _make(preset="nope"), ValueError, 'unknown preset "nope"; available presets'),
    "make-num_players-range": (lambda: _make(num_players=1), ValueError, r"num_players must be in \[2, 10\]"),
    "make-num_players-type": (lambda: _make(num_players="2"), TypeError, "num_players must be an integer"),
    "make-opponents-unknown": (lambda: _make(opponents="nope"), ValueError, 'opponent for seat 1: unknown bot "nope"'),
    "make-opponents-count": (lambda: _make(opponents=[]), ValueError, "opponents must have one entry per other seat"),
    "make-opponents-type": (lambda: _make(opponents=5), TypeError, "opponent for seat 1 must be"),
    "make-seed": (lambda: _make(seed=-1), ValueError, r"seed must be in \[0, 2\*\*64\)"),
    "make-reward": (lambda: _make(reward="x"), ValueError, "unknown reward 'x'; allowed: 'win_loss', 'score'"),
    "make-learner_seat": (lambda: _make(learner_seat=2), ValueError, r"learner_seat must be in \[0, 1\]"),
    "make-render_mode": (lambda: _make(render_mode="x"), ValueError, "unknown render_mode 'x'; allowed"),
    "make-illegal_action": (lambda: _make(illegal_action="x"), ValueError, "unknown illegal_action 'x'; allowed"),
    "make-illegal_reward": (lambda: _make(illegal_reward=NAN), ValueError, "illegal_reward must be a finite number"),
    "make-scale_obs": (lambda: _make(scale_obs="yes"), TypeError, "scale_obs must be True or False"),
    "make-obs_rules": (lambda: _make(obs_rules=1), TypeError, "obs_rules must be True or False"),
    "make-record_dir": (lambda: _make(record_dir=5), TypeError, "record_dir must be a directory path or None"),
    "make-rules-field": (lambda: _make(bogus=3), eights.RulesError, "invalid rules field 'bogus'"),
    "make-rules-value": (lambda: _make(deal={"hand_size": "x"}), eights.RulesError, "'deal.hand_size'"),
    # A str that is no text (a lone surrogate) was a TypeError "must be a string".
    "make-opponents-surrogate": (
        lambda: _make(opponents="\udcff"),
        ValueError,
        r"opponent for seat 1: a bot name must be a string .*, got '\\udcff', which is not valid text",
    ),
    # The whole million characters were echoed.
    "make-opponents-huge": (
        lambda: _make(opponents="x" * 10**6),
        ValueError,
        r'opponent for seat 1: unknown bot "x{60}"\.\.\. \(1,000,000 characters\); allowed bots',
    ),
    # eights.VecEnv
    "vec-num_envs": (lambda: _vec(num_envs=0), ValueError, r"num_envs must be in \[1, 1048576\]"),
    "vec-num_envs-type": (lambda: _vec(num_envs=2.0), TypeError, "num_envs must be an integer"),
    "vec-learner_seat": (lambda: _vec(learner_seat=5), ValueError, "learner_seat must be in"),
    "vec-num_threads": (lambda: _vec(num_threads=-1), ValueError, r"num_threads must be in \[0, 1024\]"),
    # range(2**31) seats were built before the range check: gigabytes, then the OOM killer.
    "vec-num_players-huge": (lambda: _vec(num_players=2**31), ValueError, r"num_players must be in \[2, 10\]"),
    "vec-autoreset": (lambda: _vec(autoreset="x"), ValueError, "autoreset must be one of"),
    "vec-reward": (lambda: _vec(reward="x"), ValueError, 'reward must be "win_loss" or "score"'),
    "vec-obs_dtype": (lambda: _vec(obs_dtype="float64"), ValueError, "obs_dtype must be one of"),
    # "'None' is not an instance of 'str'", naming no argument.
    "vec-reward-none": (
        lambda: _vec(reward=None),
        TypeError,
        r'^reward must be "win_loss" or "score", got None \(type NoneType\)',
    ),
    # A raw UnicodeEncodeError, naming no argument.
    "vec-reward-surrogate": (
        lambda: _vec(reward="\udcff"),
        ValueError,
        r'^reward must be "win_loss" or "score", got \'\\udcff\', which is not valid text',
    ),
    "vec-bot_actions-surrogate": (
        lambda: _reset(_vec()).bot_actions("\udcff"),
        ValueError,
        r"^bot must be a built-in bot name \(str\) such as \"heuristic\", got '\\udcff', which is not valid text",
    ),
    # None was read by numpy as float64 and reported so; a list was "unhashable type".
    "vec-obs_dtype-none": (lambda: _vec(obs_dtype=None), ValueError, r"obs_dtype must be one of .*, got None"),
    "vec-autoreset-list": (lambda: _vec(autoreset=["x"]), ValueError, r"autoreset must be one of .*, got \['x'\]"),
    "vec-self_play": (lambda: _vec(self_play="yes"), TypeError, "self_play must be True or False"),
    "vec-copy": (lambda: _vec(copy=1), TypeError, "copy must be True or False"),
    "vec-rules-type": (lambda: _vec(rules=[]), TypeError, "rules must be a dict of rule overrides"),
    "vec-opponents-type": (lambda: _vec(opponents=None), TypeError, "opponent for seat 1 must be"),
    "vec-opponents-count": (lambda: _vec(opponents=["random", "random"]), ValueError, "one entry per other seat"),
    "vec-bot_actions-seed": (
        lambda: _reset(_vec()).bot_actions("net", seed=-1),
        ValueError,
        r"seed must be in \[0, 2\*\*64\)",
    ),
    # The int64 cast wrapped a uint64 row above 2**63 to a negative one in the message.
    "vec-bot_actions-row-uint64": (
        lambda: _reset(_vec()).bot_actions("heuristic", np.array([2**63 + 5], dtype=np.uint64)),
        ValueError,
        r"^row 9223372036854775813 is out of range: rows are in \[0, ",
    ),
    "vec-bot_actions-seed-bot": (
        lambda: _reset(_vec()).bot_actions("heuristic", seed=1),
        ValueError,
        r"^seed is for the card network's sampled moves \(net, or its files\), and heuristic has none: leave seed out$",
    ),
    # eights.Game
    "game-preset": (lambda: eights.Game("nope"), ValueError, 'unknown preset "nope"'),
    "game-num_players-bool": (lambda: eights.Game("crazy_eights", True), TypeError, "num_players must be an integer"),
    "game-seed-type": (lambda: eights.Game("crazy_eights", 2, "1"), TypeError, "seed must be an integer"),
    "game-rules-type": (lambda: eights.Game("crazy_eights", 2, None, []), TypeError, "rules must be a dict"),
    "game-step-range": (lambda: _game().step(10**6), eights.IllegalActionError, "action id 1000000 is out of range"),
    # Only "action id out of range" before, without the id or the range.
    "game-step-huge": (
        lambda: _game().step(2**63),
        eights.IllegalActionError,
        r"action id 9223372036854775808 is out of range: ids are in \[0, 196\]",
    ),
    "game-step-type": (lambda: _game().step(1.0), TypeError, "action must be an int id"),
    # numpy's own "only integer scalar arrays can be converted to a scalar index" before.
    "game-step-array": (
        lambda: _game().step(np.array([58])),
        TypeError,
        "action must be an int id .* got ndarray",
    ),
    "game-step-string": (lambda: _game().step("xx"), eights.IllegalActionError, 'unknown action string "xx"'),
    # The million characters were echoed in the message.
    "game-step-string-huge": (
        lambda: _game().step("w" * 10**6),
        eights.IllegalActionError,
        r'^unknown action string "w{60}"\.\.\. \(1,000,000 characters\); legal actions now: ',
    ),
    # A raw UnicodeEncodeError, naming no argument.
    "game-step-surrogate": (
        lambda: _game().step("\udcff"),
        ValueError,
        r"^action must be an int id or an action string such as \"play 8H\", got '\\udcff', which is not valid text",
    ),
    # (A name that is not valid text may still name a file, as eights.make reads it: an
    # unknown preset here, as make says.)
    "game-preset-surrogate": (
        lambda: eights.Game("\udcff"),
        ValueError,
        r'^unknown preset "\\udcff"; available presets: .*\(preset must be a preset name \(str\), a path to a '
        r"\.toml file or an eights\.Rules",
    ),
    # The million characters were echoed in the message.
    "game-preset-huge": (
        lambda: eights.Game("x" * 10**6),
        ValueError,
        r'^unknown preset "x{60}"\.\.\. \(1,000,000 characters\); available presets: crazy_eights, ',
    ),
    # A NUL in a path gave os's "embedded null byte", naming no argument or file.
    "make-record_dir-nul": (
        lambda: _make(record_dir="a\0"),
        ValueError,
        r"^record_dir must be a folder's path \(valid text without NUL\), got 'a\\x00'$",
    ),
    "records-load-nul": (
        lambda: eights.records.load_record("a\0"),
        ValueError,
        r"^'a\\x00' is not a game record: a path cannot hold a NUL character$",
    ),
    "rules-from_toml-nul": (
        lambda: eights.Rules.from_toml("a\0.toml"),
        ValueError,
        r"^'a\\x00\.toml' cannot be a rules file: a path cannot hold a NUL character$",
    ),
    "make-preset-huge": (
        lambda: eights.make("x" * 10**6),
        ValueError,
        r'^unknown preset "x{60}"\.\.\. \(1,000,000 characters\); available presets: crazy_eights, ',
    ),
    "rules-with_variants-huge": (
        lambda: eights.Rules("crazy_eights").with_variants("z" * 10**6, *"abcdef"),
        eights.RulesError,
        r'unknown variant\(s\) "z{60}"\.\.\. \(1,000,000 characters\), "a", "b", "c", "d" and 2 more; these',
    ),
    # A TypeError "got ['\udcff'] (type list)", though a list it was.
    "game-reset-deck-surrogate": (
        lambda: _game().reset(deck=["\udcff"]),
        ValueError,
        r"^deck must be a list of cards .*, got \['\\udcff'\], where deck\[0\] is not valid text",
    ),
    "game-step-over": (lambda: _finished().step(0), eights.IllegalActionError, "the game is over; call reset"),
    "game-observation": (lambda: _game().observation(5), ValueError, r"player must be in \[0, 1\], got 5"),
    "game-reset-deck": (lambda: _game().reset(seed=1, deck=["XX"]), ValueError, '^deck: invalid card "XX"'),
    # The card's argument was not named ("invalid card ..." alone), nor which hand held it.
    "game-from_position-hand-card": (
        lambda: eights.Game.from_position("crazy_eights", 2, hands=[["8H"], ["ZZ"]], discard=["2C"]),
        ValueError,
        '^hands\\[1\\]: invalid card "ZZ"',
    ),
    "game-from_position-discard-card": (
        lambda: eights.Game.from_position("crazy_eights", 2, hands=[["8H"], ["2H"]], discard=["2Q"]),
        ValueError,
        '^discard: invalid card "2Q"',
    ),
    # The count stopped at the first copy past the deck's: "listed 2 times" for 200.
    "game-reset-deck-copies": (
        lambda: _game().reset(seed=1, deck=["8H"] * 200),
        ValueError,
        "8H listed 200 times but the deck holds 1",
    ),
    "game-from_position-copies": (
        lambda: eights.Game.from_position("crazy_eights", 10, hands=[["8H"]] * 10, discard=["2C"]),
        ValueError,
        "8H appears 10 times but the deck holds 2",
    ),
    # serde's message named no field ("invalid value: integer `-1`, expected u8").
    "game-from_dict-field": (
        lambda: eights.Game.from_dict({**_game().to_dict(), "current": -1}),
        ValueError,
        r"^invalid game state: current: invalid value: integer `-1`, expected u8$",
    ),
    "game-from_dict-type": (lambda: eights.Game.from_dict(5), TypeError, r"the state must be a dict"),
    "game-from_dict-rules": (
        lambda: eights.Game.from_dict({**_game().to_dict(), "rules": {}}),
        ValueError,
        "'rules' must be the complete rules",
    ),
    "game-from_record-type": (lambda: eights.Game.from_record(5), ValueError, "invalid game record: expected a dict"),
    # The values were read first: "integer 18446744073709551616 is out of range".
    "game-from_record-huge-int": (
        lambda: eights.Game.from_record(2**64),
        ValueError,
        "^invalid game record: expected a dict, got int$",
    ),
    # The record's field is 'players'; the message named the constructors' 'num_players' alone.
    "game-from_record-players": (
        lambda: eights.Game.from_record(dict(_game().record(), players=0)),
        ValueError,
        "^invalid game record: 'players': invalid rules field 'num_players'",
    ),
    # A value JSON cannot hold, in a record, was labelled a rules field.
    "game-from_record-int": (
        lambda: eights.Game.from_record(dict(_game().record(), actions=[[0, 2**70]])),
        ValueError,
        r"^invalid game record: 'actions\[0\]\[1\]': integer 1180591620717411303424 is out of range$",
    ),
    "game-from_record-type-inside": (
        lambda: eights.Game.from_record(dict(_game().record(), seed=object())),
        ValueError,
        r"^invalid game record: 'seed': unsupported type object",
    ),
    # One action past the end of the game named seat 255 as the seat to act.
    "game-from_record-past-the-end": (
        lambda: eights.Game.from_record(_ended_record_with_one_more()),
        ValueError,
        r"^invalid game record: action \d+ was taken by seat 0, but the game was over before it$",
    ),
    "game-from_record-negative-seed": (
        lambda: eights.Game.from_record(dict(_game().record(), seed=-5)),
        ValueError,
        r"^invalid game record: 'seed' must be an integer in \[0, 2\*\*64\)$",
    ),
    # A seat with no cards played on, drawing, in a hand that should have ended.
    "game-from_position-empty-hand": (
        lambda: eights.Game.from_position("crazy_eights", 2, hands=[["5H"], []], discard=["5C"]),
        ValueError,
        r"invalid position: hands\[1\]: seat 1 has no cards, but a seat that plays its last card goes out",
    ),
    # Arguments of the wrong type name the argument in the message, not only in a note.
    "game-from_position-hands-type": (
        lambda: _position(hands="5H 6H"),
        TypeError,
        r"hands must be a list of hands, one a player, each a list of cards such as \"8H\", got '5H 6H' \(type str\)",
    ),
    "game-from_position-cards-type": (lambda: _position(discard=5), TypeError, "discard must be a list of cards"),
    "game-from_position-stock-type": (
        lambda: _position(stock=[5]),
        TypeError,
        r"stock must be a list of cards .*, got \[5\]",
    ),
    "game-from_position-rogue-type": (lambda: _position(rogue="5H"), TypeError, "rogue must be a list of cards"),
    "game-from_position-suit-type": (lambda: _position(nominated_suit=1), TypeError, "nominated_suit must be a suit"),
    "game-from_position-wild_rank-type": (lambda: _position(wild_rank=7), TypeError, "wild_rank must be a rank"),
    # PyO3's "'int' object is not an instance of 'Sequence'" / "Can't extract `str` to `Vec`".
    "game-from_position-scores-type": (
        lambda: _position(scores=5),
        TypeError,
        r"^scores must be a list of integers, one per player \(the match scores\), or None, got 5 \(type int\)",
    ),
    "game-from_position-scores-str": (
        lambda: _position(scores="x"),
        TypeError,
        r"^scores must be a list of integers, one per player .*, got 'x' \(type str\)",
    ),
    # "direction must be in [-1, 1]", though 0 was refused too.
    "game-from_position-direction": (
        lambda: _position(direction=0),
        ValueError,
        r"^direction must be 1 \(clockwise\) or -1 \(anticlockwise\), got 0",
    ),
    "game-reset-deck-type": (lambda: _game().reset(seed=1, deck="5H"), TypeError, "deck must be a list of cards"),
    "game-returns-kind-type": (lambda: _game().returns(1), TypeError, 'kind must be "win_loss" or "score", got 1'),
    "game-string_to_action-type": (
        lambda: _game().string_to_action(5),
        TypeError,
        's must be an action string such as "play 8H", got 5',
    ),
    # A str that is no text (a lone surrogate, as surrogateescape decodes bad bytes) was a TypeError.
    "game-string_to_action-surrogate": (
        lambda: _game().string_to_action("\udcff"),
        ValueError,
        's must be an action string such as "play 8H", got .*, which is not valid text',
    ),
    "game-observation-obs_rules-type": (
        lambda: _game().observation(0, obs_rules="yes"),
        TypeError,
        "obs_rules must be True or False, got 'yes'",
    ),
    "game-from_record-upto": (lambda: eights.Game.from_record(_game().record(), upto=5), ValueError, "upto=5 but"),
    # eights.Rules
    "rules-preset-type": (lambda: eights.Rules(5), TypeError, "preset must be a preset name"),
    "rules-overrides-type": (lambda: eights.Rules("crazy_eights", 5), TypeError, "rules must be a dict"),
    "rules-value": (
        lambda: eights.Rules("crazy_eights", {"deal": {"hand_size": 2.5}}),
        eights.RulesError,
        "invalid rules field 'deal.hand_size'",
    ),
    # A list where a table belongs was read field by field ([4] set deal.hand_size to 4;
    # [] reset the section), in overrides, in a TOML file and nested alike.
    "rules-list-for-table": (
        lambda: eights.Game("crazy_eights", 3, seed=0, rules={"deal": [4]}),
        eights.RulesError,
        "'deal' must be a table of rule fields, got a list",
    ),
    "rules-empty-list-for-table": (
        lambda: eights.Rules("crazy_eights", {"deal": []}),
        eights.RulesError,
        "'deal' must be a table of rule fields, got a list",
    ),
    "rules-toml-list-for-table": (
        lambda: eights.Rules.from_toml('inherits = "crazy_eights"\ndeal = []\n'),
        eights.RulesError,
        "'deal' must be a table of rule fields, got a list",
    ),
    # serde read a list into a table field by field: [2] set draw_chain's first field (amount),
    # and countdown=[] turned the countdown game on with its defaults.
    "rules-card-table-list": (
        lambda: eights.Rules("crazy_eights", cards={"2": {"draw_chain": [2]}}),
        eights.RulesError,
        "'cards.2.draw_chain' must be a table of rule fields, got a list",
    ),
    "rules-optional-table-list": (
        lambda: eights.Rules("crazy_eights", countdown=[]),
        eights.RulesError,
        "'countdown' must be a table of rule fields, got a list",
    ),
    # `variant` (which defines variants) given the list of those to apply: said so.
    "rules-variant-for-variants": (
        lambda: eights.Rules("crazy_eights", variant=["multiple_cards"]),
        eights.RulesError,
        "'variant' must be a table of rule fields, got a list; the documented variants to apply are listed in "
        "'variants'",
    ),
    # Another parent in the changes to a preset was kept as a record only (Game) or dropped
    # (Rules): the game was the preset's, not the one named.
    "rules-inherits-other": (
        lambda: eights.Game("crazy_eights", 2, seed=0, rules={"inherits": "switch_blackjack"}),
        eights.RulesError,
        "invalid rules field 'inherits': the changes to preset 'crazy_eights' cannot name another parent",
    ),
    "rules-inherits-other-rules": (
        lambda: eights.Rules("crazy_eights", inherits="switch_blackjack", deal={"hand_size": 5}),
        eights.RulesError,
        "cannot name another parent",
    ),
    "rules-inherits-type": (
        lambda: eights.Rules("crazy_eights", {"inherits": 3}),
        eights.RulesError,
        "invalid rules field 'inherits': expected a preset name, got 3",
    ),
    "rule_space-presets-type": (lambda: eights.RuleSpace(5), TypeError, "presets must be a list of preset names"),
    "rules-variant": (
        lambda: eights.Rules("crazy_eights", variants=["nope"]),
        eights.RulesError,
        'unknown variant "nope"',
    ),
    # Quadratic in the length of the list, deaf to Ctrl-C: 10,000 copies took 10 s.
    "rules-variant-twice": (
        lambda: eights.Rules("crazy_eights", variants=["jacks_wild"] * 10_000),
        eights.RulesError,
        r"^invalid rules field 'variants': variant \"jacks_wild\" is listed twice",
    ),
    "rules-variant-twice-overrides": (
        lambda: eights.Game(
            "crazy_eights", 2, seed=0, rules={"variants": ["jacks_wild", "multiple_cards", "jacks_wild"]}
        ),
        eights.RulesError,
        r"variant \"jacks_wild\" is listed twice",
    ),
    # On rules that already have the variant (resolved, from to_dict), listed again with it:
    # the new list added nothing, so it was taken without a look.
    "rules-variant-twice-added": (
        lambda: _with_jacks_wild().replace(variants=["jacks_wild", "jacks_wild"]),
        eights.RulesError,
        r"variant \"jacks_wild\" is listed twice",
    ),
    # A resolved table recording the variant twice was taken as it was.
    "rules-variant-twice-recorded": (
        lambda: eights.Rules.from_dict(dict(_with_jacks_wild().to_dict(), variants=["jacks_wild"] * 2)),
        eights.RulesError,
        r"variant \"jacks_wild\" is listed twice",
    ),
    # A state whose rules record the variant twice was rebuilt as it was.
    "game-from-dict-variant-twice": (
        lambda: eights.Game.from_dict(_state_with_variants(["jacks_wild"] * 2)),
        ValueError,
        r"^invalid state: invalid rules field 'variants': variant \"jacks_wild\" is listed twice",
    ),
    # The million characters were echoed in the message.
    "rules-variant-huge": (
        lambda: eights.Rules("crazy_eights", variants=["z" * 10**6]),
        eights.RulesError,
        r'^invalid rules field \'variants\': unknown variant "z{60}"\.\.\. \(1,000,000 characters\); this preset',
    ),
    "rules-variant-inert": (
        lambda: eights.Rules("crazy_eights", variants=["jacks_wild", "no_nomination"]),
        eights.RulesError,
        'variant "no_nomination" sets cards.8.wild.nominate, but "jacks_wild" turns that wild off',
    ),
    "rules-variant-clash": (
        lambda: eights.Rules("crazy_eights", variants=["draw_up_to_3", "draw_until_playable"]),
        eights.RulesError,
        'variants "draw_up_to_3" and "draw_until_playable" both set draw.after .*, draw.mode .*yourself',
    ),
    # Named num_players, the argument Rules validates with, not the field given; then the
    # table 'players', with a range ("2 <=") that serde's ("from 0 to 255" for -1) contradicted.
    "rules-players-min": (
        lambda: eights.Rules(players={"min": 0}),
        eights.RulesError,
        r"invalid rules field 'players\.min': must be a whole number from 2 to 10, got 0$",
    ),
    "rules-from_dict-empty": (lambda: eights.Rules.from_dict({}), eights.RulesError, "needs inherits"),
    "rules-from_dict-type": (lambda: eights.Rules.from_dict([]), TypeError, "rules table must be a dict"),
    "rules-from_toml-type": (lambda: eights.Rules.from_toml(5), TypeError, "source must be a path or TOML text"),
    "rules-from_toml-text": (lambda: eights.Rules.from_toml("x = "), ValueError, "invalid TOML in the TOML text"),
    "rules-from_toml-missing": (
        lambda: eights.Rules.from_toml(Path("/nonexistent/house.toml")),
        FileNotFoundError,
        "house.toml",
    ),
    # Python's own errors before: "[Errno 21] Is a directory" and a UnicodeDecodeError.
    "rules-from_toml-folder": (
        lambda: eights.Rules.from_toml(Path(__file__).parent),
        IsADirectoryError,
        "is a folder, not a rules file",
    ),
    # A device was read without end (Ctrl-C ignored), a FIFO waited for a writer.
    "rules-from_toml-device": (
        lambda: eights.Rules.from_toml(Path("/dev/zero")),
        ValueError,
        "'/dev/zero' is not a regular file",
    ),
    "rules-from_toml-binary": (
        lambda: eights.Rules.from_toml(Path(eights._core.__file__)),
        ValueError,
        "is not a TOML text file: not UTF-8",
    ),
    # eights.RuleSpace
    "space-dims-bool": (lambda: eights.RuleSpace(dims={"chain": True}), TypeError, r"dims\['chain'\] must be a number"),
    "space-dims-str": (lambda: eights.RuleSpace(dims={"chain": "2"}), TypeError, r"dims\['chain'\] must be a number"),
    "space-dims-unknown": (lambda: eights.RuleSpace(dims={"x": 1}), eights.RulesError, 'unknown dimension "x"'),
    "space-dims-negative": (lambda: eights.RuleSpace(dims={"chain": -1}), eights.RulesError, "must be >= 0"),
    # Accepted: the engine's sum of the weights was infinite, and every draw took one dimension.
    "space-dims-huge": (
        lambda: eights.RuleSpace(dims={"chain": 1e308, "hand_size": 1e308}),
        eights.RulesError,
        r"invalid rules field 'dims.chain': a weight must be >= 0 and at most 1e\+06 \(a finite number in "
        r"\[0, 1e\+06\]\), got 1e\+308",
    ),
    "space-prob": (lambda: eights.RuleSpace(variant_prob=2), eights.RulesError, r"probability in \[0, 1\]"),
    "space-mutations": (lambda: eights.RuleSpace(mutations=NAN), eights.RulesError, r"must be in \[1, 8\]"),
    "space-num_players": (lambda: eights.RuleSpace(num_players=2.0), TypeError, "num_players must be an int"),
    "space-presets": (lambda: eights.RuleSpace(["nope"]), eights.RulesError, 'unknown preset "nope"'),
    # A raw UnicodeEncodeError, naming no argument.
    "space-presets-surrogate": (
        lambda: eights.RuleSpace(presets=["\udcff"]),
        ValueError,
        r"^presets\[0\] must be a preset name \(str\), got '\\udcff', which is not valid text",
    ),
    # Each copy was built: 3,000 took 1.8 s deaf to Ctrl-C (100,000: 105 s; 3,000 of
    # crazy_eights_xtreme: 431 MB). A repeat weights the draws: only the cap refuses them.
    "space-presets-copies": (
        lambda: eights.RuleSpace(presets=["crazy_eights"] * 3000),
        eights.RulesError,
        "invalid rules field 'presets': a list of preset names holds at most 1,024, got 3,000",
    ),
    # Read whole before any check (an endless iterator never returned).
    "space-presets-long": (
        lambda: eights.RuleSpace(presets=[f"p{i}" for i in range(1025)]),
        eights.RulesError,
        "invalid rules field 'presets': a list of preset names holds at most 1,024, got 1,025",
    ),
    # A Python list of 2**31 rule sets was built (hundreds of MB a second, no end).
    "space-samples-huge": (lambda: eights.RuleSpace().samples(2**31), ValueError, r"n must be in \[0, 1000000\]"),
    # OverflowError from the engine's unsigned conversion before.
    "space-num_players-range": (
        lambda: eights.RuleSpace(num_players=-1),
        eights.RulesError,
        r"each player count must be in \[2, 10\], got -1",
    ),
    "vec-rule-set-list": (
        lambda: _vec(preset=["crazy_eights"] * 1025),
        ValueError,
        "a list of rule sets holds at most 1,024",
    ),
    "selfplay-games-huge": (
        lambda: eights.random_selfplay("crazy_eights", 2, games=2**63),
        ValueError,
        r"games must be in \[0, 1000000000\]",
    ),
    # OverflowError from numpy past a C long.
    "bradley_terry-prior": (
        lambda: eights.arena.bradley_terry(np.eye(2), prior=NAN),
        ValueError,
        "prior must be a finite",
    ),
    # OSError "[Errno 36] File name too long", echoing the 100,000 characters.
    "rules-from_toml-long-name": (
        lambda: eights.Rules.from_toml("x" * 100_000),
        ValueError,
        r"\(100,000 characters\) cannot be read as a rules file: File name too long",
    ),
    "record-long-name": (
        lambda: eights.records.load_record("x" * 10_000),
        ValueError,
        r"\(10,000 characters\) is not a game record: cannot read it",
    ),
    "space-samples": (lambda: eights.RuleSpace().samples(-1), ValueError, r"n must be in \[0, 1000000\], got -1"),
    # eights.arena
    "evaluate-games": (lambda: _evaluate(games=0), ValueError, "games must be >= 1"),
    "evaluate-bootstrap": (lambda: _evaluate(bootstrap=5), ValueError, "bootstrap must be >= 100"),
    "evaluate-threads": (lambda: _evaluate(threads=10**6), ValueError, r"threads must be in \[0, 1024\]"),
    "evaluate-batch_size": (lambda: _evaluate(batch_size=0), ValueError, "batch_size must be >= 1"),
    "evaluate-opponents": (lambda: _evaluate(opponents=[]), ValueError, "opponents must be one agent or a list"),
    "evaluate-agent": (lambda: _evaluate(agent=5), TypeError, "agent must be a bot name"),
    "evaluate-progress": (lambda: _evaluate(progress="yes"), TypeError, "progress must be True or False"),
    "evaluate-record_dir": (lambda: _evaluate(record_dir=5), TypeError, "record_dir must be a directory path"),
    "tournament-agents-few": (lambda: _tournament(agents=["random"]), ValueError, "needs at least 2 agents"),
    "tournament-agents-str": (lambda: _tournament(agents="random,heuristic"), TypeError, "agents must be a list"),
    "tournament-label-of-a-repeat": (
        lambda: _tournament(agents=["random", "random", ("random#2", "heuristic")]),
        ValueError,
        "must be unique",
    ),
    # eights.generalization.evaluate
    "generalize-num_players": (
        lambda: _generalize(num_players=1),
        ValueError,
        r"num_players must be in \[2, 10\], got 1",
    ),
    "generalize-split": (lambda: _generalize(split="x"), ValueError, "unknown split 'x'; splits: train_presets"),
    "generalize-progress": (lambda: _generalize(progress="x"), TypeError, "progress must be True or False"),
    # module functions, resets and recorders
    "preset_rules-type": (lambda: eights.preset_rules(5), TypeError, r"preset must be a preset name \(str\), got int"),
    "preset_toml-unknown": (lambda: eights.preset_toml("nope"), ValueError, 'unknown preset "nope"'),
    # "preset must be a preset name (str), got str": a str it was.
    "preset_rules-surrogate": (
        lambda: eights.preset_rules("\udcff"),
        ValueError,
        r"^preset must be a preset name \(str\), got '\\udcff', which is not valid text",
    ),
    "determinize-game": (lambda: eights.determinize(5, 0), TypeError, "game must be an eights.Game, got int"),
    "determinize-player": (lambda: eights.determinize(_game(), 5), ValueError, r"player must be in \[0, 1\]"),
    "env-reset-options": (lambda: _make().reset(options=5), TypeError, "options must be a dict or None"),
    "env-reset-deck": (
        lambda: _make().reset(options={"deck": 5}),
        TypeError,
        r"options\['deck'\] must be a list of card strings",
    ),
    "env-reset-option": (lambda: _make().reset(options={"bogus": 1}), ValueError, "unknown reset option"),
    "vec-reset-options": (lambda: _vec().reset(options=5), TypeError, "options must be a dict or None"),
    "make-record_dir-file": (lambda: _make(record_dir=__file__), ValueError, "record_dir .* is a file, not a folder"),
    # eights.Bot, RandomBot, OpponentPool
    "bot-name": (lambda: eights.Bot("nope"), ValueError, 'unknown bot "nope"; allowed bots'),
    "bot-name-type": (lambda: eights.Bot(5), TypeError, "Bot name must be a str"),
    # A TypeError "must be a str": a str it was.
    "bot-name-surrogate": (
        lambda: eights.Bot("\udcff"),
        ValueError,
        r"^Bot name must be a str such as \"heuristic\" .*, got '\\udcff', which is not valid text",
    ),
    # The million characters were echoed in the message.
    "bot-name-huge": (
        lambda: eights.Bot("x" * 10**6),
        ValueError,
        r'^unknown bot "x{60}"\.\.\. \(1,000,000 characters\); allowed bots',
    ),
    # The whole list was echoed: 3 MB.
    "bot-setstate-huge": (
        lambda: eights.RandomBot().__setstate__([0] * 10**6),
        ValueError,
        r"^RandomBot state must be .*, got \[0, 0, .{0,60}\.\.\.",
    ),
    "bot-count": (lambda: eights.Bot("ismcts:0"), ValueError, r"bad count \"0\".*\[1, 1000000\]"),
    "bot-seed": (lambda: eights.Bot("random", 2**64), ValueError, r"seed must be in \[0, 2\*\*64\)"),
    "bot-act-type": (lambda: eights.Bot("heuristic").act(5), TypeError, "game must be an eights.Game"),
    "bot-act-over": (lambda: eights.Bot("heuristic").act(_finished()), eights.IllegalActionError, "the game is over"),
    "pool-snapshots": (lambda: eights.OpponentPool("random"), TypeError, "snapshots must be a list"),
    "pool-snapshot": (lambda: eights.OpponentPool([5]), TypeError, "a snapshot must be callable"),
    "pool-weights": (lambda: eights.OpponentPool(["random"], weights=[0.0]), ValueError, "must be positive and finite"),
    "pool-weights-count": (lambda: eights.OpponentPool(["random"], weights=[1, 2]), ValueError, "one entry per"),
    # Bytes passed as a sequence of numbers: b"x" was the weight 120.
    "pool-weights-bytes": (
        lambda: eights.OpponentPool(["random"], weights=b"x"),
        TypeError,
        r"weights must be a list of numbers, one per snapshot, got b'x'",
    ),
    # "num_players must be in [2, 10], got 1": play() has no num_players.
    "arena-play-one-agent": (
        lambda: arena.play(["random"]),
        ValueError,
        r"^table must hold one agent per seat, 2 to 10 of them, got 1$",
    ),
    "arena-play-seats-of-the-preset": (
        lambda: arena.play(["random"] * 6, preset="one_card"),
        eights.RulesError,
        r"^table: 6 agents, one per seat: invalid rules field 'num_players': one_card allows 2 to 3 players",
    ),
    # A raw TypeError naming no argument ("expected str, bytes or os.PathLike object, not int").
    "rules-to_toml-path": (
        lambda: eights.Rules("crazy_eights").to_toml(1),
        TypeError,
        r"^path must be a file path \(a str or os.PathLike\), got 1",
    ),
    # A lone surrogate the file system cannot encode: a raw UnicodeEncodeError.
    "rules-from_toml-surrogate": (
        lambda: eights.Rules.from_toml("\ud800"),
        ValueError,
        r"cannot be a rules file: a path cannot hold a lone surrogate",
    ),
    "records-load-surrogate": (
        lambda: eights.records.load_record("\ud800"),
        ValueError,
        r"is not a game record: a path cannot hold a lone surrogate",
    ),
    "records-recorder-surrogate": (
        lambda: eights.records.EpisodeRecorder("\ud800"),
        ValueError,
        r"^directory must be a folder's path \(valid text without NUL\)",
    ),
    "pool-seed": (lambda: eights.OpponentPool(["random"], seed=-1), ValueError, r"seed must be in \[0, 2\*\*64\)"),
    # It said the pool's act "cannot be called as act(obs, mask)".
    "pool-single-table": (
        lambda: eights.make("crazy_eights", opponents=eights.OpponentPool(["random"])),
        TypeError,
        "an OpponentPool draws a snapshot per game of a batch and plays only in an eights.VecEnv",
    ),
    "pool-sample-empty": (lambda: eights.OpponentPool().sample(1), ValueError, "the opponent pool is empty"),
    # It was an OverflowError from numpy.
    "pool-sample-size": (
        lambda: eights.OpponentPool(["heuristic"]).sample(2**64),
        ValueError,
        r"size must be in \[0, 2147483647\]",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_argument(case):
    call, error, message = CASES[case]
    with pytest.raises(error, match=message):
        call()


def test_refused_calls_leave_the_objects_as_they_were():
    g = _game()
    before = g.to_dict()
    for bad in (10**6, 1.0, "xx"):
        with pytest.raises((TypeError, ValueError)):
            g.step(bad)
    with pytest.raises(ValueError):
        g.reset(seed=1, deck=["XX"])
    assert g.to_dict() == before
    pool = eights.OpponentPool(["random"], seed=3)
    with pytest.raises(ValueError):
        pool.add("nope")
    with pytest.raises(ValueError):
        pool.add("heuristic", -1.0)
    assert len(pool) == 1 and pool[0] == "random"


#: id -> (argv, text of the one-line error); exit status 2, no traceback.
FLAGS = {
    "cli-games": (["arena", "--games", "0"], "argument --games: must be in [1,"),
    "cli-players": (["selfplay", "--players", "11"], "argument --players: must be in [2, 10], got 11"),
    "cli-seed": (["selfplay", "--seed", "-1"], "argument --seed: must be in [0, 2**64)"),
    "cli-threads": (["arena", "--threads", "-1"], "argument --threads: must be in [0, 1024]"),
    "cli-bootstrap": (["arena", "--bootstrap", "10"], "argument --bootstrap: must be in [100, 1000000]"),
    # Up to 2**64 - 1 games were taken for the Python loop.
    "cli-selfplay-python-loop": (
        ["selfplay", "--games", "1", "--python-loop", "99999999999999999999"],
        "argument --python-loop: must be in [0, 1000000000]",
    ),
    "cli-preset": (["selfplay", "--preset", "nope", "--games", "1"], 'unknown preset "nope"'),
    "cli-rules-json": (["selfplay", "--rules", "[1]"], "argument --rules: must be a JSON object"),
    # A RecursionError traceback; a number of 5,000 digits echoed whole.
    "cli-rules-deep": (["selfplay", "--rules", "[" * 50_000 + "]" * 50_000], "argument --rules: must be a JSON object"),
    "cli-rules-digits": (
        ["selfplay", "--rules", '{"deal": {"hand_size": ' + "9" * 5000 + "}}"],
        "argument --rules: must be a JSON object of rules: Exceeds the limit",
    ),
    "cli-rules-toml": (["selfplay", "--rules", "/nonexistent/house.toml"], "argument --rules: no such file"),
    "cli-rules-field": (["selfplay", "--rules", '{"deal": {"hand_size": 0}}'], "invalid rules field 'deal.hand_size'"),
    "cli-agents-few": (["arena", "--agents", ","], "a tournament needs at least 2 agents"),
    "cli-agents-fewer-than-seats": (
        ["arena", "--players", "3", "--agents", "random,heuristic"],
        "needs at least 3 agents for 3 players, got 2 (list an agent more than once to seat it more than once)",
    ),
    "cli-agents-count": (["arena", "--agents", "ismcts:-1,random"], "bad bot 'ismcts:-1': bad count"),
    "cli-agents-net": (["arena", "--agents", "ismcts_net:abc,random"], "bad bot 'ismcts_net:abc'"),
    "cli-agents-module": (["arena", "--agents", "nomod_x:f,random"], "cannot import module 'nomod_x'"),
    "cli-agents-model": (["arena", "--agents", "random,missing.zip"], "no such model file: 'missing.zip'"),
    "cli-arena-out-ext": (["arena", "--out", "x.txt"], "--out must name a .json or .csv file"),
    "cli-split": (["generalize", "--agent", "random", "--split", "x"], "argument --split: invalid choice"),
    "cli-minutes": (
        ["exploit", "--agent", "random", "--minutes", "0"],
        "argument --minutes: must be a number of minutes in (0, 1e7)",
    ),
    "cli-num-envs": (["exploit", "--agent", "random", "--num-envs", "1"], "argument --num-envs: must be in [2,"),
    "cli-seat": (["play", "--seat", "5"], "--seat must be in [0, 1] for 2 players"),
    # It said "must be in [0, 18446744073709551615]", the engine's largest count.
    "cli-seat-negative": (["play", "--seat", "-1"], "argument --seat: must be an integer >= 0, got -1"),
    "cli-bots-empty": (["play", "--bots", ","], "--bots needs at least one bot name"),
    "cli-bots-count": (["play", "--players", "3", "--bots", "random,random,random"], "--bots needs one bot name"),
    "cli-botspeed-bots": (["botspeed", "--bots", ","], "--bots needs at least one bot name"),
    "cli-botspeed-presets": (["botspeed", "--presets", ","], "--presets needs at least one preset name"),
    # Every preset checked before the first is timed (a typo in the second failed after it).
    "cli-botspeed-later-preset": (
        ["botspeed", "--presets", "crazy_eights,crazy_eigths", "--bots", "random"],
        '--presets: unknown preset "crazy_eigths"',
    ),
    # The arena's own limit, in the option's range (its help said 2**64 - 1).
    "cli-games-high": (["arena", "--games", str(10**9 + 1)], "argument --games: must be in [1, 1000000000]"),
    "cli-soak-seconds": (
        ["soak", "--seconds", "0"],
        "argument --seconds: must be a number of seconds in (0, 1e7), got 0",
    ),
    # -1 said "must be in [0, 1e7)", as if 0 were allowed.
    "cli-soak-seconds-negative": (
        ["soak", "--seconds", "-1"],
        "argument --seconds: must be a number of seconds in (0, 1e7)",
    ),
    "cli-soak-presets": (["soak", "--presets", ","], "--presets ',' names no preset"),
    "cli-soak-decisions": (["soak", "--decisions", "0"], "argument --decisions: must be in [1,"),
    # Each copy's tables were built and played: 5,000 copies used 2.2 GB, Ctrl-C took 7 s.
    "cli-soak-presets-twice": (
        ["soak", "--presets", "crazy_eights,zodiac,crazy_eights", "--decisions", "10"],
        '--presets: preset "crazy_eights" is listed twice; list each preset once',
    ),
    "cli-replay-missing": (["replay", "/nonexistent/r.json"], "cannot read '/nonexistent/r.json'"),
    "cli-replay-folder": (["replay", "/"], "'/' is not a game record: not a regular file"),
    "cli-serve-port": (["serve", "--port", "0"], "argument --port: must be in [1, 65535]"),
}


@pytest.mark.parametrize("case", sorted(FLAGS))
def test_bad_flag(case):
    argv, message = FLAGS[case]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own errors
            code = exc.code
    assert code == 2 and message in err.getvalue(), err.getvalue()
    assert "Traceback" not in err.getvalue()


DOC = Path(__file__).resolve().parents[3] / "docs" / "robustness.md"


@pytest.mark.skipif(not DOC.is_file(), reason="needs the source tree")
def test_robustness_table():
    """Every test the audit table names exists, and every case here has its row."""
    text = DOC.read_text(encoding="utf-8")
    named = re.findall(r"`([\w/]+\.py)::(\w+)(?:\[([\w-]+)\])?`", text)
    assert len(named) > 100
    root = DOC.parents[1] / "tests" / "python"
    for file, function, case in named:
        path = next(root.rglob(Path(file).name), None)
        assert path is not None, file
        source = path.read_text(encoding="utf-8")
        assert re.search(rf"^def {function}\(", source, re.M), f"{file}::{function}"
        if case:
            assert case in CASES or case in FLAGS or f'"{case}"' in source, f"{file}::{function}[{case}]"
    rows = {case for file, function, case in named if file.endswith("test_audit.py")}
    assert rows >= set(CASES) | set(FLAGS), sorted((set(CASES) | set(FLAGS)) - rows)


def test_a_record_file_nested_too_deeply_is_refused_naming_it(tmp_path):
    # Python's JSON decoder raised RecursionError on 100,000 nested brackets.
    path = tmp_path / "deep.json"
    path.write_text('{"actions": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(ValueError, match=r"deep\.json' is not a game record: its JSON is nested too deeply"):
        eights.records.load_record(path)
    replay = [sys.executable, "-m", "eights", "replay", str(path)]
    r = subprocess.run(replay, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "nested too deeply" in r.stderr, r.stderr


@pytest.mark.parametrize(
    "text, words",
    [
        # `replay` took the length of a null 'actions' first: a TypeError traceback.
        ('{"actions": null}', r"rec\.json' is not a game record: 'actions' must be a list"),
        # A number past Python's 4,300 digits: the message named no file.
        ('{"actions": [], "seed": ' + "9" * 5000 + "}", r"rec\.json' is not a game record: not a record's JSON"),
    ],
)
def test_a_damaged_record_file_is_refused_naming_it(tmp_path, text, words):
    path = tmp_path / "rec.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=words):
        eights.records.load_record(path)
    replay = [sys.executable, "-m", "eights", "replay", str(path)]
    r = subprocess.run(replay, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "rec.json" in r.stderr, r.stderr


def test_a_superscript_digit_is_no_number(tmp_path):
    # "²".isdigit() holds and int("²") fails: a file episode_².json in a record folder stopped
    # the recorder ("invalid literal for int()", naming neither), as did a port "²".
    (tmp_path / "episode_².json").write_text("{}", encoding="utf-8")
    env = eights.make("crazy_eights", record_dir=str(tmp_path))
    env.reset(seed=1)
    while True:
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if terminated or truncated:
            break
    assert len(list(tmp_path.iterdir())) == 2, list(tmp_path.iterdir())  # the game's record beside it
    from eights.arena.cluster import check_address

    with pytest.raises(ValueError, match=r"ray must be .*got 'host:²'"):
        check_address("host:²")


def test_a_record_saved_with_a_byte_order_mark_loads(tmp_path):
    # Windows Notepad writes UTF-8 with a BOM: the record was refused, "the file starts with b'\xef\xbb\xbf{'".
    record = eights.Game("crazy_eights", 2, seed=3).record()
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record).encode())
    assert eights.records.load_record(path)["seed"] == 3
