"""``Rules.with_variants`` takes the names as arguments or as one list, the form ``variants=[...]``
takes everywhere else; a list used to be refused as an unknown variant "(type list)" while the
message listed that very name among the documented ones."""

from __future__ import annotations

import pytest

import eights


@pytest.mark.parametrize("names", [["jacks_wild"], ("jacks_wild",)])
def test_with_variants_takes_one_list_of_names(names):
    rules = eights.Rules("crazy_eights")
    assert rules.with_variants(names) == rules.with_variants("jacks_wild")
    assert rules.with_variants(names).active_variants == ["jacks_wild"]


def test_with_variants_takes_several_names_either_way():
    rules = eights.Rules("crazy_eights")
    both = rules.with_variants("jacks_wild", "multiple_cards")
    assert rules.with_variants(["jacks_wild", "multiple_cards"]) == both
    assert both == eights.Rules("crazy_eights", variants=["jacks_wild", "multiple_cards"])
    assert rules.with_variants([]) == rules


@pytest.mark.parametrize("bad", [(3,), ([3],), (["jacks_wild", None],), (["jacks_wild"], "multiple_cards"), ({"a"},)])
def test_a_name_that_is_not_a_string_is_a_type_error_naming_the_argument(bad):
    with pytest.raises(TypeError, match=r"^with_variants\(\) names must be variant names \(str\).*; got "):
        eights.Rules("crazy_eights").with_variants(*bad)


def test_an_unknown_name_in_a_list_is_still_a_rules_error():
    with pytest.raises(eights.RulesError, match=r'unknown variant\(s\) "nope"; these rules document: '):
        eights.Rules("crazy_eights").with_variants(["nope"])
