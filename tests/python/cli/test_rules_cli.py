"""``eights rules``: the first command of the user's path. It shows a preset in words and writes
house rules as a TOML file that inherits the preset, which every command plays back with
``--preset FILE.toml``; without the repository's ``examples/`` (a wheel's user has none)."""

from __future__ import annotations

import contextlib
import io

import pytest

import eights
from eights.cli import main


def _run(argv):
    """``(exit status, stdout, stderr)`` of the command line run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own errors
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def _played(rules, seed=3):
    """What a game under ``rules`` deals and how random play goes, for two rule sets to compare
    by behaviour (their names differ)."""
    game = eights.Game(rules, 3, seed=seed)
    hands = [len(game.hand(p)) for p in range(3)]
    for _ in range(60):
        if game.is_terminal or game.is_truncated:
            break
        game.step(game.legal_actions()[0])
    return hands, game.history()


def test_written_house_rules_play_as_the_options_say(tmp_path):
    path = tmp_path / "house.toml"
    argv = ["rules", "--preset", "switch_blackjack", "--variants", "aces_wild"]
    code, _, err = _run([*argv, "--rules", '{"deal": {"hand_size": 6}}', "--out", str(path)])
    assert code == 0, err
    assert f"--preset {path}" in err
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# House rules, written by `eights rules`")
    assert 'inherits = "switch_blackjack"' in text and "hand_size = 6" in text and '"aces_wild"' in text
    house = eights.Rules.from_toml(str(path))
    # Named after the file, so results tell it from the preset; otherwise the options' rules.
    assert (house.name, house.title) == ("house", "Switch (British Blackjack), house rules")
    assert house.active_variants == ["aces_wild"]
    want = eights.Rules("switch_blackjack", {"deal": {"hand_size": 6}}, variants=["aces_wild"])
    assert _played(house) == _played(want)
    assert _played(house)[0] == [6, 6, 6]
    # Every command reads it back.
    code, out, _ = _run(["selfplay", "--preset", str(path), "--players", "3", "--games", "20", "--python-loop", "0"])
    assert code == 0 and out.startswith("preset=house players=3")


def test_the_words_and_the_toml_of_a_preset():
    code, out, _ = _run(["rules", "--preset", "crazy_eights"])
    assert code == 0 and out.startswith("Crazy Eights (crazy_eights)\n")
    assert "Eights [8]" in out  # the special card, in words
    code, out, _ = _run(["rules", "--preset", "crazy_eights", "--variants", "jacks_wild", "--toml"])
    assert code == 0 and out.startswith('inherits = "crazy_eights"\nvariants = [\n    "jacks_wild",\n]')
    # --full lists every field: read back as text, it plays as the rules it came from.
    code, out, _ = _run(
        ["rules", "--preset", "crazy_eights", "--rules", '{"deal": {"hand_size": 5}}', "--toml", "--full"]
    )
    assert code == 0 and "[deal]" in out and "[score]" in out
    assert _played(eights.Rules.from_toml(out)) == _played(eights.Rules("crazy_eights", {"deal": {"hand_size": 5}}))


def test_the_preset_may_be_named_without_its_flag(tmp_path):
    # `eights rules crazy_eights` was the top-level usage and "unrecognized arguments".
    assert _run(["rules", "switch_blackjack"]) == _run(["rules", "--preset", "switch_blackjack"])
    path = tmp_path / "house.toml"
    assert _run(["rules", "crazy_eights", "--out", str(path)])[0] == 0
    assert _run(["rules", str(path), "--toml"]) == _run(["rules", "--preset", str(path), "--toml"])


def test_an_existing_file_is_kept_unless_forced(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("# my edits\n", encoding="utf-8")
    code, _, err = _run(["rules", "--preset", "crazy_eights", "--out", str(path)])
    assert code == 2 and f"--out {path}: the file exists; give --force to replace it" in err
    assert path.read_text(encoding="utf-8") == "# my edits\n"
    code, _, err = _run(["rules", "--preset", "crazy_eights", "--out", str(path), "--force", "--name", "ours"])
    assert code == 0, err
    assert eights.Rules.from_toml(str(path)).name == "ours"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--variants", "nope"], 'unknown variant "nope"; this preset documents'),
        (["--out", "house.txt"], "--out house.txt: a house-rules file's name ends in .toml"),
        (["--out", "no/such/folder/house.toml"], "--out no/such/folder/house.toml: the folder"),
        (["--full"], "--full writes TOML: give --toml or --out"),
        (["--force"], "--force replaces the file of --out"),
        (["--preset", "nope"], "unknown preset"),
        (["nope"], 'argument PRESET: unknown preset "nope"'),
        (["zodiac", "--preset", "zodiac"], "give the preset once: as PRESET or as --preset, not both"),
    ],
)
def test_bad_options_are_named(argv, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(["rules", *argv])
    assert code == 2 and message in err and out == ""
    assert list(tmp_path.iterdir()) == []


def test_a_link_at_the_out_path_is_kept_unless_forced(tmp_path):
    # A dangling link passed the "exists" check, and the file was written at its target.
    link, target = tmp_path / "house.toml", tmp_path / "elsewhere.toml"
    link.symlink_to(target)
    code, _, err = _run(["rules", "--preset", "crazy_eights", "--out", str(link)])
    assert code == 2 and "the file exists; give --force to replace it" in err
    assert not target.exists()


def test_escape_sequences_from_a_file_do_not_reach_the_terminal(tmp_path):
    # A key, a title or a record's label holding ESC [2J (clear the screen) and an OSC title
    # were printed raw by `selfplay`'s error, `rules` and `replay`.
    evil = "\x1b[2J\x1b]0;pwned\x07"
    in_toml = "\\u001b[2J\\u001b]0;pwned\\u0007"  # TOML's escapes of the same text
    key = tmp_path / "key.toml"
    key.write_text(f'inherits = "crazy_eights"\n"{in_toml}" = 1\n', encoding="utf-8")
    code, _, err = _run(["selfplay", "--preset", str(key), "--games", "1", "--python-loop", "0"])
    assert code == 2 and "\x1b" not in err and "\x07" not in err and "\\x1b[2J" in err
    title = tmp_path / "title.toml"
    title.write_text(f'inherits = "crazy_eights"\ntitle = "{in_toml}Evil"\n', encoding="utf-8")
    code, out, _ = _run(["rules", "--preset", str(title)])
    assert code == 0 and "\x1b" not in out and out.startswith("\\x1b[2J\\x1b]0;pwned\\x07Evil")
    record = eights.Game("crazy_eights", 2, seed=1).record()
    record["rules"]["name"] = record["preset"] = evil + "x"
    path = tmp_path / "r.json"
    path.write_text(__import__("json").dumps(record), encoding="utf-8")
    code, out, err = _run(["replay", str(path)])
    assert code == 0, err
    assert "\x1b" not in out and out.startswith("\\x1b[2J")


def test_a_changed_preset_labels_its_summary_as_the_presets(tmp_path):
    # The preset's prose ("Aces change the suit but must themselves match") was printed as it
    # stands above a list saying "Aces [A]: wild: playable on any card", as if it described them.
    summary = eights.Rules("switch_blackjack").to_dict()["description"]
    code, out, _ = _run(["rules", "--preset", "switch_blackjack", "--variants", "aces_wild"])
    assert code == 0 and "Aces [A]: wild: playable on any card" in out
    assert f"\nswitch_blackjack: {summary}\n\nChanged by: variant aces_wild. The summary above is the " in out
    # A house-rules file: its variant and its other changes.
    path = tmp_path / "house.toml"
    argv = ["rules", "--preset", "switch_blackjack", "--variants", "aces_wild", "--out", str(path)]
    assert _run([*argv, "--rules", '{"deal": {"hand_size": 6}}'])[0] == 0
    code, out, _ = _run(["rules", "--preset", str(path)])
    assert code == 0 and f"switch_blackjack: {summary}" in out
    assert "Changed by: variant aces_wild; changes to deal.hand_size." in out
    # A complete file (no `inherits`) keeping the preset's prose: its changes are found too.
    full = tmp_path / "full.toml"
    assert _run([*argv[:-1], str(full), "--full"])[0] == 0
    code, out, _ = _run(["rules", "--preset", str(full)])
    assert code == 0 and "Changed by: changes to cards.A.nominate" in out and "the ones in play" in out
    # The preset itself, or its own prose replaced: the summary as it was.
    code, out, _ = _run(["rules", "--preset", "switch_blackjack"])
    assert code == 0 and f"\n\n{summary}\n\n" in out and "Changed by" not in out
    code, out, _ = _run(["rules", "--preset", "switch_blackjack", "--rules", '{"description": "Ours."}'])
    assert code == 0 and "\n\nOurs.\n\n" in out and "Changed by" not in out


def test_a_change_to_a_rank_without_an_entry_names_that_field_alone(tmp_path):
    # `cards.7.skip = 1` on a preset where sevens have no effect adds the whole entry `cards.7`
    # (every field at its default): the words named "cards.7.ask_rank, cards.7.cancel, ...
    # and 24 more", and not skip.
    path = tmp_path / "house.toml"
    rules = '{"cards": {"7": {"skip": 1}}, "deal": {"hand_size": 6}}'
    assert _run(["rules", "--preset", "switch_blackjack", "--rules", rules, "--out", str(path)])[0] == 0
    code, out, _ = _run(["rules", "--preset", str(path)])
    assert code == 0 and "Changed by: changes to cards.7.skip, deal.hand_size. The summary above" in out


def test_a_new_card_table_is_named_as_one_change(tmp_path):
    # A walk: a draw chain on the twos listed cards.2.draw_chain and each of its fields
    # (group, multi_answer, ... which the file never set), and the file's other changes fell
    # into "and 3 more".
    path = tmp_path / "myhouse.toml"
    path.write_text(
        'inherits = "crazy_eights"\n[deal]\nhand_size = 7\n[cards.Q]\nskip = 1\n[cards.2.draw_chain]\namount = 2\n',
        encoding="utf-8",
    )
    code, out, err = _run(["rules", "--preset", str(path)])
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("Changed by: "))
    # (hand_size replaces the preset's hand size by player count: a change too.)
    want = "Changed by: changes to cards.2.draw_chain, cards.Q.skip, deal.hand_size, deal.hand_size_by_players.2."
    assert line.startswith(want), line
    assert "more" not in line and "draw_chain.group" not in line, line


def test_commands_name_the_changes_their_rules_make():
    # `selfplay`, `play`, `train` and `exploit` printed "crazy_eights" for changed rules; only
    # `arena` named the changes.
    argv = ["selfplay", "--players", "2", "--games", "4", "--python-loop", "0"]
    code, out, _ = _run([*argv, "--rules", '{"deal": {"hand_size": 6}}', "--variants", "multiple_cards"])
    assert code == 0 and out.startswith("preset=crazy_eights + deal.hand_size=6, variants=multiple_cards players=2")
    code, out, _ = _run(argv)
    assert code == 0 and out.startswith("preset=crazy_eights players=2")


def test_commands_name_the_changes_made_to_a_house_rules_file(tmp_path):
    # `--preset FILE.toml --variants` (and `train --rules` on a file) named the file alone.
    path = tmp_path / "house.toml"
    path.write_text("inherits = 'crazy_eights'\nname = 'mine'\n[draw]\nlimit = 2\n", encoding="utf-8")
    argv = ["selfplay", "--players", "2", "--games", "4", "--python-loop", "0", "--preset", str(path)]
    code, out, _ = _run(argv)
    assert code == 0 and out.startswith("preset=mine players=2")
    code, out, _ = _run([*argv, "--rules", '{"deal": {"hand_size": 3}}'])
    assert code == 0 and out.startswith("preset=mine + deal.hand_size=3 players=2")
    code, out, _ = _run([*argv, "--variants", "multiple_cards"])
    assert code == 0 and out.startswith("preset=mine + variants=multiple_cards players=2"), out
