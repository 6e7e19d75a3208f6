"""The Sudoku Warriors rules engine (the rulings SW-1..14 are stated in README.md here).

Encodings (see ``rules.py``): an action is its own index, a small int: 0..99 place on a
hilltop, 100..108 pick the next battle, 109..3430 bids (none, one village, an unordered
pair of villages), 3431 yield. ``hill`` holds one code per hilltop: 0 empty,
``seat + 1`` a warrior, 4 X'd. ``spent`` is a bit mask over the 81 villages (bit ``c``
set when village ``c``'s resource is crossed out).

Phases follow from the state: ``battle >= 0`` means a battle is being fought and
``actor`` bids; otherwise a non-empty ``pending`` (two or more provinces) means the
placer picks the next battle; otherwise ``current`` places a warrior. During battles
``current`` stays the placer, so the next turn goes to the seat after him (SW-6).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import ClassVar, final

from sudoku_arena.core.base import BaseGame
from sudoku_arena.core.errors import IllegalActionError, NotationError, StateFormatError
from sudoku_arena.core.params import ParamSpec, ParamValue, players_param
from sudoku_arena.core.types import TO_MOVE_TERMINAL, GameSpec, JsonDict, Outcome, ToMove
from sudoku_arena.games.sudoku_warriors.rules import (
    BATTLE_BASE,
    BATTLE_CELL_SETS,
    BATTLE_CELLS,
    BID1_BASE,
    BID2_BASE,
    BID_NONE,
    BORDER_HILLS,
    CAPITAL,
    CAPITAL_HILLS,
    EMPTY,
    HILL_CELLS,
    HILL_PROVS,
    NUM_ACTIONS,
    PAIRS,
    PROV_HILLS,
    XD,
    YIELD,
    bid_cells,
    control,
    hill_name,
    pair_action,
    parse_hill,
)
from sudoku_arena.grids.sudoku import cell_name, grid_param, parse_box, parse_cell

SYMBOLS = ("circle", "square", "triangle")
#: Layout characters for :meth:`SudokuWarriors.position` and ``dump_state``.
HILL_CHARS = ".ostx"

#: End reasons stored in the state (``end``).
END_REASONS = {
    "target": "reached the target number of provinces (SW-13)",
    "full": "the board is full before anybody reached the target; most provinces wins",
}


@final
class SWState:
    """A Sudoku Warriors position (immutable: never assign to its attributes).

    ``current`` is the seat to place (during battles: the placer), -1 when the game is
    over. ``empties`` counts the empty hilltops of each province, ``owner`` the seat
    holding each province (-1 none). ``pending`` lists the provinces still due a battle
    from the last placement. The battle fields are meaningful while ``battle >= 0``:
    ``fighters`` are the participants in turn order from the placer, ``active`` those
    still in, ``bscore`` every seat's battle score (0 for non-participants), ``actor``
    the seat to bid, ``opened`` whether the opening bid (SW-9) is done.

    Derived from ``hill`` and kept so that the hot paths are look-ups: ``empties``,
    ``ctrl`` (the seat controlling each village, SW-5, or -1) and ``free`` (the empty
    hilltops, ascending). States compare and hash by value (the derived fields follow).
    """

    __slots__ = (
        "active",
        "actor",
        "battle",
        "bscore",
        "ctrl",
        "current",
        "empties",
        "end",
        "fighters",
        "free",
        "hill",
        "last",
        "opened",
        "owner",
        "pending",
        "spent",
        "winners",
    )

    hill: tuple[int, ...]
    empties: tuple[int, ...]
    owner: tuple[int, ...]
    spent: int
    current: int
    pending: tuple[int, ...]
    battle: int
    fighters: tuple[int, ...]
    active: tuple[int, ...]
    bscore: tuple[int, ...]
    actor: int
    opened: bool
    last: int
    winners: tuple[int, ...]
    end: str
    ctrl: tuple[int, ...]
    free: tuple[int, ...]

    def __init__(
        self,
        hill: tuple[int, ...],
        empties: tuple[int, ...],
        owner: tuple[int, ...],
        spent: int,
        current: int,
        ctrl: tuple[int, ...],
        free: tuple[int, ...],
        pending: tuple[int, ...] = (),
        battle: int = -1,
        fighters: tuple[int, ...] = (),
        active: tuple[int, ...] = (),
        bscore: tuple[int, ...] = (),
        actor: int = -1,
        opened: bool = False,
        last: int = -1,
        winners: tuple[int, ...] = (),
        end: str = "",
    ) -> None:
        self.hill = hill
        self.empties = empties
        self.owner = owner
        self.spent = spent
        self.current = current
        self.ctrl = ctrl
        self.free = free
        self.pending = pending
        self.battle = battle
        self.fighters = fighters
        self.active = active
        self.bscore = bscore
        self.actor = actor
        self.opened = opened
        self.last = last
        self.winners = winners
        self.end = end

    def _key(self) -> tuple[object, ...]:
        return (
            self.hill,
            self.owner,
            self.spent,
            self.current,
            self.pending,
            self.battle,
            self.fighters,
            self.active,
            self.bscore,
            self.actor,
            self.opened,
            self.last,
            self.winners,
            self.end,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SWState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"SWState(hill={self.hill!r}, owner={self.owner!r}, spent={self.spent!r}, "
            f"current={self.current!r}, pending={self.pending!r}, battle={self.battle!r}, "
            f"fighters={self.fighters!r}, active={self.active!r}, bscore={self.bscore!r}, "
            f"actor={self.actor!r}, opened={self.opened!r}, last={self.last!r}, "
            f"winners={self.winners!r}, end={self.end!r})"
        )

    def __reduce__(self) -> tuple[type[SWState], tuple[object, ...]]:
        return SWState, (
            self.hill,
            self.empties,
            self.owner,
            self.spent,
            self.current,
            self.ctrl,
            self.free,
            self.pending,
            self.battle,
            self.fighters,
            self.active,
            self.bscore,
            self.actor,
            self.opened,
            self.last,
            self.winners,
            self.end,
        )

    def but(
        self,
        *,
        hill: tuple[int, ...] | None = None,
        owner: tuple[int, ...] | None = None,
        ctrl: tuple[int, ...] | None = None,
        current: int | None = None,
        pending: tuple[int, ...] | None = None,
        battle: int | None = None,
        fighters: tuple[int, ...] | None = None,
        active: tuple[int, ...] | None = None,
        bscore: tuple[int, ...] | None = None,
        actor: int | None = None,
        opened: bool | None = None,
        winners: tuple[int, ...] | None = None,
        end: str | None = None,
    ) -> SWState:
        """A copy with the given fields changed (``empties``, ``spent``, ``free`` and
        ``last`` stay: the caller changes them through the constructor)."""
        return SWState(
            self.hill if hill is None else hill,
            self.empties,
            self.owner if owner is None else owner,
            self.spent,
            self.current if current is None else current,
            self.ctrl if ctrl is None else ctrl,
            self.free,
            self.pending if pending is None else pending,
            self.battle if battle is None else battle,
            self.fighters if fighters is None else fighters,
            self.active if active is None else active,
            self.bscore if bscore is None else bscore,
            self.actor if actor is None else actor,
            self.opened if opened is None else opened,
            self.last,
            self.winners if winners is None else winners,
            self.end if end is None else end,
        )


def village_control(hill: Sequence[int]) -> tuple[int, ...]:
    """The seat controlling every village (SW-5), or -1, from the hilltop codes."""
    return tuple(control(hill, c) for c in range(81))


_HILLS = tuple(range(100))


def _empties(hill: tuple[int, ...]) -> tuple[int, ...]:
    """The number of empty hilltops of each province."""
    return tuple(sum(1 for h in PROV_HILLS[b] if hill[h] == EMPTY) for b in range(9))


def _free(hill: tuple[int, ...]) -> tuple[int, ...]:
    """The empty hilltops, ascending."""
    return tuple([h for h, k in enumerate(hill) if k == EMPTY])


def _pair_base(a: int) -> int:
    # Index of the pair (a, a + 1) among the lexicographic pairs a < b of 81 villages.
    return a * 81 - a * (a + 1) // 2


_NOTATION_HELP = (
    "write h<i><j> to place (h37), 'battle b<n>' to pick the next battle, "
    "'bid', 'bid r4c5' or 'bid r4c5 r5c4' to add villages, or 'yield'"
)


class SudokuWarriors(BaseGame[SWState, int]):
    """Two or three warlords claim hilltops and fight for provinces."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="sudoku-warriors",
        name="Sudoku Warriors",
        version="1.0.0",
        min_players=2,
        max_players=3,
        chance=False,
        hidden_information=False,
        simultaneous=False,
        num_distinct_actions=NUM_ACTIONS,
        summary=(
            "Claim the hilltops between Sudoku villages. The last hilltop of a province "
            "starts a battle for its capital, fought by bidding village resources; "
            "win 5 provinces (3 with three players)."
        ),
        params=(
            players_param(2, 3, 2),
            grid_param(),
            ParamSpec(
                "target",
                int,
                None,
                "provinces that win at once (SW-3, SW-13); default 5 with two players, "
                "3 with three",
                minimum=1,
                maximum=9,
                label="Provinces to win",
            ),
        ),
    )

    def __init__(self, params: dict[str, ParamValue]) -> None:
        super().__init__(params)
        n = self._num_players
        self.grid: tuple[int, ...] = tuple(int(ch) for ch in str(params["grid"]))
        target = params.get("target")
        self.target = int(target) if target is not None else (5 if n == 2 else 3)
        self._params["target"] = self.target
        self.symbols: tuple[str, ...] = SYMBOLS[:n]
        self._to_move = tuple(ToMove.decision(p) for p in range(n))
        # Seats in turn order starting from each seat.
        self._order: tuple[tuple[int, ...], ...] = tuple(
            tuple((p + k) % n for k in range(n)) for p in range(n)
        )

    # -- protocol -----------------------------------------------------------------------

    def initial_state(self) -> SWState:
        n = self._num_players
        return SWState(
            hill=(EMPTY,) * 100,
            empties=(16,) * 9,
            owner=(-1,) * 9,
            spent=0,
            current=0,
            ctrl=(-1,) * 81,
            free=_HILLS,
            bscore=(0,) * n,
        )

    def to_move(self, s: SWState) -> ToMove:
        if s.current < 0:
            return TO_MOVE_TERMINAL
        return self._to_move[s.actor if s.battle >= 0 else s.current]

    def _mover(self, s: SWState) -> int:
        if s.current < 0:
            return -1
        return s.actor if s.battle >= 0 else s.current

    def legal_actions(self, s: SWState, player: int) -> Sequence[int]:
        if s.current < 0:
            return ()
        if s.battle >= 0:
            if player != s.actor:
                return ()
            return self._legal_bids(s, player)
        if player != s.current:
            return ()
        if s.pending:
            return [BATTLE_BASE + b for b in s.pending]
        return s.free

    def eligible(self, s: SWState, player: int, province: int | None = None) -> list[int]:
        """Villages whose resource ``player`` may add in a battle for ``province`` (the
        current battle by default): in it or a province sharing a side, controlled by
        him now, not yet spent (SW-11)."""
        b = s.battle if province is None else province
        if b < 0:
            return []
        ctrl, spent = s.ctrl, s.spent
        return [c for c in BATTLE_CELLS[b] if ctrl[c] == player and not spent >> c & 1]

    def _need(self, s: SWState, player: int) -> int:
        """What ``player`` must add to end strictly above every other remaining
        participant (SW-10); 0 or less when he is already above."""
        sc = s.bscore
        top = -1
        for q in s.active:
            if q != player and sc[q] > top:
                top = sc[q]
        return top + 1 - sc[player]

    def _legal_bids(self, s: SWState, p: int) -> list[int]:
        elig = self.eligible(s, p)
        if not s.opened:
            # SW-9: the opener adds at most one village, with no minimum.
            return [BID_NONE, *(BID1_BASE + c for c in elig), YIELD]
        need = self._need(s, p)
        grid = self.grid
        out: list[int] = []
        if need <= 0:
            out.append(BID_NONE)
        out.extend(BID1_BASE + c for c in elig if grid[c] >= need)
        vals = [grid[c] for c in elig]
        k = len(elig)
        for i in range(k):
            a, va = elig[i], vals[i]
            if va + 9 < need:
                continue
            base = BID2_BASE + _pair_base(a) - a - 1
            for j in range(i + 1, k):
                if va + vals[j] >= need:
                    out.append(base + elig[j])
        out.append(YIELD)
        return out

    # -- applying -------------------------------------------------------------------------

    def why_illegal(self, s: SWState, a: int, player: int) -> str | None:
        """The rule that refuses ``a`` for ``player`` in ``s``, or ``None`` if legal."""
        if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < NUM_ACTIONS:
            return "not an action of Sudoku Warriors"
        if s.battle >= 0:
            return self._why_illegal_battle(s, a, player)
        if s.pending:
            if BATTLE_BASE <= a < BATTLE_BASE + 9:
                b = a - BATTLE_BASE
                if b in s.pending:
                    return None
            due = ", ".join(f"battle b{b + 1}" for b in s.pending)
            return f"several battles are due; the placer picks which is fought next (SW-6): {due}"
        if a >= 100:
            return "no battle is being fought; place a warrior on an empty hilltop (SW-4)"
        code = s.hill[a]
        if code == XD:
            return f"{hill_name(a)} is X'd and can never be occupied again (SW-12)"
        if code != EMPTY:
            return (
                f"{hill_name(a)} is occupied by {SYMBOLS[code - 1]}; claim an empty hilltop (SW-4)"
            )
        return None

    def _why_illegal_battle(self, s: SWState, a: int, p: int) -> str | None:
        where = f"the battle for b{s.battle + 1}"
        if a == YIELD:
            return None
        if a < BID_NONE:
            return (
                f"{where} is being fought; bid villages or yield first (SW-6: all battles "
                "finish before the next turn)"
            )
        cells = bid_cells(a)
        if not s.opened and len(cells) > 1:
            return (
                "the opening bid adds the resource of at most one village (SW-9); "
                "bid one village, a bare bid, or yield"
            )
        region = BATTLE_CELL_SETS[s.battle]
        for c in cells:
            if c not in region or s.spent >> c & 1 or self.control(s, c) != p:
                return self._why_not_eligible(s, c, p)
        if not s.opened:
            return None
        need = self._need(s, p)
        added = sum(self.grid[c] for c in cells)
        if added < need:
            top = s.bscore[p] + need - 1
            return (
                f"your battle score would be {s.bscore[p] + added}; you must end strictly "
                f"above every other remaining participant ({top}), adding at most two "
                "villages, or yield (SW-10)"
            )
        return None

    def _why_not_eligible(self, s: SWState, c: int, p: int) -> str:
        name = cell_name(c)
        if c not in BATTLE_CELLS[s.battle]:
            return (
                f"{name} is neither in b{s.battle + 1} nor in a province sharing a side "
                "with it (SW-11)"
            )
        if s.spent >> c & 1:
            return f"the resource of {name} is already spent (SW-11)"
        ctrl = self.control(s, c)
        who = "nobody" if ctrl < 0 else SYMBOLS[ctrl]
        return f"{name} is controlled by {who}, not by you (SW-5, SW-11)"

    def apply(self, s: SWState, a: object, player: int | None = None) -> SWState:
        mover = self._mover(s)
        if mover >= 0 and (player is None or player == mover):
            p = mover
        else:
            p = self.acting_player(self.to_move(s), player, self._fmt(a))
        a = self.action_index(a)
        reason = self.why_illegal(s, a, p)
        if reason is not None:
            raise IllegalActionError(self._fmt(a), reason)
        return self._step(s, a, p)

    def _step(self, s: SWState, a: int, p: int) -> SWState:
        """Apply a legal action (unchecked; ``apply`` validates first)."""
        if a < 100:
            return self._place(s, a, p)
        if a < BID_NONE:
            b = a - BATTLE_BASE
            rest = tuple([x for x in s.pending if x != b])
            return self._advance(self._start(s.but(pending=rest), b))
        if a == YIELD:
            return self._withdraw(s, p)
        return self._bid(s, a, p)

    def _place(self, s: SWState, h: int, p: int) -> SWState:
        hill = list(s.hill)
        hill[h] = p + 1
        ctrl = list(s.ctrl)
        for c in HILL_CELLS[h]:
            ctrl[c] = control(hill, c)
        empties = list(s.empties)
        due: list[int] = []
        for b in HILL_PROVS[h]:
            e = empties[b] - 1
            empties[b] = e
            if e == 0:
                # SW-6: a province fills only through a placement inside it, and is
                # never won before it is full, so it is due its battle now.
                due.append(b)
        free = s.free
        k = free.index(h)
        free = free[:k] + free[k + 1 :]
        if not due and free:
            # The common case: no battle, the next seat places.
            return SWState(
                tuple(hill),
                tuple(empties),
                s.owner,
                s.spent,
                self._order[p][1],
                tuple(ctrl),
                free,
                bscore=s.bscore,
                last=h,
            )
        nxt = SWState(
            tuple(hill),
            tuple(empties),
            s.owner,
            s.spent,
            p,
            tuple(ctrl),
            free,
            pending=tuple(due),
            bscore=s.bscore,
            last=h,
        )
        return self._advance(nxt)

    def _advance(self, s: SWState) -> SWState:
        """Fight the due battles that need no choice; then the next turn (SW-6)."""
        while s.current >= 0 and s.battle < 0:
            if not s.pending:
                return self._next_turn(s)
            if len(s.pending) > 1:
                return s  # the placer picks the order
            s = self._start(s.but(pending=()), s.pending[0])
        return s

    def _start(self, s: SWState, b: int) -> SWState:
        """Begin the battle for province ``b`` (``s.pending`` no longer holds it); a sole
        participant wins it at once. The caller goes on with ``_advance``."""
        hill = s.hill
        caps = CAPITAL_HILLS[b]
        fighters = tuple([q for q in self._order[s.current] if any(hill[h] == q + 1 for h in caps)])
        if len(fighters) == 1:
            # SW-7: a sole participant wins the province at once.
            return self._claim(s, b, fighters[0])
        n = self._num_players
        counts = [0] * n
        for h in PROV_HILLS[b]:
            k = hill[h]
            if 1 <= k <= n:
                counts[k - 1] += 1
        return s.but(
            battle=b,
            fighters=fighters,
            active=fighters,
            bscore=tuple([counts[q] if q in fighters else 0 for q in range(n)]),  # SW-8
            actor=fighters[0],
            opened=False,
        )

    def _next_actor(self, fighters: tuple[int, ...], active: tuple[int, ...], p: int) -> int:
        k = fighters.index(p)
        m = len(fighters)
        for d in range(1, m + 1):
            q = fighters[(k + d) % m]
            if q in active:
                return q
        return p  # pragma: no cover - at least two remain when this is called

    def _bid(self, s: SWState, a: int, p: int) -> SWState:
        cells = bid_cells(a)
        spent = s.spent
        added = 0
        for c in cells:
            spent |= 1 << c
            added += self.grid[c]
        sc = list(s.bscore)
        sc[p] += added
        return SWState(
            s.hill,
            s.empties,
            s.owner,
            spent,
            s.current,
            s.ctrl,
            s.free,
            pending=s.pending,
            battle=s.battle,
            fighters=s.fighters,
            active=s.active,
            bscore=tuple(sc),
            actor=self._next_actor(s.fighters, s.active, p),
            opened=True,
            last=s.last,
        )

    def _withdraw(self, s: SWState, p: int) -> SWState:
        active = tuple([q for q in s.active if q != p])
        if len(active) == 1:
            return self._advance(self._claim(s, s.battle, active[0]))
        return s.but(active=active, opened=True, actor=self._next_actor(s.fighters, active, p))

    def _claim(self, s: SWState, b: int, w: int) -> SWState:
        """SW-12: ``w`` holds ``b``; other warriors on its capital's hilltops, and on its
        border hilltops whose every province ``w`` holds, are X'd. SW-13 ends the game
        when ``w`` reaches the target."""
        owner = list(s.owner)
        owner[b] = w
        hill = list(s.hill)
        mine = w + 1
        crossed: list[int] = []
        for h in CAPITAL_HILLS[b]:
            k = hill[h]
            if k != mine and k != EMPTY and k != XD:
                crossed.append(h)
        for h in BORDER_HILLS[b]:
            k = hill[h]
            if k != mine and k != EMPTY and k != XD and all(owner[q] == w for q in HILL_PROVS[h]):
                crossed.append(h)
        ctrl = s.ctrl
        if crossed:
            for h in crossed:
                hill[h] = XD
            changed = list(ctrl)
            for h in crossed:
                for c in HILL_CELLS[h]:
                    changed[c] = control(hill, c)
            ctrl = tuple(changed)
        n = self._num_players
        s = s.but(
            hill=tuple(hill),
            owner=tuple(owner),
            ctrl=ctrl,
            battle=-1,
            fighters=(),
            active=(),
            bscore=(0,) * n,
            actor=-1,
            opened=False,
        )
        if owner.count(w) >= self.target:
            return s.but(current=-1, pending=(), winners=(w,), end="target")
        return s

    def _next_turn(self, s: SWState) -> SWState:
        if not s.free:
            # Every province has been fought; nobody reached the target (only possible
            # with a raised ``target``): most provinces wins, ties share (README).
            counts = [s.owner.count(q) for q in range(self._num_players)]
            top = max(counts)
            winners = tuple(q for q in range(self._num_players) if counts[q] == top)
            return s.but(current=-1, winners=winners, end="full")
        return s.but(current=(s.current + 1) % self._num_players)

    # -- results ----------------------------------------------------------------------------

    def provinces(self, s: SWState) -> tuple[int, ...]:
        """How many provinces each seat holds."""
        return tuple(s.owner.count(q) for q in range(self._num_players))

    def outcome(self, s: SWState) -> Outcome | None:
        if s.current >= 0:
            return None
        scores = tuple(float(c) for c in self.provinces(s))
        names = " and ".join(self.symbols[w] for w in s.winners)
        verb = "wins" if len(s.winners) == 1 else "share the win"
        why = END_REASONS[s.end]
        if s.end == "target":
            why = f"{self.target} provinces, the target (SW-13)"
        return Outcome(
            winners=s.winners, scores=scores, reason=f"{names} {verb}: {why}", code=s.end
        )

    def returns(self, s: SWState) -> tuple[float, ...]:
        n = self._num_players
        if s.current >= 0 or not s.winners:
            return (0.0,) * n
        share = 1.0 / len(s.winners)
        return tuple(share if q in s.winners else 0.0 for q in range(n))

    # -- notation ---------------------------------------------------------------------------

    def _fmt(self, a: object) -> str:
        if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < NUM_ACTIONS:
            return self.format_action(a)
        return repr(a)

    def format_action(self, a: int) -> str:
        if a < 100:
            return hill_name(a)
        if a < BID_NONE:
            return f"battle b{a - BATTLE_BASE + 1}"
        if a == YIELD:
            return "yield"
        cells = bid_cells(a)
        return " ".join(["bid", *(cell_name(c) for c in cells)])

    def parse_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not text; {_NOTATION_HELP}")
        words = [w for w in re.split(r"[\s,+]+", text.strip().lower()) if w]
        if not words:
            raise NotationError(f"empty action; {_NOTATION_HELP}")
        head = words[0]
        if head == "yield" and len(words) == 1:
            return YIELD
        if head == "battle" and len(words) == 2:
            return BATTLE_BASE + parse_box(words[1])
        if head == "bid":
            if len(words) > 3:
                raise NotationError(
                    f"{text!r} names {len(words) - 1} villages; a bid adds at most two "
                    "(SW-10), for example 'bid r4c5 r5c4'"
                )
            cells = [parse_cell(w) for w in words[1:]]
            if not cells:
                return BID_NONE
            if len(cells) == 1:
                return BID1_BASE + cells[0]
            if cells[0] == cells[1]:
                raise NotationError(
                    f"{text!r} names {cell_name(cells[0])} twice; a bid adds two different villages"
                )
            return pair_action(cells[0], cells[1])
        if head.startswith("h"):
            return parse_hill("".join(words))
        raise NotationError(f"{text!r} is not a Sudoku Warriors action; {_NOTATION_HELP}")

    def encode_action(self, a: int) -> int:
        return a

    def decode_action(self, index: int) -> int:
        self.decode_range_check(index)
        return index

    # -- views and persistence ----------------------------------------------------------------

    def control(self, s: SWState, cell: int) -> int:
        """The seat controlling village ``cell`` now (SW-5), or -1."""
        return s.ctrl[cell]

    def phase(self, s: SWState) -> str:
        """``place``, ``choose`` (the placer picks the next battle), ``bid`` or ``over``."""
        if s.current < 0:
            return "over"
        if s.battle >= 0:
            return "bid"
        return "choose" if s.pending else "place"

    def view(self, s: SWState, observer: int | None) -> JsonDict:
        out = self.outcome(s)
        mover = self._mover(s)
        n = self._num_players
        battle: JsonDict | None = None
        if s.battle >= 0:
            battle = {
                "province": f"b{s.battle + 1}",
                "capital": cell_name(CAPITAL[s.battle]),
                "participants": list(s.fighters),
                "active": list(s.active),
                "scores": [s.bscore[q] if q in s.fighters else None for q in range(n)],
                "actor": s.actor,
                "opening": not s.opened,
                "need": max(0, self._need(s, s.actor)) if s.opened else 0,
                "eligible": [
                    [cell_name(c) for c in self.eligible(s, q)] if q in s.active else []
                    for q in range(n)
                ],
            }
        return {
            "game": self.spec.id,
            "observer": observer,
            "players": list(self.symbols),
            "grid": list(self.grid),
            "hilltops": ["" if k == EMPTY else "x" if k == XD else SYMBOLS[k - 1] for k in s.hill],
            "control": list(s.ctrl),
            "spent": [bool(s.spent >> c & 1) for c in range(81)],
            "owners": list(s.owner),
            "scores": list(self.provinces(s)),
            "target": self.target,
            "phase": self.phase(s),
            "pending": [f"b{b + 1}" for b in s.pending],
            "battle": battle,
            "to_move": [] if mover < 0 else [mover],
            "legal": [self.format_action(a) for a in self.legal_actions(s, mover)]
            if mover >= 0
            else [],
            "last": hill_name(s.last) if s.last >= 0 else None,
            "outcome": None if out is None else out.to_json(),
        }

    def dump_state(self, s: SWState) -> JsonDict:
        return {
            "hill": "".join(HILL_CHARS[k] for k in s.hill),
            "owner": list(s.owner),
            "spent": [c for c in range(81) if s.spent >> c & 1],
            "current": s.current,
            "pending": list(s.pending),
            "battle": s.battle,
            "fighters": list(s.fighters),
            "active": list(s.active),
            "bscore": list(s.bscore),
            "actor": s.actor,
            "opened": s.opened,
            "last": s.last,
            "winners": list(s.winners),
            "end": s.end,
        }

    def load_state(self, data: JsonDict) -> SWState:
        n = self._num_players
        try:
            hill = tuple(HILL_CHARS.index(ch) for ch in str(data["hill"]))
            spent = 0
            for c in data["spent"]:
                if not 0 <= int(c) < 81:
                    raise ValueError(f"spent village {c}")
                spent |= 1 << int(c)
            whole = len(hill) == 100
            s = SWState(
                hill=hill,
                empties=_empties(hill) if whole else (),
                ctrl=village_control(hill) if whole else (),
                free=_free(hill),
                owner=tuple(int(o) for o in data["owner"]),
                spent=spent,
                current=int(data["current"]),
                pending=tuple(int(b) for b in data["pending"]),
                battle=int(data["battle"]),
                fighters=tuple(int(q) for q in data["fighters"]),
                active=tuple(int(q) for q in data["active"]),
                bscore=tuple(int(x) for x in data["bscore"]),
                actor=int(data["actor"]),
                opened=bool(data["opened"]),
                last=int(data["last"]),
                winners=tuple(int(q) for q in data["winners"]),
                end=str(data["end"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateFormatError(f"not a Sudoku Warriors state: {exc!r}") from None
        seats = range(n)
        if (
            len(hill) != 100
            or any(k not in (0, XD) and k > n for k in hill)
            or len(s.owner) != 9
            or any(o != -1 and o not in seats for o in s.owner)
            or len(s.bscore) != n
            or not -1 <= s.current < n
            or any(b not in range(9) for b in s.pending)
            or not -1 <= s.battle < 9
            or any(q not in seats for q in (*s.fighters, *s.active, *s.winners))
        ):
            raise StateFormatError(
                f"not a Sudoku Warriors state for {n} players: hill needs 100 of "
                f"{HILL_CHARS[: n + 1]}x, owner 9 seats or -1, bscore {n} numbers"
            )
        if s.end and s.end not in END_REASONS:
            raise StateFormatError(f"unknown end reason {s.end!r}")
        if s.battle >= 0 and s.actor not in s.active:
            raise StateFormatError("the seat to bid is not in the battle")
        return s

    def position(
        self,
        layout: str,
        *,
        owners: Mapping[str, int] | None = None,
        spent: Sequence[str] = (),
        to_move: int = 0,
    ) -> SWState:
        """A placement-phase state drawn as text, for puzzles, tests and docs.

        ``layout`` is 10 rows of 10 hilltop characters (white space ignored): ``.``
        empty, ``o`` circle, ``s`` square, ``t`` triangle, ``x`` X'd. ``owners`` maps
        provinces (``"b5"``) to the seats holding them, ``spent`` lists crossed-out
        villages. A full province must be held by somebody (it has had its battle).
        """
        chars = "".join(layout.split()).lower()
        if len(chars) != 100 or any(
            ch not in HILL_CHARS[: self._num_players + 1] + "x" for ch in chars
        ):
            raise StateFormatError(
                "a layout is 10 rows of 10 hilltop characters: . empty, o circle, s square"
                + (", t triangle" if self._num_players == 3 else "")
                + ", x X'd"
            )
        hill = tuple(HILL_CHARS.index(ch) for ch in chars)
        owner = [-1] * 9
        for name, seat in (owners or {}).items():
            owner[parse_box(name)] = seat
        empties = _empties(hill)
        for b in range(9):
            if empties[b] == 0 and owner[b] < 0:
                raise StateFormatError(f"b{b + 1} is full, so it must be held by somebody")
        mask = 0
        for name in spent:
            mask |= 1 << parse_cell(name)
        return SWState(
            hill=hill,
            empties=empties,
            owner=tuple(owner),
            spent=mask,
            current=to_move,
            ctrl=village_control(hill),
            free=_free(hill),
            bscore=(0,) * self._num_players,
        )


__all__ = ["END_REASONS", "PAIRS", "SYMBOLS", "SWState", "SudokuWarriors"]
