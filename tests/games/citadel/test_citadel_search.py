"""The Citadel search knowledge: repeated positions are not played for (search.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from sudoku_arena.ai.mcts import MCTSAgent
from sudoku_arena.games.citadel import Citadel, CitadelState
from sudoku_arena.games.citadel.search import _entries, _project, evaluate, position_key

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


#: Blue (three citadels) faces red (three) with three neutral citadels between them.
#: Red's warriors on j14 and n12 stand one step from the neutral k14 and n11.
RACE = """
    c d e f g h j k l m n o p
15  . . . . . . . . . . . . .
14  . . . . . . R o . . . . .
13  . . . . . . . . . . . . .
12  . . . . . . . . . . R . .
11  . . . o . . . . . . o . .
9   . . R* . . R* . . . . R* . .
5   . . B* . . B* . . . . B* . .
"""


def test_projection_sees_what_one_turn_can_walk_into() -> None:
    g = game()
    s = position(g, RACE, to_move=1)
    k14 = s.citadels.index(g.geo.cell("k14"))
    n11 = s.citadels.index(g.geo.cell("n11"))
    f11 = s.citadels.index(g.geo.cell("f11"))
    # Red, three credits: k14 and n11 one step each, nearest first; f11 is three
    # steps from e9, more than the credit left; with five credits red reaches all.
    assert set(_entries(g, s, 1, 3, set())) == {k14, n11}
    assert set(_entries(g, s, 1, 5, set())) == {k14, n11, f11}
    assert _entries(g, s, 1, 5, {k14}) in ([n11, f11], [f11, n11])
    assert _entries(g, s, 1, 1, set()) in ([k14], [n11])
    assert _entries(g, s, 1, 0, set()) == []
    # Blue walks nowhere in one turn (his warriors are six steps away) ...
    assert _entries(g, s, 0, 3, set()) == []
    # ... and red, to move, takes both: five against three at blue's turn start is
    # not yet a win (CI-9 checks the mover's own turn start), but blue cannot answer.
    gain, win = _project(g, s)
    assert gain == -2.0 and win == -1.0


def test_evaluation_fears_the_two_citadels_red_walks_into_next_turn() -> None:
    g = game()
    threatened = position(g, RACE, to_move=1)
    far = position(g, RACE.replace("R o", ". o").replace(". R .", ". . ."), to_move=1)
    # Red stands better in both (nearer the neutral citadels); with k14 and n11 one
    # step from red's warriors, blue's chance is a small fraction of what it was.
    assert evaluate(g, threatened)[0] < 0.1 * evaluate(g, far)[0]


#: Blue's g10 (with g9 behind it) next to red's lone guard on its citadel h10.
ASSAULT = """
    f g h j k
11  . . . . .
10  . B R* . .
9   . B . . .
"""


def test_projection_takes_a_citadel_by_a_stronger_attack_and_a_step() -> None:
    g = game()
    s = position(g, ASSAULT, to_move=0, credits=1)
    h10 = s.citadels.index(g.geo.cell("h10"))
    # g10 has strength 2 (g9 next to it), red's h10 has 2 (on its citadel): a trade,
    # and no second blue warrior next to h10 to step in.
    assert _entries(g, s, 0, 1, set()) == []
    stronger = position(g, ASSAULT.replace("9   . B . . .", "9   . B B . ."), to_move=0)
    # Now h9 stands next to h10 as well: g10 (2) trades with h10 (2) and h9 steps in.
    assert _entries(g, stronger, 0, 1, set()) == [h10]
    # A warrior that has attacked this turn may not attack again (CI-6).
    tired = position(
        g, ASSAULT.replace("9   . B . . .", "9   . B B . ."), to_move=0, spent=["g10", "h9"]
    )
    assert _entries(g, tired, 0, 1, set()) == []
