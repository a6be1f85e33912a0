"""Bad arguments of the public render functions (eights.render.__all__ and eights.render.rgb):
a TypeError or ValueError naming the argument and what it takes, never a KeyError,
IndexError, AttributeError or OverflowError from inside a helper, and no bad value drawn."""

import numpy as np
import pytest

import eights
from eights import render
from eights.render.rgb import frame_shape, table_rgb

GAME = eights.Game("crazy_eights", 2, seed=1)
TABLES = [render.table_text, render.game_html, table_rgb]


@pytest.mark.parametrize(
    "card, error, message",
    [
        ("ZZ", ValueError, "card must be a rank of A 2-9 T J Q K and a suit of C D H S"),  # was KeyError 'Z'
        ("10H", ValueError, "got '10H'"),  # was KeyError '0'
        ("", ValueError, "got ''"),  # was IndexError: string index out of range
        ("8h", ValueError, "got '8h'"),  # was KeyError 'h'
        (
            5,
            TypeError,
            r"card must be a card string such as '8H'.*got 5 \(type int\)",
        ),  # was TypeError: not subscriptable
    ],
)
def test_card_svg_refuses_what_is_not_a_card(card, error, message):
    with pytest.raises(error, match=message):
        render.card_svg(card)


def test_card_svg_face_up_is_a_flag():
    # Used to draw a face-up card for face_up=2 (any truthy value).
    with pytest.raises(TypeError, match=r"face_up must be True or False, got 2"):
        render.card_svg("8H", face_up=2)
    assert "card back" in render.card_svg(None) and "card back" in render.card_svg("8H", face_up=False)
    assert 'data-card="TD"' in render.card_svg("TD") and 'data-card="RJ"' in render.card_svg("RJ")


@pytest.mark.parametrize(
    "card, error",
    [
        (0, TypeError),  # was TypeError "object of type 'int' has no len()", naming no argument
        (None, TypeError),  # was the same
        ("ZZ", ValueError),  # was returned unchanged, as if it were a card
    ],
)
def test_card_symbol_refuses_what_is_not_a_card(card, error):
    with pytest.raises(error, match="card must be"):
        render.card_symbol(card)
    assert [render.card_symbol(c) for c in ("8H", "TD", "RJ", "BJ")] == ["8♥", "T♦", "RJ", "BJ"]


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        # names: too few was IndexError; ints were AttributeError (html) or TypeError from "+";
        # a string was taken letter by letter as the names.
        (dict(names=["a"]), ValueError, r"names must have one string per seat \(2\), got 1"),
        (dict(names=["a", "b", "c"]), ValueError, r"names must have one string per seat \(2\), got 3"),
        (dict(names=[1, 2]), TypeError, r"names\[0\] must be a string, got 1"),
        (dict(names="ab"), TypeError, "names must be a list of 2 strings"),
        # history: a seat out of range was IndexError; a non-pair a TypeError on unpacking;
        # an unknown action string was drawn as it was; inf was an OverflowError.
        (dict(history=[(5, 0)]), ValueError, r"a history seat must be in \[0, 1\], got 5"),
        (dict(history=5), TypeError, "history must be a sequence of"),
        (dict(history=[5]), TypeError, r"history must hold \(seat, action\) pairs, got 5"),
        (dict(history=[(0, "zz")]), ValueError, "a history action must be .* such as 'play 8H'.*got 'zz'"),
        (dict(history=[(0, float("inf"))]), TypeError, "a history action must be an integer"),
        # viewer: anything was taken silently, and showed every hand face down.
        (dict(viewer=2**64), ValueError, r"viewer must be in \[0, 1\], got 18446744073709551616"),
        (dict(viewer=2), ValueError, r"viewer must be in \[0, 1\], got 2"),
        (dict(viewer=-1), ValueError, r"viewer must be in \[0, 1\], got -1"),
        (dict(viewer="x"), TypeError, "viewer must be an integer, got 'x'"),
        (dict(viewer=object()), TypeError, "viewer must be an integer"),
        (dict(viewer=True), TypeError, "viewer must be an integer, got True"),
    ],
)
def test_table_pictures_check_their_arguments(table, kwargs, error, message):
    with pytest.raises(error, match=message):
        table(GAME, **kwargs)


@pytest.mark.parametrize("table", TABLES)
def test_table_pictures_need_a_game(table):
    # Used to raise AttributeError: 'int' object has no attribute 'num_players'.
    with pytest.raises(TypeError, match=r"game must be an eights.Game, got 0 \(type int\)"):
        table(0)
    # What the envs and the terminal pass still draws: numpy seats and ids, action strings.
    history = [(np.int64(0), np.int64(GAME.legal_actions()[0])), (1, "draw")]
    out = table(GAME, viewer=np.int64(1), history=history, names=("Ann", "Bob"))
    if isinstance(out, str):
        assert "Ann" in out and "Bob" in out and "draw" in out


@pytest.mark.parametrize(
    "game, action, error, message",
    [
        (0, 0, TypeError, r"game must be an eights.Game, got 0"),  # was AttributeError: no action_to_string
        (GAME, float("inf"), TypeError, r"action must be an integer in \[0, 197\), got inf"),  # was OverflowError
        (GAME, 1.5, TypeError, "action must be an integer"),  # was silently action 1
        (GAME, True, TypeError, "action must be an integer"),  # was silently action 1
        (GAME, None, TypeError, "action must be an integer"),  # was TypeError from int(), naming nothing
        (GAME, 197, ValueError, r"action must be an action id in \[0, 197\)"),  # was the engine's message
        (GAME, "suit Z", ValueError, "action must be .*action string .*got 'suit Z'"),  # was returned unchanged
        # A long string was returned unchanged, all of it (the engine's message quotes it whole).
        pytest.param(GAME, "x" * 10**6, ValueError, r"got 'xxx.*\.\.\. \(type str\)$", id="long-string"),
    ],
)
def test_action_text_checks_its_arguments(game, action, error, message):
    with pytest.raises(error, match=message):
        render.action_text(game, action)


def test_action_text_writes_action_strings_the_engine_way():
    # An action string the engine reads is written as the engine writes it (was left as typed).
    assert render.action_text(GAME, "PLAY 8h") == "play 8♥" == render.action_text(GAME, "play 8H")
    assert render.action_text(GAME, np.int64(GAME.string_to_action("suit D"))) == "suit ♦"


def test_frame_shape_needs_a_player_count():
    # "x" used to raise a TypeError about adding a str to an int; -3 gave a negative height.
    with pytest.raises(TypeError, match="num_players must be an integer, got 'x'"):
        frame_shape("x")
    with pytest.raises(ValueError, match="num_players must be >= 2, got -3"):
        frame_shape(-3)
    assert frame_shape(np.int64(3)) == frame_shape(3)
