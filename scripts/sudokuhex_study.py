"""How much skill is there in two-player SuDokuHex? A quick test bench.

Plays cheap SuDokuHex policies against the greedy agent on many boards, each board
twice with the seats swapped and the same tiles coming out of the pile (draws depend on
the pile only, so one chance generator per board gives both games the same luck). It
prints the first policy's mean win share with a 95% interval over *boards* (the two
games of a board are not independent: the interval over games would be too wide when
seat luck dominates, too narrow when it does not), and, for greedy self-play, who wins
by the seat on whose turn the game ended (SH-5: the game ends when the player to move
cannot place).

Policies:

* ``greedy``: the game's greedy agent (best points, then least expected threat);
* ``random-ties``: best points, ties at random (what the threat tie-break is worth);
* ``expectimax``: three plies by the rules: my placement, the opponent's best-scoring reply
  for each tile he may hold, my best next placement for each tile I may draw; a
  player that cannot place ends the game; leaves scored by the lead;
* ``peek``: NOT a fair player, a probe: best points minus the best points of the
  opponent's actual tile (what knowing his hand would be worth);
* any bot name (``hard``, ``mcts:800``): the real search bots, through ``make_agent``
  (slow: hundreds of milliseconds a move);
* ``open:`` before a bot name (``open:hard``): NOT a fair player, a probe: that bot
  searching with the opponents' hands face up (its search deals only the pile, whose
  order nobody knows), an upper bound for what a search of that size can get out of
  reading the opponent well.

When both players are bots (names ``make_agent`` knows, such as ``hard,greedy``) the
study is the balance lab's duplicate play and the script hands over to it: the games
are played by ``sudoku-arena analyze sudokuhex`` (records kept in ``--out``, resumable,
with its report), and the deal/players split of the outcome variance is printed. The
hand-written policies above stay here, as a bench for ideas before they become bots.

Usage::

    python scripts/sudokuhex_study.py [--boards 1000] [--players expectimax,greedy]
    python scripts/sudokuhex_study.py --boards 100 --players easy,greedy --out hex-study
"""

from __future__ import annotations

import argparse
import math
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sudoku_arena.ai.agents import make_agent
from sudoku_arena.core.registry import load
from sudoku_arena.games.sudokuhex.agents import best_points, expected_best, greedy_choice
from sudoku_arena.games.sudokuhex.game import HexState, SuDokuHex
from sudoku_arena.grids.hex import ALL_HEXES_MASK, LINE_PEERS_MASK, PEERS_MASK, bits
from sudoku_arena.lab.plan import Plan
from sudoku_arena.lab.report import write_report
from sudoku_arena.lab.runner import run

Policy = Callable[[SuDokuHex, HexState, int, random.Random], int]


def _after(occ: int, blocked: tuple[int, ...], h: int, v: int) -> tuple[int, tuple[int, ...]]:
    bit = 1 << h
    return occ | bit, tuple(
        (b | bit | PEERS_MASK[h]) if w == v else (b | bit) for w, b in enumerate(blocked, 1)
    )


def _points(occ: int, h: int) -> int:
    return (occ & LINE_PEERS_MASK[h]).bit_count()


def _unseen(s: HexState, v: int) -> list[int]:
    """Public knowledge of the mover holding ``v``: 7 of each number, less the board."""
    out = [7 - s.board.count(w) for w in range(1, 8)]
    out[v - 1] -= 1
    return out


def random_ties(game: SuDokuHex, s: HexState, p: int, rng: random.Random) -> int:
    hexes = bits(~s.blocked[s.hands[p] - 1] & ALL_HEXES_MASK)
    top = max(_points(s.occupied, h) for h in hexes)
    return rng.choice([h for h in hexes if _points(s.occupied, h) == top])


def peek(game: SuDokuHex, s: HexState, p: int, rng: random.Random) -> int:
    v, w = s.hands[p], s.hands[1 - p]
    keyed = []
    for h in bits(~s.blocked[v - 1] & ALL_HEXES_MASK):
        occ, blocked = _after(s.occupied, s.blocked, h, v)
        reply = best_points(occ, blocked[w - 1]) if w else 0
        keyed.append((_points(s.occupied, h) - reply, rng.random(), h))
    return max(keyed)[2]


def _result(lead: int) -> float:
    return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0


def expectimax(game: SuDokuHex, s: HexState, p: int, rng: random.Random) -> int:
    v = s.hands[p]
    unseen = _unseen(s, v)
    total = sum(unseen)
    lead0 = s.scores[p] - s.scores[1 - p]
    scored = []
    for h in bits(~s.blocked[v - 1] & ALL_HEXES_MASK):
        occ, blocked = _after(s.occupied, s.blocked, h, v)
        lead1 = lead0 + _points(s.occupied, h)
        if not s.hands[1 - p] or not total:
            scored.append((_result(lead1), rng.random(), h))
            continue
        acc = 0.0
        for w, c in enumerate(unseen, 1):
            if not c:
                continue
            mask = ~blocked[w - 1] & ALL_HEXES_MASK
            if not mask:  # he cannot place: the game ends on his turn
                acc += c * _result(lead1)
                continue
            rest = list(unseen)
            rest[w - 1] -= 1
            r = max(bits(mask), key=lambda x: (_points(occ, x), -x))
            occ2, blocked2 = _after(occ, blocked, r, w)
            lead2 = lead1 - _points(occ, r)
            n = sum(rest)
            sub = 0.0
            for u, cu in enumerate(rest, 1):
                if cu:
                    if ~blocked2[u - 1] & ALL_HEXES_MASK:
                        gain = best_points(occ2, blocked2[u - 1])
                        sub += cu / (1 + math.exp(-0.15 * (lead2 + gain)))
                    else:
                        sub += cu * _result(lead2)
            acc += c * (sub / n if n else _result(lead2))
        scored.append((acc / total - 1e-6 * expected_best(occ, blocked, unseen), rng.random(), h))
    return max(scored)[2]


POLICIES: dict[str, Policy] = {
    "greedy": greedy_choice,
    "random-ties": random_ties,
    "expectimax": expectimax,
    "peek": peek,
}


def _open_hands(game: SuDokuHex) -> SuDokuHex:
    """The same game, except that its search may see every hand: determinising leaves
    the state as it is (the pile is counts, drawn as chance outcomes, so nothing else is
    hidden from the search)."""
    open_game: Any = load("sudokuhex", seed=0, players=len(game.seat_names))

    def determinize(s: HexState, observer: int, rng: random.Random) -> HexState:
        return s

    open_game.determinize = determinize
    opened: SuDokuHex = open_game
    return opened


def policy(name: str, game: SuDokuHex, seed: int) -> Policy:
    if name in POLICIES:
        return POLICIES[name]
    if name.startswith("open:"):
        open_game = _open_hands(game)
        seer = make_agent(name.removeprefix("open:"), open_game, seed=seed)

        def act_open(game: SuDokuHex, s: HexState, p: int, rng: random.Random) -> int:
            action: int = seer.act(open_game, s, p)
            return action

        return act_open
    agent = make_agent(name, game, seed=seed)  # a real bot: it gets a determinised state

    def act(game: SuDokuHex, s: HexState, p: int, rng: random.Random) -> int:
        det = game.determinize(s, p, rng)
        action: int = agent.act(game, det, p)
        return action

    return act


def _sample(outcomes: Any, r: float) -> int:
    """The outcome that a uniform ``r`` in [0, 1) falls on."""
    acc = 0.0
    for a, prob in outcomes:
        acc += float(prob)
        if r < acc:
            return int(a)
    return int(outcomes[-1][0])


def play(game: SuDokuHex, seats: list[Policy], seed: int) -> HexState:
    """One game; chance from its own generator so both seatings see the same tiles."""
    chance = random.Random(seed)
    rngs = [random.Random(seed * 10 + i) for i in range(len(seats))]
    s = game.initial_state()
    while True:
        tm = game.to_move(s)
        if tm.is_terminal:
            return s
        if tm.is_chance:
            s = game.apply(s, _sample(game.chance_outcomes(s), chance.random()))
        else:
            p = tm.players[0]
            s = game.apply(s, seats[p](game, s, p, rngs[p]), p)


def lab_study(a: str, b: str, boards: int, seed: int, out: str | None) -> None:
    """Bots against bots: the balance lab's duplicate play (each board twice, seats
    swapped, same tiles), its agent win share and variance split."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(out) if out else Path(tmp) / "hex-study"
        plan = Plan("sudokuhex", {"players": 2}, (a, b), 2 * boards, seed=seed)
        run(folder, plan)
        m = write_report(folder)["variants"]["base"]
    win = m["agent_win"][a]
    print(f"{a} vs {b}: {boards} boards, {2 * boards} games (balance lab)")
    print(f"  {a} win share {win['value']:.3f}, 95% CI {win['low']:.3f}-{win['high']:.3f}")
    dup = m["duplicate"]
    for part in ("deal", "players", "rest"):
        e = dup[part]
        print(f"  variance share of the {part}: {e['value']:.3f} ({e['low']:.3f}-{e['high']:.3f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--players", default="expectimax,greedy", help="A,B: A is scored")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="lab folder for the games (bots only)")
    args = ap.parse_args()
    game: Any = load("sudokuhex", seed=0, players=2)
    a_name, b_name = args.players.split(",")
    hand = set(POLICIES) - {"greedy"}  # the greedy policy is the greedy bot
    if not {a_name, b_name} & hand and not any(n.startswith("open:") for n in (a_name, b_name)):
        lab_study(a_name, b_name, args.boards, args.seed, args.out)
        return
    a, b = policy(a_name, game, 1), policy(b_name, game, 2)
    t0 = time.perf_counter()
    shares, ends = [], {0: [0, 0.0], 1: [0, 0.0]}
    for i in range(args.boards):
        share = 0.0
        for a_seat in (0, 1):
            s = play(game, [a, b] if a_seat == 0 else [b, a], args.seed * 1_000_003 + i)
            lead = s.scores[a_seat] - s.scores[1 - a_seat]
            share += _result(lead) / 2
            ends[s.turn][0] += 1
            ends[s.turn][1] += _result(s.scores[0] - s.scores[1])
        shares.append(share)
    n = len(shares)
    mean = sum(shares) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / max(1, n - 1))
    half = 1.959963984540054 * sd / math.sqrt(n)
    print(f"{a_name} vs {b_name}: {n} boards, {2 * n} games, {time.perf_counter() - t0:.0f} s")
    print(
        f"  {a_name} win share {mean:.3f}, 95% CI over boards {mean - half:.3f}-{mean + half:.3f}"
    )
    for seat, (count, wins) in ends.items():
        if count:
            print(f"  games ending on seat {seat}'s turn: {count}, seat 0 won {wins / count:.3f}")


if __name__ == "__main__":
    main()
