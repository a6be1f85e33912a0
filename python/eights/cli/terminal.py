"""Play a hand against built-in bots in the terminal: ``python -m eights play``.

The other seats are built-in bots or your own policies (``module:attribute``, a saved SB3
model).  This module owns the interactive loop of the ``play`` command and the reading of a
person's moves.  Each turn of the person shows the table as text (see
:func:`eights.render.table_text`: the person's hand, the other hands as card counts, the
last actions) and the legal moves, numbered::

    python -m eights play --preset switch_blackjack --players 3 --seat 0 --bots heuristic --seed 7

A move is typed as its number in the list, or as its text, case-insensitively: ``play 8H``,
``8h`` (a bare card means "play it"), ``10D``, ``8♥``, ``draw``, ``suit H``, ``nominate h``,
or just ``h`` when a suit is to be named.  ``help`` lists the moves again, ``quit`` (or
end of input, or Ctrl-C) leaves.  Unknown or illegal input is explained (what was wrong,
what is allowed) and asked again; the game is never changed by bad input.
"""

from __future__ import annotations

import io
import random
import re
import sys
from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple, Union

from .._core import Game, IllegalActionError, check_bot_rules, derive_seed
from .._utils.checks import terminal_safe
from ..agents.seats import MAX_OPPONENT_MOVES, BotSeat, seat_player
from ..agents.spec import as_agent
from ..observation import ObservationBounds
from ..render import HISTORY_SHOWN, SUIT_SYMBOLS, action_text, card_symbol, table_text
from ..rules import Rules, resolve_preset
from ..rules.changes import label
from . import _args

__all__ = ["parse_move", "play"]

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "h?", "help", "moves")

_SYMBOL_LETTERS = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}


#: A move number as typed: an optional sign and ASCII digits.
_NUMBER = re.compile(r"[+-]?[0-9]+")

#: The longest part of a line that an explanation repeats.
_SHOWN = 40


def _shown(raw: str) -> str:
    """``raw``, cut to its first :data:`_SHOWN` characters (a pasted page is not repeated)."""
    return raw if len(raw) <= _SHOWN else raw[:_SHOWN] + "..."


class _Quit(Exception):
    """The person asked to leave."""


def _moves_text(game: Any) -> str:
    lines = []
    for i, (a, s) in enumerate(zip(game.legal_actions(), game.legal_action_strings()), 1):
        pretty = action_text(game, a)
        lines.append(f"  {i:>2}) {s}" + (f"   [{pretty}]" if pretty != s else ""))
    return "\n".join(lines)


def parse_move(game: Any, text: str) -> Tuple[Optional[int], str]:
    """Read one line typed by the player to act.

    Returns ``(action id, "")`` for a legal move, or ``(None, explanation)`` saying what
    was wrong and what is allowed.  Accepts a move number (1-based, as listed), or a move
    text understood by ``game.string_to_action`` (case-insensitive; ``"8h"`` plays the
    eight of hearts, ``"10D"`` the ten of diamonds), card and suit symbols (``"8♥"``), and
    a bare suit letter when naming a suit is legal.
    """
    legal = game.legal_actions()
    strings = game.legal_action_strings()
    raw = text.strip()
    allowed = f'type a number from 1 to {len(legal)} or a move such as {strings[0]!r} ("help" lists them)'
    if not raw:
        return None, f"no move given; {allowed}"
    if _NUMBER.fullmatch(raw):  # ASCII digits only: int() also reads "²" and refuses 4301 digits
        digits = raw.lstrip("+-").lstrip("0") or "0"
        if not raw.startswith("-") and len(digits) <= len(str(len(legal))) and 1 <= int(digits) <= len(legal):
            return legal[int(digits) - 1], ""
        return None, f"there is no move number {_shown(raw)}: the moves are numbered 1 to {len(legal)}"
    cleaned = "".join(_SYMBOL_LETTERS.get(ch, ch) for ch in raw)
    if len(cleaned) == 1 and cleaned.upper() in SUIT_SYMBOLS:
        cleaned = "suit " + cleaned.upper()
    try:
        action = game.string_to_action(cleaned)
    except (ValueError, TypeError):  # TypeError: a line the engine cannot take as text (undecodable bytes)
        return None, f"{_shown(raw)!r} is not a move I know; {allowed}"
    if action in legal:
        return action, ""
    name = game.action_to_string(action)
    why = "it is not legal now"
    if name.startswith("play ") and name[5:] not in game.hand(game.current_player):
        why = f"you do not hold {card_symbol(name[5:])}"
    elif name.startswith("play "):
        top = card_symbol(game.top_card) if game.top_card else "nothing"
        why = f"{card_symbol(name[5:])} cannot be played on {top} now"
    return None, f"{name!r} is not allowed: {why}. Legal moves: {', '.join(strings)}"


def _seat_agent(spec: Any, seed: int, preset: Any, num_players: int, rules: Optional[Dict[str, Any]]) -> Any:
    """The player of a bot seat: a name as the command line takes it (a built-in bot,
    ``module:attribute``, a saved model, which plays on the scaled observation when it was
    trained on it) or an agent object, through the one agent specification."""
    if isinstance(spec, str):
        scale = ObservationBounds(preset, num_players, rules=rules) if spec.endswith(".zip") else None
        agent = _args.load_agent(spec, scale, what="--bots")  # ValueError naming what is accepted
    else:
        agent = as_agent(spec, "bot")
        agent = agent if agent.is_builtin else _args.checked_policy(agent, users=False)
    return seat_player(agent, seed)


def _seat_bots(
    preset: Any, num_players: int, seat: int, bots: Optional[List[Any]], seed: int, rules: Optional[Dict[str, Any]]
) -> Dict[int, Any]:
    """The bot of every seat but the person's, checked: one spec for all of them or one per
    seat in seat order; a built-in bot must play these rules (``net1``: its presets only)."""
    if not 0 <= seat < num_players:
        raise ValueError(f"--seat must be in [0, {num_players - 1}] for {num_players} players, got {seat}")
    others = [p for p in range(num_players) if p != seat]
    names = bots or ["heuristic"]
    if len(names) == 1:
        names = names * len(others)
    if len(names) != len(others):
        raise ValueError(
            f"--bots needs one bot name, or one per other seat ({len(others)}), got {len(names)}: "
            + ", ".join(map(str, names))
        )
    seat_bots = {
        p: _seat_agent(name, derive_seed(seed, p + 1), preset, num_players, rules) for p, name in zip(others, names)
    }
    for player in seat_bots.values():
        if isinstance(player, BotSeat):  # "net1" plays only its presets
            check_bot_rules(player.name, preset, num_players, rules)
    return seat_bots


def _undecodable_lines_as_text() -> None:
    """Have ``input()`` read a line that is not text in the terminal's encoding (``\\xff``) as
    text the engine refuses, explained and asked again, as Python does under the C locale:
    strict decoding raised ``UnicodeDecodeError``, which ended the game (and lost the lines
    read with it).  Python allows this only before the first read from ``sys.stdin``, and
    the setting stays (it cannot be changed back once read from)."""
    stdin = sys.stdin
    if isinstance(stdin, io.TextIOWrapper) and stdin.errors == "strict":
        try:
            stdin.reconfigure(errors="surrogateescape")
        except ValueError:  # already read from: stays strict
            pass


def _read_move(game: Any, read_line: Callable[[], str], say: Callable[..., None]) -> int:
    """Ask the person for a legal move until one is given; ``_Quit`` when they leave."""
    while True:
        try:
            line = read_line()
        except EOFError:
            raise _Quit from None
        if line.strip().lower() in QUIT_WORDS:
            raise _Quit
        if line.strip().lower() in HELP_WORDS:
            say(_moves_text(game))
            continue
        choice, why = parse_move(game, line)
        if choice is not None:
            return choice
        say(f"Sorry, {why}")
        say("Your move?")


def _play_hand(
    game: Any,
    seat: int,
    seat_bots: Dict[int, Any],
    labels: List[str],
    read_line: Callable[[], str],
    say: Callable[..., None],
    history: List[Tuple[int, int]],
) -> None:
    """Play until the game ends: the bots' moves announced, the person's asked for. Bots that
    keep the turn for :data:`~eights.agents.seats.MAX_OPPONENT_MOVES` moves (rules under which
    they go round in a circle) end the game there, unfinished."""
    bot_moves = 0
    while not (game.is_terminal or game.is_truncated):
        player = game.current_player
        if player != seat:
            if bot_moves == MAX_OPPONENT_MOVES:
                say(
                    f"The bots made {bot_moves:,} moves in a row without you: under these rules they go round "
                    "in a circle, so the game stops here. A decision cap (limits.max_decisions) ends such games."
                )
                return
            action = seat_bots[player].act(game)
            game.step(action)
            bot_moves += 1
            history.append((player, action))
            say(f"{labels[player]} ({seat_bots[player].label}): {action_text(game, action)}")
            continue
        bot_moves = 0
        say()
        say(table_text(game, seat, history[-HISTORY_SHOWN:], labels).rstrip("\n"))
        say("Your moves:")
        say(_moves_text(game))
        choice = _read_move(game, read_line, say)
        try:
            game.step(choice)
        except IllegalActionError as exc:  # not expected: parse_move checked legality
            say(f"Sorry, {exc}")
            continue
        history.append((seat, choice))
        say(f"You: {action_text(game, choice)}")


def _say_result(
    game: Any,
    seat: int,
    seat_bots: Dict[int, Any],
    labels: List[str],
    history: List[Tuple[int, int]],
    say: Callable[..., None],
) -> None:
    """The final table, who won, the hand points and the scores."""
    say()
    say(table_text(game, None, history[-HISTORY_SHOWN:], labels).rstrip("\n"))
    if game.is_terminal and game.winner == seat:
        say("Result: you win!")
    elif game.is_terminal and game.winner is not None:
        say(f"Result: {labels[game.winner]} ({seat_bots[game.winner].label}) wins.")
    elif game.is_truncated:
        say("Result: no winner, the game reached the engine's decision limit.")
    else:
        say("Result: no winner.")
    say("Hand points: " + ", ".join(f"{labels[p]} {v}" for p, v in enumerate(game.hand_points)))
    say("Scores:      " + ", ".join(f"{labels[p]} {v}" for p, v in enumerate(game.scores)))


def play(
    preset: Union[str, Rules],
    num_players: int,
    seat: int = 0,
    bots: Optional[List[Any]] = None,
    seed: Optional[int] = None,
    rules: Optional[Dict[str, Any]] = None,
    read_line: Callable[[], str] = input,
    out: Optional[TextIO] = None,
) -> int:
    """Play one game, the person at ``seat``, bots elsewhere; returns an exit status.

    ``preset`` is a preset name, a path to a house-rules TOML file or an :class:`eights.Rules`;
    ``rules`` overrides some of its rules.  ``bots``: one bot for every other seat, or one
    per other seat in seat order (default ``["heuristic"]``); a bot is a built-in name,
    ``"module:attribute"`` naming your policy (a callable ``f(obs, mask) -> action`` or an
    object with ``act``/``act_batch``), the path of a saved SB3 model, or such a policy
    object itself.  ``read_line`` reads one line of input (raising ``EOFError`` at the end);
    ``out`` takes what is shown (default: ``sys.stdout`` as it is when called).
    Returns 0 when the game ended or the person quit, 130 when interrupted.
    """
    preset = resolve_preset(preset)
    shown = sys.stdout if out is None else out  # not bound at import: a stream since replaced
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    game = Game(preset, num_players, seed=seed, rules=rules)  # validates preset/count/rules
    seat_bots = _seat_bots(preset, num_players, seat, bots, seed, rules)
    labels = [("You" if p == seat else f"P{p}") for p in range(num_players)]
    history: List[Tuple[int, int]] = []

    def say(text: str = "") -> None:  # the rules' name and title are a file's text: escaped
        print(terminal_safe(text), file=shown, flush=True)

    name = label(preset, rules)
    say(
        f"{name}, {num_players} players, seed {seed}. You are seat {seat}; "
        + ", ".join(f"P{p}: {seat_bots[p].label}" for p in sorted(seat_bots))
        + "."
    )
    say('Type a move number or its text ("8h", "draw", "suit H"); "help" lists the moves, "quit" leaves.')
    if read_line is input:
        _undecodable_lines_as_text()
    try:
        _play_hand(game, seat, seat_bots, labels, read_line, say, history)
    except _Quit:
        say("\nGoodbye: the game was left unfinished.")
        return 0
    except KeyboardInterrupt:
        say("\nInterrupted: the game was left unfinished.")
        return 130
    _say_result(game, seat, seat_bots, labels, history, say)
    return 0
