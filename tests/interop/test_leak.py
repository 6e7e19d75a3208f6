"""Secrets stay secret through both adapters.

Twin deals: two games identical in everything public, differing only in a secret (one
SuDokuHex seat's drawn tile; Cat Sudoku's dice still to come). Every seat that may not
see the difference gets identical observations, at every step until the rules reveal it
(the tile is placed; the die is rolled); the seat that holds the secret does see it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel
import pytest

from sudoku_arena.core.fairness import ChanceSource, secret_from_seed
from sudoku_arena.interop import openspiel as os_adapter
from sudoku_arena.interop.pettingzoo import ArenaEnv, raw_env

Outcomes = Sequence[tuple[object, Fraction]]


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


class Twins:
    """Two environments stepped together; B's chance copies A's except where told."""

    def __init__(self, game_id: str, seed: int, **params: object) -> None:
        self.source = ChanceSource(secret_from_seed(seed), "local")
        self.drawn: dict[int, object] = {}
        self.a = raw_env(game_id, chance=self._chance_a, **params)
        self.b = raw_env(game_id, chance=self._chance_b, **params)
        self.a.reset(seed=seed)
        self.b.reset(seed=seed)

    def _chance_a(self, ply: int, outcomes: Outcomes) -> object:
        self.drawn[ply] = self.source.draw(ply, outcomes)
        return self.drawn[ply]

    def _chance_b(self, ply: int, outcomes: Outcomes) -> object:
        return self.twist(ply, outcomes, self.drawn[ply])

    def twist(self, ply: int, outcomes: Outcomes, a_drew: object) -> object:
        return a_drew

    def step(self, rng: random.Random) -> None:
        """The selected agent acts the same in both (legal in both)."""
        agent = self.a.agent_selection
        assert self.b.agent_selection == agent
        both = self.a.observe(agent)["action_mask"] & self.b.observe(agent)["action_mask"]
        action = int(rng.choice(list(np.flatnonzero(both))))
        self.a.step(action)
        self.b.step(action)


class HexTwins(Twins):
    """B's ``seat`` draws another tile than A's the first time it draws after ``after``."""

    def __init__(self, seat: int, after: int, seed: int, players: int) -> None:
        self.seat, self.after, self.twisted_at = seat, after, -1
        super().__init__("sudokuhex", seed, players=players)

    def twist(self, ply: int, outcomes: Outcomes, a_drew: object) -> object:
        env = self.b
        text = env.game.format_action(a_drew)
        if (
            self.twisted_at < 0
            and ply >= self.after
            and text.startswith("draw")
            and env.state.drawer == self.seat
        ):
            others = [o for o, _ in outcomes if o != a_drew]
            if others:
                self.twisted_at = ply
                return others[0]
        return a_drew


@pytest.mark.parametrize(("players", "seat", "after"), [(2, 0, 0), (3, 1, 20), (4, 2, 30)])
def test_pettingzoo_another_seats_tile_changes_nothing_the_others_observe(
    players: int, seat: int, after: int
) -> None:
    tw = HexTwins(seat, after, seed=players * 10 + seat, players=players)
    rng = random.Random(seat)
    secret = f"player_{seat}"
    compared = differed = 0
    placed = False
    while tw.a.agents and not placed:
        if tw.twisted_at >= 0:
            for agent in tw.a.possible_agents:
                if agent == secret:
                    differed += not same(tw.a.observe(agent), tw.b.observe(agent))
                else:
                    assert same(tw.a.observe(agent), tw.b.observe(agent)), (agent, tw.a.ply)
                    compared += 1
            assert tw.a.rewards == tw.b.rewards and tw.a.infos == tw.b.infos
        if tw.a.terminations[tw.a.agent_selection]:
            break
        placing = tw.twisted_at >= 0 and tw.a.agent_selection == secret
        tw.step(rng)
        placed = placing  # the tile is on the board: public from here on
    assert tw.twisted_at >= 0 and compared >= players - 1
    assert differed > 0  # the holder does see his own tile


def test_openspiel_another_seats_tile_changes_no_observation_or_information_state() -> None:
    game = pyspiel.load_game("sudoku_arena_sudokuhex(players=3)")
    a, b = game.new_initial_state(), game.new_initial_state()
    rng = random.Random(8)
    twisted, drawer, compared = False, -1, 0
    while not a.is_terminal():
        if a.is_chance_node():
            actions, probs = zip(*a.chance_outcomes(), strict=True)
            act = rng.choices(actions, probs)[0]
            other = act
            if not twisted and len(a.history()) > 20 and "draw" in a.action_to_string(act):
                drawer = a.engine_state.drawer
                other = next(x for x in actions if x != act)
                twisted = True
            a.apply_action(act)
            b.apply_action(other)
        else:
            mover = a.current_player()
            action = rng.choice(sorted(set(a.legal_actions()) & set(b.legal_actions())))
            a.apply_action(action)
            b.apply_action(action)
            if twisted and mover == drawer:
                break  # the tile is on the board: public from here on
        if twisted:
            for p in range(3):
                views = [
                    (
                        s.observation_string(p),
                        s.observation_tensor(p),
                        s.information_state_string(p),
                        s.information_state_tensor(p),
                    )
                    for s in (a, b)
                ]
                if p == drawer:
                    assert views[0] != views[1]
                else:
                    assert views[0] == views[1], (p, len(a.history()))
                    compared += 1
            public = pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
            )
            spectator = [game.make_py_observer(public).string_from(s, 0) for s in (a, b)]
            assert spectator[0] == spectator[1]
    assert twisted and compared >= 2


class DiceTwins(Twins):
    """From the first roll at ply ``k`` or later, B rolls other dice than A."""

    def __init__(self, k: int, seed: int, players: int) -> None:
        self.k, self.twisted_at = k, -1
        self.other = ChanceSource(secret_from_seed(seed + 1), "local")
        super().__init__("cat-sudoku", seed, players=players)

    def twist(self, ply: int, outcomes: Outcomes, a_drew: object) -> object:
        if ply < self.k:
            return a_drew
        if self.twisted_at < 0:  # surely another die here, then the other seed's
            self.twisted_at = ply
            return next(o for o, _ in outcomes if o != a_drew)
        return self.other.draw(ply, outcomes)


@pytest.mark.parametrize("players", [1, 3])
def test_pettingzoo_dice_still_to_come_change_nothing_before_they_are_rolled(
    players: int,
) -> None:
    tw = DiceTwins(k=60, seed=players, players=players)
    rng = random.Random(players)
    before = after = 0
    env: ArenaEnv = tw.a
    while env.agents and not env.terminations[env.agent_selection]:
        rolled = tw.twisted_at >= 0
        for agent in env.possible_agents:
            if rolled:
                after += not same(env.observe(agent), tw.b.observe(agent))
            else:
                assert same(env.observe(agent), tw.b.observe(agent)), (agent, env.ply)
                before += 1
        if rolled:
            break
        tw.step(rng)
    assert before > 20 and after > 0


def test_openspiel_states_hold_no_dice_before_they_are_rolled() -> None:
    """Chance is explicit: two games that part at a roll are the same state until it,
    their whole debug dump included (no generator, no seed inside)."""
    game = os_adapter.ArenaGame("cat-sudoku", {"players": 2})
    a, b = game.new_initial_state(), game.new_initial_state()
    rng = random.Random(2)
    while len(a.history()) < 50:
        action = (
            rng.choice([x for x, _ in a.chance_outcomes()])
            if a.is_chance_node()
            else rng.choice(a.legal_actions())
        )
        a.apply_action(action)
        b.apply_action(action)
    while not a.is_chance_node():
        action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
    assert str(a) == str(b) and a.serialize() == b.serialize()
    for p in range(2):
        assert a.information_state_string(p) == b.information_state_string(p)
    a.apply_action(0)  # roll 1
    b.apply_action(5)  # roll 6
    assert a.observation_string(0) != b.observation_string(0)
