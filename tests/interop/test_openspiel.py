"""The OpenSpiel adapter passes OpenSpiel's own checks, declares returns as OpenSpiel's
algorithms expect them (two players: zero-sum, +1/-1/0), and its bots and searches play
through it."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from interop_cases import BUILTIN, TINY_SHEET, case_id, cases, params_for
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts, minimax
from open_spiel.python.bots import uniform_random

from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import spec_of
from sudoku_arena.interop import openspiel as adapter

CASES = cases()
Utility = pyspiel.GameType.Utility


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


@pytest.mark.parametrize("game_id", BUILTIN)
def test_the_game_type_is_declared_from_the_spec(game_id: str) -> None:
    spec = spec_of(game_id)
    gt = pyspiel.load_game(adapter.short_name(game_id)).get_type()
    kinds = pyspiel.GameType
    assert gt.dynamics == kinds.Dynamics.SEQUENTIAL
    assert (gt.chance_mode == kinds.ChanceMode.EXPLICIT_STOCHASTIC) == spec.chance
    assert (gt.information == kinds.Information.IMPERFECT_INFORMATION) == (spec.hidden_information)
    assert gt.reward_model == kinds.RewardModel.TERMINAL
    assert (gt.min_num_players, gt.max_num_players) == (spec.min_players, spec.max_players)


#: The utility each player count declares, with (min_utility, max_utility, utility_sum).
EXPECTED_UTILITY = {
    1: (Utility.GENERAL_SUM, 0.0, 1.0, None),
    2: (Utility.ZERO_SUM, -1.0, 1.0, 0.0),
    3: (Utility.CONSTANT_SUM, 0.0, 1.0, 1.0),
}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_two_players_are_zero_sum_more_constant_sum_one_general_sum(
    case: tuple[str, int],
) -> None:
    game = load(*case)
    utility, low, high, total = EXPECTED_UTILITY[min(case[1], 3)]
    assert game.get_type().utility == utility
    assert (game.min_utility(), game.max_utility()) == (low, high)
    assert game.utility_sum() == total  # None: no constant sum


@pytest.mark.parametrize("game_id", BUILTIN)
def test_the_registered_type_claims_only_what_holds_at_every_player_count(
    game_id: str,
) -> None:
    """The registry holds one type per game; the player count is a parameter."""
    registered = next(
        t for t in pyspiel.registered_games() if t.short_name == adapter.short_name(game_id)
    )
    spec = spec_of(game_id)
    per_count = {
        pyspiel.load_game(adapter.short_name(game_id), os_params(game_id, n)).get_type().utility
        for n in range(spec.min_players, spec.max_players + 1)
    }
    want = {
        "tic-tac-sudoku": Utility.ZERO_SUM,  # two players only
        "citadel": Utility.ZERO_SUM,
        "sudoku-warriors": Utility.CONSTANT_SUM,  # sum 0 with two, 1 with three
        "cat-sudoku": Utility.GENERAL_SUM,  # a solo score
        "sudokuhex": Utility.GENERAL_SUM,
    }[game_id]
    assert registered.utility == want
    if want == Utility.ZERO_SUM:
        assert per_count == {Utility.ZERO_SUM}
    elif want == Utility.CONSTANT_SUM:
        assert per_count <= {Utility.ZERO_SUM, Utility.CONSTANT_SUM}
    else:
        assert Utility.GENERAL_SUM in per_count


def expected_returns(rules: AnyGame, engine_state: object) -> list[float]:
    """The returns the declaration promises, from the engine's outcome (not its returns):
    +1/-1 for a sole winner of two, 0 each for a draw or a shared win of two; with more
    seats 1 shared among the winners; a solo game its returns (a score)."""
    n = rules.num_players
    if n == 1:
        return list(rules.returns(engine_state))
    outcome = rules.outcome(engine_state)
    assert outcome is not None
    winners = outcome.winners
    if n == 2:
        if len(winners) != 1:
            return [0.0, 0.0]
        return [1.0 if p in winners else -1.0 for p in range(2)]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_terminal_returns_are_what_the_game_declares(case: tuple[str, int]) -> None:
    """Over random playouts: two players' returns are +1/-1/0 and sum to 0, more players'
    sum to 1, and every return lies within the declared bounds."""
    game = load(*case)
    for seed in range(3):
        state = _random_state(game, 10**6, seed)
        assert state.is_terminal()
        returns = state.returns()
        assert returns == expected_returns(game.rules, state.engine_state)
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        if case[1] == 2:
            assert set(returns) <= {-1.0, 0.0, 1.0} and sum(returns) == 0.0
        elif case[1] >= 3:
            assert sum(returns) == pytest.approx(1.0)


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


@pytest.mark.parametrize("mcts_seat", [0, 1], ids=["mcts_first", "mcts_second"])
@pytest.mark.parametrize("game_id", BUILTIN)
def test_evaluate_bots_plays_mcts_against_a_random_bot(game_id: str, mcts_seat: int) -> None:
    """Every two-player game through OpenSpiel's evaluate_bots: MCTSBot against
    UniformRandomBot, the returns those of the engine's outcome, summing to 0."""
    params = os_params(game_id, 2)
    # Random rollouts take long on the default Cat Sudoku sheet, and random play on
    # Citadel goes on to the turn limit: a small sheet, a short limit.
    params.update(
        {"cat-sudoku": {"sheet": TINY_SHEET}, "citadel": {"max_turns": 12}}.get(game_id, {})
    )
    game = pyspiel.load_game(adapter.short_name(game_id), params)
    rng = np.random.RandomState(mcts_seat)
    bots: list[pyspiel.Bot] = [
        uniform_random.UniformRandomBot(seat, np.random.RandomState(10 + seat)) for seat in range(2)
    ]
    bots[mcts_seat] = _mcts(game, mcts_seat)
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    assert state.is_terminal()  # evaluate_bots plays on the state it is given
    assert len(state.history()) > 10
    assert list(returns) == state.returns() == expected_returns(game.rules, state.engine_state)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def _tree_size(rules: AnyGame, state: object, cap: int) -> int:
    """Positions in the game tree below ``state``, counted up to a little over ``cap``."""
    to_move = rules.to_move(state)
    if to_move.is_terminal:
        return 1
    mover = to_move.players[0]
    size = 1
    for action in rules.legal_actions(state, mover):
        size += _tree_size(rules, rules.apply(state, action, mover), cap - size)
        if size > cap:
            break
    return size


def _best_play(rules: AnyGame, state: object, player: int) -> tuple[float, int]:
    """Plain minimax over the engine, no pruning, no adapter: ``player``'s value of
    ``state`` under best play (+1 a win, -1 a loss, from the engine's outcome), and the
    longest line left in plies. Tic-Tac-Sudoku skips a seat that cannot move, so the
    seat to move is asked at every position rather than assumed to alternate."""
    to_move = rules.to_move(state)
    if to_move.is_terminal:
        return expected_returns(rules, state)[player], 0
    mover = to_move.players[0]
    lines = [
        _best_play(rules, rules.apply(state, a, mover), player)
        for a in rules.legal_actions(state, mover)
    ]
    values = [v for v, _ in lines]
    value = max(values) if mover == player else min(values)
    return value, 1 + max(plies for _, plies in lines)


def test_alpha_beta_search_solves_tic_tac_sudoku_endgames_as_the_engine_does() -> None:
    """Seeded random games are played until the whole game left is small (a few plies,
    at most a few thousand positions); OpenSpiel's alpha_beta_search, which refuses any
    game not declared zero-sum, then searches to the end and finds the value of a
    minimax over the engine, for both seats, with a move that keeps it."""
    solved = 0
    for seed in range(20):
        game = pyspiel.load_game(adapter.short_name("tic-tac-sudoku"), {"seed": seed})
        rules = game.rules
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal() and _tree_size(rules, state.engine_state, 5000) > 5000:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue  # the game ended while still wide open: try another seed
        me = state.current_player()
        value, plies = _best_play(rules, state.engine_state, me)
        if plies < 3:
            continue  # a last move or two: nothing to search
        found, action = minimax.alpha_beta_search(game, state=state, maximum_depth=81)
        assert found == value
        assert action in state.legal_actions()
        after = rules.apply(state.engine_state, rules.decode_action(action), me)
        assert _best_play(rules, after, me)[0] == value
        other = minimax.alpha_beta_search(
            game, state=state, maximum_depth=81, maximizing_player_id=1 - me
        )[0]
        assert other == -value
        solved += 1
        if solved == 4:
            break
    assert solved == 4


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
    # The game's length depends on the bots' choices, and IS-MCTS iterates over sets of
    # information-state strings, whose order follows the process's hash seed: only that
    # both seats played is fixed (10 to 26 moves seen over six hash seeds).
    assert moves >= 2
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


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
