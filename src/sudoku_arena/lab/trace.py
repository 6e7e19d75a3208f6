"""What the metrics need from along a game, computed from its states.

A trace is derived data: :func:`trace_of` rebuilds it from a record's replay, and the
runner stores it beside the record only so that a report does not replay every game.
Per decision (an action by a seat; chance outcomes are not decisions):

* ``branching``: how many legal actions the acting seat had;
* ``eval_lead``: at the end of each turn (see below; the positions in the middle of a
  turn of several actions are passing), the seat ahead by the game's own evaluation (the
  search hints' ``evaluate``, the rules' returns once the game is over), ``-1`` when
  nobody is strictly ahead; absent for games without an evaluation;
* ``score_lead``: the same by the public scores (the spectator's view);

and ``turns``: runs of decisions by one seat, broken by another seat's decision or by
chance (a roll starts a new turn even for the same seat). Leads are only kept for games
of two or more seats.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_arena.ai.hints import hints_for
from sudoku_arena.core.match import LogEntry
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import JsonDict


def leader(values: Sequence[float]) -> int:
    """The seat with the strictly highest value, or -1 on a tie for the top."""
    top = max(values)
    best = [i for i, v in enumerate(values) if v == top]
    return best[0] if len(best) == 1 else -1


def count_turns(entries: Sequence[LogEntry]) -> int:
    """Runs of decisions by one seat (see the module doc)."""
    turns = 0
    previous: int | None = None
    for e in entries:
        if e.actor is None:
            previous = None
        elif e.actor != previous:
            turns += 1
            previous = e.actor
    return turns


def trace_of(game: AnyGame, entries: Sequence[LogEntry], states: Sequence[object]) -> JsonDict:
    """The trace of a game whose ``states[k]`` is the state before ``entries[k]``."""
    evaluate = hints_for(game).evaluate
    several = game.num_players > 1
    branching: list[int] = []
    eval_lead: list[int] = []
    score_lead: list[int] = []
    for k, e in enumerate(entries):
        if e.actor is None:
            continue
        branching.append(len(game.legal_actions(states[e.ply], e.actor)))
        turn_goes_on = k + 1 < len(entries) and entries[k + 1].actor == e.actor
        if not several or turn_goes_on:
            continue
        after = states[e.ply + 1]
        over = game.to_move(after).is_terminal
        if evaluate is not None:
            values = game.returns(after) if over else evaluate(game, after)
            eval_lead.append(leader(values))
        scores = game.view(after, None).get("scores")
        if isinstance(scores, list) and scores:
            score_lead.append(leader([float(x) for x in scores]))
    out: JsonDict = {"branching": branching, "turns": count_turns(entries)}
    if several and evaluate is not None:
        out["eval_lead"] = eval_lead
    if several and score_lead:
        out["score_lead"] = score_lead
    return out
