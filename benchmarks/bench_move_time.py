"""How long the ``normal`` bot (``mcts:normal``) takes per move, in every game.

For every registered game, at its smallest and largest player counts,
real games are played: seat 0 is ``normal``, the other seats are ``greedy`` (or
``normal`` with ``--opponent normal``). A game's turns are many in the long games, so
seat 0's ``normal`` bot plays every k-th of its turns and ``greedy`` the others, with k
chosen so that about ``--moves`` timed positions are spread over the whole game. Each
timed move is what a server bot move costs: a new agent made by name, told the game's
past positions (``position_keys``), acting on the seat's view of the state (determinised
when information is hidden). Prints p50, p95 and the maximum in seconds and whether
p95 <= 1 s, after saying which build runs (compiled or pure Python: set
``SUDOKU_ARENA_PURE=1`` for pure).

    python benchmarks/bench_move_time.py [--moves 30] [--games 1] [--only GAME]
                                         [--opponent greedy|normal] [--level normal]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Any

from sudoku_arena._build import build_description
from sudoku_arena.ai import make_agent
from sudoku_arena.ai.mcts import position_keys
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load, registered_games

#: The move time the issue asks for at the 95th percentile.
LIMIT = 1.0


def _turns_of_seat0(game: Any, seed: int, opponent: str) -> int:
    """How many decisions seat 0 makes in a game where every seat plays greedy-like
    (``opponent``) from ``seed``: an estimate of the game's length for spreading."""
    if opponent != "greedy":
        return 0
    m = Match(game, seed=seed)
    agents = [make_agent("greedy", game, seed=m.bot_seed(i)) for i in range(game.num_players)]
    turns = 0
    while not m.is_over:
        p = m.to_move().players[0]
        turns += p == 0
        m.step_agent(agents[p], p)
    return turns


def play(game: Any, seed: int, level: str, opponent: str, moves: int) -> list[float]:
    """Play one game from ``seed``; return the seconds of each timed ``level`` move."""
    estimate = _turns_of_seat0(game, seed, opponent)
    every = max(1, math.ceil(estimate / moves)) if estimate else 1
    m = Match(game, seed=seed)
    others = [make_agent(opponent, game, seed=m.bot_seed(i)) for i in range(game.num_players)]
    stand_in = make_agent("greedy", game, seed=m.bot_seed(0, 1))
    times: list[float] = []
    turn = 0
    while not m.is_over:
        p = m.to_move().players[0]
        if p != 0:
            m.step_agent(others[p], p)
            continue
        turn += 1
        if (turn - 1) % every or len(times) >= moves:
            m.step_agent(stand_in, 0)
            continue
        start = time.perf_counter()
        bot = make_agent(level, game, seed=m.bot_seed(0, m.ply))
        remember = getattr(bot, "remember", None)
        if remember is not None:
            remember(position_keys(game, m.history))
        action = bot.act(game, m.agent_state(0), 0)
        times.append(time.perf_counter() - start)
        m.play(action, 0)
    return times


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--moves", type=int, default=30, help="timed moves per game (spread)")
    ap.add_argument("--games", type=int, default=1, help="games per player count")
    ap.add_argument("--only", help="one game id")
    ap.add_argument("--opponent", choices=["greedy", "normal"], default="greedy")
    ap.add_argument("--level", default="normal", help="the timed bot (default normal)")
    args = ap.parse_args()
    print(build_description())
    print(f"{args.level} (seat 0) against {args.opponent}; seconds per move")
    head = f"{'game':18s}{'players':>8s}{'moves':>7s}{'p50':>8s}{'p95':>8s}{'max':>8s}"
    print(f"{head}  p95 <= {LIMIT:g} s")
    every: list[float] = []
    for spec in registered_games():
        if args.only and spec.id != args.only:
            continue
        for n in sorted({spec.min_players, spec.max_players}):
            times: list[float] = []
            for g in range(args.games):
                game = load(spec.id, seed=g + 1, players=n)
                times += play(game, g + 1, args.level, args.opponent, args.moves)
            every += times
            p50, p95 = statistics.median(times), percentile(times, 0.95)
            verdict = "yes" if p95 <= LIMIT else "NO"
            print(
                f"{spec.id:18s}{n:>8d}{len(times):>7d}{p50:8.3f}{p95:8.3f}{max(times):8.3f}"
                f"  {verdict}",
                flush=True,
            )
    if every:
        p95 = percentile(every, 0.95)
        print(
            f"{'all':18s}{'':>8s}{len(every):>7d}{statistics.median(every):8.3f}{p95:8.3f}"
            f"{max(every):8.3f}  {'yes' if p95 <= LIMIT else 'NO'}"
        )


if __name__ == "__main__":
    main()
