"""The state as a value: equality, hashing, copies, and the derived data it remembers."""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path

import pytest

from sudoku_arena.core.errors import IllegalActionError
from sudoku_arena.games.citadel import Citadel, CitadelState
from sudoku_arena.games.citadel.rules import positions

sys.path.insert(0, str(Path(__file__).parent))
from citadel_helpers import game, legal, play, setup_9x9


def _random_game(g: Citadel, seed: int, plies: int) -> list[CitadelState]:
    rng = random.Random(seed)
    states = [g.initial_state()]
    for _ in range(plies):
        s = states[-1]
        if s.current < 0:
            break
        states.append(g.apply(s, rng.choice(list(g.legal_actions(s, s.current)))))
    return states


def test_states_are_values_equal_by_their_fields() -> None:
    g = game(size=9)
    for s in _random_game(g, 3, 300)[::7]:
        twin = g.load_state(g.dump_state(s))
        assert twin == s and hash(twin) == hash(s) and twin is not s
        assert pickle.loads(pickle.dumps(s)) == s
        assert repr(twin) == repr(s) and repr(s).startswith("CitadelState(board=")
        changed = g.dump_state(s)
        changed["turn"] += 1
        assert g.load_state(changed) != s
    assert len({g.initial_state(), g.initial_state()}) == 1


def test_derived_data_belongs_to_the_game_that_asked() -> None:
    # The claimers stand on their six citadels: six warriors, the cap of the second game.
    roomy, capped = game(size=9), game(size=9, warrior_cap=6)
    s = setup_9x9(roomy)
    assert "+e6" in legal(roomy, s)
    assert "+e6" not in legal(capped, s)  # same state object, other options
    assert "+e6" in legal(roomy, s)
    with pytest.raises(IllegalActionError, match="cap is reached"):
        capped.apply(s, capped.parse_action("+e6"))
    after = roomy.apply(s, roomy.parse_action("+e6"))
    assert after.board.count(1) == 4


def test_the_legal_list_is_the_callers_to_keep() -> None:
    g = game(size=9)
    s = setup_9x9(g)
    first = g.legal_actions(s, s.current)
    assert isinstance(first, list)
    first.clear()
    assert len(g.legal_actions(s, s.current)) > 10
    assert g.legal_actions(s, 1 - s.current) == []


@pytest.mark.parametrize("bad", [-1, 10**30, True])
def test_bad_actions_are_refused_and_leave_the_state_alone(bad: int) -> None:
    g = game(size=9)
    s = setup_9x9(g)
    g.legal_actions(s, s.current)  # the state now remembers its legal actions
    before = g.dump_state(s)
    # (compiled, True arrives as the int 1, an action of the setup: refused too)
    with pytest.raises(IllegalActionError, match=r"not a Citadel action|setup is over"):
        g.apply(s, bad)
    assert g.dump_state(s) == before


@pytest.mark.parametrize("bad", ["e6", None, 1.5, True, -1, 10**30])
def test_why_illegal_names_what_is_not_an_action(bad: object) -> None:
    g = game(size=9)
    s = setup_9x9(g)
    assert g.why_illegal(s, bad, s.current) == "not a Citadel action"


def test_a_legal_action_by_the_wrong_seat_is_refused() -> None:
    g = game(size=9)
    s = setup_9x9(g)
    a = g.legal_actions(s, s.current)[0]
    with pytest.raises(IllegalActionError, match="may not act"):
        g.apply(s, a, 1 - s.current)


def test_positions_lists_each_code_in_order() -> None:
    board = bytes([0, 1, 2, 1, 0, 0, 1, 3])
    assert positions(board, 1) == [1, 3, 6]
    assert positions(board, 2) == [2]
    assert positions(board, 4) == []


def test_a_played_game_matches_its_notation_replay() -> None:
    g = game(size=9)
    states = _random_game(g, 5, 400)
    moves: list[str] = []
    rng = random.Random(5)
    s = g.initial_state()
    for _ in range(len(states) - 1):
        a = rng.choice(list(g.legal_actions(s, s.current)))
        moves.append(g.format_action(a))
        s = g.apply(s, a)
    assert play(g, g.initial_state(), moves) == states[-1] == s
