"""``python -m eights play``: a person against bots in the terminal, driven by a scripted
standard input."""

import os
import subprocess
import sys

import pytest

import eights
from eights.cli.terminal import parse_move


def _run(args, stdin, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "eights", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        encoding="utf-8",
    )


def test_full_game_answering_the_first_legal_move():
    # Enough "1" answers for any game up to the engine's decision cap.
    res = _run(["--preset", "switch_blackjack", "--players", "3", "--seed", "5", "--bots", "heuristic"], "1\n" * 6000)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "Your moves:" in out and " 1) " in out
    assert "Result: " in out and "Scores:" in out and "Hand points:" in out
    assert "unfinished" not in out
    assert "P1 (heuristic): " in out  # what the bots did is shown
    assert res.stderr == ""


def test_bad_input_is_explained_and_asked_again():
    res = _run(["--preset", "crazy_eights", "--players", "2", "--seed", "1"], "xyzzy\n99\n0\nchallenge\n\nquit\n")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "'xyzzy' is not a move I know" in out
    assert "there is no move number 99" in out and "there is no move number 0" in out
    assert "'challenge' is not allowed" in out and "Legal moves: " in out
    assert "no move given" in out
    assert out.count("Your move?") == 5  # asked again after each of the five bad answers
    assert "unfinished" in out  # quit leaves cleanly


@pytest.mark.parametrize("errors", ["", "utf-8:strict"])
def test_a_line_that_is_not_text_is_explained_and_asked_again(errors):
    # Bytes that are not UTF-8 were read as '\udcff\udcfe' (TypeError in string_to_action:
    # a traceback, exit 1), or under a locale that decodes strictly, a UnicodeDecodeError
    # that ended the game (exit 2).
    env = dict(os.environ, PYTHONIOENCODING=errors) if errors else None
    res = subprocess.run(
        [sys.executable, "-m", "eights", "play", "--seed", "1", "--bots", "random"],
        input=b"\xff\xfe\nquit\n",
        capture_output=True,
        timeout=120,
        env=env,
    )
    out, err = res.stdout.decode("utf-8", "replace"), res.stderr.decode("utf-8", "replace")
    assert res.returncode == 0 and err == "", err
    assert "'\\udcff\\udcfe' is not a move I know" in out and out.count("Your move?") == 1
    assert "unfinished" in out  # the next line, quit, was read


def test_end_of_input_exits_cleanly():
    res = _run(["--seed", "0"], "")
    assert res.returncode == 0 and "Traceback" not in res.stderr
    assert "unfinished" in res.stdout


def test_bad_arguments_are_reported():
    res = _run(["--preset", "no_such_preset"], "")
    assert res.returncode == 2 and "crazy_eights" in res.stderr
    res = _run(["--bots", "genius"], "")
    assert res.returncode == 2 and "heuristic" in res.stderr
    res = _run(["--players", "3", "--seat", "3"], "")
    assert res.returncode == 2 and "seat" in res.stderr


def _position():
    # Seat 0 holds 8H, TD, 3C on top card 5D (crazy_eights: follow suit or rank, eights wild).
    return eights.Game.from_position("crazy_eights", 2, hands=[["8H", "TD", "3C"], ["4S", "KS"]], discard=["5D"])


@pytest.mark.parametrize(
    "text,expected",
    [
        ("8h", "play 8H"),
        ("PLAY 8h", "play 8H"),
        ("10D", "play TD"),
        ("td", "play TD"),
        ("8♥", "play 8H"),
        ("draw", "draw"),
        (" Draw ", "draw"),
    ],
)
def test_parse_move_reads_cards_and_words(text, expected):
    game = _position()
    action, why = parse_move(game, text)
    assert why == "" and game.action_to_string(action) == expected


def test_parse_move_numbers_follow_the_listed_order():
    game = _position()
    legal = game.legal_actions()
    assert parse_move(game, "1")[0] == legal[0]
    assert parse_move(game, str(len(legal)))[0] == legal[-1]


@pytest.mark.parametrize(
    "text,why",
    [
        ("\udcff\udcfe", "is not a move I know"),  # undecodable bytes: string_to_action raised TypeError
        ("²", "is not a move I know"),  # str.isdigit, but int() refused it
        ("+-1", "is not a move I know"),
        ("٣", "is not a move I know"),  # an Arabic-Indic 3: not a move number
        ("1" * 5000, "there is no move number 1111"),  # int() refuses over 4300 digits
        ("-1", "there is no move number -1"),
        ("0000", "there is no move number 0"),
    ],
)
def test_parse_move_refuses_what_is_not_a_move_number(text, why):
    action, message = parse_move(_position(), text)
    assert action is None and why in message
    assert len(message) < 200  # a long line is not repeated whole


def test_parse_move_reads_signs_and_leading_zeros_in_numbers():
    game = _position()
    legal = game.legal_actions()
    assert parse_move(game, "+2") == (legal[1], "")
    assert parse_move(game, "0" * 5000 + "1") == (legal[0], "")


def test_parse_move_explains_what_is_wrong():
    game = _position()
    action, why = parse_move(game, "9c")
    assert action is None and "do not hold 9♣" in why
    action, why = parse_move(game, "3c")  # held, but neither suit nor rank matches 5D
    assert action is None and "3♣ cannot be played on 5♦" in why and "play 8H" in why
    game.step("play 8H")  # an eight: now a suit is named
    action, why = parse_move(game, "s")
    assert why == "" and game.action_to_string(action) == "suit S"


def test_bots_that_keep_the_turn_end_the_game_unfinished(monkeypatch):
    # Every rank wild with an extra turn, and no card may go out: a bot that starts keeps the
    # turn until the decision cap. The terminal printed its moves for ever (600,000 in 5 s
    # under no cap); it stops after MAX_OPPONENT_MOVES bot moves in a row.
    import io

    from eights.agents import seats
    from eights.cli import terminal

    monkeypatch.setattr(seats, "MAX_OPPONENT_MOVES", 40)
    monkeypatch.setattr(terminal, "MAX_OPPONENT_MOVES", 40)
    card = {"wild": {"enabled": True}, "extra_turn": True, "last_special": "cannot_go_out"}
    rules = {
        "cards": {rank: dict(card) for rank in "A23456789TJQK"},
        "draw": {"voluntary": False},
        "limits": {"max_decisions": 10_000_000},
    }
    seed = next(s for s in range(100) if eights.Game("crazy_eights", 2, seed=s, rules=rules).current_player == 1)
    out = io.StringIO()

    def no_input():
        raise EOFError

    status = terminal.play(
        "crazy_eights", 2, seat=0, bots=["random"], seed=seed, rules=rules, read_line=no_input, out=out
    )
    text = out.getvalue()
    assert status == 0
    assert "The bots made 40 moves in a row without you" in text and "limits.max_decisions" in text
    assert text.count("P1 (random): ") == 40
    assert "Result: no winner." in text


def test_a_bot_from_a_weights_file_is_shown_by_the_files_label_not_its_path(tmp_path):
    # `--bots DIR/net.safetensors` was shown by its absolute path in every line of the game.
    import shutil
    from pathlib import Path

    weights = Path(__file__).resolve().parents[3] / "src" / "bots" / "weights" / "net.safetensors"
    if not weights.is_file():
        pytest.skip("the repository's weights file is not beside the tests")
    mine = tmp_path / "deep" / "folder" / "mybot.safetensors"
    mine.parent.mkdir(parents=True)
    shutil.copyfile(weights, mine)
    res = _run(["--seed", "3", "--bots", str(mine)], "1\n" * 400)
    assert res.returncode == 0, res.stderr
    from eights.agents.files import agent_file_label

    label = agent_file_label(str(mine))  # the file's own name for itself, as the arena shows it
    assert label and "/" not in label
    assert f"You are seat 0; P1: {label}." in res.stdout
    assert f"P1 ({label}): " in res.stdout
    assert str(tmp_path) not in res.stdout
