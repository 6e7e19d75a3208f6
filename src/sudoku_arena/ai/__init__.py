"""Agents: the random player, per-game heuristics and search, chosen by name."""

import sudoku_arena.ai.learned  # noqa: F401  (registers the learned bot's name)
from sudoku_arena.ai.agents import RandomAgent, agent_names, make_agent

__all__ = ["RandomAgent", "agent_names", "make_agent"]
