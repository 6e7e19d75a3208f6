"""Games by self-play with the search, recorded as training data (see :mod:`.shards`).

Each game is played by the search (:class:`~sudoku_arena.ai.mcts.MCTS` with the game's
hints, ``sims`` simulations per move) in every seat; when the run names ``value``
weights (an earlier run's), the search's leaves are evaluated by that network, so a
generation learns from the games of the one before; with ``opponents``, one seat of a
share of the games is played by one of them (a scripted strategy, say), so the
positions such players steer into are learned too. For variety the first
``random_plies`` plies are uniformly random and the next ones, up to
``sampled_plies``, are drawn in proportion to the search's visits; later moves are the
search's best. Every position with a seat to move is recorded: its value features from
that seat's view, the search's value of it and the hand-written evaluation's (both
for that seat, to compare and to mix into the target) and, once the game is over,
that seat's return. The search runs in every position, also where the move is drawn
at random, so each has a value (and the random generator's course does not depend on
which plies are random). In a game with hidden information the mover's position is a
deal of what he has not seen, drawn as a match deals it to a bot, and everything
recorded for him comes from it; in a simultaneous phase the seats act one after another
(the rules make the order irrelevant), the first of them being the mover.

Game ``g`` of a run depends only on the run's seed and ``g`` (its board and every
random choice come from ``random.Random(f"{seed}/{g}")``), so shards are the same
whatever the backend, the number of workers or the order in which they finish.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sudoku_arena.ai.agents import make_agent
from sudoku_arena.ai.features import FeatureSet, NoFeaturesError, features_for
from sudoku_arena.ai.hints import hints_for
from sudoku_arena.ai.learned import with_learned
from sudoku_arena.ai.mcts import MCTS, Budget
from sudoku_arena.ai.value import ValueNet, load_weights, share, value_evaluator
from sudoku_arena.core.agent import Agent
from sudoku_arena.core.errors import WorkerDiedError
from sudoku_arena.core.match import sample_outcome
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import SearchHints
from sudoku_arena.learn.backends import BACKENDS, run_jobs
from sudoku_arena.learn.run import LearnError, Settings, file_sha256
from sudoku_arena.learn.shards import Shard, missing, write_shard

NAN = math.nan


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One self-play game: for each recorded position its features, mover, ply, the
    search's value for the mover (NaN where it did not search) and the hand-written
    evaluation's (NaN for a game without one); the returns at the end; the plies."""

    features: list[list[float]]
    movers: list[int]
    plies_at: list[int]
    searched: list[float]
    handwritten: list[float]
    returns: tuple[float, ...]
    plies: int


def check_game(game: AnyGame) -> FeatureSet:
    """The game's features, if it has them; else :class:`LearnError`."""
    try:
        return features_for(game)
    except NoFeaturesError as exc:
        raise LearnError(str(exc)) from None


def play_game(settings: Settings, index: int) -> GameRecord:
    """Play game ``index`` of the run (see the module docstring)."""
    rng = random.Random(f"{settings.seed}/{index}")
    game = settings.load_game(seed=rng.getrandbits(32))
    features = check_game(game)
    hints = hints_for(game)
    search = MCTS(
        game, hints=_search_hints(game, hints, settings), rng=random.Random(rng.getrandbits(64))
    )
    budget = Budget(settings.sims)
    outsider, outsider_seat = _opponent(settings, index, game)
    hidden = game.spec.hidden_information
    s = game.initial_state()
    out = GameRecord([], [], [], [], [], (), 0)
    ply = 0
    while True:
        tm = game.to_move(s)
        if tm.is_terminal:
            break
        if tm.is_chance:
            s = game.apply(s, sample_outcome(game.chance_outcomes(s), rng), None)
            continue
        # The first seat to move is the mover, as for the evaluator that plays with the
        # weights (in a simultaneous phase the others act after him, each in turn).
        p = tm.players[0]
        # What the mover has seen: with hidden information a deal of the unseen tiles
        # consistent with it (as a match hands a bot), so neither the search nor the
        # baseline uses another seat's secret; the features see only the mover's part.
        seen = game.determinize(s, p, rng) if hidden else s
        out.features.append(features.values(game, seen))
        out.movers.append(p)
        out.plies_at.append(ply)
        out.handwritten.append(NAN if hints.evaluate is None else hints.evaluate(game, seen)[p])
        if outsider is not None and p == outsider_seat and ply >= settings.random_plies:
            out.searched.append(NAN)
            s = game.apply(s, outsider.act(game, seen, p), p)
            ply += 1
            continue
        result = search.search(seen, p, budget)
        # The root's best mean return (none when there was only one legal action).
        out.searched.append(result.stats[0][2] if result.simulations else NAN)
        a = result.action
        if ply < settings.random_plies:
            a = rng.choice(list(game.legal_actions(seen, p)))
        elif ply < settings.sampled_plies and result.simulations:
            visits = [max(n, 0) for _, n, _ in result.stats]
            a = rng.choices([x for x, _, _ in result.stats], weights=visits)[0]
        s = game.apply(s, a, p)
        ply += 1
    return dataclasses.replace(out, returns=tuple(game.returns(s)), plies=ply)


def _opponent(settings: Settings, index: int, game: AnyGame) -> tuple[Agent | None, int]:
    """The run's outside agent for game ``index`` and its seat, or ``None`` (in a share
    ``opponent_share`` of the games). Drawn from a generator of its own, so the games
    without one are those of a run without opponents."""
    if not settings.opponents:
        return None, -1
    rng = random.Random(f"{settings.seed}/{index}/opponent")
    if rng.random() >= settings.opponent_share:
        return None, -1
    name = rng.choice(settings.opponents)
    return make_agent(name, game, seed=rng.getrandbits(32)), rng.randrange(game.num_players)


def _search_hints(game: AnyGame, hints: SearchHints, settings: Settings) -> SearchHints:
    """The self-play search's hints: the game's, with the leaves evaluated by the run's
    ``value`` weights when it names some (checked against their recorded SHA-256)."""
    if not settings.value:
        return hints
    net = _network(settings.value, settings.value_sha256, settings)
    return with_learned(hints, value_evaluator(net, features_for(game)))


@functools.cache
def _network(path: str, sha256: str, settings: Settings) -> ValueNet:
    # Once per process: every game of a worker's shards uses the same file.
    if file_sha256(Path(path)) != sha256:
        raise LearnError(f"--value {path}: the file changed since the run started")
    return load_weights(Path(path), features_for(settings.load_game()))


def play_shard(job: tuple[Settings, int]) -> Shard:
    """Play the games of shard ``index`` and return it (a worker's job)."""
    settings, index = job
    first = index * settings.shard_games
    last = min(first + settings.shard_games, settings.games)
    rows: dict[str, list[float]] = {k: [] for k in ("y", "game", "ply", "mover", "q", "base")}
    x: list[list[float]] = []
    plies: list[int] = []
    winner: list[int] = []
    for g in range(first, last):
        record = play_game(settings, g)
        x += record.features
        rows["y"] += [share(record.returns, p) for p in record.movers]
        rows["game"] += [g] * len(record.movers)
        rows["ply"] += record.plies_at
        rows["mover"] += record.movers
        rows["q"] += record.searched
        rows["base"] += record.handwritten
        plies.append(record.plies)
        best = max(record.returns)
        winners = [i for i, r in enumerate(record.returns) if r == best]
        winner.append(winners[0] if len(winners) == 1 else -1)
    width = len(x[0]) if x else 0
    return Shard(
        index,
        np.array(x, dtype=np.float32).reshape(len(x), width),
        np.array(rows["y"], dtype=np.float32),
        np.array(rows["game"], dtype=np.int32),
        np.array(rows["ply"], dtype=np.int32),
        np.array(rows["mover"], dtype=np.int8),
        np.array(rows["q"], dtype=np.float32),
        np.array(rows["base"], dtype=np.float32),
        np.array(plies, dtype=np.int32),
        np.array(winner, dtype=np.int8),
    )


@dataclass(frozen=True, slots=True)
class SelfPlayResult:
    """What :func:`generate` did: shards kept from before, made now, games and positions
    made now, seconds, and whether Ctrl-C stopped it."""

    kept: int
    made: int
    games: int
    positions: int
    seconds: float
    interrupted: bool


def generate(
    folder: Path,
    settings: Settings,
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_shard: Callable[[Shard], None] | None = None,
) -> SelfPlayResult:
    """Make the shards of ``settings`` that ``folder`` lacks, each written as it ends.

    ``on_start(games_kept, games_to_play)`` is called first, ``on_shard(shard)`` after
    each shard is written. Ctrl-C keeps the finished shards (the result says so)."""
    if backend not in BACKENDS:
        raise LearnError(f"--backend {backend!r}: allowed: {', '.join(BACKENDS)}")
    todo = missing(folder, settings.shards)
    kept = settings.shards - len(todo)
    games_todo = sum(_games_in(settings, i) for i in todo)
    if on_start is not None:
        on_start(settings.games - games_todo, games_todo)
    t0 = time.perf_counter()
    made = games = positions = 0
    jobs = [(settings, i) for i in todo]
    shards: Iterator[Shard] = run_jobs(
        play_shard, jobs, workers or os.cpu_count() or 1, backend, address
    )
    try:
        for shard in shards:
            write_shard(folder, shard)
            made += 1
            games += shard.games
            positions += shard.positions
            if on_shard is not None:
                on_shard(shard)
    except KeyboardInterrupt:
        return SelfPlayResult(kept, made, games, positions, time.perf_counter() - t0, True)
    except WorkerDiedError as exc:
        raise LearnError(
            f"{exc}: {kept + made} shards kept in {folder}; run again to make the rest"
        ) from None
    finally:
        close = getattr(shards, "close", None)
        if close is not None:
            close()
    return SelfPlayResult(kept, made, games, positions, time.perf_counter() - t0, False)


def _games_in(settings: Settings, index: int) -> int:
    first = index * settings.shard_games
    return min(first + settings.shard_games, settings.games) - first
