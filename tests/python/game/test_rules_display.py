"""How a rule set shows in Jupyter (``Rules._repr_html_``): its title, label and player counts,
with its description folded under them, every text escaped (a house-rules file's name and
title are its author's); ``repr`` stays the constructor."""

from __future__ import annotations

import html

import eights


def test_rules_show_their_title_label_players_and_description():
    rules = eights.Rules("switch_blackjack")
    markup = rules._repr_html_()
    assert markup.startswith('<div class="eights-rules"')
    assert f"<b>{html.escape(rules.title)}</b> (switch_blackjack) · 2 to " in markup
    assert "<details><summary>the rules in words</summary>" in markup
    # Every heading and every listed rule of the description is there, as text.
    text = rules.describe().splitlines()
    for line in text[2:]:
        if line.startswith("## "):
            assert f">{html.escape(line[3:])}</div>" in markup
        elif line.startswith("- "):
            assert f"<li>{html.escape(line[2:])}</li>" in markup
    assert markup.count("<ul") == markup.count("</ul>") > 3
    assert repr(rules) == "Rules('switch_blackjack')"


def test_a_house_rules_title_and_name_are_escaped():
    bad = "<script>alert(1)</script>"
    rules = eights.Rules("crazy_eights", rules={"deal": {"hand_size": 4}}).replace({"name": "a&b", "title": bad})
    markup = rules._repr_html_()
    assert "<script" not in markup and html.escape(bad) in markup
    assert html.escape(rules.label) in markup and "a&amp;b" in markup


def test_rules_of_one_table_size_say_so():
    rules = eights.Rules("crazy_eights", rules={"players": {"min": 3, "max": 3}})
    assert "· 3 players<" in rules._repr_html_()
