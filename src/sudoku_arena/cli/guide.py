"""What the ``play`` prompt tells a newcomer per game: the board's symbols and how
to write the game's actions (lines fit an 80-column terminal).

The legends explain the symbols each game's ``render_text`` draws.
"""

from __future__ import annotations

LEGENDS: dict[str, str] = {
    "tic-tac-sudoku": """\
Legend:  +5 a space you may play (its number is 5)   X an X'd space
  (5) circle's open symbol   [5] square's open symbol   ● ■ filled symbols
  Map: O circle's mark, S square's mark, . nobody's yet""",
    "sudoku-warriors": """\
Legend:  O S T a warrior of circle / square / triangle on a hilltop
  · an empty hilltop   X an X'd hilltop (dead for good)
  o7 a village of resource 7 controlled by circle (s: square, t: triangle)
  7/ its resource is spent   S7 the capital of a province square holds
  Provinces map: O S T who holds it, . not won yet""",
    "cat-sudoku": """\
Legend:  . an empty square   o an empty starting square   # blocked
  [5] pre-printed   5 written   (5) circled (a penalty)   <5> in a diagonal
  Dice: 5* a wild die (write it as any value 1-6)
  Wild Counter: X the box chosen this turn   x a box used before
    4 under _ a blank box used to make 4 wild""",
    "sudokuhex": """\
Legend:  C4 an empty hex (its name)   C4+ a hex where your tile may go
  [5] a starting tile (nobody's)   (5) the tile placed last   5 a tile
  > the player to move""",
    "citadel": """\
Legend:  B2 / R1 a blue / red warrior of strength 2 / 1
  B2' it has attacked this turn   B2! its group has no liberties (besieged)
  [B2] a warrior on a citadel   [b ] [r ] a citadel of blue / red, empty
  [  ] a neutral citadel   #### a wall   + a site where a citadel may go""",
}

#: How to write each game's actions, beyond the example the prompt shows.
NOTATION: dict[str, str] = {
    "tic-tac-sudoku": "Actions: a cell r<row>c<column>, such as r5c3.",
    "sudoku-warriors": """\
Actions: h<i><j> places a warrior on a hilltop (h37: crossing of line 3 from
  the top and line 7 from the left). In a battle: 'bid' adds nothing,
  'bid r4c5' adds one village's resource, 'bid r4c5 r5c4' two, 'yield' leaves
  the battle; 'battle b5' picks the next battle when several are due.""",
    "cat-sudoku": """\
Actions: '<value> r<row>c<col>' writes a die's value into a square (2 r1c2).
  A wild die (5*) may be written as any value 1-6.
  Choosing the wild (the active player, after the roll):
    'wild 1+ 3'        crosses off box 3 of the 1+ row (a 3 on at least one
                       die): every die showing 3 becomes wild this turn
    'wild 2+ 3'        the same with the 2+ row (a 3 on at least two dice)
    'wild 1+ blank 3'  writes 3 into the row's first free blank box instead
    'nowild'           declines the wild, when the game allows it""",
    "sudokuhex": """\
Actions: a hex name, a honeycomb letter A-G (A the centre) and a position
  0-6 (0 its centre), such as C4: your tile goes there.""",
    "citadel": """\
Actions: 'citadel k10' places a citadel (setup), 'claim k10' claims a
  neutral one; 'b13-c13' moves, 'b13xc13' attacks, '+c14' recruits,
  'wall d4' builds a wall (d4 its lower-left cell), 'raze d4 c4' has the
  warrior on c4 raze the wall on d4, 'siege c13' takes a besieged warrior,
  'end' ends the turn.""",
}


def legend(game_id: str) -> str | None:
    """The legend of ``game_id``'s text board, if it has one."""
    return LEGENDS.get(game_id)


def notation(game_id: str) -> str | None:
    """How to write ``game_id``'s actions, if the game has a note for it."""
    return NOTATION.get(game_id)
