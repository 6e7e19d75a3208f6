"""Game records: one JSON object per game, JSON Lines for many; exact replay.

A record holds everything needed to reproduce a game without a random generator::

    {"format": 2, "game": "tic-tac-sudoku", "game_version": "1.0.0",
     "params": {"players": 2, "grid": "534678912...", ...}, "seed": 7,
     "players": ["human", "greedy"],
     "actions": [{"ply": 0, "actor": 0, "action": "r1c1"}, ...,
                 {"ply": 9, "actor": "chance", "action": "roll 3"}],
     "outcome": {"winners": [0], "scores": [13, 6], "reason": "...", "code": "line"},
     "chance": {"scheme": "hmac-sha256/v1", "match_id": "local",
                "commitment": "<sha256 hex>", "secret": "<hex, once revealed>",
                "client_seeds": [{"seat": 1, "seed": "...", "ply": 0}]}}

``chance`` says where every chance outcome came from (see
:mod:`sudoku_arena.core.fairness`); ``seed`` is set for games played from an integer
seed. Records of format 1 (no ``chance``) are still read.

``replay`` re-applies every action and checks that the outcome comes out the same; the
first difference raises :class:`ReplayMismatchError` naming its ply.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from sudoku_arena.core.endings import OUTSIDE_RULES
from sudoku_arena.core.errors import (
    ArenaError,
    RecordError,
    ReplayMismatchError,
)
from sudoku_arena.core.fairness import ClientSeed
from sudoku_arena.core.match import RECORD_FORMAT, LogEntry
from sudoku_arena.core.params import ParamValue
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import build
from sudoku_arena.core.types import JsonDict, Outcome

CHANCE_ACTOR = "chance"
#: Record formats this code reads.
READABLE_FORMATS = (1, RECORD_FORMAT)


@dataclass(frozen=True, slots=True)
class ChanceRecord:
    """Where a game's chance came from: the commitment, and the secret once revealed."""

    scheme: str
    match_id: str
    commitment: str
    secret: str | None  # hex; None while the game is secret
    client_seeds: tuple[ClientSeed, ...] = ()

    def to_json(self) -> JsonDict:
        return {
            "scheme": self.scheme,
            "match_id": self.match_id,
            "commitment": self.commitment,
            "secret": self.secret,
            "client_seeds": [c.to_json() for c in self.client_seeds],
        }

    @staticmethod
    def from_json(data: object) -> ChanceRecord:
        if not isinstance(data, dict):
            raise RecordError("record chance must be an object")
        try:
            seeds = tuple(
                ClientSeed(int(c["seat"]), str(c["seed"]), int(c["ply"]))
                for c in data.get("client_seeds", [])
            )
            secret = data.get("secret")
            return ChanceRecord(
                scheme=str(data["scheme"]),
                match_id=str(data["match_id"]),
                commitment=str(data["commitment"]),
                secret=None if secret is None else str(secret),
                client_seeds=seeds,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"record chance is malformed: {exc}") from None


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
    chance: ChanceRecord | None = None

    def to_json(self) -> JsonDict:
        data: JsonDict = {
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
        if self.chance is not None:
            data["chance"] = self.chance.to_json()
        return data

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
        if data["format"] not in READABLE_FORMATS:
            allowed = ", ".join(str(f) for f in READABLE_FORMATS)
            raise RecordError(
                f"record format {data['format']!r} is not supported; allowed: {allowed}"
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
        chance = data.get("chance")
        return Record(
            format=int(data["format"]),
            game=str(data["game"]),
            game_version=str(data["game_version"]),
            params=dict(data["params"]),
            seed=seed if isinstance(seed, int) else None,
            players=tuple(str(p) for p in data["players"]),
            actions=tuple(actions),
            outcome=outcome,
            chance=None if chance is None else ChanceRecord.from_json(chance),
        )

    @staticmethod
    def loads(text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None
        return Record.from_json(data)


#: Called before a recorded chance outcome is applied: ``(game, state, entry)``; raises
#: ``ReplayMismatchError`` if the outcome is not the one chance gave.
ChanceCheck = Callable[[AnyGame, object, LogEntry], None]


def replay(record: Record, check_chance: ChanceCheck | None = None) -> tuple[AnyGame, list[object]]:
    """Re-apply every action of ``record``; return the game and the list of states.

    Raises :class:`ReplayMismatchError` at the first ply that does not replay (wrong
    ply number, wrong actor, malformed or illegal action, game over too early, a chance
    outcome ``check_chance`` refuses) and, at the end, when the outcome differs from
    the recorded one.
    """
    try:
        game = build(record.game, record.params)
    except ArenaError as exc:
        raise RecordError(f"the record's game cannot be set up: {exc}") from None
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
        if entry.actor is None and check_chance is not None:
            check_chance(game, state, entry)
        try:
            state = game.apply(state, game.parse_action(entry.action), entry.actor)
        except ArenaError as exc:
            raise ReplayMismatchError(i, str(exc)) from None
        states.append(state)
    out = game.outcome(state)
    end = len(record.actions)
    if record.outcome is not None and record.outcome.code in OUTSIDE_RULES:
        # Resigned, aborted, drawn by agreement, lost on time or abandoned: the rules
        # had not ended the game.
        if out is not None:
            raise ReplayMismatchError(
                end, f"the record says {record.outcome.code!r}, but the rules had ended the game"
            )
        return game, states
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
    """Write records as JSON Lines; return how many were written.

    A new file appears whole or not at all: it is written beside ``path`` and renamed
    into place, so an error half-way leaves nothing behind (and an existing file
    unchanged). With ``append`` the lines are added to ``path`` directly.
    """
    path = Path(path)
    if append:
        with path.open("a", encoding="utf-8") as fh:
            return _write_lines(fh, records)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            n = _write_lines(fh, records)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return n


def _write_lines(fh: IO[str], records: Iterable[Record]) -> int:
    n = 0
    for r in records:
        fh.write(r.dumps() + "\n")
        n += 1
    return n


def scan_records(path: str | Path) -> Iterator[tuple[int, Record | RecordError]]:
    """Each record of a JSON Lines file (or one JSON object) with its line number; a
    line that is not a record yields its ``RecordError`` instead, and reading goes on.

    Raises ``RecordError`` when the file cannot be read as text at all (a folder, a
    binary file, no such file)."""
    p = Path(path)
    if p.is_dir():
        raise RecordError(f"{path} is a folder; give a record file (.json or .jsonl)")
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file of JSON records") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot read it: {exc.strerror}") from None
    stripped = text.strip()
    if stripped.startswith("{") and "\n{" not in stripped:
        try:
            yield 1, Record.loads(stripped)
        except RecordError as exc:
            yield 1, exc
        return
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield lineno, Record.loads(line)
        except RecordError as exc:
            yield lineno, exc


def read_records(path: str | Path) -> Iterator[Record]:
    """Read a JSON Lines file (or one JSON object); the first bad line raises a
    ``RecordError`` naming it."""
    for lineno, item in scan_records(path):
        if isinstance(item, RecordError):
            raise RecordError(f"{path}, line {lineno}: {item}")
        yield item
