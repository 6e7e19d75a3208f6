"""Engine benchmarks: random-playout speed per game, a baseline, and grid generation.

Prints, for every registered game, random-playout moves per second (chance outcomes
included, the way the match resolves them); when OpenSpiel is installed
(``pip install -e '.[openspiel]'``), OpenSpiel's Python ``tic_tac_toe`` measured in the
same run with the same loop, and each game's ratio to it; then Sudoku grids generated
per second and a check of 10,000 generated grids (all valid, share distinct).

    python benchmarks/bench.py [--seconds 2] [--grids 10000] [--only GAME]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from sudoku_arena.core.match import sample_chance
from sudoku_arena.core.registry import build, registered_games
from sudoku_arena.grids.sudoku import generate_grid, validate_grid


class GamePlayouts:
    """Random playouts of one game, run in slices so that two workloads can alternate."""

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.moves = self.games = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        game, rng = self.game, self.rng
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            s = game.initial_state()
            while True:
                tm = game.to_move(s)
                if tm.is_terminal:
                    break
                if tm.is_chance:
                    s = game.apply(s, sample_chance(game, s, rng), None)
                else:
                    p = tm.players[0]
                    s = game.apply(s, rng.choice(game.legal_actions(s, p)), p)
                self.moves += 1
            self.games += 1
        self.elapsed += time.perf_counter() - start

    @property
    def rate(self) -> float:
        return self.moves / self.elapsed if self.elapsed else 0.0


class OpenSpielPlayouts:
    """Random playouts of OpenSpiel's Python tic_tac_toe with the same loop."""

    def __init__(self, seed: int = 0) -> None:
        import open_spiel.python.games  # noqa: F401  (registers the Python games)
        import pyspiel

        self.game = pyspiel.load_game("python_tic_tac_toe")
        self.rng = random.Random(seed)
        self.moves = self.games = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        rng = self.rng
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            state = self.game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                self.moves += 1
            self.games += 1
        self.elapsed += time.perf_counter() - start

    @property
    def rate(self) -> float:
        return self.moves / self.elapsed if self.elapsed else 0.0


def measure(game: Any, baseline: OpenSpielPlayouts | None, seconds: float) -> GamePlayouts:
    """Measure ``game`` for ``seconds``, alternating 0.1 s slices with the baseline so
    that both see the same machine load and their ratio is fair."""
    g = GamePlayouts(game)
    slices = max(1, int(seconds / 0.1))
    for _ in range(slices):
        g.run(0.1)
        if baseline is not None:
            baseline.run(0.1)
    return g


def grid_figures(count: int) -> tuple[float, float]:
    """(grids per second, share of distinct grids) over ``count`` seeded grids."""
    start = time.perf_counter()
    grids = [generate_grid(random.Random(i)) for i in range(count)]
    rate = count / (time.perf_counter() - start)
    for g in grids:
        validate_grid(g)
    return rate, len(set(grids)) / count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--grids", type=int, default=10_000, help="grids to generate and check")
    ap.add_argument("--only", help="measure one game only")
    args = ap.parse_args()

    try:
        baseline: OpenSpielPlayouts | None = OpenSpielPlayouts()
    except ImportError:
        baseline = None
        print("OpenSpiel not installed: no baseline (pip install -e '.[openspiel]')")
    print(f"{'workload':34s} {'moves/s':>12s}  {'games':>6s}  {'baseline moves/s':>16s}  ratio")
    for spec in registered_games():
        if args.only and spec.id != args.only:
            continue
        for n in sorted({spec.min_players, spec.max_players}):
            game = build(spec.id, {"players": n}, seed=1)
            before = (baseline.moves, baseline.elapsed) if baseline else (0, 0.0)
            g = measure(game, baseline, args.seconds)
            label = f"{spec.id} ({n}p)"
            if "size" in game.params:
                label = f"{spec.id} ({n}p, size {game.params['size']})"
            if baseline is not None:
                b_rate = (baseline.moves - before[0]) / (baseline.elapsed - before[1])
                tail = f"  {b_rate:16,.0f}  {g.rate / b_rate:5.2f}x"
            else:
                tail = ""
            print(f"{label:34s} {g.rate:12,.0f}  {g.games:6d}{tail}")
    if baseline is not None:
        name = "openspiel python_tic_tac_toe"
        print(f"{name:34s} {baseline.rate:12,.0f}  {baseline.games:6d}  (whole run)")
    if not args.only:
        rate, distinct = grid_figures(args.grids)
        print(
            f"sudoku grids: {rate:,.0f} grids/s; {args.grids} generated, all valid, "
            f"{100 * distinct:.2f}% distinct"
        )


if __name__ == "__main__":
    main()
