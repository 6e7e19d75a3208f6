"""Regenerate the golden playthrough files, one per registered game.

A playthrough is a fixed-seed game between random agents written out ply by ply: who is
to move, how many legal actions there are (and the first few), the action taken, and
the text drawing of the public view every few plies. Tests replay the same game and
diff it against the file, so any change of behaviour shows up as a readable diff.

    python scripts/regen_golden.py            # all games
    python scripts/regen_golden.py citadel    # one game
"""

from __future__ import annotations

import sys
from pathlib import Path

from sudoku_arena.ai import make_agent
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import build, entry_of, registered_games

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
SEED = 20261122
BOARD_EVERY = 10
MAX_PLIES = 400


def playthrough(game_id: str) -> str:
    """The golden text of ``game_id`` (deterministic)."""
    spec = next(s for s in registered_games() if s.id == game_id)
    game = build(game_id, {"players": spec.max_players}, seed=SEED)
    match = Match(game, seed=SEED, players=["random"] * game.num_players)
    agents = [make_agent("random", game, seed=SEED + i) for i in range(game.num_players)]
    lines = [
        f"game: {game_id} {spec.version}",
        f"params: {game.params}",
        f"seed: {SEED}",
    ]
    shown = 0
    for e in match.log:
        lines.append(f"ply {e.ply}: chance {e.action}")
    shown = match.ply
    while not match.is_over and match.ply < MAX_PLIES:
        p = match.to_move().players[0]
        legal = match.legal(p)
        head = ", ".join(legal[:8]) + (", ..." if len(legal) > 8 else "")
        if match.ply % BOARD_EVERY == 0:
            lines.append(entry_of(game).render_text(game.view(match.state, None)))
        lines.append(f"to move: seat {p}; {len(legal)} legal: {head}")
        match.step_agent(agents[p], p)
        for e in match.log[shown:]:
            who = "chance" if e.actor is None else f"seat {e.actor}"
            lines.append(f"ply {e.ply}: {who} {e.action}")
        shown = match.ply
    lines.append(entry_of(game).render_text(game.view(match.state, None)))
    out = match.outcome()
    lines.append(f"outcome: {None if out is None else out.to_json()}")
    return "\n".join(lines) + "\n"


def golden_path(game_id: str) -> Path:
    return GOLDEN_DIR / f"{game_id}.txt"


def main(argv: list[str]) -> int:
    ids = argv or [s.id for s in registered_games()]
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for gid in ids:
        golden_path(gid).write_text(playthrough(gid), encoding="utf-8")
        print(f"wrote {golden_path(gid)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
