"""Scenario checks LS-1 .. LS-6 (docs/rules_catalog.md#larby_switch-scenario-checks) for `larby_switch`,
plus the mirror, joker, five-card, direction and last-card rules of its preset section
(docs/rules_catalog.md#larby_switch).

Preset facts used (docs/rules_catalog.md#larby_switch, A06, A45, A46): 2-6 players, one pack (two from six
players) with a red joker `RJ` and a black joker `BJ` of distinct colours, deal 5, the
start card acts as if the dealer had played it; the dealer chooses the direction
(parameter `order.initial_direction`, default clockwise from the dealer's left; anticlockwise
starts with P(n-2)); suit-or-rank matching; several cards of one rank may be played together
(not kings), the first legal; drawing is voluntary, one card, and ends the turn.
A = the next player picks up 5 or plays an ace; the penalty stays 5 (A06), also for
several aces at once. 2 = pick up 2 per two or play a two (sum). 3 = every other player
picks up 1 per three, without losing their turn. 7 = any number of cards of its suit may
follow (several 7s may lead: then the last 7's suit); only the last card acts. 8 = skip one
player per eight; 10 = reverse once however many; J = wild (nominate), not on a joker or a
pending penalty (A45); K = extra turn, one king at a time; joker = only on a K, and only a K
of its colour may follow it (RJ: KD/KH, BJ: KC/KS) or the player picks up 1.
Q = mirror: directly on a pending A or 2 of its suit, or on a mirroring Q (any Q), the
direction reverses and the A/2's player must pick up or answer (A/2, or any Q); an even
number of Qs sends the penalty back to the Q player, who takes it at once. On a 3: the other
players holding a Q of the 3's suit are asked in turn order from next(p) (priority window,
A46); after a mirror the 3's player picks up (n-1) x (number of 3s) and the others nothing,
the 3's player may mirror back with any Q, and play continues with next(3-player).
Five-card rule: at the start of a turn with fewer than 5 cards in the stock, each player
holding more than 5 keeps 5 of their choice; the rest are shuffled into the stock.
Last card: `mode = action`, penalty 1 when left holding one card without announcing.

Engine conventions: the mirror window is the "chain" phase: a polled player has "play Q"
and "pass", the player made to pick up for everyone has "play Q" (any queen) and "accept"
(and picks up at once when holding no queen); the keep choices are the "keep" phase with
"keep X" actions, five per player.  Apart from the last-card tests, `last_card.mode` is
switched off so that "announce" cannot enter the legal sets asserted here.
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    dealt_game,
    legal,
    multiset,
    play_turn,
    plays,
    position,
)

PRESET = "larby_switch"
RULES = {"last_card": {"mode": "off"}}


def _pos(n, hands, discard, **kw):
    kw.setdefault("rules", RULES)
    return position(PRESET, n, hands=hands, discard=discard, **kw)


def _sizes(g):
    return [len(g.hand(p)) for p in range(g.num_players)]


# ----- LS-1: aces ---------------------------------------------------------------------------


def test_LS_1_ace_start_card_then_second_ace_stays_five():
    """LS-1: n=3, start card `AC`. P0 must pick up 5 or play an ace. P0 plays `AH`:
    P1 must pick up 5 (not 10) or play an ace."""
    hands = [
        ["AH", "5D", "6S", "JD", "9H"],  # JD: a jack can't be played on a pending penalty
        ["AS", "3C", "7D", "QD", "JH"],  # QD: not the suit of AH, so no mirror
        ["4H", "6H", "8H", "TH", "2D"],
    ]
    g = dealt_game(PRESET, 3, hands=hands, start="AC", rules=RULES)
    assert g.current_player == 0
    assert g.phase == "chain"
    assert g.pending_draw == 5
    assert legal(g) == {"play AH", "accept"}

    g.step("play AH")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 5
    assert legal(g) == {"play AS", "accept"}
    before = len(g.hand(1))
    stock = g.stock()
    g.step("accept")
    assert len(g.hand(1)) == before + 5
    assert g.stock() == stock[5:]
    # Picking up counts as the turn and consumes the effect: P2 plays normally.
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.pending_draw == 0


def test_LS_1b_several_aces_at_once_are_still_five():
    """A06 (R): several aces played at once still make the next player pick up 5."""
    g = _pos(3, [["AH", "AD", "9C"], ["5S", "6S"], ["7S", "8C"]], ["4H"])
    play_turn(g, "AH AD")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 5


# ----- LS-2: threes -------------------------------------------------------------------------


def test_LS_2_three_makes_every_other_player_pick_up_one():
    """LS-2: n=4. P0 plays `3D`: P1, P2 and P3 each pick up 1; then P1 acts normally on 3D."""
    stock = ["4C", "6S", "9C", "TC", "8C", "KS", "2S", "5H"]
    g = _pos(4, [["3D", "9S", "4H"], ["6C", "7H", "8D"], ["8S", "TS"], ["2H", "KC"]], ["5D"], stock=stock)
    g.step("play 3D")
    assert _sizes(g) == [2, 4, 3, 3]
    assert multiset(g.stock()) == multiset(stock[3:])
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.top_card == "3D"
    # On 3D: a diamond or a three, or draw (no stock card drawn matches 3D).
    assert legal(g) == {"play 8D", "draw"}


def test_LS_2b_two_threes_make_each_pick_up_two():
    """LS-2: with `3D 3C` played, each other player picks up 2."""
    g = _pos(4, [["3D", "3C", "4H"], ["6S", "7H"], ["8S", "TS"], ["2H", "KH"]], ["5D"])
    play_turn(g, "3D 3C")
    assert _sizes(g) == [1, 4, 4, 4]
    assert g.current_player == 1
    assert g.phase == "play"


def test_three_mirrored_by_a_queen_of_its_suit():
    """3.22 mirror rules: any other player may answer a 3 with a Q of its suit; the 3's player
    then picks up what all the others would have, (n-1) x 1 = 3, the others nothing; the
    direction is unchanged and play continues with next(3-player)."""
    g = _pos(4, [["3D", "9S", "4H"], ["6C", "7H"], ["QD", "TS", "5C"], ["2H", "KC"]], ["5D"])
    g.step("play 3D")
    # P1 holds no QD and is not asked; P2 is.
    assert g.current_player == 2
    assert legal(g) == {"play QD", "pass"}
    g.step("play QD")
    # P0 holds no queen to mirror back: P0 picks up 3, nobody else picks up.
    assert _sizes(g) == [2 + 3, 2, 2, 2]
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.direction == 1
    assert g.top_card == "QD"


def test_three_mirror_mirrored_back_with_any_queen():
    """3.22: the 3's player may mirror back with any Q, and then the first Q's player picks up
    for everyone."""
    g = _pos(4, [["3D", "QS", "4H"], ["6C", "7H"], ["QD", "TS", "5C"], ["2H", "KC"]], ["5D"])
    g.step("play 3D")
    g.step("play QD")
    assert g.current_player == 0
    assert g.phase == "chain"
    assert g.pending_draw == 3
    assert legal(g) == {"play QS", "accept"}
    g.step("play QS")
    # P2 holds no queen now: P2 picks up 3 for everyone.
    assert _sizes(g) == [1, 2, 2 + 3, 2]
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.direction == 1


def test_three_mirror_declined_everyone_picks_up():
    """A46: a polled player may decline; then the 3 acts as usual."""
    g = _pos(4, [["3D", "9S", "4H"], ["6C", "7H"], ["QD", "TS", "5C"], ["2H", "KC"]], ["5D"])
    g.step("play 3D")
    g.step("pass")
    assert _sizes(g) == [2, 3, 4, 3]
    assert g.current_player == 1
    assert g.phase == "play"


# ----- LS-3 / LS-4: queens mirror aces and twos -----------------------------------------------


def test_LS_3_queen_mirrors_an_ace():
    """LS-3: n=4. P0 plays `AH`; P1 plays `QH`: d=ccw and P0 must pick up 5 or play an ace or
    a queen. P0 picks up 5: P3 acts."""
    g = _pos(
        4,
        [["AH", "AD", "QS", "5C", "7C"], ["QH", "QD", "4D", "8S"], ["6S", "9D"], ["2H", "KC"]],
        ["9H"],
    )
    play_turn(g, "AH")
    assert g.current_player == 1
    assert g.pending_draw == 5
    # Only the queen of the ace's suit mirrors it (QD does not).
    assert legal(g) == {"play QH", "accept"}
    play_turn(g, "QH")
    assert g.direction == -1
    assert g.current_player == 0
    assert g.phase == "chain"
    assert g.pending_draw == 5
    assert legal(g) == {"play AD", "play QS", "accept"}
    g.step("accept")
    assert len(g.hand(0)) == 4 + 5
    assert g.current_player == 3
    assert g.phase == "play"


def test_LS_4_queen_mirrors_a_two_and_is_mirrored_back():
    """LS-4: n=4. P0 plays `2C`; P1 plays `QC`: d=ccw and P0 must pick up 2 or play a 2 or a
    queen. P0 plays `QS`: d=cw and P1 must pick up 2 or play a 2 or a queen."""
    g = _pos(
        4,
        [["2C", "QS", "2H", "8D", "9D"], ["QC", "QD", "6S", "2S"], ["6H", "9H"], ["4H", "KH"]],
        ["5C"],
    )
    play_turn(g, "2C")
    assert g.current_player == 1
    assert g.pending_draw == 2
    assert legal(g) == {"play QC", "play 2S", "accept"}
    play_turn(g, "QC")
    assert g.direction == -1
    assert g.current_player == 0
    assert g.pending_draw == 2
    assert legal(g) == {"play QS", "play 2H", "accept"}
    play_turn(g, "QS")
    assert g.direction == 1
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play QD", "play 2S", "accept"}


def test_even_number_of_queens_sends_the_penalty_back_at_once():
    """3.22 (R): an even number of queens sends the effect back to their player, who takes
    it at once; the direction is unchanged and the next player plays normally."""
    g = _pos(4, [["2C", "8D", "9D"], ["QC", "QS", "6S"], ["6H", "9H"], ["4H", "KH"]], ["5C"])
    play_turn(g, "2C")
    play_turn(g, "QC QS")
    assert len(g.hand(1)) == 1 + 2
    assert g.direction == 1
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.pending_draw == 0


def test_queen_on_a_taken_penalty_is_ordinary():
    """3.22: a Q on an A or 2 whose penalty has been taken is an ordinary card."""
    g = _pos(4, [["QC", "8D"], ["6S", "7S"], ["6H", "9H"], ["4H", "KH"]], ["2C"])
    assert g.pending_draw == 0
    g.step("play QC")
    assert g.direction == 1
    assert g.current_player == 1
    assert g.phase == "play"


# ----- LS-5: kings and jokers ---------------------------------------------------------------


def test_LS_5_king_extra_turn_then_red_joker_lock():
    """LS-5: P0 plays `KH`: P0 acts again. P0 plays `RJ`: P1 must play `KD` or `KH`, or pick
    up 1; `JD` and `QH` are illegal on `RJ`."""
    g = _pos(3, [["KH", "RJ", "5C", "6C"], ["KD", "KC", "JD", "QH", "5H"], ["7S", "8S"]], ["9H"])
    # A joker goes only on a king.
    assert "play RJ" not in legal(g)
    g.step("play KH")
    assert g.current_player == 0
    assert g.phase == "play"
    assert "play RJ" in legal(g)
    g.step("play RJ")
    assert g.current_player == 1
    assert legal(g) == {"play KD", "draw"}
    g.step("draw")
    # The lock stays while the joker is on top.
    assert g.current_player == 2
    assert g.top_card == "RJ"
    assert legal(g) == {"draw"}


def test_LS_5b_black_joker_only_black_kings():
    """LS-5: after `BJ` only `KC` or `KS` may follow."""
    g = _pos(3, [["KC", "KS", "KD", "JS", "QS"], ["5H"], ["7S"]], ["KH", "BJ"])
    assert legal(g) == {"play KC", "play KS", "draw"}


def test_several_jokers_on_one_king():
    """3.22: several jokers may go on one K; the last joker's colour decides."""
    g = _pos(3, [["KH", "RJ", "BJ", "5C"], ["KD", "KC", "5H"], ["7S"]], ["9H"])
    g.step("play KH")
    play_turn(g, "RJ BJ")
    assert g.current_player == 1
    assert legal(g) == {"play KC", "draw"}


def test_kings_are_played_one_at_a_time():
    """3.22: kings are not played together; each gives its own extra turn."""
    g = _pos(3, [["KH", "KD", "5C"], ["2S"], ["7S"]], ["9H"])
    g.step("play KH")
    assert g.phase == "play"
    assert g.current_player == 0
    g.step("play KD")
    assert g.current_player == 0
    assert legal(g) == {"draw"}  # 5C matches neither KD's suit nor its rank
    g.step("draw")
    assert g.current_player == 1


# ----- LS-6: multiples and runs -------------------------------------------------------------


def test_LS_6a_two_eights_skip_two():
    """LS-6 (a): n=4. P0 plays `8S 8D`: P3 acts."""
    g = _pos(4, [["8S", "8D", "5C"], ["6H"], ["7H"], ["9H"]], ["4S"])
    play_turn(g, "8S 8D")
    assert g.current_player == 3
    assert g.phase == "play"


def test_LS_6b_two_tens_reverse_once():
    """LS-6 (b): n=4. P0 plays `TS TD`: one reverse; P3 acts."""
    g = _pos(4, [["TS", "TD", "5C"], ["6H"], ["7H"], ["9H"]], ["4S"])
    play_turn(g, "TS TD")
    assert g.direction == -1
    assert g.current_player == 3


def test_LS_6c_seven_run_only_last_card_acts():
    """LS-6 (c): n=4. P0 plays `7C 3C 9C 2C`: only `2C` acts; P1 picks up 2 or plays a 2."""
    g = _pos(4, [["7C", "3C", "9C", "2C", "4D"], ["2D", "7S", "9H"], ["6H", "5S"], ["TH", "8S"]], ["5C"])
    play_turn(g, "7C 3C 9C 2C")
    # The 3 inside the run did nothing: nobody picked up.
    assert _sizes(g) == [1, 3, 2, 2]
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play 2D", "accept"}


def test_several_sevens_lead_a_run_in_the_last_sevens_suit():
    """3.22: several 7s may come first; then cards of the last 7's suit."""
    g = _pos(3, [["7C", "7D", "5D", "5C", "7H", "9S"], ["6H"], ["8H"]], ["4C"])
    g.step("play 7C")
    assert legal(g) == plays("7D 7H 5C") | {"end"}
    g.step("play 7D")
    assert g.phase == "continue"
    # The run now follows diamonds, the last seven's suit; more sevens may still lead.
    assert legal(g) == plays("5D 7H") | {"end"}
    g.step("play 5D")
    # After a non-seven, only the suit may follow: neither 5C nor 7H; the turn ends.
    assert g.current_player == 1
    assert g.top_card == "5D"


# ----- jacks, direction, five-card rule, last card -------------------------------------------


def test_jack_is_wild_but_not_on_a_joker():
    """3.22: a J may be played on any card except a joker, and nominates a suit."""
    g = _pos(3, [["JD", "5C"], ["6H"], ["8H"]], ["9S"])
    g.step("play JD")
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g2 = _pos(3, [["JD", "5C"], ["6H"], ["8H"]], ["KH", "RJ"])
    assert legal(g2) == {"draw"}


def test_dealer_chooses_anticlockwise():
    """3.22: with `order.initial_direction = ccw` play starts with P(n-2), anticlockwise."""
    hands = [
        ["4C", "5C", "6C", "8C", "9C"],
        ["4D", "5D", "6D", "8D", "9D"],
        ["4H", "5H", "6H", "8H", "9H"],
        ["4S", "5S", "6S", "8S", "9S"],
    ]
    rules = dict(RULES, order={"initial_direction": "ccw"})
    g = dealt_game(PRESET, 4, hands=hands, start="TC", rules=rules)
    # The start TC reverses as if the dealer (P3) had played it: from anticlockwise to clockwise.
    assert g.direction == 1
    assert g.current_player == 0
    # Default clockwise: a TD start reverses to anticlockwise, so the dealer's right (P2) starts.
    g = dealt_game(PRESET, 4, hands=hands, start="TD", rules=RULES)
    assert g.direction == -1
    assert g.current_player == 2
    # Anticlockwise with a plain start card: P(n-2) = P2 starts.
    g = dealt_game(PRESET, 4, hands=hands, start="7D", rules=rules)
    assert g.direction == -1
    assert g.current_player == 2


def test_five_card_rule_keeps_five_of_each_players_choice():
    """3.22: at the start of a turn with fewer than 5 cards in the stock, each player holding
    more than 5 keeps 5 of their choice; the others go into the stock. Players with 5 or
    fewer do nothing."""
    p1 = ["2C", "3C", "4D", "5D", "6H", "7H", "8S", "9S"]
    p2 = ["2H", "3H", "4S", "5S", "6C", "7C"]
    g = _pos(3, [["4C", "KS"], p1, p2], ["9C"], stock=["TD", "TH", "TS"])
    g.step("play 4C")
    assert g.phase == "keep"
    assert g.current_player == 1
    assert {a for a in legal(g)} == {f"keep {c}" for c in p1}
    for c in ["2C", "4D", "6H", "8S", "9S"]:
        g.step(f"keep {c}")
    assert multiset(g.hand(1)) == multiset(["2C", "4D", "6H", "8S", "9S"])
    assert g.phase == "keep"
    assert g.current_player == 2
    for c in ["2H", "3H", "4S", "5S", "6C"]:
        g.step(f"keep {c}")
    assert multiset(g.hand(2)) == multiset(["2H", "3H", "4S", "5S", "6C"])
    assert len(g.hand(0)) == 1
    assert multiset(g.stock()) == multiset(["TD", "TH", "TS", "3C", "5D", "7H", "7C"])
    assert g.current_player == 1
    assert g.phase == "play"


def test_five_card_rule_with_a_dead_pile_shuffles_the_pile_back():
    """3.22, catalog resolution (docs/fidelity.md D10). "Joker: … the next card played on a
    coloured joker must be a red King" and "If there are fewer than 5 cards in the pick up
    deck, every player chooses a hand of 5 cards to keep and adds the others to the pick up
    deck": with both red kings under the red joker, no card outside the pile may ever follow
    it, and the five-card rule alone would only pass the same hands round for ever. So when
    the rule is due and no card in the stock or in any hand may be played on the top, the
    pile under the top is shuffled into the stock first."""
    hands = [["5C", "6C", "7C", "8C", "9C"], ["5S", "6S", "7S", "8S", "9S"]]
    g = _pos(2, hands, ["KD", "3H", "KH", "5D", "6D", "RJ"], stock=["4D", "4H"])
    # P0 can only pick up; the stock (2 cards) is below five at P1's turn.
    assert legal(g) == {"draw"}
    g.step("draw")
    assert g.current_player == 1
    assert g.top_card == "RJ"
    # The pile under the joker went back into the stock, so the five-card rule is not due.
    assert g.phase == "play"
    assert g.discard_pile() == ["RJ"]
    assert multiset(g.stock()) == multiset(["4H", "KD", "3H", "KH", "5D", "6D"])
    assert legal(g) == {"draw"}
    assert multiset(g.hand(0)) == multiset(hands[0] + ["4D"])


def test_five_card_rule_leaves_the_pile_when_a_card_may_follow():
    """3.22: the pile stays where it is when some card outside it may follow the top (here
    `KD`, in P1's hand); then the five-card rule runs as written."""
    hands = [["5C", "6C", "7C", "8C", "9C"], ["5S", "6S", "7S", "8S", "KD"]]
    g = _pos(2, hands, ["3H", "KH", "RJ"], stock=["4D", "4H"])
    g.step("draw")
    # P0 holds 6 cards: the five-card rule asks P0 to keep five; the pile is untouched.
    assert g.phase == "keep"
    assert g.current_player == 0
    assert g.discard_pile() == ["3H", "KH", "RJ"]


def test_keep_rejects_a_card_not_held():
    g = _pos(3, [["4C", "KS"], ["2C", "3C", "4D", "5D", "6H", "7H"], ["2H"]], ["9C"], stock=["TD"])
    g.step("play 4C")
    assert g.phase == "keep"
    with pytest.raises(eights.IllegalActionError):
        g.step("keep AS")
    g.step("keep 2C")
    with pytest.raises(eights.IllegalActionError):
        g.step("keep 2C")


def test_last_card_penalty_one():
    """3.22: left with one card without saying "last card", the player picks up one."""
    g = position(PRESET, 3, hands=[["5C", "6H"], ["7S"], ["8S"]], discard=["9C"])
    g.step("play 5C")
    assert len(g.hand(0)) == 2
    g = position(PRESET, 3, hands=[["5C", "6H"], ["7S"], ["8S"]], discard=["9C"])
    g.step("announce")
    g.step("play 5C")
    assert len(g.hand(0)) == 1


def test_up_to_six_players_five_cards():
    """3.22: 2-6 players, 5 cards each."""
    for n in range(2, 7):
        g = eights.Game(PRESET, n, seed=3)
        assert all(len(g.hand(p)) >= 5 for p in range(n))
    with pytest.raises(ValueError):
        eights.Game(PRESET, 7, seed=3)


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_LS_fidelity_three_start_card_others_than_dealer_pick_up_one():
    """Source (Larby): "Any special effect of the the first turned up card applies"
    and "Three (any suit): every player except person who played the 3 picks up one
    card." (the dealer counts as its player)

    n=3, start `3C`: P0 and P1 pick up 1, the dealer P2 does not; P0 then acts."""
    hands = [
        ["4D", "5D", "6D", "9D", "QD"],
        ["4H", "5H", "6H", "9H", "QH"],
        ["4S", "5S", "6S", "9S", "QS"],
    ]
    g = dealt_game(PRESET, 3, hands=hands, start="3C", stock=["TD", "TH", "TS", "KD"], rules=RULES)
    assert _sizes(g) == [6, 6, 5]
    assert g.stock()[:2] == ["TS", "KD"]
    assert g.current_player == 0


def test_LS_fidelity_several_twos_at_once_two_each():
    """Source (Larby): "Playing multiple twos causes the next player to pick up two
    cards for each 2."

    n=3: P0 plays `2H 2S` together; P1 (no 2, no Q) must pick up 4."""
    g = _pos(
        3,
        [["2H", "2S", "4C", "5C"], ["4H", "5D"], ["6H", "7D"]],
        ["9H"],
        stock=["2D", "3D", "4D", "6D", "8D"],
    )
    play_turn(g, "2H 2S")
    assert g.current_player == 1
    assert g.pending_draw == 4
    assert legal(g) == {"accept"}


def test_LS_fidelity_a_pick_up_consumes_the_jacks_named_suit():
    """Source (Switch, David Larby): "Note that picking up cards (except when a three is
    played) counts as your turn, and consumes the special effect, so the following player
    plays normally." with "Jack: can be played on any card (except a joker) and the player
    specifies which suit should be played next" (docs/fidelity.md, D34).

    n=3. P0 plays `JC` on `9C` naming hearts; P1 picks up. P2 plays normally on `JC`: a
    club or a jack (`7C`), not `6H`. The engine held P2 to hearts."""
    g = _pos(3, [["JC", "3D", "4D"], ["4S", "5S"], ["6H", "7C", "9D"]], ["9C"], stock=["2D", "3S", "4H", "5D", "6D"])
    g.step("play JC")
    g.step("suit H")
    assert g.current_player == 1 and legal(g) == {"draw"}
    g.step("draw")
    assert g.current_player == 2 and g.nominated_suit is None
    assert legal(g) == plays("7C") | {"draw"}


def test_LS_fidelity_a_pick_up_consumes_a_turned_up_jacks_named_suit():
    """Source: "Any special effect of the the first turned up card applies" with the note
    that picking up "consumes the special effect, so the following player plays normally"
    (D34). n=3, `JC` turned up: the dealer (P2) names hearts, P0 (no heart) picks up, and P1
    follows the jack of clubs: `9C`, not its hearts."""
    hands = [["3D", "4D", "6D", "7S", "9D"], ["3H", "4H", "6H", "7H", "9C"], ["3S", "4S", "6S", "8D", "9S"]]
    g = dealt_game(PRESET, 3, hands=hands, start="JC", stock=["2D", "5D", "KD", "QD", "TD", "5S"], rules=RULES)
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit H")
    assert g.current_player == 0 and legal(g) == {"draw"}
    g.step("draw")
    assert g.current_player == 1 and g.nominated_suit is None
    assert legal(g) == plays("9C") | {"draw"}


def test_LS_fidelity_the_player_after_a_jack_is_still_held_to_its_suit():
    """The other side of D34: the player after the jack follows the named suit ("which suit
    should be played next"), not the jack's own (`JC` naming hearts: `6H`, not `7C`)."""
    g = _pos(3, [["JC", "3D", "4D"], ["6H", "7C"], ["4S", "5S"]], ["9C"], stock=["2D", "3S", "4H", "5D", "6D"])
    g.step("play JC")
    g.step("suit H")
    assert legal(g) == plays("6H") | {"draw"}
