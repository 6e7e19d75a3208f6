"""Sudoku Warriors at the table: what the player to move is to do (place, choose the
next battle, bid), and the notation in words (see ``GameEntry.guide`` and
``GameEntry.explain``)."""

from __future__ import annotations

from sudoku_arena.core.errors import NotationError
from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.sudoku_warriors.rules import PROV_HILLS, hill_name, parse_hill
from sudoku_arena.games.words import BOX_WORDS, cell_words, every
from sudoku_arena.grids.sudoku import parse_box, parse_cell

#: Provinces named in one placement guide at most (a long list helps nobody).
_NAMED = 3


def hill_words(h: int) -> str:
    """Where hilltop ``h`` (``10 * i + j``) is: the crossing below row ``i`` and right
    of column ``j`` (SW-2), the board's edges and corners named as such."""
    i, j = divmod(h, 10)
    edge_v = {0: "top", 9: "bottom"}.get(i)
    edge_h = {0: "left", 9: "right"}.get(j)
    if edge_v and edge_h:
        return f"the {edge_v}-{edge_h} corner of the board"
    down = f"on the {edge_v} edge" if edge_v else f"below row {i}"
    across = f"on the {edge_h} edge" if edge_h else f"right of column {j}"
    return f"the crossing {down}, {across}"


def province_words(name: str) -> str:
    """``b1`` -> ``the top-left province``."""
    return f"the {BOX_WORDS[parse_box(name)]} province"


def _village(name: str) -> str:
    r, c = divmod(parse_cell(name), 9)
    return cell_words(r + 1, c + 1)


def guide(view: JsonDict) -> str:
    """The placement, the choice of the next battle (SW-6) or the bid (SW-9, SW-10)
    of the seat to move, with the numbers the view gives."""
    legal: list[str] = view["legal"]
    if not legal or not view["to_move"]:
        return ""
    phase = view["phase"]
    if phase == "choose":
        where = [province_words(b) for b in view["pending"]]
        return f"Battles are due for {every(where)}: click the one to fight first (lit)"
    if phase == "bid" and view["battle"] is not None:
        return _bid_guide(view, legal)
    return _place_guide(view)


def _place_guide(view: JsonDict) -> str:
    hilltops: list[str] = view["hilltops"]
    owners: list[int] = view["owners"]
    # The hilltops that would start a battle: the last free one of a province nobody holds.
    starts: dict[int, list[int]] = {}
    for b, hills in enumerate(PROV_HILLS):
        free = [h for h in hills if not hilltops[h]]
        if owners[b] < 0 and len(free) == 1:
            starts.setdefault(free[0], []).append(b)
    if not starts:
        return "Place a warrior on a lit hilltop; a province's last free one starts its battle"
    named = [
        f"{hill_name(h)} for {every([f'the {BOX_WORDS[b]}' for b in bs])}"
        for h, bs in sorted(starts.items())[:_NAMED]
    ]
    more = " and more" if len(starts) > _NAMED else ""
    return (
        "Place a warrior on a lit hilltop; a province's last free one starts its battle: "
        f"{every(named)}{more}"
    )


def _bid_guide(view: JsonDict, legal: list[str]) -> str:
    battle: JsonDict = view["battle"]
    head = f"Battle for {province_words(battle['province'])}"
    bids = [a.split()[1:] for a in legal if a.startswith("bid ")]
    if battle["opening"]:
        return f"{head}: open with one of your lit villages (click it twice), add nothing, or yield"
    need = int(battle["need"])
    if not bids and "bid" in legal:
        return f"{head}: you lead; add nothing, or yield"
    if not bids:
        return f"{head}: your villages cannot add the +{need} you need: yield"
    # The two clicks of a bid: the first village, then a second one or itself again.
    singles = any(len(b) == 1 for b in bids)
    pairs = any(len(b) == 2 for b in bids)
    second = "another or it again" if singles and pairs else "another" if pairs else "it again"
    how = f"click a village, then {second}"
    if need <= 0:
        return f"{head}: you lead; add nothing, add lit villages ({how}), or yield"
    many = "one or two" if singles and pairs else "two" if pairs else "one of your"
    return f"{head}: add {many} lit villages worth +{need} or more to lead ({how}), or yield"


def explain(action: str) -> str:
    """``h37`` -> ``hilltop: the crossing below row 3, right of column 7``; the bids,
    ``yield`` and ``battle b5`` likewise (SW-14)."""
    words = action.split()
    try:
        if len(words) == 1 and words[0] not in ("bid", "yield"):
            return f"hilltop: {hill_words(parse_hill(words[0]))}"
        if words == ["yield"]:
            return "yield: leave this battle for good"
        if words == ["bid"]:
            return "bid: add no village"
        if words[0] == "battle" and len(words) == 2:
            return f"fight the battle for {province_words(words[1])} first"
        if words[0] == "bid" and len(words) in (2, 3):
            villages = every([_village(w) for w in words[1:]])
            noun = "village" if len(words) == 2 else "villages"
            return f"bid: add the {noun} on {villages}"
    except NotationError:
        return ""
    return ""
