"""Core of Sudoku Arena: types, errors, the game protocol, registry, match and records.

Everything here depends on the standard library only, so the rules engines stay light.
"""

from sudoku_arena.core.agent import Agent
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
from sudoku_arena.core.protocol import Game
from sudoku_arena.core.record import Record, read_records, replay, write_records
from sudoku_arena.core.registry import load, registered_games, spec_of
from sudoku_arena.core.types import GameSpec, JsonDict, MoveKind, Outcome, ToMove

__all__ = [
    "Agent",
    "ArenaError",
    "Game",
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
    "load",
    "read_records",
    "registered_games",
    "replay",
    "spec_of",
    "write_records",
]
