"""Monte Carlo tree search over the game protocol, for every game.

One search serves all five games; it branches on the facts in ``GameSpec`` and on what
``to_move`` says, never on game ids.

Returns are vectors
    Every tree edge stores the total return of the seat that chose it (``mover``), so
    selection at a node maximises the return of whoever acts there: no negamax, any
    number of seats from 1 to 6, shared wins and solo scores included.

Chance
    At a chance node one outcome is drawn with its exact probability from
    ``chance_outcomes``; each outcome drawn gets its own child.

Hidden information (information-set MCTS)
    When ``spec.hidden_information`` is set, every simulation starts from a fresh
    ``determinize(state, player, rng)`` of the state the search was given, for the seat
    it acts for: everything that seat cannot see is dealt anew each time, so the search
    cannot use what it was not shown (the runner hands agents a determinised state too,
    and the search does not trust it beyond the seat's own view). Tree nodes are then
    keyed by the sequence of actions and outcomes rather than by states, and a child is
    scored with the number of simulations in which it was *available* (single-observer
    IS-MCTS, Cowling, Powley and Whitehouse 2012).

Simultaneous phases
    When several seats are to move at once (Cat Sudoku's writing), each seat of the
    phase chooses its actions in a tree of its own, rooted at the node where the phase
    starts and keyed only by that seat's own actions in the phase (decoupled UCT). The
    seats still act one after another on the simulated state, but no seat's statistics
    are split by the choices another seat makes in the same phase, so none of them can
    learn to answer a choice it would not see at the table. When every seat of the
    phase is done, the node that follows is keyed by all their choices together.

Priors and the root
    A game's prior (``hints.prior``) orders the expansion of untried actions, with
    progressive widening if asked, or steers selection as PUCT probabilities. With
    ``hints.root_candidates`` the search does not grow a tree: it compares the prior's
    best few actions by play-outs of the rollout policy in common sampled futures
    (rollout improvement, see :mod:`.root`).

Repetitions
    A game whose turns can come back to an earlier position names its turn starts
    (``hints.position_key``). The agent remembers those its game has been through and
    the search scores a line that returns to one as ``hints.repeat_value`` (the draw
    that endless repetition leads to), so two bots do not trade the same moves until
    the turn limit (perfect-information games; the tree must hold states).

Perfect-information games keep each node's state in the tree, so a simulation applies
only the actions below the tree (that is most of the speed in Tic-Tac-Sudoku).

Per-game knowledge (fast unchecked apply, rollout policy, heuristic evaluation with
early cut-off, expansion order, level budgets) is the ``search_hints`` of the game's
registered entry (:func:`sudoku_arena.ai.hints.hints_for`). It is turned into strategy
objects once, when a search is built, so the loop itself holds no per-game switches.

The modules, top down:

* :mod:`.agent`: the search as a player (budgets, position memory);
* :mod:`.search`: the simulation loop (descent, chance, simultaneous phases, backup);
* :mod:`.selection`: UCB, PUCT, expansion order, progressive widening, regret matching;
* :mod:`.playout`: play-outs with the rollout policy and the evaluation cut-off;
* :mod:`.root`: rollout improvement at the root (``root_candidates``);
* :mod:`.keys`: how decisions and chance outcomes are keyed in the tree;
* :mod:`.tree`: nodes, the search result, sampling.
"""

from sudoku_arena.ai.mcts.agent import MCTSAgent, level_factory, parse_budget, position_keys
from sudoku_arena.ai.mcts.search import MCTS
from sudoku_arena.ai.mcts.tree import SearchResult
from sudoku_arena.core.search import Budget

__all__ = [
    "MCTS",
    "Budget",
    "MCTSAgent",
    "SearchResult",
    "level_factory",
    "parse_budget",
    "position_keys",
]
