"""Cat Sudoku's value features: the layout's length and ranges on every sheet, the
blocks as the mover (``to_move(s).players[0]``) sees them, checked against the state
and the game's scoring, the same position with the seats exchanged, the value
renamings and the mirror played out as games, the module accepted by the AI layer, and
a tiny training run."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import TypeVar

import pytest

import sudoku_arena
from learndata import tiny_run
from sudoku_arena.ai.features import NoFeaturesError, features_for
from sudoku_arena.core.registry import load
from sudoku_arena.games.cat_sudoku.features import (
    RENAMINGS,
    SEAT_FIELDS,
    SHARED_FIELDS,
    SQUARE,
    VERSION,
    feature_size,
    fields,
    last_turn,
    symmetries,
    value_features,
)
from sudoku_arena.games.cat_sudoku.game import (
    NOWILD,
    WILD,
    WILD_BASE,
    WRITE,
    WRITE_BASE,
    CatSudoku,
    CSState,
    wild_action,
    wild_parts,
    write_parts,
)

T = TypeVar("T")
GAME = "cat-sudoku"
SHEETS = ("spring", "summer", "autumn", "winter")


def _game(seed: int = 0, /, **params: object) -> CatSudoku:
    game = load(GAME, seed=seed, players=2, **params)
    assert isinstance(game, CatSudoku)
    return game


def _field(f: list[T], game: CatSudoku, name: str) -> list[T]:
    """The floats of field ``name`` in the features ``f`` of ``game``."""
    start = 0
    for field, length in fields(game):
        if field == name:
            return f[start : start + length]
        start += length
    raise KeyError(name)


def _squares(f: list[float], game: CatSudoku, name: str) -> dict[int, list[float]]:
    """A sheet block's floats by square (the fillable squares, in square order)."""
    block = _field(f, game, name)
    return {sq: block[SQUARE * k : SQUARE * (k + 1)] for k, sq in enumerate(game.board.fillable)}


def _play(game: CatSudoku, seed: int) -> list[CSState]:
    """Every position of a game of random actions (chance drawn at random too), as
    ``play_game`` in self-play walks it: the first seat to move acts. The last one is
    finished."""
    rng = random.Random(seed)
    s, out = game.initial_state(), []
    while not (tm := game.to_move(s)).is_terminal:
        if tm.is_chance:
            s = game.apply(s, rng.choice([a for a, _ in game.chance_outcomes(s)]), None)
            continue
        out.append(s)
        p = tm.players[0]
        s = game.apply(s, rng.choice(list(game.legal_actions(s, p))), p)
    return [*out, s]


@pytest.mark.parametrize(
    ("sheet", "options"),
    [
        ("spring", {}),
        ("summer", {"wild_optional": True}),
        ("autumn", {"adjacent": True}),
        ("winter", {"circle_per_segment": True}),
    ],
)
def test_the_length_and_ranges_on_every_sheet(sheet: str, options: dict[str, object]) -> None:
    game = _game(sheet=sheet, **options)
    n = feature_size(game)
    seat = sum(k for _, k in SEAT_FIELDS)
    assert n == 2 * SQUARE * len(game.board.fillable) + 2 * seat + sum(k for _, k in SHARED_FIELDS)
    assert features_for(game).size == n and features_for(game).version == VERSION
    lead = _field(list(range(n)), game, "lead")[0]
    phases = set()
    for seed in range(2):
        *states, end = _play(game, seed)
        for s in states:
            f = value_features(game, s)
            assert len(f) == n and all(math.isfinite(v) for v in f)
            assert all(0.0 <= v <= 1.0 for i, v in enumerate(f) if i != lead)
            assert -1.0 <= f[lead] <= 1.0
            phases.add(s.phase)
        with pytest.raises(ValueError, match="no seat is to move"):
            value_features(game, end)
    assert phases == {WILD, WRITE}
    rolling = game.apply(game.initial_state(), 3, None)
    with pytest.raises(ValueError, match="no seat is to move"):
        value_features(game, rolling)


def _safe(game: CatSudoku, vals: tuple[int, ...], sq: int) -> int:
    """How many values add no penalty written at the empty square ``sq`` (CS-8)."""
    return sum(game.board.write_delta(vals, sq, v, game.per_segment) == 0 for v in range(1, 7))


@pytest.mark.parametrize(("sheet", "adjacent"), [("spring", False), ("winter", True)])
def test_the_fields_are_the_position_from_the_movers_seat(sheet: str, adjacent: bool) -> None:
    game = _game(sheet=sheet, adjacent=adjacent)
    fill = game.board.fillable
    movers = set()
    dear = 0
    for s in _play(game, 7)[:-1]:
        f = value_features(game, s)
        p = game.to_move(s).players[0]
        movers.add((s.phase, p))
        for who, seat in (("mine", p), ("theirs", 1 - p)):
            vals = s.sheets[seat]
            for sq, floats in _squares(f, game, f"sheet_{who}").items():
                assert floats[:6] == [float(vals[sq] == v) for v in range(1, 7)]
                safe = 0 if vals[sq] else _safe(game, vals, sq)
                assert floats[6] == pytest.approx(safe / 6)
            penalty = game.penalty(s, seat)
            assert _field(f, game, f"penalty_{who}") == [pytest.approx(min(penalty / 100, 1))]
            empty = [sq for sq in fill if not vals[sq]]
            assert _field(f, game, f"empty_{who}") == [pytest.approx(len(empty) / len(fill))]
            assert _field(f, game, f"left_{who}") == [x / 4 for x in s.left[seat]]
            assert _field(f, game, f"writing_{who}") == [float(any(s.left[seat]))]
            # The cheapest write of each value on the squares the rules allow now.
            allowed = game.allowed_squares(s, seat)
            for v, x in enumerate(_field(f, game, f"cheapest_{who}"), start=1):
                least = min(
                    (game.board.write_delta(vals, sq, v, game.per_segment) for sq in allowed),
                    default=0,
                )
                assert x == pytest.approx(min(max(least, 0) / 10, 1))
                dear += x > 0
        assert _field(f, game, "phase") == [float(s.phase == WILD), float(s.phase == WRITE)]
        assert _field(f, game, "active_mine") == [float(s.active == p)]
        assert _field(f, game, "dice") == [s.dice.count(v) / 4 for v in range(1, 7)]
        assert _field(f, game, "wild") == [float(s.wild == v) for v in range(7)]
        crossed = [float(s.counter[9 * row + k] > 0) for row in (0, 1) for k in range(6)]
        assert _field(f, game, "counter_numbered") == crossed
        assert _field(f, game, "last_turn") == [float(s.turn == last_turn(game))]
        lead = game.score(s, p) - game.score(s, 1 - p)
        assert _field(f, game, "lead") == [pytest.approx(max(-1, min(lead / 20, 1)))]
        assert _field(f, game, "ahead") + _field(f, game, "tied") == [lead > 0, lead == 0]
    # Both seats are seen as the mover in both phases, and values grow dear late on.
    assert movers == {(WILD, 0), (WILD, 1), (WRITE, 0), (WRITE, 1)}
    assert dear > 0


def _swapped(game: CatSudoku, s: CSState) -> CSState:
    """``s`` with the seats exchanged: sheets, dice left to write and the active seat."""
    data = game.dump_state(s)
    data["sheets"] = list(reversed(data["sheets"]))
    data["left"] = list(reversed(data["left"]))
    data["active"] = 1 - s.active
    return game.load_state(data)


def test_the_same_position_with_the_seats_exchanged() -> None:
    game = _game(sheet="summer")
    n = feature_size(game)
    index = list(range(n))
    swap = []  # the features of the other seat's view: mine and theirs exchanged
    names = [name for name, _ in fields(game)]
    for name in names:
        stem, _, who = name.rpartition("_")
        other = f"{stem}_{'theirs' if who == 'mine' else 'mine'}"
        swap += _field(index, game, other if other in names else name)
    active, lead, ahead, tied = (
        _field(index, game, k)[0] for k in ("active_mine", "lead", "ahead", "tied")
    )
    both = alone = 0
    for s in _play(game, 11)[:-1]:
        f, g = value_features(game, s), value_features(game, _swapped(game, s))
        if len(game.to_move(s).players) == 1:
            # One seat to move (seat 1 included): the exchanged position has the other
            # seat to move with the same sheet, dice and role, so the same features.
            assert g == f
            alone += 1
        else:
            # Both write: seat 0 is the mover of both, so the blocks change places.
            want = [f[i] for i in swap]
            want[active] = 1.0 - f[active]
            want[lead] = -f[lead]
            want[ahead] = float(not f[ahead] and not f[tied])
            assert g == pytest.approx(want)
            both += 1
    assert both > 20 and alone > 20


def _mapped(game: CatSudoku, a: int, to: tuple[int, ...], mirror: bool) -> int:
    """Action ``a`` with the values renamed (``v`` to ``to[v]``) and the sheet mirrored."""
    if a < NOWILD:
        return to[a + 1] - 1  # a die showing a + 1
    if a == NOWILD:
        return a
    if a < WRITE_BASE:
        assert a >= WILD_BASE
        row, blank, v = wild_parts(a)
        return wild_action(row, blank, to[v])
    v, r, c = write_parts(a)
    if mirror:
        c = game.sheet.cols - 1 - c
    return game.write_action(to[v], r * game.sheet.cols + c)


@pytest.mark.parametrize(
    ("sheet", "options", "count"),
    [("spring", {}, 24), ("autumn", {"adjacent": True, "wild_optional": True}, 12)],
)
def test_the_symmetries_are_those_of_the_rules(
    sheet: str, options: dict[str, object], count: int
) -> None:
    # The same game with the values renamed (and the sheet mirrored), action for action
    # and roll for roll: its features are the permuted features, its scores the same.
    game = _game(sheet=sheet, **options)
    perms = symmetries(game)
    n = feature_size(game)
    assert len(perms) == count and perms[0] == list(range(n))
    assert all(sorted(p) == list(range(n)) for p in perms)
    assert len(set(map(tuple, perms))) == count
    assert features_for(game).symmetries == tuple(map(tuple, perms))
    rng = random.Random(sheet)
    picks = [0, count - 1, *rng.sample(range(count), 3)]
    for k in picks:
        mirror, sigma = divmod(k, len(RENAMINGS))
        to = (0, *RENAMINGS[sigma])
        play = random.Random(k)
        s, t = game.initial_state(), game.initial_state()
        while not (tm := game.to_move(s)).is_terminal:
            if tm.is_chance:
                a = play.randrange(6)
                s, t = game.apply(s, a, None), game.apply(t, _mapped(game, a, to, False), None)
                continue
            f = value_features(game, s)
            assert [f[i] for i in perms[k]] == value_features(game, t)
            p = tm.players[0]
            a = play.choice(list(game.legal_actions(s, p)))
            s, t = game.apply(s, a, p), game.apply(t, _mapped(game, a, to, bool(mirror)), p)
        assert game.to_move(t).is_terminal
        assert [game.score(s, p) for p in (0, 1)] == [game.score(t, p) for p in (0, 1)]


def test_winter_has_no_symmetry_but_the_identity() -> None:
    # Its pre-printed numbers are not renamed, and the head is not its own mirror image.
    game = _game(sheet="winter")
    assert symmetries(game) == [list(range(feature_size(game)))]


def test_the_ai_layer_accepts_the_module() -> None:
    game = _game()
    found = features_for(game)
    assert (found.size, found.version) == (feature_size(game), VERSION) == (884, "cat-sudoku/1")
    assert found.module == "sudoku_arena.games.cat_sudoku.features"
    # The game seats one by default: learned evaluations are for two (the module is
    # found, the number of seats refused).
    with pytest.raises(NoFeaturesError, match="two seats"):
        features_for(sudoku_arena.load(GAME))


def test_a_tiny_training_run(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from sudoku_arena.ai.value import load_weights, value_evaluator

    weights = tiny_run(GAME, tmp_path / "r")
    # The run seats two (the game's default is one); its weights evaluate a position.
    game = _game(3)
    found = features_for(game)
    net = load_weights(weights, found)
    s = next(s for s in _play(game, 3) if s.phase == WRITE)
    mine, theirs = value_evaluator(net, found)(game, s)
    assert 0.0 < mine < 1.0 and mine + theirs == pytest.approx(1.0)
