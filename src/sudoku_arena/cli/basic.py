"""``list`` and ``check``: what games there are, and whether they keep the contract."""

from __future__ import annotations

import os
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Annotated

import typer
from rich.progress import TaskID
from rich.table import Table
from rich.text import Text

from sudoku_arena.ai.agents import agent_names
from sudoku_arena.ai.panel import panel_names
from sudoku_arena.cli.app import app, console, fail, game_params, version_line
from sudoku_arena.cli.progress import Bar
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.registry import load, registered_games, spec_of
from sudoku_arena.core.types import GameSpec
from sudoku_arena.testing import ConformanceError, ConformanceReport, Failure
from sudoku_arena.testing.conformance import DEEP_PLIES
from sudoku_arena.testing.runner import WHOLE_GAME, Batch, Runner, depth_for, plan


def _kind(spec: GameSpec) -> str:
    facts = (
        ("dice/draws", spec.chance),
        ("hidden hands", spec.hidden_information),
        ("simultaneous", spec.simultaneous),
    )
    return ", ".join(k for k, on in facts if on) or "-"


def _players(spec: GameSpec) -> str:
    if spec.min_players == spec.max_players:
        return str(spec.min_players)
    return f"{spec.min_players}-{spec.max_players}"


@app.command("version")
def version() -> None:
    """Show the version and whether the compiled engines or pure Python run."""
    console.print(version_line())


@app.command("list")
def list_games(
    game: Annotated[
        str | None, typer.Argument(help="a game id: show its options and what it is")
    ] = None,
) -> None:
    """List the games (one line each), or show one game's options."""
    if game is not None:
        _show_game(game)
        return
    table = Table(box=None, pad_edge=False, header_style="bold")
    width = max(len(spec.id) for spec in registered_games())
    table.add_column("game", no_wrap=True, min_width=width)
    table.add_column("players", no_wrap=True, min_width=7)
    table.add_column("what it is", no_wrap=True, overflow="ellipsis", ratio=1)
    for spec in registered_games():
        table.add_row(spec.id, _players(spec), spec.summary)
    console.print(table)
    console.print("Options and details of one game: sudoku-arena list GAME", style="dim")


def _show_game(game_id: str) -> None:
    try:
        spec = spec_of(game_id)
    except ArenaError as exc:
        fail(str(exc))
    console.print(Text(f"{spec.name} ({spec.id}), version {spec.version}", style="bold"))
    console.print(Text(f"players {_players(spec)}; {_kind(spec)}"))
    console.print(Text(spec.summary))
    table = Table(box=None, pad_edge=False, header_style="bold", title_justify="left")
    table.add_column("option", no_wrap=True)
    table.add_column("default", no_wrap=True, overflow="ellipsis", max_width=12)
    table.add_column("meaning")
    for p in spec.params:
        default = "generated" if p.generate is not None else str(p.default)
        table.add_row(p.name, default, p.help)
    console.print()
    console.print(table)
    console.print(
        Text(
            f"Set options with --param NAME=VALUE; rules: sudoku-arena serve, then /rules/{spec.id}"
        )
    )
    try:
        game = load(spec.id, seed=0)
    except ArenaError:  # defaults that cannot load: the options above say what to give
        return
    console.print()
    console.print(Text(f"Bots: {', '.join(agent_names(game))}"))
    console.print(
        Text(
            f"Exploit panel (scripted strategies, sudoku-arena analyze {spec.id} --preset "
            f"exploit): {', '.join(panel_names(game))}"
        )
    )


def _default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


#: At most this many failures are shown per game (all are counted).
SHOWN_FAILURES = 5


@dataclass
class _GameCheck:
    """One game's part of a check run: its batches, what they found, its progress bar."""

    game: str
    batches: int
    task: TaskID | None = None
    report: ConformanceReport = field(init=False)
    failures: list[Failure] = field(default_factory=list)
    error: str | None = None

    def __post_init__(self) -> None:
        self.report = ConformanceReport(self.game)


def _print_game(check: _GameCheck) -> None:
    """The game's result: its counts, or its failures with the commands that replay them."""
    if check.error is not None:
        console.print(Text.assemble(("FAIL ", "bold red"), f"{check.game}: {check.error}"))
        return
    report = check.report
    if check.failures:
        failures = sorted(check.failures)
        console.print(
            Text.assemble(
                ("FAIL ", "bold red"),
                f"{check.game}: {len(failures)} of {report.games} games failed",
            )
        )
        for f in failures[:SHOWN_FAILURES]:
            # Not wrapped at the console's width: the command is copied whole.
            console.print(Text(f"  {f.message}"), soft_wrap=True)
            console.print(Text(f"  again: {f.command()}", style="dim"), soft_wrap=True)
        if len(failures) > SHOWN_FAILURES:
            console.print(Text(f"  ... and {len(failures) - SHOWN_FAILURES} more"))
        return
    title = f"{check.game}: {report.games} games, {report.plies} plies — all passed"
    table = Table(title=title)
    table.add_column("check")
    table.add_column("times", justify="right")
    for name, n in sorted(report.counts.items()):
        table.add_row(name, str(n))
    console.print(table)


def _depth_line(deep_plies: int, every: int) -> str:
    """Which plies of each game get every check, in words."""
    plies = "all plies" if deep_plies >= WHOLE_GAME else f"the first {deep_plies} plies"
    if every == 1:
        share = "each of"
        which = ""
    else:
        share = f"one in {every} of"
        which = " (a different one from game to game)"
    return f"depth: every check on {share} {plies} of each game{which}, and on its end"


@app.command("check")
def check(
    game: Annotated[str, typer.Argument(help="game id, or 'all'")] = "all",
    games: Annotated[int, typer.Option(min=1, help="random games per player count")] = 10,
    seed: Annotated[int, typer.Option(help="seed of the first game (then seed+1, ...)")] = 0,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="worker processes (default: one per core)"),
    ] = None,
    deep_plies: Annotated[
        int | None,
        typer.Option(
            min=0,
            help=f"plies at the start of each game given every check ({DEEP_PLIES} when only"
            f" --every is given; {WHOLE_GAME}: whole games)",
            show_default=False,
        ),
    ] = None,
    every: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="give every check to one of K of those plies, a different one from game to "
            "game (with a large --deep-plies: spread over whole games at less cost; 1 when "
            "only --deep-plies is given)",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run the conformance suite (random games against the protocol's promises).

    Games run in worker processes; a failure names its game, player count and seed, and
    the command that checks that game alone. Ctrl-C stops after the games in progress.

    Depth, unless --deep-plies or --every is given: runs of fewer than 500 games per
    player count give every check to each of the first 150 plies of every game; larger
    runs give it to one ply in GAMES // 250 over whole games, a different one from game
    to game, so that the checking costs about what 250 whole games do and the games'
    later plies are checked too. The end of every game is always checked in full.
    """
    ids = [s.id for s in registered_games()] if game == "all" else [game]
    try:
        params = game_params(param)
        for gid in ids:
            spec_of(gid)
    except ArenaError as exc:
        fail(str(exc))
    workers = jobs if jobs is not None else _default_jobs()
    if deep_plies is None and every is None:
        deep_plies, every = depth_for(games)
    deep_plies = DEEP_PLIES if deep_plies is None else deep_plies
    every = 1 if every is None else every
    checks: list[_GameCheck] = []
    batches: list[Batch] = []
    for gid in ids:
        try:
            mine = plan(gid, games, seed, params or None, deep_plies, jobs=workers, every=every)
        except (ConformanceError, ArenaError) as exc:
            checks.append(_GameCheck(gid, 0, error=str(exc)))
            continue
        checks.append(_GameCheck(gid, len(mine)))
        batches.extend(mine)
    by_game = {c.game: c for c in checks}
    console.print(_depth_line(deep_plies, every), style="dim")
    total = sum(len(b.seeds) for b in batches)
    started = time.perf_counter()
    done = 0
    printed = 0
    try:
        with Runner(batches, workers) as run, Bar(console=console) as bar:
            for c in checks:
                if c.batches:
                    games_of = sum(len(b.seeds) for b in batches if b.game == c.game)
                    c.task = bar.add_task(f"checking {c.game}", total=games_of)
            for result in run.results():
                c = by_game[result.batch.game]
                c.report.merge(result.report)
                c.failures.extend(result.failures)
                c.batches -= 1
                done += result.report.games
                if c.task is not None:
                    bar.advance(c.task, result.report.games)
                # Results are printed in the order of the games, whatever order they end.
                while printed < len(checks) and checks[printed].batches == 0:
                    _print_game(checks[printed])
                    printed += 1
    except KeyboardInterrupt:
        for c in checks[printed:]:
            if c.failures:
                _print_game(c)
        console.print(f"interrupted: {done} of {total} games checked")
        raise typer.Exit(130) from None
    except BrokenProcessPool as exc:
        fail(f"a worker process died: {exc}", code=1)
    for c in checks[printed:]:
        _print_game(c)
    seconds = time.perf_counter() - started
    failed = sum(len(c.failures) for c in checks) + sum(c.error is not None for c in checks)
    verdict = f"{failed} failed" if failed else "all passed"
    console.print(
        f"{done} games checked in {seconds:.1f} s with {min(workers, max(1, len(batches)))}"
        f" worker(s): {verdict}",
        style="dim" if not failed else "bold red",
    )
    if failed:
        raise typer.Exit(1)
