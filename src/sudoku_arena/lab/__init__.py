"""The balance lab: many games between bots, stored as records, measured with intervals.

``sudoku-arena analyze GAME`` (:mod:`sudoku_arena.cli.analyze`) drives it:
:mod:`~sudoku_arena.lab.plan` says which games a run plays, :mod:`~sudoku_arena.lab.runner`
plays them (local processes or Ray) into a resumable folder (:mod:`~sudoku_arena.lab.store`),
and :mod:`~sudoku_arena.lab.summary` recomputes every figure from the stored records:
balance (:mod:`~sudoku_arena.lab.metrics`), luck and skill (:mod:`~sudoku_arena.lab.ladder`),
variants (:mod:`~sudoku_arena.lab.variants`), with :mod:`~sudoku_arena.lab.stats` for the
intervals; :mod:`~sudoku_arena.lab.report` writes ``summary.json`` and ``report.html``.
"""
