"""One legality source per game: the move generator and the move checker agree.

In random reachable positions of every game (every supported player count, games
driven by the random and greedy bots so that late-game positions such as sieges, battles
and full sheets are reached too), every action index the game defines is decoded and
offered to ``apply`` for every seat to move: ``apply`` accepts it exactly when
``legal_actions`` lists it, and a refusal always carries a reason. A rule written twice
that drifted apart (a refusal the generator does not know about, or a generated move the
checker refuses) fails here with the position and the action.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_arena.ai.agents import make_agent
from sudoku_arena.core.errors import IllegalActionError
from sudoku_arena.core.registry import load, spec_of

#: Small boards where a game has a size, so every index can be tried in every position.
_PARAMS: dict[str, dict[str, object]] = {"citadel": {"size": 9, "max_turns": 60}}

_GAMES = ["tic-tac-sudoku", "sudoku-warriors", "cat-sudoku", "sudokuhex", "citadel"]


def _play_to(game: Any, seed: int, plies: int) -> list[Any]:
    """The positions of one game from the start, ``plies`` actions deep at most."""
    rng = random.Random(seed)
    bots = [make_agent(rng.choice(["random", "greedy"]), game, seed=seed + i) for i in range(9)]
    s = game.initial_state()
    seen = [s]
    for _ in range(plies):
        tm = game.to_move(s)
        if tm.is_terminal:
            break
        if tm.is_chance:
            outcomes = list(game.chance_outcomes(s))
            a = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
            s = game.apply(s, a, None)
        else:
            p = tm.players[0]
            s = game.apply(s, bots[p].act(game, s, p), p)
        seen.append(s)
    return seen


def _check_position(game: Any, s: Any, where: str) -> int:
    """Offer every action index to every seat to move; return how many were checked."""
    tm = game.to_move(s)
    if not tm.is_decision:
        return 0
    checked = 0
    for p in tm.players:
        legal = {game.encode_action(a) for a in game.legal_actions(s, p)}
        for index in range(game.spec.num_distinct_actions):
            action = game.decode_action(index)
            text = game.format_action(action)
            try:
                game.apply(s, action, p)
            except IllegalActionError as exc:
                assert index not in legal, f"{where}: generated {text} refused: {exc}"
                assert str(exc).strip(), f"{where}: {text} refused without a reason"
            else:
                assert index in legal, f"{where}: {text} accepted for seat {p} but not generated"
            checked += 1
    return checked


@pytest.mark.parametrize("game_id", _GAMES)
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_generator_equals_checker(game_id: str, data: st.DataObject) -> None:
    spec = spec_of(game_id)
    players = data.draw(st.integers(spec.min_players, spec.max_players), label="players")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    depth = data.draw(st.integers(0, 400), label="plies")
    params = {**_PARAMS.get(game_id, {}), "players": players}
    game = load(game_id, seed=seed, **params)
    positions = _play_to(game, seed, depth)
    # The last position and a few on the way: early, middle and late play.
    rng = random.Random(seed)
    picks = {len(positions) - 1, *rng.sample(range(len(positions)), min(3, len(positions)))}
    checked = sum(
        _check_position(game, positions[i], f"{game_id} players={players} seed={seed} ply {i}")
        for i in sorted(picks)
    )
    # Terminal or chance-only picks check nothing; the game's own position is checked.
    assert checked > 0 or not any(game.to_move(positions[i]).is_decision for i in picks)
