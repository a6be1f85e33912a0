"""``Game``: one table of a Crazy Eights-family game, the engine's class (written in Rust,
``eights._core.Game``), reachable as ``eights.Game``.

``Game(preset="crazy_eights", num_players=2, seed=None, rules=None)`` takes a preset name or
an :class:`eights.Rules` (plus a dict of overrides in ``rules``). A game is stepped by action
ids: ``legal_actions()`` lists those of the player to act (``current_player``), ``step(a)``
plays one, and ``is_terminal`` / ``is_truncated``, ``winner`` and ``returns()`` tell how the
hand ended. ``action_to_string`` and ``string_to_action`` convert ids to and from text such as
``"play 8H"``; ``observation(player)`` and ``action_mask(player)`` are what the environments
give an agent; ``record()`` is the game's record (see :mod:`eights.records`); ``clone()``,
pickling and the static ``from_position`` (a position set up card by card, whose rules must
start from a preset) serve search and tests. The complete list of methods and properties, with
their signatures, is in the extension's stubs (:mod:`eights._core`).

>>> game = Game("crazy_eights", num_players=2, seed=0)
>>> game.current_player, game.action_to_string(58)
(0, 'draw')
>>> game.string_to_action("play 8H")
33
"""

from ._core import Game

__all__ = ["Game"]
