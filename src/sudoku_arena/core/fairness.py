"""Chance from a committed secret: every die and tile derived, checkable afterwards.

A match's chance comes from one 256-bit secret. Before play, the match publishes a
*commitment*, the SHA-256 of the secret and the match's identity; the secret itself is
revealed only when the game is over. Every chance outcome is derived from the secret
with HMAC-SHA256, so once the secret is out anybody can recompute every draw of the
game, and nobody (the server included) could have changed the secret after committing
to it. Seats may add *client seeds*: text mixed into every draw from the ply at which
it was given, so the server could not have picked a secret that favours anyone, since
it did not know the client seeds when it committed.

The scheme ``hmac-sha256/v1``, byte for byte (``verify_record`` and docs/fairness.md
follow it)::

    commitment = SHA256("sudoku-arena/commit/v1" 0x00 match_id 0x00 secret)   (hex)
    seeds(ply) = the client seeds given at or before ply, in seat order, each
                 "<seat>=<seed>", joined with 0x00
    block(ply, k) = HMAC-SHA256(secret, "sudoku-arena/chance/v1" 0x00 match_id 0x00
                                 ply 0x00 seeds(ply) 0x00 k)      (ply, k in decimal)

The blocks, concatenated as big-endian integers 8 bytes at a time, are a stream of
uniform 64-bit numbers. With the outcomes' exact probabilities brought to a common
denominator ``D``, a number ``x`` is accepted when ``x < 2**64 - 2**64 % D``, and then
``x % D`` picks the outcome by cumulative numerators (rejection sampling: no bias).

Bots and the determinisations handed to them draw from ``HMAC-SHA256(secret,
"sudoku-arena/bots/v1" ...)``, a different label: HMAC outputs under different labels
are independent, so a bot's choice tells nothing about the chance stream.

A game played from a plain integer seed (the command line, the library) takes its secret
from the seed (:func:`secret_from_seed`) and its public set-up (the Sudoku grid, the
Cat Sudoku sheet) from an unrelated value (:func:`public_seed`), so the same seed
gives the same game everywhere, and the public grid says nothing about the dice.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

SCHEME = "hmac-sha256/v1"
SECRET_BYTES = 32
#: The longest client seed accepted (characters).
MAX_CLIENT_SEED = 64

_U64 = 1 << 64
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ClientSeed:
    """Text a seat mixed into the chance of every ply from ``ply`` on."""

    seat: int
    seed: str
    ply: int

    def to_json(self) -> dict[str, int | str]:
        return {"seat": self.seat, "seed": self.seed, "ply": self.ply}


def check_client_seed(text: object) -> str:
    """``text`` as a client seed, or ``ValueError`` saying what is allowed."""
    if not isinstance(text, str):
        raise ValueError("a client seed is text")
    if not 1 <= len(text) <= MAX_CLIENT_SEED or not text.isprintable():
        raise ValueError(
            f"a client seed is 1-{MAX_CLIENT_SEED} printable characters, got {len(text)}"
        )
    return text


def new_secret() -> bytes:
    """A fresh secret from the operating system's generator."""
    return secrets.token_bytes(SECRET_BYTES)


def secret_from_seed(seed: int) -> bytes:
    """The secret of a game played from an integer seed (reproducible, not secret)."""
    return hashlib.sha256(f"sudoku-arena/seed-secret/v1:{seed}".encode()).digest()


def public_seed(seed: int) -> int:
    """The seed of the public set-up of a game played from ``seed``.

    Unrelated to :func:`secret_from_seed` (a different hash label), so the public grid
    narrows down nothing about the chance stream."""
    digest = hashlib.sha256(f"sudoku-arena/public-seed/v1:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def commitment(secret: bytes, match_id: str) -> str:
    """The published promise: SHA-256 of the match's identity and its secret (hex)."""
    return hashlib.sha256(
        b"sudoku-arena/commit/v1\0" + match_id.encode() + b"\0" + secret
    ).hexdigest()


def _u64_stream(key: bytes, message: bytes) -> Iterator[int]:
    k = 0
    while True:
        block = hmac.new(key, message + b"\0" + str(k).encode(), hashlib.sha256).digest()
        for i in range(0, 32, 8):
            yield int.from_bytes(block[i : i + 8], "big")
        k += 1


def uniform_below(stream: Iterator[int], n: int) -> int:
    """An exactly uniform integer in ``range(n)`` from a stream of uniform 64-bit ints."""
    if not 0 < n <= _U64:
        raise ValueError(f"cannot sample below {n}")
    limit = _U64 - _U64 % n
    for x in stream:
        if x < limit:
            return x % n
    raise AssertionError("unreachable: the stream is endless")


def pick(stream: Iterator[int], outcomes: Sequence[tuple[T, Fraction]]) -> T:
    """One of ``outcomes`` with exactly its probability."""
    if not outcomes:
        raise ValueError("no chance outcomes to pick from")
    denominator = math.lcm(*(Fraction(p).denominator for _, p in outcomes))
    r = uniform_below(stream, denominator)
    acc = 0
    for value, p in outcomes:
        acc += int(Fraction(p) * denominator)
        if r < acc:
            return value
    raise ValueError("chance outcome probabilities do not sum to 1")


class ChanceSource:
    """The chance of one match: its secret, identity and client seeds."""

    def __init__(
        self, secret: bytes, match_id: str, client_seeds: Iterable[ClientSeed] = ()
    ) -> None:
        if len(secret) != SECRET_BYTES:
            raise ValueError(f"a chance secret is {SECRET_BYTES} bytes, got {len(secret)}")
        self.secret = secret
        self.match_id = match_id
        self.client_seeds: list[ClientSeed] = sorted(client_seeds, key=lambda c: c.seat)

    @property
    def commitment(self) -> str:
        return commitment(self.secret, self.match_id)

    def add_client_seed(self, seed: ClientSeed) -> None:
        """Mix ``seed`` into every draw from its ply on (one seed per seat)."""
        if any(c.seat == seed.seat for c in self.client_seeds):
            raise ValueError(f"seat {seed.seat} has given its client seed already")
        self.client_seeds = sorted([*self.client_seeds, seed], key=lambda c: c.seat)

    def _message(self, label: str, *parts: object) -> bytes:
        return b"\0".join(
            [label.encode(), self.match_id.encode(), *(str(p).encode() for p in parts)]
        )

    def _seeds_at(self, ply: int) -> str:
        return "\0".join(f"{c.seat}={c.seed}" for c in self.client_seeds if c.ply <= ply)

    def draw(self, ply: int, outcomes: Sequence[tuple[T, Fraction]]) -> T:
        """The chance outcome at ``ply``."""
        msg = self._message("sudoku-arena/chance/v1", ply, self._seeds_at(ply))
        return pick(_u64_stream(self.secret, msg), outcomes)

    def bot_seed(self, seat: int, ply: int = 0, purpose: str = "agent") -> int:
        """A seed for the bot in ``seat`` (thinking at ``ply`` when rebuilt per move);
        ``purpose`` separates the agent's own generator from its determinisations."""
        msg = self._message("sudoku-arena/bots/v1", purpose, seat, ply)
        return next(_u64_stream(self.secret, msg)) >> 1
