"""Text and HTML pictures of a table (eights.render, render_mode="ansi"/"html",
Game._repr_html_): what a player must be able to read off them."""

from html.parser import HTMLParser

import numpy as np

import eights
from eights.render import game_html, table_text

SYMBOL = dict(zip("CDHS", "♣♦♥♠"))


def shown(card):
    """How the rules' card is expected to look: rank letter + suit symbol; jokers as is."""
    return card if card in ("RJ", "BJ") else card[0] + SYMBOL[card[1]]


def test_env_ansi_shows_own_hand_counts_turn_and_last_actions():
    env = eights.make("switch_blackjack", num_players=3, seed=4, render_mode="ansi")
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    action = int(rng.choice(np.flatnonzero(info["action_mask"])))
    played = env.game.action_to_string(action)
    env.step(action)
    game = env.game
    text = env.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    mine = next(line for line in lines if "P0 (you)" in line)
    for card in game.hand(0):
        assert shown(card) in mine
    for p in (1, 2):  # opponents: a count, no cards
        line = next(line for line in lines if line[2:].startswith(f"P{p} "))
        assert line.rstrip().endswith("]") and f"[{game.hand_sizes[p]} card" in line
    verb, _, arg = played.partition(" ")
    expected = f"P0 {verb} {shown(arg) if verb == 'play' else arg}".rstrip()
    assert "Last actions: " + expected in text
    if not (game.is_terminal or game.is_truncated):
        assert f"P{game.current_player} to act" in text
    assert shown(game.top_card) in text
    assert f"Stock: {game.stock_size}" in text and f"Discard: {game.discard_size}" in text


def test_text_shows_penalty_direction_and_nominated_suit():
    game = eights.Game.from_position(
        "switch_blackjack",
        3,
        hands=[["3C", "TD"], ["4H", "5S"], ["6D", "7S"]],
        discard=["9C", "2H"],
        current_player=1,
        direction=-1,
        pending_draw=2,
    )
    text = table_text(game, viewer=1)
    assert "Pending penalty: draw 2" in text
    assert "anticlockwise" in text
    assert "P1 to act" in text and "4♥ 5♠" in text and "T♦" not in text
    nominated = eights.Game.from_position("crazy_eights", 2, hands=[["3C"], ["4H"]], discard=["8C"], nominated_suit="H")
    assert "suit ♥ nominated" in table_text(nominated)


def test_jokers_and_every_hand_in_the_omniscient_view():
    game = eights.Game.from_position(
        "crazy_eights_xtreme",
        2,
        hands=[["RJ", "TD"], ["BJ", "QS"]],
        discard=["5C"],
    )
    text = table_text(game)
    for card in ("RJ", "T♦", "BJ", "Q♠"):
        assert card in text


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.cards, self.reds, self.backs = [], [], set(), 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag not in ("rect", "br"):
            self.stack.append(tag)
        if tag == "svg":
            if "data-card" in attrs:
                self.cards.append(attrs["data-card"])
            elif attrs.get("aria-label") == "card back":
                self.backs += 1
        if tag == "text" and attrs.get("fill") == "#c00" and self.cards:
            self.reds.add(self.cards[-1])

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1:]}>"
        self.stack.pop()


def _parse(html):
    p = _Collect()
    p.feed(html)
    p.close()
    assert p.stack == [], f"unclosed tags {p.stack}"
    return p


def test_game_repr_html_has_every_card_and_red_suits_in_red():
    game = eights.Game("crazy_eights_xtreme", num_players=3, seed=5)
    html = game._repr_html_()
    assert html.startswith("<div") and html.endswith("</div>")
    p = _parse(html)
    expected = [c for seat in range(3) for c in game.hand(seat)] + [game.top_card]
    assert sorted(p.cards) == sorted(expected)
    for card in set(p.cards):
        red = card == "RJ" or (card not in ("RJ", "BJ") and card[1] in "DH")
        assert (card in p.reds) == red, card


def test_env_html_hides_the_opponents_cards():
    env = eights.make("crazy_eights", num_players=2, seed=1, render_mode="html")
    env.reset()
    p = _parse(env.render())
    assert sorted(p.cards) == sorted(env.game.hand(0) + [env.game.top_card])
    assert p.backs == min(env.game.hand_sizes[1], 12)
    assert env._repr_html_() == env.render()


def test_game_html_history_is_escaped_text():
    game = eights.Game("crazy_eights", num_players=2, seed=0)
    action = game.legal_actions()[0]
    text = game_html(game, viewer=0, history=[(0, action)], names=["<b>me</b>", "bot"])
    assert "&lt;b&gt;me&lt;/b&gt;" in text and "<b>me</b>" not in text
