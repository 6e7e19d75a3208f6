"""The match runner: one game in progress, with its log and its own random generator.

A :class:`Match` owns the current state, the log of every action (chance included, in
notation) and the seeded generator that decides chance nodes, so a record replays
without any generator. Adapters (CLI, server, analysis) drive games only through it.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_arena.core.agent import Agent
from sudoku_arena.core.errors import IllegalActionError, UndoError
from sudoku_arena.core.protocol import Game
from sudoku_arena.core.registry import load
from sudoku_arena.core.types import Outcome, ToMove

#: Format version of records written by this code (see ``record.py``).
RECORD_FORMAT = 1


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One applied action: its ply (0-based), its actor (``None`` for chance), notation."""

    ply: int
    actor: int | None
    action: str


def sample_chance(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
    """Draw one chance outcome of ``state`` with its exact probability."""
    outcomes = game.chance_outcomes(state)
    r = rng.random()
    acc = 0.0
    for action, prob in outcomes:
        acc += float(prob)
        if r < acc:
            return action
    return outcomes[-1][0]  # float rounding left r just above the total


class Match:
    """A game being played: state, log, seed.

    ``seed`` drives chance nodes (and the determinisation handed to agents); the same
    seed and the same decisions give the same game. ``players`` are display names for
    the seats (agent specs such as ``"greedy"``, or people's names).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        seed: int | None = None,
        players: Sequence[str] | None = None,
    ) -> None:
        self.game = game
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        n = game.num_players
        self.players: tuple[str, ...] = (
            tuple(players) if players is not None else tuple(f"seat {i}" for i in range(n))
        )
        if len(self.players) != n:
            raise ValueError(f"{len(self.players)} player names given for {n} seats")
        self._rng = random.Random(self.seed)
        self._det_rng = random.Random(self.seed ^ 0x5EED)
        self._states: list[Any] = [game.initial_state()]
        self._log: list[LogEntry] = []
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
        """Load ``game_id`` with ``params`` (random defaults drawn from ``seed``).

        When ``players`` names the seats, the game's player count is their number.
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if players is not None:
            params = {"players": len(players), **params}
        return cls(load(game_id, seed=seed, **params), seed=seed, players=players)

    # -- reading --------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def log(self) -> tuple[LogEntry, ...]:
        return tuple(self._log)

    @property
    def states(self) -> tuple[Any, ...]:
        """Every state so far: ``states[k]`` is the state before ply ``k``."""
        return tuple(self._states)

    @property
    def ply(self) -> int:
        """How many actions have been applied (the next action's ply)."""
        return len(self._log)

    def to_move(self) -> ToMove:
        return self.game.to_move(self.state)

    @property
    def is_over(self) -> bool:
        return self.to_move().is_terminal

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def legal(self, player: int) -> list[str]:
        """``player``'s legal actions now, in notation."""
        fmt = self.game.format_action
        return [fmt(a) for a in self.game.legal_actions(self.state, player)]

    # -- acting ---------------------------------------------------------------------------

    def play(self, action: object, player: int | None = None) -> LogEntry:
        """Apply ``action`` (notation text or an action value) for ``player``.

        Raises ``NotationError``/``IllegalActionError`` and leaves the match unchanged
        when the action is malformed or not allowed. Chance nodes that follow are
        resolved at once with the match's generator.
        """
        game = self.game
        a = game.parse_action(action) if isinstance(action, str) else action
        tm = game.to_move(self.state)
        if tm.is_chance:
            raise IllegalActionError(game.format_action(a), "waiting for a chance outcome")
        if player is None and len(tm.players) == 1:
            player = tm.players[0]
        new_state = game.apply(self.state, a, player)
        entry = LogEntry(len(self._log), player, game.format_action(a))
        self._states.append(new_state)
        self._log.append(entry)
        self.advance_chance()
        return entry

    def advance_chance(self) -> list[LogEntry]:
        """Resolve every chance node now due; return what was logged."""
        done: list[LogEntry] = []
        game = self.game
        while game.to_move(self.state).is_chance:
            a = sample_chance(game, self.state, self._rng)
            self._states.append(game.apply(self.state, a, None))
            entry = LogEntry(len(self._log), None, game.format_action(a))
            self._log.append(entry)
            done.append(entry)
        return done

    def agent_state(self, player: int) -> Any:
        """The state an agent for ``player`` may look at: determinised when hidden."""
        if self.game.spec.hidden_information:
            return self.game.determinize(self.state, player, self._det_rng)
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

    def record(self) -> Any:
        """The game so far as a :class:`~sudoku_arena.core.record.Record`."""
        from sudoku_arena.core.record import Record

        return Record(
            format=RECORD_FORMAT,
            game=self.game.spec.id,
            game_version=self.game.spec.version,
            params=self.game.params,
            seed=self.seed,
            players=self.players,
            actions=tuple(self._log),
            outcome=self.outcome(),
        )
