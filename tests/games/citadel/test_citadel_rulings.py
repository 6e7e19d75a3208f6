"""One or more tests per ruling CI-1..10, on positions drawn as diagrams.

Diagrams list rows top first: ``B``/``R`` blue (seat 0) / red (seat 1) warriors,
``B*``/``R*`` a warrior on its own citadel, ``o``/``b``/``r`` an empty neutral / blue /
red citadel, ``#`` wall cells (2x2 per wall), ``.`` empty.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sudoku_arena.core.errors import IllegalActionError, InvalidParameterError, NotationError
from sudoku_arena.games.citadel.rules import NUM_ACTIONS

sys.path.insert(0, str(Path(__file__).parent))
from citadel_helpers import (
    NINE_BY_NINE_SITES,
    SEED_EXAMPLE,
    cell,
    game,
    legal,
    play,
    position,
    setup_9x9,
    warrior,
)

# -- CI-1 board ------------------------------------------------------------------------------


def test_ci_1_go_board_names_columns_without_i() -> None:
    g = game()
    assert g.size == 19
    assert (g.geo.name(0), g.geo.name(18), g.geo.name(360)) == ("a1", "t1", "t19")
    assert g.geo.cell("b13") == 12 * 19 + 1
    assert g.view(g.initial_state(), None)["columns"] == "abcdefghjklmnopqrst"
    with pytest.raises(NotationError, match="no column i"):
        g.parse_action("citadel i5")


def test_ci_1_size_option_and_stable_indices() -> None:
    g13 = game(size=13)
    assert g13.geo.name(12) == "n1" and g13.geo.name(168) == "n13"
    for bad in (8, 20, "big"):
        with pytest.raises(InvalidParameterError):
            game(size=bad)
    assert game(size=13).parse_action("b13-c13") == game().parse_action("b13-c13")
    with pytest.raises(IllegalActionError, match="off the 13x13 board"):
        g13.apply(g13.initial_state(), g13.parse_action("citadel q15"))


# -- CI-2 setup ------------------------------------------------------------------------------


def test_ci_2_citadels_two_cells_in_and_never_touching() -> None:
    g = game()
    s = g.initial_state()
    spots = legal(g, s)
    assert len(spots) == 15 * 15
    assert {"citadel c3", "citadel r17", "citadel k10"} <= spots
    assert not {"citadel b5", "citadel s10", "citadel k2", "citadel k18"} & spots
    with pytest.raises(IllegalActionError, match="too near the edge"):
        g.apply(s, g.parse_action("citadel b10"))
    s = play(g, s, ["citadel k10"])
    assert g.to_move(s).players == (1,)
    for near in ("j9", "k11", "l11", "l10", "j10"):
        with pytest.raises(IllegalActionError, match="touches the citadel on k10"):
            g.apply(s, g.parse_action(f"citadel {near}"))
    with pytest.raises(IllegalActionError, match="already a citadel"):
        g.apply(s, g.parse_action("citadel k10"))
    s = play(g, s, ["citadel m10", "citadel c3", "citadel c17", "citadel r3", "citadel r17"])
    s = play(g, s, ["citadel f6", "citadel p14"])
    assert g.view(s, None)["phase"] == "setup" and g.to_move(s).players == (0,)
    s = play(g, s, ["citadel e12"])  # the ninth, by seat 0
    v = g.view(s, None)
    assert v["phase"] == "claim" and len(v["citadels"]) == 9
    assert all(c["owner"] == -1 for c in v["citadels"])


def test_ci_2_small_board_keeps_room_for_nine() -> None:
    g = game(size=9)
    s = g.initial_state()
    assert legal(g, s) == {f"citadel {c}" for c in NINE_BY_NINE_SITES}
    s = play(g, s, ["citadel c3"])
    assert legal(g, s) == {f"citadel {c}" for c in NINE_BY_NINE_SITES[1:]}
    with pytest.raises(IllegalActionError, match="would not fit"):
        g.apply(g.initial_state(), g.parse_action("citadel d4"))


# -- CI-3 claims -----------------------------------------------------------------------------


def test_ci_3_seat_1_claims_first_three_each_and_warriors_appear() -> None:
    g = game(size=9)
    s = play(g, g.initial_state(), [f"citadel {c}" for c in NINE_BY_NINE_SITES])
    assert g.to_move(s).players == (1,)
    assert legal(g, s) == {f"claim {c}" for c in NINE_BY_NINE_SITES}
    s = play(g, s, ["claim e5"])
    assert cell(g, s, "e5") == 2 and g.to_move(s).players == (0,)
    with pytest.raises(IllegalActionError, match="already claimed"):
        g.apply(s, g.parse_action("claim e5"))
    with pytest.raises(IllegalActionError, match="not a citadel"):
        g.apply(s, g.parse_action("claim d4"))
    with pytest.raises(IllegalActionError, match="claim"):
        g.apply(s, g.parse_action("end"))
    s = play(g, s, ["claim c3", "claim g7", "claim e3", "claim e7", "claim g3"])
    v = g.view(s, None)
    assert v["phase"] == "play" and v["to_move"] == [0] and v["credits"] == 3
    owners = {c["cell"]: c["owner"] for c in v["citadels"]}
    assert sorted(c for c, o in owners.items() if o == 1) == ["e5", "e7", "g7"]
    assert sorted(c for c, o in owners.items() if o == 0) == ["c3", "e3", "g3"]
    assert sorted(c for c, o in owners.items() if o == -1) == ["c5", "c7", "g5"]
    for c, o in owners.items():
        assert cell(g, s, c) == (o + 1 if o >= 0 else 0)


# -- CI-4 walls ------------------------------------------------------------------------------

WALL_POS = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . B . . o . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_ci_4_a_wall_fills_a_2x2_block_nobody_enters() -> None:
    g = game(size=9)
    s = position(g, WALL_POS, credits=3)
    s = play(g, s, ["wall d3"])
    v = g.view(s, None)
    assert v["walls"] == [{"square": "d3", "cells": ["d3", "e3", "d4", "e4"], "strength": 1}]
    assert v["credits"] == 2
    with pytest.raises(IllegalActionError, match="holds a wall"):
        g.apply(s, g.parse_action("c3-d3"))
    with pytest.raises(IllegalActionError, match="not empty"):
        g.apply(s, g.parse_action("wall c4"))  # overlaps the wall on d4
    with pytest.raises(IllegalActionError, match="citadels"):
        g.apply(s, g.parse_action("wall f2"))  # the block holds the citadel f3
    with pytest.raises(IllegalActionError, match="not empty"):
        g.apply(s, g.parse_action("wall b2"))  # the block holds the warrior c3
    with pytest.raises(IllegalActionError, match="leave the board"):
        g.apply(s, g.parse_action("wall j8"))
    with pytest.raises(IllegalActionError, match="touch one of your warriors"):
        g.apply(s, g.parse_action("wall g7"))


# -- CI-5 strength ---------------------------------------------------------------------------

STRENGTH_POS = """
. . . . . . . . .
. B . . . . . . .
B B B . . . . . .
. B . . . R . . .
. . . . . . . . .
. . . . # # . . .
. . . . # # B* B .
# # # # . . . . .
# # # # . . . . .
"""


def test_ci_5_warrior_and_wall_strengths() -> None:
    g = game(size=9)
    s = position(g, STRENGTH_POS)
    strengths = {w["cell"]: w["strength"] for w in g.view(s, None)["warriors"]}
    assert strengths["b7"] == 5 and strengths["a7"] == 2 and strengths["b6"] == 2
    assert strengths["f6"] == 1
    assert strengths["g3"] == 3  # one friend, plus one on a citadel
    assert strengths["h3"] == 2
    walls = {w["square"]: w["strength"] for w in g.view(s, None)["walls"]}
    assert walls == {"a1": 2, "c1": 2, "e3": 1}  # e3 touches c1 only at a corner
    # A block two rows up and one column over touches (d4-e4 under e5).
    near = g.geo.near_squares[g.geo.cell("d2")]
    assert g.geo.cell("e4") in near and g.geo.cell("f4") not in near


def test_ci_5_arrival_strength_is_the_strength_after_the_step() -> None:
    # What the bots weigh before a step: the strength the warrior will have where it
    # arrives, which must be the strength the rules give it once it stands there.
    g = game()
    s = position(g, SEED_EXAMPLE, credits=3)
    cits = g.citadel_set(s)
    b13, c13 = g.geo.cell("b13"), g.geo.cell("c13")
    assert g.geo.arrival_strength(s.board, b13, c13, cits) == 2  # next to c12
    after = play(g, s, ["b13-c13"])
    assert g.strength(after, c13) == 2
    # The mover does not count itself as its own friend at the new cell.
    assert g.geo.arrival_strength(s.board, g.geo.cell("c12"), c13, cits) == 2


def test_ci_5_seed_example_b13_c13_then_capture_at_2_against_1() -> None:
    g = game()
    s = position(g, SEED_EXAMPLE, credits=3)
    assert warrior(g, s, "b13") == {
        "cell": "b13",
        "player": 0,
        "strength": 1,
        "spent": False,
        "besieged": False,
    }
    assert "b13xd13" not in legal(g, s)
    s = play(g, s, ["b13-c13"])
    assert warrior(g, s, "c13")["strength"] == 2  # type: ignore[index]
    assert warrior(g, s, "d13")["strength"] == 1  # type: ignore[index]
    s = play(g, s, ["c13xd13"])
    assert warrior(g, s, "d13") is None
    assert warrior(g, s, "c13")["spent"] is True  # type: ignore[index]
    assert warrior(g, s, "c12")["spent"] is True  # type: ignore[index]
    assert g.view(s, None)["credits"] == 2  # the step cost 1, the attack nothing


# -- CI-6 turns ------------------------------------------------------------------------------

CREDITS_POS = """
. . . . . . . r .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . B* . . . .
. . . . . . . . .
. . b . . . b . .
. . . . . . . . .
. . . . . . . R* .
"""


def test_ci_6_credits_pay_for_actions_and_unspent_ones_are_lost() -> None:
    g = game(size=9)
    s = position(g, CREDITS_POS)
    assert s.credits == 3
    s = play(g, s, ["+e6"])
    assert s.credits == 1
    assert not any(a.startswith("+") for a in legal(g, s))
    with pytest.raises(IllegalActionError, match="costs 2 credits"):
        g.apply(s, g.parse_action("+e4"))
    s = play(g, s, ["e6-e7"])
    assert s.credits == 0
    with pytest.raises(IllegalActionError, match="no credit left"):
        g.apply(s, g.parse_action("e7-e8"))
    assert legal(g, s) == {"end"}
    s = play(g, s, ["end"])  # red: two citadels, two credits
    assert s.current == 1 and s.credits == 2
    s = play(g, s, ["end", "end"])
    assert s.current == 1 and s.credits == 2  # not 4: unspent credits are lost
    s = play(g, s, ["end"])
    assert s.current == 0 and s.credits == 3


def test_ci_6_attack_at_equal_strength_both_die_and_stronger_is_refused() -> None:
    g = game(size=9)
    s = position(
        g,
        "\n".join(
            [". . . . . . . . ."] * 5
            + [". . R . . . . . ."]
            + [". B R . . . . . ."]
            + [". . . . . . . . ."] * 2
        ),
    )
    with pytest.raises(IllegalActionError, match="strength 1 cannot attack strength 2"):
        g.apply(s, g.parse_action("b3xc3"))
    s = position(
        g, "\n".join([". . . . . . . . ."] * 6 + [". B R . . . . . ."] + [". . . . . . . . ."] * 2)
    )
    s = play(g, s, ["b3xc3"])
    assert cell(g, s, "b3") == 0 and cell(g, s, "c3") == 0
    assert s.credits == 0  # attacks are free


SPENT_POS = """
. . . . . . . . .
. . . . . . . . .
. . R B . . . . .
. . B . . . . . .
. . B R . . . . .
. . R . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_ci_6_attacker_and_its_friends_may_not_attack_again() -> None:
    g = game(size=9)
    s = position(g, SPENT_POS, credits=3)
    s = play(g, s, ["c5xd5"])  # strength 2 (friend c6) against 1
    assert cell(g, s, "d5") == 0 and cell(g, s, "c5") == 1
    assert "c5xc4" not in legal(g, s)
    with pytest.raises(IllegalActionError, match="may not attack again"):
        g.apply(s, g.parse_action("c5xc4"))  # the attacker itself
    with pytest.raises(IllegalActionError, match="may not attack again"):
        g.apply(s, g.parse_action("c6xc7"))  # its friend next to it
    s = play(g, s, ["d7xc7"])  # a friend that was not next to the attacker may
    assert cell(g, s, "c7") == 0 and cell(g, s, "d7") == 0
    s = play(g, s, ["c5-d5"])
    assert warrior(g, s, "d5")["spent"] is True  # type: ignore[index]
    s = play(g, s, ["end", "end"])
    assert s.current == 0 and not s.spent  # a new turn frees everybody


def test_ci_6_raze_a_wall_stronger_or_equal_and_equal_costs_the_warrior() -> None:
    g = game(size=9)
    rows = [". . . . . . . . ."] * 9
    stronger = [*rows[:5], ". . B # # . . . .", ". . B # # . . . .", *rows[7:]]
    s = position(g, "\n".join(stronger), credits=2)
    s = play(g, s, ["raze d3 c3"])
    assert g.view(s, None)["walls"] == [] and cell(g, s, "c3") == 1 and s.credits == 1
    equal = [*rows[:5], ". . . # # . . . .", ". . B # # . . . .", *rows[7:]]
    s = position(g, "\n".join(equal), credits=2)
    s = play(g, s, ["raze d3 c3"])
    assert g.view(s, None)["walls"] == [] and cell(g, s, "c3") == 0  # the warrior dies too
    weaker = [*rows[:5], ". . . # # # # . .", ". . B # # # # . .", *rows[7:]]
    s = position(g, "\n".join(weaker), credits=2)
    with pytest.raises(IllegalActionError, match="strength 1 cannot raze a wall of strength 2"):
        g.apply(s, g.parse_action("raze d3 c3"))


SIEGE_POS = """
R R R B . . . . .
B B B . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . R . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_ci_6_group_without_liberties_loses_two_warriors_per_turn_not_a_third() -> None:
    g = game(size=9)
    s = position(g, SIEGE_POS)
    assert {"siege a9", "siege b9", "siege c9"} <= legal(g, s)
    assert "siege f5" not in legal(g, s)
    with pytest.raises(IllegalActionError, match="liberties"):
        g.apply(s, g.parse_action("siege f5"))
    s = play(g, s, ["siege b9"])
    # a9 and c9 now touch the emptied b9, but their group was besieged this turn.
    assert legal(g, s) >= {"siege a9", "siege c9"}
    s = play(g, s, ["siege a9"])
    assert cell(g, s, "a9") == 0 and cell(g, s, "b9") == 0 and cell(g, s, "c9") == 2
    assert not any(a.startswith("siege") for a in legal(g, s))
    with pytest.raises(IllegalActionError, match="two siege captures"):
        g.apply(s, g.parse_action("siege c9"))
    s = play(g, s, ["end", "end"])
    with pytest.raises(IllegalActionError, match="liberties"):
        g.apply(s, g.parse_action("siege c9"))  # next turn: b9 is a liberty again


CAP_POS = "\n".join(
    [". . . . . . . . ."] * 4
    + [". . . . B* . . . ."]
    + [". . . . . . . . ."] * 3
    + ["R . . . . . . . ."]
)


def test_ci_6_warrior_cap_total_or_per_player() -> None:
    g = game(size=9, warrior_cap=3)
    s = position(g, CAP_POS, credits=4)
    s = play(g, s, ["+e6"])
    with pytest.raises(IllegalActionError, match="cap is reached"):
        g.apply(s, g.parse_action("+e4"))
    g = game(size=9, warrior_cap=2, cap_mode="per_player")
    s = play(g, position(g, CAP_POS, credits=4), ["+e6"])
    with pytest.raises(IllegalActionError, match="2 warriors yours already"):
        g.apply(s, g.parse_action("+e4"))
    with pytest.raises(InvalidParameterError):
        game(cap_mode="both")


# -- CI-7 control ----------------------------------------------------------------------------

CONTROL_POS = """
. . . . . . . . .
. . . . . . . R* .
. . . . . . . . .
. . . . . . . . .
. . . B o . . . .
. . . . . . . . .
. . b . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_ci_7_entering_takes_control_at_once_credit_next_turn() -> None:
    g = game(size=9)
    s = position(g, CONTROL_POS)
    assert s.credits == 1
    s = play(g, s, ["d5-e5"])
    v = g.view(s, None)
    assert {c["cell"]: c["owner"] for c in v["citadels"]}["e5"] == 0
    assert v["scores"] == [2, 1] and s.credits == 0
    s = play(g, s, ["end", "end"])
    assert s.current == 0 and s.credits == 2
    s = play(g, s, ["e5-e6"])
    assert g.view(s, None)["scores"] == [2, 1]  # held without standing on it


def test_ci_7_option_occupied_counts_a_citadel_only_while_stood_on() -> None:
    g = game(size=9, control="occupied")
    s = position(g, CONTROL_POS, credits=1)
    assert g.view(s, None)["scores"] == [0, 1]  # the empty b citadel does not count
    s = play(g, s, ["d5-e5"])
    assert g.view(s, None)["scores"] == [1, 1]
    s = play(g, s, ["end", "end"])
    assert s.credits == 1
    s = play(g, s, ["e5-e6"])
    assert g.view(s, None)["scores"] == [0, 1]
    with pytest.raises(IllegalActionError, match="not next to a citadel you control"):
        g.apply(s, g.parse_action("+c4"))


# -- CI-8 sieges -----------------------------------------------------------------------------


def test_ci_8_liberties_and_an_empty_citadel_is_a_liberty() -> None:
    g = game(size=9)
    rows = [". . . . . . . . ."] * 9
    s = position(g, "\n".join(["R B . . . . . . .", "o . . . . . . . .", *rows[2:]]))
    with pytest.raises(IllegalActionError, match="1 liberties"):
        g.apply(s, g.parse_action("siege a9"))
    s = position(g, "\n".join(["R B . . . . . . .", "B* . . . . . . . .", *rows[2:]]))
    assert "siege a9" in legal(g, s)
    # An empty citadel closed by enemy warriors and a wall is besieged.
    closed = [
        *rows[:3],
        ". . . . B . . . .",
        ". . . B r B . . .",
        ". . . # # . . . .",
        ". . . # # . . . .",
        *rows[7:],
    ]
    v = g.view(position(g, "\n".join(closed)), None)
    assert {c["cell"]: c["besieged"] for c in v["citadels"]} == {"e5": True}


BESIEGED_POS = """
. . . . . . . . .
. b . . . . . . .
. . . . . . . . .
. . . B . . R . .
. . B R* B . . . .
. . . B . . . . .
. . . . . . . . .
. r . . . . . b .
. . . . . . . . .
"""


def test_ci_8_besieged_citadel_blocks_recruits_and_nearby_walls() -> None:
    g = game(size=9)
    s = position(g, BESIEGED_POS, to_move=1)
    v = g.view(s, None)
    assert {c["cell"]: c["besieged"] for c in v["citadels"]}["d5"] is True
    assert {"player": 1, "cells": ["d5"]} in v["besieged_groups"]
    assert s.credits == 2
    moves = legal(g, s)
    assert "wall g7" in moves and "wall e6" not in moves
    with pytest.raises(IllegalActionError, match="besieges your citadel"):
        g.apply(s, g.parse_action("wall e6"))  # touches the besiegers e5 and d6
    s = play(g, s, ["d5xc5"])  # strength 2 (on its citadel) against 1
    assert cell(g, s, "c5") == 0
    assert "+c5" not in legal(g, s)
    with pytest.raises(IllegalActionError, match="besieged"):
        g.apply(s, g.parse_action("+c5"))  # besieged at the start of this turn
    assert "+b3" in legal(g, s)  # the other citadel is free
    s = play(g, s, ["end", "end"])
    assert s.current == 1 and "+c5" in legal(g, s)


# -- CI-9 winning ----------------------------------------------------------------------------

LEAD_POS = """
. . . . . . . . .
. B* . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . B o . . . .
. . . . . . . . .
. . . . . . . . .
. b R . . . . R* .
. . . . . . . . .
"""


def test_ci_9_two_citadel_lead_wins_only_at_the_start_of_the_turn() -> None:
    g = game(size=9)
    s = position(g, LEAD_POS)
    s = play(g, s, ["d5-e5"])
    assert g.view(s, None)["scores"] == [3, 1]
    assert g.outcome(s) is None and g.to_move(s).players == (0,)  # not during the turn
    s = play(g, s, ["end"])
    assert g.outcome(s) is None and s.current == 1  # red's turn: red does not lead
    won = play(g, s, ["end"])
    out = g.outcome(won)
    assert out is not None and out.winners == (0,) and out.scores == (3.0, 1.0)
    assert "start of his turn" in out.reason and g.returns(won) == (1.0, 0.0)
    # Red takes the empty b2 back before blue's turn starts: no win.
    s = play(g, s, ["c2-b2", "end"])
    assert g.outcome(s) is None and s.current == 0 and g.view(s, None)["scores"] == [2, 2]


def test_ci_9_draw_after_max_turns() -> None:
    g = game(size=9, max_turns=3)
    s = position(g, LEAD_POS.replace("o", "."))
    s = play(g, s, ["end", "end"])
    assert g.outcome(s) is None
    s = play(g, s, ["end"])
    out = g.outcome(s)
    assert out is not None and out.winners == () and "turn limit" in out.reason
    assert g.returns(s) == (0.0, 0.0) and g.legal_actions(s, 0) == []


# -- CI-10 notation --------------------------------------------------------------------------


def test_ci_10_notation_round_trips_and_tolerates_case_and_spacing() -> None:
    g = game()
    for text in (
        "citadel k10",
        "claim k10",
        "b13-c13",
        "b13xc13",
        "+c14",
        "wall d4",
        "raze d4 c4",
        "siege c13",
        "end",
    ):
        assert g.format_action(g.parse_action(text)) == text
    assert g.parse_action("  B13 - C13 ") == g.parse_action("b13-c13")
    assert g.parse_action("B13 X C13") == g.parse_action("b13xc13")
    assert g.parse_action("RAZE  D4   C4") == g.parse_action("raze d4 c4")
    assert g.parse_action("+ c14") == g.parse_action("+c14")
    assert g.parse_action("End") == 0


@pytest.mark.parametrize(
    "text", ["b13-d13", "b13xb13", "raze d4 g4", "wall", "fly a1", "citadel z9", "c20-c21", "", "+"]
)
def test_ci_10_bad_notation_is_refused_with_a_hint(text: str) -> None:
    with pytest.raises(NotationError):
        game().parse_action(text)


def test_ci_10_every_index_has_a_notation_that_reads_back() -> None:
    g = game()
    for a in range(NUM_ACTIONS):
        text = g.format_action(a)
        try:
            back = g.parse_action(text)
        except NotationError:
            # Only steps and razes that would leave the 19x19 frame have no cell name.
            assert "side" in text or text[-1] in "nesw", text
            continue
        assert back == a and g.decode_action(g.encode_action(a)) == a


def test_ci_10_empty_board_setup_in_notation() -> None:
    g = game(size=9)
    s = setup_9x9(g)
    assert g.view(s, None)["phase"] == "play" and s.current == 0
