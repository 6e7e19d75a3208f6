"""``analyze``: the balance lab (seat advantage, draws, length, luck and skill, variants)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from sudoku_arena.ai import make_agent
from sudoku_arena.cli.app import app, console, fail, game_params, load_game, parse_players
from sudoku_arena.cli.progress import COLUMNS, Bar, SpeedColumn
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.registry import load
from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.display import (
    exploit_cells,
    exploit_columns,
    exploit_groups,
    ladder_rows,
    variant_rows,
)
from sudoku_arena.lab.exploit import exploit_plan
from sudoku_arena.lab.plan import Plan, parse_variant
from sudoku_arena.lab.presets import PRESETS, STRENGTH, preset_plan
from sudoku_arena.lab.robust import balance_level, describe
from sudoku_arena.lab.runner import BACKENDS, run
from sudoku_arena.lab.store import read_plan


def _plan(
    game: str,
    players: str | None,
    games: int,
    param: list[str] | None,
    variant: list[str] | None,
    seed: int,
    ladder: str | None,
    ladder_games: int | None,
) -> Plan:
    """The plan the options ask for, checked before anything is written or played."""
    try:
        params: JsonDict = game_params(param)
        variants = tuple(parse_variant(v) for v in variant or [])
    except ArenaError as exc:
        fail(str(exc))
    if len({v.name for v in variants}) < len(variants):
        fail("--variant: two variants have the same name; give each its own")
    base = load_game(game, params, seed)
    names = parse_players(players) if players else [balance_level(game)] * base.num_players
    if players and "players" not in params and len(names) != base.num_players:
        params["players"] = len(names)
    ladder_names = parse_players(ladder) if ladder else []
    plan = Plan(
        game=game,
        params=params,
        players=tuple(names),
        games=games,
        seed=seed,
        variants=variants,
        ladder=tuple(ladder_names),
        ladder_games=ladder_games or games,
    )
    try:
        for v in plan.all_variants():
            seats = plan.seats_for(v)
            try:
                g = load(game, seed=seed, **{**params, **v.params, "players": len(seats)})
            except ArenaError as exc:
                fail(f"--variant {v.name}: {exc}" if v.params else str(exc))
            for name in seats:
                make_agent(name, g, seed=0)
        if ladder_names:
            if len(set(ladder_names)) != len(ladder_names) or len(ladder_names) < 2:
                fail("--ladder: give two or more different bots, such as random,greedy,easy")
            g = load_game(game, {**params, "players": 2}, seed)
            for name in ladder_names:
                make_agent(name, g, seed=0)
    except ArenaError as exc:
        fail(str(exc))
    if not players:
        console.print(f"players: {describe(game)}; choose others with --players")
    return plan


@app.command()
def analyze(
    game: Annotated[
        str | None, typer.Argument(help="game id (see 'sudoku-arena list'); not with --report")
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            help="one bot per seat, comma-separated (default: the game's robust level in every "
            "seat, the strongest that holds against its exploit panel); with "
            "--preset exploit the bots to test (default: easy,normal,hard)"
        ),
    ] = None,
    games: Annotated[
        int, typer.Option(min=1, help="games per variant or exploit line-up (seats rotate)")
    ] = 200,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", help="NAME:PARAM=VALUE[,PARAM=VALUE...] (repeatable)"),
    ] = None,
    ladder: Annotated[
        str | None,
        typer.Option(help="bots for the skill ladder, e.g. random,greedy,easy (round robin)"),
    ] = None,
    ladder_games: Annotated[
        int | None, typer.Option(min=2, help="ladder games per pair (default: --games)")
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the first board")] = 0,
    workers: Annotated[
        int | None, typer.Option(min=1, help="worker processes (default: every core)")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="folder for the records and the report, resumable (default: analysis-GAME)"
        ),
    ] = None,
    backend: Annotated[str, typer.Option(help="local or ray")] = "local",
    address: Annotated[
        str | None, typer.Option(help="address of a running Ray cluster (with --backend ray)")
    ] = None,
    reference: Annotated[
        Path | None,
        typer.Option(help="luck reference: a Tic-Tac-Sudoku ladder run folder or summary.json"),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            help=f"a ready-made study: {', '.join(PRESETS)}, or {STRENGTH} (the bots' "
            "strength table: --out docs rewrites docs/strength.md)"
        ),
    ] = None,
    report: Annotated[
        Path | None, typer.Option(help="only re-render the report of this run folder")
    ] = None,
    exploiter: Annotated[
        bool,
        typer.Option(
            "--exploiter",
            help="with --preset exploit: also each bot against the approximate best "
            "response (a search at 10x its budget that asks the bot its replies; two "
            "players, games without chance; slow)",
        ),
    ] = False,
) -> None:
    """Measure a game's balance: seat advantage, draws, length, luck and skill, variants.

    Every game is stored in --out (games.jsonl, replayable records); the figures go to
    summary.json and report.html there. Run again with the same --out to resume.
    Intervals are 95%: Wilson for rates, bootstrap for the rest.
    """
    if backend not in BACKENDS:
        fail(f"--backend {backend!r}: allowed: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        fail("--address names a Ray cluster: give it with --backend ray")
    ref = _reference(reference)
    if report is not None:
        if game is not None:
            fail("--report re-renders a stored run: give no game with it")
        _render(report, ref)
        return
    if exploiter and preset != "exploit":
        fail("--exploiter belongs to --preset exploit: add --preset exploit")
    if preset == STRENGTH:
        _strength(out, games, game, workers)
        return
    if preset is not None:
        if preset not in PRESETS:
            fail(f"--preset {preset!r}: allowed: {', '.join((*PRESETS, STRENGTH))}")
        try:
            bots = parse_players(players) if players else None
            plan = preset_plan(preset, games, seed, game, bots=bots, params=game_params(param))
            if exploiter:  # the same plan with the approximate best response's line-ups
                plan = exploit_plan(
                    plan.game, plan.players, games, seed, plan.params, exploiter=True
                )
        except ArenaError as exc:
            fail(str(exc))
    elif game is None:
        fail("give a game id (see 'sudoku-arena list'), a --preset, or --report DIR")
    else:
        plan = _plan(game, players, games, param, variant, seed, ladder, ladder_games)
    folder = out if out is not None else Path(f"analysis-{plan.game}")
    old = read_plan(folder) if folder.is_dir() else None
    if old is not None and old.same_games(plan):
        console.print(f"resuming the run in {folder}")
    _run(folder, plan, workers, backend, address, ref)


def _strength(out: Path | None, games: int, game: str | None, workers: int | None) -> None:
    """The bots' strength table: play what ``OUT/strength.json`` lacks, write
    ``OUT/strength.md`` (the project's table: ``--out docs``)."""
    from sudoku_arena.lab.strength import build

    folder = out if out is not None else Path("docs")
    if folder.exists() and not folder.is_dir():
        fail(f"--out {folder}: is a file; give a folder")
    try:
        md = build(folder, games=games, only=[game] if game else (), workers=workers)
    except ArenaError as exc:
        fail(str(exc))
    console.print(f"wrote {md}")


def _reference(path: Path | None) -> JsonDict | None:
    if path is None:
        return None
    from sudoku_arena.lab.ladder import load_reference

    try:
        ref = load_reference(path)
    except (OSError, ValueError) as exc:
        fail(f"--reference {path}: cannot read it ({exc})")
    if ref is None:
        fail(f"--reference {path}: holds no ladder; give a run folder made with --ladder")
    return ref


def _run(
    folder: Path,
    plan: Plan,
    workers: int | None,
    backend: str,
    address: str | None,
    ref: JsonDict | None,
) -> None:
    columns = (*COLUMNS[:3], SpeedColumn(), COLUMNS[3], TextColumn("ETA"), TimeRemainingColumn())
    with Bar(*columns, console=console) as progress:
        task = progress.add_task(f"{plan.game}", total=None)

        def start(kept: int, todo: int) -> None:
            if kept:
                console.print(f"{kept} games kept from before; {todo} to play")
            progress.update(task, total=todo)

        def advance() -> None:
            progress.advance(task)

        try:
            result = run(
                folder,
                plan,
                workers=workers,
                backend=backend,
                address=address,
                on_start=start,
                on_game=advance,
            )
        except ArenaError as exc:
            fail(str(exc))
    summary = _render(folder, ref)
    if result.interrupted:
        console.print(
            f"interrupted: {result.kept + result.played} games kept in {folder}; "
            "run the same command again to resume"
        )
        raise typer.Exit(130)
    if result.played and result.seconds > 0:
        console.print(
            f"played {result.played} games in {result.seconds:.1f} s "
            f"({result.played / result.seconds:.1f} games/s)"
        )
    _print(summary)


def _render(folder: Path, ref: JsonDict | None) -> JsonDict:
    from sudoku_arena.lab.report import write_report  # matplotlib: only when rendering

    try:
        summary = write_report(folder, ref)
    except ArenaError as exc:
        fail(str(exc))
    console.print(f"wrote {folder / 'summary.json'} and {folder / 'report.html'}")
    return summary


def _print_exploit(exploit: JsonDict | None) -> None:
    """Each bot against the exploit panel: a table per bot and player count, worst
    first, then each one's worst result in a sentence (as in report.html)."""
    groups = exploit_groups(exploit)
    columns = exploit_columns(groups)
    for g in groups:
        table = Table(title=f"{g.title()} against the exploit panel: worst first")
        table.add_column("strategy", min_width=13)  # a panel name whole on 80 columns
        for column in columns:
            table.add_column(column, justify="right", no_wrap=True)
        for r in g.rows:
            table.add_row(Text(r.strategy), *(Text(c.text()) for c in exploit_cells(r, columns)))
        console.print(table)
    for g in groups:
        _say(g.worst())
    for g in groups:
        sentence = g.best_response()
        if sentence is not None:
            _say(sentence)


def _say(text: str) -> None:
    # Plain text: a variant called "[b]" is no markup. Not wrapped by Rich: a sentence
    # stays one line to copy (the terminal wraps it for the eye).
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def _print(summary: JsonDict) -> None:
    """The figures table, the verdicts (base rules, then each variant) and the ladder:
    every figure in the words of :mod:`~sudoku_arena.lab.display`, as in report.html."""
    if summary["plan"]["games"]:  # an exploit preset's run plays no balance games
        table = Table(title=f"{summary['plan']['game']}: 95% intervals in brackets")
        table.add_column("figure")
        for name in summary["variants"]:
            table.add_column(Text(name), justify="right", no_wrap=True)
        for row in variant_rows(summary["variants"]):
            table.add_row(Text(row.label), *(Text(c.text()) for c in row.cells))
        console.print(table)
    _print_exploit(summary.get("exploit"))
    if summary.get("base_verdicts"):
        _say("the base rules:")
        for sentence in summary["base_verdicts"].values():
            _say(f"  {sentence}")
    for c in summary.get("comparisons", []):
        _say(f"{c['variant']} against the base rules ({c['pairs']} paired games):")
        for fig in c["figures"].values():
            _say(f"  {fig['verdict']}")
    ladder = ladder_rows(summary.get("ladder"))
    if ladder:
        lad = Table(title="skill ladder (Elo, mean 0)")
        lad.add_column("figure")
        lad.add_column("value", justify="right", no_wrap=True)
        for label, figure in ladder:
            lad.add_row(Text(label), Text(figure.text()))
        console.print(lad)
    _say(json.dumps(summary["throughput"]))
