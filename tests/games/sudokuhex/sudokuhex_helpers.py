"""Building SuDokuHex positions for tests: scenarios in notation and crafted states.

The board of the main scenario (``SETUP`` then ``A0``, ``B2``, ``B1``), starting tiles
in brackets::

              F5  F6
            F4  F0  F1  G5  G6             G5 = [3]
      E5  E6  F3  F2  G4  G0  G1           F3 = [2]
    E4  E0  E1  A5  A6  G3  G2             E2 = [1], A0 = 4, A1 = [7]
      E3  E2  A4  A0  A1  B5  B6
        D5  D6  A3  A2  B4  B0  B1         B0 = [4], B1 = 5
      D4  D0  D1  C5  C6  B3  B2           B2 = 2
        D3  D2  C4  C0  C1                 D3 = [6]
                  C3  C2                   C3 = [5]
"""

from __future__ import annotations

import random
from typing import Any

from sudoku_arena.core.match import sample_chance
from sudoku_arena.games.sudokuhex.game import HexState, SuDokuHex

#: Starting tiles, one per honeycomb, then the opening deal of a two-player game
#: (red draws a 4, blue a 2).
SETUP = [
    "start 1 E2",
    "start 2 F3",
    "start 3 G5",
    "start 4 B0",
    "start 5 C3",
    "start 6 D3",
    "start 7 A1",
    "draw 4",
    "draw 2",
]

#: Two players take turns placing 7s until the pile has none; blue keeps the last 7.
SEVENS = [
    *SETUP[:7],
    "draw 7",
    "draw 7",
    "G4",
    "draw 7",
    "F4",
    "draw 7",
    "E4",
    "draw 7",
    "D6",
    "draw 7",
    "C2",
]

#: A solo game that ends when the drawn 7 has no legal hex: five 7s already cover
#: every free hex of the honeycombs without a 7.
SOLO_STUCK = [
    "start 1 A0",
    "start 2 G6",
    "start 3 F4",
    "start 4 D0",
    "start 5 B0",
    "start 6 E5",
    "start 7 C6",
    "draw 7",
    "E2",
    "draw 7",
    "G5",
    "draw 7",
    "F5",
    "draw 7",
    "D3",
    "draw 7",
]

#: A complete board that keeps the Sudoku rule: every honeycomb reads 4 2 7 6 5 3 1 in
#: positions 0..6 (the board is a translation-invariant 7-colouring).
FULL_BOARD = "4276531" * 7


def play(game: SuDokuHex, moves: list[str], s: HexState | None = None) -> HexState:
    """Apply ``moves`` in notation: chance outcomes as chance, others by the mover."""
    if s is None:
        s = game.initial_state()
    for text in moves:
        tm = game.to_move(s)
        player = None if tm.is_chance else tm.players[0]
        s = game.apply(s, game.parse_action(text), player)
    return s


def random_states(game: SuDokuHex, seed: int, stride: int = 1) -> list[HexState]:
    """Every ``stride``-th state of one random game (chance included), end included."""
    rng = random.Random(seed)
    s = game.initial_state()
    out = [s]
    k = 0
    while not game.to_move(s).is_terminal:
        tm = game.to_move(s)
        if tm.is_chance:
            a: Any = sample_chance(game, s, rng)
            s = game.apply(s, a, None)
        else:
            p = tm.players[0]
            s = game.apply(s, rng.choice(list(game.legal_actions(s, p))), p)
        k += 1
        if k % stride == 0:
            out.append(s)
    if out[-1] is not s:
        out.append(s)
    return out


def full_board_state(
    game: SuDokuHex, empty: str, hands: list[int], scores: list[int], turn: int
) -> HexState:
    """A state on ``FULL_BOARD`` with the hexes named in ``empty`` (space-separated)
    emptied and an empty pile; ``hands`` must hold exactly the emptied numbers.

    Starting tile ``v`` lies in honeycomb ``v mod 7`` (B..G, then A) where the full
    board has a ``v``.
    """
    from sudoku_arena.grids.hex import HEX_NAMES, parse_hex

    board = list(FULL_BOARD)
    for name in empty.split():
        board[parse_hex(name)] = "0"
    start = []
    for v in range(1, 8):
        hc = v % 7
        pos = FULL_BOARD[:7].index(str(v))
        start.append(HEX_NAMES[7 * hc + pos])
    return game.load_state(
        {
            "board": "".join(board),
            "start": start,
            "hands": hands,
            "pile": [0] * 7,
            "scores": scores,
            "turn": turn,
            "drawer": -1,
            "last": None,
            "last_points": 0,
            "end": "",
        }
    )
