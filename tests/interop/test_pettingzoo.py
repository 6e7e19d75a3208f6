"""The PettingZoo adapter passes PettingZoo's own checks for every game and player count,
plays whole games, and follows the match runner's chance and the engine's rules."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from interop_cases import case_id, cases, params_for
from pettingzoo.test import api_test, seed_test

from sudoku_arena.core.errors import IllegalActionError, NotationError
from sudoku_arena.core.match import Match
from sudoku_arena.interop import require
from sudoku_arena.interop.pettingzoo import ArenaEnv, env, raw_env

CASES = cases()


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns that a dict observation is not an array; ours is a dict by design.
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
    warnings.filterwarnings("ignore", message="Observation space for each agent probably")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_api_and_seed_tests_pass(case: tuple[str, int]) -> None:
    game_id, players = case
    params = params_for(game_id, players)
    api_test(env(game_id, **params), num_cycles=1000)
    seed_test(lambda: env(game_id, **params), num_cycles=200)


def play_randomly(e: ArenaEnv, seed: int) -> tuple[int, dict[str, float]]:
    """Play a whole game with random legal actions (no cycle limit); the steps taken and
    each agent's total reward."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():  # no max_cycles: the game must end by itself
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        assert not truncated
        if terminated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, f"{agent} selected with nothing to do"
        e.step(int(rng.choice(legal)))
        steps += 1
    return steps, totals


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_random_play_runs_to_the_end_and_pays_the_engines_returns(
    case: tuple[str, int],
) -> None:
    game_id, players = case
    e = raw_env(game_id, **params_for(game_id, players))
    steps, totals = play_randomly(e, seed=5)
    assert steps > 0 and not e.agents
    returns = e.game.returns(e.state)
    assert e.game.to_move(e.state).is_terminal
    assert [totals[a] for a in e.possible_agents] == pytest.approx(list(returns))


def test_chance_is_the_match_runners_for_the_same_seed_and_decisions() -> None:
    """reset(seed=s) deals what Match.new(id, seed=s) deals, the grid included."""
    for game_id, players in (("sudokuhex", 3), ("cat-sudoku", 2), ("tic-tac-sudoku", 2)):
        e = raw_env(game_id, players=players)
        e.reset(seed=11)
        m = Match.new(game_id, seed=11, players=["x"] * players)
        assert e.game.params == m.game.params
        rng = random.Random(1)
        for agent in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            assert e.state == m.state
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            m.play(m.game.decode_action(action), e._seat[agent])
            e.step(action)
        assert e.state == m.state and m.is_over


def test_observations_come_from_the_view_and_the_mask_is_the_legal_actions() -> None:
    e = raw_env("sudokuhex", players=3)
    e.reset(seed=2)
    agent = e.agent_selection
    seat = e._seat[agent]
    obs = e.observe(agent)
    legal = {e.game.encode_action(a) for a in e.game.legal_actions(e.state, seat)}
    assert set(np.flatnonzero(obs["action_mask"])) == legal
    hand = e.game.view(e.state, seat)["hand"]
    assert obs["hand"][hand - 1] == 1.0 and obs["hand"].sum() == 1.0
    others = [a for a in e.possible_agents if a != agent]
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
    assert e.observation_space(agent).contains(obs)
    flat = np.concatenate([obs[f.name].ravel() for f in e.encoder.fields])
    assert np.array_equal(obs["observation"], flat)


def test_action_index_and_notation_translate_both_ways() -> None:
    for game_id, sample in (
        ("tic-tac-sudoku", "r5c3"),
        ("sudoku-warriors", "bid r4c5 r5c4"),
        ("cat-sudoku", "5 r3c4"),
        ("sudokuhex", "C4"),
        ("citadel", "b13-c13"),
    ):
        e = raw_env(game_id)
        i = e.action_index(sample)
        assert 0 <= i < e.action_space("player_0").n
        assert e.action_index(e.action_notation(i)) == i
        assert e.action_notation(i).lower().replace(" ", "") == sample.lower().replace(" ", "")


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env("tic-tac-sudoku")
    e.reset(seed=1)
    before, agent = e.state, e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    with pytest.raises(NotationError):
        e.step(10**6)
    with pytest.raises(IllegalActionError, match="must act"):
        e.step(None)
    assert e.state == before and e.agent_selection == agent


def test_render_modes_draw_the_public_view() -> None:
    text = raw_env("sudokuhex", players=2, render_mode="ansi")
    text.reset(seed=3)
    drawn = text.render()
    assert isinstance(drawn, str) and drawn.strip()
    svg = raw_env("citadel", size=9, render_mode="svg")
    svg.reset(seed=3)
    assert str(svg.render()).lstrip().startswith("<svg")
    with pytest.raises(ValueError, match="allowed: ansi, svg"):
        raw_env("citadel", render_mode="human")


def test_a_missing_extra_is_named() -> None:
    with pytest.raises(ImportError, match=r"pip install 'sudoku-arena\[rl\]'"):
        require("sudoku_arena_no_such_module", "rl")
