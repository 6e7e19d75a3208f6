"""The match runner: one game in progress, with its log and the source of its chance.

A :class:`Match` owns the current state, the log of every action (chance included, in
notation) and the committed secret that decides chance nodes
(:mod:`sudoku_arena.core.fairness`), so a record replays without any generator and its
draws can be checked once the secret is revealed. Every adapter (CLI, server, analysis)
drives games through it, so one seed or one secret gives the same game everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from sudoku_arena.core.agent import Agent
from sudoku_arena.core.endings import OUTSIDE_RULES
from sudoku_arena.core.errors import (
    ArenaError,
    IllegalActionError,
    ReplayMismatchError,
    UndoError,
)
from sudoku_arena.core.fairness import (
    SCHEME,
    ChanceSource,
    ClientSeed,
    check_client_seed,
    secret_from_seed,
)
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import load
from sudoku_arena.core.types import Outcome, ToMove

if TYPE_CHECKING:  # record.py imports this module
    from sudoku_arena.core.record import Record

#: Format version of records written by this code (see ``record.py``); records of
#: format 1 (no commitment, chance from ``random.Random(seed)``) are still read.
RECORD_FORMAT = 2


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One applied action: its ply (0-based), its actor (``None`` for chance), notation."""

    ply: int
    actor: int | None
    action: str


@dataclass(slots=True)
class Pending:
    """What an action would add, checked but not yet part of the match."""

    entries: list[LogEntry]
    states: list[object]
    outcome: Outcome | None


def sample_chance(game: AnyGame, state: object, rng: random.Random) -> object:
    """Draw one chance outcome of ``state`` from a plain generator (simulations and
    benchmarks; matches draw from their committed secret instead)."""
    return sample_outcome(game.chance_outcomes(state), rng)


def sample_outcome(
    outcomes: Sequence[tuple[object, Fraction | float]], rng: random.Random
) -> object:
    """One of ``outcomes`` drawn with its probability, with one ``rng.random()`` call
    (so searches that share a generator stay reproducible)."""
    r = rng.random()
    acc = 0.0
    for action, prob in outcomes:
        acc += float(prob)
        if r < acc:
            return action
    return outcomes[-1][0]  # float rounding left r just above the total


class Match:
    """A game being played: state, log, and the source of its chance.

    Chance comes from a secret (:mod:`sudoku_arena.core.fairness`): give ``secret`` (the
    server draws a fresh one per game) or an integer ``seed`` (the command line and the
    library: the secret is derived from it, so the same seed and the same decisions give
    the same game). ``match_id`` names the match in every derivation; ``client_seeds``
    are the seats' contributions. ``players`` are display names for the seats (agent
    specs such as ``"greedy"``, or people's names). ``log`` replays actions already
    taken (a stored game being reopened); they are checked as they are applied.
    """

    def __init__(
        self,
        game: AnyGame,
        *,
        seed: int | None = None,
        players: Sequence[str] | None = None,
        secret: bytes | None = None,
        match_id: str = "local",
        client_seeds: Sequence[ClientSeed] = (),
        log: Sequence[LogEntry] = (),
    ) -> None:
        self.game = game
        if secret is None:
            self.seed: int | None = (
                seed if seed is not None else random.SystemRandom().randrange(2**31)
            )
            secret = secret_from_seed(self.seed)
        else:
            self.seed = seed
        self.chance = ChanceSource(secret, match_id, client_seeds)
        n = game.num_players
        self.players: tuple[str, ...] = (
            tuple(players) if players is not None else tuple(f"seat {i}" for i in range(n))
        )
        if len(self.players) != n:
            raise ValueError(f"{len(self.players)} player names given for {n} seats")
        self._states: list[object] = [game.initial_state()]
        self._log: list[LogEntry] = []
        #: An ending the players decided (resignation, abort, agreed draw), if any.
        self._decided: Outcome | None = None
        if log:
            self.extend(log)
        else:
            self.advance_chance()

    @classmethod
    def new(
        cls,
        game_id: str,
        *,
        seed: int | None = None,
        players: Sequence[str] | None = None,
        **params: object,
    ) -> Match:
        """Load ``game_id`` with ``params`` and play it from ``seed``.

        Generated parameters (the Sudoku grid) come from the seed as
        :func:`~sudoku_arena.core.registry.load` derives them. When ``players`` names the
        seats, the game's player count is their number.
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if players is not None:
            params = {"players": len(players), **params}
        return cls(load(game_id, seed=seed, **params), seed=seed, players=players)

    @property
    def match_id(self) -> str:
        return self.chance.match_id

    @property
    def commitment(self) -> str:
        """The SHA-256 commitment to this match's chance secret (public from the start)."""
        return self.chance.commitment

    def bot_seed(self, seat: int, ply: int = 0) -> int:
        """The seed of the bot in ``seat``: independent of every chance outcome."""
        return self.chance.bot_seed(seat, ply)

    # -- reading --------------------------------------------------------------------------

    @property
    def state(self) -> object:
        return self._states[-1]

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every action so far (a copy; see :attr:`entries` for a view)."""
        return tuple(self._log)

    @property
    def states(self) -> tuple[object, ...]:
        """Every state so far: ``states[k]`` is the state before ply ``k`` (a copy)."""
        return tuple(self._states)

    @property
    def entries(self) -> Sequence[LogEntry]:
        """The log as a live read-only view (no copy; it grows as the match goes on)."""
        return self._log

    @property
    def history(self) -> Sequence[object]:
        """The states as a live read-only view (no copy; it grows with the match)."""
        return self._states

    @property
    def ply(self) -> int:
        """How many actions have been applied (the next action's ply)."""
        return len(self._log)

    def to_move(self) -> ToMove:
        return self.game.to_move(self.state)

    @property
    def is_over(self) -> bool:
        return self._decided is not None or self.to_move().is_terminal

    def outcome(self) -> Outcome | None:
        """How the game ended: by its rules, or as the players decided (:meth:`end`)."""
        return self._decided if self._decided is not None else self.game.outcome(self.state)

    def end(self, outcome: Outcome) -> None:
        """End the game outside its rules (``outcome.code`` one of
        :data:`~sudoku_arena.core.endings.OUTSIDE_RULES`; see
        :mod:`sudoku_arena.core.endings`). Raises ``ArenaError`` when it is already over."""
        if outcome.code not in OUTSIDE_RULES:
            raise ValueError(f"{outcome.code!r} is not an ending outside the rules")
        if self.is_over:
            raise ArenaError("the game is already over")
        self._decided = outcome

    def legal(self, player: int) -> list[str]:
        """``player``'s legal actions now, in notation."""
        fmt = self.game.format_action
        return [fmt(a) for a in self.game.legal_actions(self.state, player)]

    # -- acting ---------------------------------------------------------------------------

    def preview(self, action: object, player: int | None = None) -> Pending:
        """Check ``action`` (notation or value) by ``player``; return what it would add.

        Changes nothing. Raises ``NotationError``/``IllegalActionError`` when the action
        is malformed or not allowed. The chance nodes that follow are resolved as they
        will be when the pending action is committed (chance depends only on the ply).
        """
        game = self.game
        a = game.parse_action(action) if isinstance(action, str) else action
        if self._decided is not None:
            raise IllegalActionError(
                game.format_action(a), f"the game is over: {self._decided.reason}"
            )
        tm = game.to_move(self.state)
        if tm.is_chance:
            raise IllegalActionError(game.format_action(a), "waiting for a chance outcome")
        if player is None and len(tm.players) == 1:
            player = tm.players[0]
        state = game.apply(self.state, a, player)
        entries = [LogEntry(self.ply, player, game.format_action(a))]
        states = [state]
        while game.to_move(state).is_chance:
            c = self.chance.draw(self.ply + len(entries), game.chance_outcomes(state))
            state = game.apply(state, c, None)
            entries.append(LogEntry(self.ply + len(entries), None, game.format_action(c)))
            states.append(state)
        return Pending(entries, states, game.outcome(state))

    def commit(self, pending: Pending) -> None:
        """Add what :meth:`preview` returned (nothing may have been played since)."""
        if not pending.entries or pending.entries[0].ply != self.ply:
            raise ValueError("pending action does not follow the current ply")
        self._log.extend(pending.entries)
        self._states.extend(pending.states)

    def play(self, action: object, player: int | None = None) -> LogEntry:
        """Apply ``action`` (notation text or an action value) for ``player``.

        Raises ``NotationError``/``IllegalActionError`` and leaves the match unchanged
        when the action is malformed or not allowed. Chance nodes that follow are
        resolved at once from the match's chance source.
        """
        pending = self.preview(action, player)
        self.commit(pending)
        return pending.entries[0]

    def advance_chance(self) -> list[LogEntry]:
        """Resolve every chance node now due; return what was logged."""
        done: list[LogEntry] = []
        game = self.game
        while game.to_move(self.state).is_chance:
            a = self.chance.draw(self.ply, game.chance_outcomes(self.state))
            self._states.append(game.apply(self.state, a, None))
            entry = LogEntry(len(self._log), None, game.format_action(a))
            self._log.append(entry)
            done.append(entry)
        return done

    def extend(self, entries: Sequence[LogEntry]) -> None:
        """Apply ``entries`` logged elsewhere (a stored game, another server process).

        Each is checked against the rules; a chance entry must be a possible outcome.
        On any error nothing is added and ``ReplayMismatchError`` names the ply.
        """
        if self._decided is not None:
            raise ReplayMismatchError(self.ply, f"the game is over: {self._decided.reason}")
        game = self.game
        state = self.state
        states: list[object] = []
        for k, e in enumerate(entries):
            ply = self.ply + k
            if e.ply != ply:
                raise ReplayMismatchError(ply, f"an entry for ply {e.ply} stands here")
            try:
                state = game.apply(state, game.parse_action(e.action), e.actor)
            except ArenaError as exc:
                raise ReplayMismatchError(ply, str(exc)) from None
            states.append(state)
        self._log.extend(entries)
        self._states.extend(states)

    def add_client_seed(self, seat: int, seed: str) -> ClientSeed:
        """Mix ``seed`` from ``seat`` into every chance draw from the next ply on."""
        if not 0 <= seat < self.game.num_players:
            raise ValueError(f"there is no seat {seat}")
        cs = ClientSeed(seat, check_client_seed(seed), self.ply)
        self.chance.add_client_seed(cs)
        return cs

    def agent_state(self, player: int) -> object:
        """The state an agent for ``player`` may look at: determinised when hidden."""
        if self.game.spec.hidden_information:
            rng = random.Random(self.chance.bot_seed(player, self.ply, "determinize"))
            return self.game.determinize(self.state, player, rng)
        return self.state

    def step_agent(self, agent: Agent, player: int) -> LogEntry:
        """Let ``agent`` act once for ``player``."""
        return self.play(agent.act(self.game, self.agent_state(player), player), player)

    def run(self, agents: Sequence[Agent], max_plies: int = 1_000_000) -> Outcome:
        """Play to the end with one agent per seat; return the outcome.

        In simultaneous phases the seats to move act in seat order (the game's rules
        make the order irrelevant).
        """
        if len(agents) != self.game.num_players:
            raise ValueError(f"{len(agents)} agents for {self.game.num_players} seats")
        while not self.is_over:
            if self.ply >= max_plies:
                raise RuntimeError(f"game not over after {max_plies} plies")
            p = self.to_move().players[0]
            self.step_agent(agents[p], p)
        out = self.outcome()
        assert out is not None
        return out

    # -- taking back ------------------------------------------------------------------------

    def undo(self, player: int, along: Collection[int] = ()) -> list[LogEntry]:
        """Take back ``player``'s last action and return what was undone.

        Plain undo (``along`` empty) is allowed only within ``player``'s current turn:
        the last action is his and he is still to move. Seats in ``along`` (bots in a
        game against the computer) have their later actions taken back too, which lets a
        person take back a move the bot has already answered. Never allowed across a
        chance outcome, since that would reveal what chance brings. Raises ``UndoError``
        and changes nothing when refused.
        """
        if self._decided is not None:
            raise UndoError(f"cannot undo: the game is over ({self._decided.reason})")
        k = len(self._log)
        while k > 0:
            entry = self._log[k - 1]
            if entry.actor is None:
                raise UndoError("cannot undo: a chance outcome was revealed since")
            if entry.actor == player:
                break
            if entry.actor not in along:
                raise UndoError(f"cannot undo: seat {entry.actor} has acted since")
            k -= 1
        if k == 0:
            raise UndoError(f"nothing to undo for seat {player}")
        if not along and player not in self.to_move().players:
            raise UndoError("cannot undo: your turn is over")
        undone = self._log[k - 1 :]
        del self._log[k - 1 :]
        del self._states[k:]
        return undone

    # -- records --------------------------------------------------------------------------

    def record(self, *, reveal: bool | None = None) -> Record:
        """The game so far as a :class:`~sudoku_arena.core.record.Record`.

        The chance secret is in it when ``reveal`` (by default: once the game is over,
        or always for a game played from an integer seed, whose seed gives it away).
        """
        from sudoku_arena.core.record import ChanceRecord, Record

        if reveal is None:
            reveal = self.is_over or self.seed is not None
        return Record(
            format=RECORD_FORMAT,
            game=self.game.spec.id,
            game_version=self.game.spec.version,
            params=self.game.params,
            seed=self.seed if reveal else None,
            players=self.players,
            actions=tuple(self._log),
            outcome=self.outcome(),
            chance=ChanceRecord(
                scheme=SCHEME,
                match_id=self.match_id,
                commitment=self.commitment,
                secret=self.chance.secret.hex() if reveal else None,
                client_seeds=tuple(self.chance.client_seeds),
            ),
        )
