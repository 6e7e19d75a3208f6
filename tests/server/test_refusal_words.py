"""A refusal as players read it: the sentence without ruling IDs, the IDs given apart.

The engines cite their rulings in every reason ("claim an empty hilltop (SW-4)"), for
the library's users and the tests; the page shows the sentence, and the server sends the
IDs beside it (``rulings``)."""

from __future__ import annotations

import random
import re

import pytest

import sudoku_arena
from sudoku_arena.ai import make_agent
from sudoku_arena.core.errors import IllegalActionError, split_rulings
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import registered_games
from sudoku_arena.server.live import ActionRefused
from sudoku_arena.server.sockets import ws_error

ID = re.compile(r"\b(TTS|SW|CS|SH|CI)-\d+\b")


@pytest.mark.parametrize(
    ("text", "plain", "ids"),
    [
        ("h3 is taken; claim an empty one (SW-4)", "h3 is taken; claim an empty one", ("SW-4",)),
        ("C4 holds a 5 (SH-4: only empty hexes)", "C4 holds a 5 (only empty hexes)", ("SH-4",)),
        ("win at once (SW-3, SW-13); default 5", "win at once; default 5", ("SW-3", "SW-13")),
        ("SW-10 allows it", "the rules allows it", ("SW-10",)),
        ("no ruling here (see the rules)", "no ruling here (see the rules)", ()),
    ],
)  # fmt: skip
def test_split_rulings_keeps_the_sentence_and_gives_the_ids(
    text: str, plain: str, ids: tuple[str, ...]
) -> None:
    assert split_rulings(text) == (plain, ids)


def _refusals(game_id: str, seed: int) -> list[str]:
    """The engine's reasons for actions legal earlier in a game but not now."""
    game = sudoku_arena.load(game_id, seed=seed)
    m = Match(game, seed=seed)
    bots = [make_agent("greedy", game, seed=seed + i) for i in range(game.num_players)]
    seen: list[object] = []
    out: list[str] = []
    rng = random.Random(seed)
    while not m.is_over and len(out) < 40:
        p = m.to_move().players[0]
        for a in rng.sample(seen, min(len(seen), 6)):
            try:
                m.preview(a, p)
            except IllegalActionError as exc:
                out.append(str(exc))
        seen.extend(game.legal_actions(m.state, p)[:20])
        m.step_agent(bots[p], p)
    return out


@pytest.mark.parametrize("game_id", [g.id for g in registered_games()])
def test_refusals_reach_players_without_ruling_ids(game_id: str) -> None:
    reasons = _refusals(game_id, 3)
    assert reasons, "no refusal was tried"
    cited = 0
    for reason in reasons:
        refused = ActionRefused("illegal", reason)
        assert not ID.search(refused.message), refused.message
        assert "  " not in refused.message and "()" not in refused.message
        assert refused.rulings == tuple(dict.fromkeys(m.group(0) for m in ID.finditer(reason)))
        cited += bool(refused.rulings)
    assert cited, f"{game_id}: no refusal cited a ruling, so nothing was tested"


def test_the_socket_error_carries_the_ids_apart() -> None:
    refused = ActionRefused("illegal", "h3 is X'd and can never be occupied again (SW-12)")
    sent = ws_error(refused.code, refused.message, 7, refused.rulings)
    assert '"message": "h3 is X\'d and can never be occupied again"' in sent
    assert '"rulings": ["SW-12"]' in sent
