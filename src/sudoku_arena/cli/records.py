"""``selfplay`` and ``replay``: many bot games to a JSON Lines file, and checking them."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from sudoku_arena.ai import make_agent
from sudoku_arena.cli.app import app, console, fail, game_params, load_game, parse_players
from sudoku_arena.core.errors import ArenaError, RecordError
from sudoku_arena.core.match import Match
from sudoku_arena.core.record import Record, read_records, replay


@app.command()
def selfplay(
    game: Annotated[str, typer.Argument(help="game id")],
    players: Annotated[str, typer.Option(help="agent per seat, comma-separated")] = "random,random",
    games: Annotated[int, typer.Option(min=1, help="how many games")] = 100,
    out: Annotated[Path | None, typer.Option(help="JSON Lines file for the records")] = None,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i uses seed+i)")] = 0,
    grid: Annotated[str | None, typer.Option(help="fixed Sudoku grid (81 digits)")] = None,
    sheet: Annotated[Path | None, typer.Option(help="a sheet file (Cat Sudoku)")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
) -> None:
    """Play bots against each other and summarise wins, scores and lengths."""
    names = parse_players(players)
    try:
        extra: dict[str, Any] = {"grid": grid, "players": len(names)}
        if sheet is not None:
            extra["sheet"] = sheet.read_text(encoding="utf-8")
        params = game_params(param, extra)
    except (ArenaError, OSError) as exc:
        fail(str(exc))
    load_game(game, params, seed)  # fail early on bad parameters
    wins = [0.0] * len(names)
    scores: list[list[float]] = [[] for _ in names]
    lengths: list[int] = []
    fh = out.open("w", encoding="utf-8") if out is not None else None
    try:
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
        ) as progress:
            task = progress.add_task(f"{game}", total=games)
            for i in range(games):
                game_seed = seed + i
                g = load_game(game, params, game_seed)
                try:
                    agents = [
                        make_agent(n, g, seed=game_seed * 31 + k) for k, n in enumerate(names)
                    ]
                except ArenaError as exc:
                    fail(str(exc))
                match = Match(g, seed=game_seed, players=names)
                result = match.run(agents)
                for w in result.winners:
                    wins[w] += 1 / len(result.winners)
                for k, sc in enumerate(result.scores):
                    scores[k].append(sc)
                lengths.append(match.ply)
                if fh is not None:
                    fh.write(match.record().dumps() + "\n")
                progress.advance(task)
    finally:
        if fh is not None:
            fh.close()
    table = Table(title=f"{game}: {games} games")
    for col in ("seat", "player", "wins", "win %", "mean score"):
        table.add_column(col, justify="right")
    for k, n in enumerate(names):
        table.add_row(
            str(k),
            n,
            f"{wins[k]:g}",
            f"{100 * wins[k] / games:.1f}",
            f"{statistics.fmean(scores[k]):.2f}",
        )
    console.print(table)
    console.print(f"mean length {statistics.fmean(lengths):.1f} plies")
    if out is not None:
        console.print(f"records written to {out}")


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a record (.json) or records (.jsonl)")],
    verify: Annotated[bool, typer.Option(help="replay every record and check its outcome")] = False,
    game_index: Annotated[int, typer.Option("--game", help="which record to show (0-based)")] = 0,
) -> None:
    """Show a recorded game, or with --verify check that every record replays exactly."""
    if not file.exists():
        fail(f"{file}: no such file")
    try:
        if verify:
            n = 0
            for n, rec in enumerate(read_records(file), start=1):
                try:
                    replay(rec)
                except RecordError as exc:
                    console.print(f"[bold red]record {n - 1}[/] ({rec.game}): {exc}")
                    raise typer.Exit(1) from None
            console.print(f"{n} record(s) replayed exactly")
            return
        for k, rec in enumerate(read_records(file)):
            if k == game_index:
                _show_record(rec)
                return
        fail(f"{file} has no record {game_index}")
    except (RecordError, ArenaError) as exc:
        fail(str(exc))


def _show_record(rec: Record) -> None:
    game, states = replay(rec)
    console.print(f"[bold]{game.spec.name}[/] seed {rec.seed}, players {', '.join(rec.players)}")
    moves = []
    for e in rec.actions:
        who = "chance" if e.actor is None else str(e.actor)
        moves.append(f"{e.ply}.{who}:{e.action}")
    console.print(" ".join(moves))
    console.print(Text.from_ansi(game.render_text(game.view(states[-1], None), color=True)))
    if rec.outcome is not None:
        console.print(f"[bold]{rec.outcome.reason}[/]; scores {list(rec.outcome.scores)}")
