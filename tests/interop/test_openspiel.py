"""The OpenSpiel adapter passes OpenSpiel's own checks, and its bots play through it."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from interop_cases import BUILTIN, TINY_SHEET, case_id, cases, params_for
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.registry import spec_of
from sudoku_arena.interop import openspiel as adapter

CASES = cases()


def os_params(game_id: str, players: int) -> dict[str, object]:
    """Test parameters; Citadel on 9 x 9 (OpenSpiel's checks of a 19 x 19 game replay
    every prefix of a long history)."""
    out = params_for(game_id, players)
    if game_id == "citadel":
        out["size"] = 9
    return out


def load(game_id: str, players: int) -> pyspiel.Game:
    return pyspiel.load_game(adapter.short_name(game_id), os_params(game_id, players))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_random_sim_test_with_serialization_passes(case: tuple[str, int]) -> None:
    game = load(*case)
    assert game.num_players() == case[1]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_a_game_loads_by_name_with_its_player_count() -> None:
    game = pyspiel.load_game("sudoku_arena_sudokuhex(players=3)")
    assert game.num_players() == 3
    assert game.rules.num_players == 3
    # The default Citadel board loads and plays through the adapter as well.
    big = pyspiel.load_game("sudoku_arena_citadel")
    state = big.new_initial_state()
    rng = random.Random(0)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    assert big.rules.params["size"] == 19


@pytest.mark.parametrize("game_id", [c[0] for c in CASES if c[1] == 2] + ["cat-sudoku"])
def test_the_game_type_is_declared_from_the_spec(game_id: str) -> None:
    spec = spec_of(game_id)
    gt = pyspiel.load_game(adapter.short_name(game_id)).get_type()
    kinds = pyspiel.GameType
    assert gt.dynamics == kinds.Dynamics.SEQUENTIAL
    assert (gt.chance_mode == kinds.ChanceMode.EXPLICIT_STOCHASTIC) == spec.chance
    assert (gt.information == kinds.Information.IMPERFECT_INFORMATION) == (spec.hidden_information)
    constant = gt.utility == kinds.Utility.CONSTANT_SUM
    assert constant == (not spec.draws and spec.min_players >= 2)
    assert (gt.min_num_players, gt.max_num_players) == (spec.min_players, spec.max_players)


@pytest.mark.parametrize("game_id", ["cat-sudoku", "sudokuhex"])
def test_chance_nodes_carry_the_engines_probabilities(game_id: str) -> None:
    game = load(game_id, 2)
    state = game.new_initial_state()
    rules = game.rules
    checked = 0
    rng = random.Random(3)
    while not state.is_terminal() and checked < 20:
        if state.is_chance_node():
            want = sorted(
                (rules.encode_action(a), float(p))
                for a, p in rules.chance_outcomes(state.engine_state)
            )
            assert state.chance_outcomes() == want
            assert abs(sum(p for _, p in want) - 1) < 1e-12
            checked += 1
            state.apply_action(rng.choice([a for a, _ in want]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 20


def test_bad_parameters_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(InvalidParameterError, match=r"size=2 .*allowed: a whole number >= 9"):
        pyspiel.load_game("sudoku_arena_citadel(size=2)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("sudoku_arena_citadel(colour=2)")


def _mcts(game: pyspiel.Game, seed: int) -> pyspiel.Bot:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rng, solve=True)


@pytest.mark.parametrize("game_id", BUILTIN)
def test_openspiels_mcts_bot_plays_complete_games(game_id: str) -> None:
    params = os_params(game_id, 2)
    # Random rollouts take long on the default Cat Sudoku sheet, and two random-rollout
    # searches on Citadel play on to the turn limit: a small sheet, a short limit.
    params.update(
        {"cat-sudoku": {"sheet": TINY_SHEET}, "citadel": {"max_turns": 12}}.get(game_id, {})
    )
    game = pyspiel.load_game(adapter.short_name(game_id), params)
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(
        state, [_mcts(game, 1), _mcts(game, 2)], np.random.RandomState(0)
    )
    assert state.is_terminal()  # evaluate_bots plays on the state it is given
    assert list(returns) == state.returns() == list(game.rules.returns(state.engine_state))
    assert len(state.history()) > 10
    assert all(0.0 <= r <= 1.0 for r in returns)
    if game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM:
        assert sum(returns) == pytest.approx(1.0)


def test_openspiels_information_set_mcts_plays_sudokuhex() -> None:
    game = load("sudokuhex", 2)
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 12, random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 10
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def _random_state(game: pyspiel.Game, plies: int, seed: int) -> pyspiel.State:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history()) < plies:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_serialization_and_pickling_round_trip() -> None:
    game = load("sudokuhex", 3)
    state = _random_state(game, 40, 1)
    text = pyspiel.serialize_game_and_state(game, state)
    _game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    for p in range(3):
        assert state2.information_state_string(p) == state.information_state_string(p)
    # A long Citadel game pickles too (its positions chain thousands of plies).
    long = _random_state(load("citadel", 2), 3000, 2)
    back = pickle.loads(pickle.dumps(long))
    assert back.history() == long.history() and str(back) == str(long)


def test_resampling_redeals_only_what_the_player_cannot_see() -> None:
    game = load("sudokuhex", 2)
    state = _random_state(game, 30, 4)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    me = state.current_player()
    other = 1 - me
    hands = set()
    for k in range(30):
        alt = state.resample_from_infostate(me, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
        assert alt.information_state_string(me) == state.information_state_string(me)
        assert alt.observation_tensor(me) == state.observation_tensor(me)
        assert alt.legal_actions() == state.legal_actions()
        hands.add(alt.view(other)["hand"])
    assert len(hands) > 1  # the other seat's tile really is re-dealt
