"""Events worth saying in words after an action, read from public views only.

The log line says what was played (``Square (greedy): yield``); some consequences are
easy to miss on the board, so the terminal says them: in Sudoku Warriors, who won which
province, by which battle scores, or without a battle. Everything comes from the public
views before and after the action (``game.view(state, None)``), never from a state.
"""

from __future__ import annotations

from sudoku_arena.cli.words import seat_name
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import JsonDict


def announcements(game: AnyGame, before: object, after: object) -> list[str]:
    """What to announce about the step from state ``before`` to state ``after``."""
    if game.spec.id == "sudoku-warriors":
        return battle_results(game.view(before, None), game.view(after, None))
    return []


def battle_results(before: JsonDict, after: JsonDict) -> list[str]:
    """Sudoku Warriors: one sentence per province won in this step, then the tally."""
    names: list[str] = after["players"]
    battle: JsonDict | None = before["battle"]
    out: list[str] = []
    for b, (old, new) in enumerate(zip(before["owners"], after["owners"], strict=True)):
        if old == new or new < 0:
            continue
        province = f"b{b + 1}"
        winner = seat_name(names, new)
        if battle is not None and battle["province"] == province:
            scores = battle["scores"]
            fighters = [new, *(q for q in battle["participants"] if q != new)]
            tally = ", ".join(f"{seat_name(names, q)} {scores[q]}" for q in fighters)
            losers = " and ".join(seat_name(names, q) for q in fighters[1:])
            out.append(
                f"{losers} yielded: {winner} wins the battle for province {province} "
                f"(battle scores {tally})."
            )
        else:
            out.append(
                f"{winner} wins province {province} without a battle: nobody else has a "
                "warrior around its capital."
            )
    if out:
        held = ", ".join(f"{seat_name(names, q)} {n}" for q, n in enumerate(after["scores"]))
        out.append(f"Provinces held: {held} (target {after['target']}).")
    return out
