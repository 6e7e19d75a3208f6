"""``tournament``: many games between agents, seats rotated, on all cores."""

from __future__ import annotations

import math
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.tournament import GameResult, Summary, jobs, run_games, summarise
from sudoku_arena.cli.app import app, console, fail, game_params, load_game, parse_players
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.types import JsonDict


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
    games: Annotated[int, typer.Option(min=1, help="games to play (seats rotate)")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first board")] = 0,
    workers: Annotated[
        int | None, typer.Option(min=1, help="worker processes (default: every core)")
    ] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
) -> None:
    """Play agents against each other with seats rotated; print win rates and scores.

    Every agent plays every seat equally often: use a multiple of the player count for --games.

    Intervals are 95%: Wilson for win rates, normal for mean scores.
    """
    names = parse_players(players)
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
    todo = jobs(game, names, games, params=params, seed=seed)
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{game}: {' vs '.join(names)}", total=len(todo))

        def advance(_: GameResult) -> None:
            progress.advance(task)

        error: ArenaError | None = None
        try:
            results = run_games(todo, workers=workers, on_result=advance)
        except ArenaError as exc:
            error = exc
    if error is not None:  # said once the progress bar is gone, not under it
        fail(str(error))
    print_summary(summarise(game, names, results), solo=len(names) == 1)
