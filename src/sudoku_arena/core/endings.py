"""Endings decided outside the rules: resignation, abort, a draw by agreement, a loss on
time, a win claimed over players who left, and abandonment.

A game played between people can end before its rules end it: a player resigns, the
players abort a game that has not really begun, or they agree to a draw; online, a
player's clock runs out, the last player still there claims the win once the others
have been gone for a while, or nobody moves for so long that the server calls the game
abandoned. Such an ending is an :class:`~sudoku_arena.core.types.Outcome` with one of
the codes below; the final position is then *not* terminal, and a record that ends this
way replays to a position where the game was still going
(:func:`sudoku_arena.core.record.replay` accepts exactly the codes of
:data:`OUTSIDE_RULES` there).
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import Outcome

RESIGN = "resign"
ABORT = "abort"
AGREED = "agreed"
TIME = "time"
ABANDONED = "abandoned"
LEFT = "left"

#: Codes of outcomes that the players decided, not the rules.
DECIDED_BY_PLAYERS = frozenset({RESIGN, ABORT, AGREED})
#: Codes of every ending outside the rules: the players' decisions, the clock, a win
#: claimed over players who left, and the server calling a game without moves abandoned.
OUTSIDE_RULES = DECIDED_BY_PLAYERS | {TIME, ABANDONED, LEFT}


def _scores(game: AnyGame, state: object) -> tuple[float, ...]:
    """The scores shown in the public view when the game has them, else zeros."""
    n = game.num_players
    shown = game.view(state, None).get("scores")
    if isinstance(shown, list) and len(shown) == n:
        try:
            return tuple(float(x) for x in shown)
        except (TypeError, ValueError):
            pass
    return (0.0,) * n


def resignation(game: AnyGame, state: object, seat: int, names: Sequence[str]) -> Outcome:
    """``seat`` resigns: every other seat shares the win."""
    winners = tuple(p for p in range(game.num_players) if p != seat)
    return Outcome(winners, _scores(game, state), f"{names[seat]} resigned", RESIGN)


def aborted(game: AnyGame, state: object) -> Outcome:
    """The game is called off before it really began: nobody wins."""
    return Outcome((), _scores(game, state), "aborted before it really began", ABORT)


def agreed_draw(game: AnyGame, state: object) -> Outcome:
    """The players agree to a draw: nobody wins."""
    return Outcome((), _scores(game, state), "drawn by agreement", AGREED)


def lost_on_time(game: AnyGame, state: object, seat: int, names: Sequence[str]) -> Outcome:
    """``seat``'s clock ran out: every other seat shares the win."""
    winners = tuple(p for p in range(game.num_players) if p != seat)
    return Outcome(winners, _scores(game, state), f"{names[seat]} ran out of time", TIME)


def abandoned(game: AnyGame, state: object, idle: str, waiting: Sequence[str]) -> Outcome:
    """Nobody moved for ``idle`` (words, such as "2 days"): nobody wins; ``waiting`` are
    the names of the players who were to move."""
    who = f" ({' and '.join(waiting)} to move)" if waiting else ""
    return Outcome((), _scores(game, state), f"abandoned: no move for {idle}{who}", ABANDONED)


def left_game(
    game: AnyGame, state: object, gone: Sequence[int], claimant: int, names: Sequence[str]
) -> Outcome:
    """The players of ``gone`` left the game (the server saw none of them for its set
    time) and ``claimant`` claimed the win: they lose, every other seat shares the win."""
    winners = tuple(p for p in range(game.num_players) if p not in gone)
    who = " and ".join(names[p] for p in gone)
    return Outcome(
        winners,
        _scores(game, state),
        f"{who} left the game; {names[claimant]} claimed the win",
        LEFT,
    )
