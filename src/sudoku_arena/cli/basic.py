"""``list`` and ``check``: what games there are, and whether they keep the contract."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer
from rich.progress import Progress, TaskID
from rich.table import Table

from sudoku_arena.cli.app import app, console, fail, game_params
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.registry import registered_games, spec_of
from sudoku_arena.testing import ConformanceError, check_game


@app.command("list")
def list_games() -> None:
    """List the games with their player counts, options and a short summary."""
    table = Table(title="Sudoku Arena games", show_lines=True)
    table.add_column("id", no_wrap=True)
    table.add_column("name", no_wrap=True)
    for col in ("players", "kind", "options", "summary"):
        table.add_column(col, overflow="fold")
    for spec in registered_games():
        kind = ", ".join(
            k
            for k, on in (
                ("dice/draws", spec.chance),
                ("hidden hands", spec.hidden_information),
                ("simultaneous", spec.simultaneous),
            )
            if on
        )
        players = (
            str(spec.min_players)
            if spec.min_players == spec.max_players
            else f"{spec.min_players}-{spec.max_players}"
        )
        options = ", ".join(p.name for p in spec.params if p.name != "players")
        table.add_row(
            spec.id, f"{spec.name} {spec.version}", players, kind or "-", options, spec.summary
        )
    console.print(table)


def _advance(progress: Progress, task: TaskID, done: int) -> None:
    progress.update(task, completed=done)


@app.command("check")
def check(
    game: Annotated[str, typer.Argument(help="game id, or 'all'")] = "all",
    games: Annotated[int, typer.Option(min=1, help="random games per player count")] = 10,
    seed: Annotated[int, typer.Option(help="first seed")] = 0,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
) -> None:
    """Run the conformance suite (random games against the protocol's promises)."""
    ids = [s.id for s in registered_games()] if game == "all" else [game]
    try:
        params = game_params(param)
        for gid in ids:
            spec_of(gid)
    except ArenaError as exc:
        fail(str(exc))
    failed = False
    for gid in ids:
        spec = spec_of(gid)
        counts = {spec.min_players, spec.max_players}
        total = games * (1 if "players" in params else len(counts))
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"checking {gid}", total=total)
            try:
                report = check_game(
                    gid,
                    games=games,
                    seed=seed,
                    params=params or None,
                    progress=partial(_advance, progress, task),
                )
            except (ConformanceError, ArenaError) as exc:
                console.print(f"[bold red]FAIL[/] {gid}: {exc}")
                failed = True
                continue
        table = Table(title=f"{gid}: {report.games} games, {report.plies} plies — all passed")
        table.add_column("check")
        table.add_column("times", justify="right")
        for name, n in sorted(report.counts.items()):
            table.add_row(name, str(n))
        console.print(table)
    if failed:
        raise typer.Exit(1)
