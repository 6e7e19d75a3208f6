"""SuDokuHex's value features: the layout's length and range, the planes read back
against the state, the secrecy of the other hand and the pile (twin deals and every
determinisation give the same features, and a leaky variant is caught), the seats
swapped, the 42 symmetries proved on the geometry and played out, and a tiny training
run."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from learndata import tiny_run
from sudoku_arena.ai import make_agent
from sudoku_arena.ai.features import features_for
from sudoku_arena.core.match import Match, sample_outcome
from sudoku_arena.core.registry import load
from sudoku_arena.games.sudokuhex.agents import best_points, expected_best, greedy_choice
from sudoku_arena.games.sudokuhex.features import (
    FIELDS,
    SIZE,
    VERSION,
    feature_size,
    hex_rotations,
    number_shifts,
    symmetries,
    value_features,
)
from sudoku_arena.games.sudokuhex.game import (
    DRAW_BASE,
    NUM_HEXES,
    START_BASE,
    HexState,
    SuDokuHex,
    draw_action,
    start_action,
)
from sudoku_arena.games.sudokuhex.search import evaluate as handwritten
from sudoku_arena.grids.hex import (
    HEX_COORDS,
    HEX_NAMES,
    HONEYCOMB_CENTRES,
    HONEYCOMB_MASKS,
    LINE_MASKS,
    placement_points,
)

GAME = "sudokuhex"
Features = Callable[[SuDokuHex, HexState], list[float]]


def _game(seed: int = 0) -> SuDokuHex:
    game = load(GAME, seed=seed)
    assert isinstance(game, SuDokuHex)
    return game


def _field(f: list[float], name: str) -> list[float]:
    """The floats of field ``name`` in the features ``f``."""
    start = 0
    for field, size in FIELDS:
        if field == name:
            return f[start : start + size]
        start += size
    raise KeyError(name)


def _index(name: str) -> int:
    """Where the one-float field ``name`` sits."""
    start = 0
    for field, size in FIELDS:
        if field == name:
            assert size == 1
            return start
        start += size
    raise KeyError(name)


def _states(game: SuDokuHex, seed: int, greedy: bool = False) -> Iterator[HexState]:
    """Every state of a game (random or greedy placements), chance nodes and the end
    included."""
    rng = random.Random(seed)
    s = game.initial_state()
    while True:
        yield s
        tm = game.to_move(s)
        if tm.is_terminal:
            return
        if tm.is_chance:
            s = game.apply(s, sample_outcome(game.chance_outcomes(s), rng), None)
            continue
        p = tm.players[0]
        a = greedy_choice(game, s, p, rng) if greedy else rng.choice(game.legal_actions(s, p))
        s = game.apply(s, a, p)


def _decisions(game: SuDokuHex, seeds: range) -> list[HexState]:
    """The decision states of random and greedy games."""
    return [
        s
        for seed in seeds
        for s in _states(game, seed, greedy=seed % 2 == 1)
        if game.to_move(s).is_decision
    ]


def test_the_layout_has_its_size_and_range_in_random_games() -> None:
    game = _game()
    assert feature_size(game) == SIZE == sum(n for _, n in FIELDS) == 836
    found = features_for(game)
    assert (found.size, found.version, len(found.symmetries)) == (SIZE, VERSION, 42)
    chance = ended = decisions = 0
    for seed in range(8):
        for s in _states(game, seed, greedy=seed % 2 == 1):
            tm = game.to_move(s)
            if not tm.is_decision:
                # Nobody is to move at the setup, a draw or the end: no features.
                with pytest.raises(ValueError, match="nobody is to move"):
                    value_features(game, s)
                chance += tm.is_chance
                ended += tm.is_terminal
                continue
            f = value_features(game, s)
            assert len(f) == SIZE
            assert all(math.isfinite(x) and 0.0 <= x <= 1.0 for x in f)
            decisions += 1
    assert ended == 8 and chance > 8 * 7 and decisions > 8 * 10


def test_the_planes_match_the_state() -> None:
    game = _game()
    most = 18.0
    for s in _decisions(game, range(4)):
        p = game.to_move(s).players[0]
        q = 1 - p
        f = value_features(game, s)
        tiles = _field(f, "tiles")
        opens = _field(f, "open")
        for h in range(NUM_HEXES):
            # A hex's number reads back from the seven planes (none when empty).
            on = [v for v in range(1, 8) if tiles[(v - 1) * NUM_HEXES + h]]
            assert on == ([s.board[h]] if s.board[h] else [])
        for v in range(1, 8):
            plane = opens[(v - 1) * NUM_HEXES : v * NUM_HEXES]
            assert {h for h, x in enumerate(plane) if x} == {
                h for h in range(NUM_HEXES) if game.legal_mask(s, v) >> h & 1
            }
        mine = s.hands[p]
        assert _field(f, "my_tile") == [float(v == mine) for v in range(1, 8)]
        legal = set(game.legal_actions(s, p))
        assert legal and {h for h, x in enumerate(_field(f, "my_open")) if x} == legal
        points = _field(f, "points")
        for h in range(NUM_HEXES):
            want = 0 if s.board[h] else placement_points(s.occupied, h)
            assert points[h] * most == pytest.approx(want)
        unseen = game.unseen_counts(s, p)
        assert [x * 7 for x in _field(f, "unseen")] == pytest.approx(unseen)
        best = [best_points(s.occupied, b) for b in s.blocked]
        assert [x * most for x in _field(f, "best")] == pytest.approx(best)
        room = [game.legal_mask(s, v).bit_count() for v in range(1, 8)]
        assert _field(f, "dead") == [float(r == 0) for r in room]
        assert _field(f, "last_hex") == [float(r == 1) for r in room]
        assert _field(f, "scores") == pytest.approx([s.scores[p] / 381, s.scores[q] / 381])
        assert f[_index("handwritten")] == pytest.approx(handwritten(game, s)[p])
        assert f[_index("my_best")] * most == pytest.approx(best[mine - 1])
        expected = expected_best(s.occupied, s.blocked, unseen)
        assert f[_index("their_expected")] * most == pytest.approx(expected)
        # The test may read the true pile: the features must agree with it.
        assert f[_index("tiles_left")] * 42 == pytest.approx(sum(s.pile))
        assert f[_index("odd_left")] == sum(s.pile) % 2
        assert f[_index("their_tile")] == float(s.hands[q] > 0)
        assert f[_index("mover_is_red")] == float(p == 0)


def _twins(game: SuDokuHex, s: HexState) -> list[HexState]:
    """``s`` with the other seat's tile exchanged for each other number in the pile:
    the deals that the mover cannot tell apart from ``s``."""
    p = game.to_move(s).players[0]
    q = 1 - p
    held = s.hands[q]
    out = []
    for w in range(1, 8):
        if held and w != held and s.pile[w - 1]:
            hands, pile = list(s.hands), list(s.pile)
            hands[q] = w
            pile[w - 1] -= 1
            pile[held - 1] += 1
            out.append(s.but(hands=tuple(hands), pile=tuple(pile)))
    return out


def _leaks(game: SuDokuHex, states: list[HexState], features: Features) -> int:
    """How many twin deals and determinisations of ``states`` get features other than
    the true state's from ``features``."""
    leaks = 0
    rng = random.Random(7)
    for s in states:
        p = game.to_move(s).players[0]
        f = features(game, s)
        deals = _twins(game, s) + [game.determinize(s, p, rng) for _ in range(4)]
        leaks += sum(features(game, d) != f for d in deals)
    return leaks


def test_features_see_only_what_the_mover_sees() -> None:
    game = _game()
    states = _decisions(game, range(6))
    twins = differ = 0
    for s in states:
        p = game.to_move(s).players[0]
        for t in _twins(game, s):
            # The twin differs from s in the other hand and in the pile (so a feature
            # read from s.pile would tell them apart), not in what the mover sees.
            assert t.hands[1 - p] != s.hands[1 - p] and t.pile != s.pile
            assert t.hands[p] == s.hands[p]
            assert game.unseen_counts(t, p) == game.unseen_counts(s, p)
            assert value_features(game, t) == value_features(game, s)
            twins += 1
        rng = random.Random(len(states))
        for _ in range(4):
            d = game.determinize(s, p, rng)
            assert value_features(game, d) == value_features(game, s)
            differ += d.pile != s.pile
    assert twins > 100 and differ > 50
    assert _leaks(game, states, value_features) == 0

    # The check has teeth: features that read the pile, or the other hand, are caught.
    def pile_leak(game: SuDokuHex, s: HexState) -> list[float]:
        return [*value_features(game, s), *(c / 7 for c in s.pile)]

    def hand_leak(game: SuDokuHex, s: HexState) -> list[float]:
        q = 1 - game.to_move(s).players[0]
        return [*value_features(game, s), s.hands[q] / 7]

    assert _leaks(game, states, pile_leak) > 100
    assert _leaks(game, states, hand_leak) > 100

    # ... and the mover's own tile is seen: another tile in his hand changes them.
    s = states[len(states) // 2]
    p = game.to_move(s).players[0]
    other = next(v for v in range(1, 8) if v != s.hands[p] and game.legal_mask(s, v))
    hands = list(s.hands)
    hands[p] = other
    assert value_features(game, s.but(hands=tuple(hands))) != value_features(game, s)


def test_seats_swapped_give_the_same_features_but_the_colour() -> None:
    # The rules treat the seats alike but for who plays first (in the pile's parity).
    game = _game()
    red = _index("mover_is_red")
    for s in _decisions(game, range(3))[::5]:
        t = s.but(hands=s.hands[::-1], scores=s.scores[::-1], turn=1 - s.turn)
        f, g = value_features(game, s), value_features(game, t)
        assert g[red] == 1.0 - f[red]
        assert g[:red] == f[:red] and g[red + 1 :] == f[red + 1 :]


def _mask_map(mask: int, where: list[int]) -> int:
    return sum(1 << where[h] for h in range(NUM_HEXES) if mask >> h & 1)


def test_the_rotations_map_honeycombs_and_lines_onto_themselves() -> None:
    turns = hex_rotations()
    assert len(turns) == 6 and turns[0] == list(range(NUM_HEXES))
    assert len({tuple(t) for t in turns}) == 6
    for turn in turns:
        assert sorted(turn) == list(range(NUM_HEXES))
        assert {_mask_map(m, turn) for m in HONEYCOMB_MASKS} == set(HONEYCOMB_MASKS)
        assert {_mask_map(m, turn) for m in LINE_MASKS} == set(LINE_MASKS)
        # A rotation about A0 keeps each hex's distance from it: a turn, not a shuffle.
        for h in range(NUM_HEXES):
            (q, r), (u, w) = HEX_COORDS[h], HEX_COORDS[turn[h]]
            assert max(abs(q), abs(r), abs(q + r)) == max(abs(u), abs(w), abs(u + w))
    # No reflection maps the honeycombs onto themselves: why the symmetries are six
    # turns. Every reflection about A0 is one mirror after a turn, and turns keep the
    # set of centres, so one mirror (q and r exchanged) stands for all six.
    centres = set(HONEYCOMB_CENTRES)
    assert {(r, q) for q, r in centres} != centres


def _mapped_state(game: SuDokuHex, s: HexState, turn: list[int], shift: list[int]) -> HexState:
    """``s`` on the board turned by ``turn`` (hex map) with the numbers renamed by
    ``shift`` (``shift[v - 1]`` is the new name of ``v``)."""
    new = [0] * NUM_HEXES
    for h, v in enumerate(s.board):
        new[turn[h]] = shift[v - 1] if v else 0
    start = [-1] * 7
    for v, h in enumerate(s.start, start=1):
        start[shift[v - 1] - 1] = turn[h] if h >= 0 else -1
    pile = [0] * 7
    for v, c in enumerate(s.pile, start=1):
        pile[shift[v - 1] - 1] = c
    data = game.dump_state(s)
    data["board"] = "".join(map(str, new))
    data["start"] = [None if h < 0 else HEX_NAMES[h] for h in start]
    data["hands"] = [shift[v - 1] if v else 0 for v in s.hands]
    data["pile"] = pile
    data["last"] = None if s.last < 0 else HEX_NAMES[turn[s.last]]
    return game.load_state(data)


def _mapped_outcome(a: int, turn: list[int], shift: list[int]) -> int:
    if a >= DRAW_BASE:
        return draw_action(shift[a - DRAW_BASE])
    v, h = divmod(a - START_BASE, NUM_HEXES)
    assert shift[v] == v + 1, "the setup goes in number order: rotations only"
    return start_action(v + 1, turn[h])


@pytest.mark.parametrize("k", range(6))
def test_the_symmetries_are_those_of_the_rules(k: int) -> None:
    # The same game on the turned board with the numbers renamed, move for move: its
    # chances are the same, its features the permuted features, its end the same.
    game = _game()
    perms = symmetries(game)
    assert len(perms) == 42 and perms[0] == list(range(SIZE))
    assert all(sorted(p) == list(range(SIZE)) for p in perms)
    assert len({tuple(p) for p in perms}) == 42
    assert features_for(game).symmetries == tuple(map(tuple, perms))
    turn = hex_rotations()[k]
    for j, shift in enumerate(number_shifts()):
        perm = perms[7 * k + j]
        rng = random.Random(100 * k + j)
        s = game.initial_state()
        if j:  # a renaming cannot replay the setup (tile 1 goes first): map after it
            while not game.to_move(s).is_decision:
                s = game.apply(s, sample_outcome(game.chance_outcomes(s), rng), None)
        t = _mapped_state(game, s, turn, shift)
        compared = 0
        while True:
            assert t == _mapped_state(game, s, turn, shift)
            tm = game.to_move(s)
            assert game.to_move(t) == tm
            if tm.is_terminal:
                break
            if tm.is_chance:
                outcomes = game.chance_outcomes(s)
                mapped = {(_mapped_outcome(a, turn, shift), pr) for a, pr in outcomes}
                assert set(game.chance_outcomes(t)) == mapped
                a = sample_outcome(outcomes, rng)
                assert isinstance(a, int)
                s, t = game.apply(s, a, None), game.apply(t, _mapped_outcome(a, turn, shift))
                continue
            p = tm.players[0]
            f = value_features(game, s)
            assert [f[i] for i in perm] == value_features(game, t)
            compared += 1
            legal = game.legal_actions(s, p)
            assert sorted(turn[h] for h in legal) == sorted(game.legal_actions(t, p))
            a = rng.choice(legal)
            s, t = game.apply(s, a, p), game.apply(t, turn[a], p)
        assert compared > 5
        assert (s.scores, s.end, s.turn) == (t.scores, t.end, t.turn)


def test_a_tiny_training_run_gives_weights_that_play_a_game(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    weights = tiny_run(GAME, tmp_path / "r")
    # The learned search evaluates after the draws (nobody is to move at a draw).
    game = load(GAME, seed=6)
    bots = [make_agent(f"learned:30@{weights}", game, seed=1), make_agent("mcts:30", game, seed=2)]
    assert not bots[0].fallback
    match = Match(game, seed=6)
    match.run(bots)  # the runner checks every action against the rules
    assert game.outcome(match.state) is not None
