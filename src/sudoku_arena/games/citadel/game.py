"""The Citadel rules engine (the rulings CI-1..10 are stated in README.md here).

A game has three phases: ``setup`` (players alternate placing the nine neutral
citadels), ``claim`` (seat 1 first, each claims three) and ``play`` (turns made of small
actions paid with credits, each turn closed by ``end``).

Encodings (see ``rules.py``): actions are ints equal to their stable index; ``board``
holds one code per cell (0 empty, 1/2 warriors of seats 0/1, 3..6 wall quarters);
``citadels`` lists citadel cells in placement order and ``owners`` their owners (-1
neutral). Warriors that took part in an attack this turn are in ``spent`` (by cell; the
mark moves with the warrior). ``sieged`` holds enemy warriors whose group was besieged
when it lost a warrior to a siege capture this turn: that group stays open to the
turn's second siege capture although the first capture emptied a cell next to it.
Likewise ``locked`` and ``besiegers`` remember the mover's citadels that were besieged at
the start of his turn and the enemy warriors around them: the CI-8 restrictions last
the whole turn, even if he breaks the ring meanwhile.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar, Final, final

from sudoku_arena.core.base import BaseGame
from sudoku_arena.core.errors import IllegalActionError, NotationError, StateFormatError
from sudoku_arena.core.params import ParamSpec, ParamValue, players_param
from sudoku_arena.core.types import TO_MOVE_TERMINAL, GameSpec, JsonDict, Outcome, ToMove
from sudoku_arena.games.citadel import rules
from sudoku_arena.games.citadel.rules import (
    ATTACK_BASE,
    CITADEL_BASE,
    CLAIM_BASE,
    EMPTY,
    END,
    K_ATTACK,
    K_CITADEL,
    K_CLAIM,
    K_END,
    K_MOVE,
    K_RAZE,
    K_RECRUIT,
    K_SIEGE,
    K_WALL,
    MOVE_BASE,
    NUM_ACTIONS,
    RAZE_BASE,
    RECRUIT_BASE,
    SIEGE_BASE,
    WALL_BASE,
    WALL_LL,
    Geometry,
    geometry,
    max_citadels,
    positions,
    split_action,
)

SETUP: Final = 0
CLAIM: Final = 1
PLAY: Final = 2
OVER: Final = 3
PHASES = ("setup", "claim", "play", "over")
SEATS = ("blue", "red")
NUM_CITADELS: Final = 9
CLAIMS_EACH: Final = 3
SIEGES_PER_TURN: Final = 2
MOVE_COST: Final = 1
WALL_COST: Final = 1
RAZE_COST: Final = 1
RECRUIT_COST: Final = 2

#: End reasons stored in the state (``end``) and their sentences.
#: Who may act, per seat (shared: ToMove is immutable).
_SEAT_TO_MOVE = (ToMove.decision(0), ToMove.decision(1))

#: CI-8 blocks when nothing is besieged.
_NO_BLOCKS: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())

END_REASONS = {
    "lead": "controls two more citadels than the opponent at the start of his turn (CI-9)",
    "turns": "the turn limit is reached (CI-9)",
}


#: The fields of a position, in constructor order.
_FIELDS = (
    "board",
    "citadels",
    "owners",
    "phase",
    "current",
    "credits",
    "spent",
    "sieges",
    "sieged",
    "locked",
    "besiegers",
    "turn",
    "winner",
    "end",
)


@final
class CitadelState:
    """A Citadel position (immutable). ``current`` is the seat to act (-1 when the game
    is over).

    ``board`` holds one code per cell (bytes, see the module docstring). ``credits``,
    ``spent``, ``sieges``, ``sieged``, ``locked`` and ``besiegers`` belong to the current
    turn; ``turn`` counts the turns finished in the play phase. Equality and hashing go
    by these fields; the state also remembers, with the game that derived them, its legal
    actions and CI-8 blocks (derived data, never part of the position).
    """

    __slots__ = (*_FIELDS, "_blocks", "_legal")

    def __init__(
        self,
        board: bytes,
        citadels: tuple[int, ...],
        owners: tuple[int, ...],
        phase: int,
        current: int,
        credits: int = 0,
        spent: frozenset[int] = frozenset(),
        sieges: int = 0,
        sieged: frozenset[int] = frozenset(),
        locked: frozenset[int] = frozenset(),
        besiegers: frozenset[int] = frozenset(),
        turn: int = 0,
        winner: int = -1,
        end: str = "",
    ) -> None:
        self.board = board
        self.citadels = citadels
        self.owners = owners
        self.phase = phase
        self.current = current
        self.credits = credits
        self.spent = spent
        self.sieges = sieges
        self.sieged = sieged
        self.locked = locked
        self.besiegers = besiegers
        self.turn = turn
        self.winner = winner
        self.end = end
        # Derived data, each with the game that derived it (its options decide).
        # A pair is written whole, so threads sharing a state never mix two games'.
        self._legal: tuple[Citadel, tuple[int, ...]] | None = None
        self._blocks: tuple[Citadel, tuple[frozenset[int], frozenset[int]]] | None = None

    def fields(self) -> tuple[Hashable, ...]:
        """The position's fields, in constructor order."""
        return (
            self.board,
            self.citadels,
            self.owners,
            self.phase,
            self.current,
            self.credits,
            self.spent,
            self.sieges,
            self.sieged,
            self.locked,
            self.besiegers,
            self.turn,
            self.winner,
            self.end,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CitadelState):
            return NotImplemented
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        pairs = zip(_FIELDS, self.fields(), strict=True)
        return f"CitadelState({', '.join(f'{k}={v!r}' for k, v in pairs)})"

    def __reduce__(self) -> tuple[type[CitadelState], tuple[Hashable, ...]]:
        return (CitadelState, self.fields())


def _set_up(
    s: CitadelState,
    board: bytes,
    citadels: tuple[int, ...],
    owners: tuple[int, ...],
    phase: int,
    current: int,
) -> CitadelState:
    """``s`` after a setup or claim action changed these fields."""
    return CitadelState(
        board,
        citadels,
        owners,
        phase,
        current,
        s.credits,
        s.spent,
        s.sieges,
        s.sieged,
        s.locked,
        s.besiegers,
        s.turn,
        s.winner,
        s.end,
    )


def _during_turn(
    s: CitadelState,
    board: bytes,
    owners: tuple[int, ...],
    credits: int,
    spent: frozenset[int],
    sieged: frozenset[int],
) -> CitadelState:
    """``s`` after an action inside a turn changed these fields."""
    return CitadelState(
        board,
        s.citadels,
        owners,
        s.phase,
        s.current,
        credits,
        spent,
        s.sieges,
        sieged,
        s.locked,
        s.besiegers,
        s.turn,
        s.winner,
        s.end,
    )


class Citadel(BaseGame[CitadelState, int]):
    """Two players fight over nine citadels on a Go board (Thomas Gale's Citadel)."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="citadel",
        name="Citadel",
        version="1.0.0",
        min_players=2,
        max_players=2,
        chance=False,
        hidden_information=False,
        simultaneous=False,
        num_distinct_actions=NUM_ACTIONS,
        draws=True,
        summary=(
            "A war game on a Go board: place and claim citadels, then spend a credit per "
            "citadel each turn to recruit, march, build and raze walls, attack and besiege. "
            "Hold two citadels more than your opponent at the start of your turn to win."
        ),
        params=(
            players_param(2, 2, 2),
            ParamSpec(
                "size",
                int,
                19,
                "board size in cells per side (CI-1)",
                minimum=rules.MIN_SIZE,
                maximum=rules.MAX_SIZE,
                label="Board size",
            ),
            ParamSpec(
                "warrior_cap",
                int,
                100,
                "most warriors on the board (CI-6)",
                minimum=1,
                label="Warrior limit",
            ),
            ParamSpec(
                "cap_mode",
                str,
                "total",
                "whether warrior_cap counts both players' warriors or each player's (CI-6)",
                choices=("total", "per_player"),
                label="Warrior limit counts",
            ),
            ParamSpec(
                "control",
                str,
                "entered",
                "entered: a citadel is held once entered; occupied: only while its "
                "owner's warrior stands on it (CI-7)",
                choices=("entered", "occupied"),
                label="Citadel control",
            ),
            ParamSpec(
                "max_turns", int, 300, "turns before a draw (CI-9)", minimum=1, label="Turn limit"
            ),
        ),
    )

    def __init__(self, params: dict[str, ParamValue]) -> None:
        super().__init__(params)
        self.size = self.int_param("size", 19)
        self.warrior_cap = self.int_param("warrior_cap", 100)
        self.cap_mode = str(params.get("cap_mode", "total"))
        self.control = str(params.get("control", "entered"))
        self.max_turns = self.int_param("max_turns", 300)
        self.occupied = self.control == "occupied"
        self.geo: Geometry = geometry(self.size)
        empty: frozenset[int] = frozenset()
        self._citsets: tuple[tuple[int, ...], frozenset[int], frozenset[int]] = ((), empty, empty)

    # -- small queries (public: the agent and the renderers' view use them) --------------------

    def citadel_set(self, s: CitadelState) -> frozenset[int]:
        """The cells of the citadels of ``s``."""
        return self._citadel_sets(s)[1]

    def _citadel_squares(self, s: CitadelState) -> frozenset[int]:
        """Squares whose 2x2 block holds a citadel (no wall there, CI-4)."""
        return self._citadel_sets(s)[2]

    def _citadel_sets(
        self, s: CitadelState
    ) -> tuple[tuple[int, ...], frozenset[int], frozenset[int]]:
        """``(citadels, citadel_set, citadel squares)``, kept for the last layout seen
        (one tuple, replaced whole: safe when threads share the game)."""
        last = self._citsets
        cits = s.citadels
        if last[0] is cits or last[0] == cits:
            return last
        n = self.size
        squares = frozenset(w for c in cits for w in (c, c - 1, c - n, c - n - 1) if w >= 0)
        last = (cits, frozenset(cits), squares)
        self._citsets = last
        return last

    def controller(self, s: CitadelState, k: int) -> int:
        """Who controls citadel number ``k`` (-1 nobody), per the ``control`` option."""
        o = s.owners[k]
        if o >= 0 and self.occupied and s.board[s.citadels[k]] != o + 1:
            return -1
        return o

    def controlled(self, s: CitadelState, p: int) -> list[int]:
        """Cells of the citadels ``p`` controls (CI-7)."""
        if not self.occupied:
            return [c for c, o in zip(s.citadels, s.owners, strict=True) if o == p]
        code = p + 1
        return [
            c for c, o in zip(s.citadels, s.owners, strict=True) if o == p and s.board[c] == code
        ]

    def control_counts(self, s: CitadelState) -> tuple[int, int]:
        return len(self.controlled(s, 0)), len(self.controlled(s, 1))

    def strength(self, s: CitadelState, cell: int) -> int:
        """CI-5 strength of the warrior on ``cell``."""
        return self.geo.strength(s.board, cell, self.citadel_set(s))

    def wall_strength(self, s: CitadelState, square: int) -> int:
        """CI-5 strength of the wall on ``square``."""
        return self.geo.wall_strength(s.board, square)

    def walls(self, s: CitadelState) -> list[int]:
        """The squares of every wall."""
        return [i for i, v in enumerate(s.board) if v == WALL_LL]

    def citadel_siege(self, s: CitadelState, k: int) -> frozenset[int] | None:
        """CI-8: the enemy warriors besieging citadel ``k`` (its owner's view), or None.

        Besieged: the owner's group standing on it has no liberties, or nobody stands on
        it and every neighbour holds an enemy warrior or a wall (the returned set may
        then be empty when walls alone close it).
        """
        owner = s.owners[k]
        if owner < 0:
            return None
        board, geo = s.board, self.geo
        c = s.citadels[k]
        en = 2 - owner
        if board[c] == owner + 1:
            group = geo.enclosed(board, c)
            if group is None:
                return None
            return frozenset(y for x in group for y in geo.nbrs[x] if board[y] == en)
        if board[c] != EMPTY:
            return None  # not reachable: a citadel is owned by whoever entered it last
        nb = geo.nbrs[c]
        if all(board[y] == en or board[y] >= WALL_LL for y in nb):
            return frozenset(y for y in nb if board[y] == en)
        return None

    def besieged(self, s: CitadelState, p: int) -> dict[int, frozenset[int]]:
        """The citadels ``p`` controls that are besieged, with their besiegers."""
        out: dict[int, frozenset[int]] = {}
        for k, c in enumerate(s.citadels):
            if s.owners[k] == p and self.controller(s, k) == p:
                sieg = self.citadel_siege(s, k)
                if sieg is not None:
                    out[c] = sieg
        return out

    def siege_blocks(self, s: CitadelState, p: int) -> tuple[frozenset[int], frozenset[int]]:
        """CI-8 for ``p``, the player to act: his citadels where he may not recruit, and
        the enemy warriors next to which he may not build walls. Both hold for citadels
        besieged now or at the start of his turn (the siege lasts the turn)."""
        known = s._blocks
        if known is not None and known[0] is self and p == s.current:
            return known[1]
        live = self.besieged(s, p)
        if live or s.locked or s.besiegers:
            en = 2 - p
            board = s.board
            around = {x for g in live.values() for x in g}
            around.update(x for x in s.besiegers if board[x] == en)
            blocks = (frozenset(live) | s.locked, frozenset(around))
        else:
            blocks = _NO_BLOCKS
        if p == s.current:
            s._blocks = (self, blocks)
        return blocks

    def _cap_ok(self, s: CitadelState, p: int) -> bool:
        if self.cap_mode == "per_player":
            return s.board.count(p + 1) < self.warrior_cap
        return s.board.count(1) + s.board.count(2) < self.warrior_cap

    def siege_targets(self, s: CitadelState, p: int) -> list[int]:
        """Enemy warriors ``p`` may take by siege now (CI-6, CI-8), ignoring the limit."""
        en = 2 - p
        out = {x for g in self.geo.captive_groups(s.board, en) for x in g}
        out.update(x for x in s.sieged if s.board[x] == en)
        return sorted(out)

    # -- protocol ---------------------------------------------------------------------------------

    def initial_state(self) -> CitadelState:
        return CitadelState(bytes(self.geo.cells), (), (), SETUP, 0)

    def to_move(self, s: CitadelState) -> ToMove:
        if s.phase == OVER:
            return TO_MOVE_TERMINAL
        return _SEAT_TO_MOVE[s.current]

    def legal_actions(self, s: CitadelState, player: int) -> Sequence[int]:
        if s.phase == OVER or player != s.current:
            return []
        return list(self._legal(s))

    def _legal(self, s: CitadelState) -> tuple[int, ...]:
        """The legal actions of the player to act in ``s`` (computed once per state)."""
        known = s._legal
        if known is not None and known[0] is self:
            return known[1]
        if s.phase == PLAY:
            legal = self._play_actions(s, s.current)
        elif s.phase == SETUP:
            legal = tuple(CITADEL_BASE + self.geo.to_frame[i] for i in self._citadel_spots(s))
        else:
            legal = tuple(
                CLAIM_BASE + self.geo.to_frame[c]
                for c, o in zip(s.citadels, s.owners, strict=True)
                if o < 0
            )
        s._legal = (self, legal)
        return legal

    def _citadel_spots(self, s: CitadelState, only: int = -1) -> list[int]:
        """Legal citadel sites (CI-2); with ``only``, just that cell if it is one."""
        geo = self.geo
        taken = set(s.citadels)
        for c in s.citadels:
            taken.update(geo.king[c])
        free = [i for i in geo.interior if i not in taken]
        if self.size >= 11:
            return free
        cand = free if only < 0 else [i for i in free if i == only]
        return [i for i in cand if self._keeps_room(s, free, i)]

    def _keeps_room(self, s: CitadelState, free: list[int], i: int) -> bool:
        """Small boards: whether a citadel on ``i`` leaves room for all nine (CI-2)."""
        need = NUM_CITADELS - len(s.citadels) - 1
        rest = frozenset(free) - {i} - set(self.geo.king[i])
        return max_citadels(self.size, rest) >= need

    def _play_actions(self, s: CitadelState, p: int) -> tuple[int, ...]:
        """The legal actions of ``p`` in the play phase, in the order: moves, attacks,
        recruits, walls, razes, siege captures, ``end`` (each by cell)."""
        geo = self.geo
        board = s.board
        me, en = p + 1, 2 - p
        cits = self.citadel_set(s)
        to_frame = geo.to_frame
        dir_nbrs = geo.dir_nbrs
        credits = s.credits
        mine = positions(board, me)
        out: list[int] = []
        # Moves (CI-6: 1 credit per step).
        if credits >= MOVE_COST:
            for i in mine:
                base = MOVE_BASE + 4 * to_frame[i]
                for d, j in dir_nbrs[i]:
                    if board[j] == EMPTY:
                        out.append(base + d)
        # Attacks (CI-6: free; not by warriors spent in an earlier attack this turn).
        spent = s.spent
        for i in mine:
            if i in spent:
                continue
            si = -1
            for d, j in dir_nbrs[i]:
                if board[j] == en:
                    if si < 0:
                        si = geo.strength(board, i, cits)
                    if geo.strength(board, j, cits) <= si:
                        out.append(ATTACK_BASE + 4 * to_frame[i] + d)
        locked, besiegers = self.siege_blocks(s, p)
        # Recruits (CI-6: 2 credits, next to an own citadel that is not besieged, CI-8).
        if credits >= RECRUIT_COST and self._cap_ok(s, p):
            spots: set[int] = set()
            for c in self.controlled(s, p):
                if c in locked:
                    continue
                for j in geo.nbrs[c]:
                    if board[j] == EMPTY and j not in cits:
                        spots.add(j)
            for j in sorted(spots):
                out.append(RECRUIT_BASE + to_frame[j])
        if credits >= WALL_COST:
            # Walls (CI-4, CI-6, CI-8): squares next to an own warrior whose block is free.
            cand: set[int] = set()
            touch = geo.touch_squares
            for i in mine:
                cand.update(touch[i])
            block, perim = geo.block, geo.perim_cells
            cit_squares = self._citadel_squares(s)
            sites: list[int] = []
            for w in cand:
                four = block[w]
                if board[four[0]] or board[four[1]] or board[four[2]] or board[four[3]]:
                    continue
                if w in cit_squares:
                    continue
                if besiegers and not besiegers.isdisjoint(perim[w]):
                    continue
                sites.append(w)
            sites.sort()
            for w in sites:
                out.append(WALL_BASE + to_frame[w])
            # Razes (CI-6).
            touching = geo.touching
            for i in mine:
                si = -1
                for w, k in touching[i]:
                    if board[w] == WALL_LL:
                        if si < 0:
                            si = geo.strength(board, i, cits)
                        if si >= geo.wall_strength(board, w):
                            out.append(RAZE_BASE + 8 * to_frame[w] + k)
        # Siege captures (CI-6, CI-8: at most two per turn).
        if s.sieges < SIEGES_PER_TURN:
            for x in self.siege_targets(s, p):
                out.append(SIEGE_BASE + to_frame[x])
        out.append(END)
        return tuple(out)

    def why_illegal(self, s: CitadelState, a: object, p: int) -> str | None:
        """The rule that refuses action ``a`` for ``p`` in ``s``, or None when it is legal."""
        if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < NUM_ACTIONS:
            return "not a Citadel action"
        kind, fcell, extra = split_action(a)
        geo = self.geo
        phase = s.phase
        if phase == SETUP:
            if kind != K_CITADEL:
                return "the setup is under way: players place citadels, 'citadel <cell>' (CI-2)"
            return self._why_citadel(s, geo.from_frame[fcell])
        if phase == CLAIM:
            if kind != K_CLAIM:
                return "citadels are being claimed: 'claim <cell>' of a neutral citadel (CI-3)"
            c = geo.from_frame[fcell]
            if c < 0 or c not in s.citadels:
                return f"{rules.frame_name(fcell)} is not a citadel (CI-3)"
            if s.owners[s.citadels.index(c)] >= 0:
                return f"{geo.name(c)} is already claimed; claim a neutral citadel (CI-3)"
            return None
        if kind in (K_CITADEL, K_CLAIM):
            return "the setup is over; play actions and 'end' (CI-6)"
        if kind == K_END:
            return None
        cell = geo.from_frame[fcell]
        if cell < 0:
            return f"{rules.frame_name(fcell)} is off the {self.size}x{self.size} board (CI-1)"
        board = s.board
        me, en = p + 1, 2 - p
        cits = self.citadel_set(s)
        if kind == K_SIEGE:
            if s.sieges >= SIEGES_PER_TURN:
                return "two siege captures were made this turn already (CI-6: at most 2)"
            if board[cell] != en:
                return f"{geo.name(cell)} holds no enemy warrior (CI-6)"
            if cell in s.sieged:
                return None
            _, libs = geo.group(board, cell)
            if libs:
                return (
                    f"the group of {geo.name(cell)} has {libs} liberties; only groups with "
                    "none can be taken by siege (CI-8)"
                )
            return None
        if kind == K_ATTACK:
            target = geo.dir_step[4 * cell + extra]
            if board[cell] != me:
                return f"{geo.name(cell)} holds none of your warriors (CI-6)"
            if target < 0:
                return "the attacked cell is off the board (CI-1)"
            if board[target] != en:
                return f"{geo.name(target)} holds no enemy warrior (CI-6)"
            if cell in s.spent:
                return (
                    f"the warrior on {geo.name(cell)} took part in an attack this turn and may "
                    "not attack again (CI-6)"
                )
            sa, sd = geo.strength(board, cell, cits), geo.strength(board, target, cits)
            if sd > sa:
                return (
                    f"strength {sa} cannot attack strength {sd}; the defender's strength "
                    "must be at most the attacker's (CI-5, CI-6)"
                )
            return None
        if kind == K_MOVE:
            target = geo.dir_step[4 * cell + extra]
            if board[cell] != me:
                return f"{geo.name(cell)} holds none of your warriors (CI-6)"
            if target < 0:
                return "the move leaves the board (CI-1)"
            if board[target] != EMPTY:
                what = "a wall" if board[target] >= WALL_LL else "a warrior"
                return f"{geo.name(target)} holds {what}; warriors move to empty cells (CI-4, CI-6)"
            if s.credits < MOVE_COST:
                return "no credit left: a step costs 1 (CI-6)"
            return None
        if kind == K_RECRUIT:
            if board[cell] != EMPTY or cell in cits:
                return f"{geo.name(cell)} is not an empty cell (CI-6)"
            own = [c for c in self.controlled(s, p) if c in geo.nbrs[cell]]
            if not own:
                return f"{geo.name(cell)} is not next to a citadel you control (CI-6, CI-7)"
            locked, _ = self.siege_blocks(s, p)
            if all(c in locked for c in own):
                return (
                    f"{geo.name(own[0])} is besieged (now or at the start of this turn); "
                    "no recruits there (CI-8)"
                )
            if not self._cap_ok(s, p):
                scope = "yours" if self.cap_mode == "per_player" else "on the board"
                return f"{self.warrior_cap} warriors {scope} already; the cap is reached (CI-6)"
            if s.credits < RECRUIT_COST:
                return f"a recruit costs 2 credits and {s.credits} are left (CI-6)"
            return None
        if kind == K_WALL:
            if not geo.square_ok[cell]:
                return f"a wall on {geo.name(cell)} would leave the board (CI-4)"
            for x in geo.block[cell]:
                if board[x] != EMPTY or x in cits:
                    return (
                        f"{geo.name(x)} is not empty; a wall needs its four cells free of "
                        "warriors, walls and citadels (CI-4)"
                    )
            perim = geo.perim_cells[cell]
            if not any(board[x] == me for x in perim):
                return "a wall must touch one of your warriors (CI-6)"
            _, besiegers = self.siege_blocks(s, p)
            if not besiegers.isdisjoint(perim):
                x = min(besiegers & perim)
                return (
                    f"{geo.name(x)} besieges your citadel (now or at the start of this turn); "
                    "no walls next to the warriors around it (CI-8)"
                )
            if s.credits < WALL_COST:
                return "no credit left: a wall costs 1 (CI-6)"
            return None
        # K_RAZE
        if not geo.square_ok[cell] or board[cell] != WALL_LL:
            return f"there is no wall on square {geo.name(cell)} (CI-4)"
        by = geo.perim[cell][extra]
        if by < 0:
            return "the razing warrior's cell is off the board (CI-1)"
        if board[by] != me:
            return f"{geo.name(by)} holds none of your warriors (CI-6)"
        if s.credits < RAZE_COST:
            return "no credit left: razing costs 1 (CI-6)"
        sw, ww = geo.strength(board, by, cits), geo.wall_strength(board, cell)
        if sw < ww:
            return (
                f"strength {sw} cannot raze a wall of strength {ww}; it needs at least the "
                "wall's strength (CI-5, CI-6)"
            )
        return None

    def _why_citadel(self, s: CitadelState, c: int) -> str | None:
        geo = self.geo
        if c < 0:
            return f"off the {self.size}x{self.size} board (CI-1)"
        r, col = divmod(c, self.size)
        if not (2 <= r <= self.size - 3 and 2 <= col <= self.size - 3):
            return f"{geo.name(c)} is too near the edge; citadels stand two or more cells in (CI-2)"
        for x in s.citadels:
            if x == c:
                return f"{geo.name(c)} is already a citadel (CI-2)"
            if x in geo.king[c]:
                return f"{geo.name(c)} touches the citadel on {geo.name(x)} (CI-2)"
        if self.size < 11 and c not in self._citadel_spots(s, only=c):
            return f"with a citadel on {geo.name(c)} the nine citadels would not fit (CI-2)"
        return None

    def _step(self, cell: int, dr: int, dc: int) -> int:
        r, c = divmod(cell, self.size)
        r, c = r + dr, c + dc
        return r * self.size + c if 0 <= r < self.size and 0 <= c < self.size else -1

    def apply(self, s: CitadelState, a: object, player: int | None = None) -> CitadelState:
        known = s._legal
        if (
            type(a) is int
            and known is not None
            and known[0] is self
            and (player is None or player == s.current)
            and a in known[1]
        ):
            return self._do(s, a, s.current)  # one of the legal actions derived for s
        text = self._fmt(a)
        p = self.acting_player(self.to_move(s), player, text)
        reason = self.why_illegal(s, a, p)
        if reason is not None:
            raise IllegalActionError(text, reason)
        return self._do(s, self.action_index(a), p)

    def _do(self, s: CitadelState, a: int, p: int) -> CitadelState:
        """Apply a legal action (unchecked; ``apply`` validates first)."""
        kind, fcell, extra = split_action(a)
        geo = self.geo
        if kind == K_END:
            return self._end_turn(s, p)
        cell = geo.from_frame[fcell]
        if kind == K_CITADEL:
            citadels = (*s.citadels, cell)
            owners = (*s.owners, -1)
            if len(citadels) == NUM_CITADELS:
                return _set_up(s, s.board, citadels, owners, CLAIM, 1)
            return _set_up(s, s.board, citadels, owners, SETUP, 1 - p)
        if kind == K_CLAIM:
            k = s.citadels.index(cell)
            claimed = list(s.owners)
            claimed[k] = p
            stood = bytearray(s.board)
            stood[cell] = p + 1
            if sum(1 for o in claimed if o >= 0) == 2 * CLAIMS_EACH:
                start = _set_up(s, bytes(stood), s.citadels, tuple(claimed), PLAY, 1 - p)
                return self._start_turn(start, 0)
            return _set_up(s, bytes(stood), s.citadels, tuple(claimed), CLAIM, 1 - p)
        board = bytearray(s.board)
        me = p + 1
        spent = s.spent
        if kind == K_MOVE:
            to = geo.dir_step[4 * cell + extra]
            board[cell] = EMPTY
            board[to] = me
            if cell in spent:
                spent = (spent - {cell}) | {to}
            owners = s.owners
            if to in self.citadel_set(s):
                k = s.citadels.index(to)
                if owners[k] != p:
                    ol = list(owners)
                    ol[k] = p  # CI-7: entering takes control at once
                    owners = tuple(ol)
            return _during_turn(s, bytes(board), owners, s.credits - MOVE_COST, spent, s.sieged)
        if kind == K_ATTACK:
            target = geo.dir_step[4 * cell + extra]
            cits = self.citadel_set(s)
            sa = geo.strength(s.board, cell, cits)
            sd = geo.strength(s.board, target, cits)
            used = {cell}
            for j in geo.nbrs[cell]:
                if board[j] == me:
                    used.add(j)
            dead = {target}
            board[target] = EMPTY
            if sa == sd:
                board[cell] = EMPTY
                dead.add(cell)
            return _during_turn(
                s, bytes(board), s.owners, s.credits, (spent | used) - dead, s.sieged - dead
            )
        if kind == K_RECRUIT:
            board[cell] = me
            return _during_turn(
                s, bytes(board), s.owners, s.credits - RECRUIT_COST, spent, s.sieged
            )
        if kind == K_WALL:
            four = geo.block[cell]
            board[four[0]] = WALL_LL
            board[four[1]] = WALL_LL + 1
            board[four[2]] = WALL_LL + 2
            board[four[3]] = WALL_LL + 3
            return _during_turn(s, bytes(board), s.owners, s.credits - WALL_COST, spent, s.sieged)
        if kind == K_RAZE:
            by = geo.perim[cell][extra]
            sw = geo.strength(s.board, by, self.citadel_set(s))
            ww = geo.wall_strength(s.board, cell)
            for x in geo.block[cell]:
                board[x] = EMPTY
            if sw == ww:
                board[by] = EMPTY  # CI-6: razing at equal strength costs the warrior too
                spent = spent - {by}
            return _during_turn(s, bytes(board), s.owners, s.credits - RAZE_COST, spent, s.sieged)
        # K_SIEGE
        if cell in s.sieged:
            sieged = s.sieged - {cell}
        else:
            group, _ = geo.group(s.board, cell)
            sieged = (s.sieged | frozenset(group)) - {cell}
        board[cell] = EMPTY
        return CitadelState(
            bytes(board),
            s.citadels,
            s.owners,
            s.phase,
            s.current,
            s.credits,
            spent,
            s.sieges + 1,
            sieged,
            s.locked,
            s.besiegers,
            s.turn,
            s.winner,
            s.end,
        )

    def _end_turn(self, s: CitadelState, p: int) -> CitadelState:
        turn = s.turn + 1
        if turn >= self.max_turns:
            return CitadelState(s.board, s.citadels, s.owners, OVER, -1, turn=turn, end="turns")
        return self._start_turn(
            CitadelState(s.board, s.citadels, s.owners, PLAY, p, turn=turn), 1 - p
        )

    def _start_turn(self, s: CitadelState, q: int) -> CitadelState:
        """CI-9 check, then CI-6 credits for ``q``'s new turn (``s``: the turn's position)."""
        counts = self.control_counts(s)
        if counts[q] >= counts[1 - q] + 2:
            return CitadelState(
                s.board, s.citadels, s.owners, OVER, -1, turn=s.turn, winner=q, end="lead"
            )
        nxt = CitadelState(
            s.board,
            s.citadels,
            s.owners,
            s.phase,
            q,
            counts[q],
            turn=s.turn,
            winner=s.winner,
            end=s.end,
        )
        return self.with_turn_sieges(nxt)

    def with_turn_sieges(self, s: CitadelState) -> CitadelState:
        """``s`` with the mover's besieged citadels and their besiegers recorded (CI-8)."""
        live = self.besieged(s, s.current)
        locked = frozenset(live)
        besiegers = frozenset(x for g in live.values() for x in g)
        out = CitadelState(
            s.board,
            s.citadels,
            s.owners,
            s.phase,
            s.current,
            s.credits,
            s.spent,
            s.sieges,
            s.sieged,
            locked,
            besiegers,
            s.turn,
            s.winner,
            s.end,
        )
        # The turn starts here: what is besieged now is all that CI-8 blocks.
        out._blocks = (self, (locked, besiegers))
        return out

    def outcome(self, s: CitadelState) -> Outcome | None:
        if s.phase != OVER:
            return None
        counts = self.control_counts(s)
        scores = (float(counts[0]), float(counts[1]))
        if s.winner < 0:
            return Outcome((), scores, f"draw: {END_REASONS[s.end]}", s.end)
        return Outcome((s.winner,), scores, f"{SEATS[s.winner]} wins: {END_REASONS[s.end]}", s.end)

    # -- notation ----------------------------------------------------------------------------------

    def _fmt(self, a: object) -> str:
        if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < NUM_ACTIONS:
            return rules.format_action(a)
        return repr(a)

    def format_action(self, a: int) -> str:
        return rules.format_action(a)

    def parse_action(self, text: str) -> int:
        return rules.parse_action(text)

    def encode_action(self, a: int) -> int:
        return a

    def decode_action(self, index: int) -> int:
        self.decode_range_check(index)
        return index

    # -- views and persistence ---------------------------------------------------------------------

    def view(self, s: CitadelState, observer: int | None) -> JsonDict:
        geo = self.geo
        name = geo.name
        board = s.board
        cits = self.citadel_set(s)
        out = self.outcome(s)
        captive: dict[int, int] = {}
        groups: list[JsonDict] = []
        if s.phase >= PLAY:
            for p in (0, 1):
                for g in geo.captive_groups(board, p + 1):
                    groups.append({"player": p, "cells": sorted(name(x) for x in g)})
                    for x in g:
                        captive[x] = p
        warriors = [
            {
                "cell": name(i),
                "player": v - 1,
                "strength": geo.strength(board, i, cits),
                "spent": i in s.spent,
                "besieged": i in captive or i in s.sieged,
            }
            for i, v in enumerate(board)
            if v in (1, 2)
        ]
        walls = [
            {
                "square": name(w),
                "cells": [name(x) for x in geo.block[w]],
                "strength": geo.wall_strength(board, w),
            }
            for w in self.walls(s)
        ]
        citadels = []
        for k, c in enumerate(s.citadels):
            owner = s.owners[k]
            sieg = self.citadel_siege(s, k) if s.phase >= PLAY and owner >= 0 else None
            citadels.append(
                {
                    "cell": name(c),
                    "owner": owner,
                    "controller": self.controller(s, k),
                    "occupied": board[c] in (1, 2),
                    "besieged": sieg is not None,
                }
            )
        counts = self.control_counts(s)
        legal = (
            [rules.format_action(a) for a in self.legal_actions(s, s.current)]
            if s.phase != OVER
            else []
        )
        return {
            "game": self.spec.id,
            "observer": observer,
            "players": list(SEATS),
            "size": self.size,
            "columns": rules.COLUMNS[: self.size],
            "phase": PHASES[s.phase],
            "to_move": [] if s.phase == OVER else [s.current],
            "legal": legal,
            "turn": s.turn + 1 if s.phase == PLAY else s.turn,
            "max_turns": self.max_turns,
            "credits": s.credits if s.phase == PLAY else 0,
            "sieges_left": SIEGES_PER_TURN - s.sieges if s.phase == PLAY else 0,
            "control": self.control,
            "warrior_cap": self.warrior_cap,
            "cap_mode": self.cap_mode,
            "citadels": citadels,
            "warriors": warriors,
            "walls": walls,
            "besieged_groups": groups,
            "scores": list(counts),
            "warrior_counts": [board.count(1), board.count(2)],
            "outcome": None if out is None else out.to_json(),
        }

    def dump_state(self, s: CitadelState) -> JsonDict:
        name = self.geo.name
        return {
            "size": self.size,
            "board": "".join(str(v) for v in s.board),
            "citadels": [name(c) for c in s.citadels],
            "owners": list(s.owners),
            "phase": PHASES[s.phase],
            "current": s.current,
            "credits": s.credits,
            "spent": sorted(name(c) for c in s.spent),
            "sieges": s.sieges,
            "sieged": sorted(name(c) for c in s.sieged),
            "locked": sorted(name(c) for c in s.locked),
            "besiegers": sorted(name(c) for c in s.besiegers),
            "turn": s.turn,
            "winner": s.winner,
            "end": s.end,
        }

    def load_state(self, data: JsonDict) -> CitadelState:
        geo = self.geo
        try:
            if int(data["size"]) != self.size:
                raise StateFormatError(
                    f"the state is for a {data['size']} board, this game is {self.size}"
                )
            board = bytes(int(ch) for ch in str(data["board"]))
            s = CitadelState(
                board=board,
                citadels=tuple(geo.cell(str(c)) for c in data["citadels"]),
                owners=tuple(int(o) for o in data["owners"]),
                phase=PHASES.index(str(data["phase"])),
                current=int(data["current"]),
                credits=int(data["credits"]),
                spent=frozenset(geo.cell(str(c)) for c in data["spent"]),
                sieges=int(data["sieges"]),
                sieged=frozenset(geo.cell(str(c)) for c in data["sieged"]),
                locked=frozenset(geo.cell(str(c)) for c in data["locked"]),
                besiegers=frozenset(geo.cell(str(c)) for c in data["besiegers"]),
                turn=int(data["turn"]),
                winner=int(data["winner"]),
                end=str(data["end"]),
            )
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, NotationError) as exc:
            raise StateFormatError(f"not a Citadel state: {exc!r}") from None
        if len(board) != geo.cells or any(v > 6 for v in board):
            raise StateFormatError(f"not a Citadel state: the board needs {geo.cells} codes 0-6")
        if len(s.citadels) > NUM_CITADELS or len(s.owners) != len(s.citadels):
            raise StateFormatError("not a Citadel state: citadels and owners disagree")
        if any(o not in (-1, 0, 1) for o in s.owners) or s.current not in (-1, 0, 1):
            raise StateFormatError("not a Citadel state: seats are 0 and 1 (-1 for none)")
        if s.end and s.end not in END_REASONS:
            raise StateFormatError(f"unknown end reason {s.end!r}")
        return s


__all__ = ["END_REASONS", "PHASES", "SEATS", "Citadel", "CitadelState"]
