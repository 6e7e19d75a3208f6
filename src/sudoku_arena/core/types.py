"""Plain value types shared by every game: who moves, how a game ends, what a game is."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from sudoku_arena.core.params import ParamSpec

#: JSON-compatible mapping (views, dumps, records). Values are JSON types only.
JsonDict = dict[str, Any]


class MoveKind(enum.Enum):
    """What kind of node a state is."""

    DECISION = "decision"
    CHANCE = "chance"
    TERMINAL = "terminal"


@dataclass(frozen=True, slots=True)
class ToMove:
    """Who may act now.

    ``players`` lists the seats that may act: one seat for ordinary turns, several in a
    simultaneous phase (each acts in any order), empty at chance and terminal nodes.
    """

    kind: MoveKind
    players: tuple[int, ...] = ()

    @property
    def is_terminal(self) -> bool:
        return self.kind is MoveKind.TERMINAL

    @property
    def is_chance(self) -> bool:
        return self.kind is MoveKind.CHANCE

    @property
    def is_decision(self) -> bool:
        return self.kind is MoveKind.DECISION

    @staticmethod
    def decision(*players: int) -> ToMove:
        return ToMove(MoveKind.DECISION, tuple(players))


TO_MOVE_CHANCE = ToMove(MoveKind.CHANCE)
TO_MOVE_TERMINAL = ToMove(MoveKind.TERMINAL)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are the seats that share the win (several on a shared win, empty on a
    draw); ``scores`` holds each seat's final score in the game's own units; ``reason``
    is a sentence for people ("three map marks in a row"); ``code`` is the same for
    programs, a short word fixed per way of ending (``"line"``, ``"turns"``,
    ``"resign"``...), empty in records older than codes.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    code: str = ""

    def to_json(self) -> JsonDict:
        data: JsonDict = {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
        }
        if self.code:
            data["code"] = self.code
        return data

    @staticmethod
    def from_json(data: JsonDict) -> Outcome:
        return Outcome(
            winners=tuple(int(w) for w in data["winners"]),
            scores=tuple(float(s) for s in data["scores"]),
            reason=str(data["reason"]),
            code=str(data.get("code", "")),
        )


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a game is, in one record; generic code branches on these facts only.

    ``num_distinct_actions`` bounds ``encode_action``: every action of the game encodes
    to an int in ``range(num_distinct_actions)`` (chance outcomes included). ``draws``
    says whether the rules can end the game with nobody winning (then players may also
    agree to a draw).
    """

    id: str
    name: str
    version: str
    min_players: int
    max_players: int
    chance: bool
    hidden_information: bool
    simultaneous: bool
    num_distinct_actions: int
    summary: str
    params: tuple[ParamSpec, ...] = field(default=())
    draws: bool = False

    def param(self, name: str) -> ParamSpec:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)
