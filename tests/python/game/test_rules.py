"""eights.Rules: presets with overrides, TOML files, describe(), and games built from rules."""

from __future__ import annotations

import pickle
import random
import runpy
from pathlib import Path

import numpy as np
import pytest

import eights

ROOT = Path(__file__).resolve().parents[3]
HOUSE = ROOT / "examples" / "house_rules.toml"

HOUSE_TOML = """
inherits = "crazy_eights"
name = "my_house"
title = "My House"

[deal]
hand_size = 6

[cards.J]
skip = 1

[cards.2]
draw_chain = { amount = 2 }
"""


def play_out(game, seed=0):
    rng = random.Random(seed)
    while not (game.is_terminal or game.is_truncated):
        game.step(rng.choice(game.legal_actions()))
    return game


# ------------------------------------------------------------------ building


def test_default_is_crazy_eights():
    r = eights.Rules()
    assert r.name == "crazy_eights" and r.preset == "crazy_eights"
    assert r.to_dict() == eights.preset_rules("crazy_eights")
    assert r.overrides == {}
    assert list(r.players) == list(range(2, 11))


def test_override_forms_agree():
    a = eights.Rules("crazy_eights", {"deal": {"hand_size": 8}})
    b = eights.Rules("crazy_eights", deal__hand_size=8)
    c = eights.Rules("crazy_eights", {"deal.hand_size": 8})
    d = eights.Rules("crazy_eights", deal={"hand_size": 8})
    assert a == b == c == d
    assert hash(a) == hash(b)
    assert a.to_dict()["deal"]["hand_size"] == 8
    assert a != eights.Rules()


def test_conflicting_overrides_are_an_error():
    with pytest.raises(ValueError, match="deal.hand_size"):
        eights.Rules("crazy_eights", {"deal": {"hand_size": 8}}, deal__hand_size=6)


@pytest.mark.parametrize(
    "cards, fields",
    [
        ({"1": {"skip": 1}, "A": {"skip": 2}}, ("cards.1", "cards.A")),
        ({"T": {"skip": 1}, "10": {"reverse": True}}, ("cards.10", "cards.T")),
        ({"joker": {"skip": 1}, "jokers": {"skip": 2}}, ("cards.joker", "cards.jokers")),
    ],
)
def test_two_names_of_the_same_cards_are_an_error(cards, fields):
    # Which of the two applied was the table's order (A's skip beat 1's), while the rules in
    # words listed both: refused, naming both.
    with pytest.raises(eights.RulesError) as info:
        eights.Rules("crazy_eights", cards=cards)
    assert all(f in str(info.value) for f in fields), str(info.value)
    # A rank and the same rank of one colour are different selectors: the colour's wins.
    r = eights.Rules("crazy_eights", cards={"J": {"skip": 1}, "red J": {"skip": 2}})
    assert r.to_dict()["cards"]["red J"]["skip"] == 2


def test_variants():
    r = eights.Rules("crazy_eights_specials")
    assert {"jack_skips", "multiple_cards", "hand_size_8"} <= set(r.variants)
    assert r.variants == sorted(r.variants)
    assert r.active_variants == []
    v = r.with_variants("jack_skips")
    assert v.active_variants == ["jack_skips"]
    assert v.to_dict()["cards"]["J"]["skip"] == 1
    assert v == eights.Rules("crazy_eights_specials", variants=["jack_skips"])
    # An explicit override beats the variant overlay.
    w = eights.Rules("crazy_eights", variants=["hand_size_8"], deal__hand_size=6)
    assert w.to_dict()["deal"]["hand_size"] == 6


def test_replace_makes_a_changed_copy():
    r = eights.Rules("crazy_eights", deal__hand_size=8)
    s = r.replace(deal__hand_size=6, draw={"after": "may_play_drawn"})
    assert r.to_dict()["deal"]["hand_size"] == 8
    assert s.to_dict()["deal"]["hand_size"] == 6
    assert s.to_dict()["draw"]["after"] == "may_play_drawn"
    assert s.overrides == {"deal": {"hand_size": 6}, "draw": {"after": "may_play_drawn"}}


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"deal__hand_sizes": 3}, "deal.hand_sizes"),
        ({"deal__hand_size": "seven"}, "deal.hand_size"),
        ({"draw__after": "whenever"}, "draw.after"),
        ({"variants": ["nope"]}, "variants"),
        ({"pass__when": "sometimes"}, "pass.when"),
        ({"cards": {"Z": {"skip": 1}}}, "cards.Z"),
        ({"cards": {"5": {"cancel": ["nothing"]}}}, "cards.5C.cancel"),
        ({"deal__hand_size": 60}, "deal.hand_size"),
    ],
)
def test_invalid_rules_name_the_field(kwargs, field):
    with pytest.raises(eights.RulesError, match=f"'{field}'"):
        eights.Rules("crazy_eights", **kwargs)


@pytest.mark.parametrize(
    ("field", "allowed"),
    [
        ("target", "a whole number from 1 to 1,000,000"),
        ("target_per_player", r"a whole number from 1 to 500,000 \(and times the player count at most 1,000,000\)"),
        ("max_hands", "a whole number from 1 to 4,294,967,295"),
    ],
)
def test_a_match_bound_of_zero_is_refused(field, allowed):
    # A target of 0 was met before the first hand and 0 hands ended after one: each match
    # played a single hand, whatever its rules said.
    with pytest.raises(eights.RulesError, match=rf"'series\.{field}': must be {allowed}, got 0$"):
        eights.Rules("crazy_eights", series={"match": True, field: 0})
    assert eights.Rules("crazy_eights", series={"match": True, field: 1}).to_dict()["series"][field] == 1


def test_unknown_preset_and_bad_types():
    with pytest.raises(ValueError, match="unknown preset"):
        eights.Rules("crazy_nines")
    with pytest.raises(TypeError, match="preset must be"):
        eights.Rules(8)
    with pytest.raises(TypeError, match="rules must be a dict"):
        eights.Rules("crazy_eights", [("deal", 1)])
    with pytest.raises(eights.RulesError, match="unknown variant"):
        eights.Rules().with_variants("nope")


def test_player_count_is_checked_by_the_game():
    r = eights.Rules("crazy_eights", deal__hand_size=12, deck__packs_by_players={})
    eights.Game(r, 4)  # 48 + 1 cards fit one pack
    with pytest.raises(eights.RulesError, match="'deal.hand_size'"):
        eights.Game(r, 5)
    with pytest.raises(eights.RulesError, match="'deal.hand_size'"):
        r.validate(5)
    r.validate(4)


def _deck_size(rules, n):
    g = eights.Game(rules, n, seed=0)
    return sum(g.hand_sizes) + g.stock_size + g.discard_size


@pytest.mark.parametrize(
    ("table", "packs"),
    [
        # "From this many players up": thresholds compare as numbers, "10" after "4".
        ({"4": 2, "10": 3}, {3: 1, 4: 2, 9: 2, 10: 3}),
        ({"4": 2, "9": 3}, {3: 1, 4: 2, 8: 2, 9: 3, 10: 3}),
        ({"10": 3, "6": 2}, {5: 1, 6: 2, 9: 2, 10: 3}),
    ],
)
def test_packs_by_players_thresholds_are_numbers(table, packs):
    r = eights.Rules("crazy_eights", deck__packs_by_players=table, deal__hand_size=5)
    for n, k in packs.items():
        assert _deck_size(r, n) == 52 * k, (table, n)


@pytest.mark.parametrize("field", ["deck.packs_by_players", "deal.hand_size_by_players", "score.values_by_players"])
@pytest.mark.parametrize("keys", [("4", "04"), ("11",), ("0",), ("four",)])
def test_player_count_keys_are_checked(field, keys):
    table, name = field.split(".")
    value = {"8": 50} if table == "score" else 2
    with pytest.raises(eights.RulesError, match=f"'{field}"):
        eights.Rules("crazy_eights", {table: {name: {k: value for k in keys}}}).validate(4)


# ------------------------------------------------------------------ TOML


def test_from_toml_text_and_file(tmp_path):
    r = eights.Rules.from_toml(HOUSE_TOML)
    assert r.name == "my_house" and r.title == "My House" and r.preset == "crazy_eights"
    d = r.to_dict()
    assert d["deal"]["hand_size"] == 6
    assert d["cards"]["J"]["skip"] == 1
    assert d["cards"]["8"]["wild"]["nominate"] == "required"  # inherited
    path = tmp_path / "house.toml"
    path.write_text(HOUSE_TOML, encoding="utf-8")
    assert eights.Rules.from_toml(path) == r
    assert eights.Rules.from_toml(str(path)) == r


def test_a_house_rules_file_without_a_name_is_named_after_the_file(tmp_path):
    # Results, records and trained agents must tell a house game from the preset it changes.
    path = tmp_path / "pub_rules.toml"
    path.write_text('inherits = "crazy_eights"\n[cards.J]\nskip = 1\n', encoding="utf-8")
    r = eights.Rules.from_toml(path)
    assert (r.name, r.title, r.preset) == ("pub_rules", "Crazy Eights, house rules", "crazy_eights")
    assert r.to_dict()["cards"]["J"]["skip"] == 1
    assert eights.Rules.from_toml(r.to_toml()) == r
    # A title of its own stays; TOML text (no file) keeps the preset's name, as a dict does.
    path.write_text('inherits = "crazy_eights"\ntitle = "Pub"\n', encoding="utf-8")
    assert (eights.Rules.from_toml(path).name, eights.Rules.from_toml(path).title) == ("pub_rules", "Pub")
    assert eights.Rules.from_toml('inherits = "crazy_eights"\n').name == "crazy_eights"
    assert eights.Game(str(path), 2, seed=1).rules_dict()["name"] == "pub_rules"


def test_toml_round_trips(tmp_path):
    r = eights.Rules.from_toml(HOUSE_TOML).replace(variants=["multiple_cards"])
    text = r.to_toml()
    assert text.startswith('inherits = "crazy_eights"')
    assert eights.Rules.from_toml(text) == r
    full = r.to_toml(tmp_path / "full.toml", full=True)
    assert "inherits" not in full and "variants applied: multiple_cards" in full
    back = eights.Rules.from_toml(tmp_path / "full.toml")
    assert back.preset is None
    expected = r.to_dict()
    got = back.to_dict()
    for key in ("variants", "inherits"):  # applied already / a complete spec stands alone
        expected.pop(key)
        got.pop(key)
    assert got == expected
    # A complete spec writes itself in full and reads back the same.
    assert eights.Rules.from_toml(back.to_toml()).to_dict() == back.to_dict()


@pytest.mark.parametrize("preset", eights.presets())
def test_resolved_specs_read_back_unchanged(preset):
    for r in (eights.Rules(preset), eights.Rules(preset, deal__hand_size=3)):
        again = eights.Rules.from_dict(r.to_dict())
        assert again == r
        assert again.describe() == r.describe()
        assert eights.Rules.from_dict(eights.Game(r, r.players[0], seed=0).rules_dict()) == r
    for variant in eights.Rules(preset).variants:
        v = eights.Rules(preset, variants=[variant], deal__hand_size=3)
        assert eights.Rules.from_dict(v.to_dict()) == v
        # A variant applied to complete rules works as it does on the preset.
        w = eights.Rules.from_dict(eights.Rules(preset).to_dict()).with_variants(variant)
        assert w == eights.Rules(preset, variants=[variant])
    house = eights.Rules.from_toml(HOUSE)
    assert eights.Rules.from_dict(house.to_dict()).describe() == house.describe()
    assert "7 with 2 players" not in house.describe()


def test_full_spec_without_a_preset():
    spec = eights.Rules("switch_blackjack").to_dict()
    spec["name"] = "my_switch"
    r = eights.Rules.from_dict(spec)
    assert r.preset is None and r.name == "my_switch"
    assert r.to_dict()["cards"]["black J"]["draw_chain"]["amount"] == 7
    # A hand-written full spec (as read from TOML: no null fields) may list variants to apply;
    # in a resolved spec (every field present, as to_dict() gives) they are already applied.
    written = {k: v for k, v in spec.items() if v is not None}
    v = eights.Rules.from_dict({**written, "variants": ["aces_wild"]})
    assert v.to_dict()["cards"]["A"]["wild"]["nominate"] == "optional"
    assert v.active_variants == ["aces_wild"]
    assert "my_switch" in repr(v)
    assert eights.Rules.from_dict({**spec, "variants": ["aces_wild"]}).to_dict()["cards"]["A"]["wild"] is None


def test_toml_errors(tmp_path):
    with pytest.raises(ValueError, match="invalid TOML"):
        eights.Rules.from_toml("inherits = \n[deal")
    with pytest.raises(FileNotFoundError):
        eights.Rules.from_toml(tmp_path / "missing.toml")
    with pytest.raises(ValueError, match="unknown preset"):
        eights.Rules.from_toml('inherits = "crazy_nines"\n')
    with pytest.raises(eights.RulesError, match="'deal.hand_sise'"):
        eights.Rules.from_toml('inherits = "crazy_eights"\n[deal]\nhand_sise = 3\n')
    with pytest.raises(eights.RulesError, match="'inherits'"):
        eights.Rules.from_toml("inherits = 3\n")


def test_a_variant_table_with_a_bad_field_is_refused_when_the_rules_are_made(tmp_path):
    # A misspelt key in a house file's own [variant.qr] was accepted, listed by `eights rules`
    # as a documented variant, and refused only when `--variants qr` applied it, naming
    # 'cards.Q.revrse' with no word of the variant it sat in.
    text = 'inherits = "crazy_eights"\n[variant.qr]\ncards = { Q = { %s = true } }\n'
    with pytest.raises(eights.RulesError, match=r"^invalid rules field 'variant\.qr\.cards\.Q\.revrse': unknown field"):
        eights.Rules.from_toml(text % "revrse")
    with pytest.raises(eights.RulesError, match=r"'variant\.qr\.deal\.hand_size': .*\(in variant \"qr\"\)"):
        eights.Rules("crazy_eights", variant={"qr": {"deal": {"hand_size": "six"}}})
    complete = eights.Rules.from_toml(text % "reverse").to_dict()
    complete["variant"]["qr"] = {"cards": {"Q": {"revrse": True}}}
    with pytest.raises(eights.RulesError, match=r"'variant\.qr\.cards\.Q\.revrse'"):
        eights.Rules.from_dict(complete)
    # Spelt right, it is documented and plays; every preset's own tables pass the check.
    rules = eights.Rules.from_toml(text % "reverse")
    assert "qr" in rules.variants and rules.with_variants("qr").to_dict()["cards"]["Q"]["reverse"] is True
    for preset in eights.presets():
        assert eights.Rules.from_dict(eights.Rules(preset).to_dict()) == eights.Rules(preset)
    with pytest.raises(eights.RulesError, match=r"^invalid rules field 'variant\.x': a variant is a table"):
        eights.Rules.from_toml('inherits = "crazy_eights"\nvariant.x = 5\n')


def test_the_variant_table_check_refuses_no_rules_that_play():
    # The check first applied each table over the rules' own changes and validated the result:
    # it refused rules written by `eights rules --full` (crazy_eights under winner_collects, whose
    # match_to_100 asks for another series winner), a house file whose own changes override its
    # variant's, and one house draw of RuleSpace in thirty written back and read again.
    changed = eights.Rules("crazy_eights", score={"mode": "winner_collects"})
    assert eights.Rules.from_toml(changed.to_toml(full=True)) == changed
    house = eights.Rules.from_toml(
        'inherits = "crazy_eights"\n[score]\nmode = "winner_collects"\n[series]\nwinner = "first_to_reach"\n'
        '[variant.long_match]\nseries = { match = true, target = 500, winner = "lowest" }\n'
    )
    assert house.with_variants("long_match").to_dict()["series"]["winner"] == "first_to_reach"
    space = eights.RuleSpace(house_prob=1.0)
    for seed in range(200):
        drawn = space.sample(seed)
        assert eights.Rules.from_dict(drawn.to_dict()) == drawn
        # (written whole, the applied variants are listed in a comment: the same play)
        np.testing.assert_array_equal(eights.Rules.from_toml(drawn.to_toml(full=True)).encode(), drawn.encode())


def test_to_toml_names_a_path_it_cannot_write(tmp_path):
    # Python's raw "[Errno 21] Is a directory: '/tmp'" and "No such file or directory: ''".
    rules = eights.Rules("crazy_eights")
    cases = [
        (tmp_path, IsADirectoryError, "is a folder, not a file"),
        ("", FileNotFoundError, "an empty path"),
        (tmp_path / "missing" / "house.toml", FileNotFoundError, "the folder .* does not exist"),
    ]
    for path, error, why in cases:
        with pytest.raises(error, match=f"to_toml cannot write the rules to path .*: {why}$"):
            rules.to_toml(path)
    with pytest.raises(OSError, match=r"\.\.\.' \(100,001 characters\): "):
        rules.to_toml("/" + "z" * 10**5)
    assert not (tmp_path / "missing").exists()
    assert eights.Rules.from_toml(rules.to_toml(tmp_path / "house.toml")) == rules


# ------------------------------------------------------------------ describe


def test_describe_is_deterministic_and_worded():
    r = eights.Rules.from_toml(HOUSE_TOML)
    text = r.describe()
    assert text == eights.Rules.from_toml(HOUSE_TOML).describe()
    assert text.startswith("My House (my_house)")
    assert "Jacks [J]: the next player misses a turn" in text
    assert "Twos [2]: the next player draws 2 unless they answer with another two" in text
    assert "Each player is dealt 6 cards" in text
    assert str(r) == text


@pytest.mark.parametrize("preset", eights.presets())
def test_every_preset_describes_itself(preset):
    r = eights.Rules(preset)
    text = r.describe()
    assert r.title in text
    for v in r.variants:
        assert f"- {v}:" in text


def test_describe_says_what_the_engine_does():
    """Sentences an audit found at odds with play (rule sets drawn from the rule space, read
    sentence by sentence against seeded games)."""
    # A blocked hand is one where every player passed in turn: players who could play may
    # pass when nothing can be drawn (pass.voluntary), so "nobody can play" was wrong.
    text = eights.Rules("crazy_eights_specials").describe()
    assert "A blocked hand (every player has passed in turn) ends and is scored." in text
    assert "nobody can play" not in text
    # after_one_draw: with nothing to draw the player passes at once (checked in play).
    text = eights.Rules("crazy_eights", **{"pass": {"when": "after_one_draw"}}).describe()
    assert "A player must draw one card before passing, unless nothing can be drawn." in text
    g = eights.Game.from_position(
        "crazy_eights", 2, hands=[["4H", "5C"], ["6S", "7S"]], discard=["9D"], stock=[],
        rules={"pass": {"when": "after_one_draw"}},
    )  # fmt: skip
    assert [g.action_to_string(a) for a in g.legal_actions()] == ["pass"]
    # A shield names the cards it stops, not the chain group's internal name ("ace_attack"),
    # and "cannot be answered" no longer sits beside the shields that stop it.
    text = eights.Rules("one_card").describe()
    assert "Twos [2]: shields its player from a pending penalty from an ace." in text
    assert "ace_attack" not in text and "(no draw card answers it)" in text
    # A card whose effects a change removed is not described by its winner's-last-card rule.
    sevens = eights.Rules("sevens_and_eights", cards={"7": {"draw_and_lose_turn": 0}}).describe()
    assert "Sevens [7]" not in sevens and "Sevens [7]" in eights.Rules("sevens_and_eights").describe()
    # The Zodiac card's effect is in the rules' list, not only in the preset's prose.
    assert "Zodiac card (JC): the next player draws seven and loses their turn" in eights.Rules("zodiac").describe()
    # The general rule for a special card that goes out says when a card's own rule overrides it.
    general = "A special card played as the winner's last card: the hand ends at once and its effect is ignored"
    assert f"{general}, unless the card's own rule says otherwise." in eights.Rules("crazy_eights_xtreme").describe()
    assert f"{general}." in eights.Rules("crazy_eights").describe()
    # "Your own wild card" was never defined: the rank of the player's score.
    assert "a player's own wild card is the rank of their score (8 for 8, ..., 2 for 2, an ace for 1)" in (
        eights.Rules("bitch").describe()
    )
    # A fixed-amount chain card does not add, but raises a smaller penalty to its own amount.
    assert "as an answer it adds nothing: the penalty becomes its amount if that is more" in (
        eights.Rules("larby_switch").describe()
    )


# ------------------------------------------------------------------ games


def test_game_accepts_rules():
    r = eights.Rules("crazy_eights", deal__hand_size=6, variants=["multiple_cards"])
    g = eights.Game(r, 3, seed=5)
    h = eights.Game("crazy_eights", 3, seed=5, rules={"deal": {"hand_size": 6}, "variants": ["multiple_cards"]})
    assert isinstance(g, eights.Game)
    assert g.to_dict() == h.to_dict()
    assert g.rules_dict() == r.to_dict()
    # Extra overrides on top of a Rules object.
    k = eights.Game(r, 3, seed=5, rules={"deal": {"hand_size": 4}})
    assert k.hand_sizes == [4, 4, 4]
    play_out(g)


def test_game_from_a_complete_spec_plays_and_pickles():
    spec = eights.Rules("crazy_eights_specials").to_dict()
    spec.update(name="custom", title="Custom", inherits=None)
    r = eights.Rules.from_dict(spec)
    assert r.preset is None
    g = eights.Game(r, 4, seed=2)
    assert g.preset == "custom"
    assert g.rules_dict() == r.to_dict()
    g2 = pickle.loads(pickle.dumps(g))
    assert g2.to_dict() == g.to_dict()
    play_out(g)
    # The low-level binding takes a complete spec, or an inherits form.
    g3 = eights._core.game_from_spec({"inherits": "crazy_eights", "deal": {"hand_size": 3}}, 2, 0)
    assert g3.hand_sizes == [3, 3]
    with pytest.raises(eights.RulesError, match="'deal.hand_size'"):
        eights._core.game_from_spec({**spec, "deal": {**spec["deal"], "hand_size": 40}}, 4, 0)


def test_game_static_methods_and_position():
    r = eights.Rules("crazy_eights_specials", variants=["jack_skips"])
    g = eights.Game.from_position(r, 2, hands=[["JH", "3C"], ["5S", "9D"]], discard=["4H"], stock=["KC", "KD"])
    g.step("play JH")
    assert g.current_player == 0  # jacks skip in this variant
    assert eights.Game.rules_feature_names()[0] == "copies_in_deck"
    assert isinstance(eights.Game.from_dict(g.to_dict()), eights.Game)
    # A resolved spec reads back as complete rules, equal to the original.
    again = eights.Rules.from_dict(r.to_dict())
    assert again.preset is None and again == r
    with pytest.raises(TypeError, match="preset"):
        eights.Game.from_position(again, 2, hands=[[], []], discard=["4H"])


def test_make_accepts_rules():
    r = eights.Rules.from_toml(HOUSE_TOML)
    env = eights.make(r, num_players=2, seed=0)
    assert env.preset == "my_house"
    obs, info = env.reset()
    done = False
    rng = np.random.default_rng(0)
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    env2 = eights.make(eights.Rules.from_dict(r.to_dict()), num_players=3, seed=0, deal__hand_size=4)
    env2.reset(seed=1)
    assert env2.game.num_players == 3
    assert env2.game.rules_dict()["deal"]["hand_size"] == 4


def test_rules_pickle():
    for r in (
        eights.Rules("switch_blackjack", deal__hand_size=5),
        eights.Rules.from_dict(eights.preset_rules("one_left")),
    ):
        assert pickle.loads(pickle.dumps(r)) == r


# ------------------------------------------------------------------ the example


def test_house_rules_example(capsys, monkeypatch):
    r = eights.Rules.from_toml(HOUSE)
    assert r.preset == "crazy_eights" and r.name == "house_eights"
    d = r.to_dict()
    assert d["cards"]["J"]["skip"] == 1
    assert d["cards"]["2"]["draw_chain"]["amount"] == 2
    assert d["series"] == {**d["series"], "match": True, "target": 100}
    assert r.variants == sorted(set(eights.Rules().variants) | {"queens_reverse"})
    assert r.with_variants("queens_reverse").to_dict()["cards"]["Q"]["reverse"] is True
    monkeypatch.setattr("sys.argv", ["house_rules.py"])
    runpy.run_path(str(ROOT / "examples" / "house_rules.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert out.startswith("House Eights (house_eights)")
    assert "hand(s) played" in out
