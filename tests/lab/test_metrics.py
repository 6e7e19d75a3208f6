"""Balance metrics, traces and verdicts on hand-made records with known answers."""

from __future__ import annotations

from typing import Any

import pytest

from sudoku_arena.core.match import LogEntry
from sudoku_arena.lab.metrics import balance, first_lead_for_good, lead_changes
from sudoku_arena.lab.plan import Plan, Variant
from sudoku_arena.lab.stats import Estimate
from sudoku_arena.lab.trace import count_turns, leader
from sudoku_arena.lab.variants import compare, verdict


def line(
    index: int,
    winners: list[int],
    plies: int = 10,
    leads: list[int] | None = None,
    scores: tuple[float, float] = (0.0, 0.0),
    branching: list[int] | None = None,
) -> dict[str, Any]:
    """A two-seat game record as the runner stores it (only what metrics read)."""
    returns = [1.0 / len(winners) if s in winners else 0.0 for s in range(2)]
    trace: dict[str, Any] = {"branching": branching or [4, 2], "turns": plies // 2}
    if leads is not None:
        trace["eval_lead"] = leads
    return {
        "players": ["greedy", "greedy"],
        "actions": [{"ply": i, "actor": i % 2, "action": "x"} for i in range(plies)],
        "outcome": {"winners": winners, "scores": list(scores), "reason": ""},
        "lab": {
            "key": f"balance/base/greedy,greedy/{index}",
            "section": "balance",
            "variant": "base",
            "index": index,
            "agents": ["greedy", "random"],
            "seats": [index % 2, 1 - index % 2],
            "returns": returns,
            "trace": trace,
            "seconds": 0.01,
        },
    }


def test_seat_wins_draws_and_seat_advantage() -> None:
    # Seat 0 wins 6, seat 1 wins 2, 2 draws: of the 8 won games seat 0 has 75%.
    lines = [line(i, [0]) for i in range(6)] + [line(6, [1]), line(7, [1])]
    lines += [line(8, []), line(9, [])]
    m = balance(lines, seed=0)
    assert m["games"] == 10
    assert m["seat_win"][0]["value"] == 0.6 and m["seat_win"][1]["value"] == 0.2
    assert m["draw"]["value"] == 0.2
    adv = m["seat_advantage"]
    assert adv["value"] == pytest.approx(0.25) and adv["n"] == 8
    assert adv["low"] < 0.25 < adv["high"]


def test_shared_wins_count_half() -> None:
    m = balance([line(0, [0, 1]), line(1, [0])], seed=0)
    assert m["seat_win"][0]["value"] == 0.75 and m["seat_win"][1]["value"] == 0.25
    assert m["draw"]["value"] == 0.0


def test_length_branching_and_its_curve() -> None:
    lines = [line(0, [0], plies=10, branching=[10, 10, 2, 2]), line(1, [1], plies=20)]
    m = balance(lines, seed=0)
    assert m["plies"]["value"] == 15 and m["plies_all"] == [10, 20]
    assert m["turns"]["value"] == 7.5
    assert m["branching"]["value"] == pytest.approx((6 + 3) / 2)
    curve = m["branching_curve"]
    assert curve[0] == pytest.approx(7.0)  # first tenths: 10 and 4
    assert curve[-1] == pytest.approx(2.0)  # last tenths: 2 and 2


def test_decisiveness_and_lead_changes() -> None:
    assert first_lead_for_good([0, 1, 1, 0, 0], 0) == 3
    assert first_lead_for_good([0, 0], 0) == 0
    assert first_lead_for_good([0, 1], 0) == 2
    assert lead_changes([0, -1, 0, 1, 1, -1, 0]) == 2
    lines = [line(0, [0], leads=[1, 1, 0, 0]), line(1, [1], leads=[1, 1, 1, 1])]
    m = balance(lines, seed=0)
    assert m["decisiveness"]["value"] == pytest.approx((0.5 + 0.0) / 2)
    assert m["lead_changes"]["value"] == pytest.approx(0.5)
    assert m["lead_measure"] == "evaluation"


def test_duplicate_play_splits_deal_from_players() -> None:
    # The first seat wins every game: no variance, nothing to split.
    same = [line(i, [0]) for i in range(8)]
    assert balance(same, seed=0)["duplicate"]["deal"]["value"] == 0.0
    # The deal decides: on even boards seat 0 wins both seatings, on odd ones seat 1.
    by_deal = [line(i, [0] if (i // 2) % 2 == 0 else [1]) for i in range(8)]
    dup = balance(by_deal, seed=0)["duplicate"]
    assert dup["deal"]["value"] == 1.0 and dup["players"]["value"] == 0.0
    assert dup["blocks"] == 4
    # The player decides: agent 0 (first seat in even games) always wins.
    by_player = [line(i, [0] if i % 2 == 0 else [1]) for i in range(8)]
    dup = balance(by_player, seed=0)["duplicate"]
    assert dup["players"]["value"] == 1.0 and dup["deal"]["value"] == 0.0


def test_scores_are_summarised_per_seat() -> None:
    m = balance([line(0, [0], scores=(10, 4)), line(1, [1], scores=(6, 8))], seed=0)
    assert m["scores"][0]["value"] == 8.0 and m["scores"][1]["value"] == 6.0
    assert m["scores_all"] == [[10, 6], [4, 8]]


def test_leader_and_turns() -> None:
    assert leader([0.2, 0.7]) == 1 and leader([0.5, 0.5]) == -1 and leader([3, 1, 3]) == -1
    log = [LogEntry(0, 0, "a"), LogEntry(1, 0, "b"), LogEntry(2, 1, "c"), LogEntry(3, None, "roll")]
    log += [LogEntry(4, 1, "d"), LogEntry(5, 0, "e")]
    assert count_turns(log) == 4  # 0 0 | 1 | roll | 1 | 0


def test_variant_comparison_pairs_games_by_seed() -> None:
    plan = Plan("tic-tac-sudoku", {}, ("greedy", "greedy"), 10, variants=(Variant("b", {}),))
    base = [line(i, [0]) for i in range(10)]
    other = [line(i, [0] if i < 2 else [1], plies=12) for i in range(10)]
    for x in other:
        x["lab"]["variant"] = "b"
    (c,) = compare(plan, {"base": base, "b": other})
    first = c["figures"]["first_seat_wins"]
    assert c["pairs"] == 10 and first["value"] == pytest.approx(-80.0)
    assert first["verdict"].startswith("seat 1 wins 80.0 points less often under b")
    assert c["figures"]["plies"]["value"] == 2.0
    assert c["figures"]["plies"]["verdict"].startswith("games last 2.0 plies longer under b")


def test_verdicts_in_plain_words() -> None:
    e = Estimate(-8.1, -11.0, -5.2, 400)
    assert verdict("seat 1 wins", "points", "B", e) == (
        "seat 1 wins 8.1 points less often under B (95% interval 5.2 to 11.0 less)"
    )
    unclear = verdict("seat 1 wins", "points", "B", Estimate(1.0, -2.0, 4.0, 400))
    assert unclear.startswith("no clear difference")
