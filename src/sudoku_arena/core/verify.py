"""Checking a record offline: it replays, it is for this version, its chance is honest.

:func:`verify_record` is what ``sudoku-arena replay --verify`` runs on every record. It
needs nothing but the record: the rules replay every action, and when the chance secret
is revealed every chance outcome is derived again from it (see
:mod:`sudoku_arena.core.fairness`) and compared with the recorded one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sudoku_arena.core.errors import RecordError
from sudoku_arena.core.fairness import SCHEME, ChanceSource, commitment, secret_from_seed
from sudoku_arena.core.match import LogEntry
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.record import Record, replay
from sudoku_arena.core.registry import spec_of


class VerifyError(RecordError):
    """A record fails verification at ``ply`` (``None``: the record as a whole)."""

    def __init__(self, ply: int | None, message: str) -> None:
        super().__init__(message if ply is None else f"ply {ply}: {message}")
        self.ply = ply


@dataclass(slots=True)
class Verified:
    """A record that passed: what was checked, and what could not be."""

    chance_checked: int = 0
    notes: list[str] = field(default_factory=list)


def verify_record(record: Record) -> Verified:
    """Check ``record``; raise :class:`VerifyError` or ``ReplayMismatchError`` (both
    ``RecordError``) naming the first ply that fails, if one does."""
    spec = spec_of(record.game)
    if record.game_version != spec.version:
        raise VerifyError(
            None,
            f"recorded with {record.game} version {record.game_version}, but this is "
            f"version {spec.version}; replay it with that version",
        )
    done = Verified()
    ch = record.chance
    if ch is None:
        replay(record)
        done.notes.append("no chance commitment in this record (format 1): draws not checked")
        return done
    if ch.scheme != SCHEME:
        raise VerifyError(None, f"chance scheme {ch.scheme!r} is unknown; allowed: {SCHEME}")
    if ch.secret is None:
        replay(record)
        if any(e.actor is None for e in record.actions):
            done.notes.append("the chance secret is not revealed yet: draws not checked")
        return done
    try:
        secret = bytes.fromhex(ch.secret)
        source = ChanceSource(secret, ch.match_id, ch.client_seeds)
    except ValueError:
        raise VerifyError(None, "the chance secret is not 64 hexadecimal digits") from None
    if commitment(secret, ch.match_id) != ch.commitment:
        raise VerifyError(None, "the revealed secret does not match the published commitment")
    if record.seed is not None and secret != secret_from_seed(record.seed):
        raise VerifyError(None, f"the secret is not the one seed {record.seed} gives")

    def check(game: AnyGame, before: object, entry: LogEntry) -> None:
        expected = game.format_action(source.draw(entry.ply, game.chance_outcomes(before)))
        if expected != entry.action:
            raise VerifyError(
                entry.ply,
                f"recorded chance outcome {entry.action!r}, but the secret gives {expected!r}",
            )
        done.chance_checked += 1

    replay(record, check)
    return done
