"""Events worth saying in words after an action, read from public views only.

The log line says what was played (``Square (greedy): yield``); some consequences are
easy to miss on the board, so the terminal says them: in Sudoku Warriors, who won which
province, with the battle scores and the villages each side added, or that nobody
contested it. Everything comes from public views (``game.view(state, None)``) and the
public log, never from a state.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_arena.cli.words import seat_name
from sudoku_arena.core.match import LogEntry
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import JsonDict
from sudoku_arena.grids.sudoku import parse_cell

#: Villages added in a battle, per seat: (village, its resource) in the order played.
Bids = dict[int, list[tuple[str, int]]]


def announcements(
    game: AnyGame, states: Sequence[object], log: Sequence[LogEntry], ply: int
) -> list[str]:
    """What to announce about ply ``ply`` (``states[ply]`` before it, ``states[ply + 1]``
    after it; ``log[ply]`` the action)."""
    if game.spec.id != "sudoku-warriors":
        return []
    before, after = game.view(states[ply], None), game.view(states[ply + 1], None)
    if before["owners"] == after["owners"]:
        return []
    return battle_results(before, after, _battle_bids(game, states, log, ply))


def _battle_bids(
    game: AnyGame, states: Sequence[object], log: Sequence[LogEntry], ply: int
) -> Bids:
    """The villages added in the battle that was going on before ``ply``."""
    bids: Bids = {}
    battle = game.view(states[ply], None)["battle"]
    k = ply - 1
    while battle is not None and k >= 0:
        view = game.view(states[k], None)
        if view["battle"] is None or view["battle"]["province"] != battle["province"]:
            break
        entry = log[k]
        words = entry.action.split()
        if entry.actor is not None and words[0] == "bid":
            grid = view["grid"]
            added = [(v, grid[parse_cell(v)]) for v in words[1:]]
            bids[entry.actor] = added + bids.get(entry.actor, [])
        k -= 1
    return bids


def battle_results(before: JsonDict, after: JsonDict, bids: Bids | None = None) -> list[str]:
    """Sudoku Warriors: one sentence per province won in this step, then the tally."""
    names: list[str] = after["players"]
    battle: JsonDict | None = before["battle"]
    out: list[str] = []
    for b, (old, new) in enumerate(zip(before["owners"], after["owners"], strict=True)):
        if old == new or new < 0:
            continue
        province = f"b{b + 1}"
        winner = seat_name(names, new)
        if battle is None or battle["province"] != province:
            out.append(
                f"{winner} wins province {province} without a battle: nobody else has a "
                "warrior around its capital."
            )
            continue
        scores = battle["scores"]
        fighters = [new, *(q for q in battle["participants"] if q != new)]
        tally = ", ".join(f"{seat_name(names, q)} {scores[q]}" for q in fighters)
        losers = " and ".join(seat_name(names, q) for q in fighters[1:])
        added = [
            f"; {seat_name(names, q)} added " + " ".join(f"{v}={n}" for v, n in villages)
            for q in fighters
            if (villages := (bids or {}).get(q))
        ]
        detail = "".join(added)
        out.append(
            f"{losers} yielded: {winner} wins the battle for province {province} "
            f"(battle scores {tally}{detail})."
        )
    if out:
        held = ", ".join(f"{seat_name(names, q)} {n}" for q, n in enumerate(after["scores"]))
        out.append(f"Provinces held: {held} (target {after['target']}).")
    return out
