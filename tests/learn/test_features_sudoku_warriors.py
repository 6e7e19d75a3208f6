"""Sudoku Warriors' value features: the layout's length and range for two and three
players, the planes as the mover sees them (mid-battle too), the seats' relabelling,
the hand-written estimate carried over, the eight symmetries played out on the mapped
board, and a tiny training run whose weights play a game."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

import sudoku_arena
from learndata import tiny_run
from sudoku_arena.ai import make_agent
from sudoku_arena.ai.features import NoFeaturesError, features_for
from sudoku_arena.core.match import Match
from sudoku_arena.games.sudoku_warriors.features import (
    UNITS,
    VERSION,
    feature_size,
    fields,
    symmetries,
    value_features,
)
from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState
from sudoku_arena.games.sudoku_warriors.rules import (
    BATTLE_BASE,
    BID1_BASE,
    BID2_BASE,
    BID_NONE,
    XD,
    YIELD,
    bid_cells,
    pair_action,
)
from sudoku_arena.games.sudoku_warriors.search import expected_provinces

GAME = "sudoku-warriors"


def _game(players: int, seed: int, **params: object) -> SudokuWarriors:
    game = sudoku_arena.load(GAME, seed=seed, players=players, **params)
    assert isinstance(game, SudokuWarriors)
    return game


def _field(f: list[float], n: int, name: str) -> list[float]:
    """The floats of field ``name`` in the features ``f`` of an ``n``-player game."""
    start = 0
    for field, kind, repeats in fields(n):
        size = UNITS[kind] * repeats
        if field == name:
            return f[start : start + size]
        start += size
    raise KeyError(name)


def _mover(s: SWState) -> int:
    return s.actor if s.battle >= 0 else s.current


def _random_game(game: SudokuWarriors, seed: int) -> list[SWState]:
    """Every position of a game of random moves, the last one finished."""
    rng = random.Random(seed)
    s, out = game.initial_state(), []
    while s.current >= 0:
        out.append(s)
        p = _mover(s)
        s = game.apply(s, rng.choice(list(game.legal_actions(s, p))), p)
    return [*out, s]


@pytest.mark.parametrize("players", [2, 3])
def test_the_planes_are_the_position_from_the_movers_seat(players: int) -> None:
    size = feature_size(_game(players, 0))
    assert size == {2: 691, 3: 925}[players]
    assert size == sum(UNITS[kind] * k for _, kind, k in fields(players))
    battles = 0
    for seed in range(3):
        game = _game(players, seed)
        *states, end = _random_game(game, seed)
        for s in states:
            f = value_features(game, s)
            assert len(f) == size and all(math.isfinite(v) for v in f)
            assert all(0.0 <= v <= 1.0 for v in f if v != _field(f, players, "need")[0])
            p = _mover(s)
            seats = [(p + k) % players for k in range(players)]
            warriors = _field(f, players, "hill_warriors")
            control = _field(f, players, "village_control")
            for j, q in enumerate(seats):
                assert warriors[100 * j : 100 * j + 100] == [float(k == q + 1) for k in s.hill]
                assert control[81 * j : 81 * j + 81] == [float(c == q) for c in s.ctrl]
                held = _field(f, players, "province_held")[9 * j : 9 * j + 9]
                assert held == [float(o == q) for o in s.owner]
            assert _field(f, players, "hill_crossed") == [float(k == XD) for k in s.hill]
            spent = [bool(s.spent >> c & 1) for c in range(81)]
            resources = [0.0 if x else g / 9 for x, g in zip(spent, game.grid, strict=True)]
            assert _field(f, players, "village_resource") == resources
            phase = _field(f, players, "phase")
            if s.battle >= 0:
                battles += 1
                assert phase == [0.0, 0.0, 1.0]
                assert _field(f, players, "province_battle") == [
                    float(b == s.battle) for b in range(9)
                ]
                # The bidder is in the battle: the mover's seat fights and is still in.
                assert _field(f, players, "fighting")[0] == _field(f, players, "still_in")[0] == 1.0
                assert _field(f, players, "placer")[seats.index(s.current)] == 1.0
            else:
                assert phase == [float(not s.pending), float(bool(s.pending)), 0.0]
                assert _field(f, players, "placer")[0] == 1.0
        with pytest.raises(ValueError, match="game is over"):
            value_features(game, end)
    assert battles > 0  # the mid-battle positions were looked at


@pytest.mark.parametrize("players", [2, 3])
def test_the_hand_written_estimate_is_among_the_features(players: int) -> None:
    # A network can match the hand-written evaluation: its expected provinces per seat
    # (a softmax of them is evaluate()) are a field.
    game = _game(players, 5)
    for s in _random_game(game, 5)[:-1]:
        p = _mover(s)
        seen = _field(value_features(game, s), players, "expected")
        exp = expected_provinces(game, s)
        for j in range(players):
            assert seen[j] * 9 == pytest.approx(exp[(p + j) % players])


def _relabel(layout: str, shift: int, players: int) -> str:
    """The hilltop layout with every warrior moved ``shift`` seats on."""
    symbols = "ost"[:players]
    return "".join(
        symbols[(symbols.index(ch) + shift) % players] if ch in symbols else ch for ch in layout
    )


@pytest.mark.parametrize("players", [2, 3])
def test_seats_relabelled_give_the_same_features(players: int) -> None:
    # The same position with every seat moved one on (circle's warriors become
    # square's, ...), the mover too: from the mover's seat nothing changed.
    game = _game(players, 3)
    layout = (
        "o . . s . . . . . ."
        ". o s . x . . . . ."
        ". s o . . . t . . ."
        "o . . s . . . . . ."
        ". . . . o . . . . ."
        ". . . . . s . . . ."
        ". . t . . . . . . ."
        ". . . . . . . o . ."
        ". . . . . . . . s ."
        ". . . . . . . . . ."
    ).replace(" ", "")
    if players == 2:
        layout = layout.replace("t", ".")
    owners = {"b1": 0, "b9": players - 1}
    base = game.position(layout, owners=owners, spent=["r1c1", "r2c2"], to_move=0)
    f = value_features(game, base)
    assert _field(f, players, "hill_warriors")[0] == 1.0  # h00: the mover's warrior
    for shift in range(1, players):
        moved = game.position(
            _relabel(layout, shift, players),
            owners={b: (q + shift) % players for b, q in owners.items()},
            spent=["r1c1", "r2c2"],
            to_move=shift,
        )
        assert value_features(game, moved) == f


def _square(n: int, k: int) -> list[int]:
    """Where each index of an ``n x n`` square goes under symmetry ``k`` (turns, mirror)."""
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        if k % 2:
            c = n - 1 - c
        for _ in range(k // 2):
            r, c = c, n - 1 - r
        out.append(r * n + c)
    return out


def _mapped(a: int, hills: list[int], cells: list[int], boxes: list[int]) -> int:
    """Action ``a`` on the board mapped by ``hills``, ``cells`` and ``boxes``."""
    if a < BATTLE_BASE:
        return hills[a]
    if a < BID_NONE:
        return BATTLE_BASE + boxes[a - BATTLE_BASE]
    if a in (BID_NONE, YIELD):
        return a
    picked = [cells[c] for c in bid_cells(a)]
    return BID1_BASE + picked[0] if a < BID2_BASE else pair_action(picked[0], picked[1])


@pytest.mark.parametrize("players", [2, 3])
def test_the_symmetries_are_those_of_the_rules(players: int) -> None:
    # The same game on the turned or mirrored board (its numbers travel with their
    # villages), move for move: its features are the permuted features, its end the same.
    game = _game(players, 11)
    perms = symmetries(game)
    size = feature_size(game)
    assert len(perms) == 8 and perms[0] == list(range(size))
    assert all(sorted(p) == list(range(size)) for p in perms) and len(set(map(tuple, perms))) == 8
    if players == 2:  # what training augments with
        assert features_for(game).symmetries == tuple(map(tuple, perms))
    for k, perm in enumerate(perms):
        hills, cells, boxes = _square(10, k), _square(9, k), _square(3, k)
        grid = [0] * 81
        for i, j in enumerate(cells):
            grid[j] = game.grid[i]
        twin = _game(players, 0, grid="".join(map(str, grid)))
        rng = random.Random(k)
        s, t = game.initial_state(), twin.initial_state()
        while s.current >= 0:
            f = value_features(game, s)
            assert [f[i] for i in perm] == value_features(twin, t)
            p = _mover(s)
            a = rng.choice(list(game.legal_actions(s, p)))
            s, t = game.apply(s, a, p), twin.apply(t, _mapped(a, hills, cells, boxes), p)
        assert (s.winners, s.end, game.provinces(s)) == (t.winners, t.end, twin.provinces(t))


def test_three_players_have_features_but_no_learned_evaluation_yet() -> None:
    # The learned evaluation and self-play take two seats (ai.features): the features
    # are ready for three, the pipeline says why it stops.
    three = _game(3, 0)
    assert len(value_features(three, three.initial_state())) == feature_size(three)
    with pytest.raises(NoFeaturesError, match="for two seats"):
        features_for(three)
    assert features_for(_game(2, 0)).version == VERSION


def test_a_tiny_training_run_gives_weights_that_play_a_game(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    weights = tiny_run(GAME, tmp_path / "run", 10)
    game = _game(2, 4)
    bots = [make_agent(f"learned:20@{weights}", game, seed=1), make_agent("mcts:20", game, seed=2)]
    assert not bots[0].fallback
    match = Match(game, seed=4)
    match.run(bots)  # the runner checks every action against the rules
    assert game.outcome(match.state) is not None
