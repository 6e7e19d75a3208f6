"""How the terminal names seats and numbers, and how it echoes what people type.

Seats are called by the game's own names for them ("Blue", "Circle", "Player 1"),
never "seat 0"; scores are shown exactly as the engine counts them (whole numbers,
or fractions), never as floats; a person's text is echoed short and literally.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

#: How much of a person's unusable input is echoed back.
ECHO_LIMIT = 40

_SEAT_RE = re.compile(r"\bseat (\d+)\b")
#: A quoted stretch: a quote that no letter or digit precedes opens it ("player's" opens
#: nothing), one that none follows closes it. Every pair is consumed in turn, so the
#: closing quote of one echo never opens the next (the text between two quotations is
#: not itself a quotation).
_QUOTED_RE = re.compile(r"(?<!\w)'([^']*)'(?!\w)|(?<!\w)\"([^\"]*)\"(?!\w)")


def seat_name(names: Sequence[str], seat: int) -> str:
    """The game's name for ``seat`` as a person reads it: ``"Blue"``, ``"Player 1"``."""
    name = names[seat] if 0 <= seat < len(names) else f"player {seat + 1}"
    return name[:1].upper() + name[1:]


def exact(x: float | int | Fraction) -> str:
    """A score as the engine counts it: ``3``, ``5/2``; never ``3.0``."""
    value = Fraction(x).limit_denominator(1000)
    return str(value.numerator) if value.denominator == 1 else str(value)


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis when longer."""
    return text if len(text) <= limit else text[:limit] + "…"


def clip_quotes(message: str) -> str:
    """An engine's message with every long quoted echo of input cut short."""

    def cut(m: re.Match[str]) -> str:
        single = m.group(1) is not None
        quote = "'" if single else '"'
        return quote + clip(m.group(1) if single else m.group(2)) + quote

    return _QUOTED_RE.sub(cut, message)


def reword_seats(message: str, names: Sequence[str]) -> str:
    """``message`` with "seat N" (an engine or match message) in the game's names."""
    return _SEAT_RE.sub(lambda m: seat_name(names, int(m.group(1))), message)
