"""Differential test: the `openspiel_crazy_eights` preset against OpenSpiel's crazy_eights.

The same decks are replayed through both engines (2 to 5 players; plain, `use_special_cards`
and `reshuffle`): at every decision the player to act and the legal set must agree (action ids
mapped between the two layouts), and at the end the winner and the cards left in each hand.

Feeding identical decks: OpenSpiel's deal is chance nodes (the dealer, then the cards dealt one
at a time from the dealer's next seat, then the start card); our engine takes the same order as
a deck prefix (dealt round the table from seat 0, then the start card). OpenSpiel seat
`(dealer + 1 + k) % n` is our seat `k`. An eight as the start card is put back and redrawn at
random in both engines, so the decks here never turn one up. A card drawn later is read from
our hand and fed to OpenSpiel's draw chance node (also after a reshuffle, which in OpenSpiel
just returns the played cards to the pool).

Scores are not compared: OpenSpiel scores spot cards by card index (its documented bug).
"""

import os
import random
import re

import pytest

import eights

pyspiel = pytest.importorskip("pyspiel")

PRESET = "openspiel_crazy_eights"
GAMES = int(os.environ.get("OS_DIFF_GAMES", "300"))
SUITS = "CDHS"
RANKS = "23456789TJQKA"
# OpenSpiel's layout: 0..51 cards (rank-major, suits C D H S), 52 draw, 53 pass, 54..57 suits.
OS_DRAW, OS_PASS, OS_SUIT = 52, 53, 54
CONFIGS = {
    "plain": ({}, []),
    "use_special_cards": ({"use_special_cards": True}, ["use_special_cards"]),
    "reshuffle": ({"reshuffle": True}, ["reshuffle"]),
}


def os_card(card):
    """OpenSpiel's id of our card string ("8H")."""
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def action_map(g):
    """Our action id -> OpenSpiel's action id (`draw` and `accept` are both OpenSpiel's Draw)."""
    out = {}
    for a in range(g.num_actions):
        s = g.action_to_string(a)
        if s.startswith("play ") and s[5:] not in ("RJ", "BJ"):  # no jokers in this deck
            out[a] = os_card(s[5:])
        elif s in ("draw", "accept"):
            out[a] = OS_DRAW
        elif s == "pass":
            out[a] = OS_PASS
        elif s.startswith("suit "):
            out[a] = OS_SUIT + SUITS.index(s[5])
    return out


def os_hands(state, n):
    """The hands in OpenSpiel's text rendering, as sets of OpenSpiel card ids per player."""
    hands = {p: set() for p in range(n)}
    block = []
    for line in str(state).splitlines():
        if re.match(r"^Player \d+:\s", line):
            block = [int(x) for x in re.findall(r"Player (\d+):", line)]
        elif line.startswith("Suit ") and block:
            for p, (suit, ranks) in zip(block, re.findall(r"Suit ([CDHS]):([ 2-9TJQKA]*)", line)):
                for r in ranks.replace(" ", ""):
                    hands[p].add(RANKS.index(r) * 4 + SUITS.index(suit))
    return hands


def deck_for(rng, n, eight_start=False):
    """A shuffled pack whose start card (after the deal) is not an eight (or, with
    `eight_start`, is one)."""
    deck = [r + s for r in RANKS for s in SUITS]
    start = n * (7 if n == 2 else 5)
    want = lambda k: (deck[k][0] == "8") == eight_start  # noqa: E731
    rng.shuffle(deck)
    while not any(want(k) for k in range(start, len(deck))):  # every eight was dealt
        rng.shuffle(deck)
    j = next(k for k in range(start, len(deck)) if want(k))
    deck[start], deck[j] = deck[j], deck[start]
    return deck


def play_one(os_game, ours, amap, n, rng, seed, eight_start=False):
    """Replay one random game through both engines; return a list of differences.

    With `eight_start` the deck turns an eight up as the start card: both engines put it
    back and turn another card at random; OpenSpiel's start-card chance node is then fed
    the card our engine turned (it must still be a chance node offering every card of the
    stock, the eight put back included)."""
    deck = deck_for(rng, n, eight_start)
    ours.reset(seed=seed, deck=deck)
    state = os_game.new_initial_state()
    dealer = rng.randrange(n)
    state.apply_action(state.chance_outcomes()[dealer][0])
    dealt = n * (7 if n == 2 else 5) + 1
    for c in deck[:dealt]:
        state.apply_action(os_card(c))
    if eight_start:
        eight = deck[dealt - 1]
        if not state.is_chance_node():
            return [f"start: OpenSpiel kept the eight {eight} as the start card"]
        outcomes = {x for x, _ in state.chance_outcomes()}
        if os_card(eight) not in outcomes or len(outcomes) != 52 - dealt + 1:
            return [f"start: OpenSpiel did not put {eight} back into a full stock ({len(outcomes)} outcomes)"]
        top = ours.top_card
        if top[0] == "8" or eight not in ours.stock() or len(ours.stock()) != 52 - dealt:
            return [f"start: ours turned {top} after {eight}; stock {ours.stock()}"]
        if os_card(top) not in outcomes:
            return [f"start: ours turned {top}, not in OpenSpiel's stock"]
        state.apply_action(os_card(top))
        if state.is_chance_node():
            return [f"start: OpenSpiel turned {top} and still waits for a start card"]
    seat = lambda q: (q - dealer - 1) % n  # noqa: E731
    steps = 0
    while True:
        if state.is_terminal() or ours.is_terminal:
            if state.is_terminal() != ours.is_terminal:
                return [f"step {steps}: terminal OpenSpiel={state.is_terminal()} ours={ours.is_terminal}"]
            break
        p = ours.current_player
        if seat(state.current_player()) != p:
            return [f"step {steps}: to act OpenSpiel={seat(state.current_player())} ours={p}"]
        legal = ours.legal_actions()
        mine = sorted(amap[a] for a in legal)
        theirs = state.legal_actions()
        if mine != theirs:
            names = [state.action_to_string(a) for a in theirs]
            return [
                f"step {steps}: P{p} phase {ours.phase}: legal OpenSpiel={names} ours={ours.legal_action_strings()}"
            ]
        a = rng.choice(legal)
        before = list(ours.hand(p))
        ours.step(a)
        state.apply_action(amap[a])
        if state.is_chance_node():
            drawn = list(ours.hand(p))
            for c in before:
                drawn.remove(c)
            for c in drawn:
                if not state.is_chance_node():
                    return [f"step {steps}: ours drew {drawn}, OpenSpiel stopped drawing"]
                outcomes = {x for x, _ in state.chance_outcomes()}
                if os_card(c) not in outcomes:
                    names = sorted(state.action_to_string(x) for x in outcomes)
                    return [f"step {steps}: ours drew {c}, not in OpenSpiel's stock {names}, ours {ours.stock()}"]
                state.apply_action(os_card(c))
            if state.is_chance_node():
                return [f"step {steps}: OpenSpiel draws more than ours ({drawn})"]
        steps += 1
    diffs = []
    hands = os_hands(state, n)
    for q in range(n):
        if hands[q] != {os_card(c) for c in ours.hand(seat(q))}:
            diffs.append(f"end: hand of seat {seat(q)} differs")
    emptied = [seat(q) for q in range(n) if not hands[q]]
    if emptied:
        returns = state.returns()
        best = max(range(n), key=lambda q: returns[q])
        if ours.winner != emptied[0] or seat(best) != emptied[0]:
            diffs.append(f"end: winner ours={ours.winner} emptied={emptied} OpenSpiel best={seat(best)}")
    return diffs


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_openspiel_play_for_play(n, config):
    params, variants = CONFIGS[config]
    os_game = pyspiel.load_game("crazy_eights", {"players": n, **params})
    ours = eights.Game(PRESET, n, seed=0, rules={"variants": variants})
    amap = action_map(ours)
    rng = random.Random(1000 * n + len(config))
    failures = []
    for k in range(GAMES):
        diffs = play_one(os_game, ours, amap, n, rng, k)
        if diffs:
            failures.append(f"game {k}: {diffs}")
    assert not failures, f"{len(failures)} of {GAMES} games differ; first: {failures[:3]}"


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_openspiel_eight_start_card_put_back_play_for_play(n, config):
    """An eight turned up as the start card: OpenSpiel puts it back and turns another
    card from the whole stock (the eight included), and so does the preset
    (`start.cards.8 = redraw`); the games that follow agree decision for decision."""
    params, variants = CONFIGS[config]
    os_game = pyspiel.load_game("crazy_eights", {"players": n, **params})
    ours = eights.Game(PRESET, n, seed=0, rules={"variants": variants})
    amap = action_map(ours)
    rng = random.Random(7000 * n + len(config))
    failures = []
    for k in range(max(GAMES // 3, 1)):
        diffs = play_one(os_game, ours, amap, n, rng, 10_000 + k, eight_start=True)
        if diffs:
            failures.append(f"game {k}: {diffs}")
    assert not failures, f"{len(failures)} of {max(GAMES // 3, 1)} games differ; first: {failures[:3]}"
