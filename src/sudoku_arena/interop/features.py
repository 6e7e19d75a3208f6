"""Fixed-shape numeric features of a seat's view, one encoder per game.

The adapters for learning libraries need numbers in fixed shapes, while a view
(``game.view(state, seat)``) is JSON whose lists grow and shrink. An encoder turns a
view, and nothing else, into named flat lists of floats whose lengths depend only on
the game and its parameters. Since the input is the seat's own view, a feature can hold
nothing the seat may not see: secrecy comes from the engine, not from care here.

Every encoder starts with two fields, ``observer`` (one-hot of the seat looking) and
``to_move`` (the seats that may act), then adds its game's board and counters. Values
lie in ``[-1, high]`` of their field. No numpy here, so the module works without the
optional extras; the adapters turn the lists into arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import JsonDict
from sudoku_arena.grids.hex import HEX_NAMES, NUM_HEXES
from sudoku_arena.grids.sudoku import parse_cell

Values = list[float]


@dataclass(frozen=True, slots=True)
class Field:
    """One named feature: its shape and the largest value it takes (the least is -1)."""

    name: str
    shape: tuple[int, ...]
    high: float

    @property
    def size(self) -> int:
        n = 1
        for k in self.shape:
            n *= k
        return n


@dataclass(frozen=True, slots=True)
class Encoder:
    """The fields of one game (with its parameters) and the function filling them."""

    fields: tuple[Field, ...]
    fill: Callable[[JsonDict], dict[str, Values]]

    @property
    def size(self) -> int:
        """Length of all fields laid end to end (the OpenSpiel tensors)."""
        return sum(f.size for f in self.fields)

    def encode(self, view: JsonDict) -> dict[str, Values]:
        """The fields of ``view``, each a flat list of ``field.size`` floats."""
        out = self.fill(view)
        for f in self.fields:
            if len(out[f.name]) != f.size:  # a broken encoder must not pass silently
                raise AssertionError(f"{f.name}: {len(out[f.name])} values for {f.size}")
        return out

    def flat(self, view: JsonDict) -> Values:
        """All fields of ``view`` in declaration order, one list."""
        values = self.encode(view)
        return [x for f in self.fields for x in values[f.name]]


def one_hot(index: int | None, size: int) -> Values:
    """``size`` zeros with a 1 at ``index`` (none when ``index`` is ``None`` or -1)."""
    out = [0.0] * size
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


def seats(members: Sequence[int], n: int) -> Values:
    """A 0/1 flag per seat: is it among ``members``."""
    return [1.0 if p in members else 0.0 for p in range(n)]


def nums(values: Sequence[object]) -> Values:
    """Numbers and truth values as floats (``None`` as 0)."""
    return [float(v) if isinstance(v, int | float) else 0.0 for v in values]


def _common(view: JsonDict, n: int) -> dict[str, Values]:
    return {"observer": one_hot(view["observer"], n), "to_move": seats(view["to_move"], n)}


def _common_fields(n: int) -> list[Field]:
    return [Field("observer", (n,), 1), Field("to_move", (n,), 1)]


# -- Tic-Tac-Sudoku ------------------------------------------------------------------------

_TTS_CELLS = ("circle-open", "circle-filled", "square-open", "square-filled", "x")


def _tic_tac_sudoku(game: AnyGame) -> Encoder:
    n = game.num_players

    def fill(v: JsonDict) -> dict[str, Values]:
        cells: Values = []
        for c in v["cells"]:
            cells += one_hot(_TTS_CELLS.index(c) if c else None, len(_TTS_CELLS))
        return {
            **_common(v, n),
            "grid": nums(v["grid"]),
            "cells": cells,
            "map": [x for owner in v["map"] for x in one_hot(owner, n)],
            "scores": nums(v["scores"]),
            "stuck": nums(v["stuck"]),
            "centre_used": [float(v["centre_used"])],
            "last": one_hot(parse_cell(v["last"]) if v["last"] else None, 81),
        }

    return Encoder(
        (
            *_common_fields(n),
            Field("grid", (81,), 9),
            Field("cells", (81, len(_TTS_CELLS)), 1),
            Field("map", (9, n), 1),
            Field("scores", (n,), 1000),
            Field("stuck", (n,), 1),
            Field("centre_used", (1,), 1),
            Field("last", (81,), 1),
        ),
        fill,
    )


# -- Sudoku Warriors ----------------------------------------------------------------------

_SW_PHASES = ("place", "choose", "bid", "over")


def _sudoku_warriors(game: AnyGame) -> Encoder:
    n = game.num_players

    def fill(v: JsonDict) -> dict[str, Values]:
        symbols = [*v["players"], "x"]
        hills: Values = []
        for h in v["hilltops"]:
            hills += one_hot(symbols.index(h) if h else None, n + 1)
        b = v["battle"] or {}
        eligible: Values = []
        for q in range(n):
            mine = {parse_cell(c) for c in b["eligible"][q]} if b else set()
            eligible += [1.0 if c in mine else 0.0 for c in range(81)]
        return {
            **_common(v, n),
            "grid": nums(v["grid"]),
            "hilltops": hills,
            "control": [x for c in v["control"] for x in one_hot(c, n)],
            "spent": nums(v["spent"]),
            "owners": [x for c in v["owners"] for x in one_hot(c, n)],
            "scores": nums(v["scores"]),
            "target": [float(v["target"])],
            "phase": one_hot(_SW_PHASES.index(v["phase"]), len(_SW_PHASES)),
            "pending": [1.0 if f"b{k + 1}" in v["pending"] else 0.0 for k in range(9)],
            "battle": one_hot(int(b["province"][1:]) - 1 if b else None, 9),
            "fighters": seats(b.get("participants", ()), n),
            "active": seats(b.get("active", ()), n),
            "battle_scores": nums(b.get("scores", [0] * n)),
            "actor": one_hot(b.get("actor"), n),
            "opening": [float(b.get("opening", False))],
            "need": [float(b.get("need", 0))],
            "eligible": eligible,
        }

    return Encoder(
        (
            *_common_fields(n),
            Field("grid", (81,), 9),
            Field("hilltops", (100, n + 1), 1),
            Field("control", (81, n), 1),
            Field("spent", (81,), 1),
            Field("owners", (9, n), 1),
            Field("scores", (n,), 9),
            Field("target", (1,), 9),
            Field("phase", (len(_SW_PHASES),), 1),
            Field("pending", (9,), 1),
            Field("battle", (9,), 1),
            Field("fighters", (n,), 1),
            Field("active", (n,), 1),
            Field("battle_scores", (n,), 1000),
            Field("actor", (n,), 1),
            Field("opening", (1,), 1),
            Field("need", (1,), 1000),
            Field("eligible", (n, 81), 1),
        ),
        fill,
    )


# -- Cat Sudoku -----------------------------------------------------------------------------

_CS_PHASES = ("roll", "wild", "write", "over")


def _cat_sudoku(game: AnyGame) -> Encoder:
    n = game.num_players
    probe = game.view(game.initial_state(), None)["sheet"]
    squares = int(probe["rows"]) * int(probe["cols"])

    def fill(v: JsonDict) -> dict[str, Values]:
        counter: Values = []
        for row in v["counter"]:
            for box in row["boxes"]:
                counter.append(float(box["written"] or box["used"]))
        left: Values = []
        for d in v["left"]:
            left += [float(d["wild"]), *(float(d["plain"].count(k)) for k in range(1, 7))]
        return {
            **_common(v, n),
            "values": [float(x) for sheet in v["values"] for x in sheet],
            "dice": [float(v["dice"].count(k)) for k in range(1, 7)],
            "wild": one_hot(v["wild"] - 1 if v["wild"] else None, 6),
            "left": left,
            "counter": counter,
            "phase": one_hot(_CS_PHASES.index(v["phase"]), len(_CS_PHASES)),
            "active": one_hot(v["active"], n),
            "turn": [float(v["turn"])],
            "scores": nums(v["scores"]),
        }

    return Encoder(
        (
            *_common_fields(n),
            Field("values", (n, squares), 6),
            Field("dice", (6,), 4),
            Field("wild", (6,), 1),
            Field("left", (n, 7), 4),
            Field("counter", (2, 9), 6),
            Field("phase", (len(_CS_PHASES),), 1),
            Field("active", (n,), 1),
            Field("turn", (1,), 1000),
            Field("scores", (n,), 100),
        ),
        fill,
    )


# -- SuDokuHex ------------------------------------------------------------------------------


def _sudokuhex(game: AnyGame) -> Encoder:
    n = game.num_players
    hexes = {name: i for i, name in enumerate(HEX_NAMES)}

    def fill(v: JsonDict) -> dict[str, Values]:
        start = {hexes[h] for h in v["start"]}
        return {
            **_common(v, n),
            "board": nums(v["board"]),
            "start": [1.0 if i in start else 0.0 for i in range(NUM_HEXES)],
            "hand": one_hot(v["hand"] - 1 if v["hand"] else None, 7),
            "holding": nums(v["holding"]),
            "unseen": nums(v["unseen"]),
            "tiles_left": [float(v["tiles_left"])],
            "scores": nums(v["scores"]),
            "turn": one_hot(v["turn"], n),
            "drawing": one_hot(v["drawing"], n),
            "setup": [float(v["setup"])],
            "last": one_hot(hexes[v["last"]] if v["last"] else None, NUM_HEXES),
            "last_points": [float(v["last_points"])],
        }

    return Encoder(
        (
            *_common_fields(n),
            Field("board", (NUM_HEXES,), 7),
            Field("start", (NUM_HEXES,), 1),
            Field("hand", (7,), 1),
            Field("holding", (n,), 1),
            Field("unseen", (7,), 49),
            Field("tiles_left", (1,), 49),
            Field("scores", (n,), 10_000),
            Field("turn", (n,), 1),
            Field("drawing", (n,), 1),
            Field("setup", (1,), 1),
            Field("last", (NUM_HEXES,), 1),
            Field("last_points", (1,), 1000),
        ),
        fill,
    )


# -- Citadel --------------------------------------------------------------------------------

_CI_PHASES = ("setup", "claim", "play", "over")
#: The board planes, in order.
CITADEL_PLANES = (
    "warrior_0",  # strength of seat 0's warrior on the cell
    "warrior_1",
    "spent",  # the warrior has acted this turn
    "besieged",  # the warrior is captive or besieged
    "wall",  # strength of the wall covering the cell
    "citadel",  # a citadel stands on the cell
    "owner_0",  # ... owned by seat 0
    "owner_1",
    "controller_0",  # ... controlled by seat 0
    "controller_1",
)


def _citadel(game: AnyGame) -> Encoder:
    n = game.num_players
    size = game.params["size"]
    assert isinstance(size, int)
    columns = str(game.view(game.initial_state(), None)["columns"])

    def cell(name: str) -> int:
        # Row 1 at the bottom: plane index row * size + column, as the notation counts.
        return (int(name[1:]) - 1) * size + columns.index(name[0])

    def fill(v: JsonDict) -> dict[str, Values]:
        area = size * size
        planes = [[0.0] * area for _ in CITADEL_PLANES]
        for w in v["warriors"]:
            i = cell(w["cell"])
            planes[w["player"]][i] = float(w["strength"])
            planes[2][i] = float(w["spent"])
            planes[3][i] = float(w["besieged"])
        for wall in v["walls"]:
            for c in wall["cells"]:
                planes[4][cell(c)] = float(wall["strength"])
        for c in v["citadels"]:
            i = cell(c["cell"])
            planes[5][i] = 1.0
            if c["owner"] >= 0:
                planes[6 + c["owner"]][i] = 1.0
            if c["controller"] >= 0:
                planes[8 + c["controller"]][i] = 1.0
        return {
            **_common(v, n),
            "board": [x for plane in planes for x in plane],
            "phase": one_hot(_CI_PHASES.index(v["phase"]), len(_CI_PHASES)),
            "turn": [float(v["turn"]), float(v["max_turns"])],
            "credits": [float(v["credits"]), float(v["sieges_left"])],
            "scores": nums(v["scores"]),
            "warriors": nums(v["warrior_counts"]),
        }

    return Encoder(
        (
            *_common_fields(n),
            Field("board", (len(CITADEL_PLANES), size, size), 1000),
            Field("phase", (len(_CI_PHASES),), 1),
            Field("turn", (2,), 1_000_000),
            Field("credits", (2,), 1000),
            Field("scores", (n,), 1000),
            Field("warriors", (n,), 1000),
        ),
        fill,
    )


_ENCODERS: dict[str, Callable[[AnyGame], Encoder]] = {
    "tic-tac-sudoku": _tic_tac_sudoku,
    "sudoku-warriors": _sudoku_warriors,
    "cat-sudoku": _cat_sudoku,
    "sudokuhex": _sudokuhex,
    "citadel": _citadel,
}

#: The games with an encoder (every built-in game).
GAMES: tuple[str, ...] = tuple(_ENCODERS)


def encoder_for(game: AnyGame) -> Encoder:
    """The encoder of ``game`` with its parameters (raises ``KeyError`` for a game
    without one, naming those that have one)."""
    make = _ENCODERS.get(game.spec.id)
    if make is None:
        raise KeyError(f"no feature encoder for {game.spec.id!r}; known: {', '.join(GAMES)}")
    return make(game)
