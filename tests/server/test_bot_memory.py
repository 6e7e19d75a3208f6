"""Server bots are built afresh for every move, so the server tells them which turn
starts the game has been through: a search bot must not steer back to one of them."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sys
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from sudoku_arena.ai.mcts import position_keys
from sudoku_arena.core.registry import load
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.arena import Arena, SeatSpec
from sudoku_arena.server.bots import BotRunner, think
from sudoku_arena.server.db.engine import Storage

sys.path.insert(0, str(Path(__file__).parents[1] / "games" / "citadel"))
from citadel_helpers import game, play, position
from test_citadel_search import CYCLE


def test_a_worker_bot_avoids_the_turn_starts_it_is_told_about() -> None:
    g = game()
    start = position(g, CYCLE, to_move=0, turn=20)
    mid = play(g, start, ["+l15", "l15xm15"])
    back = play(g, mid, ["l15-m15", "end"])  # the exchange that went round in circles
    dump = g.dump_state(mid)
    assert think("citadel", "{}", dump, 0, "normal", 0) == "l15-m15"
    told = position_keys(g, [start, back])
    assert len(told) == 2
    assert think("citadel", "{}", dump, 0, "normal", 0, told) != "l15-m15"


class _Recorder(BotRunner):
    """Keeps what the arena hands the bot workers instead of thinking."""

    def __init__(self) -> None:
        super().__init__(0)
        self.seen: list[Sequence[Hashable]] = []

    async def think(
        self,
        game_id: str,
        params: JsonDict,
        state: JsonDict,
        seat: int,
        agent: str,
        seed: int,
        seen: Sequence[Hashable] = (),
    ) -> str:
        self.seen.append(seen)
        return "end"


def test_the_arena_hands_bots_the_turn_starts_of_the_game(sqlite_url: str) -> None:
    async def run() -> tuple[list[Any], list[Sequence[Hashable]]]:
        recorder = _Recorder()
        arena = Arena(Storage(sqlite_url), bots=recorder)
        await arena.start()
        try:
            lg, _ = await arena.create("citadel", {}, [SeatSpec("human"), SeatSpec("human")])
            # Through setup and claims into play, taking the last legal action listed.
            while len(position_keys(lg.game, lg.states)) < 3:
                seat = lg.to_move()[0]
                await arena.act(lg, seat, lg.ply, lg.view(seat)["legal"][-1])
            await arena.botplay.choice(lg, lg.to_move()[0], lg.ply)
            return lg.states, recorder.seen
        finally:
            await arena.stop()

    states, seen = asyncio.run(run())
    assert len(seen) == 1
    expected = position_keys(load("citadel"), states)
    assert len(expected) >= 3 and list(seen[0]) == expected


def test_games_without_position_keys_hand_over_nothing() -> None:
    g = load("sudokuhex")  # hidden information: repetitions are not looked for
    assert position_keys(g, [g.initial_state()]) == []
    g = load("tic-tac-sudoku")  # no position_key: a mark is never taken back
    assert position_keys(g, [g.initial_state()]) == []


def test_a_bot_worker_that_dies_is_replaced_and_the_bot_still_thinks() -> None:
    g = load("tic-tac-sudoku", seed=3)
    dump = g.dump_state(g.initial_state())
    # mcts:normal: a fixed number of simulations, well inside its time cap, so the
    # replacement worker gives the same move (the learned normal may stop at its cap on
    # a loaded machine, after a number of simulations that varies from run to run).
    expected = think("tic-tac-sudoku", "{}", dump, 0, "mcts:normal", 7)
    runner = BotRunner(1)
    before = {p.pid for p in multiprocessing.active_children()}

    async def ask() -> str:
        return await runner.think("tic-tac-sudoku", {}, dump, 0, "mcts:normal", 7)

    try:
        assert asyncio.run(ask()) == expected
        workers = {p.pid for p in multiprocessing.active_children()} - before - {None}
        assert workers, "the bot pool started no worker process"
        for pid in workers:
            os.kill(pid, signal.SIGKILL)  # as the out-of-memory killer would
        # The pool is broken now; the runner starts a new one and the move is the bot's.
        assert asyncio.run(ask()) == expected
    finally:
        runner.stop()
