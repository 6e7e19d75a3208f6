"""What each game tells the player to move (its entry's ``guide``) and how it reads its
notation in words (its ``explain``).

Positions come from playing every game through its engine, random moves from several
seeds, and each kind of decision a game has must be met: a guide that is empty, that
leaves out the numbers and places the decision is about, or that names a place the
seat's view does not hold fails here. Twin SuDokuHex deals that differ only in what the
seat may not see (another hand, the pile) must get the same guide.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from sudoku_arena.core.match import sample_chance
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry, load
from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.sudoku_warriors.rules import PROV_HILLS
from sudoku_arena.games.tic_tac_sudoku.rules import near
from sudoku_arena.games.words import BOX_WORDS

SEEDS = range(4)


def decisions(game: AnyGame, seed: int) -> Iterator[tuple[Any, int]]:
    """Every decision of one random game: the state and the seat to move (one of them
    when several write at once)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(5000):
        tm = game.to_move(state)
        if tm.is_terminal:
            return
        if tm.is_chance:
            state = game.apply(state, sample_chance(game, state, rng), None)
            continue
        seat = tm.players[rng.randrange(len(tm.players))]
        yield state, seat
        state = game.apply(state, rng.choice(list(game.legal_actions(state, seat))), seat)


def guide_of(game_id: str, view: JsonDict) -> str:
    found = entry(game_id).guide
    assert found is not None, f"{game_id} registers no guide"
    return found(view)


#: Names of places in a guide (cells, hilltops, hexes, Go points): each must be in the view.
_PLACES = re.compile(r"\b(r\d+c\d+|h\d\d|[A-G][0-6]|[a-t]\d{1,2})\b")


def _checked(game_id: str, view: JsonDict) -> str:
    text = guide_of(game_id, view)
    assert text, (game_id, view["legal"][:5])
    seen = json.dumps(view)
    for place in _PLACES.findall(text):
        assert f'"{place}' in seen or f" {place}" in seen, (place, text)
    return text


# -- what each kind of decision must say ---------------------------------------------------


def _tts(view: JsonDict, seat: int, text: str) -> str:
    symbol = view["players"][seat]
    assert symbol in text
    mine = [i for i, c in enumerate(view["cells"]) if c == f"{symbol}-open"]
    if not mine:
        assert "first" in text and "outside the centre box" in text
        return "first symbol"
    n = view["grid"][mine[0]]
    a, b, c = near(n)
    assert f"your open {n}: on a {a}, {b} or {c} (lit)" in text, text
    return "later symbol"


def _sw(view: JsonDict, seat: int, text: str) -> str:
    phase = view["phase"]
    if phase == "choose":
        for b in view["pending"]:
            assert f"{BOX_WORDS[int(b[1]) - 1]} province" in text, text
        return "choose a battle"
    if phase == "place":
        assert text.startswith("Place a warrior on a lit hilltop")
        last = [
            hills[0]
            for b, all_hills in enumerate(PROV_HILLS)
            if view["owners"][b] < 0
            and len(hills := [h for h in all_hills if not view["hilltops"][h]]) == 1
        ]
        if last:
            assert f"h{min(last):02d}" in text, text
            return "place next to a battle"
        return "place"
    battle = view["battle"]
    b = int(battle["province"][1]) - 1
    assert text.startswith(f"Battle for the {BOX_WORDS[b]} province: ")
    if battle["opening"]:
        assert "open with one of your lit villages (click it twice)" in text
        return "opening bid"
    if battle["need"] <= 0:
        assert "you lead" in text
        return "bid in the lead"
    assert f"+{battle['need']}" in text
    if view["legal"] == ["yield"]:
        return "bid: only yield"
    assert "click a village, then" in text
    return "bid to lead"


def _cs(view: JsonDict, seat: int, text: str) -> str:
    if view["phase"] == "wild":
        assert text.startswith(f"Dice {', '.join(map(str, view['dice']))}: pick the wild number")
        assert "Wild Counter" in text
        return "choose the wild"
    left = view["left"][seat]
    written = re.match(r"Write (the four values )?(.*) into ", text)
    assert written, text
    # The plain dice come first; the wild ones are named after them ("the two wild 6s").
    plain = re.split(r"\bthe (?:\w+ )?wild\b", written.group(2))[0]
    listed = [int(v) for v in re.findall(r"\d", plain)]
    if left["wild"]:
        assert f"wild {view['wild']}" in text
    assert listed == left["plain"], (text, left)
    assert "click a die" in text and "then a lit square" in text
    if view["turn"] == 0:
        assert "starting squares" in text
        return "set-up roll"
    return "write with wild dice" if left["wild"] else "write"


def _hex(view: JsonDict, seat: int, text: str) -> str:
    hand = view["hand"]
    assert f"Place your {hand} on a lit hex" in text
    best = re.search(r"(\d+) on ([A-G][0-6])", text)
    assert best and best.group(2) in view["legal"], text
    return "place the tile"


def _citadel(view: JsonDict, seat: int, text: str) -> str:
    phase = view["phase"]
    if phase == "setup":
        assert f"citadel {len(view['citadels']) + 1} of 9" in text
        return "place a citadel"
    if phase == "claim":
        mine = sum(1 for c in view["citadels"] if c["owner"] == seat)
        assert f"{mine + 1} of your 3" in text
        return "claim"
    credits = view["credits"]
    assert text.startswith(f"{credits} credit")
    assert "End turn" in text
    if any("-" in a for a in view["legal"]):
        assert "click a warrior, then a step (1)" in text
    return "turn with credits" if credits else "turn without credits"


CASES: list[tuple[str, dict[str, Any], Callable[[JsonDict, int, str], str], set[str]]] = [
    ("tic-tac-sudoku", {}, _tts, {"first symbol", "later symbol"}),
    (
        "sudoku-warriors",
        {"players": 3},
        _sw,
        {"place", "place next to a battle", "choose a battle", "opening bid", "bid to lead"},
    ),
    (
        "cat-sudoku",
        {"players": 2},
        _cs,
        {"set-up roll", "choose the wild", "write", "write with wild dice"},
    ),
    ("sudokuhex", {"players": 3}, _hex, {"place the tile"}),
    (
        "citadel",
        {"size": 9, "max_turns": 30},
        _citadel,
        {"place a citadel", "claim", "turn with credits", "turn without credits"},
    ),
]


@pytest.mark.parametrize(("game_id", "params", "check", "kinds"), CASES, ids=[c[0] for c in CASES])
def test_every_decision_is_guided_with_its_numbers_and_places(
    game_id: str,
    params: dict[str, Any],
    check: Callable[[JsonDict, int, str], str],
    kinds: set[str],
) -> None:
    met: set[str] = set()
    for seed in SEEDS:
        game = load(game_id, seed=seed, **params)
        for state, seat in decisions(game, seed):
            view = game.view(state, seat)
            met.add(check(view, seat, _checked(game_id, view)))
    assert kinds <= met, f"never met: {kinds - met}"


def test_a_seat_with_nothing_to_do_gets_no_guide() -> None:
    game = load("tic-tac-sudoku", seed=1)
    s = game.apply(game.initial_state(), 0, 0)
    assert guide_of("tic-tac-sudoku", game.view(s, 0) | {"legal": [], "to_move": []}) == ""


def test_sudokuhex_twin_deals_differing_in_secrets_get_the_same_guide() -> None:
    """Another player's tile and the pile change; the seat's own view, and so its guide,
    do not (SH-6). The twin really differs: the other seat's view changes."""
    compared = 0
    for seed in SEEDS:
        game: Any = load("sudokuhex", seed=seed, players=2)
        for state, seat in decisions(game, seed):
            data = game.dump_state(state)
            other = 1 - seat
            theirs = data["hands"][other]
            swap = next((v for v in range(1, 8) if v != theirs and data["pile"][v - 1]), None)
            if not theirs or swap is None:
                continue
            twin_data = json.loads(json.dumps(data))
            twin_data["hands"][other] = swap
            twin_data["pile"][swap - 1] -= 1
            twin_data["pile"][theirs - 1] += 1
            twin = game.load_state(twin_data)
            assert game.view(twin, other) != game.view(state, other)
            mine = guide_of("sudokuhex", game.view(state, seat))
            assert guide_of("sudokuhex", game.view(twin, seat)) == mine
            compared += 1
    assert compared >= 20


# -- the notation in words ---------------------------------------------------------------

EXPLAINED: dict[str, list[tuple[str, str]]] = {
    "tic-tac-sudoku": [("r7c5", "row 7, column 5 (bottom-middle box)")],
    "sudoku-warriors": [
        ("h37", "hilltop: the crossing below row 3, right of column 7"),
        ("h70", "hilltop: the crossing below row 7, on the left edge"),
        ("h09", "hilltop: the top-right corner of the board"),
        ("battle b5", "fight the battle for the centre province first"),
        ("bid", "bid: add no village"),
        ("bid r4c5", "bid: add the village on row 4, column 5"),
        ("bid r4c5 r5c4", "bid: add the villages on row 4, column 5 and row 5, column 4"),
        ("yield", "yield: leave this battle for good"),
    ],
    "cat-sudoku": [
        ("5 r3c4", "write 5 in row 3, column 4"),
        ("wild 1+ 3", "make 3 wild: cross off the 3 box of the 1+ row"),
        ("wild 2+ blank 4", "make 4 wild: write 4 into a blank box of the 2+ row"),
        ("nowild", "no wild number this turn"),
        ("roll 6", "a die shows 6"),
    ],
    "sudokuhex": [
        ("C4", "place the tile on the left hex of honeycomb C (bottom)"),
        ("A0", "place the tile on the middle hex of honeycomb A (the middle)"),
        ("G6", "place the tile on the upper right hex of honeycomb G (upper right)"),
        ("start 3 E1", "a starting 3 on the right hex of honeycomb E (left)"),
        ("draw 5", "draws a 5"),
        ("draw", "draws a tile, kept secret"),
    ],
    "citadel": [
        ("citadel k10", "place a neutral citadel on k10 (column k, row 10 from the bottom)"),
        ("claim c3", "claim the citadel on c3: a warrior of its claimer goes on it"),
        ("b13-c13", "move the warrior on b13 to c13 (1 credit)"),
        ("b13xb14", "the warrior on b13 attacks the one on b14 (free)"),
        ("+c14", "recruit a warrior on c14 (2 credits)"),
        ("wall h4", "build a wall on the 2x2 block h4 to j5 (1 credit)"),
        ("raze d4 c4", "the warrior on c4 razes the wall on d4 (1 credit)"),
        ("siege c13", "take the warrior on c13 by siege (free)"),
        ("end", "end the turn; unspent credits are lost"),
    ],
}


@pytest.mark.parametrize("game_id", sorted(EXPLAINED))
def test_notation_is_read_in_words(game_id: str) -> None:
    explain = entry(game_id).explain
    assert explain is not None
    for action, words in EXPLAINED[game_id]:
        assert explain(action) == words, action
    assert explain("not an action") == ""


@pytest.mark.parametrize(
    ("game_id", "params"), [(c[0], c[1]) for c in CASES], ids=[c[0] for c in CASES]
)
def test_every_legal_action_met_in_play_is_explained(game_id: str, params: dict[str, Any]) -> None:
    explain = entry(game_id).explain
    assert explain is not None
    game = load(game_id, seed=0, **params)
    kinds: set[str] = set()
    for state, seat in decisions(game, 0):
        for action in game.view(state, seat)["legal"]:
            words = explain(action)
            assert words, action
            kinds.add(words.split()[0])
    assert len(kinds) >= 1


def test_cat_sudokus_declined_wild_is_a_worded_button() -> None:
    """``nowild`` has no place on the sheet: its button says it in words, as the guide
    names it ("No wild")."""
    words = entry("cat-sudoku").buttons({"legal": ["nowild", "wild 1+ 3", "5 r1c2"]})
    assert words == {"nowild": ("No wild", "Play this turn without a wild number")}
