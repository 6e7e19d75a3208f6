"""The SuDokuHex board geometry (SH-1): honeycombs, lines, hex names."""

from __future__ import annotations

import itertools

import pytest

from sudoku_arena.core.errors import NotationError
from sudoku_arena.grids.hex import (
    COORD_INDEX,
    HEX_COORDS,
    HEX_NAMES,
    HONEYCOMB_CENTRES,
    HONEYCOMB_HEXES,
    HONEYCOMB_OF,
    LINE_DIRECTION,
    LINE_PEERS_MASK,
    LINES,
    LINES_THROUGH,
    NEIGHBOURS,
    PEERS_MASK,
    bits,
    hex_center,
    hex_corners,
    hex_name,
    line_name,
    parse_hex,
)

AXIAL_DIRS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def names(hexes: object) -> list[str]:
    return [HEX_NAMES[h] for h in hexes]  # type: ignore[attr-defined]


def test_49_distinct_hexes_in_seven_honeycombs() -> None:
    assert len(HEX_COORDS) == 49
    assert len(set(HEX_COORDS)) == 49
    assert HONEYCOMB_CENTRES == (
        (0, 0), (2, 1), (-1, 3), (-3, 2), (-2, -1), (1, -3), (3, -2)
    )  # fmt: skip
    for hc, hexes in enumerate(HONEYCOMB_HEXES):
        cq, cr = HONEYCOMB_CENTRES[hc]
        assert HEX_COORDS[hexes[0]] == (cq, cr)
        ring = {HEX_COORDS[h] for h in hexes[1:]}
        assert ring == {(cq + dq, cr + dr) for dq, dr in AXIAL_DIRS}
        assert all(HONEYCOMB_OF[h] == hc for h in hexes)


def test_positions_go_clockwise_from_the_east() -> None:
    # Position 1 is east of the centre, 2 south-east, ... 6 north-east (screen y down).
    c = hex_center(parse_hex("A0"))
    expected_angles = [0, 60, 120, 180, 240, 300]
    import math

    for pos, want in zip(range(1, 7), expected_angles, strict=True):
        x, y = hex_center(parse_hex(f"A{pos}"))
        angle = math.degrees(math.atan2(y - c[1], x - c[0])) % 360
        assert abs(angle - want) < 1e-6


def test_27_lines_with_lengths_2_5_7_7_7_7_7_5_2_per_direction() -> None:
    assert len(LINES) == 27
    for d in range(3):
        lengths = [len(ln) for ln, dd in zip(LINES, LINE_DIRECTION, strict=True) if dd == d]
        assert lengths == [2, 5, 7, 7, 7, 7, 7, 5, 2]


def test_lines_are_maximal_straight_rows_without_gaps() -> None:
    step = {0: (1, 0), 1: (0, 1), 2: (-1, 1)}
    for ln, d in zip(LINES, LINE_DIRECTION, strict=True):
        dq, dr = step[d]
        for a, b in itertools.pairwise(ln):
            qa, ra = HEX_COORDS[a]
            assert HEX_COORDS[b] == (qa + dq, ra + dr)
        q0, r0 = HEX_COORDS[ln[0]]
        q1, r1 = HEX_COORDS[ln[-1]]
        assert (q0 - dq, r0 - dr) not in COORD_INDEX
        assert (q1 + dq, r1 + dr) not in COORD_INDEX


def test_every_hex_on_three_lines_and_two_hexes_share_at_most_one() -> None:
    for h in range(49):
        through = LINES_THROUGH[h]
        assert sorted(LINE_DIRECTION[j] for j in through) == [0, 1, 2]
        assert all(h in LINES[j] for j in through)
        assert sum(1 for ln in LINES if h in ln) == 3
    for a, b in itertools.combinations(range(49), 2):
        shared = set(LINES_THROUGH[a]) & set(LINES_THROUGH[b])
        assert len(shared) <= 1


def test_known_lines() -> None:
    a0 = [names(LINES[j]) for j in LINES_THROUGH[parse_hex("A0")]]
    assert a0 == [
        ["E3", "E2", "A4", "A0", "A1", "B5", "B6"],
        ["F4", "F3", "A5", "A0", "A2", "C6", "C1"],
        ["G5", "G4", "A6", "A0", "A3", "D1", "D2"],
    ]
    b1 = [names(LINES[j]) for j in LINES_THROUGH[parse_hex("B1")]]
    assert b1 == [
        ["D5", "D6", "A3", "A2", "B4", "B0", "B1"],
        ["G5", "G0", "G2", "B6", "B1"],
        ["B1", "B2"],
    ]
    assert (
        line_name(LINES_THROUGH[parse_hex("B1")][2]) == "northeast-southwest line B1-B2 (2 hexes)"
    )


def test_two_hex_lines_lie_inside_one_honeycomb() -> None:
    # So a number refused by a 2-hex line is always refused by its honeycomb first.
    short = [ln for ln in LINES if len(ln) == 2]
    assert len(short) == 6
    assert all(HONEYCOMB_OF[a] == HONEYCOMB_OF[b] for a, b in short)


def test_peer_masks() -> None:
    a0 = parse_hex("A0")
    assert LINE_PEERS_MASK[a0].bit_count() == 18  # three full lines of 7
    for h in range(49):
        line_peers = {x for j in LINES_THROUGH[h] for x in LINES[j]} - {h}
        assert set(bits(LINE_PEERS_MASK[h])) == line_peers
        assert set(bits(PEERS_MASK[h])) == line_peers | (
            set(HONEYCOMB_HEXES[HONEYCOMB_OF[h]]) - {h}
        )


def test_neighbours() -> None:
    assert len(NEIGHBOURS[parse_hex("A0")]) == 6
    assert sorted(names(NEIGHBOURS[parse_hex("B1")])) == ["B0", "B2", "B6"]
    for h in range(49):
        for n in NEIGHBOURS[h]:
            assert h in NEIGHBOURS[n]


def test_names_round_trip_and_tolerate_case_and_spaces() -> None:
    for i in range(49):
        assert parse_hex(hex_name(i)) == i
    assert parse_hex(" c 4 ") == parse_hex("C4") == 7 * 2 + 4
    assert HEX_NAMES[0] == "A0" and HEX_NAMES[48] == "G6"


@pytest.mark.parametrize("bad", ["", "H1", "A7", "A", "4", "AA1", "r1c1", "C-1"])
def test_bad_names_are_refused_with_the_format(bad: str) -> None:
    with pytest.raises(NotationError, match="honeycomb letter A-G"):
        parse_hex(bad)


def test_corners_make_a_regular_hexagon() -> None:
    cx, cy = hex_center(5, 10.0)
    corners = hex_corners(5, 10.0)
    assert len(corners) == 6
    for x, y in corners:
        assert abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - 10.0) < 1e-9
    # Neighbouring hexes are sqrt(3) radii apart.
    a, b = parse_hex("A0"), parse_hex("A1")
    (xa, ya), (xb, yb) = hex_center(a), hex_center(b)
    assert abs(((xa - xb) ** 2 + (ya - yb) ** 2) ** 0.5 - 3**0.5) < 1e-9
