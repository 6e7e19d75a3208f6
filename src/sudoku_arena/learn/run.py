"""A training run's folder: its settings, code version and sessions in ``run.json``.

A folder holds one run: ``run.json``, ``data/`` (the self-play shards), ``train/``
(the checkpoint) and ``value.npz`` (the exported weights). Running again with the same
settings resumes it; other settings are refused, saying which differ, except a larger
``epochs`` (training goes on from the last checkpoint, to the same weights a fresh run
with that many epochs gives). The code version (package version and a hash of the
sources that decide the data and the training) is recorded when the run starts and at
every session; a changed one is reported, not refused (a change of comments or of
speed must not throw data away), so the sessions say which code made what.
"""

from __future__ import annotations

import datetime
import hashlib
import importlib.metadata
import importlib.util
import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from sudoku_arena.ai.features import features_module
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry, load
from sudoku_arena.core.sources import modules_reached, source_of
from sudoku_arena.core.types import JsonDict

FORMAT = "sudoku-arena-train/1"
RUN_FILE = "run.json"


class LearnError(ArenaError):
    """A training run that cannot go on (another run's folder, unreadable files)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a run's data and weights depend on (besides the code)."""

    game: str
    #: Self-play games, their search's simulations per move and the run's seed.
    games: int
    sims: int
    seed: int
    epochs: int
    #: Games per data shard (the unit of work and of resuming).
    shard_games: int = 8
    #: The first plies are uniformly random, the next ones sampled in proportion to
    #: the search's visits (variety in the openings), the rest the search's best.
    random_plies: int = 2
    sampled_plies: int = 10
    #: The network's hidden layers, and the training's batch, rate and decay.
    hidden: tuple[int, ...] = (128, 64)
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    #: The share of games held out for validation (whole games: no leak between sets).
    validation: float = 0.1
    #: Show each training position in a random one of the game's symmetries (the
    #: features module's ``symmetries``): without it the network learns the games by
    #: heart (Tic-Tac-Sudoku: validation loss rising from the second epoch).
    augment: bool = True
    #: The weights the self-play search evaluates its leaves with (a file made by an
    #: earlier run: the next generation learns from games of the previous one), and
    #: the SHA-256 of that file, so a resumed run cannot mix games of two networks.
    #: Empty: the game's hand-written evaluation.
    value: str = ""
    value_sha256: str = ""
    #: Agents (names for ``make_agent``, such as the exploit panel's ``panel:lowest``)
    #: that take one seat, drawn at random, in a share of the games: the network then
    #: also sees the positions such opponents steer into, which self-play alone never
    #: reaches (a league, as AlphaStar's exploiters; the search still plays the other).
    opponents: tuple[str, ...] = ()
    opponent_share: float = 0.0
    #: Game parameters the self-play games are played with (``--param NAME=VALUE``,
    #: sorted by name), such as a shorter Citadel turn limit: more games end decided
    #: in the same time. The weights' features are those of the game so built.
    params: tuple[tuple[str, str], ...] = ()

    def load_game(self, seed: int | None = None) -> AnyGame:
        """The run's game, built with its ``params`` (see ``core.registry.load``)."""
        return load(self.game, seed=seed, **dict(self.params))

    @property
    def shards(self) -> int:
        return -(-self.games // self.shard_games)

    def to_json(self) -> JsonDict:
        out = asdict(self)
        out["hidden"] = list(self.hidden)
        out["opponents"] = list(self.opponents)
        out["params"] = dict(self.params)
        return out

    @classmethod
    def from_json(cls, data: JsonDict) -> Settings:
        names = {f.name for f in fields(cls)}
        if isinstance(data, dict):
            # Runs made before these settings existed were played without them.
            data = {**_ADDED_LATER, **data}
        if not isinstance(data, dict) or set(data) != names:
            raise ValueError(f"settings need exactly {sorted(names)}")
        params = data["params"]
        if not isinstance(params, dict) or not all(isinstance(v, str) for v in params.values()):
            raise ValueError("settings: params must map names to strings")
        return cls(
            **{
                **data,
                "hidden": tuple(data["hidden"]),
                "opponents": tuple(data["opponents"]),
                "params": tuple(sorted(params.items())),
            }
        )


#: Settings that runs made before they existed did not record, with their values then.
_ADDED_LATER: JsonDict = {
    "value": "",
    "value_sha256": "",
    "opponents": [],
    "opponent_share": 0.0,
    "params": {},
}


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex; :class:`LearnError` if it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise LearnError(f"--value {path}: cannot be read ({exc.strerror})") from None


def code_version(game_id: str) -> JsonDict:
    """The package version and a hash of the sources of every module that decides the
    data and the weights: the game's rules, search knowledge and features, the search,
    and this package, followed import by import within those packages."""
    rules = entry(game_id).rules
    package = features_module(rules).rpartition(".")[0]
    search = entry(game_id).search_hints
    roots = [str(rules.__module__), features_module(rules), "sudoku_arena.learn.selfplay"]
    roots += ["sudoku_arena.learn.train", "sudoku_arena.ai.value"]
    if search is not None:
        roots.append(search.__module__)
    inside = (package + ".", "sudoku_arena.ai.mcts", "sudoku_arena.ai.", "sudoku_arena.learn.")
    found = modules_reached(roots, inside)
    h = hashlib.sha256()
    for name in found:
        h.update(f"{name}\0{source_of(name)}\0".encode())
    try:
        version = importlib.metadata.version("sudoku-arena")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return {"package": version, "sources": h.hexdigest()[:16], "modules": len(found)}


def _differences(old: Settings, new: Settings) -> list[str]:
    out = []
    for f in fields(Settings):
        a, b = getattr(old, f.name), getattr(new, f.name)
        if a != b and not (f.name == "epochs" and b > a):
            out.append(f"{f.name} {a} (now {b})")
    return out


def open_run(folder: Path, settings: Settings, command: str) -> list[str]:
    """Start the run in ``folder`` or resume it; return notes for the user (a changed
    code version). Raises :class:`LearnError` when ``folder`` holds another run."""
    path = folder / RUN_FILE
    code = code_version(settings.game)
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    session = {"started": now, "command": command, "code": code}
    notes: list[str] = []
    if path.exists():
        data = read_run(folder)
        old = Settings.from_json(data["settings"])
        diff = _differences(old, settings)
        if diff:
            raise LearnError(
                f"{folder} holds a run with other settings: {'; '.join(diff)}. Give the same "
                "options to resume it (a larger --epochs trains on), or another --out"
            )
        if data["code"]["sources"] != code["sources"]:
            notes.append(
                f"the code changed since this run started (sources {data['code']['sources']}, "
                f"now {code['sources']}): what is kept was made by the earlier code"
            )
        data["settings"] = settings.to_json()  # epochs may have grown
    else:
        if folder.exists() and not folder.is_dir():
            raise LearnError(f"--out {folder}: is a file; give a folder")
        if folder.is_dir() and any(folder.iterdir()):
            raise LearnError(
                f"--out {folder}: the folder is not empty and holds no run; give another"
            )
        folder.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "settings": settings.to_json(), "code": code, "sessions": []}
    data["sessions"].append(session)
    write_run(folder, data)
    return notes


def read_run(folder: Path) -> JsonDict:
    """``run.json`` of ``folder``; raises :class:`LearnError` if it is not a run's."""
    path = folder / RUN_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["format"] != FORMAT:
            raise ValueError(f"format {data['format']!r}")
        Settings.from_json(data["settings"])
        data["code"]["sources"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LearnError(f"{path}: not a training run's file ({exc})") from None
    out: JsonDict = data
    return out


def write_run(folder: Path, data: JsonDict) -> None:
    """Replace ``run.json`` atomically."""
    tmp = folder / f".{RUN_FILE}.partial"
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, folder / RUN_FILE)


def note_session(folder: Path, **figures: object) -> None:
    """Add figures (games made, seconds, losses) to this session's entry in ``run.json``."""
    data = read_run(folder)
    data["sessions"][-1].update(figures)
    write_run(folder, data)


def check_torch() -> None:
    """Raise :class:`LearnError` with the install command when PyTorch is missing
    (training needs it; playing with trained weights does not)."""
    if importlib.util.find_spec("torch") is None:
        raise LearnError("training needs PyTorch: pip install -e '.[train]'")
