"""Post-game analysis: how long a whole game takes to analyse, for every game.

One game per game id is played by two greedy bots (fixed seed), then every position
of it is evaluated as the server's analysis does (the game's own simulations per
position, :func:`sudoku_arena.ai.analysis.simulations_for`). Printed per game: the
positions, the simulations per position, the seconds for the whole game, and the
ratio to replaying the game's log in the same run (the analysis costs that many
replays). Usage::

    python benchmarks/bench_analysis.py [--only GAME] [--players N] [--seed S]
"""

from __future__ import annotations

import argparse
import time

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.analysis import analyse, simulations_for
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load, registered_games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=None, help="one game id")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    ids = [args.only] if args.only else [s.id for s in registered_games()]
    print(f"{'game':16} {'positions':>9} {'sims':>5} {'seconds':>8} {'ms/pos':>7} {'x replay':>9}")
    for gid in ids:
        game = load(gid, seed=args.seed, players=args.players)
        match = Match(game, seed=args.seed)
        match.run([make_agent("greedy", game, seed=s) for s in range(game.num_players)])
        log = match.log
        t0 = time.perf_counter()
        states = Match(game, seed=args.seed, log=log).history
        replay = time.perf_counter() - t0
        sims = simulations_for(game)
        t0 = time.perf_counter()
        analyse(game, states, lambda i: i, sims)
        secs = time.perf_counter() - t0
        n = len(states)
        print(
            f"{gid:16} {n:9d} {sims:5d} {secs:8.1f} {1000 * secs / n:7.1f} "
            f"{secs / max(replay, 1e-9):9.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
