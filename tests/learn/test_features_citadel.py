"""Citadel's value features: the layout's length and range on every board size, the
planes as the mover sees them, the seats swapped, the hand-written evaluation
recovered from them, the eight symmetries played out on the mapped board, and a tiny
training run whose weights play a game."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

import sudoku_arena
from learndata import tiny_run
from sudoku_arena.ai import make_agent
from sudoku_arena.ai.features import features_for
from sudoku_arena.core.match import Match
from sudoku_arena.games.citadel.diagram import from_diagram
from sudoku_arena.games.citadel.features import (
    CITADEL_FIELDS,
    PLANES,
    VERSION,
    feature_size,
    fields,
    symmetries,
    value_features,
)
from sudoku_arena.games.citadel.game import OVER, PLAY, Citadel, CitadelState
from sudoku_arena.games.citadel.rules import (
    ATTACK_BASE,
    END,
    K_ATTACK,
    K_END,
    K_MOVE,
    K_RAZE,
    K_WALL,
    MOVE_BASE,
    NUM_ACTIONS,
    RAZE_BASE,
    WALL_BASE,
    WALL_LL,
    split_action,
)
from sudoku_arena.games.citadel.search import SCALE, W_CITADEL, W_GUARD, W_REACH, W_WARRIOR
from sudoku_arena.games.citadel.search import evaluate as handwritten

GAME = "citadel"


def _game(seed: int = 0, **params: object) -> Citadel:
    game = sudoku_arena.load(GAME, seed=seed, **params)
    assert isinstance(game, Citadel)
    return game


def _field(f: list[float], size: int, name: str) -> list[float]:
    """The floats of field ``name`` in the features ``f`` of a ``size`` board."""
    start = 0
    for field, _, length in fields(size):
        if field == name:
            return f[start : start + length]
        start += length
    raise KeyError(name)


def _random_game(game: Citadel, seed: int) -> list[CitadelState]:
    """Every position of a game of random actions (``end`` only one time in four when
    there is more to do, so that turns do something), the last one finished."""
    rng = random.Random(seed)
    s, out = game.initial_state(), []
    while s.phase != OVER:
        out.append(s)
        legal = list(game.legal_actions(s, s.current))
        a = rng.choice(legal)
        if a == END and len(legal) > 1 and rng.random() < 0.75:
            a = rng.choice([x for x in legal if x != END])
        s = game.apply(s, a, s.current)
    return [*out, s]


@pytest.mark.parametrize(("size", "turns"), [(9, 40), (11, 30), (19, 16)])
def test_the_planes_are_the_position_from_the_movers_seat(size: int, turns: int) -> None:
    game = _game(size=size, max_turns=turns)
    n = feature_size(game)
    assert n == 11 * size * size + 9 * len(CITADEL_FIELDS) + 19
    assert features_for(game).size == n and features_for(game).version == VERSION
    played = 0
    for seed in range(2):
        *states, end = _random_game(game, seed)
        for s in states:
            f = value_features(game, s)
            assert len(f) == n and all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in f)
            me, en = s.current + 1, 2 - s.current
            assert _field(f, size, "mine") == [float(b == me) for b in s.board]
            assert _field(f, size, "theirs") == [float(b == en) for b in s.board]
            assert _field(f, size, "wall") == [float(b >= WALL_LL) for b in s.board]
            for name, who in (("citadel_mine", s.current), ("citadel_theirs", 1 - s.current)):
                cells = {c for k, c in enumerate(s.citadels) if game.controller(s, k) == who}
                assert {i for i, v in enumerate(_field(f, size, name)) if v} == cells
            strong = _field(f, size, "strength_mine")
            assert all((v > 0) == (b == me) for v, b in zip(strong, s.board, strict=True))
            for i in (i for i, b in enumerate(s.board) if b == me):
                assert strong[i] * 6 == pytest.approx(game.strength(s, i))
            if s.phase == PLAY and s.sieges < 2:
                takeable = set(game.siege_targets(s, s.current))
                assert {i for i, v in enumerate(_field(f, size, "takeable")) if v} == takeable
            assert _field(f, size, "spent") == [float(i in s.spent) for i in range(size * size)]
            assert _field(f, size, "phase") == [float(s.phase == k) for k in range(3)]
            played += s.phase == PLAY
        with pytest.raises(ValueError, match="game is over"):
            value_features(game, end)
    assert played > 0


def test_the_hand_written_evaluation_is_a_function_of_the_features() -> None:
    # Its terms per seat (citadels held, warriors, guard, reach) are fields, so its
    # value is a logistic of a linear function of them, as a network can learn.
    game = _game(size=13, max_turns=30)
    checked = 0
    for s in _random_game(game, 3)[:-1]:
        if s.phase != PLAY:
            continue
        f = value_features(game, s)

        def side(j: int, f: list[float] = f) -> float:
            held = _field(f, 13, "held")[j] * 9
            warriors = _field(f, 13, "warriors")[j] * game.warrior_cap
            guard = _field(f, 13, "guard")[j] * 9
            reach = _field(f, 13, "reach")[j] * 13.5
            return W_CITADEL * held + W_WARRIOR * warriors + W_GUARD * guard + W_REACH * reach

        value = 1.0 / (1.0 + math.exp(-SCALE * (side(0) - side(1))))
        assert value == pytest.approx(handwritten(game, s)[s.current], abs=1e-9)
        checked += 1
    assert checked > 20


#: Red's warrior on its own citadel c4, ringed by four blue warriors: besieged (CI-8).
RING = """
    a b c d e
 5  . . B . .
 4  . B R* B .
 3  . . B . .
"""


def test_a_besieged_citadel_as_each_side_sees_it() -> None:
    game = _game(size=9)
    c4 = game.geo.cell("c4")
    ring = {game.geo.cell(x) for x in ("c5", "b4", "d4", "c3")}
    blue = from_diagram(game, RING, to_move=0)
    f = value_features(game, blue)
    marked = {name: {i for i, v in enumerate(_field(f, 9, name)) if v} for name in PLANES}
    assert marked["takeable"] == {c4} and marked["captive_mine"] == set()
    assert marked["mine"] == ring and marked["theirs"] == marked["citadel_theirs"] == {c4}
    near = math.exp(-1 / 3)
    # held mine, theirs; occupied mine, theirs; strength; next mine, theirs, walls;
    # near mine, theirs; besieged; locked. The eight other citadels are not there.
    attacked = [0.0, 1.0, 0.0, 1.0, 2 / 6, 1.0, 0.0, 0.0, near, 1.0, 1.0, 0.0]
    assert _field(f, 9, "citadel_0") == pytest.approx(attacked)
    assert _field(f, 9, "citadel_1") == [0.0] * len(CITADEL_FIELDS)
    # Red to move: the same ring is his to break, the citadel locked for the turn.
    red = value_features(game, from_diagram(game, RING, to_move=1))
    assert {i for i, v in enumerate(_field(red, 9, "captive_mine")) if v} == {c4}
    defended = [1.0, 0.0, 1.0, 0.0, 2 / 6, 0.0, 1.0, 0.0, 1.0, near, 1.0, 1.0]
    assert _field(red, 9, "citadel_0") == pytest.approx(defended)
    # Two siege captures made this turn: nothing more to take.
    done = value_features(game, from_diagram(game, RING, to_move=0, sieges=2))
    assert _field(done, 9, "takeable") == [0.0] * 81


def _swapped(game: Citadel, s: CitadelState) -> CitadelState:
    """``s`` with the seats' colours exchanged, the mover's too."""
    data = game.dump_state(s)
    data["board"] = str(data["board"]).translate(str.maketrans("12", "21"))
    data["owners"] = [o if o < 0 else 1 - o for o in s.owners]
    data["current"] = 1 - s.current
    return game.load_state(data)


def test_seats_swapped_give_the_same_features_but_the_colour() -> None:
    game = _game(size=9, max_turns=40)
    blue = _field(list(range(feature_size(game))), 9, "mover_is_blue")[0]
    for s in _random_game(game, 5)[:-1:7]:
        f, g = value_features(game, s), value_features(game, _swapped(game, s))
        assert g[blue] == 1.0 - f[blue]
        assert g[:blue] == f[:blue] and g[blue + 1 :] == f[blue + 1 :]


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


def _mapped(game: Citadel, a: int, cells: list[int]) -> int:
    """Action ``a`` on the board whose cell ``i`` went to ``cells[i]``."""
    geo = game.geo
    kind, frame, extra = split_action(a)
    if kind == K_END:
        return a
    i = geo.from_frame[frame]
    to = geo.to_frame
    if kind in (K_MOVE, K_ATTACK):
        j = cells[i]
        target = cells[geo.dir_step[4 * i + extra]]
        d = next(d for d in range(4) if geo.dir_step[4 * j + d] == target)
        return (MOVE_BASE if kind == K_MOVE else ATTACK_BASE) + 4 * to[j] + d
    if kind in (K_WALL, K_RAZE):
        square = min(cells[x] for x in geo.block[i])  # the block's lower-left cell
        if kind == K_WALL:
            return WALL_BASE + to[square]
        side = geo.perim[square].index(cells[geo.perim[i][extra]])
        return RAZE_BASE + 8 * to[square] + side
    return a - frame + to[cells[i]]  # citadel, claim, recruit, siege: one cell


@pytest.mark.parametrize("size", [9, 11])
def test_the_symmetries_are_those_of_the_rules(size: int) -> None:
    # The same game on the turned or mirrored board, action for action: its features
    # are the permuted features, its end the same.
    game = _game(size=size, max_turns=24)
    perms = symmetries(game)
    n = feature_size(game)
    assert len(perms) == 8 and perms[0] == list(range(n))
    assert all(sorted(p) == list(range(n)) for p in perms) and len(set(map(tuple, perms))) == 8
    assert features_for(game).symmetries == tuple(map(tuple, perms))
    for k, perm in enumerate(perms):
        cells = _square(size, k)
        rng = random.Random(k)
        s, t = game.initial_state(), game.initial_state()
        while s.phase != OVER:
            f = value_features(game, s)
            assert [f[i] for i in perm] == value_features(game, t)
            legal = list(game.legal_actions(s, s.current))
            a = rng.choice(legal)
            if a == END and len(legal) > 1 and rng.random() < 0.75:
                a = rng.choice([x for x in legal if x != END])
            b = _mapped(game, a, cells)
            assert 0 <= b < NUM_ACTIONS
            s, t = game.apply(s, a, s.current), game.apply(t, b, t.current)
        assert (s.winner, s.end, game.control_counts(s)) == (
            t.winner,
            t.end,
            game.control_counts(t),
        )


def test_a_tiny_training_run_gives_weights_that_play_a_game(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    weights = tiny_run(GAME, tmp_path / "run", 10)
    # The weights are for the default board (19x19); a short turn limit ends the game soon.
    game = _game(4, max_turns=12)
    bots = [make_agent(f"learned:20@{weights}", game, seed=1), make_agent("mcts:20", game, seed=2)]
    assert not bots[0].fallback
    match = Match(game, seed=4)
    match.run(bots)  # the runner checks every action against the rules
    assert game.outcome(match.state) is not None
