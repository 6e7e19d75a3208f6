"""The signed-in sessions a server process read lately, kept in memory for a minute.

Every signed-in request and WebSocket reads its session (and its account's name): one
trip to a thread and the database each, which a game of two signed-in players makes
about six times. The session is kept here for :data:`KEEP_SECONDS` after it was read,
so those reads become one, also from one game to the next (a quick game of
Tic-Tac-Sudoku lasts about 20 s: with 15 s kept, every new game read it again). What
ends a session ends it here too, at once: sign-out, sign-in on the same browser, a
password change (every other session of the account), the account's deletion, on this
process directly and on the others of a fleet through the fan-out
(``{"kind": "sessions_ended", ...}``, :meth:`SessionCache.on_event`). A session's
expiry is checked on every use. Only a change made outside the server (a row deleted by
hand) waits for :data:`KEEP_SECONDS` to pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db.accounts import SessionRow

#: Seconds a session read from the database is used without reading it again.
KEEP_SECONDS = 60.0
#: Sessions kept at most (the oldest read is forgotten first).
MAX_KEPT = 20_000
KIND = "sessions_ended"


@dataclass(slots=True)
class _Kept:
    row: SessionRow
    until: float


class SessionCache:
    """Session id (the hash of the cookie's secret) -> its live session, for a while.

    ``publish`` sends the fan-out's events to the fleet's other processes (``None``: one
    process alone)."""

    def __init__(
        self,
        publish: Callable[[JsonDict], None] | None = None,
        keep_seconds: float = KEEP_SECONDS,
    ) -> None:
        self._kept: dict[str, _Kept] = {}
        self._publish = publish
        self.keep_seconds = keep_seconds
        #: Moves on whenever a session ends here: a read begun before that is not kept
        #: (it may have read a session that ended meanwhile).
        self.epoch = 0

    def get(self, session_id: str, now: float | None = None) -> SessionRow | None:
        """The kept session ``session_id`` if it is still to be used, else ``None``
        (then read it from the database and :meth:`keep` it)."""
        now = time.time() if now is None else now
        kept = self._kept.get(session_id)
        if kept is None:
            return None
        if kept.until <= now or kept.row.expires <= now:
            del self._kept[session_id]
            return None
        return kept.row

    def keep(self, row: SessionRow, epoch: int) -> None:
        """Keep ``row``, read from the database when :attr:`epoch` was ``epoch``."""
        if epoch != self.epoch or self.keep_seconds <= 0:
            return
        if len(self._kept) >= MAX_KEPT:
            del self._kept[next(iter(self._kept))]
        self._kept[row.id] = _Kept(row, time.time() + self.keep_seconds)

    # -- ending sessions ----------------------------------------------------------------

    def ended(self, session_ids: list[str]) -> None:
        """These sessions ended (signed out, replaced): here and on the whole fleet."""
        self._forget(session_ids, None, None)
        self._tell({"kind": KIND, "sessions": session_ids})

    def ended_of(self, account_id: int, keep: str | None = None) -> None:
        """Every session of ``account_id`` but ``keep`` ended (a new password, the
        account deleted): here and on the whole fleet."""
        self._forget([], account_id, keep)
        self._tell({"kind": KIND, "account": account_id, "keep": keep})

    def on_event(self, event: JsonDict) -> None:
        """Another process ended sessions (see :meth:`ended`, :meth:`ended_of`)."""
        ids = event.get("sessions")
        account = event.get("account")
        keep = event.get("keep")
        self._forget(
            [s for s in ids if isinstance(s, str)] if isinstance(ids, list) else [],
            account if isinstance(account, int) else None,
            keep if isinstance(keep, str) else None,
        )

    def _forget(self, session_ids: list[str], account_id: int | None, keep: str | None) -> None:
        self.epoch += 1
        for sid in session_ids:
            self._kept.pop(sid, None)
        if account_id is not None:
            for sid in [s for s, k in self._kept.items() if k.row.account_id == account_id]:
                if sid != keep:
                    del self._kept[sid]

    def _tell(self, event: JsonDict) -> None:
        if self._publish is not None:
            self._publish(event)
