"""A run's folder: ``run.json`` (the plan) and ``games.jsonl`` (one line per finished game).

Each line of ``games.jsonl`` is a game record (:mod:`sudoku_arena.core.record`, so
``sudoku-arena replay --verify DIR/games.jsonl`` replays every game) with one more
key, ``lab``: the game's key, section, variant, seating, seconds and trace. Lines are
only ever appended, one per finished game, and flushed at once, so an interrupted run
loses at most the games in progress; a line torn by a crash mid-write is cut off when
the run resumes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.plan import Plan

PLAN = "run.json"
GAMES = "games.jsonl"


class LabError(ArenaError):
    """A run folder that cannot be used (with what is wrong and what to do)."""


def read_plan(folder: Path) -> Plan | None:
    """The plan stored in ``folder``, or ``None`` when there is none yet."""
    path = folder / PLAN
    if not path.exists():
        return None
    try:
        return Plan.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LabError(f"{path} is not a lab plan ({exc}); give another --out folder") from None


def open_run(folder: Path, plan: Plan) -> Plan:
    """Prepare ``folder`` for ``plan``: create it, or check that it holds the same run.

    Returns the plan to store (the larger game counts of the two). Refuses a folder
    that holds other files than a run's, or a run of other games.
    """
    if folder.exists() and not folder.is_dir():
        raise LabError(f"--out {folder}: is a file; give a folder")
    old = read_plan(folder) if folder.is_dir() else None
    if old is None:
        if folder.is_dir() and any(folder.iterdir()):
            raise LabError(f"--out {folder}: the folder is not empty and holds no lab run")
        folder.mkdir(parents=True, exist_ok=True)
        stored = plan
    elif not old.same_games(plan):
        raise LabError(
            f"--out {folder} holds a run with other options ({_describe(old)}); "
            "resume it with the same options or give another folder"
        )
    else:
        stored = Plan.from_json(
            {
                **plan.to_json(),
                "games": max(plan.games, old.games),
                "ladder_games": max(plan.ladder_games, old.ladder_games),
                "exploit_games": max(plan.exploit_games, old.exploit_games),
            }
        )
    write_atomic(folder / PLAN, json.dumps(stored.to_json(), indent=1) + "\n")
    return stored


def _describe(plan: Plan) -> str:
    text = f"{plan.game}, players {','.join(plan.players)}, seed {plan.seed}"
    if plan.variants:
        text += ", variants " + " ".join(v.name for v in plan.variants)
    if plan.ladder:
        text += ", ladder " + ",".join(plan.ladder)
    if plan.exploit:
        text += f", exploit panel ({len(plan.exploit)} line-ups)"
    return text


def write_atomic(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def repair(folder: Path) -> None:
    """Cut off a last line that a crash left without its newline."""
    path = folder / GAMES
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as fh:
            fh.truncate(data.rfind(b"\n") + 1)


def read_lines(folder: Path) -> Iterator[JsonDict]:
    """Every complete stored game (a torn last line is skipped)."""
    path = folder / GAMES
    if not path.exists():
        return
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.endswith("\n"):
                return  # torn by a crash: not a finished game
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                raise LabError(f"{path}, line {lineno}: not JSON; the file was damaged") from None
            if not isinstance(data, dict) or not isinstance(data.get("lab"), dict):
                raise LabError(f"{path}, line {lineno}: not a lab game record")
            yield data


def appender(folder: Path) -> IO[str]:
    """The games file opened for appending whole lines."""
    return (folder / GAMES).open("a", encoding="utf-8")
