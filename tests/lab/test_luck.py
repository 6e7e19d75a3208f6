"""The luck index: a fair coin is pure luck, Tic-Tac-Sudoku (no chance) none."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from sudoku_arena.ai.agents import RandomAgent
from sudoku_arena.core import registry
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
from sudoku_arena.lab.ladder import (
    coin_probability,
    load_reference,
    pair_luck,
    reference_curve,
)
from sudoku_arena.lab.plan import Plan
from sudoku_arena.lab.runner import run
from sudoku_arena.lab.summary import summarise_folder

ACTIONS = ("left", "right", "heads", "tails")


@dataclass(frozen=True, slots=True)
class CoinState:
    chosen: int  # how many seats have chosen a side (the choice changes nothing)
    result: int  # -1 until the coin falls, then the winning seat


class CoinGame(BaseGame[CoinState, str]):
    """Each seat picks a side, then a fair coin picks the winner: no skill at all."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="coin",
        name="Coin",
        version="1.0.0",
        min_players=2,
        max_players=2,
        chance=True,
        hidden_information=False,
        simultaneous=False,
        num_distinct_actions=4,
        summary="a fair coin decides",
        params=(players_param(2, 2, 2),),
    )

    def initial_state(self) -> CoinState:
        return CoinState(0, -1)

    def to_move(self, s: CoinState) -> ToMove:
        if s.result >= 0:
            return TO_MOVE_TERMINAL
        return TO_MOVE_CHANCE if s.chosen == 2 else ToMove.decision(s.chosen)

    def legal_actions(self, s: CoinState, player: int) -> Sequence[str]:
        return ("left", "right") if self.to_move(s).players == (player,) else ()

    def chance_outcomes(self, s: CoinState) -> Sequence[tuple[str, Fraction]]:
        return (("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))) if s.chosen == 2 else ()

    def apply(self, s: CoinState, a: str, player: int | None = None) -> CoinState:
        if self.to_move(s).is_chance:
            if a not in ("heads", "tails"):
                raise IllegalActionError(a, "the coin is due")
            return CoinState(2, 0 if a == "heads" else 1)
        p = self.acting_player(self.to_move(s), player, a)
        if a not in self.legal_actions(s, p):
            raise IllegalActionError(a, "not legal now")
        return CoinState(s.chosen + 1, -1)

    def outcome(self, s: CoinState) -> Outcome | None:
        if s.result < 0:
            return None
        return Outcome((s.result,), (float(s.result == 0), float(s.result == 1)), "the coin fell")

    def view(self, s: CoinState, observer: int | None) -> JsonDict:
        return {"observer": observer, "to_move": list(self.to_move(s).players), "legal": []}

    def format_action(self, a: str) -> str:
        return a

    def parse_action(self, text: str) -> str:
        if text not in ACTIONS:
            raise NotationError(f"{text!r} is not an action; allowed: {', '.join(ACTIONS)}")
        return text

    def encode_action(self, a: str) -> int:
        return ACTIONS.index(a)

    def decode_action(self, index: int) -> str:
        self.decode_range_check(index)
        return ACTIONS[index]

    def dump_state(self, s: CoinState) -> JsonDict:
        return {"chosen": s.chosen, "result": s.result}

    def load_state(self, data: JsonDict) -> CoinState:
        return CoinState(int(data["chosen"]), int(data["result"]))


COIN_ENTRY: GameEntry[Any] = GameEntry(
    spec=CoinGame.spec,
    rules=CoinGame,
    render_text=lambda view, color=False: "coin",
    render_svg=lambda view: "<svg/>",
    agents={"greedy": RandomAgent},  # the ladder's names; no bot can do better than chance
)


@pytest.fixture
def coin() -> Iterator[None]:
    registry.register(COIN_ENTRY)
    try:
        yield
    finally:
        registry.unregister("coin")


def test_the_reference_spread_falls_to_nothing_as_the_coin_takes_over() -> None:
    ref = load_reference()
    assert ref is not None and ref["game"] == "tic-tac-sudoku"
    names = ("random", "greedy", "easy")
    curve = reference_curve(names, {(0, 1): 100, (0, 2): 100, (1, 2): 100}, ref)
    assert curve is not None
    assert (np.diff(curve) < 0).all() and curve[-1] == pytest.approx(0.0, abs=1e-6)
    assert coin_probability(curve, float(curve[0])) == 0.0
    assert coin_probability(curve, 0.0) == 1.0
    assert coin_probability(curve, float(curve[50])) == pytest.approx(0.5, abs=1e-6)
    assert reference_curve(("random", "wizard"), {(0, 1): 10}, ref) is None


def test_a_fair_coin_game_has_a_luck_index_near_one(coin: None, tmp_path: Path) -> None:
    plan = Plan("coin", {}, ("random", "random"), 2, ladder=("random", "greedy"), ladder_games=400)
    run(tmp_path, plan, workers=1)
    luck = summarise_folder(tmp_path)["ladder"]["luck_index"]
    assert luck["value"] > 0.8 and luck["low"] > 0.5 and luck["high"] == 1.0
    assert luck["reference"] == "tic-tac-sudoku"


def test_tic_tac_sudoku_has_a_luck_index_near_zero(tmp_path: Path) -> None:
    # Other boards than the reference's (seed 7), same bots: no coin in the game.
    plan = Plan(
        "tic-tac-sudoku",
        {},
        ("random", "random"),
        2,
        seed=7,
        ladder=("random", "greedy"),
        ladder_games=40,
    )
    run(tmp_path, plan, workers=2)
    luck = summarise_folder(tmp_path)["ladder"]["luck_index"]
    assert luck["value"] < 0.2 and luck["low"] == 0.0


def test_the_luck_of_one_pair_has_a_closed_form() -> None:
    assert pair_luck(0.9, 0.9) == 0.0  # as far from even as the reference: no luck
    assert pair_luck(0.5, 0.9) == 1.0  # an even match: all luck
    assert pair_luck(0.3, 0.9) == pytest.approx(0.5)  # half the gap, either way round
    assert pair_luck(0.95, 0.9) == 0.0  # more skill than the reference
    assert pair_luck(0.7, 0.5) == 1.0  # an even reference pair says nothing: counted as luck
