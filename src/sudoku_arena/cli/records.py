"""``selfplay`` and ``replay``: many bot games to a JSON Lines file, and checking them."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from sudoku_arena.ai import make_agent
from sudoku_arena.cli.app import (
    app,
    check_output,
    console,
    err_console,
    fail,
    game_params,
    load_game,
    parse_players,
    read_text_param,
)
from sudoku_arena.cli.progress import COLUMNS, Bar
from sudoku_arena.cli.words import exact, seat_name
from sudoku_arena.core.errors import ArenaError, RecordError
from sudoku_arena.core.match import Match
from sudoku_arena.core.record import Record, replay, scan_records, write_records
from sudoku_arena.core.registry import entry_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.core.verify import verify_record


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
    """Play bots against each other and summarise wins, scores and lengths.

    Every seat keeps its agent in every game (seats are not swapped). The records file
    is written whole at the end (nothing is left behind if the run is stopped).
    """
    names = parse_players(players)
    try:
        extra: JsonDict = {"grid": grid, "players": len(names)}
        if sheet is not None:
            extra["sheet"] = read_text_param("--sheet", str(sheet))
        params = game_params(param, extra)
    except ArenaError as exc:
        fail(str(exc))
    if out is not None:
        check_output(out, "--out")
    g0 = load_game(game, params, seed)  # fail early on bad parameters and agent names
    try:
        for k, n in enumerate(names):
            make_agent(n, g0, seed=k)
    except ArenaError as exc:
        fail(str(exc))
    wins = [0.0] * len(names)
    scores: list[list[float]] = [[] for _ in names]
    lengths: list[int] = []
    records: list[Record] = []
    with Bar(*COLUMNS[:3], TimeRemainingColumn(), console=console) as progress:
        task = progress.add_task(escape(game), total=games)
        for i in range(games):
            game_seed = seed + i
            g = load_game(game, params, game_seed)
            match = Match(g, seed=game_seed, players=names)
            agents = [make_agent(n, g, seed=match.bot_seed(k)) for k, n in enumerate(names)]
            result = match.run(agents)
            for w in result.winners:
                wins[w] += 1 / len(result.winners)
            for k, sc in enumerate(result.scores):
                scores[k].append(sc)
            lengths.append(match.ply)
            if out is not None:
                records.append(match.record())
            progress.advance(task)
    table = Table(title=f"{escape(game)}: {games} games")
    for col in ("seat", "player", "wins", "win %", "mean score"):
        table.add_column(col, justify="right")
    for k, n in enumerate(names):
        table.add_row(
            str(k + 1),
            escape(n),
            f"{wins[k]:g}",
            f"{100 * wins[k] / games:.1f}",
            f"{statistics.fmean(scores[k]):.2f}",
        )
    console.print(table)
    console.print(f"mean length {statistics.fmean(lengths):.1f} plies")
    if out is not None:
        try:
            write_records(out, records)
        except OSError as exc:
            fail(f"--out {out}: cannot write it: {exc.strerror}")
        console.print(f"records written to {escape(str(out))}")


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a record (.json) or records (.jsonl)")],
    verify: Annotated[
        bool,
        typer.Option(
            help="check every record: it replays, it is for this version of its game, and "
            "every chance draw is the one its revealed secret gives"
        ),
    ] = False,
    game_index: Annotated[int, typer.Option("--game", help="which record to show (0-based)")] = 0,
) -> None:
    """Show a recorded game, or with --verify check every record of the file."""
    try:
        if verify:
            _verify_file(file)
            return
        k = 0
        for _lineno, item in scan_records(file):
            if isinstance(item, RecordError):
                continue
            if k == game_index:
                _show_record(item)
                return
            k += 1
        fail(f"{file} has no record {game_index} (it holds {k})")
    except (RecordError, ArenaError) as exc:
        fail(str(exc))


def _verify_file(file: Path) -> None:
    """Verify every record of ``file``; exit 1 if any failed.

    Each bad record is one line on stderr (``FILE: line 3: ...``); the summary goes to
    stdout, so a file with one bad record gives exactly one line on stderr.
    """
    good = bad = draws = 0

    def report(lineno: int, message: str) -> None:
        err_console.print(Text(f"{file}: line {lineno}: {message}"), soft_wrap=True)

    for lineno, item in scan_records(file):
        if isinstance(item, RecordError):
            bad += 1
            report(lineno, f"not a record: {item}")
            continue
        try:
            done = verify_record(item)
        except (RecordError, ArenaError) as exc:
            bad += 1
            report(lineno, f"({item.game}) {exc}")
            continue
        good += 1
        draws += done.chance_checked
        for note in done.notes:
            console.print(Text(f"{file}: line {lineno}: ({item.game}) note: {note}"))
    total = good + bad
    if not total:
        fail(f"{file}: no records in it", code=1)
    console.print(
        Text(
            f"{total} record(s): {good} verified, {bad} failed; "
            f"{draws} chance draw(s) checked against their revealed secrets"
        ),
        soft_wrap=True,
    )
    if bad:
        raise typer.Exit(1)


def _show_record(rec: Record) -> None:
    game, states = replay(rec)
    head = f"{game.spec.name}, players {', '.join(rec.players)}"
    if rec.seed is not None:
        head += f", seed {rec.seed}"
    console.print(Text(head, style="bold"))
    moves = []
    for e in rec.actions:
        who = "chance" if e.actor is None else str(e.actor + 1)
        moves.append(f"{e.ply}.{who}:{e.action}")
    console.print(" ".join(moves), markup=False)
    console.print(
        Text.from_ansi(entry_of(game).render_text(game.view(states[-1], None), color=True))
    )
    if rec.outcome is not None:
        names = game.view(states[-1], None).get("players") or []
        scores = ", ".join(
            f"{seat_name(names, q)} {exact(x)}" for q, x in enumerate(rec.outcome.scores)
        )
        console.print(Text(f"{rec.outcome.reason}; scores: {scores}"))
