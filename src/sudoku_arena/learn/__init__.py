"""Learned evaluations: self-play data, training with PyTorch, weights for the search.

``sudoku-arena train GAME --out DIR`` (:mod:`sudoku_arena.cli.train`) runs the steps:

* :mod:`.run`: the run folder's ``run.json`` (settings, seed, code version, sessions),
  resuming a run with the same settings and refusing one with others;
* :mod:`.selfplay`: games by self-play with the search, the positions' features and
  results in shards ``data/shard-NNNN.npz`` (only missing shards are made), on local
  processes or Ray (:mod:`.backends`);
* :mod:`.shards`: reading and writing those shards;
* :mod:`.train`: the value network trained with PyTorch on CPU (imported only here),
  a checkpoint per epoch, exported to ``DIR/value.npz`` for
  :mod:`sudoku_arena.ai.value`, which plays without PyTorch.

Everything follows from the run's seed: the same settings give byte-identical shards
and the same weights.
"""
