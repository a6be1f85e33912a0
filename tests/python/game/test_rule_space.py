"""eights.RuleSpace: draws that are the same for the same seed, valid at the space's player
counts, readable and saved as house-rules TOML; its settings checked with errors naming
the argument."""

import pickle

import numpy as np
import pytest

import eights


def test_a_seed_gives_the_same_rules_and_seeds_differ():
    space = eights.RuleSpace(house_prob=1.0)
    assert space.sample(5) == space.sample(5)
    assert eights.RuleSpace(house_prob=1.0).sample(5) == space.sample(5)  # another object, same space
    drawn = {space.sample(s).to_toml() for s in range(40)}
    assert len(drawn) > 30


def test_draws_cover_the_presets_and_play_at_the_space_counts():
    space = eights.RuleSpace(num_players=[2, 4], house_prob=0.6)
    presets = set()
    for rules in space.samples(300, seed=1):
        presets.add(rules.preset)
        for n in (2, 3, 4):
            g = eights.Game(rules, n, seed=2)
            for _ in range(30):
                if g.is_terminal or g.is_truncated:
                    break
                g.step(g.legal_actions()[0])
    assert presets == set(space.presets)
    assert len(presets) >= 20


def test_house_rules_are_told_in_words_and_saved_as_a_house_rules_file(tmp_path):
    space = eights.RuleSpace(["crazy_eights"], house_prob=1.0, variant_prob=0.0)
    rules = space.sample(3)
    changes = space.changes(3)
    assert changes and rules.preset == "crazy_eights"
    text = rules.describe()
    assert "house rules" in text.lower() and changes[0] in text
    assert list(rules.players) == [2]  # checked (and valid) for the space's table only
    path = tmp_path / "house.toml"
    toml = rules.to_toml(path)
    assert toml.startswith('inherits = "crazy_eights"')
    assert eights.Rules.from_toml(path) == rules
    assert eights.Rules.from_toml(path).encode(2).tolist() == rules.encode(2).tolist()


def test_presets_only():
    space = eights.RuleSpace(house_prob=0.0, variant_prob=0.0)
    for s in range(30):
        rules = space.sample(s)
        assert rules == eights.Rules(rules.preset)
        assert space.changes(s) == []


def test_a_preset_listed_twice_is_drawn_twice_as_often():
    # The draw is uniform over the list: listing a preset k times weights it k to 1.
    space = eights.RuleSpace(["crazy_eights", "crazy_eights", "one_card"])
    assert space.presets == ["crazy_eights", "crazy_eights", "one_card"]
    drawn = [rules.preset for rules in space.samples(3000, seed=0)]
    counts = {name: drawn.count(name) for name in set(drawn)}
    assert set(counts) == {"crazy_eights", "one_card"}
    # A fixed seed: the counts are always the same (1,979 and 1,021), within 5% of 2,000 and 1,000.
    assert 1900 <= counts["crazy_eights"] <= 2100 and counts["one_card"] == 3000 - counts["crazy_eights"], counts
    assert space != eights.RuleSpace(["crazy_eights", "one_card"])  # another space: it draws otherwise


def test_dimensions_can_be_weighted_or_switched_off():
    space = eights.RuleSpace(
        ["crazy_eights"],
        house_prob=1.0,
        variant_prob=0.0,
        dims={"hand_size": 1.0} | {d: 0.0 for d in eights.RuleSpace.DIMENSIONS if d != "hand_size"},
    )
    for s in range(20):
        assert all(c.startswith("each player is dealt") for c in space.changes(s))
    assert space.dims["hand_size"] == 1.0 and space.dims["card_effect"] == 0.0


def test_weights_up_to_the_cap_are_taken_and_one_just_above_it_is_refused():
    # Two weights of 1e308 made the engine's sum infinite and every draw took one dimension;
    # the cap (1e6 each) keeps the sum of all eleven weights finite.
    def space(weight):
        dims = {d: (weight if d in ("hand_size", "direction") else 0.0) for d in eights.RuleSpace.DIMENSIONS}
        return eights.RuleSpace(["crazy_eights"], house_prob=1.0, variant_prob=0.0, dims=dims)

    at_cap = space(1e6)
    assert at_cap.dims["hand_size"] == at_cap.dims["direction"] == 1e6
    firsts = {c.split()[0] for s in range(60) for c in at_cap.changes(s)}
    assert len(firsts) == 2, firsts  # drawn by their ratio, 1 to 1
    for above in (np.nextafter(1e6, np.inf), 1e6 + 1, 1e308):
        with pytest.raises(eights.RulesError, match=r"'dims\.hand_size': a weight must be >= 0 and at most 1e\+06"):
            space(above)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(variant_prob=1.5), "variant_prob"),
        (dict(house_prob=-0.1), "house_prob"),
        (dict(mutations=0.5), "mutations"),
        (dict(dims={"colour": 1.0}), "dims"),
        # The weight's range was checked first: "'dims.nope': a weight must be ... at most 1e+06".
        (dict(dims={"nope": 1e9}), "dims"),
        (dict(dims={"hand_size": -1.0}), "dims.hand_size"),
        # Accepted: two such weights summed to inf in the engine, and every draw took one dimension.
        (dict(dims={"hand_size": 1e308, "chain": 1e308}), "dims.hand_size"),
        (dict(dims={"chain": 1e6 + 1}), "dims.chain"),
        (dict(presets=[]), "presets"),
        (dict(presets=["crazy_nines"]), "presets"),
        (dict(presets=["stalin"], num_players=2), "presets"),
        (dict(num_players=[]), "num_players"),
        (dict(num_players=11), "num_players"),
    ],
)
def test_bad_settings_name_the_argument(kwargs, field):
    with pytest.raises(eights.RulesError, match=f"'{field}'"):
        eights.RuleSpace(**kwargs)


@pytest.mark.parametrize("kwargs", [dict(variant_prob="x"), dict(presets=[3]), dict(dims=[1]), dict(num_players=2.5)])
def test_bad_types_are_type_errors(kwargs):
    with pytest.raises(TypeError):
        eights.RuleSpace(**kwargs)


def test_seeds_are_checked_and_the_space_pickles():
    space = eights.RuleSpace(num_players=3)
    with pytest.raises(ValueError, match="seed"):
        space.sample(-1)
    again = pickle.loads(pickle.dumps(space))
    assert again == space and again.sample(9) == space.sample(9)
    assert "num_players=[3]" in repr(space)


def test_the_encoding_of_a_draw_matches_the_engine():
    space = eights.RuleSpace(house_prob=1.0)
    for s in range(10):
        rules = space.sample(s)
        np.testing.assert_array_equal(rules.encode(2), eights.Game(rules, 2, seed=0).rules_encoding())
