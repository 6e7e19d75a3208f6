"""SuDokuHex's value features: a position as numbers, for a learned evaluation.

The contract (``VERSION``, ``feature_size``, ``value_features`` from the mover's point
of view, ``symmetries``) is stated in :mod:`sudoku_arena.games.tic_tac_sudoku.features`.
"Mine" is the seat to move, "theirs" the other seat: learned evaluations are for two
seats (the AI layer refuses others), so the opponent is the next seat.

Secrecy (SH-6). The features are a function of what the mover sees and nothing else:
the board, the scores, his own tile, whether the other seat holds a tile, and the
*unseen* counts (``game.unseen_counts(state, mover)``: the pile and the other hand
together). They never read ``state.pile`` (the pile without the other hand would tell
the other hand) nor another seat's tile. So every deal of the unseen tiles that
``game.determinize(state, mover, rng)`` can make gives the same features as the true
state: the search evaluates determinised states, the trainer records the true one (or
a deal of it), and both see the same numbers.

Only decision states have features (a seat is to move); the setup and the draws are
chance nodes, and a finished game has nobody to move: ``ValueError`` for those.

The layout (:data:`FIELDS`), 836 floats, each 0 or 1 unless said:

* ``tiles``: seven planes of 49 hexes (number 1 first; hexes in index order, ``A0`` to
  ``G6``): the hexes holding that number. Tiles belong to nobody once placed (they
  score for whoever lines up with them, SH-4), so there is no owner plane; starting
  tiles are tiles like the others;
* ``open``: seven planes of 49: the hexes where that number may go now (SH-4: empty,
  its honeycomb and its three lines free of it; the game's ``blocked`` masks);
* ``points``: per empty hex, the points a tile placed there scores now (SH-4), over 18
  (the most: three lines of seven hexes); 0 on occupied hexes;
* ``my_open``: the hexes where my tile may go (the ``open`` plane of my number);
* ``my_tile``: my number, one-hot (7);
* per number (7 each): ``unseen`` (tiles I have not seen, over 7); ``room`` (hexes open
  to it, over 49); ``dead`` (no hex left: whoever must play it ends the game, SH-5);
  ``last_hex`` (exactly one hex left); ``best`` (the most it scores now, over 18);
* ``scores``: mine and theirs, over 381 (the most a whole game can score, SH-5);
* ``handwritten``: the hand-written evaluation (``search.evaluate``) for me: a
  logistic of the lead;
* ``my_best``: the most my tile scores now, over 18;
* ``their_expected``: the expected best score of a tile drawn from my unseen counts
  (the other seat's tile as far as I know), over 18;
* ``their_dead``: the chance, from my unseen counts, that the other seat's tile has
  no hex (0 when he holds none);
* ``tiles_left``: the pile's size over 42 (public: the unseen count less the other
  hands); ``odd_left``: that size is odd (who gets the last placements);
* ``their_tile``: the other seat holds a tile (none once the pile ran out and he has
  played his last); ``mover_is_red``: I am seat 0, who played first.

Symmetries. Two kinds map SuDokuHex onto itself, and :func:`symmetries` gives their
42 combinations. (1) The six rotations of the board about ``A0`` (60 degrees at a
time): they map the board onto itself, each honeycomb onto a honeycomb and each line
onto a line (a rotation keeps straight rows straight and the board maximal), so the
placement rule, the scoring and the setup (a uniform hex of a honeycomb without a
starting tile, SH-2) are unchanged. There are no mirror symmetries: the seven
honeycombs sit on the board turned (centre ``B`` is at ``(2, 1)``, and a mirror takes it
to ``(1, 2)``, no centre), so a mirror image is another board. (2) Renaming the
numbers: the rules treat the seven numbers alike (seven tiles of each, one starting
tile of each, every setup equally likely), so a permutation of 1..7 applied to the
board, the hands and the pile gives an equivalent position; :func:`symmetries` uses the
seven cyclic shifts ``v -> v + k`` (mod 7), all 5,040 permutations being far more
than a training run needs. Hex planes move with the rotation; per-number fields and the
planes of each number move with the renaming; the rest stays.

Pure Python, no NumPy; computed at every leaf of the search, so masks are turned into
floats seven hexes (one honeycomb) at a time from a table.
"""

from __future__ import annotations

from typing import Final

from sudoku_arena.games.sudokuhex.game import COPIES, MAX_TOTAL_SCORE, NUMBERS, HexState, SuDokuHex
from sudoku_arena.games.sudokuhex.search import evaluate as handwritten
from sudoku_arena.grids.hex import (
    ALL_HEXES_MASK,
    COORD_INDEX,
    HEX_COORDS,
    LINE_PEERS_MASK,
    NUM_HEXES,
    bits,
    placement_points,
)

VERSION: Final = "sudokuhex/1"

#: The fields in order, with their sizes.
FIELDS: Final[tuple[tuple[str, int], ...]] = (
    ("tiles", NUMBERS * NUM_HEXES),
    ("open", NUMBERS * NUM_HEXES),
    ("points", NUM_HEXES),
    ("my_open", NUM_HEXES),
    ("my_tile", NUMBERS),
    ("unseen", NUMBERS),
    ("room", NUMBERS),
    ("dead", NUMBERS),
    ("last_hex", NUMBERS),
    ("best", NUMBERS),
    ("scores", 2),
    ("handwritten", 1),
    ("my_best", 1),
    ("their_expected", 1),
    ("their_dead", 1),
    ("tiles_left", 1),
    ("odd_left", 1),
    ("their_tile", 1),
    ("mover_is_red", 1),
)
SIZE: Final = sum(n for _, n in FIELDS)

#: How each field moves under a symmetry: ``number_planes`` (a plane of hexes per
#: number), ``hexes`` (one plane), ``numbers`` (one float per number), or not at all.
_KIND: Final[dict[str, str]] = {
    "tiles": "number_planes",
    "open": "number_planes",
    "points": "hexes",
    "my_open": "hexes",
    "my_tile": "numbers",
    "unseen": "numbers",
    "room": "numbers",
    "dead": "numbers",
    "last_hex": "numbers",
    "best": "numbers",
}

#: The most points one placement can score: three lines of seven hexes through it.
_MOST_POINTS: Final = max(m.bit_count() for m in LINE_PEERS_MASK)
#: The pile after the setup: every tile but the seven starting ones.
_FULL_PILE: Final = NUMBERS * COPIES - NUMBERS
#: A honeycomb's 7 bits (bit k is the hex at position k) as 7 floats: a 49-bit mask is
#: seven look-ups, since hexes are indexed honeycomb by honeycomb.
_CHUNK_FLOATS: Final[tuple[tuple[float, ...], ...]] = tuple(
    tuple(float(m >> k & 1) for k in range(7)) for m in range(128)
)
_ZERO_TILES: Final = (0.0,) * (NUMBERS * NUM_HEXES)
_ONE_HOT: Final[tuple[tuple[float, ...], ...]] = tuple(
    tuple(1.0 if k == v else 0.0 for k in range(NUMBERS)) for v in range(NUMBERS)
)


def feature_size(game: SuDokuHex) -> int:
    """How many floats :func:`value_features` returns."""
    return SIZE


def _mask_floats(out: list[float], mask: int) -> None:
    """Append the 49 hexes of ``mask`` as floats, in hex index order."""
    table = _CHUNK_FLOATS
    for k in range(0, NUM_HEXES, 7):
        out.extend(table[mask >> k & 127])


def value_features(game: SuDokuHex, s: HexState) -> list[float]:
    """The :data:`FIELDS` of ``s`` as the seat to move sees them: his own tile, the
    board, the scores and his unseen counts, never the other hand nor the pile.

    Raises ``ValueError`` at a chance node or a finished game (nobody is to move)."""
    tm = game.to_move(s)
    if not tm.is_decision:
        raise ValueError(
            "value_features: nobody is to move (a chance node or a finished game); "
            "features describe a position for the seat to move"
        )
    p = tm.players[0]
    q = (p + 1) % game.num_players
    mine = s.hands[p]
    # What p has not seen: the pile and the other hand together (SH-6). Reading
    # s.pile instead would leak the other hand (it is the unseen count less his tile).
    unseen = game.unseen_counts(s, p)
    holding = 1 if s.hands[q] else 0
    blocked = s.blocked
    occupied = s.occupied
    most = float(_MOST_POINTS)

    out = list(_ZERO_TILES)
    for h, v in enumerate(s.board):
        if v:
            out[(v - 1) * NUM_HEXES + h] = 1.0
    opens = [~b & ALL_HEXES_MASK for b in blocked]
    for m in opens:
        _mask_floats(out, m)
    # What a tile scores on each hex now (SH-4); occupied hexes take nothing.
    pts = [placement_points(occupied, h) for h in range(NUM_HEXES)]
    out += [0.0 if occupied >> h & 1 else x / most for h, x in enumerate(pts)]
    _mask_floats(out, opens[mine - 1])
    out += _ONE_HOT[mine - 1]

    out += [c / COPIES for c in unseen]
    room = [m.bit_count() for m in opens]
    out += [r / NUM_HEXES for r in room]
    out += [1.0 if r == 0 else 0.0 for r in room]
    out += [1.0 if r == 1 else 0.0 for r in room]
    best = [max([pts[h] for h in bits(m)], default=0) for m in opens]
    out += [b / most for b in best]

    out.append(s.scores[p] / MAX_TOTAL_SCORE)
    out.append(s.scores[q] / MAX_TOTAL_SCORE)
    out.append(handwritten(game, s)[p])
    out.append(best[mine - 1] / most)
    total = sum(unseen)
    if total:
        expected = sum(c * b for c, b in zip(unseen, best, strict=True)) / total
        dead = sum(c for c, r in zip(unseen, room, strict=True) if r == 0) / total
    else:
        expected = dead = 0.0
    out.append(expected / most)
    out.append(dead if holding else 0.0)
    # The pile's size is public: what p has not seen, less the tile the other holds.
    left = total - holding
    out.append(left / _FULL_PILE)
    out.append(float(left % 2))
    out.append(float(holding))
    out.append(1.0 if p == 0 else 0.0)
    return out


# -- symmetries ---------------------------------------------------------------------------


def _rotate(coord: tuple[int, int]) -> tuple[int, int]:
    """Axial ``(q, r)`` turned 60 degrees clockwise on screen about ``A0``."""
    q, r = coord
    return (-r, q + r)


def hex_rotations() -> list[list[int]]:
    """The six rotations of the board as hex maps: ``maps[k][h]`` is where hex ``h``
    goes when the board turns ``k`` times 60 degrees (``maps[0]`` the identity)."""
    maps = [list(range(NUM_HEXES))]
    for _ in range(5):
        prev = maps[-1]
        maps.append([COORD_INDEX[_rotate(HEX_COORDS[prev[h]])] for h in range(NUM_HEXES)])
    return maps


def number_shifts() -> list[list[int]]:
    """The seven renamings of the numbers used as symmetries: ``maps[k][v - 1]`` is
    the new name of number ``v``, ``v + k`` (mod 7, in 1..7)."""
    return [[(v + k) % NUMBERS + 1 for v in range(NUMBERS)] for k in range(NUMBERS)]


def _sources(forward: list[int]) -> list[int]:
    """The inverse of a map: for each new index, the index it came from."""
    src = [0] * len(forward)
    for i, j in enumerate(forward):
        src[j] = i
    return src


def symmetries(game: SuDokuHex) -> list[list[int]]:
    """Feature permutations for the six rotations times the seven number shifts (see the
    module docstring), the identity first: ``[f[i] for i in perm]`` are the features of
    the rotated and renamed position."""
    perms = []
    for turn in hex_rotations():
        hex_src = _sources(turn)
        for shift in number_shifts():
            # New number w reads old number num_src[w] (both 0-based here).
            num_src = _sources([w - 1 for w in shift])
            perm: list[int] = []
            start = 0
            for name, size in FIELDS:
                kind = _KIND.get(name)
                if kind == "number_planes":
                    perm += [
                        start + num_src[w] * NUM_HEXES + hex_src[h]
                        for w in range(NUMBERS)
                        for h in range(NUM_HEXES)
                    ]
                elif kind == "hexes":
                    perm += [start + hex_src[h] for h in range(NUM_HEXES)]
                elif kind == "numbers":
                    perm += [start + num_src[w] for w in range(NUMBERS)]
                else:
                    perm += range(start, start + size)
                start += size
            perms.append(perm)
    return perms
