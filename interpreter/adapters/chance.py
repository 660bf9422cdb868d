"""Every random draw of a game as an explicit chance node (how OpenSpiel sees randomness).

The engine draws every random number through `Rng.below(n)`: a die, a shuffle (one draw per card, as a
dealer turns them), a piece drawn from a bag, `random_int`. `TapeRng` is an `Rng` whose draws are read off
a *tape*, the outcomes chosen so far by the chance player, instead of being computed from a seed.  Its whole
state is still one integer (how many draws were made), so positions clone, compare and roll back exactly as
seeded ones do.  The tape is keyed by (that count, the number of outcomes): a look-ahead that tries an
option reads the same outcome the game will meet when it makes the same draw (as with a seed), and a draw of
another range at the same point is a chance node of its own.  A draw the tape does not hold stops the
engine with `NeedDraw`: the caller (adapters/openspiel.py) shows a chance node of `n` equally likely
outcomes, records the outcome chosen and plays the answer again.  The tape is not stored in the positions
(each OpenSpiel state has its own): `drawing_from(tape)` lends it to the engine inside the `with` block.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from orrery.interpreter.core.rng import Rng

Tape = dict[tuple[int, int], int]  # (draws made before, outcomes) -> the outcome chosen
_TAPE: ContextVar[Tape | None] = ContextVar("orrery_chance_tape", default=None)


class NeedDraw(BaseException):
    """The engine needs the outcome of draw `key` = (draws made before, n) among `n` equally likely ones.

    A BaseException, like GeneratorExit: it is a request, not an error, and must pass through every engine
    handler that treats an Exception as a refused option (the driver puts the position back as it was)."""

    def __init__(self, key: tuple[int, int]) -> None:
        super().__init__(key)
        self.key, self.n = key, key[1]


class TooManyOutcomes(ValueError):
    """A draw among more outcomes than the game declared (OpenSpiel's max_chance_outcomes)."""


class TapeRng(Rng):
    """An Rng reading its draws off the current tape; `state` is its place on the tape."""

    __slots__ = ("most",)

    def __init__(self, most: int) -> None:
        self.state = 0
        self.most = most  # the largest draw a chance node may offer

    def clone(self) -> "TapeRng":
        """An independent copy at the same place on the tape."""
        r = TapeRng.__new__(TapeRng)
        r.state, r.most = self.state, self.most
        return r

    def next64(self) -> int:
        """Not available: a tape holds draws of known ranges (`below`), not raw bits."""
        raise TypeError("a TapeRng draws with below(n) only")

    def below(self, n: int) -> int:
        """The tape's next outcome in [0, n); NeedDraw(n) when the tape has no more."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        if n == 1:  # nothing to choose: no chance node, no place on the tape
            return 0
        if n > self.most:
            raise TooManyOutcomes(f"a random draw among {n} outcomes, more than the game's max_chance_outcomes "
                                  f"({self.most}): load it with a larger max_chance_outcomes")
        tape = _TAPE.get()
        if tape is None:
            raise RuntimeError("a TapeRng drew outside drawing_from(tape)")
        k = tape.get((self.state, n))
        if k is None:
            raise NeedDraw((self.state, n))
        self.state += 1
        return k


@contextmanager
def drawing_from(tape: Tape) -> Iterator[None]:
    """Within the block, every TapeRng reads this tape."""
    token = _TAPE.set(tape)
    try:
        yield
    finally:
        _TAPE.reset(token)


__all__ = ["NeedDraw", "Tape", "TapeRng", "TooManyOutcomes", "drawing_from"]
