"""``describe()`` against play, round nine: sentences two fidelity audits found at odds with
what the engine does, each checked in words and, where a position shows it, in play."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import eights
from eights.rules.changes import label, titled

MULTIPLES = Path(__file__).resolve().parents[3] / "examples" / "switch_multiples.toml"


def _lines(rules) -> list:
    return [line[2:] for line in rules.describe().splitlines() if line.startswith("- ")]


def test_a_countdown_is_described_as_a_countdown():
    """Crazy Eights Countdown: "When a player gets rid of all their cards, this does not end
    the play" and "Each player's current score determines the rank of the card that is wild
    for them". The rules list said "There are no wild cards", "The first player to get rid of
    all their cards wins the hand", that a winner's special last card is ignored, card values
    and blocked-hand scoring, and a match to 100 points: none of it is a countdown's."""
    for preset in ("crazy_eights_countdown", "crazy_eights_countdown_blog"):
        lines = _lines(eights.Rules(preset))
        text = "\n".join(lines)
        assert "There are no wild cards." not in lines
        assert any(line.startswith("Each player has a wild card of their own") for line in lines)
        assert "The first player to get rid of all their cards wins the hand." not in lines
        assert "does not end play: their score drops by one" in text
        assert "winner's last card" not in text and "series.match" not in text
        assert not any(line.startswith("Card values") for line in lines)
        assert "An episode is one countdown game, played until a player's score reaches zero." in lines
    # The special last card acts: a house skip (a four) as a player's last card skips.
    g = eights.Game.from_position(
        "crazy_eights_countdown", 3, hands=[["4H"], ["9C", "TC"], ["5S", "6S"]], discard=["4D"],
        stock=[f"{r}D" for r in "23567"] + [f"{r}C" for r in "2345"],
        rules={"variants": ["house_skip_reverse_draw_two"]},
    )  # fmt: skip
    g.step(g.string_to_action("play 4H"))
    assert not g.is_terminal and g.current_player == 2  # P1 skipped; P0 dealt 7 anew
    assert len(g.hand(0)) == 7
    # A blocked countdown ends with no winner and no score changed.
    rules = eights.Rules("crazy_eights_countdown", variants=["no_reshuffle"])
    assert "A blocked hand (every player has passed in turn) ends the game with no winner." in _lines(rules)
    g, rng = eights.Game(rules, 3, seed=1), random.Random(1)
    while not (g.is_terminal or g.is_truncated):
        g.step(rng.choice(g.legal_actions()))
    assert g.is_terminal and g.winner is None and list(g.scores) == [8, 8, 8]


def test_drawing_until_playable_stops_at_a_playable_hand():
    """crazy_eights_winner_collects draws until the hand holds a playable card (at least one
    card), then must play; the list said "until they draw a playable card"."""
    rules = eights.Rules("crazy_eights_winner_collects")
    assert (
        "A player who draws takes at least one card and keeps drawing until their hand holds a playable card "
        "or the stock is empty." in _lines(rules)
    )
    g = eights.Game.from_position(rules, 2, hands=[["5H", "3C"], ["4S", "6S"]], discard=["9H"], stock=["2S", "KD"])
    g.step(g.string_to_action("draw"))
    assert sorted(g.hand(0)) == sorted(["5H", "3C", "2S"])  # one card: the hand could already play
    assert [g.action_to_string(a) for a in g.legal_actions()] == ["play 5H"]


def test_top_only_runs_say_what_the_top_card_does_not_clear():
    """Grandad's Game: "2s worked culmulatively - so you could play 2 2 and next player pick up
    4"; Zodiac: "When a player discards this card, the next player must draw seven cards"
    (anywhere in a run, catalog A38). Both lists said "Only the top card acts." alone."""
    lines = _lines(eights.Rules("grandads_game"))
    assert "Only the top card acts, except that draw cards of one kind directly on top of each other add up." in lines
    lines = _lines(eights.Rules("zodiac"))
    assert (
        "Only the top card acts, except that draw cards of one kind directly on top of each other add up and a "
        "card that makes the next player draw and miss a turn acts wherever it lies." in lines
    )
    g = eights.Game.from_position(
        "grandads_game", 2, hands=[["2H", "2S", "9C"], ["4D", "5D"]], discard=["7H"], stock=["KC", "QC", "JC", "TC"]
    )
    for card in ("2H", "2S"):
        g.step(g.string_to_action(f"play {card}"))
    if g.current_player == 0:
        g.step(g.string_to_action("end turn"))
    assert g.pending_draw == 4


def test_four_of_a_kind_and_a_chain_after_going_out_say_who_scores():
    """Sevens and Eights: "If all four cards of the same rank are played consecutively, then
    the hand ends" (the player who completes the four is scored, catalog 3.18); Xtreme: "The
    round ends even if the person who played their last card now has cards. In that case
    everyone must add their card scores to their game total." Both lists left "every other
    player scores" standing."""
    lines = _lines(eights.Rules("sevens_and_eights"))
    assert (
        "Four cards of one rank played in a row on the pile end the hand. Unless the fourth was its player's "
        "last card, the hand is scored as a blocked hand, that player included." in lines
    )
    text = eights.Rules("crazy_eights_xtreme").describe()
    assert "the player who went out scores the cards the chain left them, as the others do" in text


def test_a_variant_without_jokers_lists_no_joker_value():
    """crazy_eights_xtreme's single_pack has no jokers: its list gave "joker 20" and doubled
    "all cards when the last card is a joker"."""
    lines = _lines(eights.Rules("crazy_eights_xtreme", variants=["single_pack"]))
    values = next(line for line in lines if line.startswith("Card values"))
    assert "joker" not in values and "8 20" in values
    assert "Cards of the rank of the last card played count double." in lines
    assert "joker" in next(line for line in _lines(eights.Rules("crazy_eights_xtreme")) if line.startswith("Card"))


def test_joker_effects_under_a_deck_without_jokers_say_no_joker_is_in_play():
    """crazy_eights_winner_collects gives its blank jokers their effect for the variant that
    adds them: the base game's words said "One 52-card pack, no jokers" and then "Wild cards:
    eights and jokers"; so did a user's `cards.RJ` entry under the default deck."""
    base = _lines(eights.Rules("crazy_eights_winner_collects"))
    assert "Wild cards: eights (see the special cards)." in base
    joker = next(line for line in base if line.startswith("Jokers [joker]"))
    assert joker.endswith("(no joker is in play: deck.jokers = 0).")
    added = _lines(eights.Rules("crazy_eights_winner_collects", variants=["jokers"]))
    assert "Wild cards: eights and jokers (see the special cards)." in added
    assert not next(line for line in added if line.startswith("Jokers [joker]")).endswith("deck.jokers = 0).")
    mine = _lines(eights.Rules("crazy_eights", cards={"RJ": {"skip": 1}}))
    assert next(line for line in mine if "[RJ]" in line).endswith("(no joker is in play: deck.jokers = 0).")


def test_a_named_suit_that_binds_the_next_player_only_is_described_so():
    """advanced_switch and larby_switch (docs/fidelity.md, D33 and D34): the rules list says
    that a named suit binds only the next player who takes a turn; presets whose suit lasts
    until a card covers it say nothing of the kind."""
    sentence = "A named suit binds only the next player who takes a turn"
    for preset in ("advanced_switch", "larby_switch"):
        assert any(line.startswith(sentence) for line in _lines(eights.Rules(preset))), preset
    for preset in ("crazy_eights", "switch_blackjack", "crazy_eights_xtreme"):
        assert not any(line.startswith(sentence) for line in _lines(eights.Rules(preset))), preset


def test_rules_changed_from_a_preset_say_so_in_python_as_on_the_command_line():
    # `eights rules` labelled the preset's prose and said what changed; `Rules.describe()`, on
    # which the command prints, opened with the preset's summary ("Aces change the suit but must
    # themselves match") above a list saying aces are wild, and nothing said the rules changed.
    summary = eights.Rules("switch_blackjack").to_dict()["description"]
    changed = eights.Rules("switch_blackjack", deal__hand_size=6, variants=["aces_wild"]).describe()
    assert f"switch_blackjack: {summary}\n\nChanged by: variant aces_wild; changes to deal.hand_size. " in changed
    assert "- Aces [A]: wild: playable on any card" in changed
    plain = eights.Rules("switch_blackjack").describe()
    assert "Changed by" not in plain and f"\n\n{summary}\n\n" in plain


def test_a_label_names_the_changes_made_on_a_preset():
    # Results and logs on changed rules said "crazy_eights", as for the preset itself.
    assert eights.Rules("crazy_eights").label == "crazy_eights"
    assert eights.Rules("crazy_eights", deal__hand_size=6).label == "crazy_eights + deal.hand_size=6"
    multiple = eights.Rules("crazy_eights").with_variants("multiple_cards")
    assert multiple.label == "crazy_eights + variants=multiple_cards"
    # The same rules are named the same whatever the order of their keys; nothing is named for
    # an empty table or list, or for a variant's table (documentation, not play).
    a = eights.Rules("crazy_eights", rules={"draw": {"limit": 2}, "deal": {"hand_size": 6}})
    b = eights.Rules("crazy_eights", rules={"deal": {"hand_size": 6}, "draw": {"limit": 2}})
    assert a.label == b.label == "crazy_eights + deal.hand_size=6, draw.limit=2"
    assert eights.Rules("crazy_eights", deal={}, variants=[]).label == "crazy_eights"
    assert eights.Rules("crazy_eights", variant={"x": {"deal": {"hand_size": 3}}}).label == "crazy_eights"
    # Changes that leave the preset as it plays (its own values set again) are no change, with a
    # title of one's own too, and given beside the preset's name (the arena's `rules=`).
    assert eights.Rules("crazy_eights", deal__dealer_extra=0).label == "crazy_eights"
    assert eights.Rules("crazy_eights", deal__dealer_extra=0, title="Our Eights").label == "crazy_eights"
    assert label("crazy_eights", {"deal": {"dealer_extra": 0}}) == "crazy_eights"
    assert eights.Rules("crazy_eights", deal__dealer_extra=0, draw__limit=2).label.endswith("draw.limit=2")
    # A complete specification under a preset's name says what differs from the preset.
    complete = eights.Rules.from_dict(
        eights.Rules("switch_blackjack", variants=["aces_wild"], deal__hand_size=6).to_dict()
    )
    assert complete.label == "switch_blackjack + deal.hand_size=6, variants=aces_wild"
    assert eights.Rules.from_dict(eights.Rules("crazy_eights").to_dict()).label == "crazy_eights"
    result = eights.arena.evaluate("random", "heuristic", eights.Rules("crazy_eights", deal__hand_size=6), games=4)
    assert result.preset == "crazy_eights + deal.hand_size=6"
    # Overrides given beside the rules are named after the rules' own.
    result = eights.arena.evaluate(
        "random", "heuristic", eights.Rules("crazy_eights", deal__hand_size=6), games=4, rules={"deck": {"packs": 2}}
    )
    assert result.preset == "crazy_eights + deal.hand_size=6, deck.packs=2"


def test_a_house_file_changed_further_lists_the_changes_made_on_top_of_it(tmp_path):
    # A house-rules file changed further (replace(), more overrides, the variants of a command)
    # was labelled as the file: the file's table was merged with the changes and lost.
    house = eights.Rules.from_toml(MULTIPLES)
    assert house.label == "switch_multiples" and titled(house) == house.title
    three = house.replace(deal={"hand_size": 3})
    assert three.label == "switch_multiples + deal.hand_size=3"
    assert titled(three) == f"{house.title} (changed: deal.hand_size=3)"
    assert eights.Rules(house, deal__hand_size=3).label == three.label
    assert eights.Rules(str(MULTIPLES), deal__hand_size=3).label == three.label
    assert three.replace(draw={"limit": 2}).label == "switch_multiples + deal.hand_size=3, draw.limit=2"
    # Overrides given beside the rules, as the commands give --rules with --preset FILE.toml.
    assert label(house, {"deal": {"hand_size": 3}}) == three.label
    assert label(three, {"draw": {"limit": 2}}) == "switch_multiples + deal.hand_size=3, draw.limit=2"
    assert label(three, {"deal": {"hand_size": 4}}) == "switch_multiples + deal.hand_size=4"
    # The file's own values set again change nothing, nor do values it inherits set again; a
    # variant taken away is named.
    assert house.replace(deal={"dealer_extra": 0}).label == "switch_multiples"
    assert house.replace(multi={"mode": "equal_rank"}, draw={"after": "may_play_drawn"}).label == "switch_multiples"
    assert house.replace(variants=[]).label == "switch_multiples + variants=[]"
    # Copies and pickles keep what the file said and what changed on top of it.
    for copy in (pickle.loads(pickle.dumps(three)), eights.Rules(three)):
        assert copy == three and copy.label == three.label
    assert pickle.loads(pickle.dumps(house)).label == "switch_multiples"
    # Renamed, the rules go by their new name (a house of their own), changes on top of it listed.
    other = three.replace(name="other")
    assert other.label == "other" and other.replace(draw={"limit": 2}).label == "other + draw.limit=2"
    # A file without a name goes by the file's; rules with a name of their own from a table or
    # from Python the same.
    path = tmp_path / "house.toml"
    path.write_text("inherits = 'crazy_eights'\n[draw]\nlimit = 2\n", encoding="utf-8")
    nameless = eights.Rules.from_toml(path)
    assert nameless.label == "house" and nameless.replace(deal__hand_size=3).label == "house + deal.hand_size=3"
    table = {"inherits": "crazy_eights", "name": "mine", "draw": {"limit": 2}}
    assert eights.Rules.from_dict(table).replace(deal__hand_size=3).label == "mine + deal.hand_size=3"
    mine = eights.Rules("crazy_eights", name="mine", draw__limit=2)
    assert mine.label == "mine" and mine.replace(deal__hand_size=3).label == "mine + deal.hand_size=3"
    # A complete specification of its own name changed on top: the changes listed, and kept by a pickle.
    complete = eights.Rules.from_dict(house.to_dict())
    assert complete.label == "switch_multiples"
    changed = complete.replace(deal={"hand_size": 3})
    assert changed.label == "switch_multiples + deal.hand_size=3"
    again = pickle.loads(pickle.dumps(changed))
    assert again == changed and again.to_dict()["deal"]["hand_size"] == 3 and again.label == changed.label
    # Written out whole, the changed rules are a complete specification under the file's name:
    # it plays as they do but records no file to compare with, so it goes by that name.
    assert eights.Rules.from_dict(three.to_dict()) == three
    assert eights.Rules.from_dict(three.to_dict()).label == "switch_multiples"


def test_a_rule_space_draw_is_labelled_by_its_own_name():
    # A draw names itself after its preset and a digest of its changes; labelled like a house
    # file, it goes by that name (listing its changes too made labels of dozens of fields), and
    # changes made on top of it are listed after it, through copies and pickles.
    space = eights.RuleSpace(presets=["crazy_eights"], house_prob=1.0)
    seed = next(s for s in range(100) if space.changes(s))
    draw = space.sample(seed)
    assert draw.name.startswith("crazy_eights_house_") and draw.label == draw.name
    assert pickle.loads(pickle.dumps(draw)).label == draw.name
    assert draw.replace(deck={"packs": 2}).label == f"{draw.name} + deck.packs=2"
    assert pickle.loads(pickle.dumps(draw.replace(deck={"packs": 2}))).label == f"{draw.name} + deck.packs=2"


def test_a_complete_spec_is_labelled_as_the_same_rules_written_as_changes_to_the_preset():
    # Read back from to_dict(), rules changed from a preset listed a field the change cleared
    # as a bare path (`deal.hand_size_by_players.2`: an explicit hand size supersedes the
    # preset's size for two players, as in the engine), or a new table without its values.
    cases = [
        ("crazy_eights", {"deal": {"hand_size": 6}}),
        ("crazy_eights", {"deal": {"hand_size": 6}, "variants": ["multiple_cards"]}),
        ("crazy_eights", {"deck": {"packs": 2}}),
        ("crazy_eights", {"cards": {"2": {"draw_chain": {"amount": 2}}}}),
        ("crazy_eights", {"deal": {"hand_size_by_players": {"3": 6}}, "draw": {"limit": 2}}),
        ("switch_blackjack", {"cards": {"2": {"draw_chain": None}}}),
        ("one_left", {"match": {"rank_blocked": []}}),
    ]
    for preset, changes in cases:
        rules = eights.Rules(preset, changes)
        complete = eights.Rules.from_dict(rules.to_dict())
        assert complete == rules and complete.label == rules.label, (preset, changes)
    assert eights.Rules.from_dict(eights.Rules("crazy_eights", deal__hand_size=6).to_dict()).label == (
        "crazy_eights + deal.hand_size=6"
    )
    # A list emptied is a change (it was left out with `variants=[]`, which applies none).
    emptied = eights.Rules("one_left", match={"rank_blocked": []})
    assert emptied != eights.Rules("one_left") and emptied.label == "one_left + match.rank_blocked=[]"
    # A per-player table emptied is its field set explicitly, which supersedes the table in the
    # engine: the preset's seven cards for two players are gone and five are dealt, as the
    # change the label names deals them (it said `deal.hand_size_by_players.2=(removed)`, and
    # the same rules written as changes, `deal.hand_size=5` or `deck.packs=1`, were labelled so).
    spec = eights.Rules("crazy_eights").to_dict()
    spec["deal"]["hand_size_by_players"] = {}
    removed = eights.Rules.from_dict(spec)
    assert removed.label == "crazy_eights + deal.hand_size=5"
    assert removed == eights.Rules("crazy_eights", deal__hand_size=5)
    assert len(eights.Game(removed, 2, seed=0).hand(0)) == 5 != len(eights.Game("crazy_eights", 2, seed=0).hand(0))
    for changes in ({"deal": {"hand_size": 5}}, {"deck": {"packs": 1}}):
        rules = eights.Rules("crazy_eights", changes)
        assert eights.Rules.from_dict(rules.to_dict()).label == rules.label == label("crazy_eights", changes)
