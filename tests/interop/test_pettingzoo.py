"""The PettingZoo adapter passes PettingZoo's own checks for every game and player count,
plays whole games, follows the match runner's chance and the engine's rules, ends an
episode on an illegal action as PettingZoo's classic games do, and renders as PettingZoo
expects."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from interop_cases import BUILTIN, case_id, cases, params_for
from pettingzoo import AECEnv
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

import sudoku_arena
from sudoku_arena.core.errors import IllegalActionError, NotationError
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import render_text
from sudoku_arena.interop import require
from sudoku_arena.interop.pettingzoo import RENDER_MODES, ArenaEnv, env, raw_env

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


def test_reset_with_a_seed_deals_the_board_of_load_with_that_seed() -> None:
    """reset(seed=s) plays the episode from s: the set-up of sudoku_arena.load(id,
    seed=s), which the command line's --seed uses too."""
    for game_id in BUILTIN:
        e = raw_env(game_id)
        for seed in (0, 3, 12345):
            e.reset(seed=seed)
            assert e.seed_used == seed
            assert e.game.params == sudoku_arena.load(game_id, seed=seed).params
    grids = {str(sudoku_arena.load("tic-tac-sudoku", seed=s).params["grid"]) for s in range(3)}
    assert len(grids) == 3  # the seed does choose the board


def _to_midgame(e: AECEnv, seed: int, plies: int = 7) -> None:
    """reset(seed) and ``plies`` random legal actions, through ``e`` and its wrappers
    (a live agent is left to act)."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert not e.terminations[e.agent_selection]


def _an_illegal_index(e: AECEnv, seed: int) -> int:
    """An index in the action space that the selected agent's mask rules out."""
    mask = e.observe(e.agent_selection)["action_mask"]
    return int(np.random.default_rng(seed).choice(np.flatnonzero(mask == 0)))


def _legal(e: AECEnv) -> set[int]:
    return {int(i) for i in np.flatnonzero(e.observe(e.agent_selection)["action_mask"])}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_an_illegal_action_ends_the_episode_with_minus_one_for_the_offender(
    case: tuple[str, int],
) -> None:
    game_id, players = case
    e = env(game_id, **params_for(game_id, players))
    raw: ArenaEnv = e.unwrapped
    _to_midgame(e, seed=players)
    offender, before, ply, legal = e.agent_selection, raw.state, raw.ply, _legal(e)
    EnvLogger.flush()
    e.step(_an_illegal_index(e, seed=players))
    assert any("Illegal move made" in str(m) for m in EnvLogger.mqueue)  # PettingZoo's warning
    assert "is not allowed" in str(raw.infos[offender]["illegal_move"])
    # The engine state is the position before the action, and could go on from there.
    assert raw.state == before and raw.ply == ply
    seat = raw._seat[offender]
    assert seat in raw.game.to_move(before).players
    assert {raw.game.encode_action(a) for a in raw.game.legal_actions(before, seat)} == legal
    rewards: dict[str, float] = {}
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        assert terminated and truncated  # both, as PettingZoo's wrapper sets them
        rewards[agent] = reward
        e.step(None)
    assert rewards == {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    assert not e.agents
    # The next episode is a fresh one.
    fresh = raw_env(game_id, **params_for(game_id, players))
    e.reset(seed=9)
    fresh.reset(seed=9)
    assert raw.state == fresh.state and raw.agent_selection == fresh.agent_selection
    assert raw._cumulative_rewards == fresh._cumulative_rewards
    assert not any(raw.terminations.values()) and not any(raw.truncations.values())


def _after_illegal(e: AECEnv, seed: int) -> tuple[object, ...]:
    """What an agent loop sees once an illegal action has been played in ``e``: the
    reward, cumulative reward, termination and truncation tables, the agent selected,
    then each agent's ``last()`` as it is stepped out."""
    raw: ArenaEnv = e.unwrapped
    _to_midgame(e, seed)
    e.step(_an_illegal_index(e, seed))
    tables = (
        dict(raw.rewards),
        dict(raw._cumulative_rewards),
        dict(raw.terminations),
        dict(raw.truncations),
        raw.agent_selection,
    )
    seen = []
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        seen.append((agent, reward, terminated, truncated))
        e.step(None)
    return (*tables, seen)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_illegal_action_convention_is_pettingzoos_terminate_illegal_wrapper(
    case: tuple[str, int],
) -> None:
    """The same game and illegal action through ours and through PettingZoo's own
    TerminateIllegalWrapper(illegal_reward=-1) around a strict environment."""
    game_id, players = case
    params = params_for(game_id, players)
    ours = env(game_id, **params)
    theirs = wrappers.OrderEnforcingWrapper(
        wrappers.TerminateIllegalWrapper(raw_env(game_id, strict=True, **params), -1)
    )
    assert _after_illegal(ours, seed=players) == _after_illegal(theirs, seed=players)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_strict_mode_raises_on_an_illegal_action_and_changes_nothing(
    case: tuple[str, int],
) -> None:
    game_id, players = case
    e = env(game_id, strict=True, **params_for(game_id, players))
    raw: ArenaEnv = e.unwrapped
    _to_midgame(e, seed=players)
    before, agent, ply, legal = raw.state, raw.agent_selection, raw.ply, _legal(e)
    with pytest.raises(IllegalActionError, match="is not allowed"):
        e.step(_an_illegal_index(e, seed=players))
    assert raw.state == before and raw.agent_selection == agent and raw.ply == ply
    assert not any(raw.terminations.values()) and not any(raw.truncations.values())
    assert set(raw.rewards.values()) == {0.0} and raw.infos[agent] == {}
    e.step(min(legal))  # the game goes on
    assert raw.ply > ply


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_an_index_out_of_range_or_none_is_a_callers_mistake_in_either_mode(
    strict: bool,
) -> None:
    e = raw_env("tic-tac-sudoku", strict=strict)
    e.reset(seed=1)
    before, agent = e.state, e.agent_selection
    with pytest.raises(NotationError):
        e.step(10**6)
    with pytest.raises(IllegalActionError, match="must act"):
        e.step(None)
    assert e.state == before and e.agent_selection == agent
    assert not e.terminations[agent]


def test_render_modes_pass_pettingzoos_render_test() -> None:
    for game_id in BUILTIN:
        render_test(
            lambda render_mode, g=game_id: env(g, render_mode=render_mode),
            custom_tests={"svg": lambda drawn: str(drawn).lstrip().startswith("<svg")},
        )


def test_ansi_returns_and_human_prints_the_public_view_as_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ansi = raw_env("sudokuhex", players=2, render_mode="ansi")
    human = raw_env("sudokuhex", players=2, render_mode="human")
    assert ansi.metadata["render_modes"] == list(RENDER_MODES) == ["human", "ansi", "svg"]
    ansi.reset(seed=3)
    capsys.readouterr()
    human.reset(seed=3)
    text = render_text(ansi.game, ansi.game.view(ansi.state, None))  # a spectator's view
    assert ansi.render() == text and text.strip()
    assert capsys.readouterr().out == text + "\n"  # reset drew the board
    action = min(_legal(human))
    human.step(action)
    ansi.step(action)
    assert capsys.readouterr().out == ansi.render() + "\n"  # so does every step
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render() + "\n"
    svg = raw_env("citadel", size=9, render_mode="svg")
    svg.reset(seed=3)
    assert str(svg.render()).lstrip().startswith("<svg")


def test_render_without_a_mode_warns_and_an_unknown_mode_is_refused() -> None:
    e = raw_env("tic-tac-sudoku")
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert e.render() is None
    with pytest.raises(ValueError, match="allowed: human, ansi, svg"):
        raw_env("citadel", render_mode="rgb_array")


def test_a_missing_extra_is_named() -> None:
    with pytest.raises(ImportError, match=r"pip install 'sudoku-arena\[rl\]'"):
        require("sudoku_arena_no_such_module", "rl")
