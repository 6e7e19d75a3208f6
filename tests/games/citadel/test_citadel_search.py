"""The Citadel search knowledge: repeated positions are not played for (search.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from sudoku_arena.ai.mcts import MCTSAgent
from sudoku_arena.games.citadel import Citadel, CitadelState
from sudoku_arena.games.citadel.search import position_key

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
