#!/usr/bin/env python3
"""Write N seeded scenario files of tic-tac-toe into a folder, for timing `orrery validate` of many files.

    benchmarks/validate_many.py FOLDER N [--unique]

Each file holds three scenarios: a random sequence of distinct squares as steps and expectations drawn from
a pool of shapes (who moves, a square's owner, how many pieces), as a corpus written by a scenario generator
looks. With --unique every expectation also carries the file's own number (`and turn >= -i`), so that no
two files share a rule text: the worst case for reading them. Then time the validation from outside:

    /usr/bin/time -f '%U s user' orrery validate FOLDER/*.yaml > /dev/null
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

SQUARES = [f"{c}{r}" for c in "abc" for r in "123"]
SHAPES = [
    "current == players[{p}]",
    "top(cell(board, '{sq}')).owner == players[{p}]",
    "count(pieces(board)) == {n}",
    "empty(cell(board, '{sq}'))",
    "not empty(cell(board, '{sq}'))",
]


def scenario(rng: random.Random, k: int, unique: int | None) -> str:
    """One scenario's YAML: steps and two expectations (true or not: validate does not play them)."""
    steps = rng.sample(SQUARES, rng.randint(1, 4))  # (at most four moves: no line is complete)
    lines = [f"  - name: generated case {k}", f"    steps: [{', '.join(steps)}]", "    expect:"]
    for _ in range(2):
        text = rng.choice(SHAPES).format(p=rng.randint(0, 1), sq=rng.choice(SQUARES), n=len(steps))
        if unique is not None:
            text += f" and turn >= -{unique}"
        lines.append(f'      - "{text}"')
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Write the files; print how many."""
    unique = "--unique" in argv
    args = [a for a in argv if a != "--unique"]
    folder, n = Path(args[0]), int(args[1])
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(7)
    for i in range(n):
        body = "\n".join(scenario(rng, k, i if unique else None) for k in range(3))
        (folder / f"case{i:05d}.yaml").write_text(f"game: tic-tac-toe\nscenarios:\n{body}\n", encoding="utf-8")
    print(n)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
