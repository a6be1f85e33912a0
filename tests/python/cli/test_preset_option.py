"""``--preset`` takes a house-rules TOML file as well as a preset name, in every command that
has it (issue #61: ``--preset ../house.toml`` was refused as an unknown preset); a missing
file is a one-line error naming it, not a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import eights
from eights.cli import build_parser, main

HOUSE = Path(__file__).resolve().parents[3] / "examples" / "house_rules.toml"
pytestmark = pytest.mark.skipif(not HOUSE.is_file(), reason="the examples folder is not here")

#: Every command with a --preset option, with the other options it requires.
COMMANDS = {
    "arena": [],
    "selfplay": [],
    "play": [],
    "exploit": ["--agent", "heuristic"],
    "train": [],
    "rules": [],
}


def test_the_table_lists_every_command_with_a_preset_option():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    with_preset = {name for name, p in sub.choices.items() if any("--preset" in a.option_strings for a in p._actions)}
    assert with_preset == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_preset_takes_a_toml_file(command, tmp_path, monkeypatch):
    shutil.copy(HOUSE, tmp_path / "house.toml")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    args = build_parser().parse_args([command, "--preset", "../house.toml", *COMMANDS[command]])
    assert args.preset == eights.Rules.from_toml(HOUSE)
    args = build_parser().parse_args([command, "--preset", "switch_blackjack", *COMMANDS[command]])
    assert args.preset == "switch_blackjack"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_missing_preset_file_is_an_error_naming_it(command, capsys):
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args([command, "--preset", "/nonexistent/house.toml", *COMMANDS[command]])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --preset: no such file: '/nonexistent/house.toml'" in err
    assert "Traceback" not in err


def test_an_unknown_preset_name_is_an_error_listing_the_presets(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["selfplay", "--preset", "crazy_nines"])
    err = capsys.readouterr().err
    assert 'argument --preset: unknown preset "crazy_nines"' in err and "switch_blackjack" in err


def test_selfplay_and_arena_play_the_file(capsys):
    assert main(["selfplay", "--preset", str(HOUSE), "--games", "20", "--python-loop", "0"]) == 0
    assert "preset=house_eights" in capsys.readouterr().out
    assert main(["arena", "--preset", str(HOUSE), "--agents", "random,heuristic", "--games", "4", "--no-progress"]) == 0
    assert "house_eights" in capsys.readouterr().out


def test_preset_file_and_json_overrides_combine_but_two_files_do_not(capsys):
    args = build_parser().parse_args(["selfplay", "--preset", str(HOUSE), "--rules", '{"deal": {"hand_size": 5}}'])
    from eights.cli._args import rules_of

    preset, rules = rules_of(args)
    assert eights.Game(preset, 2, rules=rules).rules_dict()["deal"]["hand_size"] == 5
    assert main(["selfplay", "--preset", str(HOUSE), "--rules", str(HOUSE), "--games", "1"]) == 2
    assert "not both" in capsys.readouterr().err


def test_variants_apply_in_every_command_that_plays_rules(capsys, tmp_path):
    """``--variants`` was on ``rules`` and ``train`` only: ``arena --variants ...`` was an
    unrecognised argument. It applies the documented variants in arena, exploit, play and
    selfplay, to a preset, to JSON overrides or to a house-rules file, and a variant the
    rules do not document is refused naming the option's field."""
    from eights.cli import main

    house = Path(__file__).resolve().parents[3] / "examples" / "house_rules.toml"
    game = ["--agents", "random,heuristic", "--games", "4", "--no-progress", "--bootstrap", "100"]
    assert main(["arena", "--variants", "multiple_cards,aces_wild", *game]) == 0
    assert capsys.readouterr().out.startswith("crazy_eights + variants=multiple_cards,aces_wild, 2 players")
    both = ["--rules", '{"variants": ["aces_wild"], "deal": {"hand_size": 4}}', "--variants", "multiple_cards"]
    assert main(["arena", *both, *game]) == 0
    assert "+ deal.hand_size=4, variants=aces_wild,multiple_cards, 2 players" in capsys.readouterr().out.splitlines()[0]
    assert main(["arena", "--rules", str(house), "--variants", "queens_reverse", *game]) == 0
    for args in (["arena", "--variants", "nope", *game], ["arena", "--rules", str(house), "--variants", "nope", *game]):
        assert main(args) == 2
        assert "unknown variant" in capsys.readouterr().err
    from eights.cli import _args

    for cmd in (["exploit", "--agent", "random"], ["play"], ["selfplay"]):
        parsed = build_parser().parse_args([*cmd, "--variants", "aces_wild"])
        assert _args.rules_of(parsed) == ("crazy_eights", {"variants": ["aces_wild"]}), cmd


@pytest.mark.parametrize("value", [",", " , ,", ""])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_variants_naming_no_variant_are_refused(command, value, capsys):
    # `--variants ,` was taken as no variants, where `--bots ,` and `--presets ,` are refused.
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args([command, *COMMANDS[command], "--variants", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f'argument --variants: needs at least one variant name (e.g. aces_wild), got "{value}"' in err
    parsed = build_parser().parse_args([command, *COMMANDS[command]])  # not given: no variants
    assert getattr(parsed, "apply_variants", getattr(parsed, "variants", None)) is None
