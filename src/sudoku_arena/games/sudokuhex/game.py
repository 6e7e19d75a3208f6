"""The SuDokuHex rules engine (the rulings SH-1..6 are stated in README.md here).

Encodings. An action is an int in ``range(399)``:

* ``0..48``: put the tile in hand on that hex (notation ``C4``, see ``grids.hex``);
* ``49 + 49 * (v - 1) + h``: chance, the starting tile ``v`` goes on hex ``h``
  (notation ``start 3 C4``);
* ``392 + v - 1``: chance, the drawing seat draws a ``v`` from the pile (``draw 5``).

The pile is not an ordered sequence in the state but the count of each number still in
it: drawing from a shuffled face-down pile is the same as drawing uniformly from what is
left, so each draw is one chance node whose outcome ``v`` has probability
``pile[v] / len(pile)``. That way the state holds no pile order that could leak.

``blocked[v - 1]`` is the 49-bit mask of hexes where number ``v`` may not go (occupied,
or sharing a honeycomb or a line with a ``v``); it is derived from ``board`` and kept in
the state so that legal moves are one mask and apply is a handful of integer operations.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar, final

from sudoku_arena.core.base import BaseGame
from sudoku_arena.core.chance import probability
from sudoku_arena.core.draws import shuffle
from sudoku_arena.core.errors import IllegalActionError, NotationError, StateFormatError
from sudoku_arena.core.params import ParamValue, players_param
from sudoku_arena.core.types import (
    TO_MOVE_CHANCE,
    TO_MOVE_TERMINAL,
    GameSpec,
    JsonDict,
    Outcome,
    ToMove,
)
from sudoku_arena.grids.hex import (
    ALL_HEXES_MASK,
    HEX_NAMES,
    HONEYCOMB_HEXES,
    HONEYCOMB_LETTERS,
    HONEYCOMB_OF,
    LINES,
    LINES_THROUGH,
    NUM_HEXES,
    PEERS_MASK,
    bits,
    line_name,
    parse_hex,
    placement_points,
)

NUMBERS = 7
COPIES = 7
#: Seat display names: the colours of the four counters.
SEAT_NAMES = ("red", "blue", "green", "yellow")
START_BASE = NUM_HEXES
DRAW_BASE = START_BASE + NUMBERS * NUM_HEXES
NUM_ACTIONS = DRAW_BASE + NUMBERS
#: Points a counter needs for a lap of the 60-space scoring track (a stone, SH-5).
LAP = 60
#: No game can score more than this in total (every pair of tiles sharing a line counts
#: at most once: the sum over the 27 lines of len * (len - 1) / 2). Solo returns are the
#: final score divided by it.
MAX_TOTAL_SCORE = sum(len(ln) * (len(ln) - 1) // 2 for ln in LINES)

#: End reasons stored in the state (``end``).
END_NO_TILE = "no-tile"
END_NO_HEX = "no-hex"
END_REASONS = (END_NO_TILE, END_NO_HEX)


@final
class HexState:
    """A SuDokuHex position (full information: the trusted side only; immutable, never
    assign to its attributes).

    ``board`` holds 49 numbers (0 empty); ``start[v - 1]`` the hex of starting tile
    ``v`` (-1 before it is placed); ``hands`` each seat's tile (0 none); ``pile`` the
    count of each number still face down; ``turn`` the seat whose turn it is (or comes
    once the pending draw is done); ``drawer`` the seat drawing now (-1 none); ``end``
    the end reason ("" while the game goes on). ``occupied`` and ``blocked`` are
    derived from ``board``. States compare and hash by value.
    """

    __slots__ = (
        "blocked",
        "board",
        "drawer",
        "end",
        "hands",
        "last",
        "last_points",
        "occupied",
        "pile",
        "scores",
        "start",
        "turn",
    )

    board: tuple[int, ...]
    start: tuple[int, ...]
    hands: tuple[int, ...]
    pile: tuple[int, ...]
    scores: tuple[int, ...]
    turn: int
    drawer: int
    last: int
    last_points: int
    end: str
    occupied: int
    blocked: tuple[int, ...]

    def __init__(
        self,
        board: tuple[int, ...],
        start: tuple[int, ...],
        hands: tuple[int, ...],
        pile: tuple[int, ...],
        scores: tuple[int, ...],
        turn: int,
        drawer: int,
        last: int,
        last_points: int,
        end: str,
        occupied: int,
        blocked: tuple[int, ...],
    ) -> None:
        self.board = board
        self.start = start
        self.hands = hands
        self.pile = pile
        self.scores = scores
        self.turn = turn
        self.drawer = drawer
        self.last = last
        self.last_points = last_points
        self.end = end
        self.occupied = occupied
        self.blocked = blocked

    @property
    def setup_done(self) -> bool:
        return self.start[-1] >= 0

    def _key(self) -> tuple[object, ...]:
        return (
            self.board,
            self.start,
            self.hands,
            self.pile,
            self.scores,
            self.turn,
            self.drawer,
            self.last,
            self.last_points,
            self.end,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HexState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"HexState(board={self.board!r}, start={self.start!r}, hands={self.hands!r}, "
            f"pile={self.pile!r}, scores={self.scores!r}, turn={self.turn!r}, "
            f"drawer={self.drawer!r}, last={self.last!r}, last_points={self.last_points!r}, "
            f"end={self.end!r})"
        )

    def __reduce__(self) -> tuple[type[HexState], tuple[object, ...]]:
        return HexState, (
            self.board,
            self.start,
            self.hands,
            self.pile,
            self.scores,
            self.turn,
            self.drawer,
            self.last,
            self.last_points,
            self.end,
            self.occupied,
            self.blocked,
        )

    def but(
        self,
        *,
        board: tuple[int, ...] | None = None,
        start: tuple[int, ...] | None = None,
        hands: tuple[int, ...] | None = None,
        pile: tuple[int, ...] | None = None,
        scores: tuple[int, ...] | None = None,
        turn: int | None = None,
        drawer: int | None = None,
        last: int | None = None,
        last_points: int | None = None,
        end: str | None = None,
        occupied: int | None = None,
        blocked: tuple[int, ...] | None = None,
    ) -> HexState:
        """A copy with the given fields changed."""
        return HexState(
            self.board if board is None else board,
            self.start if start is None else start,
            self.hands if hands is None else hands,
            self.pile if pile is None else pile,
            self.scores if scores is None else scores,
            self.turn if turn is None else turn,
            self.drawer if drawer is None else drawer,
            self.last if last is None else last,
            self.last_points if last_points is None else last_points,
            self.end if end is None else end,
            self.occupied if occupied is None else occupied,
            self.blocked if blocked is None else blocked,
        )


def start_action(number: int, hex_index: int) -> int:
    """The chance action placing starting tile ``number`` on ``hex_index``."""
    return START_BASE + NUM_HEXES * (number - 1) + hex_index


def draw_action(number: int) -> int:
    """The chance action drawing a ``number``."""
    return DRAW_BASE + number - 1


def _put(blocked: Sequence[int], h: int, v: int) -> tuple[int, ...]:
    """The ``blocked`` masks once a ``v`` lies on the empty hex ``h`` (SH-4): ``h`` is
    occupied for every number, and its honeycomb and lines are closed to ``v``."""
    bit = 1 << h
    out = [b | bit for b in blocked]
    out[v - 1] |= PEERS_MASK[h]
    return tuple(out)


def _blocked_masks(board: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    occupied = 0
    blocked: tuple[int, ...] = (0,) * NUMBERS
    for h, v in enumerate(board):
        if v:
            occupied |= 1 << h
            blocked = _put(blocked, h, v)
    return occupied, blocked


#: ``_PROBABILITY[total][count]`` is ``Fraction(count, total)``: a draw's chances are
#: shared values, not fractions made again at every chance node.
_PROBABILITY: tuple[tuple[Fraction, ...], ...] = tuple(
    tuple(probability(c, max(total, 1)) for c in range(COPIES + 1))
    for total in range(NUMBERS * COPIES + 1)
)


#: Starting-tile chance outcomes by the mask of honeycombs that already hold one
#: (filled on first use; at most 128 entries, the tuples immutable and shared).
_START_OUTCOMES: dict[int, tuple[tuple[int, Fraction], ...]] = {}


def _start_outcomes(start: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """SH-2: the next starting tile goes on any hex of a honeycomb without one, all
    equally likely."""
    used = 0
    for h in start:
        if h >= 0:
            used |= 1 << HONEYCOMB_OF[h]
    found = _START_OUTCOMES.get(used)
    if found is None:
        v = start.index(-1) + 1
        hexes = [h for hc in range(7) if not used >> hc & 1 for h in HONEYCOMB_HEXES[hc]]
        p = probability(1, len(hexes))
        found = tuple([(start_action(v, h), p) for h in hexes])
        _START_OUTCOMES[used] = found
    return found


@functools.lru_cache(maxsize=8192)
def _draw_outcomes(pile: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """A draw from the face-down pile: each number with probability count / size."""
    chances = _PROBABILITY[sum(pile)]
    return tuple([(DRAW_BASE + v, chances[c]) for v, c in enumerate(pile) if c])


_START_RE = re.compile(r"^\s*start\s*([1-7])\s*(?:on\s+|@\s*)?([A-Ga-g]\s*[0-6])\s*$", re.I)
_DRAW_RE = re.compile(r"^\s*draw\s*([1-7])\s*$", re.I)


class SuDokuHex(BaseGame[HexState, int]):
    """One to four players place number tiles on seven honeycombs of hexes."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="sudokuhex",
        name="SuDokuHex",
        version="1.0.0",
        min_players=1,
        max_players=4,
        chance=True,
        hidden_information=True,
        simultaneous=False,
        num_distinct_actions=NUM_ACTIONS,
        summary=(
            "Reiner Knizia's hex tile game: place your secret number tile where its "
            "honeycomb and its three lines do not hold that number yet, and score one "
            "point for every tile on those lines."
        ),
        params=(players_param(1, 4, 2),),
    )

    def __init__(self, params: dict[str, ParamValue]) -> None:
        super().__init__(params)
        self.seat_names: tuple[str, ...] = SEAT_NAMES[: self.num_players]
        self._to_move = tuple(ToMove.decision(p) for p in range(self.num_players))

    # -- protocol -------------------------------------------------------------------------

    def initial_state(self) -> HexState:
        n = self.num_players
        return HexState(
            board=(0,) * NUM_HEXES,
            start=(-1,) * NUMBERS,
            hands=(0,) * n,
            pile=(COPIES - 1,) * NUMBERS,
            scores=(0,) * n,
            turn=0,
            drawer=0,
            last=-1,
            last_points=0,
            end="",
            occupied=0,
            blocked=(0,) * NUMBERS,
        )

    def to_move(self, s: HexState) -> ToMove:
        if s.end:
            return TO_MOVE_TERMINAL
        if s.drawer >= 0 or s.start[-1] < 0:
            return TO_MOVE_CHANCE
        return self._to_move[s.turn]

    def legal_mask(self, s: HexState, number: int) -> int:
        """The hexes where ``number`` may go now (SH-4), as a bit mask."""
        return ~s.blocked[number - 1] & ALL_HEXES_MASK

    def legal_actions(self, s: HexState, player: int) -> Sequence[int]:
        if s.end or s.drawer >= 0 or not s.setup_done or player != s.turn:
            return []
        v = s.hands[player]
        if not v:
            return []
        return bits(~s.blocked[v - 1] & ALL_HEXES_MASK)

    def _next_start(self, s: HexState) -> int:
        """The number of the next starting tile to place (1..7)."""
        return s.start.index(-1) + 1

    def _start_hexes(self, s: HexState) -> list[int]:
        """SH-2: hexes of the honeycombs that hold no starting tile yet."""
        used = {HONEYCOMB_OF[h] for h in s.start if h >= 0}
        return [h for hc in range(7) if hc not in used for h in HONEYCOMB_HEXES[hc]]

    def chance_outcomes(self, s: HexState) -> Sequence[tuple[int, Fraction]]:
        if s.end:
            return []
        if not s.setup_done:
            return _start_outcomes(s.start)
        if s.drawer >= 0:
            return _draw_outcomes(s.pile)
        return []

    def why_illegal(self, s: HexState, a: int, player: int) -> str | None:
        """The rule that refuses placing on hex ``a`` for ``player``, or ``None``."""
        if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < NUM_HEXES:
            if isinstance(a, int) and START_BASE <= a < NUM_ACTIONS:
                return "starting tiles and draws are chance outcomes, not a player's move"
            return "not a hex of the board"
        v = s.hands[player]
        allowed = self.legal_actions(s, player)
        where = (
            "; your " + str(v) + " may go on " + ", ".join(HEX_NAMES[h] for h in allowed)
            if allowed
            else ""
        )
        if s.board[a]:
            return f"{HEX_NAMES[a]} already holds a {s.board[a]} (SH-4: only empty hexes){where}"
        hc = HONEYCOMB_OF[a]
        for h in HONEYCOMB_HEXES[hc]:
            if s.board[h] == v:
                return (
                    f"honeycomb {HONEYCOMB_LETTERS[hc]} already holds a {v} on "
                    f"{HEX_NAMES[h]} (SH-4: each honeycomb holds each number once){where}"
                )
        for ln in LINES_THROUGH[a]:
            for h in LINES[ln]:
                if s.board[h] == v:
                    return (
                        f"the {line_name(ln)} through {HEX_NAMES[a]} already holds a {v} "
                        f"on {HEX_NAMES[h]} (SH-4: each line holds each number once){where}"
                    )
        return None

    def _why_chance_illegal(self, s: HexState, a: int) -> str | None:
        if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < NUM_ACTIONS:
            return "not an action of SuDokuHex"
        if not s.setup_done:
            v = self._next_start(s)
            if not START_BASE <= a < DRAW_BASE:
                return (
                    f"this is a chance node: the setup places starting tile {v} next "
                    f"(SH-2); expected start {v} <hex>"
                )
            w, h = divmod(a - START_BASE, NUM_HEXES)
            if w + 1 != v:
                return f"starting tiles go out in order 1..7; the next is {v} (SH-2)"
            if h not in self._start_hexes(s):
                return (
                    f"honeycomb {HONEYCOMB_LETTERS[HONEYCOMB_OF[h]]} already has its "
                    "starting tile (SH-2: each in a different honeycomb)"
                )
            return None
        if not DRAW_BASE <= a < NUM_ACTIONS:
            return (
                f"this is a chance node: {self.seat_names[s.drawer]} draws a tile now "
                "(SH-4); expected draw <number>"
            )
        v = a - DRAW_BASE + 1
        if not s.pile[v - 1]:
            return f"no {v} is left in the pile"
        return None

    def apply(self, s: HexState, a: object, player: int | None = None) -> HexState:
        tm = self.to_move(s)
        a = self.action_index(a)
        if tm.is_chance:
            if player is not None:
                raise IllegalActionError(self._fmt(a), "this is a chance node; no player acts")
            reason = self._why_chance_illegal(s, a)
            if reason is not None:
                raise IllegalActionError(self._fmt(a), reason)
            if not s.setup_done:
                w, h = divmod(a - START_BASE, NUM_HEXES)
                return self._start(s, w + 1, h)
            return self._draw(s, a - DRAW_BASE + 1)
        p = self.acting_player(tm, player, self._fmt(a))
        if type(a) is int and 0 <= a < NUM_HEXES and not s.blocked[s.hands[p] - 1] >> a & 1:
            return self._place(s, a, p)  # legal by the mask; explain refusals below
        reason = self.why_illegal(s, a, p)
        if reason is not None:
            raise IllegalActionError(self._fmt(a), reason)
        return self._place(s, a, p)  # pragma: no cover - the mask and the rule agree

    # -- unchecked transitions (apply validates first) --------------------------------------

    def _start(self, s: HexState, v: int, h: int) -> HexState:
        board = list(s.board)
        board[h] = v
        start = list(s.start)
        start[v - 1] = h
        return s.but(
            board=tuple(board),
            start=tuple(start),
            occupied=s.occupied | 1 << h,
            blocked=_put(s.blocked, h, v),
        )

    def _draw(self, s: HexState, v: int) -> HexState:
        d = s.drawer
        pile = list(s.pile)
        pile[v - 1] -= 1
        hands = list(s.hands)
        hands[d] = v
        # The opening deal goes round the table; a later draw ends the placer's turn.
        nxt = d + 1 if s.last < 0 and d + 1 < self.num_players else -1
        s2 = HexState(
            s.board,
            s.start,
            tuple(hands),
            tuple(pile),
            s.scores,
            s.turn,
            nxt,
            s.last,
            s.last_points,
            "",
            s.occupied,
            s.blocked,
        )
        return s2 if nxt >= 0 else self._begin_turn(s2)

    def _place(self, s: HexState, h: int, p: int) -> HexState:
        """Put ``p``'s tile on ``h`` (unchecked), score, then draw or pass the turn."""
        v = s.hands[p]
        bit = 1 << h
        points = placement_points(s.occupied, h)  # SH-4
        board = list(s.board)
        board[h] = v
        hands = list(s.hands)
        hands[p] = 0
        scores = list(s.scores)
        scores[p] += points
        more = any(s.pile)
        s2 = HexState(
            tuple(board),
            s.start,
            tuple(hands),
            s.pile,
            tuple(scores),
            (p + 1) % self._num_players,
            p if more else -1,
            h,
            points,
            "",
            s.occupied | bit,
            _put(s.blocked, h, v),
        )
        return s2 if more else self._begin_turn(s2)

    def _begin_turn(self, s: HexState) -> HexState:
        """SH-5: the game ends when the player to move has no tile or no legal hex."""
        v = s.hands[s.turn]
        if not v:
            return s.but(end=END_NO_TILE)
        if not ~s.blocked[v - 1] & ALL_HEXES_MASK:
            return s.but(end=END_NO_HEX)
        return s

    # -- results --------------------------------------------------------------------------

    def outcome(self, s: HexState) -> Outcome | None:
        if not s.end:
            return None
        scores = tuple(float(x) for x in s.scores)
        who = self.seat_names[s.turn]
        cause = (
            f"{who} has no tile left"
            if s.end == END_NO_TILE
            else f"{who} has no legal hex for the tile in hand"
        )
        if self.num_players == 1:
            return Outcome(
                winners=(0,),
                scores=scores,
                reason=f"final score {s.scores[0]} ({cause})",
                code=s.end,
            )
        top = max(s.scores)
        winners = tuple(p for p, x in enumerate(s.scores) if x == top)
        names = " and ".join(self.seat_names[p] for p in winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        return Outcome(
            winners=winners,
            scores=scores,
            reason=f"{names} {verb} with {top} points ({cause})",
            code=s.end,
        )

    def returns(self, s: HexState) -> tuple[float, ...]:
        if self.num_players == 1:
            if not s.end:
                return (0.0,)
            return (min(1.0, s.scores[0] / MAX_TOTAL_SCORE),)
        return super().returns(s)

    # -- notation ---------------------------------------------------------------------------

    def _fmt(self, a: object) -> str:
        if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < NUM_ACTIONS:
            return self.format_action(a)
        return repr(a)

    def format_action(self, a: int) -> str:
        if 0 <= a < START_BASE:
            return HEX_NAMES[a]
        if START_BASE <= a < DRAW_BASE:
            v, h = divmod(a - START_BASE, NUM_HEXES)
            return f"start {v + 1} {HEX_NAMES[h]}"
        if DRAW_BASE <= a < NUM_ACTIONS:
            return f"draw {a - DRAW_BASE + 1}"
        raise NotationError(f"{a!r} is not a SuDokuHex action index (0 to {NUM_ACTIONS - 1})")

    def public_action(self, text: str) -> str:
        """Draws deal a secret tile (SH-6): the log shows that a tile was drawn, not which."""
        return "draw" if _DRAW_RE.match(text) else text

    def parse_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not text")
        m = _START_RE.match(text)
        if m:
            return start_action(int(m.group(1)), parse_hex(m.group(2)))
        m = _DRAW_RE.match(text)
        if m:
            return draw_action(int(m.group(1)))
        try:
            return parse_hex(text)
        except NotationError:
            raise NotationError(
                f"{text!r} is not a SuDokuHex action; a placement is a hex name, a "
                "honeycomb letter A-G (A the centre) and a position 0-6 (0 its centre) "
                "such as C4; chance outcomes are written 'start 3 C4' and 'draw 5'"
            ) from None

    def encode_action(self, a: int) -> int:
        return a

    def decode_action(self, index: int) -> int:
        self.decode_range_check(index)
        return index

    # -- hidden information -------------------------------------------------------------------

    def unseen_counts(self, s: HexState, observer: int | None) -> list[int]:
        """How many tiles of each number ``observer`` has not seen (pile and other
        hands; for a spectator every hand). Public arithmetic: 7 of each number minus
        the board minus his own tile."""
        counts = list(s.pile)
        for p, v in enumerate(s.hands):
            if v and p != observer:
                counts[v - 1] += 1
        return counts

    def determinize(self, s: HexState, observer: int, rng: random.Random) -> HexState:
        """Re-deal the other seats' tiles and the pile from the tiles ``observer`` has
        not seen (SH-6), uniformly among the deals consistent with what he saw.

        The only thing he has seen about another hand is whether the game went on: a
        seat to move (other than him) holds a tile that has a legal hex, and a game that
        ended for lack of a legal hex ended on a tile that has none. Every other deal of
        the unseen tiles is equally likely."""
        pool = self.unseen_counts(s, observer)
        holders = [p for p, v in enumerate(s.hands) if v and p != observer]
        if not holders:
            return s
        hands = list(s.hands)
        constrained = -1
        if s.turn in holders and s.drawer < 0 and s.setup_done and s.end != END_NO_TILE:
            constrained = s.turn
            want_legal = s.end == ""
            weights = [
                c if c and (self.legal_mask(s, v) != 0) == want_legal else 0
                for v, c in enumerate(pool, start=1)
            ]
            if sum(weights):
                v = rng.choices(range(1, NUMBERS + 1), weights=weights)[0]
                hands[constrained] = v
                pool[v - 1] -= 1
            else:  # not reachable from a real game: deal him like the others
                constrained = -1
        tiles = [v for v, c in enumerate(pool, start=1) for _ in range(c)]
        shuffle(rng, tiles)
        k = 0
        for p in holders:
            if p == constrained:
                continue
            hands[p] = tiles[k]
            k += 1
        pile = [0] * NUMBERS
        for v in tiles[k:]:
            pile[v - 1] += 1
        return s.but(hands=tuple(hands), pile=tuple(pile))

    # -- views and persistence ----------------------------------------------------------------

    def view(self, s: HexState, observer: int | None) -> JsonDict:
        out = self.outcome(s)
        tm = self.to_move(s)
        mine = observer is not None and 0 <= observer < self.num_players
        hand = s.hands[observer] if mine and observer is not None else 0
        legal = (
            [HEX_NAMES[h] for h in self.legal_actions(s, s.turn)]
            if tm.is_decision and observer == s.turn
            else []
        )
        return {
            "game": self.spec.id,
            "observer": observer,
            "players": list(self.seat_names),
            "to_move": list(tm.players),
            "legal": legal,
            "board": list(s.board),
            "start": [HEX_NAMES[h] for h in s.start if h >= 0],
            "hand": hand or None,
            "holding": [bool(v) for v in s.hands],
            "tiles_left": sum(s.pile),
            "unseen": self.unseen_counts(s, observer if mine else None),
            "scores": list(s.scores),
            "laps": [x // LAP for x in s.scores],
            "track": [x % LAP for x in s.scores],
            "lap_length": LAP,
            "turn": s.turn,
            "drawing": s.drawer if s.drawer >= 0 and s.setup_done else None,
            "setup": not s.setup_done,
            "last": HEX_NAMES[s.last] if s.last >= 0 else None,
            "last_points": s.last_points,
            "outcome": None if out is None else out.to_json(),
        }

    def dump_state(self, s: HexState) -> JsonDict:
        return {
            "board": "".join(str(v) for v in s.board),
            "start": [HEX_NAMES[h] if h >= 0 else None for h in s.start],
            "hands": list(s.hands),
            "pile": list(s.pile),
            "scores": list(s.scores),
            "turn": s.turn,
            "drawer": s.drawer,
            "last": HEX_NAMES[s.last] if s.last >= 0 else None,
            "last_points": s.last_points,
            "end": s.end,
        }

    def load_state(self, data: JsonDict) -> HexState:
        n = self.num_players
        try:
            board = tuple(int(ch) for ch in data["board"])
            start = tuple(-1 if h is None else parse_hex(h) for h in data["start"])
            hands = tuple(int(v) for v in data["hands"])
            pile = tuple(int(c) for c in data["pile"])
            scores = tuple(int(x) for x in data["scores"])
            turn = int(data["turn"])
            drawer = int(data["drawer"])
            last = -1 if data["last"] is None else parse_hex(data["last"])
            last_points = int(data["last_points"])
            end = str(data["end"])
        except (KeyError, TypeError, ValueError, IndexError, NotationError) as exc:
            raise StateFormatError(f"not a SuDokuHex state: {exc!r}") from None
        problem = _state_problem(board, start, hands, pile, scores, turn, drawer, end, n)
        if problem:
            raise StateFormatError(f"not a SuDokuHex state: {problem}")
        occupied, blocked = _blocked_masks(board)
        return HexState(
            board=board,
            start=start,
            hands=hands,
            pile=pile,
            scores=scores,
            turn=turn,
            drawer=drawer,
            last=last,
            last_points=last_points,
            end=end,
            occupied=occupied,
            blocked=blocked,
        )


def _state_problem(
    board: tuple[int, ...],
    start: tuple[int, ...],
    hands: tuple[int, ...],
    pile: tuple[int, ...],
    scores: tuple[int, ...],
    turn: int,
    drawer: int,
    end: str,
    n: int,
) -> str:
    """What is wrong with these fields, or "" when they form a possible position."""
    if len(board) != NUM_HEXES or any(not 0 <= v <= NUMBERS for v in board):
        return "board needs 49 digits 0-7"
    if len(start) != NUMBERS or len(pile) != NUMBERS:
        return "start and pile need 7 entries"
    if len(hands) != n or len(scores) != n:
        return f"hands and scores need one entry per seat ({n})"
    if any(not 0 <= v <= NUMBERS for v in hands) or any(c < 0 for c in pile):
        return "hands hold 0-7 and pile counts are not negative"
    if any(x < 0 for x in scores) or not 0 <= turn < n or not -1 <= drawer < n:
        return "scores, turn or drawer out of range"
    if end and end not in END_REASONS:
        return f"unknown end reason {end!r}"
    for v in range(1, NUMBERS + 1):
        # A starting tile not yet placed is set aside, in no hand and not in the pile.
        total = board.count(v) + hands.count(v) + pile[v - 1] + (start[v - 1] < 0)
        if total != COPIES:
            return f"there are {total} tiles of {v}; the game has {COPIES}"
    placed = [h for h in start if h >= 0]
    if start[: len(placed)] != tuple(placed):
        return "starting tiles are placed in order 1..7 (SH-2)"
    if len({HONEYCOMB_OF[h] for h in placed}) != len(placed):
        return "two starting tiles share a honeycomb (SH-2)"
    for v, h in enumerate(start, start=1):
        if h >= 0 and board[h] != v:
            return f"starting tile {v} is not on its hex"
    if len(placed) < NUMBERS and (any(hands) or board.count(0) != NUM_HEXES - len(placed)):
        return "no tile is drawn or placed before the setup ends (SH-2)"
    for h, v in enumerate(board):
        if v:
            for peer in bits(PEERS_MASK[h]):
                if board[peer] == v:
                    return f"{HEX_NAMES[h]} and {HEX_NAMES[peer]} both hold {v} (SH-4)"
    return ""


__all__ = [
    "DRAW_BASE",
    "END_REASONS",
    "LAP",
    "MAX_TOTAL_SCORE",
    "NUM_ACTIONS",
    "NUM_HEXES",
    "SEAT_NAMES",
    "START_BASE",
    "HexState",
    "SuDokuHex",
    "draw_action",
    "start_action",
]
