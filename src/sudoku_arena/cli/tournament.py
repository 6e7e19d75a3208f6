"""``tournament``: many games between agents, seats rotated, on all cores; with
``--sprt``, a sequential test of whether one agent is stronger than another."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated

import typer
from rich.table import Table

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.tournament import GameJob, GameResult, Summary, jobs, run_games, summarise
from sudoku_arena.cli.app import app, console, fail, game_params, load_game, parse_players
from sudoku_arena.cli.progress import Bar
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.sprt import CONTINUE, H0, H1, PairedGames, Sprt, game_score, parse_elo_bounds


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _num(x: float, digits: int = 1) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"


def print_summary(summary: Summary, solo: bool) -> None:
    """The tournament's results as a table."""
    title = f"{summary.game_id}: {summary.games} games, mean length {summary.mean_plies:.1f} plies"
    if summary.unwon:
        title += f", {summary.unwon} won by nobody"
    table = Table(title=title)
    # Intervals and figures never wrap (a split interval reads as two numbers); an
    # 80-column terminal fits them all when the headers are short.
    table.add_column("agent")
    if not solo:
        table.add_column("win rate", justify="right", no_wrap=True)
        table.add_column("95% CI", justify="right", no_wrap=True)
    table.add_column("mean score", justify="right", no_wrap=True)
    table.add_column("95% CI", justify="right", no_wrap=True)
    table.add_column("median s", justify="right", no_wrap=True)
    table.add_column("p95 s", justify="right", no_wrap=True)
    for a in summary.agents:
        row = [a.name]
        if not solo:
            row += [_pct(a.win_rate), f"{_pct(a.win_ci[0])}–{_pct(a.win_ci[1])}"]
        row += [
            _num(a.mean_score),
            f"{_num(a.score_ci[0])}–{_num(a.score_ci[1])}",
            _num(a.median_seconds, 3),
            _num(a.p95_seconds, 3),
        ]
        table.add_row(*row)
    console.print(table)


@app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="game id (see 'sudoku-arena list')")],
    players: Annotated[
        str,
        typer.Option(
            help="one agent per seat, comma-separated: random, greedy, easy, normal, hard, "
            "mcts:ITERATIONS, mcts:SECONDSs"
        ),
    ],
    games: Annotated[
        int, typer.Option(min=1, help="games to play (seats rotate); with --sprt, the cap")
    ] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first board")] = 0,
    workers: Annotated[
        int | None, typer.Option(min=1, help="worker processes (default: every core)")
    ] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
    sprt: Annotated[
        str | None,
        typer.Option(
            metavar="ELO0,ELO1",
            help="two agents: decide whether the first is stronger than the second by a "
            "sequential probability ratio test of Elo ELO0 against ELO1 (such as 0,50), "
            "played in seat-swapped pairs and stopped at the decision",
        ),
    ] = None,
) -> None:
    """Play agents against each other with seats rotated; print win rates and scores.

    Every agent plays every seat equally often: use a multiple of the player count for --games.

    Intervals are 95%: Wilson for win rates, normal for mean scores.

    With --sprt ELO0,ELO1 the games come in pairs (one deal, seats swapped) until the
    test decides, at most --games of them (rounded up to whole pairs); it prints the
    decision, the log-likelihood ratio and its bounds, and the Elo estimate.
    """
    names = parse_players(players)
    bounds = None
    if sprt is not None:
        try:
            bounds = parse_elo_bounds(sprt)
        except ValueError as exc:
            fail(str(exc))
        if len(names) != 2:
            fail(f"--sprt compares two agents: give --players A,B (got {len(names)} players)")
    try:
        params: JsonDict = game_params(param, {"players": len(names)})
    except ArenaError as exc:
        fail(str(exc))
    g = load_game(game, params, seed)
    try:
        for name in names:
            make_agent(name, g, seed=0)
    except ArenaError as exc:
        fail(str(exc))
    params.pop("players", None)
    if bounds is None:
        todo = jobs(game, names, games, params=params, seed=seed)
        results = _play(f"{game}: {' vs '.join(names)}", todo, workers)
        print_summary(summarise(game, names, results), solo=len(names) == 1)
        return
    test = Sprt(*bounds)
    feed = PairedGames(test)
    todo = jobs(game, names, 2 * math.ceil(games / 2), params=params, seed=seed)
    results = _play(
        f"{game}: {' vs '.join(names)}, SPRT",
        todo,
        workers,
        stop=lambda r: feed.add(r.index, game_score(r.returns)),
    )
    # Only the pairs the test counted: games that ended after its decision do not count.
    print_summary(summarise(game, names, [r for r in results if r.index < feed.games]), False)
    print_sprt(test, names, cap=len(todo))


def _play(
    label: str,
    todo: list[GameJob],
    workers: int | None,
    stop: Callable[[GameResult], bool] | None = None,
) -> list[GameResult]:
    """Play ``todo`` under a progress bar (``run_games``); an error ends the command."""
    with Bar(console=console) as progress:
        task = progress.add_task(label, total=len(todo))

        def advance(_: GameResult) -> None:
            progress.advance(task)

        error: ArenaError | None = None
        results: list[GameResult] = []
        try:
            results = run_games(todo, workers=workers, on_result=advance, stop=stop)
        except ArenaError as exc:
            error = exc
    if error is not None:  # said once the progress bar is gone, not under it
        fail(str(error))
    return results


def _elo(x: float) -> str:
    return f"{x:+.0f}"


def print_sprt(test: Sprt, names: list[str], cap: int) -> None:
    """The test's decision, LLR and bounds, games counted and Elo estimate."""
    a, b = names
    low, high = test.bounds
    verdict = {
        H1: f"H1 accepted: {a} is stronger than {b}",
        H0: f"H0 accepted: {a} is not stronger than {b}",
        CONTINUE: "inconclusive at the cap: neither hypothesis accepted",
    }[test.decision]
    est = test.estimate()
    lines = [
        f"SPRT of {a} against {b}: elo0 {test.elo0:g}, elo1 {test.elo1:g}, "
        f"alpha {test.alpha:g}, beta {test.beta:g}",
        verdict,
        f"LLR {test.llr:.2f}, bounds {low:.2f} and {high:.2f}",
        f"{test.games} games ({test.observations} seat-swapped pairs, pentanomial) "
        f"of a cap of {cap}",
        f"Elo of {a} over {b}: {_elo(est.elo)} (95% CI {_elo(est.low)} to {_elo(est.high)})",
    ]
    for line in lines:
        console.print(line, markup=False, highlight=False)
