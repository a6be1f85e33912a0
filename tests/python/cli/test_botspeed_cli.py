"""``botspeed``: every bot is checked against every preset before anything is timed."""

from __future__ import annotations

from eights.cli import main


def test_a_bot_refused_by_a_later_preset_stops_the_command_before_any_timing(capsys):
    # net1 plays crazy_eights, not one_card: three rows were timed and printed before the error.
    argv = ["botspeed", "--bots", "random,net1", "--presets", "crazy_eights,one_card", "--games", "1"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert "--bots net1 cannot play --presets one_card" in err and "trained for" in err, err
    assert "Traceback" not in err
    assert out == "", out


def test_bots_that_play_every_preset_are_timed(capsys):
    argv = ["botspeed", "--bots", "random,net1", "--presets", "crazy_eights", "--games", "1"]
    assert main(argv) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert [r[:2] for r in rows] == [["crazy_eights", "random"], ["crazy_eights", "net1"]]


def test_a_name_listed_twice_is_refused_before_any_timing(capsys):
    # Each copy was timed: a preset listed 5,000 times was timed 5,000 times.
    for flag, names, what in (("--presets", "crazy_eights,crazy_eights", "preset"), ("--bots", "random,random", "bot")):
        argv = ["botspeed", "--bots", "random", "--presets", "crazy_eights", "--games", "1", flag, names]
        assert main(argv) == 2
        out, err = capsys.readouterr()
        first = names.split(",")[0]
        assert f'{flag}: {what} "{first}" is listed twice; list each {what} once' in err and out == "", err
