"""Every game at every player count it supports, with the parameters the adapter tests
use: default boards, except a 4 x 4 Cat Sudoku sheet from three players on (a default
sheet with six players takes OpenSpiel's checks half a minute) and, where a search
plays whole games, a 9 x 9 Citadel."""

from __future__ import annotations

from sudoku_arena.core.registry import registered_games

#: Sixteen squares, four of them starting squares: a set-up turn and three more turns.
TINY_SHEET = "name: tiny\ngrid:\noo..\noo..\n....\n....\n"

BUILTIN = ("tic-tac-sudoku", "sudoku-warriors", "cat-sudoku", "sudokuhex", "citadel")


def params_for(game_id: str, players: int) -> dict[str, object]:
    """The parameters a configuration is tested with."""
    out: dict[str, object] = {"players": players}
    if game_id == "cat-sudoku" and players >= 3:
        out["sheet"] = TINY_SHEET
    return out


def cases() -> list[tuple[str, int]]:
    """(game id, players) for every built-in game and player count."""
    specs = {s.id: s for s in registered_games()}
    return [(g, n) for g in BUILTIN for n in range(specs[g].min_players, specs[g].max_players + 1)]


def case_id(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}p"
