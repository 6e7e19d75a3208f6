"""The strength table (docs/strength.md) from tournaments between the bots.

For every registered game:

* games for two: ``normal`` vs ``random``, ``hard`` vs ``greedy``, ``hard`` vs
  ``normal`` and ``easy`` vs ``greedy``, seats rotated;
* games for one: the mean score of ``random``, ``greedy``, ``easy``, ``normal`` and
  ``hard`` playing alone;
* the median and 95th percentile of the seconds per move of each level, over every
  game of the table where that level played.

The raw results are kept in docs/strength.json, game by game and row by row, and the
script only plays what is missing: run it again with a larger ``--games`` to add games,
with ``--only GAME`` to work on one game, with ``--rows`` to pick rows; ``--sprt
ELO0,ELO1`` plays two-player rows as sequential tests (:mod:`sudoku_arena.lab.sprt`)
instead, ``--games`` the cap, and a row keeps the test under ``"sprt"`` (rows without
it are a fixed count; plain runs leave a tested row as it is). A row whose
game version, level budgets or bot code (the game's rules, agents and search knowledge,
and the search: :func:`fingerprint`) changed since it was played is started over
(``--keep-stale`` keeps it). After a change that should not change any move (a
refactor, a speed-up), ``--verify N`` replays each row's N shortest games instead and
keeps the rows whose games come out the same. ``--render`` only rewrites the Markdown.

Usage (``FOLDER`` holds ``strength.json`` and gets ``strength.md``; the project's is
``docs``)::

    sudoku-arena analyze --preset strength --out docs [--games 200] [GAME]
    python scripts/strength_table.py [--games 200] [--only GAME ...] [--rows hard-greedy]
    python scripts/strength_table.py --verify 3 [--only GAME ...]
    python scripts/strength_table.py --sprt 0,50 --games 400 --only GAME --rows hard-greedy
    python scripts/strength_table.py --exploit-from DIR   # an analyze --preset exploit run
"""

from __future__ import annotations

import argparse
import datetime
import fcntl
import hashlib
import inspect
import json
import math
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from sudoku_arena.ai.features import PACKAGE_FILE, features_module
from sudoku_arena.ai.hints import LEVELS, hints_for
from sudoku_arena.ai.learned import ships_weights
from sudoku_arena.ai.tournament import (
    GameResult,
    jobs,
    percentile,
    play_game,
    run_games,
    summarise,
)
from sudoku_arena.core.errors import ArenaError, UnknownGameError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry_of, load, registered_games
from sudoku_arena.core.search import SearchHints
from sudoku_arena.core.sources import modules_reached, source_of
from sudoku_arena.core.types import GameSpec, JsonDict
from sudoku_arena.lab.sprt import (
    CONTINUE,
    H0,
    H1,
    PairedGames,
    Sprt,
    game_score,
    parse_elo_bounds,
)
from sudoku_arena.lab.strength_exploit import merge as merge_exploit
from sudoku_arena.lab.strength_exploit import section as exploit_section

JSON_NAME = "strength.json"
MD_NAME = "strength.md"

DUELS = (
    ("normal-random", ("normal", "random")),
    ("hard-greedy", ("hard", "greedy")),
    ("hard-normal", ("hard", "normal")),
    ("easy-greedy", ("easy", "greedy")),
)
SOLOS = tuple((f"solo-{name}", (name,)) for name in ("random", "greedy", *LEVELS))

#: The acceptance targets of the bots (win rate of the first agent, two players).
TARGETS: dict[tuple[str, str], str] = {
    ("tic-tac-sudoku", "normal-random"): ">= 95%",
    ("sudoku-warriors", "normal-random"): ">= 95%",
    ("citadel", "normal-random"): ">= 95%",
    ("sudokuhex", "normal-random"): ">= 85%",
    ("tic-tac-sudoku", "hard-greedy"): ">= 70%",
    ("sudoku-warriors", "hard-greedy"): ">= 70%",
    ("citadel", "hard-greedy"): ">= 70%",
    ("sudokuhex", "hard-greedy"): "CI above 50%",
}

#: Solo targets: the row's mean score, its 95% interval clear above the named row's.
SOLO_TARGETS: dict[tuple[str, str], str] = {
    ("cat-sudoku", "solo-hard"): "solo-greedy",
    ("sudokuhex", "solo-hard"): "solo-greedy",
}


@dataclass(frozen=True)
class Row:
    key: str
    players: tuple[str, ...]


def rows_for(spec: GameSpec) -> list[Row]:
    out = []
    if spec.min_players <= 2 <= spec.max_players:
        out += [Row(k, p) for k, p in DUELS]
    if spec.min_players == 1:
        out += [Row(k, p) for k, p in SOLOS]
    return out


def fingerprint(game_id: str, players: int, params: JsonDict) -> str:
    """What a row's results depend on: the game's version, the level budgets, the
    parameters and the source of every module that decides a bot's move
    (:func:`knowledge_modules`)."""
    game = load(game_id, seed=0, **{**params, "players": players})
    hints = hints_for(game)
    make = entry_of(game).search_hints
    entry = entry_of(game)
    makers: list[object] = [make, *entry.agents.values()]
    roots = [type(game).__module__]
    roots += [m.__name__ for m in map(inspect.getmodule, makers) if m is not None]
    sources = {name: _source_of(name) for name in knowledge_modules(type(game).__module__, roots)}
    budgets = {lv: hints.budget(lv).describe() for lv in LEVELS}
    facts: list[object] = [game.spec.version, budgets, sources, params]
    if ships_weights(game):
        # Its levels play with the learned evaluation: the weights and the code that
        # reads them decide the moves too (games without weights keep their prints).
        learned = [features_module(game), "sudoku_arena.ai.value", "sudoku_arena.ai.learned"]
        facts.append({name: _source_of(name) for name in learned})
        facts.append(_weights_digest(game))
    text = json.dumps(facts, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _weights_digest(game: AnyGame) -> str:
    """The SHA-256 of the weights shipped in ``game``'s package."""
    package = features_module(game).rpartition(".")[0]
    return hashlib.sha256((files(package) / PACKAGE_FILE).read_bytes()).hexdigest()


#: The generic search: every level's moves go through it.
_SEARCH_PACKAGE = "sudoku_arena.ai.mcts"


def knowledge_modules(rules_module: str, roots: Sequence[str]) -> list[str]:
    """The modules whose code decides the bots' moves in the game whose rules class is
    in ``rules_module``, sorted: ``roots`` (its rules, search knowledge and agents), the
    generic search, and every module of the game's own package or of the search that
    these import, followed import by import.

    The game's rules and agents are among them (the search steps with the rules and
    expands by the greedy agent's scores), so a change to either marks the rows too; a
    change that keeps every move the same is shown by :func:`verify_row` instead."""
    package = rules_module.rsplit(".", 1)[0]
    inside = (package + ".", _SEARCH_PACKAGE + ".", _SEARCH_PACKAGE)
    return modules_reached([*roots, _SEARCH_PACKAGE], inside)


def _source_of(module: str) -> str:
    text = source_of(module)
    assert text is not None, module
    return text


def verify_row(game_id: str, entry: JsonDict, sample: int) -> list[str]:
    """Replay the ``sample`` shortest stored games of a row with the present code and
    say how each that came out differently differs (empty: all the same).

    A row's games are reproducible from their seeds while no level's time cap binds,
    so the same plies and scores mean the same moves: the row still stands for the
    present bots even if :func:`fingerprint` changed (a refactor, a comment)."""
    stored = sorted(entry.get("results", []), key=lambda r: (r["plies"], r["index"]))[:sample]
    params = dict(entry.get("params", {}))
    todo = [
        j
        for r in stored
        for j in jobs(game_id, entry["players"], 1, params=params, start=int(r["index"]))
    ]
    out = []
    for r, job in zip(stored, todo, strict=True):
        now = play_game(job, max_plies=int(r["plies"]) + 1)
        was = (r["plies"], [float(x) for x in r["scores"]])
        got = (now.plies, [float(x) for x in now.scores])
        if got != was:
            out.append(f"game {r['index']}: {got[0]} plies, scores {got[1]}; stored {was}")
    return out


def verify(
    folder: Path, store: JsonDict, game_id: str, row: Row, sample: int, params: JsonDict
) -> None:
    """:func:`verify_row` on one row; when its games replay the same, stamp it with the
    present :func:`fingerprint` (it stands for the present bots)."""
    entry = store["games"].get(game_id, {}).get(row.key)
    if not entry or not entry.get("results"):
        return
    fp = fingerprint(game_id, len(row.players), dict(entry.get("params", params)))
    differ = verify_row(game_id, entry, sample)
    if differ:
        print(f"  {row.key}: replays differently, so it stays marked as played by an earlier")
        print("    search until played again (--rows " + row.key + "):")
        for line in differ:
            print(f"    {line}")
        return
    print(f"  {row.key}: its {min(sample, len(entry['results']))} shortest games replay the same")
    if entry.get("fingerprint") != fp:
        entry["fingerprint"] = fp
        save_row(folder, store, game_id, row.key)


def load_store(folder: Path) -> JsonDict:
    path = folder / JSON_NAME
    if path.exists():
        data: JsonDict = json.loads(path.read_text(encoding="utf-8"))
        return data
    return {"games": {}}


def save_row(folder: Path, store: JsonDict, game_id: str, key: str) -> None:
    """Write one row into the file, keeping every other row as the file has it now, so
    that several runs (``--only`` different games) can share the file."""
    with open((folder / JSON_NAME).with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        on_disk = load_store(folder)
        on_disk["games"].setdefault(game_id, {})[key] = store["games"][game_id][key]
        save_store(folder, on_disk)
        for gid, rows in on_disk["games"].items():  # pick up the other runs' rows
            mine = store["games"].setdefault(gid, {})
            for k, entry in rows.items():
                if (gid, k) != (game_id, key):
                    mine[k] = entry


def add_exploit_runs(folder: Path, runs: Sequence[Path]) -> list[str]:
    """Copy the exploit runs in ``runs`` into the store in ``folder`` (under its lock,
    like :func:`save_row`); return what was written, ``GAME LEVEL/Np`` each."""
    written: list[str] = []
    with open((folder / JSON_NAME).with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        on_disk = load_store(folder)
        for run_folder in runs:
            game_id, keys = merge_exploit(on_disk, run_folder)
            written += [f"{game_id} {k}" for k in keys]
        save_store(folder, on_disk)
    return written


def save_store(folder: Path, store: JsonDict) -> None:
    path = folder / JSON_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def play_row(
    folder: Path,
    store: JsonDict,
    game_id: str,
    row: Row,
    games: int,
    workers: int | None,
    keep_stale: bool,
    params: JsonDict,
    sprt: tuple[float, float] | None = None,
) -> None:
    """Play what the row lacks of ``games`` games; with ``sprt`` (``(elo0, elo1)``, a
    two-player row) play it as a sequential test instead, ``games`` the cap
    (:func:`_row_test`)."""
    k = len(row.players)
    fp = fingerprint(game_id, k, params)
    entry = store["games"].setdefault(game_id, {}).setdefault(row.key, {})
    if entry.get("fingerprint") != fp and entry.get("results") and not keep_stale:
        print(f"  {row.key}: search or budgets changed since it was played; starting over")
        entry.clear()
    entry.setdefault("results", [])
    entry["fingerprint"] = entry.get("fingerprint", fp) if keep_stale else fp
    entry["players"] = list(row.players)
    entry["params"] = params
    games = math.ceil(games / k) * k  # whole blocks: every agent in every seat
    if sprt is None and entry.get("sprt") and entry["results"]:
        # Adding games by count would blur what the test decided on: its games only.
        print(f"  {row.key}: settled by SPRT; give --sprt to test it again")
        return
    if sprt is not None and k != 2:
        print(f"  {row.key}: one player, no SPRT: a fixed count")
    feed = _row_test(entry, games, sprt) if sprt is not None and k == 2 else None
    have = {r["index"] for r in entry["results"]}
    missing = [i for i in range(games) if i not in have]
    if feed is not None and (feed.decided or not missing):
        entry["sprt"] = _sprt_record(feed, games)
        save_row(folder, store, game_id, row.key)
        print(f"  {row.key}: SPRT {feed.test.decision} on its stored games, nothing to play")
        return
    if not missing:
        print(f"  {row.key}: {len(have)} games, nothing to add")
        return
    todo = [j for j in jobs(game_id, row.players, games, params=params) if j.index in missing]
    print(f"  {row.key}: {len(have)} games kept, playing {len(todo)}", flush=True)
    last_save = time.monotonic()
    done = 0

    def keep(r: GameResult) -> None:
        nonlocal last_save, done
        entry["results"].append(r.to_json())
        done += 1
        if time.monotonic() - last_save > 30:
            save_row(folder, store, game_id, row.key)
            last_save = time.monotonic()
            print(f"    {done}/{len(todo)}", flush=True)

    if feed is None:
        run_games(todo, workers=workers, on_result=keep)
    else:
        sequential = feed  # (named for the closure below)

        def decided(r: GameResult) -> bool:
            return sequential.add(r.index, game_score(r.returns))

        run_games(todo, workers=workers, on_result=keep, stop=decided)
        if sequential.decided:  # games that ended after the decision do not count
            entry["results"] = [
                r for r in entry["results"] if r["index"] in have or r["index"] < sequential.games
            ]
        entry["sprt"] = _sprt_record(sequential, games)
        print(f"  {row.key}: SPRT {sequential.test.decision} at {sequential.games} games")
    entry["results"].sort(key=lambda r: r["index"])
    entry["updated"] = datetime.date.today().isoformat()
    save_row(folder, store, game_id, row.key)


def _row_test(entry: JsonDict, cap: int, bounds: tuple[float, float]) -> PairedGames:
    """The sequential test (:mod:`sudoku_arena.lab.sprt`) of a two-player row: its first
    agent stronger than its second by ``elo1`` against ``elo0``, on seat-swapped pairs,
    fed the row's stored games below ``cap`` in order. Playing goes on from there, pair
    by pair, until it decides or reaches ``cap``: stored games are never played again."""
    feed = PairedGames(Sprt(*bounds))
    for r in sorted(entry["results"], key=lambda r: int(r["index"])):
        if r["index"] < cap and feed.add(int(r["index"]), game_score(r["returns"])):
            break
    return feed


def _sprt_record(feed: PairedGames, cap: int) -> JsonDict:
    """What a row keeps of its test under ``"sprt"`` (a row without it is a fixed count)."""
    test = feed.test
    return {
        "elo0": test.elo0,
        "elo1": test.elo1,
        "alpha": test.alpha,
        "beta": test.beta,
        "model": test.model,
        "llr": round(test.llr, 4),
        "decision": test.decision,
        "games": feed.games,
        "cap": cap,
    }


# -- rendering ------------------------------------------------------------------------------


def _results(entry: JsonDict) -> list[GameResult]:
    return [GameResult.from_json(r) for r in entry.get("results", [])]


def _pct(x: float) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.1f}%"


def _sec(x: float) -> str:
    return "–" if math.isnan(x) else f"{x:.3f}"


#: Games a row needs before its target counts as shown.
MIN_GAMES = 200


def _check(target: str | None, rate: float, lo: float, games: int) -> str:
    if target is None:
        return ""
    if games < MIN_GAMES:
        return f"{target} (so far; needs {MIN_GAMES} games)"
    if target.startswith(">="):
        ok = rate >= float(target[2:].strip().rstrip("%")) / 100
    else:
        ok = lo > 0.5
    return f"{target} {'✓' if ok else '✗'}"


def _solo_check(game_id: str, key: str, data: JsonDict) -> str:
    """The solo target of row ``key`` (``SOLO_TARGETS``), shown once both rows have
    ``MIN_GAMES`` games: its interval must lie above the other row's."""
    other = SOLO_TARGETS.get((game_id, key))
    if other is None:
        return ""
    target = f"CI above {other.removeprefix('solo-')}'s"
    mine, theirs = _results(data[key]), _results(data.get(other, {}))
    if min(len(mine), len(theirs)) < MIN_GAMES:
        return f"{target} (so far; needs {MIN_GAMES} games)"
    lo = summarise(game_id, data[key]["players"], mine).agents[0].score_ci[0]
    hi = summarise(game_id, data[other]["players"], theirs).agents[0].score_ci[1]
    return f"{target} {'✓' if lo > hi else '✗'}"


def _current(game_id: str, entry: JsonDict) -> bool:
    """Whether a row was played by the game's present search and budgets."""
    fp = entry.get("fingerprint")
    return fp is None or fp == fingerprint(
        game_id, len(entry["players"]), dict(entry.get("params", {}))
    )


#: The mark of a row whose games were played by an earlier search or budget.
_STALE = " (earlier search: play again to confirm)"


def render(store: JsonDict) -> str:
    lines = [
        "# Bot strength",
        "",
        "Produced by `sudoku-arena analyze --preset strength --out docs` (or",
        "`python scripts/strength_table.py`) from the raw results in `docs/strength.json`",
        "(play it again after changing a game's rules, agents or search knowledge, or the",
        "search; `--verify 3` keeps the rows whose games still replay the same). Levels",
        "and their budgets are described in [bots.md](bots.md).",
        "",
        "Played on the project's 2-core machine, shared with other work while the table",
        f"was played (timings are pessimistic); rendered with Python {platform.python_version()}.",
        "",
        "Win rates are the first agent's share of the games (a shared win counts",
        "1/k) with a 95% Wilson interval; seats rotate, so every agent plays every seat",
        "of every board equally often. Scores are means with a 95% normal interval.",
        "Games won by nobody are draws at a turn limit (Citadel, CI-9).",
        "",
        "A two-player row is settled by a *fixed count* (every game of the row was played)",
        "or by an *SPRT*: a sequential probability ratio test of the first agent being",
        "elo1 Elo stronger than the second against elo0, played in seat-swapped pairs and",
        "stopped at its decision, the row's games the cap (*stronger*: H1 accepted; *not",
        "stronger*: H0 accepted). Solo rows are a fixed count. See",
        "[how strength claims are decided](bots.md#how-strength-claims-are-decided).",
        "",
    ]
    for spec in registered_games():
        data = store["games"].get(spec.id)
        if not data:
            lines += [f"## {spec.name}", "", "Not measured yet.", ""]
            lines += exploit_section(store, spec.id)
            continue
        lines += [f"## {spec.name}", ""]
        # Rows played by an earlier search or budget stay in the table, marked, until
        # they are played again: a reader sees the old figure and that it is old.
        stale = {k for k, d in data.items() if d.get("results") and not _current(spec.id, d)}
        duel = [(k, d) for k, d in data.items() if len(d["players"]) == 2 and d.get("results")]
        solo = [(k, d) for k, d in data.items() if len(d["players"]) == 1 and d.get("results")]
        order = [k for k, _ in DUELS] + [k for k, _ in SOLOS]
        duel.sort(key=lambda kd: order.index(kd[0]) if kd[0] in order else 99)
        solo.sort(key=lambda kd: order.index(kd[0]) if kd[0] in order else 99)
        if duel:
            lines += [
                "Two players:",
                "",
                "| match | games | first agent wins | 95% CI | won by nobody "
                "| mean length (plies) | target | settled by |",
                "|---|---:|---:|---:|---:|---:|---|---|",
            ]
            for key, d in duel:
                s = summarise(spec.id, d["players"], _results(d))
                a = s.agents[0]
                lines.append(
                    f"| {' vs '.join(d['players'])} | {s.games} | {_pct(a.win_rate)} | "
                    f"{_pct(a.win_ci[0])} – {_pct(a.win_ci[1])} | {s.unwon} | {s.mean_plies:.1f} | "
                    f"{_check(TARGETS.get((spec.id, key)), a.win_rate, a.win_ci[0], s.games)}"
                    f"{_STALE if key in stale else ''} | {settled_by(d)} |"
                )
            lines.append("")
        if solo:
            lines += [
                "Solo (one player):",
                "",
                "| agent | games | mean score | 95% CI | mean length (plies) | target |",
                "|---|---:|---:|---:|---:|---|",
            ]
            for key, d in solo:
                s = summarise(spec.id, d["players"], _results(d))
                a = s.agents[0]
                lines.append(
                    f"| {a.name} | {s.games} | {a.mean_score:.1f} | "
                    f"{a.score_ci[0]:.1f} – {a.score_ci[1]:.1f} | {s.mean_plies:.1f} | "
                    f"{_solo_check(spec.id, key, data)}{_STALE if key in stale else ''} |"
                )
            lines.append("")
        lines += _timings(spec.id, data)
        lines += exploit_section(store, spec.id)
        if stale:
            lines += [
                f"Rows marked{_STALE} were played before the last change to the code "
                "that decides this game's bot moves (its rules, agents and search "
                "knowledge, and the search) or to the budgets, and do not replay the same "
                "games since: " + ", ".join(sorted(stale)) + ".",
                "",
            ]
    return "\n".join(lines).rstrip() + "\n"


#: How a row's SPRT decision reads in the table.
_DECIDED = {H1: "stronger", H0: "not stronger", CONTINUE: "inconclusive at the cap"}


def settled_by(entry: JsonDict) -> str:
    """How a two-player row was settled: ``fixed count`` (a row without ``"sprt"``,
    every row played before the test existed) or the test's bounds and outcome."""
    test = entry.get("sprt")
    if not test:
        return "fixed count"
    return (
        f"SPRT {test['elo0']:g}, {test['elo1']:g}: {_DECIDED[test['decision']]} "
        f"(LLR {test['llr']:.2f}, {test['games']} games)"
    )


def _timings(game_id: str, data: JsonDict) -> list[str]:
    times: dict[str, list[float]] = {}
    for d in data.values():
        for r in _results(d):
            for j, name in enumerate(d["players"]):
                times.setdefault(name, []).extend(r.times[j])
    shown = [lv for lv in LEVELS if times.get(lv)]
    if not shown:
        return []
    counts = sorted({len(d["players"]) for d in data.values()})
    hints = {k: hints_for(load(game_id, seed=0, players=k)) for k in counts}
    out = [
        "Seconds per move (every game above where the level played):",
        "",
        "| level | budget | moves | median s | p95 s |",
        "|---|---|---:|---:|---:|",
    ]
    for lv in shown:
        ts = times[lv]
        out.append(
            f"| {lv} | {_budget(hints, lv)} | {len(ts)} | "
            f"{_sec(percentile(ts, 0.5))} | {_sec(percentile(ts, 0.95))} |"
        )
    return [*out, ""]


def _budget(hints: dict[int, SearchHints], level: str) -> str:
    """``level``'s budget, per player count where the counts differ (SuDokuHex's two
    players play a rule)."""
    said = {k: h.budget(level).describe() for k, h in hints.items()}
    if len(set(said.values())) == 1:
        return next(iter(said.values()))
    return "; ".join(f"{k} player{'s' * (k > 1)}: {text}" for k, text in said.items())


def build(
    folder: Path,
    *,
    games: int = 200,
    only: Sequence[str] = (),
    rows: Sequence[str] = (),
    workers: int | None = None,
    keep_stale: bool = False,
    params: JsonDict | None = None,
    render_only: bool = False,
    verify_sample: int = 0,
    sprt: tuple[float, float] | None = None,
) -> Path:
    """Play what ``folder/strength.json`` lacks (see the module doc) and write
    ``folder/strength.md``; return its path. With ``sprt`` (``(elo0, elo1)``) the
    two-player rows are played as sequential tests, ``games`` the cap. Raises
    ``UnknownGameError`` for an unknown game in ``only``."""
    store = load_store(folder)
    specs = registered_games()
    known = {s.id for s in specs}
    for gid in only:
        if gid not in known:
            raise UnknownGameError(
                f"no game called {gid!r}; known games: {', '.join(sorted(known))}"
            )
    md = folder / MD_NAME
    if not render_only:
        for spec in specs:
            if only and spec.id not in only:
                continue
            print(spec.id, flush=True)
            for row in rows_for(spec):
                if rows and row.key not in rows:
                    continue
                if verify_sample:
                    verify(folder, store, spec.id, row, verify_sample, params or {})
                else:
                    play_row(
                        folder, store, spec.id, row, games, workers, keep_stale, params or {}, sprt
                    )
                md.write_text(render(store), encoding="utf-8")
    md.write_text(render(store), encoding="utf-8")
    return md


def main(argv: list[str] | None = None, folder: Path = Path("docs")) -> int:
    """The command line of ``scripts/strength_table.py``."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    ap.add_argument("--only", action="append", help="game id (repeatable)")
    ap.add_argument("--rows", action="append", help="row key, e.g. hard-greedy (repeatable)")
    ap.add_argument("--workers", type=int, help="worker processes (default: every core)")
    ap.add_argument("--render", action="store_true", help="only rewrite strength.md")
    ap.add_argument(
        "--exploit-from",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="add the exploit run in DIR (analyze GAME --preset exploit --out DIR) to the "
        "table, then render it (repeatable; plays nothing)",
    )
    ap.add_argument("--keep-stale", action="store_true", help="keep rows of older searches")
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE for --only game")
    ap.add_argument(
        "--verify",
        type=int,
        default=0,
        metavar="N",
        help="play nothing: replay each row's N shortest games and re-stamp the rows "
        "whose games come out the same",
    )
    ap.add_argument(
        "--sprt",
        type=_elo_bounds,
        metavar="ELO0,ELO1",
        help="play the two-player rows as sequential probability ratio tests of Elo ELO0 "
        "against ELO1 (such as 0,50), --games the cap",
    )
    args = ap.parse_args(argv)
    if args.exploit_from:
        try:
            for line in add_exploit_runs(folder, args.exploit_from):
                print(f"exploit: {line}")
        except ArenaError as exc:
            print(exc, file=sys.stderr)
            return 2
        args.render = True
    try:
        md = build(
            folder,
            games=args.games,
            only=args.only or (),
            rows=args.rows or (),
            workers=args.workers,
            keep_stale=args.keep_stale,
            params=dict(p.split("=", 1) for p in args.param),
            render_only=args.render,
            verify_sample=args.verify,
            sprt=args.sprt,
        )
    except UnknownGameError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"wrote {md}")
    return 0


def _elo_bounds(text: str) -> tuple[float, float]:
    try:
        return parse_elo_bounds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix(f"--sprt {text!r}: ")) from None
