"""How precise the post-game analysis is: each game's positions evaluated twice.

For every game one game is played by two greedy bots (fixed seed); about ``--positions``
of its positions, evenly spread, are evaluated twice by
:func:`sudoku_arena.ai.analysis.position_values` with two different seeds at the
game's simulations per position (:func:`~sudoku_arena.ai.analysis.simulations_for`, or
``--sims``). Printed per game: the simulations, the mean and the largest difference
between the two evaluations (in points of win chance, the largest over the seats of a
position), and the seconds per position. The analysis is precise enough when the
largest difference stays under 10 points. Usage::

    python scripts/analysis_precision.py [--only GAME] [--sims N] [--positions 20]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.analysis import position_values, simulations_for
from sudoku_arena.core.match import Match
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import load, registered_games
from sudoku_arena.core.types import MoveKind


def sample_positions(game: AnyGame, seed: int, count: int) -> list[object]:
    """``count`` positions, evenly spread, of a game two greedy bots play (the end of
    the game left out: it needs no search)."""
    match = Match(game, seed=seed)
    match.run([make_agent("greedy", game, seed=s) for s in range(game.num_players)])
    states = [
        s
        for s in Match(game, seed=seed, log=match.log).history
        if game.to_move(s).kind is not MoveKind.TERMINAL
    ]
    step = max(1, len(states) // count)
    return states[::step][:count]


def differences(
    game: AnyGame, states: Sequence[object], sims: int, seed: int = 0
) -> tuple[list[float], float]:
    """Per position the largest difference (over seats) between two evaluations with
    different seeds; and the seconds one evaluation took on average."""
    diffs: list[float] = []
    t0 = time.perf_counter()
    for i, s in enumerate(states):
        a = position_values(game, s, sims, seed + 2 * i)
        b = position_values(game, s, sims, seed + 2 * i + 1)
        diffs.append(max(abs(x - y) for x, y in zip(a, b, strict=True)))
    secs = (time.perf_counter() - t0) / max(1, 2 * len(states))
    return diffs, secs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=None, help="one game id")
    ap.add_argument("--sims", type=int, default=None, help="simulations (default: the game's)")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    ids = [args.only] if args.only else [s.id for s in registered_games()]
    print(f"{'game':16} {'sims':>5} {'positions':>9} {'mean':>6} {'max':>6} {'s/pos':>7}")
    for gid in ids:
        game = load(gid, seed=args.seed, players=args.players)
        sims = args.sims or simulations_for(game)
        states = sample_positions(game, args.seed, args.positions)
        diffs, secs = differences(game, states, sims)
        mean = 100 * sum(diffs) / len(diffs)
        print(
            f"{gid:16} {sims:5d} {len(states):9d} {mean:6.1f} {100 * max(diffs):6.1f} {secs:7.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
