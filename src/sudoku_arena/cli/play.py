"""``play``: a game in the terminal, people and bots in any seats.

People type actions in the game's notation. Other commands at the prompt: ``moves``
(the legal actions), ``undo``, ``board``, ``help``, ``quit``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from sudoku_arena.ai import make_agent
from sudoku_arena.cli.app import (
    app,
    check_output,
    console,
    fail,
    game_params,
    load_game,
    parse_players,
    read_text_param,
)
from sudoku_arena.core.agent import Agent
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.match import LogEntry, Match
from sudoku_arena.core.record import write_records
from sudoku_arena.core.registry import entry_of
from sudoku_arena.core.types import JsonDict

HUMAN = "human"

HELP = """Type an action in the game's notation (for example {example}), or:
  moves   list your legal actions
  undo    take back your last action (and the bots' replies to it)
  board   draw the board again
  help    this text
  quit    leave the game (saved first when --save is given)"""


def _show(match: Match, seat: int | None) -> None:
    view = match.game.view(match.state, seat)
    console.print(Text.from_ansi(entry_of(match.game).render_text(view, color=True)))


def _seat_label(match: Match, seat: int) -> str:
    """``circle (human)``: the game's name for the seat, then who plays it."""
    names = match.game.view(match.state, None).get("players") or []
    side = names[seat] if seat < len(names) else f"seat {seat}"
    return f"{side} ({match.players[seat]})"


def _describe(match: Match, entry: LogEntry) -> str:
    """One log line as everybody at the screen may see it (secret draws redacted)."""
    who = "chance" if entry.actor is None else _seat_label(match, entry.actor)
    return f"{who}: {match.game.public_action(entry.action)}"


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def _human_turn(match: Match, seat: int, bots: set[int], several_humans: bool) -> int | None:
    """Prompt ``seat`` until an action is taken.

    Returns the first ply of the log that is new since the prompt (undo moves it back),
    or ``None`` when the person quits.
    """
    start = match.ply
    hidden = match.game.spec.hidden_information
    if hidden and several_humans:
        _ask(f"Pass the screen to {_seat_label(match, seat)} and press Enter ")
    _show(match, seat)
    while True:
        line = _ask(f"{_seat_label(match, seat)}> ")
        if line is None or line.strip().lower() in {"quit", "exit", "q"}:
            return None
        cmd = line.strip()
        low = cmd.lower()
        if not cmd:
            continue
        if low in {"help", "h", "?"}:
            legal = match.legal(seat)
            console.print(HELP.format(example=legal[0] if legal else "one of 'moves'"))
        elif low in {"moves", "legal", "m"}:
            console.print(", ".join(match.legal(seat)) or "no legal action")
        elif low in {"board", "b"}:
            _show(match, seat)
        elif low in {"undo", "u"}:
            try:
                undone = match.undo(seat, along=bots)
            except ArenaError as exc:
                console.print(f"[yellow]{exc}[/]")
                continue
            console.print("undone: " + "; ".join(_describe(match, e) for e in reversed(undone)))
            start = match.ply
            _show(match, seat)
            if seat not in match.to_move().players:
                return start
        else:
            try:
                match.play(cmd, seat)
            except ArenaError as exc:
                console.print(f"[red]{exc}[/]  (type 'moves' for the legal actions)")
                continue
            return start


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="game id (see 'sudoku-arena list')")],
    players: Annotated[
        str, typer.Option(help="one name per seat: human, random, greedy, ... (comma-separated)")
    ] = "human,greedy",
    seed: Annotated[int | None, typer.Option(help="seed for the board and chance")] = None,
    grid: Annotated[str | None, typer.Option(help="the Sudoku grid as 81 digits")] = None,
    sheet: Annotated[Path | None, typer.Option(help="a sheet file (Cat Sudoku)")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
    save: Annotated[Path | None, typer.Option(help="write the game record here")] = None,
) -> None:
    """Play a game in the terminal against bots or with people on one screen."""
    names = parse_players(players)
    try:
        extra: JsonDict = {"grid": grid, "players": len(names)}
        if sheet is not None:
            extra["sheet"] = read_text_param("--sheet", str(sheet))
        params = game_params(param, extra)
    except (ArenaError, OSError) as exc:
        fail(str(exc))
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if save is not None:
        check_output(save, "--save")  # before the game, not after it is played
    g = load_game(game, params, seed)
    match = Match(g, seed=seed, players=names)
    agents: dict[int, Agent] = {}
    try:
        for i, name in enumerate(names):
            if name.lower() != HUMAN:
                agents[i] = make_agent(name, g, seed=match.bot_seed(i))
    except ArenaError as exc:
        fail(str(exc))
    humans = [i for i, n in enumerate(names) if n.lower() == HUMAN]
    # The seed gives away every future die and tile: in a game with chance it is
    # shown only once the game is over (or left).
    secret_seed = g.spec.chance or g.spec.hidden_information
    shown_seed = "" if secret_seed else f" — seed {seed}"
    console.print(f"[bold]{g.spec.name}[/]{shown_seed}. Type 'help' for commands.")
    for e in match.log:
        console.print(f"[dim]{_describe(match, e)}[/]")
    quit_early = False
    while not match.is_over:
        seat = match.to_move().players[0]
        n0: int | None = match.ply
        if seat in agents:
            match.step_agent(agents[seat], seat)
        else:
            n0 = _human_turn(match, seat, set(agents), len(humans) > 1)
            if n0 is None:
                quit_early = True
                break
        for e in match.log[n0:]:
            style = "cyan" if e.actor in agents else "dim"
            console.print(f"[{style}]{_describe(match, e)}[/]")
    if save is not None:
        write_records(save, [match.record()])
        console.print(f"record saved to {save}")
    if quit_early:
        console.print("game left unfinished")
        if secret_seed:
            console.print(f"it was played from seed {seed}")
        raise typer.Exit(0)
    _show(match, None)
    out = match.outcome()
    assert out is not None
    console.print(f"[bold]Game over:[/] {out.reason}; scores {list(out.scores)}")
    if secret_seed:
        console.print(f"played from seed {seed} (replay it with --seed {seed})")
