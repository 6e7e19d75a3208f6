"""What the server sends is what the engine says: the views a live game builds (shared
between seats where the game allows it) equal the engine's own view for every
observer, position after position, in every registered game."""

from __future__ import annotations

import random

import pytest
from arena_helpers import LiveServer, create

from sudoku_arena.core.registry import registered_games
from sudoku_arena.server.db.games import load_game
from sudoku_arena.server.live import LiveGame


@pytest.mark.parametrize("game_id", [s.id for s in registered_games()])
def test_live_views_equal_the_engines_views(server: LiveServer, game_id: str) -> None:
    made = create(server.url, game=game_id, mode="hotseat", params={"players": 2})
    lg = LiveGame(load_game(server.arena.storage.engine, made["id"]))  # type: ignore[arg-type]
    rng = random.Random(5)
    observers: list[int | None] = [None, *range(lg.num_players)]
    checked = 0
    for _ in range(40):
        for obs in (*observers[1:], None):  # seats first: the shared copy is built lazily
            assert lg.view(obs) == lg.game.view(lg.state, obs), (game_id, lg.ply, obs)
            checked += 1
        if lg.over:
            break
        seat = lg.to_move()[0]
        action = rng.choice(lg.view(seat)["legal"])
        lg.commit(lg.prepare(seat, lg.ply, action))
    assert checked >= 3


def test_seats_share_one_view_only_where_views_cannot_differ(server: LiveServer) -> None:
    """Tic-Tac-Sudoku builds one view per position for all seats; Cat Sudoku (seats
    write at the same time, each seeing his own legal writes) builds one per seat."""
    shared = {s.id: not (s.hidden_information or s.simultaneous) for s in registered_games()}
    assert shared.get("tic-tac-sudoku") is True
    tts = LiveGame(
        load_game(server.arena.storage.engine, create(server.url, game="tic-tac-sudoku")["id"])  # type: ignore[arg-type]
    )
    assert tts.view(0)["cells"] is tts.view(1)["cells"] is tts.view(None)["cells"]
    if "cat-sudoku" in shared:
        made = create(server.url, game="cat-sudoku", mode="hotseat", params={"players": 2})
        cs = LiveGame(load_game(server.arena.storage.engine, made["id"]))  # type: ignore[arg-type]
        assert cs.view(0) == cs.game.view(cs.state, 0)
        assert cs.view(1) == cs.game.view(cs.state, 1)
