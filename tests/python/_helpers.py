"""Shared constants and helpers for the Python test-suite."""

from __future__ import annotations

import importlib
import json
import re
import types
import zipfile
from collections import Counter
from pathlib import Path
from typing import Callable, List, Optional

import pytest

import eights

#: The presets this release must ship, with their allowed player counts
#: (``[players]`` in src/rules/presets/*.toml).
PLAYER_RANGES = {
    "crazy_eights": (2, 10),
    "crazy_eights_specials": (2, 10),
    "switch_blackjack": (2, 7),
    "crazy_eights_xtreme": (2, 8),
}
PRESETS = list(PLAYER_RANGES)
PRESET_PLAYER_PAIRS = [(preset, n) for preset, (lo, hi) in PLAYER_RANGES.items() for n in range(lo, hi + 1)]

#: Phase names from the API contract, plus the engine's phases for the
#: target/ask/keep/challenge/second-suit mechanics.
PHASES = {
    "play",
    "chain",
    "nominate",
    "continue",
    "after_draw",
    "give",
    "game_over",
    "target",
    "ask",
    "keep",
    "challenge",
    "second_suit",
}
SUITS = "CDHS"
RANKS = "A23456789TJQK"
CARD_RE = re.compile(r"^(?:[A2-9TJQK][CDHS]|RJ|BJ)$")

#: Every card string of a standard 52-card pack, in card-index order.
STANDARD_CARDS = [rank + suit for suit in SUITS for rank in RANKS]


def card_index(card: str) -> int:
    """Card index as documented: suit*13 + rank, RJ=52, BJ=53."""
    if card == "RJ":
        return 52
    if card == "BJ":
        return 53
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def card_forms(card: str) -> set:
    """Ways a card may be written in rendered text: ``"8H"`` or ``"8♥"``."""
    if card in ("RJ", "BJ"):
        return {card}
    return {card, card[0] + "♣♦♥♠"[SUITS.index(card[1])]}


def mentions_card(text: str, card: str) -> bool:
    return any(form in text for form in card_forms(card))


def is_over(game: eights.Game) -> bool:
    return game.is_terminal or game.is_truncated


def all_cards(game: eights.Game) -> Counter:
    """Multiset of every card in the hands, the discard pile and the stock."""
    cards: Counter = Counter()
    for seat in range(game.num_players):
        cards.update(game.hand(seat))
    cards.update(game.discard_pile())
    cards.update(game.stock())
    return cards


def card_total(game: eights.Game) -> int:
    return sum(game.hand_sizes) + game.stock_size + game.discard_size


def play_to_end(
    game: eights.Game,
    choose: Callable[[eights.Game], object],
    max_steps: int = 100_000,
    on_step: Optional[Callable[[eights.Game], None]] = None,
) -> List[object]:
    """Step ``game`` with ``choose(game)`` until it ends; return the actions."""
    actions = []
    while not is_over(game):
        assert len(actions) < max_steps, "game neither ended nor got truncated"
        action = choose(game)
        game.step(action)
        actions.append(action)
        if on_step is not None:
            on_step(game)
    return actions


def advance(game: eights.Game, bot: eights.RandomBot, steps: int) -> int:
    """Play up to ``steps`` bot actions (fewer if the game ends)."""
    done = 0
    while done < steps and not is_over(game):
        game.step(bot.act(game))
        done += 1
    return done


def running_game(preset: str, num_players: int, steps: int, first_seed: int = 0) -> eights.Game:
    """A game (deterministically chosen) still running after ``steps`` random steps."""
    for seed in range(first_seed, first_seed + 200):
        game = eights.Game(preset, num_players, seed=seed)
        advance(game, eights.RandomBot(seed), steps)
        if not is_over(game):
            return game
    raise AssertionError(f"no {preset} game lasted {steps} steps in 200 seeds")


def finished_game(preset: str, num_players: int, seed: int = 0) -> eights.Game:
    game = eights.Game(preset, num_players, seed=seed)
    bot = eights.RandomBot(seed)
    play_to_end(game, bot.act)
    return game


def import_or_skip(name: str) -> types.ModuleType:
    """The module ``name``; the test skips when an optional dependency of it is missing (a
    module of the package that fails to import is an error, not a skip)."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        missing = getattr(exc, "name", None) or ""
        if missing.split(".")[0] == "eights":
            raise
        pytest.skip(f"{name}: optional dependency missing ({exc})")


def saved_maskable_model(tmp_path: Path, **policy_kwargs) -> Path:
    """A genuine MaskablePPO model of ``crazy_eights`` (``policy_kwargs`` for its policy),
    untrained, saved as ``tmp_path / "model.zip"``: the start of a crafted file. Needs
    sb3-contrib and PyTorch (the tests that call it skip without them)."""
    import torch
    from sb3_contrib import MaskablePPO

    import eights

    torch.set_num_threads(1)
    env = eights.make("crazy_eights", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu", policy_kwargs=policy_kwargs)
    path = tmp_path / "model.zip"
    model.save(str(path))
    return path


def rewrite_zip(path: Path, out: Path, data_change=None, members=None, compression=zipfile.ZIP_STORED) -> Path:
    """A copy of the SB3 archive ``path`` with fields of its ``data`` replaced (``data_change``)
    and members swapped (``members``: name -> bytes), for crafting model files."""
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", compression) as dst:
        for name in src.namelist():
            raw = src.read(name)
            if name == "data" and data_change:
                data = json.loads(raw)
                data.update(data_change)
                raw = json.dumps(data).encode()
            if members and name in members:
                raw = members[name]
            dst.writestr(name, raw)
    return out
