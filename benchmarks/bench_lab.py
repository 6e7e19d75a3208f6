"""Balance-lab throughput: random-vs-random games per second per game, 1 and 2 workers,
and the Ray backend against local processes, all measured in the same run.

Each figure is a whole ``sudoku_arena.lab.runner.run`` into a fresh folder: playing the
game through the match runner, its trace (legal actions, evaluation and scores after
every decision) and the appended record line. The ratios (2 workers / 1 worker, Ray /
local at the same workers) are the stable figures on a shared machine.

    python benchmarks/bench_lab.py [--games 200] [--only tic-tac-sudoku] [--no-ray]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from sudoku_arena.core.registry import load, registered_games
from sudoku_arena.lab.plan import Plan
from sudoku_arena.lab.runner import run


def games_per_second(game_id: str, games: int, workers: int, backend: str = "local") -> float:
    players = ("random",) * load(game_id).num_players
    plan = Plan(game_id, {}, players, games, seed=11)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        result = run(Path(tmp) / "run", plan, workers=workers, backend=backend)
        return result.played / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per figure (default 200)")
    ap.add_argument("--only", action="append", help="game id (repeatable)")
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray backend")
    args = ap.parse_args()
    print("| game | 1 worker games/s | 2 workers games/s | ratio | Ray, 2 workers | Ray / local |")
    print("|---|---:|---:|---:|---:|---:|")
    for spec in registered_games():
        if args.only and spec.id not in args.only:
            continue
        one = games_per_second(spec.id, args.games, 1)
        two = games_per_second(spec.id, args.games, 2)
        ray = "–" if args.no_ray else f"{games_per_second(spec.id, args.games, 2, 'ray'):.1f}"
        ratio = "–" if args.no_ray else f"{float(ray) / two:.2f}"
        print(f"| {spec.name} | {one:.1f} | {two:.1f} | {two / one:.2f} | {ray} | {ratio} |")


if __name__ == "__main__":
    main()
