"""Ratings: OpenSkill ranks from outcomes (ties, 3+ players, scores), a result applied
exactly once (also by threads racing on PostgreSQL), provisional ratings, and the bots'
ratings anchored (normal = 1500, never moved by games with people)."""

from __future__ import annotations

import json
import threading
import tomllib
from fnmatch import fnmatch
from inspect import signature as inspect_signature
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, inspect, text

from sudoku_arena.core.types import Outcome
from sudoku_arena.server import migrations, ratings
from sudoku_arena.server.db import ratings as db
from sudoku_arena.server.ratings import (
    BOT_RATINGS_JSON,
    PROVISIONAL_GAMES,
    RATED_LEVELS,
    STRENGTH_JSON,
    StrengthResult,
    StrengthRow,
    apply_result,
    bot_ratings,
    display,
    fit_bots,
    packaged_bot_ratings,
    provisional,
    ranks,
    seed_bots,
)


def _engine(url: str) -> Engine:
    # PostgreSQL through psycopg 3, as the server's storage does
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    migrations.upgrade(engine)
    return engine


def win(
    *winners: int, n: int = 2, scores: tuple[float, ...] | None = None, code: str = ""
) -> Outcome:
    return Outcome(tuple(winners), scores or (0.0,) * n, "test", code)


# -- ranks --------------------------------------------------------------------------------


def test_winners_share_rank_one_and_the_rest_rank_two() -> None:
    assert ranks("tic-tac-sudoku", win(1)) == [2, 1]
    assert ranks("sudoku-warriors", win(0, 2, n=3)) == [1, 2, 1]
    assert ranks("sudoku-warriors", win(n=3)) == [1, 1, 1]  # nobody won: a tie


def test_scored_games_order_the_losers_by_score_with_ties() -> None:
    outcome = win(0, n=4, scores=(10.0, 5.0, 5.0, 7.0))
    assert ranks("cat-sudoku", outcome) == [1, 3, 3, 2]
    assert ranks("sudokuhex", win(n=3, scores=(4.0, 9.0, 4.0))) == [2, 1, 2]
    # the same scores in a game without scores: every loser shares rank 2
    assert ranks("sudoku-warriors", outcome) == [1, 2, 2, 2]
    # a resignation is decided by the players: the scores of the moment do not count
    resigned = win(0, 2, n=3, scores=(1.0, 9.0, 3.0), code="resign")
    assert ranks("cat-sudoku", resigned) == [1, 2, 1]


def test_aborted_and_abandoned_games_are_not_rated() -> None:
    assert ranks("tic-tac-sudoku", win(code="abort")) is None
    assert ranks("tic-tac-sudoku", win(code="abandoned")) is None
    assert ranks("tic-tac-sudoku", win(0, code="time")) == [1, 2]


# -- applying -----------------------------------------------------------------------------


def _rated(engine: Engine, gid: str, *keys: str, game: str = "tic-tac-sudoku") -> None:
    db.mark_rated(engine, gid, game, {i: (k, k.split(":")[1]) for i, k in enumerate(keys)})


def _rating(engine: Engine, key: str, game: str = "tic-tac-sudoku") -> db.RatingRow | None:
    with engine.connect() as conn:
        return db.load_ratings(conn, game, [key]).get(key)


def test_a_result_moves_both_people_once(db_url: str) -> None:
    engine = _engine(db_url)
    _rated(engine, "g1", "account:1", "account:2")
    changes = apply_result(engine, "g1", "tic-tac-sudoku", win(0))
    assert {c.player: c.after > c.before for c in changes} == {
        "account:1": True,
        "account:2": False,
    }
    assert apply_result(engine, "g1", "tic-tac-sudoku", win(0)) == []  # applied already
    assert apply_result(engine, "g1", "tic-tac-sudoku", win(1)) == []
    a, b = _rating(engine, "account:1"), _rating(engine, "account:2")
    assert a is not None and b is not None and a.games == b.games == 1
    assert display(a.mu, a.sigma) > 1500 > display(b.mu, b.sigma)
    assert [h.game_id for h in db.player_history(engine, "account:1")] == ["g1"]
    # an unrated game is never applied
    assert apply_result(engine, "never-rated", "tic-tac-sudoku", win(0)) == []
    engine.dispose()


def test_a_result_raced_by_many_threads_is_applied_once(pg_url: str) -> None:
    engine = _engine(pg_url)
    for i in range(5):
        _rated(engine, f"g{i}", "account:1", "account:2")
    applied: list[int] = []

    def apply(gid: str) -> None:
        applied.append(len(apply_result(engine, gid, "tic-tac-sudoku", win(0))))

    threads = [threading.Thread(target=apply, args=(f"g{i % 5}",)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(applied) == [0] * 35 + [2] * 5
    row = _rating(engine, "account:1")
    assert row is not None and row.games == 5  # the five games, each once (rows locked)
    assert len(db.player_history(engine, "account:1")) == 5
    engine.dispose()


def test_a_rating_is_provisional_until_enough_games(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    for i in range(PROVISIONAL_GAMES):
        row = _rating(engine, "account:1")
        assert row is None or provisional(row.games, row.player)
        _rated(engine, f"g{i}", "account:1", "account:2")
        apply_result(engine, f"g{i}", "tic-tac-sudoku", win(i % 2))
    row = _rating(engine, "account:1")
    assert row is not None and row.games == PROVISIONAL_GAMES
    assert not provisional(row.games, row.player)
    assert not provisional(0, "bot:normal")  # bots are anchored, never provisional
    engine.dispose()


def test_three_players_with_a_tie(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    _rated(engine, "g", "account:1", "account:2", "account:3", game="sudoku-warriors")
    changes = apply_result(engine, "g", "sudoku-warriors", win(0, 1, n=3))
    after = {c.player: c.after for c in changes}
    assert after["account:1"] == after["account:2"] > 1500 > after["account:3"]
    engine.dispose()


def test_a_seat_without_a_rated_player_changes_nobody(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    db.mark_rated(engine, "g", "tic-tac-sudoku", {0: ("account:1", "ann")})
    assert apply_result(engine, "g", "tic-tac-sudoku", win(0)) == []
    assert _rating(engine, "account:1") is None
    # one account in both seats is not a rated game either
    _rated(engine, "g2", "account:1", "account:1")
    assert apply_result(engine, "g2", "tic-tac-sudoku", win(0)) == []
    engine.dispose()


# -- bots ---------------------------------------------------------------------------------


def test_bots_are_fitted_from_their_games_and_normal_is_1500() -> None:
    fitted = fit_bots(json.loads(STRENGTH_JSON.read_text()))
    assert set(fitted) >= {"tic-tac-sudoku", "sudoku-warriors", "sudokuhex", "cat-sudoku"}
    for game, levels in fitted.items():
        assert set(levels) <= set(RATED_LEVELS)
        assert display(*levels["normal"]) == 1500, game
    ttt = {lv: display(*r) for lv, r in fitted["tic-tac-sudoku"].items()}
    assert ttt["hard"] > ttt["normal"] > ttt["easy"]  # hard beat normal, normal beat random


def test_solo_rows_rate_the_bots_only_where_no_level_played_another() -> None:
    """A rating is used against people: where levels met in the table, their games
    decide, and what they scored alone does not (SuDokuHex's ``hard`` searches alone
    but plays ``normal``'s rule against opponents)."""

    def row(players: list[str], returns: list[list[float]]) -> StrengthRow:
        results = [StrengthResult(seed=i, returns=r) for i, r in enumerate(returns)]
        return StrengthRow(players=players, results=results)

    solo = {
        "solo-normal": row(["normal"], [[0.4]] * 40),
        "solo-hard": row(["hard"], [[0.9]] * 40),
    }
    even = row(["hard", "normal"], [[1.0, 0.0], [0.0, 1.0]] * 20)
    alone = fit_bots({"games": {"g": solo}})["g"]
    assert display(*alone["hard"]) > display(*alone["normal"]) + 100
    met = fit_bots({"games": {"g": {**solo, "hard-normal": even}}})["g"]
    assert abs(display(*met["hard"]) - display(*met["normal"])) < 50


def test_the_shipped_bot_ratings_are_the_fit_of_todays_strength_table() -> None:
    """The packaged file equals what the fit gives from docs/strength.json: after a new
    strength table, ``python scripts/fit_bot_ratings.py`` writes it again."""
    assert packaged_bot_ratings() == fit_bots(json.loads(STRENGTH_JSON.read_text()))


def test_the_server_reads_bot_ratings_from_its_package_not_docs(
    sqlite_url: str, tmp_path: Path
) -> None:
    """An installed server has no docs/: the file it seeds from is inside the package,
    and the package data's globs ship it."""
    package = Path(ratings.__file__).parent
    shipped = inspect_signature(seed_bots).parameters["path"].default
    assert shipped == BOT_RATINGS_JSON and shipped.parent == package and shipped.is_file()
    globs = tomllib.loads((package.parents[2] / "pyproject.toml").read_text())["tool"][
        "setuptools"
    ]["package-data"]["*"]
    assert any(fnmatch(shipped.name, g) for g in globs)
    # Seeded from a copy anywhere (no strength table near it): every game's levels.
    copy = tmp_path / "bot_ratings.json"
    copy.write_text(shipped.read_text())
    engine = _engine(sqlite_url)
    assert seed_bots(engine, copy) == sum(len(v) for v in packaged_bot_ratings().values())
    assert bot_ratings(engine, "tic-tac-sudoku")["normal"] == 1500
    engine.dispose()


def test_a_bot_rating_stays_anchored_while_the_person_moves(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    assert seed_bots(engine) > 0
    before = _rating(engine, "bot:normal")
    assert before is not None and bot_ratings(engine, "tic-tac-sudoku")["normal"] == 1500
    for i in range(3):
        _rated(engine, f"g{i}", "account:1", "bot:normal")
        changes = apply_result(engine, f"g{i}", "tic-tac-sudoku", win(0))
        assert [c.player for c in changes] == ["account:1"]
    assert _rating(engine, "bot:normal") == before
    person = _rating(engine, "account:1")
    assert person is not None and display(person.mu, person.sigma) > 1500
    # a level with no anchored rating in a game: the game is not applied
    _rated(engine, "x", "account:1", "bot:random")
    assert apply_result(engine, "x", "tic-tac-sudoku", win(0)) == []
    engine.dispose()


def test_a_database_at_0007_with_a_game_upgrades_and_keeps_it(tmp_path: Path) -> None:
    from alembic import command

    engine = create_engine(f"sqlite:///{tmp_path}/old.sqlite3")
    with engine.begin() as conn:
        command.upgrade(migrations._config(conn), "0007")
        values = {}
        for col in inspect(conn).get_columns("arena_games"):
            kind = str(col["type"]).upper()
            values[col["name"]] = (
                "kept" if col["name"] == "id" else 0 if "INT" in kind or "FLOAT" in kind else "x"
            )
        names = ", ".join(values)
        conn.execute(
            text(
                f"INSERT INTO arena_games ({names}) VALUES ({', '.join(':' + k for k in values)})"
            ),
            values,
        )
    migrations.upgrade(engine)
    tables = set(inspect(engine).get_table_names())
    assert {"arena_ratings", "arena_rating_history", "arena_rated_games", "arena_seeks"} <= tables
    with engine.connect() as conn:
        assert conn.execute(text("SELECT id FROM arena_games")).scalar_one() == "kept"
    engine.dispose()


@pytest.mark.parametrize("games", [0, PROVISIONAL_GAMES - 1])
def test_people_are_provisional_below_the_threshold(games: int) -> None:
    assert provisional(games, "account:5")
