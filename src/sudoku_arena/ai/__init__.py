"""Agents: the random player, per-game heuristics and search, chosen by name."""

from sudoku_arena.ai.agents import RandomAgent, agent_names, make_agent

__all__ = ["RandomAgent", "agent_names", "make_agent"]
