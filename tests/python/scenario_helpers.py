"""Shared helpers for the scenario tests (the scenario checks of each preset in docs/rules_catalog.md).

Only the documented ``eights`` API (see the API contract) is used here.  The
helpers build positions, read legal actions as sets of strings, and drive
multi-decision turns.  Every expected value lives in the test files and is
derived from the rules (docs/rules_catalog.md), never from running the engine.
"""

from collections import Counter

import eights

SUITS = ("C", "D", "H", "S")
ALL_SUIT_NOMINATIONS = {"suit C", "suit D", "suit H", "suit S"}


def cards(*groups):
    """Flatten card strings / iterables of card strings into one list."""
    out = []
    for g in groups:
        if isinstance(g, str):
            out.extend(g.split())
        else:
            out.extend(g)
    return out


def multiset(cs):
    """Order-insensitive multiset of card strings (hands are sorted by index)."""
    return Counter(cs)


def position(
    preset,
    n,
    *,
    hands,
    discard,
    stock=None,
    current_player=0,
    direction=1,
    nominated_suit=None,
    pending_draw=0,
    rules=None,
    seed=0,
    scores=None,
):
    """Wrapper over ``eights.Game.from_position`` with sanity preconditions.

    ``scores`` sets the match scores (the countdown scores in the countdown presets,
    where a player's wild rank is their score).

    ``discard`` is bottom -> top (last = top card); ``stock`` is next-drawn
    first.  The preconditions only check that the position was built as
    requested, so a failure here points at position construction, not at the
    scenario under test.
    """
    hands = [list(h) for h in hands]
    discard = list(discard)
    kwargs = dict(
        hands=hands,
        discard=discard,
        stock=None if stock is None else list(stock),
        current_player=current_player,
        direction=direction,
        nominated_suit=nominated_suit,
        pending_draw=pending_draw,
        seed=seed,
        rules=rules,
    )
    if scores is not None:
        kwargs["scores"] = list(scores)
    g = eights.Game.from_position(preset, n, **kwargs)
    # --- preconditions: the position is what we asked for -----------------
    assert g.num_players == n
    for p, h in enumerate(hands):
        assert multiset(g.hand(p)) == multiset(h), f"P{p} hand not built as given"
    assert g.discard_pile() == discard, "discard pile not built as given"
    assert g.top_card == discard[-1]
    if stock is not None:
        assert g.stock() == list(stock), "stock not built as given"
    if scores is not None:
        assert list(g.scores) == list(scores), "countdown scores not built as given"
    assert g.current_player == current_player
    assert g.direction == direction
    assert g.pending_draw == pending_draw
    assert not g.is_terminal
    return g


def deal_deck(hands, start, stock=()):
    """Deck list for ``Game.reset(deck=...)``.

    Per the contract, cards are dealt one at a time starting with seat 0 round
    the table, then the start card is turned, then the stock follows in the
    listed order (first listed = next drawn).
    """
    sizes = {len(h) for h in hands}
    assert len(sizes) == 1, "every seat must be dealt the same number of cards"
    (k,) = sizes
    deck = [hands[s][r] for r in range(k) for s in range(len(hands))]
    return deck + [start] + list(stock)


def dealt_game(preset, n, *, hands, start, stock=(), rules=None, seed=7):
    """A game dealt from a fixed deck (for start-card scenarios).

    ``hands[p]`` must have exactly the preset's (or overridden) hand size.
    Checks, as preconditions, that the dealer is P(n-1) (docs/rules_catalog.md#conventions), that
    the hands were dealt as the contract says,
    that the start card is the top card and that the listed stock cards come
    next.
    """
    g = eights.Game(preset, n, seed=seed, rules=rules)
    g.reset(seed=seed, deck=deal_deck(hands, start, stock))
    assert g.dealer == n - 1, "scenario convention: the dealer is P(n-1)"
    for p, h in enumerate(hands):
        # A start card acting as the dealer's play may already have added cards (e.g. a 7
        # start makes P0 draw), so the dealt cards must be contained in the hand.
        assert not multiset(h) - multiset(g.hand(p)), f"P{p} not dealt as the deck says"
    assert g.top_card == start, "start card not turned as the deck says"
    return g


def legal(g):
    """The set of legal action strings, e.g. {"play 8H", "draw"}."""
    return set(g.legal_action_strings())


def legal_cards(g):
    """The set of card strings X for which "play X" is legal."""
    return {a.split(" ", 1)[1] for a in legal(g) if a.startswith("play ")}


def plays(*cs):
    """{"play X", ...} for the given card strings."""
    return {f"play {c}" for c in cards(*cs)}


def play_turn(g, turn_cards):
    """Play one turn made of one or more cards placed by the current player.

    The first card is played with "play X"; every further card must be offered
    in the "continue" phase to the same player.  If the engine still offers a
    continuation after the last listed card, the turn is stopped with "end"
    (an engine may also end the turn by itself when no continuation exists).
    Returns the player who took the turn.
    """
    turn_cards = cards(turn_cards)
    p = g.current_player
    for i, c in enumerate(turn_cards):
        if i > 0:
            assert g.current_player == p and g.phase == "continue", (
                f"P{p} should be offered a continuation before {c}, got phase={g.phase!r} current={g.current_player}"
            )
        g.step(f"play {c}")
    if not g.is_terminal and g.current_player == p and g.phase == "continue":
        g.step("end")
    return p


def draw_until_stopped(g, limit=40):
    """Keep drawing while "draw" is the current player's only legal action.

    Works whether the engine draws one card per "draw" action or several at
    once (crazy_eights_xtreme draws until playable or 8 cards).  Returns the
    number of "draw" actions taken.
    """
    p = g.current_player
    n = 0
    while not g.is_terminal and g.current_player == p and legal(g) == {"draw"}:
        g.step("draw")
        n += 1
        assert n <= limit, "drawing never stopped"
    return n


def hand_over(g):
    """True once the hand (round) has finished.

    Contract reading: without ``series.match`` a Game is one hand; it is terminal when
    the hand ends, ``hand_points`` holds that hand's points and ``scores`` the cumulative
    match scores. ``reset()`` deals a fresh episode (the dealer back at P(n-1)); in a match
    the engine deals the next hand itself.
    """
    return g.is_terminal
