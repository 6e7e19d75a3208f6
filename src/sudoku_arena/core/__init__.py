"""Core of Sudoku Arena: types, errors, the game protocol, registry, match and records.

Everything here depends on the standard library only, so the rules engines stay light.
"""

from sudoku_arena.core.agent import Agent
from sudoku_arena.core.entry import GameEntry
from sudoku_arena.core.errors import (
    ArenaError,
    IllegalActionError,
    InvalidGridError,
    InvalidParameterError,
    NotationError,
    RecordError,
    ReplayMismatchError,
    StateFormatError,
    UndoError,
    UnknownGameError,
)
from sudoku_arena.core.match import LogEntry, Match
from sudoku_arena.core.params import ParamSpec
from sudoku_arena.core.protocol import AnyGame, Game
from sudoku_arena.core.record import Record, read_records, replay, write_records
from sudoku_arena.core.registry import (
    entry_of,
    load,
    register,
    registered_games,
    render_svg,
    render_text,
    spec_of,
)
from sudoku_arena.core.types import GameSpec, JsonDict, MoveKind, Outcome, ToMove

__all__ = [
    "Agent",
    "AnyGame",
    "ArenaError",
    "Game",
    "GameEntry",
    "GameSpec",
    "IllegalActionError",
    "InvalidGridError",
    "InvalidParameterError",
    "JsonDict",
    "LogEntry",
    "Match",
    "MoveKind",
    "NotationError",
    "Outcome",
    "ParamSpec",
    "Record",
    "RecordError",
    "ReplayMismatchError",
    "StateFormatError",
    "ToMove",
    "UndoError",
    "UnknownGameError",
    "entry_of",
    "load",
    "read_records",
    "register",
    "registered_games",
    "render_svg",
    "render_text",
    "replay",
    "spec_of",
    "write_records",
]
