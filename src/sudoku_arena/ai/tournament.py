"""Tournaments between agents: seat rotation, parallel games, summary statistics.

A tournament plays ``games`` games of one game between the agents named in
``players`` (one per seat). Games come in blocks of ``k = len(players)``: the games of
a block share the board and the chance seed, and agent ``j`` sits in seat
``(j + r) % k`` in the block's ``r``-th game, so every agent plays every seat of every
board equally often when ``games`` is a multiple of ``k``. Games run in worker
processes (all cores by default); results do not depend on the number of workers.

Statistics: per agent, the win share (``returns``: 1 for a win, ``1/k`` for a shared
win, 0 otherwise) with a 95% Wilson interval, the mean final score with a 95% normal
interval (the result that matters in solo games), and the median and 95th percentile
of the seconds it took per decision; per tournament, the mean game length in plies.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field

from sudoku_arena.ai.agents import make_agent
from sudoku_arena.core.match import Match
from sudoku_arena.core.params import ParamValue
from sudoku_arena.core.registry import load
from sudoku_arena.core.types import JsonDict
from sudoku_arena.core.workers import unordered

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: which board, and which agent sits in which seat."""

    game_id: str
    params: tuple[tuple[str, ParamValue], ...]
    index: int
    seed: int
    seats: tuple[int, ...]  # seats[s] = index of the agent in seat s
    players: tuple[str, ...]  # agent specs by agent index


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game gave, by agent index (not by seat)."""

    index: int
    seed: int
    seats: tuple[int, ...]
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    plies: int
    times: tuple[tuple[float, ...], ...]  # seconds per decision, by agent index
    seconds: float

    def to_json(self) -> JsonDict:
        return {
            "index": self.index,
            "seed": self.seed,
            "seats": list(self.seats),
            "returns": list(self.returns),
            "scores": list(self.scores),
            "plies": self.plies,
            "times": [[round(t, 5) for t in ts] for ts in self.times],
            "seconds": round(self.seconds, 3),
        }

    @staticmethod
    def from_json(data: JsonDict) -> GameResult:
        return GameResult(
            index=int(data["index"]),
            seed=int(data["seed"]),
            seats=tuple(int(x) for x in data["seats"]),
            returns=tuple(float(x) for x in data["returns"]),
            scores=tuple(float(x) for x in data["scores"]),
            plies=int(data["plies"]),
            times=tuple(tuple(float(t) for t in ts) for ts in data["times"]),
            seconds=float(data["seconds"]),
        )


def jobs(
    game_id: str,
    players: Sequence[str],
    games: int,
    *,
    params: JsonDict | None = None,
    seed: int = 0,
    start: int = 0,
) -> list[GameJob]:
    """The jobs for games ``start .. start + games - 1`` of a tournament (see module doc)."""
    k = len(players)
    frozen = tuple(sorted((params or {}).items()))
    out = []
    for i in range(start, start + games):
        block, r = divmod(i, k)
        seats = tuple((s - r) % k for s in range(k))
        out.append(GameJob(game_id, frozen, i, seed + block, seats, tuple(players)))
    return out


def play_game(job: GameJob, max_plies: int | None = None) -> GameResult:
    """Play one game of a tournament (in a worker process).

    With ``max_plies`` the game stops there if not over: a check that a game replays
    as stored need not play out a game that is already longer. Such a result has
    ``plies == max_plies`` and zero returns and scores; it is not one to keep."""
    t0 = time.perf_counter()
    k = len(job.players)
    game = load(job.game_id, seed=job.seed, **{**dict(job.params), "players": k})
    names = [job.players[a] for a in job.seats]
    match = Match(game, seed=job.seed, players=names)
    agents = [make_agent(names[s], game, seed=match.bot_seed(s)) for s in range(k)]
    times: list[list[float]] = [[] for _ in range(k)]
    plies = 0
    while not match.is_over:
        if max_plies is not None and plies >= max_plies:
            return GameResult(
                job.index, job.seed, job.seats, (0.0,) * k, (0.0,) * k, plies, (), 0.0
            )
        seat = match.to_move().players[0]
        view_state = match.agent_state(seat)
        t = time.perf_counter()
        action = agents[seat].act(game, view_state, seat)
        times[job.seats[seat]].append(time.perf_counter() - t)
        match.play(action, seat)
        plies += 1
    out = match.outcome()
    assert out is not None
    rets = game.returns(match.state)
    by_agent_ret = [0.0] * k
    by_agent_score = [0.0] * k
    for s in range(k):
        by_agent_ret[job.seats[s]] = float(rets[s])
        by_agent_score[job.seats[s]] = float(out.scores[s])
    return GameResult(
        index=job.index,
        seed=job.seed,
        seats=job.seats,
        returns=tuple(by_agent_ret),
        scores=tuple(by_agent_score),
        plies=plies,
        times=tuple(tuple(ts) for ts in times),
        seconds=time.perf_counter() - t0,
    )


def run_games(
    todo: Sequence[GameJob],
    *,
    workers: int | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    stop: Callable[[GameResult], bool] | None = None,
) -> list[GameResult]:
    """Play ``todo`` on ``workers`` processes (default: all cores); results by index.

    ``stop``, when given, is asked after each result (after ``on_result``); once it
    says True, the games not finished are cancelled and the results so far returned
    (a sequential test that has decided: see ``sudoku_arena.lab.sprt``)."""
    workers = workers or os.cpu_count() or 1
    results: list[GameResult] = []
    if workers <= 1 or len(todo) <= 1:
        played: Iterator[GameResult] = map(play_game, todo)
    else:
        played = unordered(play_game, todo, workers)
    try:
        for r in played:
            results.append(r)
            if on_result is not None:
                on_result(r)
            if stop is not None and stop(r):
                break
    finally:
        if isinstance(played, Generator):
            played.close()  # cancels the batch's waiting jobs and stops its running ones
    results.sort(key=lambda r: r.index)
    return results


# -- statistics -----------------------------------------------------------------------------


def wilson(mean: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``mean`` observed over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (mean + z * z / (2 * n)) / denom
    half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = statistics.fmean(values)
    if n == 1:
        return (m, m, m)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return (m, m - half, m + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by linear interpolation (nan if empty)."""
    if not values:
        return math.nan
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


@dataclass
class AgentSummary:
    """One agent's results over a tournament."""

    name: str
    games: int
    wins: float  # sum of returns (shared wins count 1/k)
    win_rate: float
    win_ci: tuple[float, float]
    mean_score: float
    score_ci: tuple[float, float]
    moves: int
    median_seconds: float
    p95_seconds: float


@dataclass
class Summary:
    """A tournament's results."""

    game_id: str
    players: tuple[str, ...]
    games: int
    mean_plies: float
    #: Games nobody won (all returns 0: a turn-limit draw in Citadel). Ties that share
    #: a win (SuDokuHex) are not counted here: their returns add up to 1.
    unwon: int = 0
    agents: list[AgentSummary] = field(default_factory=list)


def summarise(game_id: str, players: Sequence[str], results: Sequence[GameResult]) -> Summary:
    """Per-agent win shares, scores and move times over ``results``."""
    n = len(results)
    summary = Summary(
        game_id=game_id,
        players=tuple(players),
        games=n,
        mean_plies=statistics.fmean(r.plies for r in results) if results else math.nan,
        unwon=sum(1 for r in results if len(players) > 1 and not any(r.returns)),
    )
    for j, name in enumerate(players):
        rets = [r.returns[j] for r in results]
        scores = [r.scores[j] for r in results]
        times = [t for r in results for t in r.times[j]]
        rate = statistics.fmean(rets) if rets else math.nan
        m, lo, hi = mean_ci(scores)
        summary.agents.append(
            AgentSummary(
                name=name,
                games=n,
                wins=sum(rets),
                win_rate=rate,
                win_ci=wilson(rate, n) if rets else (math.nan, math.nan),
                mean_score=m,
                score_ci=(lo, hi),
                moves=len(times),
                median_seconds=percentile(times, 0.5),
                p95_seconds=percentile(times, 0.95),
            )
        )
    return summary
