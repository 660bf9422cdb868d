"""A tiny seeded RNG whose whole state is one integer.

SplitMix64 is used instead of `random.Random` so that a state clones for free,
digests exactly, and gives the same numbers on every Python version.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64 generator."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK

    def clone(self) -> "Rng":
        """An independent copy at the same position."""
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def next64(self) -> int:
        """The next 64-bit value."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection (no modulo bias)."""
        if 0 < n <= _MASK:  # (one draw: next64 written in, the bots' and the shuffles' hot path)
            limit = _MASK - (_MASK % n)
            while True:
                z = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                v = z ^ (z >> 31)
                if v < limit:
                    return v % n
        if n <= 0:
            raise ValueError("below() needs n > 0")
        # wider than one draw: concatenate draws, reject values past the largest multiple of n
        words = (n.bit_length() + 63) // 64
        span = 1 << (64 * words)
        top = span - span % n
        while True:
            v = 0
            for _ in range(words):
                v = (v << 64) | self.next64()
            if v < top:
                return v % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
