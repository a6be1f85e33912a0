"""Variants, one by one: the Crazy Eights family (docs/fidelity.md#variants-one-by-one).

The Pagat-style page's variations (docs/rules_catalog.md#crazy_eights) are variants of
crazy_eights and of the presets that inherit it: crazy_eights_specials
(docs/rules_catalog.md#crazy_eights_specials), crazy_eights_winner_collects
(docs/rules_catalog.md#crazy_eights_winner_collects), the countdowns
(docs/rules_catalog.md#crazy_eights_countdown, docs/rules_catalog.md#crazy_eights_countdown_blog,
docs/rules_catalog.md#bitch) and openspiel_crazy_eights
(docs/rules_catalog.md#openspiel_crazy_eights). Each variant is played in every preset that
offers it, from one position built from cards with no special effect in any of them (3, 4,
6, 9, 10 and K, no king of hearts), beside the same position without the variant, so that a
variant that changes nothing fails. In the countdowns every score is set to 5 (wild rank 5)
unless a test says otherwise, so that the eight is an ordinary card there.
"""

import pytest

import eights
from scenario_helpers import ALL_SUIT_NOMINATIONS, legal, legal_cards, multiset, plays, position

COUNTDOWNS = ("crazy_eights_countdown", "crazy_eights_countdown_blog", "bitch")
ALL7 = ("crazy_eights", "crazy_eights_specials", "crazy_eights_winner_collects", *COUNTDOWNS, "openspiel_crazy_eights")
EIGHT_WILD = ("crazy_eights", "crazy_eights_specials", "crazy_eights_winner_collects", "openspiel_crazy_eights")


def _pos(preset, hands, top, stock, *variants, scores=None, **kw):
    rules = dict(kw.pop("rules", {}) or {})
    if variants:
        rules["variants"] = list(variants)
    if scores is None and preset in COUNTDOWNS:
        scores = [5] * len(hands)
    discard = top if isinstance(top, list) else [top]
    return position(
        preset, len(hands), hands=hands, discard=discard, stock=stock, rules=rules or None, scores=scores, **kw
    )


def _offering(variant, presets=ALL7):
    return [p for p in presets if variant in eights.Rules(p).variants]


def _finish_turn(g, p):
    """Stop a multi-card turn ("end") if the engine offers it to P{p}."""
    if not g.is_terminal and g.current_player == p and g.phase == "continue":
        g.step("end")


# ---------------------------------------------------------------- aces / jacks / sevens wild

# Who plays after the wild card: its special effect in the preset still acts.
_AFTER_WILD = {
    ("crazy_eights_specials", "aces_wild"): 2,  # "When an Ace is played, the direction of play reverses"
    ("crazy_eights_countdown_blog", "jacks_wild"): 2,  # the blog version: "Jacks skip the next player"
    ("bitch", "aces_wild"): 2,  # Bitch: "A are miss a turn."
}


@pytest.mark.parametrize(
    "preset, variant, rank",
    [(p, v, r) for v, r in (("aces_wild", "A"), ("jacks_wild", "J"), ("sevens_wild", "7")) for p in _offering(v)],
)
def test_wild_rank_variants_aces_wild_jacks_wild_sevens_wild(preset, variant, rank):
    """Source (Pagat, Changing Suit): "a different card may be used to change suit - for
    example in the British game Switch it is often the Ace, and some other variants use
    the Jack or the Seven." and "Some players use jacks or aces rather than eights as the
    cards which have the power to change suit." Variants `aces_wild`, `jacks_wild`,
    `sevens_wild`.

    Top `KH`, 3 players: the `{rank}D` (neither suit nor rank) is legal only with the
    variant; its player names spades and the next player follows spades. Where the eight is
    wild in the preset, the `8C` stops being wild (illegal on `KH`). The card keeps the
    preset's own effect for its rank (a reversing ace in crazy_eights_specials, a skipping
    jack in the countdown blog version, a skipping ace in bitch)."""
    hands = [[f"{rank}D", "4S", "3S", "8C"], ["4D", "TS", "KD", "3C"], ["6S", "3D"]]
    stock = ["9C", "TC", "6C", "4C"]
    plain = _pos(preset, hands, "KH", stock)
    assert f"{rank}D" not in legal_cards(plain)
    if preset in EIGHT_WILD:
        assert "8C" in legal_cards(plain)
    g = _pos(preset, hands, "KH", stock, variant)
    assert legal_cards(g) == {f"{rank}D"}
    g.step(f"play {rank}D")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit S")
    assert g.nominated_suit == "S"
    nxt = _AFTER_WILD.get((preset, variant), 1)
    assert g.current_player == nxt
    assert legal_cards(g) == {"TS"} if nxt == 1 else {"6S"}


# ------------------------------------------------------------------------------- drawing


@pytest.mark.parametrize("preset", _offering("draw_until_playable"))
def test_draw_until_playable(preset):
    """Source (Pagat, Drawing Cards): "Others require you to continue drawing until either
    you can play or the deck is exhausted." Variant `draw_until_playable`: on `KC`, one
    draw takes `3S`, `4S`, `9H` and stops at the playable `TC`, which may be played;
    without the variant one draw takes one card."""
    hands = [["3H", "4H", "6D", "9D"], ["4D", "TS", "KD"], ["6S", "3D"]]
    stock = ["3S", "4S", "9H", "TC", "6H", "6C"]
    plain = _pos(preset, hands, "KC", stock)
    plain.step("draw")
    assert len(plain.hand(0)) == 5
    g = _pos(preset, hands, "KC", stock, "draw_until_playable")
    g.step("draw")
    assert multiset(g.hand(0)) == multiset(hands[0] + stock[:4])
    assert g.stock() == stock[4:]
    assert g.current_player == 0
    assert "play TC" in legal(g)


@pytest.mark.parametrize("preset", _offering("play_drawn_card"))
def test_play_drawn_card(preset):
    """Source (Pagat, Drawing Cards): "Some allow the drawn card to be played immediately if
    it is a legal play." Variant `play_drawn_card`: P0 (holding the playable `3C`) draws
    the playable `TC` on `KC` and may play it or pass, but not the `3C` (only the drawn
    card; in openspiel_crazy_eights, or draw again, up to its five). Without the variant
    the draw ends the turn (openspiel_crazy_eights: its player may go on drawing or play
    any card, the `3C` included)."""
    hands = [["3C", "4H", "6D", "9D"], ["4D", "TS", "KD"], ["6S", "3D"]]
    stock = ["TC", "3S", "4S", "6H"]
    plain = _pos(preset, hands, "KC", stock)
    plain.step("draw")
    if preset == "openspiel_crazy_eights":
        assert {"play 3C", "play TC", "draw"} <= legal(plain)
    else:
        assert plain.current_player == 1
    g = _pos(preset, hands, "KC", stock, "play_drawn_card")
    g.step("draw")
    assert g.current_player == 0
    # openspiel_crazy_eights keeps its own draws (up to five): it may draw again
    assert legal(g) == {"play TC", "draw" if preset == "openspiel_crazy_eights" else "pass"}
    g.step("play TC")
    assert g.top_card == "TC"
    assert g.current_player == 1


@pytest.mark.parametrize("preset", _offering("draw_up_to_3"))
def test_draw_up_to_3(preset):
    """Source (Pagat, Drawing Cards): "Some allow more than one card to be drawn - either up
    to a fixed number of cards, after which if you still cannot (or will not) play the turn
    passes to the next player." Variant `draw_up_to_3`: on `KC`, P0 draws `3S`, `4S`, `9H`
    (none playable), may draw no more, and the turn passes; without the variant the
    draws follow the preset (one, five in openspiel_crazy_eights, or until playable in
    crazy_eights_winner_collects)."""
    hands = [["3H", "4H", "6D", "9D"], ["4D", "TS", "KD"], ["6S", "3D"]]
    stock = ["3S", "4S", "9H", "TC", "6H", "6C"]
    plain = _pos(preset, hands, "KC", stock)
    plain.step("draw")
    if preset == "openspiel_crazy_eights":
        plain.step("draw")
        plain.step("draw")
        assert "draw" in legal(plain), "OpenSpiel draws up to five"
    elif preset == "crazy_eights_winner_collects":
        assert multiset(plain.hand(0)) == multiset(hands[0] + stock[:4]), "until playable"
    else:
        assert plain.current_player == 1
    g = _pos(preset, hands, "KC", stock, "draw_up_to_3")
    for _ in range(3):
        assert g.current_player == 0 and "draw" in legal(g)
        g.step("draw")
    assert multiset(g.hand(0)) == multiset(hands[0] + stock[:3])
    if g.current_player == 0:
        assert legal(g) == {"pass"}
        g.step("pass")
    assert g.current_player == 1
    assert g.stock() == stock[3:]


@pytest.mark.parametrize("preset", _offering("must_play_if_able"))
def test_must_play_if_able(preset):
    """Source (Pagat, Drawing Cards): "some people play that you may only draw if you are
    unable to play - if you can play you must." Variant `must_play_if_able`: P0 holding
    the playable `3C` on `KC` may not draw (without the variant drawing is offered)."""
    hands = [["3C", "4H", "6D", "9D"], ["4D", "TS", "KD"], ["6S", "3D"]]
    stock = ["TC", "3S", "4S", "6H"]
    assert "draw" in legal(_pos(preset, hands, "KC", stock))
    g = _pos(preset, hands, "KC", stock, "must_play_if_able")
    assert legal(g) == plays("3C")


# ---------------------------------------------------------------------------- the eight


@pytest.mark.parametrize("preset", _offering("eight_must_match"))
def test_eight_must_match(preset):
    """Source (Pagat, Changing Suit): "Some play that you can only play an Eight that
    matches the previous card's suit or rank." Variant `eight_must_match`: on `KH` the
    `8H` is legal (and still names a suit), the `8C` is not; without the variant both
    are."""
    hands = [["8C", "8H", "4S", "3D"], ["4D", "TS", "KD"], ["6S", "6D"]]
    stock = ["TC", "3S", "4C", "6H"]
    assert {"8C", "8H"} <= legal_cards(_pos(preset, hands, "KH", stock))
    g = _pos(preset, hands, "KH", stock, "eight_must_match")
    assert legal_cards(g) == {"8H"}
    g.step("play 8H")
    assert legal(g) == ALL_SUIT_NOMINATIONS


@pytest.mark.parametrize("preset", _offering("no_nomination"))
def test_no_nomination(preset):
    """Source (Pagat, Changing Suit): "Some play that you can play an Eight at any time but
    when playing an Eight you do not nominate a suit. The next player must simply match the
    suit of the Eight you played or play another eight." Variant `no_nomination`: `8C` on
    `KH` names nothing; P1 follows clubs or plays an eight (without the variant P0 names a
    suit)."""
    hands = [["8C", "4S", "3D"], ["4D", "TC", "KD", "8S", "3H"], ["6S", "6D"]]
    stock = ["9C", "3S", "4C", "6H"]
    plain = _pos(preset, hands, "KH", stock)
    plain.step("play 8C")
    assert legal(plain) == ALL_SUIT_NOMINATIONS
    g = _pos(preset, hands, "KH", stock, "no_nomination")
    g.step("play 8C")
    assert g.current_player == 1
    assert g.nominated_suit is None
    assert legal_cards(g) == {"TC", "8S"}


@pytest.mark.parametrize("preset", _offering("jacks_wild", EIGHT_WILD))
def test_no_nomination_with_jacks_wild_asks_which_wild_card(preset):
    """Source (Pagat, Changing Suit): "Some play that you can play an Eight at any time but
    when playing an Eight you do not nominate a suit." and "Some players use jacks or aces
    rather than eights as the cards which have the power to change suit." `no_nomination`
    sets how an eight plays; `jacks_wild` makes the eights plain cards, so beside it
    `no_nomination` changed nothing and the jacks still named a suit. The pair is refused,
    naming the card; jacks wild without a suit named are the rules' own setting, and then
    `JC` on `KH` names nothing and clubs follow."""
    for variants in (["jacks_wild", "no_nomination"], ["no_nomination", "jacks_wild"]):
        with pytest.raises(eights.RulesError, match=r'"no_nomination" sets cards\.8\.wild\.nominate, but "jacks_wild"'):
            eights.Rules(preset, variants=variants)
    hands = [["JC", "4S", "3D"], ["4D", "TC", "KD", "JS", "3H"], ["6S", "6D"]]
    stock = ["9C", "3S", "4C", "6H"]
    plain = _pos(preset, hands, "KH", stock, "jacks_wild")
    plain.step("play JC")
    assert legal(plain) == ALL_SUIT_NOMINATIONS
    rules = {"cards": {"J": {"wild": {"nominate": "none"}}}}
    g = _pos(preset, hands, "KH", stock, "jacks_wild", rules=rules)
    g.step("play JC")
    assert g.current_player == 1
    assert g.nominated_suit is None
    assert legal_cards(g) == {"TC", "JS"}


@pytest.mark.parametrize("preset", _offering("nominate_only_if_matching"))
def test_nominate_only_if_matching(preset):
    """Source (Pagat, Changing Suit): "One correspondent (Szu Kay Wong) gives the rule an
    Eight can be played on any card, but the player can only nominate a different suit if
    the Eight matches the rank or suit of the previous card." Variant
    `nominate_only_if_matching`: `8C` on `KH` (no match) names nothing and clubs are
    followed; `8C` on `KC` names a suit."""
    hands = [["8C", "4S", "3D"], ["4D", "TC", "KD", "8S", "3H"], ["6S", "6D"]]
    stock = ["9C", "3S", "4C", "6H"]
    plain = _pos(preset, hands, "KH", stock)
    plain.step("play 8C")
    assert legal(plain) == ALL_SUIT_NOMINATIONS
    g = _pos(preset, hands, "KH", stock, "nominate_only_if_matching")
    g.step("play 8C")
    assert g.current_player == 1
    assert legal_cards(g) == {"TC", "8S"}
    g = _pos(preset, hands, "KC", stock, "nominate_only_if_matching")
    g.step("play 8C")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS


# ------------------------------------------------------------------------------ the deal


@pytest.mark.parametrize("preset", _offering("hand_size_8"))
@pytest.mark.parametrize("n", [2, 3])
def test_hand_size_8(preset, n):
    """Source (Pagat, Deal): "The number of cards dealt to each player initially may vary.
    For example some begin with eight cards each." Variant `hand_size_8`: eight cards each
    (the preset: seven with two players, five with more)."""
    plain = eights.Game(preset, n, seed=4)
    plain.reset(seed=4)
    assert list(plain.hand_sizes) == [7 if n == 2 else 5] * n
    g = eights.Game(preset, n, seed=4, rules={"variants": ["hand_size_8"]})
    g.reset(seed=4)
    assert list(g.hand_sizes) == [8] * n


# ----------------------------------------------------------------------------- last card


@pytest.mark.parametrize("preset", _offering("last_card"))
def test_last_card(preset):
    """Source (the basic game): "A player who has only one card left in their hand must
    alert the other players by saying 'last card'. A player who fails to do this before the
    next player takes their turn must draw two cards from the top of the stock as a
    penalty." and (Pagat, Last Card) "Some groups have a special word that must be said by
    a player when they have just one card left." Variant `last_card`: P0 plays down to one
    card without the call and, once P1 has played, holds three; with the call ("announce")
    P0 keeps one. Without the variant there is no call to make."""
    hands = [["3H", "9D"], ["4D", "TS", "KD", "3C"], ["6S", "3D", "4C"]]
    stock = ["TC", "3S", "4S", "6H", "6C", "9C"]
    assert "announce" not in legal(_pos(preset, hands, "KH", stock))
    g = _pos(preset, hands, "KH", stock, "last_card")
    assert "announce" in legal(g)
    g.step("play 3H")
    g.step("draw")  # P1 takes a turn: the call was missed
    assert len(g.hand(0)) == 3
    g = _pos(preset, hands, "KH", stock, "last_card")
    g.step("announce")
    g.step("play 3H")
    g.step("draw")
    assert len(g.hand(0)) == 1


@pytest.mark.parametrize("preset", _offering("last_card", COUNTDOWNS))
def test_last_card_a_new_countdown_hand_of_one_card_owes_no_penalty(preset):
    """Source (the basic game): a player "who has only one card left in their hand must
    alert the other players by saying 'last card'" and (Countdown) "When a player gets rid of
    all their cards ... the player subtracts 1 from their score, and is immediately dealt a
    new hand of cards equal in size to their new score." Variant `last_card`: P0 (score 2)
    plays its last card, 7H; its score falls to 1 and it is dealt one card. No play left it
    holding one card and it had no call to make (none is offered), so it owes no penalty:
    P0 holds the one card it was dealt, and still does once P1 has played. (The engine once
    made it draw the penalty's two cards at once.)"""
    hands = [["7H"], ["2C", "3D"], ["4C", "9H"]]
    stock = ["KC", "QC", "QD", "JC", "JS", "5S", "4S"]
    g = _pos(preset, hands, "7S", stock, "last_card", scores=[2, 6, 6])
    assert legal(g) == {"play 7H", "draw"}
    g.step("play 7H")
    assert list(g.scores)[0] == 1
    assert g.hand(0) == ["KC"]
    assert g.current_player == 1
    g.step("draw")
    assert g.hand(0) == ["KC"]


# ------------------------------------------------------------------------ multiple cards


@pytest.mark.parametrize("preset", _offering("multiple_cards"))
def test_multiple_cards_equal_ranks_together(preset):
    """Source (Pagat, Multiple Equal Cards): "Some allow a player holding two or more equal
    ranked cards to play them all at once, provided that the first of them is a legal play.
    ... the next player could play 9, 9 and 9 in that order, and the next player would have
    to play a 9 or a heart." Variant `multiple_cards`: on `9H` P0 plays `9C`, `9S`, `9D`;
    P1 must follow diamonds (or a nine: all four are out). Without the variant the turn ends after one card."""
    hands = [["9C", "9S", "9D", "4H"], ["4D", "TS", "KC", "3C"], ["6S", "3D"]]
    stock = ["TC", "3S", "4S", "6H"]
    plain = _pos(preset, hands, ["3H", "9H"], stock)
    plain.step("play 9C")
    assert plain.current_player == 1
    g = _pos(preset, hands, ["3H", "9H"], stock, "multiple_cards")
    g.step("play 9C")
    assert g.current_player == 0
    assert legal(g) == plays("9S 9D") | {"end"}
    g.step("play 9S")
    g.step("play 9D")
    _finish_turn(g, 0)
    assert g.top_card == "9D"
    assert g.hand(0) == ["4H"]
    assert g.current_player == 1
    assert legal_cards(g) == {"4D"}


def test_multiple_cards_crazy_eights_specials_every_effect_counts():
    """Source (Pagat, Multiple Equal Cards): "If an Ace reverses direction, playing two Aces
    together will reverse it twice, leaving the direction of play unchanged. ... If a Two
    requires the next player to pick up twos cards, a pair of Twos will require the next
    player to pick up 4 cards (or play another Two)." Variant `multiple_cards` in
    crazy_eights_specials: `AH AD` keep the direction (P1 next); `2H 2D` make P1 face 4."""
    preset = "crazy_eights_specials"
    hands = [["AH", "AD", "2H", "2D", "4S"], ["4D", "TS", "KC", "3C"], ["6S", "3D"]]
    stock = ["TC", "3S", "4C", "6H", "6C", "9C"]
    g = _pos(preset, hands, "9H", stock, "multiple_cards")
    g.step("play AH")
    g.step("play AD")
    _finish_turn(g, 0)
    assert g.direction == 1
    assert g.current_player == 1
    g = _pos(preset, hands, "9H", stock, "multiple_cards")
    g.step("play 2H")
    g.step("play 2D")
    _finish_turn(g, 0)
    assert g.current_player == 1
    assert g.pending_draw == 4


# ------------------------------------------------------------------------ end of stock


@pytest.mark.parametrize("preset", _offering("no_reshuffle"))
def test_no_reshuffle_the_player_passes(preset):
    """Source (Pagat, End of Stock Pile): "Instead they specify that play continues without
    drawing. A player who cannot or does not wish to play just passes." Variant
    `no_reshuffle`: with the stock empty P0 (nothing playable on `KC`) may only pass, and
    the discard pile stays; without the variant P0 draws from the reshuffled pile."""
    hands = [["3H", "4H", "6D", "9D"], ["4D", "TS", "KD"], ["6S", "3D"]]
    discard = ["3S", "4S", "9H", "KC"]
    plain = _pos(preset, hands, discard, [])
    plain.step("draw")
    assert len(plain.hand(0)) == 5
    g = _pos(preset, hands, discard, [], "no_reshuffle")
    assert legal(g) == {"pass"}
    g.step("pass")
    assert g.current_player == 1
    assert g.discard_pile() == discard


@pytest.mark.parametrize("preset", ["crazy_eights", "crazy_eights_specials"])
def test_no_reshuffle_a_blocked_hand_scores_every_hand(preset):
    """Source (Pagat, End of Stock Pile): "If all pass, the game is blocked. Play stops and
    everyone scores for the cards remaining in their hands." Variant `no_reshuffle`: three
    passes end the hand; points, "spot cards at face value": P0 `3H 4H` 7, P1 `4D` and
    `TS` 14, P2 `6S 3D` 9."""
    hands = [["3H", "4H"], ["4D", "TS"], ["6S", "3D"]]
    g = _pos(preset, hands, ["9C", "KC"], [], "no_reshuffle")
    for _ in range(3):
        g.step("pass")
    assert g.is_terminal
    assert list(g.hand_points) == [7, 14, 9]


# --------------------------------------------------------------------------- the match


@pytest.mark.parametrize("preset", ["crazy_eights", "crazy_eights_specials", "openspiel_crazy_eights"])
def test_match_to_100(preset):
    """Source: the basic game says only "the other players score penalty points according
    to the cards they have left in their hands - 50 for an eight, 10 for a picture, and spot
    cards at face value"; no target is named (catalog A15: one hand; a match to 100,
    lowest total winning, as Kings Reverse's "When a player reaches 500, the game is over and
    the player with the lowest score at that point is the winner", is the variant
    `match_to_100`). P0 goes out with `4H`: P1 scores `KC 5C` 15 and P2 `3S` 3. From
    0 / 90 / 10 P1 reaches 105: the match ends and P0 (lowest) wins; from 0 / 0 / 0 a new
    hand is dealt; without the variant the hand is the game."""
    hands = [["4H"], ["KC", "5C"], ["3S"]]
    stock = ["6C", "6D", "9H", "TD", "3D", "4C", "6S", "9C", "TC", "3C", "4S", "9D", "TH", "TS", "6H", "9S"]

    def finish(variants, scores):
        g = eights.Game.from_position(
            preset, 3, hands=hands, discard=["4D"], stock=stock, rules={"variants": variants}, scores=scores
        )
        g.step("play 4H")
        assert list(g.hand_points) == [0, 15, 3]
        return g

    g = finish(["match_to_100"], [0, 90, 10])
    assert list(g.scores) == [0, 105, 13]
    assert g.is_terminal and g.winner == 0
    assert not finish(["match_to_100"], [0, 0, 0]).is_terminal
    g = finish([], [0, 0, 0])
    assert g.is_terminal and g.winner == 0


def test_match_to_100_is_not_offered_by_crazy_eights_winner_collects():
    """Source (the guide): "The winner accrues all other player point." and "The first
    player to get a set number of points wins the entire game." The parent's `match_to_100`
    names the lowest total the winner, so with winner-collects scoring the collector who
    reaches the target would lose (finding F1): the preset drops it, and its own `match`
    variant plays the guide's target (the collector who reaches it wins)."""
    assert "match_to_100" not in eights.Rules("crazy_eights_winner_collects").variants
    with pytest.raises(ValueError, match="match_to_100"):
        eights.Game("crazy_eights_winner_collects", 2, seed=0, rules={"variants": ["match_to_100"]})
    g = eights.Game.from_position(
        "crazy_eights_winner_collects",
        2,
        hands=[["4H"], ["KC", "5C"]],
        discard=["4D"],
        stock=["6C", "6D", "9H"],
        rules={"variants": ["match"]},
        scores=[90, 50],
    )
    g.step("play 4H")
    assert list(g.scores) == [105, 50] and g.is_terminal and g.winner == 0


# ------------------------------------------------------------- crazy_eights_specials' own


def test_jack_skips_crazy_eights_specials():
    """Source (Pagat, Variations): "the roles of the special cards are often changed, for
    example using a different card, such Jack instead of Queen to cause the next player to
    skip a turn". Variant `jack_skips`: `JH` skips P1 (P2 plays), `QH` is ordinary (P1
    plays); without the variant the other way round."""
    preset = "crazy_eights_specials"
    hands = [["JH", "QH", "4S"], ["4D", "TS", "KD"], ["6S", "3D"]]
    for variants, after_j, after_q in (((), 1, 2), (("jack_skips",), 2, 1)):
        g = _pos(preset, hands, "9H", ["TC", "3S"], *variants)
        g.step("play JH")
        assert g.current_player == after_j, variants
        g = _pos(preset, hands, "9H", ["TC", "3S"], *variants)
        g.step("play QH")
        assert g.current_player == after_q, variants


def test_four_reverses_crazy_eights_specials():
    """Source (Pagat, Variations): "for example using a different card, such ... Four
    instead of Ace to reverse direction." Variant `four_reverses`: `4H` reverses (P2
    plays), `AH` is ordinary (P1 plays); without the variant the other way round."""
    preset = "crazy_eights_specials"
    hands = [["4H", "AH", "3S"], ["4D", "TS", "KD"], ["6S", "3D"]]
    for variants, after_4, after_a in (((), 1, 2), (("four_reverses",), 2, 1)):
        g = _pos(preset, hands, "9H", ["TC", "6C"], *variants)
        g.step("play 4H")
        assert g.current_player == after_4, variants
        g = _pos(preset, hands, "9H", ["TC", "6C"], *variants)
        g.step("play AH")
        assert g.current_player == after_a, variants


def test_queen_of_spades_draw_5_crazy_eights_specials():
    """Source (Pagat, Variations): "for example it may be agreed that the Queen of Spades
    requires the next player to draw 5 cards." (catalog A16: not answerable, the victim
    loses the turn). Variant `queen_of_spades_draw_5`: `QS` on `9S` makes P1 draw five and
    P2 plays next; another queen still skips. Without the variant `QS` only skips."""
    preset = "crazy_eights_specials"
    hands = [["QS", "QH", "4S"], ["4D", "TS", "KD"], ["6S", "3D"]]
    stock = ["TC", "3S", "4C", "6H", "6C", "9C", "3C"]
    plain = _pos(preset, hands, "9S", stock)
    plain.step("play QS")
    assert plain.current_player == 2
    assert len(plain.hand(1)) == 3
    g = _pos(preset, hands, "9S", stock, "queen_of_spades_draw_5")
    g.step("play QS")
    assert multiset(g.hand(1)) == multiset(hands[1] + stock[:5])
    assert g.current_player == 2
    g = _pos(preset, hands, ["9H"], stock, "queen_of_spades_draw_5")
    g.step("play QH")
    assert g.current_player == 2
    assert len(g.hand(1)) == 3


# ------------------------------------------------------- crazy_eights_winner_collects' own


def test_jokers_crazy_eights_winner_collects():
    """Source (the guide): "Note: If you are playing with Jokers: the Joker acts as a blank
    card and the next player to have his or her turn can play any card on top of the Joker."
    Variant `jokers`: the pack holds two jokers (54 cards, not 52)."""
    for variants, size in (((), 52), (("jokers",), 54)):
        g = eights.Game("crazy_eights_winner_collects", 3, seed=3, rules={"variants": list(variants)})
        g.reset(seed=3)
        every = [c for p in range(3) for c in g.hand(p)] + g.stock() + g.discard_pile()
        assert len(every) == size, variants


def test_blocked_lowest_collects_crazy_eights_winner_collects():
    """Source (the guide): "if the face-down stack runs out of cards, a player who can't put
    down a card simply passes their turn" and "The winner accrues all other player point."
    (the catalog, G13: a blocked hand scores nothing; the variant `blocked_lowest_collects`
    lets the player with the lowest hand collect the others). On KC nobody can play: P0 `3H`
    (3), P1 `4D TS` (14), P2 `6S 4H` (10): all pass; P0 collects 24."""
    hands = [["3H"], ["4D", "TS"], ["6S", "4H"]]
    for variants, points in (((), [0, 0, 0]), (("blocked_lowest_collects",), [24, 0, 0])):
        g = _pos("crazy_eights_winner_collects", hands, ["9C", "KC"], [], *variants)
        for _ in range(3):
            g.step("pass")
        assert g.is_terminal, variants
        assert list(g.hand_points) == points, variants


def test_match_crazy_eights_winner_collects():
    """Source (the guide): "The first player to get a set number of points wins the entire
    game. ... a good guideline is 50 points for every player in the game. For example, ...
    if there are three people playing it's the first to 150 points". Variant `match`: P0 at
    140 collects 18 (`KC 5C` 15, `3S` 3) and wins at 158; from 0 a new hand is dealt."""
    hands = [["4H"], ["KC", "5C"], ["3S"]]

    def finish(variants, scores):
        g = eights.Game.from_position(
            "crazy_eights_winner_collects",
            3,
            hands=hands,
            discard=["4D"],
            stock=["6C", "6D", "9H", "TD", "3D", "4C", "6S", "9C", "TC", "3C", "4S", "9D", "TH", "TS", "6H", "9S"],
            rules={"variants": variants},
            scores=scores,
        )
        g.step("play 4H")
        assert list(g.hand_points) == [18, 0, 0]
        return g

    g = finish(["match"], [140, 100, 0])
    assert g.is_terminal and g.winner == 0
    assert not finish(["match"], [0, 0, 0]).is_terminal
    assert finish([], [0, 0, 0]).is_terminal


# ------------------------------------------------------------------- the countdowns' own


@pytest.mark.parametrize("preset", COUNTDOWNS)
def test_equal_rank_on_wild_countdowns(preset):
    """Source (Pagat, Countdown): "Variant: Some groups allow a card of equal rank to be
    played on a wild card even if it is not in the called suit. For example a wild 5 is
    played calling 'diamonds' but the next player plays 5 instead of a diamond, even
    though 5 is not wild for them." Variant `equal_rank_on_wild`: P0 (score 5) plays the
    wild `5C` naming diamonds; P1 (score 6) may play `5H` only with the variant."""
    hands = [["5C", "9S", "TS"], ["5H", "4D", "3C"], ["6S", "3D"]]
    stock = ["TC", "9C", "4C", "6H"]
    for variants, cards in (((), {"4D"}), (("equal_rank_on_wild",), {"4D", "5H"})):
        g = _pos(preset, hands, "9H", stock, *variants, scores=[5, 6, 6])
        g.step("play 5C")
        g.step("suit D")
        assert g.current_player == 1
        assert legal_cards(g) == cards, variants


@pytest.mark.parametrize("preset", COUNTDOWNS)
def test_house_skip_reverse_draw_two_countdowns(preset):
    """Source (Pagat, Countdown): "suppose that our house rule is that 4 skips the next
    player" ... "suppose that Aces reverse direction" ... "Wild / Draw Two. The next player
    must either draw two cards or play a Two" and "Gordon Lancop's Crazy Eights Countdown
    app for Android features special cards for Skip, Reverse, Draw Two and Draw Five which
    can be configured according to the player's preference." Variant
    `house_skip_reverse_draw_two`, 3 players, scores 5 (no card here is wild): `4H` skips
    P1, `AH` reverses (P2 plays next), `2H` makes P1 draw two or play a two. Without the
    variant `4H` and `AH` are ordinary in every countdown; `2H` is ordinary in
    crazy_eights_countdown and already a draw-two in the blog version and in bitch; bitch's
    ace already skips, and with the variant it also reverses (P1 plays next: the
    direction turns and P2 is skipped)."""
    hands = [["4H", "AH", "2H", "3C"], ["TS", "KD", "2S"], ["6S", "3D"]]
    stock = ["TC", "9C", "4C", "6H", "6C", "9D"]
    ace_plain = 2 if preset == "bitch" else 1
    ace_variant = 1 if preset == "bitch" else 2
    two_plain = 0 if preset == "crazy_eights_countdown" else 2
    for variants, after_4, after_a, direction_a, two in (
        ((), 1, ace_plain, 1, two_plain),
        (("house_skip_reverse_draw_two",), 2, ace_variant, -1, 2),
    ):
        g = _pos(preset, hands, "9H", stock, *variants)
        g.step("play 4H")
        assert g.current_player == after_4, variants
        g = _pos(preset, hands, "9H", stock, *variants)
        g.step("play AH")
        assert (g.current_player, g.direction) == (after_a, direction_a), variants
        g = _pos(preset, hands, "9H", stock, *variants)
        g.step("play 2H")
        assert g.current_player == 1
        assert g.pending_draw == two, variants
        if two:
            assert legal(g) == {"play 2S", "accept"}


def test_no_replay_bitch():
    """Source (Bitch): "If you have to pick up, and you get a pick up card, you can lay
    it,but only at its original value." Variant `no_replay` takes that away: P1 accepts
    2 and draws `JH`; in the preset P1 may lay it at once (P2 then faces 5), with the
    variant the turn ends and P2 faces nothing."""
    hands = [["2H", "9S", "TS"], ["4D", "3C", "6D"], ["6S", "3D", "TD"]]
    stock = ["JH", "4C", "9C", "6H", "6C", "9D"]
    g = _pos("bitch", hands, "9H", stock)
    g.step("play 2H")
    g.step("accept")
    assert g.current_player == 1
    assert legal(g) == {"play JH", "pass"}
    g.step("play JH")
    assert g.current_player == 2
    assert g.pending_draw == 5
    g = _pos("bitch", hands, "9H", stock, "no_replay")
    g.step("play 2H")
    g.step("accept")
    assert "JH" in g.hand(1)
    assert g.current_player == 2
    assert g.pending_draw == 0


# --------------------------------------------------------------- openspiel_crazy_eights' own


def test_use_special_cards_openspiel_crazy_eights():
    """Source (OpenSpiel's crazy_eights): "Skip: if a player plays Q, then the next player is
    skipped", "Reverse: if a player plays A, then the direction of play is reversed.",
    "Draw 2: if a player plays 2, then the next player should draw 2 cards. However, it
    admits stacking." Variant `use_special_cards`, 3 players: `QH` skips P1, `AH` reverses
    (P2 next), `2H` makes P1 draw two or play `2S` (then P2 faces 4). Without the variant
    all three are ordinary (P1 next, nothing pending)."""
    preset = "openspiel_crazy_eights"
    hands = [["QH", "AH", "2H", "3C"], ["TS", "KD", "2S"], ["6S", "3D"]]
    stock = ["TC", "9C", "4C", "6H", "6C", "9D", "4D"]
    for variants, after_q, after_a, pending in (((), 1, 1, 0), (("use_special_cards",), 2, 2, 2)):
        for card, after in (("QH", after_q), ("AH", after_a)):
            g = _pos(preset, hands, "9H", stock, *variants)
            g.step(f"play {card}")
            assert g.current_player == after, (variants, card)
        g = _pos(preset, hands, "9H", stock, *variants)
        g.step("play 2H")
        assert g.current_player == 1
        assert g.pending_draw == pending, variants
    g = _pos(preset, hands, "9H", stock, "use_special_cards")
    g.step("play 2H")
    g.step("play 2S")
    assert g.current_player == 2
    assert g.pending_draw == 4


def test_reshuffle_openspiel_crazy_eights():
    """Source (OpenSpiel's crazy_eights): "If reshuffle = true, then the discard pile got
    reshuffle and become the new dealer card once exhausted." Variant `reshuffle`: with
    the stock empty, P0 (nothing playable on `KC`) draws from the discard pile turned into
    a new stock (all but the top card); without it P0 may only pass."""
    preset = "openspiel_crazy_eights"
    hands = [["3H", "4H", "6D", "9D"], ["4D", "TS", "KD"], ["6S", "3D"]]
    discard = ["3S", "4S", "9H", "KC"]
    plain = _pos(preset, hands, discard, [])
    assert legal(plain) == {"pass"}
    g = _pos(preset, hands, discard, [], "reshuffle")
    assert "draw" in legal(g)
    g.step("draw")
    assert len(g.hand(0)) == 5
    assert g.discard_pile() == ["KC"]
    drawn = set(g.hand(0)) - set(hands[0])
    assert drawn <= {"3S", "4S", "9H"}
