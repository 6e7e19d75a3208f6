"""The MCTS on small made-up games: vector returns, chance, simultaneous phases, budgets."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import pytest

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.hints import DEFAULT_HINTS, Budget, hints_for
from sudoku_arena.ai.mcts import MCTS, MCTSAgent
from sudoku_arena.core.base import BaseGame
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.types import (
    TO_MOVE_CHANCE,
    TO_MOVE_TERMINAL,
    GameSpec,
    JsonDict,
    MoveKind,
    Outcome,
    ToMove,
)


@dataclass(frozen=True, slots=True)
class Toy:
    """A state of the toy games: the actions so far (chance outcomes included)."""

    history: tuple[int, ...] = ()


class ToyGame(BaseGame[Toy, int]):
    """Shared plumbing of the toy games; subclasses define the tree."""

    spec: ClassVar[GameSpec]

    def __init__(self, players: int) -> None:
        super().__init__({"players": players})

    def initial_state(self) -> Toy:
        return Toy()

    def apply(self, s: Toy, a: int, player: int | None = None) -> Toy:
        return Toy((*s.history, a))

    def outcome(self, s: Toy) -> Outcome | None:
        if not self.to_move(s).is_terminal:
            return None
        r = self.returns(s)
        return Outcome((), tuple(r), "over")

    def view(self, s: Toy, observer: int | None) -> JsonDict:
        return {"history": list(s.history)}

    def format_action(self, a: int) -> str:
        return str(a)

    def parse_action(self, text: str) -> int:
        return int(text)

    def encode_action(self, a: int) -> int:
        return a

    def decode_action(self, index: int) -> int:
        return index

    def dump_state(self, s: Toy) -> JsonDict:
        return {"history": list(s.history)}

    def load_state(self, data: JsonDict) -> Toy:
        return Toy(tuple(data["history"]))


def _spec(name: str, lo: int, hi: int, **kw: Any) -> GameSpec:
    base = dict(chance=False, hidden_information=False, simultaneous=False)
    base.update(kw)
    return GameSpec(name, name, "1.0.0", lo, hi, num_distinct_actions=16, summary="", **base)


class Gamble(ToyGame):
    """Solo: action 0 is a sure 0.6; action 1 rolls a die: 1.0 on a six, else ``low``."""

    spec = _spec("gamble", 1, 1, chance=True)

    def __init__(self, low: float) -> None:
        super().__init__(1)
        self.low = low

    def to_move(self, s: Toy) -> ToMove:
        h = s.history
        if not h:
            return ToMove.decision(0)
        if h == (1,):
            return TO_MOVE_CHANCE
        return TO_MOVE_TERMINAL

    def legal_actions(self, s: Toy, player: int) -> Sequence[int]:
        return [0, 1] if not s.history else []

    def chance_outcomes(self, s: Toy) -> Sequence[tuple[int, Fraction]]:
        return [(10 + k, Fraction(1, 6)) for k in range(6)]

    def returns(self, s: Toy) -> tuple[float, ...]:
        h = s.history
        if h == (0,):
            return (0.6,)
        if len(h) == 2:
            return (1.0 if h[1] == 15 else self.low,)
        return (0.0,)


class Kingmaker(ToyGame):
    """Three seats. Seat 0 picks 0 (seat 1 then chooses between (.5, .5, 0) and
    (0, .4, .6)) or 1 (ends at (.3, .3, .4)). Seat 1 takes the first for itself, so 0 is
    right for seat 0; a search that assumed the others play against seat 0 would pick 1."""

    spec = _spec("kingmaker", 3, 3)

    def __init__(self) -> None:
        super().__init__(3)

    def to_move(self, s: Toy) -> ToMove:
        h = s.history
        if not h:
            return ToMove.decision(0)
        if h == (0,):
            return ToMove.decision(1)
        return TO_MOVE_TERMINAL

    def legal_actions(self, s: Toy, player: int) -> Sequence[int]:
        return [0, 1] if len(s.history) < 2 and player == len(s.history) else []

    def returns(self, s: Toy) -> tuple[float, ...]:
        return {(1,): (0.3, 0.3, 0.4), (0, 0): (0.5, 0.5, 0.0), (0, 1): (0.0, 0.4, 0.6)}.get(
            s.history, (0.0, 0.0, 0.0)
        )


class Pennies(ToyGame):
    """Matching pennies as a simultaneous phase: both seats pick 0 or 1 in any order
    without seeing the other; seat 1 wins when they match."""

    spec = _spec("pennies", 2, 2, simultaneous=True)

    def __init__(self) -> None:
        super().__init__(2)

    def to_move(self, s: Toy) -> ToMove:
        done = {a // 2 for a in s.history}
        left = tuple(p for p in (0, 1) if p not in done)
        return ToMove(MoveKind.DECISION, left) if left else TO_MOVE_TERMINAL

    def legal_actions(self, s: Toy, player: int) -> Sequence[int]:
        if player in self.to_move(s).players:
            return [2 * player, 2 * player + 1]
        return []

    def returns(self, s: Toy) -> tuple[float, ...]:
        if len(s.history) < 2:
            return (0.0, 0.0)
        picks = {a // 2: a % 2 for a in s.history}
        return (0.0, 1.0) if picks[0] == picks[1] else (1.0, 0.0)


def test_chance_nodes_weigh_outcomes_by_probability() -> None:
    # The gamble is worth 1/6 + 5/6 * low: 0.25 against a sure 0.6, 0.9 against it.
    for low, best in ((0.1, 0), (0.88, 1)):
        game = Gamble(low)
        r = MCTS(game, rng=random.Random(3)).search(game.initial_state(), 0, Budget(2000))
        assert r.action == best, (low, r.stats)


def test_vector_returns_with_three_seats() -> None:
    game = Kingmaker()
    r = MCTS(game, rng=random.Random(1)).search(game.initial_state(), 0, Budget(500))
    assert r.action == 0, r.stats
    value = dict((a, v) for a, _, v in r.stats)
    assert value[0] == pytest.approx(0.5, abs=0.1)


def test_simultaneous_phase_does_not_show_the_other_choice() -> None:
    # A search that let seat 1 see seat 0's coin would value every coin of seat 0 at 0
    # (and seat 1's at 1); decoupled choices see each coin worth about one half.
    game = Pennies()
    s = game.initial_state()
    for seat in (0, 1):
        r = MCTS(game, rng=random.Random(seat)).search(s, seat, Budget(3000))
        total = sum(n for _, n, _ in r.stats)
        mean = sum(n * v for _, n, v in r.stats) / total
        assert 0.3 < mean < 0.7, (seat, r.stats)
        assert {a // 2 for a, _, _ in r.stats} == {seat}


def test_simultaneous_phase_mid_way() -> None:
    # Seat 1 acts after seat 0 already picked: it still answers from its own tree.
    game = Pennies()
    s = game.apply(game.initial_state(), 1, 0)
    assert game.to_move(s).players == (1,)
    r = MCTS(game, rng=random.Random(0)).search(s, 1, Budget(200))
    assert r.action == 3  # matching seat 0's coin wins (the state shows it)


class OneWay(Kingmaker):
    """Kingmaker where seat 1, once seat 0 picked 0, has one legal action only."""

    def legal_actions(self, s: Toy, player: int) -> Sequence[int]:
        if s.history == (0,) and player == 1:
            return [1]
        return super().legal_actions(s, player)


def test_single_legal_action_is_played_without_search() -> None:
    game = OneWay()
    s = game.apply(game.initial_state(), 0, 0)
    r = MCTS(game, rng=random.Random(0)).search(s, 1, Budget(10_000))
    assert r.action == 1  # the only move (a search would prefer 0 for seat 1)
    assert r.simulations == 0 and r.stats == ((1, 0, 0.0),)


def test_time_budget_is_kept() -> None:
    game = Gamble(0.5)
    r = MCTS(game, rng=random.Random(0)).search(game.initial_state(), 0, Budget(10**9, 0.05))
    # It stopped on the clock: a billion simulations cannot have been run.
    assert 0 < r.simulations < 10**9


def test_games_without_registered_hints_get_the_defaults() -> None:
    assert hints_for(Kingmaker()) is DEFAULT_HINTS
    assert hints_for(Kingmaker()).budget("hard").iterations > 0


@pytest.mark.parametrize(
    ("spec", "label"),
    [
        ("easy", "easy"),
        ("normal", "normal"),
        ("hard", "hard"),
        ("mcts", "normal"),
        ("mcts:hard", "hard"),
        ("MCTS:250", "250"),
        ("mcts:0.5s", "0.5s"),
    ],
)
def test_agent_names(spec: str, label: str) -> None:
    agent = make_agent(spec, Kingmaker(), seed=1)
    assert isinstance(agent, MCTSAgent)
    assert agent.label == label
    if label == "250":
        assert agent.budget == Budget(250)


@pytest.mark.parametrize("spec", ["mcts:0", "mcts:-3", "mcts:fast", "mcts:0s", "hard:3"])
def test_bad_agent_names_are_refused(spec: str) -> None:
    with pytest.raises(ArenaError):
        make_agent(spec, Kingmaker(), seed=1)
