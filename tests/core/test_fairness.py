"""Chance from a committed secret: exact sampling, commitments, and offline checking."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any

import pytest

from sudoku_arena.ai import make_agent
from sudoku_arena.core.errors import RecordError
from sudoku_arena.core.fairness import (
    ChanceSource,
    ClientSeed,
    commitment,
    new_secret,
    public_seed,
    secret_from_seed,
)
from sudoku_arena.core.match import Match
from sudoku_arena.core.record import Record, replay
from sudoku_arena.core.registry import load
from sudoku_arena.core.verify import VerifyError, verify_record

SECRET = bytes(range(32))


def _chi_square(counts: list[int], probs: list[Fraction]) -> float:
    n = sum(counts)
    return sum((c - n * float(p)) ** 2 / (n * float(p)) for c, p in zip(counts, probs, strict=True))


@pytest.mark.parametrize(
    "probs",
    [
        [Fraction(1, 6)] * 6,  # a die
        [Fraction(1, 7), Fraction(2, 7), Fraction(4, 7)],  # skewed, denominators not 2^k
        [Fraction(6, 41), Fraction(35, 41)],  # a pile running low
    ],
)
def test_sampler_frequencies_match_the_engine_probabilities(probs: list[Fraction]) -> None:
    """Chi-square over 10^5 draws from a fixed secret (deterministic, so never flaky):
    below the 0.1% critical value for the degrees of freedom at hand."""
    source = ChanceSource(SECRET, "chi-square")
    outcomes = list(enumerate(probs))
    counts = [0] * len(probs)
    for ply in range(100_000):
        counts[source.draw(ply, outcomes)] += 1
    critical = {1: 10.83, 2: 13.82, 5: 20.52}[len(probs) - 1]
    assert _chi_square(counts, probs) < critical


def test_draws_depend_on_secret_match_ply_and_client_seeds() -> None:
    die = [(v, Fraction(1, 6)) for v in range(1, 7)]

    def rolls(source: ChanceSource) -> list[int]:
        return [source.draw(p, die) for p in range(64)]

    base = rolls(ChanceSource(SECRET, "m"))
    assert base == rolls(ChanceSource(SECRET, "m"))  # deterministic
    assert base != rolls(ChanceSource(bytes(32), "m"))
    assert base != rolls(ChanceSource(SECRET, "other match"))
    seeded = rolls(ChanceSource(SECRET, "m", [ClientSeed(1, "lucky", 10)]))
    assert seeded[:10] == base[:10] and seeded[10:] != base[10:]  # from its ply on


def test_commitment_is_sha256_of_the_identity_and_the_secret() -> None:
    secret = new_secret()
    expected = hashlib.sha256(b"sudoku-arena/commit/v1\0m1\0" + secret).hexdigest()
    assert commitment(secret, "m1") == expected
    assert new_secret() != secret and len(secret) == 32


def test_public_setup_shares_nothing_with_the_secret() -> None:
    # The public seed and the secret come from the same user seed through unrelated
    # hashes: the grid does not narrow down the chance stream.
    assert public_seed(7) != int.from_bytes(secret_from_seed(7)[:8], "big") >> 1
    a = Match(load("cat-sudoku", seed=7), seed=7)
    b = Match(load("cat-sudoku", seed=7), seed=8)
    assert a.game.params == b.game.params  # same public set-up...
    assert a.log != b.log  # ...different dice


def _finished(game_id: str, seed: int, players: int = 2) -> Match:
    m = Match(load(game_id, seed=seed, players=players), seed=seed)
    m.run([make_agent("random", m.game, seed=m.bot_seed(s)) for s in range(players)])
    return m


def test_a_finished_record_verifies_and_counts_its_draws() -> None:
    rec = _finished("sudokuhex", 3).record()
    assert rec.chance is not None and rec.chance.secret == secret_from_seed(3).hex()
    done = verify_record(Record.loads(rec.dumps()))
    assert done.chance_checked == sum(e.actor is None for e in rec.actions) > 10


def _tampered(rec: Record, edit: Any) -> Record:
    data = json.loads(rec.dumps())
    edit(data)
    return Record.from_json(data)


def test_a_changed_draw_fails_at_its_ply() -> None:
    m = Match(load("cat-sudoku", seed=4, players=1), secret=SECRET, match_id="t")
    m.run([make_agent("random", m.game, seed=1)])
    rec = m.record()
    k = next(e.ply for e in rec.actions if e.actor is None and e.ply > 5)

    def edit(d: dict[str, Any]) -> None:
        old = d["actions"][k]["action"]
        options = [f"roll {a} {b} {c} {e}" for a, b, c, e in [(1, 2, 3, 4), (6, 6, 6, 6)]]
        d["actions"][k]["action"] = options[0] if old != options[0] else options[1]

    with pytest.raises(RecordError, match=f"ply {k}:"):
        verify_record(_tampered(rec, edit))


def test_a_changed_secret_or_client_seed_fails() -> None:
    m = Match(
        load("sudokuhex", seed=5),
        secret=SECRET,
        match_id="t2",
        client_seeds=[ClientSeed(1, "mine", 0)],
    )
    m.run([make_agent("random", m.game, seed=s) for s in range(2)])
    rec = m.record()
    verify_record(rec)
    other = bytes([7] * 32)  # fixed, so the test never varies

    def first_differing_draw(secret: bytes, seeds: list[ClientSeed]) -> int:
        """The first ply whose draw under ``secret`` and ``seeds`` is not the record's."""
        game, states = replay(rec)
        source = ChanceSource(secret, "t2", seeds)
        for e in rec.actions:
            if e.actor is None:
                drawn = game.format_action(source.draw(e.ply, game.chance_outcomes(states[e.ply])))
                if drawn != e.action:
                    return e.ply
        raise AssertionError("every draw is the same")

    def new_secret_alone(d: dict[str, Any]) -> None:
        d["chance"]["secret"] = other.hex()

    with pytest.raises(VerifyError, match="does not match the published commitment"):
        verify_record(_tampered(rec, new_secret_alone))

    def new_secret_and_commitment(d: dict[str, Any]) -> None:
        d["chance"]["secret"] = other.hex()
        d["chance"]["commitment"] = commitment(other, "t2")

    expected = first_differing_draw(other, [ClientSeed(1, "mine", 0)])
    with pytest.raises(VerifyError, match=f"ply {expected}:"):
        verify_record(_tampered(rec, new_secret_and_commitment))

    def new_client_seed(d: dict[str, Any]) -> None:
        d["chance"]["client_seeds"][0]["seed"] = "yours"

    expected = first_differing_draw(SECRET, [ClientSeed(1, "yours", 0)])
    with pytest.raises(VerifyError, match=f"ply {expected}:"):
        verify_record(_tampered(rec, new_client_seed))


def test_a_record_for_another_game_version_is_refused() -> None:
    rec = _finished("tic-tac-sudoku", 1).record()
    data = json.loads(rec.dumps())
    data["game_version"] = "0.9.0"
    with pytest.raises(VerifyError, match=r"version 0\.9\.0"):
        verify_record(Record.from_json(data))


def test_records_of_format_1_still_replay() -> None:
    rec = _finished("tic-tac-sudoku", 2).record()
    data = json.loads(rec.dumps())
    data["format"] = 1
    del data["chance"]
    old = Record.from_json(data)
    assert replay(old)[1][-1] == replay(rec)[1][-1]
    assert "format 1" in verify_record(old).notes[0]


def test_an_unfinished_secret_game_keeps_its_secret_in_the_record() -> None:
    m = Match(load("sudokuhex", seed=6), secret=SECRET, match_id="live")
    rec = m.record()
    assert rec.chance is not None and rec.chance.secret is None and rec.seed is None
    assert SECRET.hex() not in rec.dumps()
    assert "not revealed" in verify_record(rec).notes[0]


def test_cat_sudoku_records_carry_the_sheet_digest() -> None:
    rec = _finished("cat-sudoku", 3, players=1).record()
    digest = rec.params["sheet_sha256"]
    assert isinstance(digest, str) and len(digest) == 64
    data = json.loads(rec.dumps())
    data["params"]["sheet_sha256"] = "0" * 64  # as if the sheet had changed since
    with pytest.raises(RecordError, match="sheet_sha256"):
        replay(Record.from_json(data))


def test_outcomes_carry_a_code_beside_the_sentence() -> None:
    for game_id in ("tic-tac-sudoku", "sudoku-warriors", "sudokuhex", "cat-sudoku"):
        out = _finished(game_id, 9).outcome()
        assert out is not None and out.code and out.reason
        assert json.loads(json.dumps(out.to_json()))["code"] == out.code
