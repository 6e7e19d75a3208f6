"""Game parameters: declaration, coercion from text, validation and random defaults.

A game declares its parameters as :class:`ParamSpec` values. :func:`resolve_params`
turns what a caller gave (Python values, or strings from a command line) into a
complete, JSON-compatible dict, generating random defaults (such as a Sudoku grid) from
a seeded generator so that a record holds every value needed to replay the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sudoku_arena.core.errors import InvalidParameterError

ParamValue = int | str | bool | None


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One parameter of a game.

    ``kind`` is ``int``, ``str`` or ``bool``. ``choices`` or ``minimum``/``maximum``
    bound the value. ``generate`` makes a default from a seeded generator when the caller
    gives none (``default`` is then ``None``); ``check`` validates and normalises a given
    value and raises :class:`InvalidParameterError` with a precise message.

    ``label`` is the parameter's name for players ("Turn limit" for ``max_turns``), shown
    by the web form; left empty it is made from the name (``warrior_cap``: "Warrior cap").
    ``name`` stays what one types (``--param max_turns=200``).
    """

    name: str
    kind: type
    default: ParamValue
    help: str
    choices: tuple[ParamValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    generate: Callable[[random.Random], ParamValue] | None = None
    check: Callable[[Any], ParamValue] | None = None
    label: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.name.replace("_", " ").capitalize())

    def allowed(self) -> str:
        """Describe the allowed values, for error messages and help."""
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.kind is bool:
            return "true or false"
        if self.kind is int:
            lo = "" if self.minimum is None else f" >= {self.minimum}"
            hi = "" if self.maximum is None else f" <= {self.maximum}"
            both = " and".join(x for x in (lo, hi) if x)
            return f"a whole number{both}"
        return self.help

    def coerce(self, value: object) -> ParamValue:
        """Return ``value`` converted to this parameter's kind, or raise."""
        if value is None:
            raise InvalidParameterError(f"{self.name}: no value given; allowed: {self.allowed()}")
        result: ParamValue
        if self.kind is bool:
            if isinstance(value, bool):
                result = value
            elif isinstance(value, str) and value.lower() in {"true", "yes", "1", "on"}:
                result = True
            elif isinstance(value, str) and value.lower() in {"false", "no", "0", "off"}:
                result = False
            else:
                raise InvalidParameterError(
                    f"{self.name}={value!r} is not a truth value; allowed: true or false"
                )
        elif self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise InvalidParameterError(
                    f"{self.name}={value!r} is not a whole number; allowed: {self.allowed()}"
                )
            try:
                result = int(value)
            except ValueError:
                raise InvalidParameterError(
                    f"{self.name}={value!r} is not a whole number; allowed: {self.allowed()}"
                ) from None
            if (self.minimum is not None and result < self.minimum) or (
                self.maximum is not None and result > self.maximum
            ):
                raise InvalidParameterError(
                    f"{self.name}={result} is out of range; allowed: {self.allowed()}"
                )
        else:
            if not isinstance(value, str):
                raise InvalidParameterError(
                    f"{self.name}={value!r} is not text; allowed: {self.allowed()}"
                )
            result = value
        if self.choices is not None and result not in self.choices:
            raise InvalidParameterError(
                f"{self.name}={result!r} is not offered; allowed: {self.allowed()}"
            )
        if self.check is not None:
            result = self.check(result)
        return result


def players_param(minimum: int, maximum: int, default: int) -> ParamSpec:
    """The ``players`` parameter every game has."""
    return ParamSpec(
        "players",
        int,
        default,
        f"number of players ({minimum}-{maximum})",
        minimum=minimum,
        maximum=maximum,
        label="Players",
    )


def resolve_params(
    specs: tuple[ParamSpec, ...],
    given: Mapping[str, object],
    rng: random.Random,
) -> dict[str, ParamValue]:
    """Return every parameter's value: given ones coerced, others defaulted or generated.

    Unknown names are refused with the list of known ones. Generated defaults draw from
    ``rng`` in declaration order, so the same seed gives the same parameters.
    """
    known = {p.name for p in specs}
    unknown = sorted(set(given) - known)
    if unknown:
        raise InvalidParameterError(
            f"unknown parameter {', '.join(unknown)}; "
            f"allowed: {', '.join(p.name for p in specs) or 'none'}"
        )
    out: dict[str, ParamValue] = {}
    for p in specs:
        if p.name in given and given[p.name] is not None:
            out[p.name] = p.coerce(given[p.name])
        elif p.generate is not None:
            out[p.name] = p.generate(rng)
        else:
            out[p.name] = p.default
    return out


def parse_param_text(items: list[str]) -> dict[str, str]:
    """Parse ``["size=13", "control=occupied"]`` into a dict; refuse malformed items."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InvalidParameterError(f"{item!r} is not NAME=VALUE (for example size=13)")
        out[name.strip()] = value.strip()
    return out
