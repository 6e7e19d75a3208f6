"""Citadel micro-benchmarks: groups and liberties on a full 19x19 board, and playouts.

Prints microseconds per call of the group/liberty routines on boards where every cell
(or 90% of the cells) holds a warrior of a random colour, the cost of generating the
legal actions and the view in such a position, and random-playout moves per second on
19x19 (the same loop as ``benchmarks/bench.py``).

    python benchmarks/bench_citadel.py [--seconds 2] [--size 19]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from sudoku_arena.core.registry import load
from sudoku_arena.games.citadel import Citadel, CitadelState
from sudoku_arena.games.citadel.game import PLAY


def per_call(fn: Callable[[], Any], seconds: float) -> float:
    """Microseconds per call of ``fn``, run for about ``seconds``."""
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            fn()
        calls += 20
    return (time.perf_counter() - start) / calls * 1e6


def crowded(game: Citadel, fill: float, seed: int = 0) -> CitadelState:
    """A play position with warriors on ``fill`` of the cells, colours at random."""
    rng = random.Random(seed)
    n = game.size
    board = bytes(rng.choice((1, 2)) if rng.random() < fill else 0 for _ in range(n * n))
    return CitadelState(board=board, citadels=(), owners=(), phase=PLAY, current=0, credits=9)


def fresh(s: CitadelState) -> CitadelState:
    """A copy of the play position ``s`` without the derived data it remembers."""
    return CitadelState(s.board, s.citadels, s.owners, s.phase, s.current, s.credits)


def playout_speed(game: Citadel, seconds: float, seed: int = 0) -> tuple[float, int, float]:
    """Random playouts: (moves per second, games, mean turns per game)."""
    rng = random.Random(seed)
    moves = games = turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        s = game.initial_state()
        while s.current >= 0:
            p = s.current
            s = game.apply(s, rng.choice(list(game.legal_actions(s, p))), p)
            moves += 1
        games += 1
        turns += s.turn
    return moves / (time.perf_counter() - start), games, turns / max(games, 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--size", type=int, default=19)
    args = ap.parse_args()
    game = load("citadel", size=args.size)
    assert isinstance(game, Citadel)
    geo = game.geo
    t = args.seconds / 8
    print(f"Citadel {args.size}x{args.size}: groups and liberties")
    for fill in (1.0, 0.9):
        s = crowded(game, fill)
        groups = sum(len(geo.captive_groups(s.board, c)) for c in (1, 2))
        cells = [i for i, v in enumerate(s.board) if v]
        rng = random.Random(1)
        us_captive = per_call(
            lambda s=s: (geo.captive_groups(s.board, 1), geo.captive_groups(s.board, 2)), t
        )
        us_group = per_call(lambda s=s, c=cells, r=rng: geo.group(s.board, r.choice(c)), t)
        # A state remembers its legal actions: time them on a fresh copy each call.
        us_legal = per_call(lambda s=s: game.legal_actions(fresh(s), 0), t)
        us_view = per_call(lambda s=s: game.view(fresh(s), None), t)
        print(
            f"  {fill:.0%} full ({len(cells)} warriors, {groups} groups without liberties): "
            f"all captive groups {us_captive:.0f} us, one group + liberties "
            f"{us_group:.1f} us, legal actions {us_legal:.0f} us, view {us_view:.0f} us"
        )
    mps, games, mean_turns = playout_speed(game, args.seconds)
    print(
        f"Random playouts on {args.size}x{args.size}: {mps:,.0f} moves/s "
        f"({games} games, {mean_turns:.0f} turns each on average)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
