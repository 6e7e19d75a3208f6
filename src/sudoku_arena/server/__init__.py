"""The web server: an authoritative game server with storage, invites, bots and spectators.

``create_app(ServerConfig(...))`` builds the ASGI application; ``sudoku-arena serve``
runs it on uvicorn. See ``docs/web.md``.
"""

from sudoku_arena.server.app import ServerConfig, create_app

__all__ = ["ServerConfig", "create_app"]
