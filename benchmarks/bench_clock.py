"""What clocks cost the server: moves per second in timed games against untimed ones
(the baseline, measured in the same run, alternating), and the time one sweep for
lost-on-time and abandoned games takes with many games stored.

A timed move computes the clocks and stores them with the move (one more UPDATE in the
same transaction); an untimed move does neither.

    python benchmarks/bench_clock.py [--games 20] [--rounds 3] [--stored 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from sudoku_arena.server.arena import Arena, SeatSpec
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.clock import TimeControl
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.live import LiveGame


async def _moves(arena: Arena, games: int, timed: bool, rng: random.Random) -> tuple[int, float]:
    """Play ``games`` whole Tic-Tac-Sudoku games, all at once; moves and seconds."""
    control = TimeControl(60, 1) if timed else None
    made = [
        (await arena.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2, time_control=control))[0]
        for _ in range(games)
    ]

    async def play(lg: LiveGame) -> int:
        n = 0
        while not lg.over:
            seat = lg.to_move()[0]
            await arena.act(lg, seat, lg.ply, rng.choice(lg.view(seat)["legal"]))
            n += 1
        return n

    start = time.perf_counter()
    counts = await asyncio.gather(*(play(lg) for lg in made))
    return sum(counts), time.perf_counter() - start


async def main(games: int, rounds: int, stored: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        arena = Arena(Storage(f"sqlite:///{Path(tmp) / 'b.sqlite3'}"), bots=BotRunner(0))
        await arena.start()
        rng = random.Random(1)
        totals = {False: [0, 0.0], True: [0, 0.0]}
        for _ in range(rounds):
            for timed in (False, True):
                n, secs = await _moves(arena, games, timed, rng)
                totals[timed][0] += n
                totals[timed][1] += secs
        base = totals[False][0] / totals[False][1]
        timed_rate = totals[True][0] / totals[True][1]
        print(f"untimed moves/s (baseline): {base:8.0f}")
        print(f"timed moves/s:              {timed_rate:8.0f}   ratio {timed_rate / base:.2f}")
        for _ in range(stored):
            await arena.create(
                "tic-tac-sudoku", {}, [SeatSpec("human")] * 2, time_control=TimeControl(5)
            )
        arena.abandon_after = 3600.0
        start = time.perf_counter()
        for _ in range(10):
            arena.endings.last_idle_sweep = 0.0  # sweep for abandoned games every time
            await arena.sweep_timeouts()
        sweep = (time.perf_counter() - start) / 10
        per_move = 1 / base
        print(
            f"one sweep over {stored + 2 * games * rounds} stored games: {sweep * 1000:.1f} ms "
            f"({sweep / per_move:.1f} untimed moves' worth)"
        )
        await arena.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stored", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.rounds, args.stored))
