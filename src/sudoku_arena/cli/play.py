"""``play``: a game in the terminal, people and bots in any seats.

People type actions in the game's notation (Tab completes the legal ones on a
terminal). Other commands at the prompt: ``moves`` (the legal actions), ``undo``,
``board``, ``legend``, ``help``, ``quit``. When a person has a single legal action it is
shown and played on Enter. Bots think behind a spinner; Sudoku Warriors battles are
announced in words. Seats are called by the game's names for them, scores are exact.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from sudoku_arena.ai import make_agent
from sudoku_arena.cli.announce import announcements
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
from sudoku_arena.cli.guide import legend, notation
from sudoku_arena.cli.prompt import LineReader, interactive, thinking
from sudoku_arena.cli.words import clip_quotes, exact, reword_seats, seat_name
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
  legend  what the board's symbols mean
  help    this text
  quit    leave the game (saved first when --save is given)
With a single legal action, Enter plays it."""

TERMINAL_HELP = "On a terminal: Tab completes actions, arrows edit, Up/Down recall lines."


class Table:
    """One game at the terminal: the match, who is a bot, and what was shown."""

    def __init__(self, match: Match, agents: dict[int, Agent]) -> None:
        self.match = match
        self.agents = agents
        self.reader = LineReader()
        self.legend_shown = False
        self.names: list[str] = list(match.game.view(match.state, None).get("players") or [])

    # -- words ------------------------------------------------------------------------------

    def label(self, seat: int) -> str:
        """``Circle (human)``: the game's name for the seat, then who plays it."""
        return f"{seat_name(self.names, seat)} ({self.match.players[seat]})"

    def describe(self, entry: LogEntry) -> str:
        """One log line as everybody at the screen may see it (secret draws redacted)."""
        who = "chance" if entry.actor is None else self.label(entry.actor)
        return f"{who}: {self.match.game.public_action(entry.action)}"

    def say(self, text: str, style: str = "") -> None:
        """Print ``text`` literally (it may quote what a person typed: no markup)."""
        console.print(Text(text, style=style))

    def refusal(self, exc: ArenaError) -> str:
        return clip_quotes(reword_seats(str(exc), self.names))

    # -- showing ----------------------------------------------------------------------------

    def show(self, seat: int | None) -> None:
        """The board as ``seat`` sees it; the legend under the first board shown."""
        view = self.match.game.view(self.match.state, seat)
        console.print(Text.from_ansi(entry_of(self.match.game).render_text(view, color=True)))
        text = legend(self.match.game.spec.id)
        if text and not self.legend_shown:
            self.legend_shown = True
            self.say(text + "\n(type 'legend' to see this again)", "dim")

    def help(self, seat: int) -> None:
        legal = self.match.legal(seat)
        example = legal[0] if legal else "one of 'moves'"
        self.say(HELP.format(example=example))
        note = notation(self.match.game.spec.id)
        if note:
            self.say(note)
        if interactive():
            self.say(TERMINAL_HELP)

    def report(self, first: int) -> None:
        """Print the log from ply ``first`` on, with what each action brought about."""
        match = self.match
        for e in match.entries[first:]:
            self.say(self.describe(e), "cyan" if e.actor in self.agents else "dim")
            for line in announcements(match.game, match.history, match.entries, e.ply):
                self.say(line, "bold yellow")

    # -- turns ------------------------------------------------------------------------------

    def bot_turn(self, seat: int) -> None:
        with thinking(console, f"{self.label(seat)} is thinking…"):
            self.match.step_agent(self.agents[seat], seat)

    def human_turn(self, seat: int, several_humans: bool) -> int | None:
        """Prompt ``seat`` until an action is taken.

        Returns the first ply of the log that is new since the prompt (undo moves it
        back), or ``None`` when the person quits.
        """
        match = self.match
        start = match.ply
        if match.game.spec.hidden_information and several_humans:
            if interactive():  # the last player's hand must not stay on the screen
                console.clear()
            self.reader.read(f"Pass the screen to {self.label(seat)} and press Enter ")
        self.show(seat)
        told_forced = False
        while True:
            legal = match.legal(seat)
            forced = legal[0] if len(legal) == 1 else None
            if forced is not None and not told_forced:
                self.say(f"Your only legal action is {forced}: press Enter to play it.", "bold")
                told_forced = True
            prompt = f"{self.label(seat)}" + (f" [Enter: {forced}]" if forced else "") + "> "
            line = self.reader.read(prompt, legal)
            if line is None or line.strip().lower() in {"quit", "exit", "q"}:
                return None
            cmd = line.strip()
            low = cmd.lower()
            if not cmd:
                if forced is None:
                    continue
                cmd = forced
            if low in {"help", "h", "?"}:
                self.help(seat)
            elif low in {"moves", "legal", "m"}:
                self.say(", ".join(legal) or "no legal action")
            elif low in {"board", "b"}:
                self.show(seat)
            elif low in {"legend", "l"}:
                self.say(legend(match.game.spec.id) or "this game has no legend")
            elif low in {"undo", "u"}:
                try:
                    undone = match.undo(seat, along=set(self.agents))
                except ArenaError as exc:
                    self.say(self.refusal(exc), "yellow")
                    continue
                self.say("undone: " + "; ".join(self.describe(e) for e in reversed(undone)))
                start = match.ply
                self.show(seat)
                told_forced = False
                if seat not in match.to_move().players:
                    return start
            else:
                try:
                    match.play(cmd, seat)
                except ArenaError as exc:
                    self.say(f"{self.refusal(exc)}  (type 'moves' for the legal actions)", "red")
                    continue
                return start

    def result(self) -> str:
        out = self.match.outcome()
        assert out is not None
        scores = ", ".join(
            f"{seat_name(self.names, q)} {exact(x)}" for q, x in enumerate(out.scores)
        )
        return f"Game over: {out.reason}; scores: {scores}"


def _save(path: Path, match: Match) -> None:
    try:
        write_records(path, [match.record()])
    except OSError as exc:  # the folder went away during the game: keep the game anyway
        err_console.print(
            Text(f"--save {path}: cannot write it ({exc.strerror}); the record follows"),
            soft_wrap=True,
        )
        console.print(match.record().dumps(), markup=False, soft_wrap=True)
        raise typer.Exit(1) from None
    console.print(Text(f"record saved to {path}"))


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
    table = Table(match, agents)
    humans = [i for i, n in enumerate(names) if n.lower() == HUMAN]
    # The seed gives away every future die and tile: in a game with chance it is
    # shown only once the game is over (or left).
    secret_seed = g.spec.chance or g.spec.hidden_information
    shown_seed = "" if secret_seed else f" — seed {seed}"
    console.print(Text.assemble((g.spec.name, "bold"), f"{shown_seed}. ", _seats(table)))
    table.say("Type 'help' for commands" + (", Tab to complete." if interactive() else "."))
    table.report(0)
    quit_early = False
    try:
        while not match.is_over:
            seat = match.to_move().players[0]
            first = match.ply
            if seat in agents:
                table.bot_turn(seat)
            else:
                started = table.human_turn(seat, len(humans) > 1)
                if started is None:
                    quit_early = True
                    break
                first = started
            table.report(first)
    except KeyboardInterrupt:  # Ctrl-C: leave like 'quit', keeping the game
        console.print()
        quit_early = True
    if save is not None:
        _save(save, match)
    if quit_early:
        table.say("game left unfinished")
        if secret_seed:
            table.say(f"it was played from seed {seed}")
        raise typer.Exit(0)
    table.show(None)
    console.print(Text(table.result(), style="bold"), soft_wrap=True)
    if secret_seed:
        table.say(f"played from seed {seed} (replay it with --seed {seed})")


def _seats(table: Table) -> str:
    """``Circle: human, Square: greedy.``"""
    parts = [f"{seat_name(table.names, q)}: {who}" for q, who in enumerate(table.match.players)]
    return ", ".join(parts) + "."
