"""The games database, one module per aggregate: each defines its tables on
:data:`sudoku_arena.server.db.schema.metadata` and the reads and writes that keep them
consistent. Alembic migrations (``server/migrations``) are the schema's history."""
