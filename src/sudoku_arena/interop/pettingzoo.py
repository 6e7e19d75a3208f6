"""Every game as a PettingZoo AEC environment (extra ``[rl]``: pettingzoo, gymnasium, numpy).

::

    from sudoku_arena.interop.pettingzoo import env
    e = env("sudokuhex", players=3)         # any game parameter as a keyword
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else pick(obs)   # an index in obs["action_mask"]
        e.step(action)

The contract:

* Agents are ``player_0`` .. ``player_{n-1}``, the game's seats. The agent selected is
  the seat to move; in Cat Sudoku's writing phase, where several seats write in any
  order, the lowest seat still writing goes first (as the match runner plays it).
* The action space is ``Discrete(spec.num_distinct_actions)``, the engine's stable action
  indices, the same for every parameter value; ``action_mask`` marks the legal ones.
  ``action_notation(i)`` and ``action_index(text)`` translate both ways.
* The observation is a dict of float32 arrays built from the seat's view
  (``game.view(state, seat)``) alone: ``observation`` (every feature laid end to end),
  each feature under its own name and shape (:mod:`sudoku_arena.interop.features`), and
  ``action_mask`` (int8) from the view's legal actions. So it holds no secret.
* Chance is resolved inside ``step`` (and ``reset``), from the seed exactly as the match
  runner does: ``reset(seed=s)`` plays the episode from ``s``, its set-up (the Sudoku
  grid) that of ``sudoku_arena.load(id, seed=s)`` and ``sudoku-arena play --seed s``,
  its dice and draws those of ``Match.new(id, seed=s)`` for the same decisions.
  ``reset()`` without a seed takes the next episode seed from the last seed's generator
  (``seed_used`` says which). ``chance=`` replaces that source (tests, replays): a
  function of the ply and the outcomes with their probabilities.
* Rewards come at the end: the engine's ``returns`` (1 for a sole winner, ``1/k`` for
  each of ``k`` sharing the win, 0 otherwise; solo games their score in ``[0, 1]``).
  No truncation: every game ends by its rules.
* An illegal action follows PettingZoo's classic games (their ``TerminateIllegalWrapper``
  with ``illegal_reward=-1``): the episode ends for every agent (terminated and
  truncated), the offender is rewarded -1 and the others 0, PettingZoo's
  ``EnvLogger.warn_on_illegal_move`` warning is logged, and the engine state stays the
  position before the action. Beyond the wrapper, ``infos[offender]["illegal_move"]``
  holds the rule that refused it, worded for the offender (it may name the offender's
  own SuDokuHex tile, never another seat's secret). ``strict=True`` raises the engine's
  ``IllegalActionError`` instead and changes nothing. Either way an index outside the
  action space raises ``NotationError`` and ``None`` for a live agent
  ``IllegalActionError``: those are mistakes of the caller, not moves.
* ``render_mode``: ``"ansi"`` (``render()`` returns the game's text drawing),
  ``"human"`` (prints it, at ``reset`` and after every step; ``render()`` returns
  ``None``) and ``"svg"`` (``render()`` returns the SVG document), all of the public
  view (what a spectator sees).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from sudoku_arena.core.errors import IllegalActionError
from sudoku_arena.core.fairness import ChanceSource, secret_from_seed
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import load, render_svg, render_text
from sudoku_arena.core.types import JsonDict
from sudoku_arena.interop import require
from sudoku_arena.interop.features import Encoder, encoder_for

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger
else:
    np = require("numpy", "rl")
    spaces = require("gymnasium.spaces", "rl")
    logger = require("gymnasium.logger", "rl")
    AECEnv = require("pettingzoo", "rl").AECEnv
    EnvLogger = require("pettingzoo.utils.env_logger", "rl").EnvLogger

#: Decides a chance node: ``(ply, outcomes with probabilities) -> outcome``.
Chance = Callable[[int, Sequence[tuple[object, Fraction]]], object]

#: The render modes: PettingZoo's text modes, and the SVG drawing.
RENDER_MODES = ("human", "ansi", "svg")

#: The reward of an illegal action, as in PettingZoo's classic games.
ILLEGAL_REWARD = -1.0

if TYPE_CHECKING:
    #: One array of an observation (float32 features, the int8 action mask).
    Array = npt.NDArray[np.float32] | npt.NDArray[np.int8]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class ArenaEnv(AECEnv):  # type: ignore[misc]
    """One game with fixed parameters as an AEC environment (see the module docstring)."""

    def __init__(
        self,
        game_id: str,
        *,
        render_mode: str | None = None,
        chance: Chance | None = None,
        strict: bool = False,
        **params: object,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r} is not offered; allowed: "
                f"{', '.join(RENDER_MODES)} or None"
            )
        self.game_id = game_id
        self.params = dict(params)
        self.render_mode = render_mode
        self.strict = strict
        self._chance_hook = chance
        self.game: AnyGame = load(game_id, seed=0, **self.params)
        self.encoder: Encoder = encoder_for(self.game)
        self.metadata: dict[str, object] = {
            "render_modes": list(RENDER_MODES),
            "name": f"sudoku_arena_{game_id.replace('-', '_')}",
            "is_parallelizable": False,
        }
        n = self.game.num_players
        self.possible_agents = [agent_name(p) for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        size = self.game.spec.num_distinct_actions
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {a: self._make_observation_space() for a in self.possible_agents}
        self._index: dict[str, int] = {}
        self._seeds = random.Random()
        self._seeded = False
        self.state: object = None
        self.ply = 0

    # -- spaces ---------------------------------------------------------------------------

    def _make_observation_space(self) -> spaces.Dict:
        fields = self.encoder.fields
        high = np.array([f.high for f in fields for _ in range(f.size)], np.float32)
        parts: dict[str, spaces.Box] = {
            "observation": spaces.Box(-1.0, high, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.spec.num_distinct_actions,), np.int8),
        }
        for f in fields:
            parts[f.name] = spaces.Box(-1.0, f.high, f.shape, np.float32)
        return spaces.Dict(list(parts.items()))  # a sequence: its type is covariant

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    # -- notation --------------------------------------------------------------------------

    def action_notation(self, index: int) -> str:
        """The notation of action ``index`` (raises ``NotationError`` out of range)."""
        return str(self.game.format_action(self.game.decode_action(int(index))))

    def action_index(self, text: str) -> int:
        """The index of the action written ``text`` (raises ``NotationError``)."""
        found = self._index.get(text)
        if found is None:
            found = int(self.game.encode_action(self.game.parse_action(text)))
            self._index[text] = found
        return found

    # -- the episode -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            self._seeded = True
            episode = seed
        elif self._seeded:
            episode = self._seeds.randrange(2**31)
        else:
            episode = random.SystemRandom().randrange(2**31)
        self.seed_used = episode
        self.game = load(self.game_id, seed=episode, **self.params)
        self._source = ChanceSource(secret_from_seed(episode), "local")
        self.state = self.game.initial_state()
        self.ply = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None  # an episode ended early leaves PettingZoo's mark
        self._resolve_chance()
        self._select()
        if self.render_mode == "human":
            self.render()

    def _draw(self, outcomes: Sequence[tuple[object, Fraction]]) -> object:
        if self._chance_hook is not None:
            return self._chance_hook(self.ply, outcomes)
        return self._source.draw(self.ply, outcomes)

    def _resolve_chance(self) -> None:
        game = self.game
        while game.to_move(self.state).is_chance:
            outcome = self._draw(game.chance_outcomes(self.state))
            self.state = game.apply(self.state, outcome, None)
            self.ply += 1

    def _select(self) -> None:
        tm = self.game.to_move(self.state)
        if tm.is_terminal:
            returns = self.game.returns(self.state)
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = agent_name(tm.players[0])

    def step(self, action: int | None) -> None:
        """Play ``action`` (an index) for the selected agent, or ``None`` once the
        agent's episode is over. An illegal action ends the episode (see the module
        docstring), or raises ``IllegalActionError`` when ``strict``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError("None", "the game goes on: this seat must act")
        seat = self._seat[agent]
        game = self.game
        # decode_action refuses an index out of range; apply checks the rules.
        chosen = game.decode_action(int(action))
        try:
            self.state = game.apply(self.state, chosen, seat)
        except IllegalActionError as refused:
            if self.strict:
                raise
            self._end_by_illegal_action(agent, str(refused))
            return
        self.ply += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._resolve_chance()
        self._select()
        if self.render_mode == "human":
            self.render()

    def _end_by_illegal_action(self, agent: str, reason: str) -> None:
        # What PettingZoo's TerminateIllegalWrapper does, step for step, so that code
        # written for its classic games reads this episode the same way.
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = ILLEGAL_REWARD
        self.infos[agent]["illegal_move"] = reason
        self._accumulate_rewards()
        self._deads_step_first()

    # -- what a seat sees ------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, Array]:
        seat = self._seat[agent]
        view = self.game.view(self.state, seat)
        values = self.encoder.encode(view)
        obs: dict[str, Array] = {
            f.name: np.asarray(values[f.name], np.float32).reshape(f.shape)
            for f in self.encoder.fields
        }
        obs["observation"] = np.concatenate([obs[f.name].ravel() for f in self.encoder.fields])
        obs["action_mask"] = self._mask(view, seat)
        return obs

    def _mask(self, view: JsonDict, seat: int) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.game.spec.num_distinct_actions, np.int8)
        if seat in view["to_move"]:
            for text in view["legal"]:
                mask[self.action_index(text)] = 1
        return mask

    def render(self) -> str | None:
        """The public view drawn for ``render_mode``: the text (``"ansi"``), printed
        (``"human"``, returns ``None``), or the SVG document (``"svg"``)."""
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        view = self.game.view(self.state, None)
        if self.render_mode == "svg":
            return render_svg(self.game, view)
        text = render_text(self.game, view)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(
    game_id: str,
    *,
    render_mode: str | None = None,
    chance: Chance | None = None,
    strict: bool = False,
    **params: object,
) -> ArenaEnv:
    """The environment without PettingZoo's wrappers (it ends the episode on an illegal
    action itself, unless ``strict``)."""
    return ArenaEnv(game_id, render_mode=render_mode, chance=chance, strict=strict, **params)


def env(
    game_id: str,
    *,
    render_mode: str | None = None,
    chance: Chance | None = None,
    strict: bool = False,
    **params: object,
) -> AECEnv:
    """``game_id`` as an AEC environment with PettingZoo's order-enforcing wrapper.

    Keywords: ``render_mode``, ``chance``, ``strict`` (raise on an illegal action rather
    than end the episode) and the game's parameters (``players=3``, ``size=9``...), as
    ``sudoku_arena.load`` takes them."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(
        raw_env(game_id, render_mode=render_mode, chance=chance, strict=strict, **params)
    )


__all__ = [
    "ILLEGAL_REWARD",
    "RENDER_MODES",
    "ArenaEnv",
    "Chance",
    "agent_name",
    "env",
    "raw_env",
]
