"""A bot name that names no bot says what it looks like it meant, in the engine's one message
(``eights.Bot``, ``parse_bot``, ``as_agent``, ``--agents`` alike); a training run's folder is a
bot name for the weights file it holds, but never shadows a built-in bot's name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import eights
from eights._core import parse_bot
from eights.agents import as_agent

REPO = Path(__file__).resolve().parents[3]
WEIGHTS = REPO / "src" / "bots" / "weights" / "net.safetensors"  # a card network: every rule set


def _message(name: str) -> str:
    with pytest.raises(ValueError) as info:
        eights.Bot(name)
    return str(info.value)


@pytest.mark.parametrize(
    "name, guess",
    [
        ("heuristc", '"heuristic"'),
        ("rnadom", '"random"'),  # two letters swapped
        ("ISMCT:400", '"ismcts:400"'),  # its parameter kept
        ("pim:3", '"pimc:3"'),
        ("nett", '"net"'),
    ],
)
def test_a_misspelt_bot_name_gets_the_name_it_was_near(name, guess):
    text = _message(name)
    assert text.startswith(f'unknown bot "{name}" (did you mean {guess}?); allowed bots: '), text


def test_a_name_near_no_bot_gets_no_guess():
    assert _message("minimax").startswith('unknown bot "minimax"; allowed bots: ')


def test_a_path_that_is_no_bot_says_what_is_there(tmp_path):
    """A path was "unknown bot" and the list of bots, whatever was (or was not) at it."""
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "empty_run").mkdir()
    cases = {
        str(tmp_path / "agent.safetensor"): f'no such file (did you mean "{tmp_path / "agent.safetensors"}"?)',
        str(tmp_path / "nothing" / "here"): "no such file or folder",
        str(tmp_path / "notes.txt"): "a file, but not a weights file (a bot file's name ends in .safetensors)",
        str(tmp_path / "empty_run"): "a folder without final.safetensors",
    }
    for name, what in cases.items():
        text = _message(name)
        assert text.startswith(f'unknown bot "{name}": {what}'), text
        with pytest.raises(ValueError, match="unknown bot"):
            parse_bot(name)


def test_a_run_folder_is_a_bot_but_not_under_a_built_in_name(tmp_path, monkeypatch):
    """``eights train --out DIR`` leaves ``DIR/final.safetensors``: ``eights.Bot(DIR)`` plays
    it (the Python agents already did). A run saved as ``--out net`` in the current folder
    is still not what ``"net"`` names: the built-in bot is."""
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(WEIGHTS, run / "final.safetensors")
    assert parse_bot(str(run)) == parse_bot(str(run / "final.safetensors"))
    game = eights.Game("crazy_eights", 2, seed=3)
    by_folder = eights.Bot(str(run), seed=1).act(game)
    assert by_folder == eights.Bot(str(run / "final.safetensors"), seed=1).act(game)

    monkeypatch.chdir(tmp_path)
    shutil.copytree(run, tmp_path / "net")
    assert parse_bot("net") == "net"
    assert as_agent("net").bot == "net"
    assert as_agent("./net").bot == str(tmp_path / "net" / "final.safetensors")


def test_a_built_in_bot_asked_to_act_on_observations_says_how_it_plays():
    # load_agent("final.safetensors").act(obs, mask) said "(make_bot)": no such public name.
    from eights.agents import load_agent

    env = eights.make("crazy_eights", num_players=2)
    obs, info = env.reset(seed=0)
    with pytest.raises(TypeError, match=r"eights\.Bot\('heuristic'\)\.act\(game\) gives its move"):
        load_agent("heuristic").act(obs, info["action_mask"])
