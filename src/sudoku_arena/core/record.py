"""Game records: one JSON object per game, JSON Lines for many; exact replay.

A record holds everything needed to reproduce a game without a random generator::

    {"format": 1, "game": "tic-tac-sudoku", "game_version": "1.0.0",
     "params": {"players": 2, "grid": "534678912...", ...}, "seed": 7,
     "players": ["human", "greedy"],
     "actions": [{"ply": 0, "actor": 0, "action": "r1c1"}, ...,
                 {"ply": 9, "actor": "chance", "action": "roll 3"}],
     "outcome": {"winners": [0], "scores": [13, 6], "reason": "..."}}

``replay`` re-applies every action and checks that the outcome comes out the same; the
first difference raises :class:`ReplayMismatchError` naming its ply.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sudoku_arena.core.errors import (
    ArenaError,
    RecordError,
    ReplayMismatchError,
)
from sudoku_arena.core.match import RECORD_FORMAT, LogEntry
from sudoku_arena.core.params import ParamValue
from sudoku_arena.core.registry import build
from sudoku_arena.core.types import JsonDict, Outcome

CHANCE_ACTOR = "chance"


@dataclass(frozen=True, slots=True)
class Record:
    """A finished or unfinished game, as stored."""

    format: int
    game: str
    game_version: str
    params: dict[str, ParamValue]
    seed: int | None
    players: tuple[str, ...]
    actions: tuple[LogEntry, ...]
    outcome: Outcome | None

    def to_json(self) -> JsonDict:
        return {
            "format": self.format,
            "game": self.game,
            "game_version": self.game_version,
            "params": dict(self.params),
            "seed": self.seed,
            "players": list(self.players),
            "actions": [
                {
                    "ply": e.ply,
                    "actor": CHANCE_ACTOR if e.actor is None else e.actor,
                    "action": e.action,
                }
                for e in self.actions
            ],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @staticmethod
    def from_json(data: object) -> Record:
        """Read a record, refusing missing keys and wrong types with a clear message."""
        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
        required = ("format", "game", "game_version", "params", "players", "actions")
        missing = [k for k in required if k not in data]
        if missing:
            raise RecordError(f"record lacks {', '.join(missing)}")
        if data["format"] != RECORD_FORMAT:
            raise RecordError(
                f"record format {data['format']!r} is not supported; allowed: {RECORD_FORMAT}"
            )
        if not isinstance(data["params"], dict):
            raise RecordError("record params must be an object")
        actions: list[LogEntry] = []
        if not isinstance(data["actions"], list):
            raise RecordError("record actions must be a list")
        for i, a in enumerate(data["actions"]):
            if not isinstance(a, dict) or not {"ply", "actor", "action"} <= set(a):
                raise RecordError(f"action {i} must be an object with ply, actor and action")
            actor = a["actor"]
            if actor != CHANCE_ACTOR and (isinstance(actor, bool) or not isinstance(actor, int)):
                raise RecordError(f"action {i}: actor must be a seat number or 'chance'")
            if not isinstance(a["action"], str) or not isinstance(a["ply"], int):
                raise RecordError(f"action {i}: ply must be a number and action a string")
            actions.append(
                LogEntry(a["ply"], None if actor == CHANCE_ACTOR else int(actor), a["action"])
            )
        outcome_data = data.get("outcome")
        try:
            outcome = None if outcome_data is None else Outcome.from_json(outcome_data)
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"record outcome is malformed: {exc}") from None
        seed = data.get("seed")
        return Record(
            format=int(data["format"]),
            game=str(data["game"]),
            game_version=str(data["game_version"]),
            params=dict(data["params"]),
            seed=seed if isinstance(seed, int) else None,
            players=tuple(str(p) for p in data["players"]),
            actions=tuple(actions),
            outcome=outcome,
        )

    @staticmethod
    def loads(text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None
        return Record.from_json(data)


def replay(record: Record) -> tuple[Any, list[Any]]:
    """Re-apply every action of ``record``; return the game and the list of states.

    Raises :class:`ReplayMismatchError` at the first ply that does not replay (wrong
    ply number, wrong actor, malformed or illegal action, game over too early) and, at
    the end, when the outcome differs from the recorded one.
    """
    game = build(record.game, record.params)
    state = game.initial_state()
    states = [state]
    for i, entry in enumerate(record.actions):
        if entry.ply != i:
            raise ReplayMismatchError(i, f"ply number {entry.ply} where {i} was expected")
        tm = game.to_move(state)
        if tm.is_terminal:
            raise ReplayMismatchError(i, f"the game is already over, yet {entry.action!r} follows")
        if entry.actor is None and not tm.is_chance:
            raise ReplayMismatchError(
                i, f"recorded chance outcome {entry.action!r}, but a player is to move"
            )
        if entry.actor is not None and entry.actor not in tm.players:
            raise ReplayMismatchError(
                i,
                f"recorded seat {entry.actor} acting, but to move is "
                f"{list(tm.players) or 'chance'}",
            )
        try:
            state = game.apply(state, game.parse_action(entry.action), entry.actor)
        except ArenaError as exc:
            raise ReplayMismatchError(i, str(exc)) from None
        states.append(state)
    out = game.outcome(state)
    end = len(record.actions)
    if (out is None) != (record.outcome is None):
        got = "the game is over" if out is not None else "the game is not over"
        raise ReplayMismatchError(end, f"after the last action {got}, unlike the record")
    if (
        out is not None
        and record.outcome is not None
        and (out.winners != record.outcome.winners or out.scores != record.outcome.scores)
    ):
        raise ReplayMismatchError(
            end,
            f"outcome differs: recorded winners {list(record.outcome.winners)} scores "
            f"{list(record.outcome.scores)}, replayed winners {list(out.winners)} "
            f"scores {list(out.scores)}",
        )
    return game, states


def write_records(path: str | Path, records: Iterable[Record], append: bool = False) -> int:
    """Write records as JSON Lines; return how many were written."""
    n = 0
    with open(path, "a" if append else "w", encoding="utf-8") as fh:
        for r in records:
            fh.write(r.dumps() + "\n")
            n += 1
    return n


def read_records(path: str | Path) -> Iterator[Record]:
    """Read a JSON Lines file (or one JSON object); errors name the line."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    stripped = text.strip()
    if stripped.startswith("{") and "\n{" not in stripped:
        yield Record.loads(stripped)
        return
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield Record.loads(line)
        except RecordError as exc:
            raise RecordError(f"{path}, line {lineno}: {exc}") from None
