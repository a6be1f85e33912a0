"""eights.integrations.openspiel: every preset as a pyspiel game; OpenSpiel's own random-simulation check,
its Python ISMCTS and MCTS bots and evaluate_bots run on them."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import eights  # noqa: E402
import eights.integrations.openspiel  # noqa: E402

# Three presets with short random games (OpenSpiel's checks are Python loops).
PRESETS = [("crazy_eights", 2), ("one_card", 2), ("switch_blackjack", 2)]


def _deal(state, rng):
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def test_every_preset_is_registered():
    names = set(pyspiel.registered_names())
    for preset in eights.presets():
        assert f"eights_{preset}" in names
        game = pyspiel.load_game(f"eights_{preset}")
        assert game.num_distinct_actions() == eights.NUM_ACTIONS
    game = pyspiel.load_game("eights_switch_blackjack", {"players": 3})
    assert game.num_players() == 3
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("eights_crazy_eights", {"players": 1})


def test_rules_changed_from_a_preset_are_registered_under_a_name_of_their_own():
    # register(Rules("crazy_eights", deal__hand_size=3)) returned "eights_crazy_eights", already
    # registered for the preset, and load_game then played the preset's rules.
    from eights.integrations.openspiel import register

    changed = eights.Rules("crazy_eights", deal__hand_size=3)
    with pytest.raises(ValueError, match=r"'eights_crazy_eights' is registered for other rules \(the crazy_eights pre"):
        register(changed)
    assert register(changed.replace(name="three_cards"))[-1] == "eights_three_cards"
    state = pyspiel.load_game("eights_three_cards").new_initial_state()
    _deal(state, np.random.default_rng(0))
    assert len(state.game.hand(0)) == 3
    assert register(eights.Rules("crazy_eights"))[-1] == "eights_crazy_eights"  # the preset's own rules


@pytest.mark.parametrize("preset,players", PRESETS)
def test_openspiel_random_simulation_check(preset, players):
    game = pyspiel.load_game(f"eights_{preset}", {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_deal_is_chance_and_tensors_match_the_engine():
    game = pyspiel.load_game("eights_crazy_eights", {"players": 2, "seed": 5})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    rng = np.random.default_rng(0)
    _deal(state, rng)
    assert game.observation_tensor_size() == eights.OBS_SIZE
    assert game.information_state_tensor_size() == eights.OBS_SIZE + eights.NUM_ACTIONS
    p = state.current_player()
    assert np.array_equal(np.array(state.observation_tensor(p), dtype=np.float32), state.game.observation(p))
    assert sorted(state.legal_actions()) == sorted(state.game.legal_actions())
    # The pack the chance nodes ordered is the pack the engine dealt from.
    replay = eights.Game("crazy_eights", 2, seed=5)
    replay.reset(seed=5, deck=state._pack)
    assert replay.to_dict() == state.game.to_dict()
    # Information states: a player's string changes with what it sees, and differs by player.
    before = state.information_state_string(p)
    assert before != state.information_state_string(1 - p)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(p) != before


def test_resample_keeps_what_the_player_knows():
    game = pyspiel.load_game("eights_crazy_eights", {"players": 3})
    state = _deal(game.new_initial_state(), np.random.default_rng(1))
    p = state.current_player()
    other = state.resample_from_infostate(p, np.random.default_rng(2).random)
    assert other.game.hand(p) == state.game.hand(p)
    assert other.observation_tensor(p) == state.observation_tensor(p)
    hidden = [state.game.hand(q) for q in range(3) if q != p]
    assert [other.game.hand(q) for q in range(3) if q != p] != hidden


@pytest.mark.parametrize("preset,players", PRESETS)
def test_ismcts_bot_plays_legal_moves(preset, players):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(f"eights_{preset}", {"players": players})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=6, random_state=rng)
    state = _deal(game.new_initial_state(), np.random.default_rng(3))
    for _ in range(3):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_evaluate_bots_and_mcts():
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game("eights_one_card", {"players": 2})
    rng = np.random.RandomState(0)
    bots = [pyspiel.make_uniform_random_bot(p, 1) for p in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 2 and abs(sum(returns)) < 1e-9
    mcts_bot = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = _deal(game.new_initial_state(), np.random.default_rng(4))
    assert mcts_bot.step(state) in state.legal_actions()
