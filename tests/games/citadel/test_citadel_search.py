"""The Citadel search knowledge: repeated positions are not played for (search.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from sudoku_arena.ai.mcts import MCTSAgent
from sudoku_arena.games.citadel import Citadel, CitadelState
from sudoku_arena.games.citadel.search import (
    POST_BONUS,
    SIEGED,
    _pressure,
    evaluate,
    position_key,
    search_hints,
)

sys.path.insert(0, str(Path(__file__).parent))
from citadel_helpers import game, play, position

#: Where two searching players went round in circles until the turn limit: each turn
#: the mover recruits next to his citadel, kills the warrior on m15 and steps onto it
#: (blue from k15, red from m17), and the other answers in kind.
CYCLE = """
    d e f g h j k l m n o p q
17  . . . . . . . . R* . . . .
16  o . . . . . . . . . . . .
15  . . . . . . B* . R . . . o
11  . . B* . . . . . . . . . .
9   . . . . . . . R* . . . . .
6   . . . . . . . . . B* . . .
5   . . . o . . . . . . . . .
3   . . . . . . . . . . . . R*
"""


def _turn(g: Citadel, agent: MCTSAgent, s: CitadelState) -> tuple[CitadelState, list[str]]:
    """Let ``agent`` play the whole turn of the seat to move."""
    p = s.current
    actions = []
    while s.current == p:
        a = agent.act(g, s, p)
        actions.append(g.format_action(a))
        s = g.apply(s, a, p)
    return s, actions


def test_position_key_names_turn_starts_without_the_turn_counter() -> None:
    g = game()
    s = position(g, CYCLE, to_move=0, turn=20)
    later = position(g, CYCLE, to_move=0, turn=22)
    assert position_key(g, s) is not None
    assert position_key(g, s) == position_key(g, later)
    assert position_key(g, s) != position_key(g, position(g, CYCLE, to_move=1, turn=20))
    # Mid-turn states are not turn starts: after a recruit, after an attack.
    recruited = play(g, s, ["+l15"])
    assert position_key(g, recruited) is None
    assert position_key(g, play(g, recruited, ["l15xm15"])) is None
    # Ending the turn hands red a turn start.
    assert position_key(g, play(g, recruited, ["l15xm15", "end"])) is not None


def test_ci_9_searching_players_do_not_repeat_a_position_for_the_turn_limit_draw() -> None:
    g = game()
    s = position(g, CYCLE, to_move=0, turn=20)
    agent = MCTSAgent(g, 1, arg="normal")
    # The first time, the search plays the exchange that went round in circles...
    first, actions = _turn(g, agent, s)
    assert actions == ["+l15", "l15xm15", "l15-m15", "end"]
    # ...and when red's answer brings the game back here, blue remembers where that
    # exchange leads (a draw after 300 turns, worth nothing) and plays something else.
    again, other = _turn(g, agent, s)
    assert other != actions
    assert position_key(g, again) != position_key(g, first)
    # A fresh agent with the same seed has no memory and repeats the exchange.
    assert _turn(g, MCTSAgent(g, 1, arg="normal"), s)[1] == actions


def test_two_normal_players_never_come_back_to_a_turn_start() -> None:
    g = game()
    s = position(g, CYCLE, to_move=0, turn=20)
    agents = [MCTSAgent(g, 7, arg="normal"), MCTSAgent(g, 8, arg="normal")]
    seen = [position_key(g, s)]
    for _ in range(8):
        if g.outcome(s) is not None:
            break
        s, _actions = _turn(g, agents[s.current], s)
        seen.append(position_key(g, s))
    assert len(seen) >= 5 and None not in seen
    # Red never saw the first position (the test put it on the board), so only the
    # turn starts both agents have seen must not come back.
    assert len(seen[1:]) == len(set(seen[1:]))


#: Red's citadel e5 with its lone defender (9x9; blue holds c3, e3 and g3, red e5 and
#: the empty c7, e7 and g7, c5 and g5 are neutral), and blue's warriors around it.
ALONE = """
    a b c d e f g h j
7   . . r . r . r . .
5   . . o . R* . o . .
3   . . B* . b . b . .
"""
TWO_POSTS = ALONE.replace("o . R* . o", "o B R* B o")
RING = (
    TWO_POSTS.replace("7   . . r . r", "7   . . r . r")
    .replace("5   . . o B R* B o", "6   . . . . B . . . .\n5   . . o B R* B o")
    .replace("3   . . B*", "4   . . . . B . . . .\n3   . . B*")
)


def test_ci_8_search_values_hemming_in_a_held_citadel_up_to_a_siege() -> None:
    # Siege pressure (CI-8): the share of the defending group's neighbours that the
    # attacker holds against its liberties, and more once it has no liberty left.
    g = game(size=9)
    e5 = g.geo.cell("e5")
    alone, two, ring = (position(g, d, to_move=0) for d in (ALONE, TWO_POSTS, RING))
    assert _pressure(g, alone.board, e5, 1) == 0.0
    assert _pressure(g, two.board, e5, 1) == 0.5
    assert g.geo.group(ring.board, e5)[1] == 0  # no liberty: besieged
    assert _pressure(g, ring.board, e5, 1) == SIEGED > 1.0
    # The evaluation counts it: closing the ring is worth more to blue than two posts.
    assert evaluate(g, ring)[0] > evaluate(g, two)[0] > evaluate(g, alone)[0]


def test_ci_9_a_material_lead_leaves_the_search_a_reason_to_take_a_citadel() -> None:
    # CI-9 is won by citadels, not warriors: however far blue leads in warriors, one
    # more citadel must still be worth a clear step (a value per warrior let an 80 to 20
    # lead see every line as won, and the leader never attacked).
    g = game(size=9)
    army = "".join(f"{r}   B B B B B B B B B\n" for r in (9, 8, 2, 1))
    lead = position(g, ALONE + army, to_move=0)
    taken = position(g, ALONE.replace("R*", "b") + army, to_move=0)
    assert lead.board.count(1) == 37 and lead.board.count(2) == 1
    assert evaluate(g, taken)[0] - evaluate(g, lead)[0] > 0.02


def test_search_prior_raises_a_step_onto_a_post_that_can_attack_a_held_citadel() -> None:
    # The greedy agent keeps warriors away from stronger enemies; the search's prior
    # still expands a step next to a held citadel first when the warrior arrives at
    # least as strong as its defender (CI-5, CI-6: the attack then wins or trades).
    g = game(size=9)
    s = position(
        g, ALONE.replace("5   ", "6   . . . . . B . . .\n4   . . . . . B . . .\n5   "), to_move=0
    )
    prior = search_hints(g).prior
    assert prior is not None
    legal = list(g.legal_actions(s, 0))
    scores = dict(zip(legal, prior(g, s, 0, legal), strict=True))
    # f4-f5 arrives next to its friend on f6: strength 2, as e5's defender on its citadel.
    assert scores[g.parse_action("f4-f5")] >= POST_BONUS
    # A step that attacks nothing keeps the greedy agent's score.
    assert scores[g.parse_action("f4-g4")] < POST_BONUS
