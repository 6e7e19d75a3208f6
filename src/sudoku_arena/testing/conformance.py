"""The conformance suite: random games that exercise every promise of the protocol.

For each game (at its smallest and largest player counts) it plays random games with a
:class:`~sudoku_arena.core.match.Match` and checks, at every ply of the first
``deep_plies`` of each game (or one in ``every`` of them, see :func:`check_one`):

* who is to move is consistent with who has legal actions;
* every legal action (or a sample of them) applies, has a notation that parses back and
  an index that decodes back; actions not legal now, values that are no action (text,
  ``None``, a float), and seats not to move, are refused with ``IllegalActionError``;
  the state is never mutated;
* chance outcomes have exact probabilities that sum to 1;
* states survive ``load_state(dump_state(s))`` and dump to JSON;
* views are plain JSON for every observer and the spectator, and for games with hidden
  information a view does not change when only what the observer cannot see changes
  (checked through ``determinize``);
* text renderers draw every view, SVG renderers every view of one ply in 7 and of the
  end (where every seat's view is the public one: the spectator's, and on those plies
  one seat's, which must draw the same); every ``data-action`` in the SVG parses;
* at the end, the outcome agrees with the returns, and the record replays exactly.

Each random game is independent and named by its game, player count and seed
(:func:`check_one`), so a failure reproduces alone;
:func:`sudoku_arena.testing.runner.check_game` runs many of them, in worker processes
when asked. Most of a deep ply's cost is the game's own code (views for every observer,
text and SVG drawings), so the checks here call each function once per ply and observer.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from xml.parsers import expat

import orjson

from sudoku_arena.core.errors import ArenaError, IllegalActionError
from sudoku_arena.core.match import Match
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.record import Record, replay
from sudoku_arena.core.registry import entry_of, load
from sudoku_arena.core.types import JsonDict

#: How many plies at the start of each game get every check (later plies are played
#: through the match, and the end is checked again).
DEEP_PLIES = 150


class ConformanceError(AssertionError):
    """A broken promise, with the game, seed and ply where it was seen."""


@dataclass
class ConformanceReport:
    """What was checked: counts per check name."""

    game: str
    games: int = 0
    plies: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def tick(self, name: str, n: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + n

    def merge(self, other: ConformanceReport) -> None:
        """Add ``other``'s counts to these (the order of merging does not matter)."""
        self.games += other.games
        self.plies += other.plies
        for name, n in other.counts.items():
            self.tick(name, n)


def _is_plain_json(value: JsonDict) -> bool:
    """Whether ``value`` comes back equal from JSON (the server sends it with orjson):
    no tuples, sets, non-string keys, objects, NaN or integers beyond 64 bits."""
    try:
        back: JsonDict = orjson.loads(orjson.dumps(value))
    except (TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError
        return False
    return back == value


def player_counts(game_id: str, params: Mapping[str, object] | None = None) -> list[int]:
    """The player counts the suite checks: the smallest and the largest allowed, or the
    one ``params`` fixes. Raises ``ArenaError`` for an unknown game or bad parameters,
    and :class:`ConformanceError` when the spec contradicts itself."""
    probe = load(game_id, seed=0, **(params or {}))
    spec = probe.spec
    _require(spec.id == game_id, f"spec.id {spec.id!r} differs from the registry id")
    _require(1 <= spec.min_players <= spec.max_players, "player counts are inconsistent")
    if params and "players" in params:
        return [probe.num_players]
    return sorted({spec.min_players, spec.max_players})


def check_one(
    game_id: str,
    players: int,
    seed: int,
    *,
    deep_plies: int = DEEP_PLIES,
    sample_actions: int = 6,
    params: Mapping[str, object] | None = None,
    every: int = 1,
) -> ConformanceReport:
    """Play and check one random game: ``game_id`` with ``players`` seats, its generated
    parameters, chance and random choices all drawn from ``seed``.

    The ``deep_plies`` first plies get every check (with ``every`` above 1, one ply in
    ``every`` among them, where the offset depends on the seed, so that consecutive
    seeds share out the plies); other plies are played through the match (which refuses
    illegal moves), and the end gets every check again. Raises
    :class:`ConformanceError` on the first broken promise, naming the ply.
    """
    if every < 1:
        raise ValueError(f"every={every}: give every check to one ply in 1 or more")
    report = ConformanceReport(game_id)
    game = load(game_id, seed=seed, **{**(params or {}), "players": players})
    deep = _Deep(deep_plies, every, seed % every)
    _check_one(game, seed, deep, sample_actions, report)
    return report


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise ConformanceError(message)


@dataclass(frozen=True, slots=True)
class _Deep:
    """Which plies get every check: one in ``every`` of the first ``plies``."""

    plies: int
    every: int
    offset: int

    def __contains__(self, ply: int) -> bool:
        return ply < self.plies and ply % self.every == self.offset


def _check_one(
    game: AnyGame, seed: int, deep: _Deep, sample: int, report: ConformanceReport
) -> None:
    rng = random.Random(seed)
    match = Match(game, seed=seed, players=[f"random{i}" for i in range(game.num_players)])
    where = f"{game.spec.id} players={game.num_players} seed={seed}"
    report.games += 1
    seen = _check_chance_history(game, match, 0, rng, deep, sample, where, report)
    while not match.is_over:
        s = match.state
        ply = match.ply
        if ply in deep:
            _check_state(
                game, s, ply, rng, sample, f"{where} ply={ply}", report, svg=(ply % 7 == 0)
            )
        tm = match.to_move()
        players = tm.players
        if not (tm.is_decision and players):
            raise ConformanceError(f"{where} ply={ply}: a live state has nobody to move")
        p = players[rng.randrange(len(players))]
        legal = list(game.legal_actions(s, p))
        if not legal:
            raise ConformanceError(
                f"{where} ply={ply}: seat {p} is to move but has no legal action"
            )
        match.play(legal[rng.randrange(len(legal))], p)
        seen = _check_chance_history(game, match, seen, rng, deep, sample, where, report)
        report.plies += 1
        if match.ply > 200_000:
            raise ConformanceError(f"{where}: no end after 200000 plies")
    s = match.state
    _check_state(game, s, match.ply, rng, sample, f"{where} end", report, svg=True)
    _check_end(game, s, where, report)
    _check_record(game, match, where, report)


def _check_chance_history(
    game: AnyGame,
    match: Match,
    seen: int,
    rng: random.Random,
    deep: _Deep,
    sample: int,
    where: str,
    report: ConformanceReport,
) -> int:
    """Check the chance nodes the match resolved since state ``seen``; return the new mark.

    The match resolves chance nodes as soon as they arise, so they are checked from its
    history rather than from the current state.
    """
    _require(not match.to_move().is_chance, f"{where}: the match left a chance node pending")
    states = match.history  # a live view: copying every state at every ply is quadratic
    for k in range(seen, len(states) - 1):
        if k in deep and game.to_move(states[k]).is_chance:
            _check_state(game, states[k], k, rng, sample, f"{where} ply={k}", report, svg=False)
    return len(states) - 1


def _check_state(
    game: AnyGame,
    s: object,
    ply: int,
    rng: random.Random,
    sample: int,
    at: str,
    report: ConformanceReport,
    svg: bool,
) -> None:
    spec = game.spec
    n = game.num_players
    before = game.dump_state(s)
    _require(hash(s) == hash(s), f"{at}: state does not hash")
    # dump/load, through JSON text as storage does
    try:
        dumped: JsonDict = orjson.loads(orjson.dumps(before, option=orjson.OPT_NON_STR_KEYS))
    except TypeError as exc:
        raise ConformanceError(f"{at}: dump_state is not JSON: {exc}") from None
    _require(game.load_state(dumped) == s, f"{at}: load_state(dump_state(s)) != s")
    report.tick("dump/load round-trips")
    tm = game.to_move(s)
    # to_move versus legal actions
    legal_of = [list(game.legal_actions(s, p)) for p in range(n)]
    for p, legal in enumerate(legal_of):
        if tm.is_decision and p in tm.players:
            _require(bool(legal), f"{at}: seat {p} is to move but has no legal action")
        else:
            _require(not legal, f"{at}: seat {p} is not to move but has legal actions")
    if tm.is_chance:
        outcomes = list(game.chance_outcomes(s))
        total = sum((pr for _, pr in outcomes), Fraction(0))
        _require(total == 1, f"{at}: chance probabilities sum to {total}, not 1")
        _require(all(pr > 0 for _, pr in outcomes), f"{at}: a chance outcome has probability 0")
        for a, _ in outcomes[:sample]:
            _check_action_codec(game, a, at)
            game.apply(s, a, None)
        report.tick("chance nodes checked")
    if tm.is_decision:
        for p in tm.players:
            legal = legal_of[p]
            chosen = legal if len(legal) <= sample else rng.sample(legal, sample)
            legal_idx = {game.encode_action(a) for a in legal}
            _require(len(legal_idx) == len(legal), f"{at}: two legal actions share an index")
            for a in chosen:
                _check_action_codec(game, a, at)
                try:
                    game.apply(s, a, p)
                except IllegalActionError as exc:
                    raise ConformanceError(
                        f"{at}: legal action {game.format_action(a)} refused: {exc}"
                    ) from None
                report.tick("legal actions applied")
            # Illegal: random indices that are not legal now must be refused.
            for _ in range(sample):
                idx = rng.randrange(spec.num_distinct_actions)
                if idx in legal_idx:
                    continue
                a = game.decode_action(idx)
                try:
                    game.apply(s, a, p)
                except IllegalActionError:
                    report.tick("illegal actions refused")
                else:
                    raise ConformanceError(
                        f"{at}: illegal action {game.format_action(a)} accepted for seat {p}"
                    )
            # Values that are no action at all (the compiled build checks types on
            # entry: they must still be refused, not raise TypeError).
            if legal:
                for junk in (None, 0.5, game.format_action(legal[0])):
                    if junk == legal[0]:
                        continue
                    try:
                        game.apply(s, junk, p)
                    except IllegalActionError:
                        report.tick("non-actions refused")
                    except Exception as exc:
                        raise ConformanceError(
                            f"{at}: apply({junk!r}) raised {type(exc).__name__} ({exc}),"
                            " not IllegalActionError"
                        ) from None
                    else:
                        raise ConformanceError(f"{at}: apply accepted {junk!r}")
            # Seats not to move are refused.
            others = [q for q in range(n) if q not in tm.players]
            if others and legal:
                q = others[0]
                try:
                    game.apply(s, legal[0], q)
                except IllegalActionError:
                    report.tick("wrong seat refused")
                else:
                    raise ConformanceError(f"{at}: seat {q} acted out of turn")
    _require(game.dump_state(s) == before, f"{at}: a method mutated the state")
    _check_views(game, s, rng, at, report, svg, witness=ply % n)


def _check_action_codec(game: AnyGame, a: object, at: str) -> None:
    text = game.format_action(a)
    _require(
        game.parse_action(text) == a, f"{at}: parse_action({text!r}) does not give the action back"
    )
    idx = game.encode_action(a)
    _require(0 <= idx < game.spec.num_distinct_actions, f"{at}: index {idx} of {text} out of range")
    _require(game.decode_action(idx) == a, f"{at}: decode_action({idx}) is not {text}")


def _check_views(
    game: AnyGame,
    s: object,
    rng: random.Random,
    at: str,
    report: ConformanceReport,
    svg: bool,
    witness: int,
) -> None:
    """Views for the spectator and every seat, and their drawings.

    In games with neither hidden information nor simultaneous moves every seat's view is
    the public one with its own ``observer`` (checked here), and the renderers must not
    depend on ``observer`` (the web server draws such a position once for every seat,
    ``LiveGame.svg``). So the public view is drawn, and on the plies whose SVG is checked
    one seat's view, the ``witness`` (the seats take turns from ply to ply), must give
    the same text and SVG; drawing every seat's copy of the same view again would check
    nothing more. In the other games each observer's view is drawn.
    """
    observers: list[int | None] = [None, *range(game.num_players)]
    hidden = game.spec.hidden_information
    shared = not hidden and not game.spec.simultaneous
    entry = entry_of(game)
    public = game.view(s, None)
    drawn: tuple[str, str | None] | None = None  # the public view's text and SVG
    for obs in observers:
        v = public if obs is None else game.view(s, obs)
        _require(isinstance(v, dict), f"{at}: view is not a dict")
        for key in ("game", "to_move", "legal", "outcome", "players"):
            _require(key in v, f"{at}: view for {obs} lacks {key!r}")
        _require(_is_plain_json(v), f"{at}: view for {obs} is not plain JSON")
        report.tick("views are JSON")
        if shared:
            # The server builds one view per position for such games (Game.view).
            _require(
                {**v, "observer": None} == {**public, "observer": None},
                f"{at}: view of {obs} differs from the public view beyond 'observer'",
            )
            report.tick("one view for all observers")
        if hidden:
            for p in range(game.num_players):
                if obs is not None and p != obs:
                    continue
                # Re-deal what p cannot see; the spectator and p see nothing change.
                other = game.determinize(s, p, rng)
                _require(
                    game.view(other, obs) == v,
                    f"{at}: view of {obs} changes with secrets it cannot see",
                )
                if obs is not None:
                    _require(
                        list(game.legal_actions(other, obs)) == list(game.legal_actions(s, obs)),
                        f"{at}: legal actions of {obs} change under determinize",
                    )
                report.tick("secrecy checks")
        if shared and obs is not None and (obs != witness or not svg):
            continue  # the same view as the public one, whose drawings are checked
        text = entry.render_text(v)
        _require(isinstance(text, str) and bool(text), f"{at}: render_text drew nothing")
        doc: str | None = None
        if svg:
            doc = entry.render_svg(v)
            if drawn is None or not shared:
                _check_svg(game, doc, at)
                report.tick("SVG drawings checked")
        if shared:
            if drawn is None:
                drawn = (text, doc)
            else:
                _require(
                    (text, doc) == drawn,
                    f"{at}: the drawing of seat {obs}'s view differs from the spectator's"
                    " (renderers must not depend on 'observer' in this game)",
                )
                report.tick("drawings independent of the observer")


#: ``data-action`` attributes in a drawing, their values with the quotes (either kind;
#: XML allows spaces around ``=``). Matched in the text, after expat has found the
#: document well-formed, because a parser callback for each of a drawing's hundreds of
#: elements cost more than drawing it. The pattern starts with the name, which the regex
#: engine finds fast; text that merely looks like such an attribute (in a title, or an
#: attribute whose name ends in ``data-action``) is matched too and checked as an
#: action: a spurious failure, never a missed one.
_DATA_ACTION = re.compile(r"""data-action\s*=\s*("[^"]*"|'[^']*')""")

_ATTRIBUTE_SPACES = str.maketrans("\t\n\r", "   ")


def _attribute_value(quoted: str) -> str:
    """An attribute value, given with its quotes, as an XML parser gives it: literal line
    ends and tabs become spaces (a line end is one character first), then references
    are replaced."""
    spaced = quoted[1:-1].replace("\r\n", " ").translate(_ATTRIBUTE_SPACES)
    return html.unescape(spaced) if "&" in spaced else spaced


def _check_svg(game: AnyGame, doc: str, at: str) -> None:
    """``doc`` is well-formed XML (namespaces bound), its root is ``<svg>``, and every
    ``data-action`` attribute parses as an action (each distinct one parsed once)."""
    names: list[str] = []
    # Parsed as ElementTree would (expat, namespaces processed), without building a tree;
    # only the root element reaches Python.
    parser = expat.ParserCreate(namespace_separator="}")

    def start(name: str, attrs: dict[str, str]) -> None:
        names.append(name)
        parser.StartElementHandler = None

    parser.StartElementHandler = start
    try:
        parser.Parse(doc, True)
    except expat.ExpatError as exc:
        raise ConformanceError(f"{at}: SVG is not well-formed: {exc}") from None
    _require(
        bool(names) and names[0].endswith("svg"),
        f"{at}: render_svg did not return an <svg> element",
    )
    # Sorted, so that the first bad action reported does not depend on hashing.
    for act in sorted({_attribute_value(q) for q in set(_DATA_ACTION.findall(doc))}):
        try:
            game.parse_action(act)
        except ArenaError as exc:
            raise ConformanceError(f"{at}: SVG data-action {act!r} does not parse: {exc}") from None


def _check_end(game: AnyGame, s: object, where: str, report: ConformanceReport) -> None:
    out = game.outcome(s)
    if out is None:
        raise ConformanceError(f"{where}: terminal state without an outcome")
    rets = game.returns(s)
    n = game.num_players
    _require(len(rets) == n and len(out.scores) == n, f"{where}: returns/scores need {n} values")
    _require(all(0.0 <= r <= 1.0 for r in rets), f"{where}: returns outside [0, 1]: {rets}")
    if n > 1:
        best = max(rets)
        top = tuple(p for p in range(n) if rets[p] == best and best > 0)
        _require(
            tuple(sorted(out.winners)) == top, f"{where}: winners {out.winners} but returns {rets}"
        )
    report.tick("outcomes agree with returns")


def _check_record(game: AnyGame, match: Match, where: str, report: ConformanceReport) -> None:
    for e in match.log:
        shown = game.public_action(e.action)
        _require(isinstance(shown, str) and bool(shown), f"{where}: public_action gave {shown!r}")
    rec = Record.loads(match.record().dumps())
    _, states = replay(rec)
    _require(
        game.dump_state(states[-1]) == game.dump_state(match.state), f"{where}: replay differs"
    )
    report.tick("records replayed")
