"""Citadel at the table: what the player to move is to do in each phase (placing
citadels, claiming, a turn with credits), and the notation in words (see
``GameEntry.guide`` and ``GameEntry.explain``)."""

from __future__ import annotations

from sudoku_arena.core.errors import NotationError
from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.citadel.game import (
    CLAIMS_EACH,
    MOVE_COST,
    NUM_CITADELS,
    RAZE_COST,
    RECRUIT_COST,
    WALL_COST,
)
from sudoku_arena.games.citadel.rules import (
    DIRS,
    FRAME,
    K_ATTACK,
    K_CITADEL,
    K_CLAIM,
    K_END,
    K_MOVE,
    K_RAZE,
    K_RECRUIT,
    K_SIEGE,
    K_WALL,
    PERIM_OFFSETS,
    frame_name,
    parse_action,
    split_action,
)
from sudoku_arena.games.words import counted, either


def _credits(n: int) -> str:
    return counted(n, "credit")


def guide(view: JsonDict) -> str:
    """The set-up placement (CI-2), the claim (CI-3) or a turn's spending (CI-6) of the
    seat to move, with his credits and the citadels each side controls (CI-9)."""
    legal: list[str] = view["legal"]
    if not legal or not view["to_move"]:
        return ""
    me = int(view["to_move"][0])
    phase = view["phase"]
    if phase == "setup":
        n = len(view["citadels"]) + 1
        return (
            f"Place neutral citadel {n} of {NUM_CITADELS} on a lit point "
            "(two in from the edges, touching no other)"
        )
    if phase == "claim":
        mine = sum(1 for c in view["citadels"] if c["owner"] == me)
        return (
            f"Claim a neutral citadel (lit), {mine + 1} of your {CLAIMS_EACH}: "
            "one of your warriors goes on it"
        )
    return _turn_guide(view, me, legal)


def _turn_guide(view: JsonDict, me: int, legal: list[str]) -> str:
    players: list[str] = view["players"]
    other = 1 - me
    scores: list[int] = view["scores"]
    credits = int(view["credits"])
    kinds = {split_action(parse_action(a))[0] for a in legal}
    # Costs in credits; a warrior's actions take two clicks (the warrior, then its target).
    steps = []
    if K_MOVE in kinds:
        steps.append(f"a step ({MOVE_COST})")
    if K_ATTACK in kinds:
        steps.append("an enemy to attack (free)")
    if K_RAZE in kinds:
        steps.append(f"a wall to raze ({RAZE_COST})")
    parts = []
    if steps:
        parts.append(f"click a warrior, then {either(steps)}")
    if K_RECRUIT in kinds:
        parts.append(f"recruit on a dashed point ({RECRUIT_COST})")
    if K_WALL in kinds:
        parts.append(f"build a wall… ({WALL_COST})")
    if K_SIEGE in kinds:
        cells = [a.split()[1] for a in legal if a.startswith("siege ")]
        parts.append(f"take {either(cells)} by siege (free)")
    if parts:
        text = f"{_credits(credits)} to spend: {'; '.join(parts)}; then End turn"
    else:
        text = f"{_credits(credits)} left and nothing to do: End turn"
    if scores[other] - scores[me] >= 2:
        text += f"; {players[other]} is two citadels ahead: catch up or {players[other]} wins"
    elif scores[me] - scores[other] >= 2:
        text += "; you are two citadels ahead: hold them to your next turn to win"
    return text


def _step(cell: int, dr: int, dc: int) -> str:
    r, c = divmod(cell, FRAME)
    return frame_name((r + dr) * FRAME + c + dc)


def explain(action: str) -> str:
    """``b13-c13`` -> ``move the warrior on b13 to c13 (1 credit)``; every action of
    CI-10 likewise."""
    try:
        kind, cell, extra = split_action(parse_action(action))
    except NotationError:
        return ""
    at = frame_name(cell)
    if kind == K_END:
        return "end the turn; unspent credits are lost"
    if kind == K_CITADEL:
        row = cell // FRAME + 1
        return f"place a neutral citadel on {at} (column {at[0]}, row {row} from the bottom)"
    if kind == K_CLAIM:
        return f"claim the citadel on {at}: a warrior of its claimer goes on it"
    if kind == K_RECRUIT:
        return f"recruit a warrior on {at} ({_credits(RECRUIT_COST)})"
    if kind == K_WALL:
        return f"build a wall on the 2x2 block {at} to {_step(cell, 1, 1)} ({_credits(WALL_COST)})"
    if kind == K_SIEGE:
        return f"take the warrior on {at} by siege (free)"
    if kind in (K_MOVE, K_ATTACK):
        to = _step(cell, *DIRS[extra])
        if kind == K_MOVE:
            return f"move the warrior on {at} to {to} ({_credits(MOVE_COST)})"
        return f"the warrior on {at} attacks the one on {to} (free)"
    if kind == K_RAZE:
        by = _step(cell, *PERIM_OFFSETS[extra])
        return f"the warrior on {by} razes the wall on {at} ({_credits(RAZE_COST)})"
    return ""
