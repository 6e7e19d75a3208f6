"""The exploit panel: scripted strategies that play legal moves, follow their rule, and
are reachable by name but not offered as bots."""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterator
from typing import Any

import pytest

from sudoku_arena.ai.agents import agent_names, make_agent
from sudoku_arena.ai.panel import (
    HighestIndex,
    LowestIndex,
    make_panel,
    panel_factories,
    panel_names,
)
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load, registered_games
from sudoku_arena.games.sudokuhex.panel import mirror_hex

GAMES = [spec.id for spec in registered_games()]
COUNTS = [(s.id, k) for s in registered_games() for k in range(s.min_players, s.max_players + 1)]


class Checked:
    """An agent that asserts each action of the agent it wraps is legal."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name
        self.moves = 0

    def act(self, game: Any, state: Any, player: int) -> Any:
        a = self.agent.act(game, state, player)
        assert a in list(game.legal_actions(state, player)), (self.name, game.format_action(a))
        self.moves += 1
        return a


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_six_strategies_or_more_none_named_like_a_bot(game_id: str) -> None:
    game = load(game_id, seed=0)
    names = panel_names(game)
    assert len(names) >= 6 and len(set(names)) == len(names)
    assert names[:2] == ["panel:lowest", "panel:highest"]
    assert all(n.startswith("panel:") for n in names)
    assert not set(names) & set(agent_names(game))  # the server's bot list leaves them out
    for name in names:
        agent = make_agent(name.upper(), game, seed=1)  # names are case-insensitive
        assert agent.name == name
        doc = inspect.getdoc(type(agent)) or ""
        assert "Probes:" in doc, f"{name}'s docstring says which weak spot it probes"


@pytest.mark.parametrize(("game_id", "players"), COUNTS)
def test_every_strategy_plays_whole_games_of_legal_moves_against_random(
    game_id: str, players: int
) -> None:
    for name in panel_names(load(game_id, seed=0, players=players)):
        game = load(game_id, seed=5, players=players)
        seats = [name, *["random"] * (players - 1)]
        match = Match(game, seed=5, players=seats)
        panel = Checked(make_agent(name, game, seed=match.bot_seed(0)))
        others = [make_agent("random", game, seed=match.bot_seed(s)) for s in range(1, players)]
        match.run([panel, *others])
        assert match.is_over and match.outcome() is not None
        assert panel.moves > 0


def _positions(game_id: str, seed: int, players: int = 2) -> Iterator[tuple[Any, Any, int]]:
    """Every decision of a random game: (game, state, the player to act)."""
    game = load(game_id, seed=seed, players=players)
    match = Match(game, seed=seed, players=["random"] * players)
    rng = random.Random(seed)
    while not match.is_over:
        seat = match.to_move().players[0]
        state = match.agent_state(seat)
        yield game, state, seat
        match.play(rng.choice(list(game.legal_actions(state, seat))), seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_lowest_and_highest_take_the_lowest_and_highest_legal_index(game_id: str) -> None:
    lowest, highest = LowestIndex(seed=0), HighestIndex(seed=0)
    seen = 0
    for game, state, p in _positions(game_id, seed=2):
        legal = list(game.legal_actions(state, p))
        indices = [game.encode_action(a) for a in legal]
        assert game.encode_action(lowest.act(game, state, p)) == min(indices)
        assert game.encode_action(highest.act(game, state, p)) == max(indices)
        seen += len(legal) > 1
    assert seen > 5  # positions with a real choice were checked


def _mirror_checks(game_id: str, mirror_of: Any) -> int:
    """Play random games; wherever the mirror of the opponent's last cell is legal, the
    mirror strategy must take it. Returns how often that was checked."""
    checked = 0
    for seed in range(3):
        agent = make_panel("mirror", load(game_id, seed=seed), seed=seed)
        for game, state, p in _positions(game_id, seed=seed):
            target = mirror_of(state, p)
            legal = list(game.legal_actions(state, p))
            if target is not None and target in legal and len(legal) > 1:
                assert agent.act(game, state, p) == target
                checked += 1
    return checked


def test_the_mirror_answers_with_the_point_mirror_when_it_is_legal() -> None:
    def tts(s: Any, p: int) -> int | None:
        return 80 - s.open[1 - p] if s.open[1 - p] >= 0 else None

    def sw(s: Any, p: int) -> int | None:
        return 99 - s.last if s.last >= 0 and s.battle < 0 and not s.pending else None

    def hexes(s: Any, p: int) -> int | None:
        return mirror_hex(s.last) if s.last >= 0 else None

    assert _mirror_checks("tic-tac-sudoku", tts) > 0
    assert _mirror_checks("sudoku-warriors", sw) > 5
    assert _mirror_checks("sudokuhex", hexes) > 0
    assert mirror_hex(mirror_hex(10)) == 10 and mirror_hex(0) == 0  # A0 is the middle


def test_the_citadel_mirror_claims_the_mirror_of_the_opponents_claim() -> None:
    from sudoku_arena.games.citadel.game import CLAIM
    from sudoku_arena.games.citadel.panel import mirror

    game = load("citadel", seed=0, size=9)  # on 9x9 the nine citadels are symmetric
    match = Match(game, seed=0, players=["random", "random"])
    rng = random.Random(0)
    while match.state.phase != CLAIM:
        seat = match.to_move().players[0]
        match.play(rng.choice(list(game.legal_actions(match.state, seat))), seat)
    red = match.to_move().players[0]  # red claims first
    corner = next(c for c in match.state.citadels if c != mirror(game, c))
    match.play(game.parse_action(f"claim {game.geo.names[corner]}"), red)
    blue = 1 - red
    answer = make_panel("mirror", game, seed=0).act(game, match.state, blue)
    assert answer == game.parse_action(f"claim {game.geo.names[mirror(game, corner)]}")


def test_a_strategy_plays_the_same_from_the_same_seed() -> None:
    def moves(seed: int) -> list[str]:
        game = load("sudokuhex", seed=1)
        match = Match(game, seed=1, players=["panel:centre", "panel:score"])
        agents = [make_agent(n, game, seed=seed) for n in match.players]
        match.run(agents)
        return [e.action for e in match.entries]

    assert moves(3) == moves(3)


def test_unknown_or_missing_strategy_names_are_refused_with_the_allowed_ones() -> None:
    game = load("tic-tac-sudoku", seed=0)
    with pytest.raises(ArenaError, match="panel:lowest"):
        make_agent("panel:nope", game)
    with pytest.raises(ArenaError, match="names no panel strategy"):
        make_agent("panel", game)
    assert set(panel_factories(game)) >= {"lowest", "highest", "mirror", "score", "block"}


def test_list_game_names_the_bots_and_the_panel_apart() -> None:
    from typer.testing import CliRunner

    from sudoku_arena.cli.main import app

    result = CliRunner().invoke(app, ["list", "sudokuhex"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # however the console wrapped it
    assert "Bots: " in text and "greedy" in text
    for name in panel_names(load("sudokuhex", seed=0)):
        assert name in text
