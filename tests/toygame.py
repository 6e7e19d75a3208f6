"""A tiny game with multi-action turns and a coin flip, for testing the core machinery.

Each turn the player may ``inc`` up to twice, then ``end``; a fair coin (``coin h`` or
``coin t``) follows every ``end`` and gives the player who ended a point on heads. After
four turns the higher score wins (a tie is a draw).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from sudoku_arena.core.base import BaseGame
from sudoku_arena.core.entry import GameEntry
from sudoku_arena.core.errors import IllegalActionError, NotationError
from sudoku_arena.core.params import players_param
from sudoku_arena.core.types import (
    TO_MOVE_CHANCE,
    TO_MOVE_TERMINAL,
    GameSpec,
    JsonDict,
    Outcome,
    ToMove,
)

ACTIONS = ("inc", "end", "coin h", "coin t")


@dataclass(frozen=True, slots=True)
class ToyState:
    player: int
    incs: int
    coin_due: bool
    turns: int
    scores: tuple[int, int]


class ToyGame(BaseGame[ToyState, str]):
    spec: ClassVar[GameSpec] = GameSpec(
        id="toy",
        name="Toy",
        version="1.0.0",
        min_players=2,
        max_players=2,
        chance=True,
        hidden_information=False,
        simultaneous=False,
        num_distinct_actions=4,
        summary="test game",
        params=(players_param(2, 2, 2),),
    )

    def initial_state(self) -> ToyState:
        return ToyState(0, 0, False, 0, (0, 0))

    def to_move(self, s: ToyState) -> ToMove:
        if s.turns >= 4:
            return TO_MOVE_TERMINAL
        return TO_MOVE_CHANCE if s.coin_due else ToMove.decision(s.player)

    def legal_actions(self, s: ToyState, player: int) -> Sequence[str]:
        tm = self.to_move(s)
        if not tm.is_decision or player != s.player:
            return ()
        return ("inc", "end") if s.incs < 2 else ("end",)

    def chance_outcomes(self, s: ToyState) -> Sequence[tuple[str, Fraction]]:
        return (("coin h", Fraction(1, 2)), ("coin t", Fraction(1, 2))) if s.coin_due else ()

    def apply(self, s: ToyState, a: str, player: int | None = None) -> ToyState:
        tm = self.to_move(s)
        if tm.is_chance:
            if a not in ("coin h", "coin t") or player is not None:
                raise IllegalActionError(a, "a coin is due")
            gain = 1 if a == "coin h" else 0
            sc = list(s.scores)
            sc[s.player] += gain
            return ToyState(1 - s.player, 0, False, s.turns + 1, (sc[0], sc[1]))
        p = self.acting_player(tm, player, a)
        if a not in self.legal_actions(s, p):
            raise IllegalActionError(a, "not legal now")
        if a == "inc":
            sc = list(s.scores)
            sc[p] += 1
            return replace(s, incs=s.incs + 1, scores=(sc[0], sc[1]))
        return replace(s, coin_due=True)

    def outcome(self, s: ToyState) -> Outcome | None:
        if s.turns < 4:
            return None
        a, b = s.scores
        winners = (0,) if a > b else (1,) if b > a else ()
        return Outcome(winners, (float(a), float(b)), "four turns played")

    def view(self, s: ToyState, observer: int | None) -> JsonDict:
        tm = self.to_move(s)
        return {
            "game": "toy",
            "observer": observer,
            "players": ["a", "b"],
            "to_move": list(tm.players),
            "legal": list(self.legal_actions(s, s.player)),
            "scores": list(s.scores),
            "outcome": None if self.outcome(s) is None else self.outcome(s).to_json(),  # type: ignore[union-attr]
        }

    def format_action(self, a: str) -> str:
        return a

    def parse_action(self, text: str) -> str:
        t = " ".join(text.lower().split())
        if t not in ACTIONS:
            raise NotationError(f"{text!r} is not an action; allowed: {', '.join(ACTIONS)}")
        return t

    def encode_action(self, a: str) -> int:
        return ACTIONS.index(a)

    def decode_action(self, index: int) -> str:
        self.decode_range_check(index)
        return ACTIONS[index]

    def dump_state(self, s: ToyState) -> JsonDict:
        return {
            "player": s.player,
            "incs": s.incs,
            "coin_due": s.coin_due,
            "turns": s.turns,
            "scores": list(s.scores),
        }

    def load_state(self, data: JsonDict) -> ToyState:
        return ToyState(
            data["player"], data["incs"], data["coin_due"], data["turns"], tuple(data["scores"])
        )


def render_text(view: JsonDict, *, color: bool = False) -> str:
    return f"scores {view['scores']}"


def render_svg(view: JsonDict) -> str:
    return '<svg xmlns="http://www.w3.org/2000/svg"><rect data-action="end"/></svg>'


#: What a test registers to make the toy game known by id (``toy``).
TOY_ENTRY: GameEntry[ToyGame] = GameEntry(
    spec=ToyGame.spec, rules=ToyGame, render_text=render_text, render_svg=render_svg
)
