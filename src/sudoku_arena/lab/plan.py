"""What a lab run plays: the plan, its variants, and the games as tournament jobs.

A run has a *balance* section (``players``, one bot per seat, ``games`` games for every
variant), optionally a *ladder* section (a round robin between the ``ladder`` bots,
two seats, ``ladder_games`` games per pair, base rules) and optionally an *exploit*
section (``exploit``: line-ups of one bot per seat, the bot under test first and a
panel strategy in every other seat, ``exploit_games`` games each, rounded up to whole
blocks so that the bot sits in every seat equally often; base rules; see
:mod:`sudoku_arena.lab.exploit`). Games come from
:func:`sudoku_arena.ai.tournament.jobs`: blocks of one game per seating that share the
board and the chance seed (duplicate play), seats rotated. Every variant uses the
same seeds (common random numbers), so variant ``B``'s game ``i`` differs from the
base's game ``i`` only by the rules.

Each game has a key, ``section/variant/players/index``, that names its line in the
run's records; a resumed run plays only the keys it lacks.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from sudoku_arena.ai.tournament import GameJob, jobs
from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.params import ParamValue, parse_param_text
from sudoku_arena.core.types import JsonDict

BASE = "base"
BALANCE = "balance"
LADDER = "ladder"
EXPLOIT = "exploit"


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule variant: a name and the parameters it changes from the base rules."""

    name: str
    params: dict[str, ParamValue] = field(default_factory=dict)

    def to_json(self) -> JsonDict:
        return {"name": self.name, "params": dict(self.params)}


def parse_variant(text: str) -> Variant:
    """``NAME:PARAM=VALUE[,PARAM=VALUE...]`` as a :class:`Variant`; refuses bad text."""
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not sep or not name or not rest.strip():
        raise InvalidParameterError(
            f"--variant {text!r}: write NAME:PARAM=VALUE[,PARAM=VALUE...], "
            "for example short:max_turns=60"
        )
    if name == BASE or "/" in name:
        raise InvalidParameterError(f"--variant {text!r}: the name may not be {BASE!r} or hold '/'")
    params: dict[str, ParamValue] = dict(parse_param_text(rest.split(",")))
    return Variant(name, params)


@dataclass(frozen=True, slots=True)
class LabJob:
    """One game of a run: its key, section, variant and the tournament job to play."""

    key: str
    section: str
    variant: str
    job: GameJob


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything that decides which games a run plays (stored as ``run.json``)."""

    game: str
    params: dict[str, ParamValue]
    players: tuple[str, ...]
    games: int
    seed: int = 0
    variants: tuple[Variant, ...] = ()
    ladder: tuple[str, ...] = ()
    ladder_games: int = 0
    exploit: tuple[tuple[str, ...], ...] = ()
    exploit_games: int = 0

    def all_variants(self) -> tuple[Variant, ...]:
        """The base rules first, then the variants in the order given."""
        return (Variant(BASE, {}), *self.variants)

    def seats_for(self, variant: Variant) -> tuple[str, ...]:
        """The bots per seat under ``variant`` (a variant may change the player count
        when every seat plays the same bot)."""
        n = variant.params.get("players")
        if n is None or str(n) == str(len(self.players)):
            return self.players
        try:
            count = int(str(n))
        except ValueError:
            raise InvalidParameterError(
                f"variant {variant.name}: players={n!r} is not a number"
            ) from None
        if len(set(self.players)) != 1:
            raise InvalidParameterError(
                f"variant {variant.name} plays {count} seats but --players names "
                f"{len(self.players)} different bots; give one bot name for every seat"
            )
        return (self.players[0],) * count

    def jobs(self) -> list[LabJob]:
        """Every game of the run, in a fixed order."""
        out: list[LabJob] = []
        for v in self.all_variants():
            seats = self.seats_for(v)
            params = {**self.params, **v.params}
            params.pop("players", None)
            for j in jobs(self.game, seats, self.games, params=params, seed=self.seed):
                out.append(LabJob(key_of(BALANCE, v.name, seats, j.index), BALANCE, v.name, j))
        params = dict(self.params)
        params.pop("players", None)
        for a, b in itertools.combinations(self.ladder, 2):
            for j in jobs(self.game, (a, b), self.ladder_games, params=params, seed=self.seed):
                out.append(LabJob(key_of(LADDER, BASE, (a, b), j.index), LADDER, BASE, j))
        for lineup in self.exploit:
            n = math.ceil(self.exploit_games / len(lineup)) * len(lineup)
            for j in jobs(self.game, lineup, n, params=params, seed=self.seed):
                out.append(LabJob(key_of(EXPLOIT, BASE, lineup, j.index), EXPLOIT, BASE, j))
        return out

    def to_json(self) -> JsonDict:
        out: JsonDict = {
            "game": self.game,
            "params": dict(self.params),
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "variants": [v.to_json() for v in self.variants],
            "ladder": list(self.ladder),
            "ladder_games": self.ladder_games,
        }
        if self.exploit:  # only then: the run.json of a run without one stays as it was
            out["exploit"] = [list(lineup) for lineup in self.exploit]
            out["exploit_games"] = self.exploit_games
        return out

    @staticmethod
    def from_json(data: JsonDict) -> Plan:
        return Plan(
            game=str(data["game"]),
            params=dict(data.get("params", {})),
            players=tuple(str(p) for p in data["players"]),
            games=int(data["games"]),
            seed=int(data.get("seed", 0)),
            variants=tuple(
                Variant(str(v["name"]), dict(v.get("params", {}))) for v in data.get("variants", [])
            ),
            ladder=tuple(str(p) for p in data.get("ladder", [])),
            ladder_games=int(data.get("ladder_games", 0)),
            exploit=tuple(tuple(str(p) for p in lineup) for lineup in data.get("exploit", [])),
            exploit_games=int(data.get("exploit_games", 0)),
        )

    def same_games(self, other: Plan) -> bool:
        """Whether ``other`` plays the same games, apart from how many (a resumed run
        may ask for more games; the games already played stay valid)."""
        a, b = self.to_json(), other.to_json()
        for d in (a, b):
            d.pop("games")
            d.pop("ladder_games")
            d.pop("exploit_games", None)
        return a == b


def key_of(section: str, variant: str, players: Sequence[str], index: int) -> str:
    """The key of one game: ``section/variant/players/index``."""
    return f"{section}/{variant}/{','.join(players)}/{index}"
