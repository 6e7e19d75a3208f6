"""Every game as an OpenSpiel Python game: ``sudoku_arena_<id>`` with its parameters.

Importing this module registers the five games with OpenSpiel (extra ``[openspiel]``)::

    import pyspiel
    import sudoku_arena.interop.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("sudoku_arena_sudokuhex(players=3)")

The short name is ``sudoku_arena_`` and the game id with ``_`` for ``-``
(``sudoku_arena_tic_tac_sudoku``). Parameters: ``players``, ``seed`` (the seed of
generated set-up such as the Sudoku grid, as ``sudoku_arena.load(id, seed=...)``) and
every parameter of the game itself (``size`` of Citadel, ``sheet`` of Cat Sudoku...);
an empty string or 0 leaves a parameter whose own default is generated or derived
(``grid``, ``target``) to the game.

The contract, in OpenSpiel's terms:

* ``GameType`` is declared from the game's ``GameSpec``: sequential dynamics; explicit
  stochastic chance for games with dice or draws (deterministic otherwise); imperfect
  information for games with secrets; terminal rewards.
* Returns depend on the player count (:func:`utility_of`), and so does the ``GameType``
  of a loaded game (``game.get_type()``) with its ``GameInfo``: two players are
  zero-sum, +1 to the winner and -1 to the loser, 0 each on a draw or a shared win
  (the engine's returns ``r`` become ``r[p] - r[1 - p]``), so OpenSpiel's two-player
  algorithms (``alpha_beta_search``, ...) accept them; three or more are constant-sum
  with sum 1, the engine's returns (1 to a sole winner, ``1/k`` to each of ``k`` sharing
  the win, 0 otherwise); one player is general-sum, the final score scaled into
  ``[0, 1]``. The registry (``pyspiel.registered_games()``) holds one type per game,
  before any player count is chosen, so it states the weakest claim true at every count
  (:func:`registered_utility`): zero-sum for the two-player games, constant-sum for
  Sudoku Warriors (2 or 3), general-sum for the games with a solo mode.
* Actions are the engine's stable indices (``encode_action``); chance outcomes are
  explicit nodes whose probabilities are the engine's exact fractions as floats.
* Cat Sudoku's writing phase, where several seats write in any order, is played in seat
  order (the lowest seat still writing is the current player), as the match runner
  does; the engine makes the order irrelevant.
* Observations come only from ``game.view(state, player)`` (``view(state, None)`` for an
  observer without private information): the string is the view as compact JSON, the
  tensor the view's features (:mod:`sudoku_arena.interop.features`). The information
  state string adds a SHA-256 chain over the player's views at every earlier ply, so it
  has perfect recall and still nothing the player did not see; the information state
  tensor is the observation tensor (the views already carry what a seat can infer, such
  as SuDokuHex's count of unseen tiles).
* ``resample_from_infostate`` re-deals what the player cannot see with the engine's
  ``determinize``; serialization is OpenSpiel's default (the action history), replayed
  through the engine.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import load, spec_of
from sudoku_arena.core.types import GameSpec, JsonDict
from sudoku_arena.interop import require
from sudoku_arena.interop.features import GAMES, Encoder, encoder_for

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyspiel
else:
    pyspiel = require("pyspiel", "openspiel")
    np = require("numpy", "openspiel")

PREFIX = "sudoku_arena_"
#: How many (state, player) views a game remembers.
VIEW_CACHE = 8192


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a game: ``sudoku_arena_tic_tac_sudoku``."""
    return PREFIX + game_id.replace("-", "_")


# -- the declaration ------------------------------------------------------------------------


def _param_defaults(spec: GameSpec) -> dict[str, object]:
    """OpenSpiel parameters of a game: its own with their defaults ('' or 0 for those the
    game generates or derives), and ``seed`` for generated set-up."""
    out: dict[str, object] = {"seed": 0}
    for p in spec.params:
        if p.default is not None:
            out[p.name] = p.default
        else:
            out[p.name] = {bool: False, int: 0}.get(p.kind, "")
    return out


def utility_of(spec: GameSpec, players: int) -> pyspiel.GameType.Utility:
    """What the returns of a game for ``players`` seats are (see :func:`returns_of`).

    Two seats: zero-sum. Three or more: constant-sum (sum 1) when somebody always wins,
    general-sum in a game that can be drawn. One seat: general-sum (a score)."""
    kinds = pyspiel.GameType.Utility
    if players == 2:
        return kinds.ZERO_SUM
    if players >= 3 and not spec.draws:
        return kinds.CONSTANT_SUM
    return kinds.GENERAL_SUM


def registered_utility(spec: GameSpec) -> pyspiel.GameType.Utility:
    """The weakest claim true at every player count of the game: the registry holds one
    ``GameType`` per game, while the player count is a parameter."""
    kinds = pyspiel.GameType.Utility
    claims = {utility_of(spec, n) for n in range(spec.min_players, spec.max_players + 1)}
    if len(claims) == 1:
        return claims.pop()
    if kinds.GENERAL_SUM in claims:
        return kinds.GENERAL_SUM
    return kinds.CONSTANT_SUM  # zero-sum at one count is constant-sum (0) there


def utility_range(utility: pyspiel.GameType.Utility) -> tuple[float, float, float | None]:
    """``(min_utility, max_utility, utility_sum)`` of returns of the kind ``utility``."""
    kinds = pyspiel.GameType.Utility
    if utility == kinds.ZERO_SUM:
        return -1.0, 1.0, 0.0
    if utility == kinds.CONSTANT_SUM:
        return 0.0, 1.0, 1.0
    return 0.0, 1.0, None


def returns_of(engine_returns: Sequence[float]) -> list[float]:
    """OpenSpiel's returns from the engine's: with two players the difference of the two
    (+1/-1, 0 for a draw or a shared win), so that they sum to 0; otherwise the same."""
    if len(engine_returns) == 2:
        mine, theirs = engine_returns
        return [mine - theirs, theirs - mine]
    return list(engine_returns)


def game_type(game_id: str, players: int | None = None) -> pyspiel.GameType:
    """The ``GameType`` of ``game_id`` for ``players`` seats (``None``: the one
    registered, true at every player count), declared from its ``GameSpec``."""
    spec = spec_of(game_id)
    gt = pyspiel.GameType
    utility = registered_utility(spec) if players is None else utility_of(spec, players)
    return gt(
        short_name=short_name(game_id),
        long_name=f"Sudoku Arena: {spec.name}",
        dynamics=gt.Dynamics.SEQUENTIAL,
        chance_mode=(
            gt.ChanceMode.EXPLICIT_STOCHASTIC if spec.chance else gt.ChanceMode.DETERMINISTIC
        ),
        information=(
            gt.Information.IMPERFECT_INFORMATION
            if spec.hidden_information
            else gt.Information.PERFECT_INFORMATION
        ),
        utility=utility,
        reward_model=gt.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_param_defaults(spec),
    )


def engine_from(game_id: str, params: Mapping[str, object]) -> AnyGame:
    """The rules engine for OpenSpiel parameters (``''``/0 defaults left to the game)."""
    spec = spec_of(game_id)
    given: dict[str, object] = {}
    for p in spec.params:
        if p.name not in params:
            continue
        value = params[p.name]
        if p.default is None and value in ("", 0, False):
            continue  # generated or derived by the game
        given[p.name] = value
    seed = params.get("seed", 0)
    return load(game_id, seed=int(seed) if isinstance(seed, int) else 0, **given)


def max_length(rules: AnyGame) -> int:
    """An upper bound on the plies of a game (chance included), per game."""
    n = rules.num_players
    params = rules.params
    game_id = rules.spec.id
    if game_id == "tic-tac-sudoku":
        return 81
    if game_id == "sudoku-warriors":
        # 100 placements; per battle (9) an opening, a bid per village (81) and yields.
        return 100 + 9 * (2 + 81 + 2 * n)
    if game_id == "cat-sudoku":
        # A turn is four dice, a wild and four writes per seat; a turn per four squares.
        layout = rules.view(rules.initial_state(), None)["sheet"]["layout"]
        squares = sum(ch in ".o" for row in layout for ch in row)
        return (squares // 4 + 2) * (5 + 4 * n)
    if game_id == "sudokuhex":
        # Seven starting tiles, then at most one draw and one placement per hex.
        return 7 + 2 * 49 + 4
    # Citadel: set-up and claims, then each turn's actions (bounded by the board).
    turns, size = params["max_turns"], params["size"]
    assert isinstance(turns, int) and isinstance(size, int)
    return 20 + turns * (3 * size * size // 4)


def game_info(rules: AnyGame) -> pyspiel.GameInfo:
    """The ``GameInfo`` of the engine ``rules``; its utility bounds match
    :func:`utility_of` for the engine's player count."""
    spec = rules.spec
    low, high, total = utility_range(utility_of(spec, rules.num_players))
    return pyspiel.GameInfo(
        num_distinct_actions=spec.num_distinct_actions,
        max_chance_outcomes=spec.num_distinct_actions if spec.chance else 0,
        num_players=rules.num_players,
        min_utility=low,
        max_utility=high,
        utility_sum=total,
        max_game_length=max_length(rules),
    )


# -- the game and its states ----------------------------------------------------------------


class ArenaGame(pyspiel.Game):  # type: ignore[misc]
    """One of the games with its parameters, as OpenSpiel sees it."""

    def __init__(self, game_id: str, params: Mapping[str, object] | None = None) -> None:
        given = dict(params or {})
        self.rules = engine_from(game_id, given)
        self.encoder: Encoder = encoder_for(self.rules)
        # The type of this game is the one for its player count, which may state more
        # than the registered one (zero-sum for two seats of a game with a solo mode).
        kind = game_type(game_id, self.rules.num_players)
        super().__init__(kind, game_info(self.rules), given)
        self._given = given
        self._seen: OrderedDict[tuple[object, int | None], tuple[str, list[float]]] = OrderedDict()

    def seen(self, state: object, player: int | None) -> tuple[str, list[float]]:
        """``player``'s view of ``state`` as compact JSON and as features.

        Remembered for the last few thousand (state, player) pairs: a view is a pure
        function of them, and OpenSpiel's tests and searches ask for the same ones
        again and again (every replay of a deserialized history, for one)."""
        key = (state, player)
        found = self._seen.get(key)
        if found is None:
            view = self.rules.view(state, player)
            found = (_text(view), self.encoder.flat(view))
            self._seen[key] = found
            if len(self._seen) > VIEW_CACHE:
                self._seen.popitem(last=False)
        else:
            self._seen.move_to_end(key)
        return found

    def __reduce__(self) -> tuple[type[ArenaGame], tuple[dict[str, object]]]:
        # Pickled as its class and parameters (the registered classes take only those).
        return type(self), (self._given,)

    def new_initial_state(self) -> ArenaState:
        return ArenaState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: object = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


@dataclass(frozen=True, slots=True)
class Position:
    """What a state holds, as one value that copies by reference: the game, the engine
    state, the position before the last ply (``None`` at the start), the ply count, and
    a cache of each player's recall digest (a function of the positions so far)."""

    arena: ArenaGame
    state: object
    parent: Position | None
    plies: int
    digests: dict[int, str]

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        return self  # OpenSpiel deep-copies a Python state to clone it; this is immutable

    def then(self, state: object) -> Position:
        return Position(self.arena, state, self, self.plies + 1, {})

    def states(self) -> list[object]:
        """The engine states from the start to this one."""
        out: list[object] = []
        pos: Position | None = self
        while pos is not None:
            out.append(pos.state)
            pos = pos.parent
        out.reverse()
        return out

    def __reduce__(self) -> tuple[Callable[..., Position], tuple[ArenaGame, list[object]]]:
        # Pickled flat: a chain of thousands of parents would exhaust the recursion limit.
        return _rebuild, (self.arena, self.states())

    def digest(self, player: int) -> str:
        """SHA-256 chain over ``player``'s views of every earlier position (cached)."""
        todo: list[Position] = []
        pos: Position | None = self
        while pos is not None and player not in pos.digests:
            todo.append(pos)
            pos = pos.parent
        for p in reversed(todo):
            if p.parent is None:
                p.digests[player] = ""
            else:
                text = p.arena.seen(p.parent.state, player)[0]
                chained = f"{p.parent.digests[player]}\n{text}"
                p.digests[player] = hashlib.sha256(chained.encode()).hexdigest()
        return self.digests[player]


def _rebuild(arena: ArenaGame, states: list[object]) -> Position:
    pos = Position(arena, states[0], None, 0, {})
    for s in states[1:]:
        pos = pos.then(s)
    return pos


class ArenaState(pyspiel.State):  # type: ignore[misc]
    """A position of one of the games, as OpenSpiel sees it."""

    def __init__(self, game: ArenaGame) -> None:
        super().__init__(game)
        self.position = Position(game, game.rules.initial_state(), None, 0, {})

    @property
    def rules(self) -> AnyGame:
        return self.position.arena.rules

    @property
    def engine_state(self) -> object:
        return self.position.state

    def current_player(self) -> int:
        tm = self.rules.to_move(self.engine_state)
        if tm.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if tm.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        return tm.players[0]

    def _legal_actions(self, player: int) -> list[int]:
        encode = self.rules.encode_action
        return sorted(encode(a) for a in self.rules.legal_actions(self.engine_state, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        encode = self.rules.encode_action
        outcomes = self.rules.chance_outcomes(self.engine_state)
        return sorted((encode(a), float(p)) for a, p in outcomes)

    def _apply_action(self, action: int) -> None:
        rules = self.rules
        tm = rules.to_move(self.engine_state)
        player = None if tm.is_chance else tm.players[0]
        after = rules.apply(self.engine_state, rules.decode_action(int(action)), player)
        self.position = self.position.then(after)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.rules.format_action(self.rules.decode_action(int(action))))

    def is_terminal(self) -> bool:
        return bool(self.rules.to_move(self.engine_state).is_terminal)

    def returns(self) -> list[float]:
        """The engine's returns in OpenSpiel's terms (:func:`returns_of`)."""
        return returns_of(self.rules.returns(self.engine_state))

    def resample_from_infostate(self, player_id: int, probability_sampler: object) -> ArenaState:
        """A state ``player_id`` cannot tell from this one, the rest re-dealt by the
        engine's ``determinize`` (its past views are the same, so is its recall)."""
        draw = cast(Callable[[], float], probability_sampler)
        rng = random.Random(int(draw() * 2**53))
        twin = cast(ArenaState, self.clone())
        pos = self.position
        dealt = self.rules.determinize(pos.state, player_id, rng)
        twin.position = Position(pos.arena, dealt, pos.parent, pos.plies, {})
        return twin

    def view(self, player: int | None) -> JsonDict:
        """What ``player`` sees now (``None``: public information only)."""
        return self.rules.view(self.engine_state, player)

    def __str__(self) -> str:
        # For debugging, as OpenSpiel's convention is: the whole state, secrets included.
        return _text(self.rules.dump_state(self.engine_state))


def _text(view: JsonDict) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


@dataclass
class Observer:
    """OpenSpiel's observer: a seat's view as a string and as a tensor."""

    game: ArenaGame
    iig: pyspiel.IIGObservationType

    def __post_init__(self) -> None:
        enc = self.game.encoder
        self.tensor = np.zeros(enc.size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for f in enc.fields:
            self.dict[f.name] = self.tensor[at : at + f.size].reshape(f.shape)
            at += f.size
        self.private = self.iig.private_info != pyspiel.PrivateInfoType.NONE

    def _seen(self, state: ArenaState, player: int) -> tuple[str, list[float]]:
        return self.game.seen(state.engine_state, player if self.private else None)

    def set_from(self, state: ArenaState, player: int) -> None:
        self.tensor[:] = self._seen(state, player)[1]

    def string_from(self, state: ArenaState, player: int) -> str:
        text = self._seen(state, player)[0]
        if self.iig.perfect_recall and self.private:
            return f"{text}\nrecall {state.position.plies} {state.position.digest(player)}"
        return text


def _register(game_id: str) -> type[ArenaGame]:
    # A class per game, not a closure: OpenSpiel keeps the factory until the interpreter
    # ends, and a closure released then aborts the process (the GIL is gone by then).
    def __init__(self: ArenaGame, params: Mapping[str, object] | None = None) -> None:
        ArenaGame.__init__(self, game_id, params)

    name = "".join(w.title() for w in game_id.split("-")) + "Game"
    cls = type(name, (ArenaGame,), {"__init__": __init__, "__module__": __name__})
    globals()[name] = cls  # findable by name, so that a game pickles
    pyspiel.register_game(game_type(game_id), cls)
    return cls


#: The registered game classes by game id.
CLASSES: dict[str, type[ArenaGame]] = {g: _register(g) for g in GAMES}

#: The OpenSpiel names of the registered games.
NAMES: tuple[str, ...] = tuple(short_name(g) for g in GAMES)

__all__ = [
    "NAMES",
    "PREFIX",
    "ArenaGame",
    "ArenaState",
    "Observer",
    "registered_utility",
    "returns_of",
    "short_name",
    "utility_of",
]
