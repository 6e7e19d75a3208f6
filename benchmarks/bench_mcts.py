"""MCTS simulations per second for every registered game, on one core.

Each game is searched from a few positions taken from random games (at the start, in
the middle and near the end, where the seat to move has a choice), with the game's own
search hints, for a fixed time per position. Usage::

    python benchmarks/bench_mcts.py [--seconds 2] [--only GAME] [--players N]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from sudoku_arena.ai.hints import Budget
from sudoku_arena.ai.mcts import MCTS
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load, registered_games


def positions(game: Any, seed: int, count: int) -> list[tuple[Any, int]]:
    """Decision states with a choice, spread over a random game (determinised)."""
    rng = random.Random(seed)
    m = Match(game, seed=seed)
    seen: list[tuple[Any, int]] = []
    while not m.is_over:
        p = m.to_move().players[0]
        legal = m.game.legal_actions(m.state, p)
        if len(legal) > 1:
            seen.append((m.agent_state(p), p))
        m.play(rng.choice(list(legal)), p)
    if not seen:
        return []
    step = max(1, len(seen) // count)
    return seen[::step][:count]


def bench(game_id: str, players: int | None, seconds: float) -> tuple[int, float, int]:
    spec = next(s for s in registered_games() if s.id == game_id)
    n = players if players is not None else min(max(2, spec.min_players), spec.max_players)
    game = load(game_id, seed=1, players=n)
    todo = positions(game, seed=1, count=5)
    search = MCTS(game, rng=random.Random(0))
    sims = 0
    spent = 0.0
    for state, p in todo:
        t = time.perf_counter()
        sims += search.search(state, p, Budget(10**12, seconds / len(todo))).simulations
        spent += time.perf_counter() - t
    return sims, spent, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="search time per game")
    ap.add_argument("--only", help="one game id")
    ap.add_argument("--players", type=int, help="player count (default: 2, or the minimum)")
    args = ap.parse_args()
    ids = [s.id for s in registered_games()] if args.only is None else [args.only]
    print(f"{'game':<18}{'players':>8}{'simulations':>13}{'seconds':>9}{'sims/s':>10}")
    for gid in ids:
        sims, spent, n = bench(gid, args.players, args.seconds)
        rate = sims / spent if spent else 0.0
        print(f"{gid:<18}{n:>8}{sims:>13}{spent:>9.2f}{rate:>10.0f}")


if __name__ == "__main__":
    main()
