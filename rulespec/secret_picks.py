"""Secret picks made with `choose`: the checker's warnings (docs/dsl.md 4.24).

A `choose` answer is part of the state as soon as it is given: a variable holds it, or the suspended
effect's local names do while another player is asked.  Search bots read the state (only hidden places and
a `commit`'s sealed answers are dealt again, bots/worlds.py), so a pick the rules mean to keep secret that
way is known to the other players' bots.  `commit` keeps such answers sealed.  Three shapes are warned:

- the answer (or something computed from it) stored in a variable hidden from the other players
  (`visibility: owner` or `hidden`);
- players asked one after another in a loop (`for p in ... { choose x ... by p }`) while a name defined
  before the loop collects the answers;
- two players given the same menu one after the other (`choose a from D by P`, then `choose b from D by Q`),
  the first answer still kept while the second player picks.

A menu that reads the earlier answers (`where x not in taken`) shows them on purpose: players pick in turn,
openly, and nothing is warned.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .errors import Finding
from .gamespec import GameSpec

HINT = ("use `commit NAME from ...` (docs/dsl.md 4.24): its answers stay sealed until every player has answered, "
        "and search bots draw them again")


def secret_pick_findings(spec: GameSpec) -> list[Finding]:
    """The warnings of this module for every effect of the spec (each choose warned once)."""
    hidden = {n for n, v in spec.model.variables.items() if v.visibility != "public"}
    out: dict[int, Finding] = {}
    for block in spec.effects.values():
        _Flow(hidden, out).block(block, [])
    return list(out.values())


class _Flow:
    """One effect's locals that hold a pick, followed statement by statement in the order they are written."""

    def __init__(self, hidden: set[str], out: dict[int, Finding]):
        self.hidden, self.out = hidden, out
        self.picks: dict[str, A.Choose] = {}  # local name -> the choose whose answer it holds
        self.loops: dict[str, int] = {}  # local name -> how many loops enclosed its definition
        self.asked: list[A.Choose] = []  # the chooses so far, in order

    def block(self, block: A.Block | None, fors: list[A.For]) -> None:
        for stmt in block.body if block is not None else ():
            self.stmt(stmt, fors)

    def stmt(self, s: A.Stmt, fors: list[A.For]) -> None:
        if isinstance(s, A.Choose):
            self._choose(s, fors)
        elif isinstance(s, A.Let):
            self._define(s.name, s.value, fors)
        elif isinstance(s, A.Assign):
            self._assign(s, fors)
        inner = fors + [s] if isinstance(s, A.For) else fors
        if isinstance(s, A.For):
            self.loops[s.var] = len(inner)
        for child in s.children():
            if isinstance(child, A.Block):
                self.block(child, inner)

    def _choose(self, s: A.Choose, fors: list[A.For]) -> None:
        for earlier in self.asked:
            if (earlier.domain == s.domain and not _same_player(earlier.chooser, s.chooser)
                    and self.picks.get(earlier.var) is earlier and not _reads(s, earlier.var)):
                self._warn(earlier, f"the answer of `choose {earlier.var}` (line {earlier.span.line}) is kept while "
                                    f"another player picks from the same menu (line {s.span.line}): that player's "
                                    f"search bot reads it")
        self.asked.append(s)
        self.picks[s.var] = s
        self.loops[s.var] = len(fors)

    def _define(self, name: str, value: A.Expr, fors: list[A.For]) -> None:
        got = self._pick_in(value)
        if got is None:
            self.picks.pop(name, None)
        else:
            self.picks[name] = got
        self.loops[name] = len(fors)

    def _assign(self, s: A.Assign, fors: list[A.For]) -> None:
        got = self._pick_in(s.value)
        if got is None:
            return
        var = _variable(s.target)
        if var in self.hidden and var not in self.loops:
            self._warn(got, f"the answer of `choose {got.var}` is stored in '{var}', a variable hidden from the "
                            f"other players, but their search bots read it there")
            return
        if not isinstance(s.target, A.Name) or s.target.id not in self.loops:
            return
        name = s.target.id
        self.picks[name] = got
        loop = self._asking_loop(got, fors)
        # (a menu that reads the answers so far is made to show them: the players pick in turn, openly)
        if loop is not None and self.loops[name] < fors.index(loop) + 1 and not _reads(got, name):
            self._warn(got, f"'{name}' collects the answers of `choose {got.var}` while the loop asks the next "
                            f"player (line {loop.span.line}): that player's search bot reads the answers so far")

    def _asking_loop(self, pick: A.Choose, fors: list[A.For]) -> A.For | None:
        """The innermost loop around `pick` whose variable its chooser reads (it asks a player per item)."""
        reads = {n.id for n in pick.chooser.walk() if isinstance(n, A.Name)} if pick.chooser is not None else set()
        return next((f for f in reversed(fors) if f.var in reads), None)

    def _pick_in(self, value: A.Expr) -> A.Choose | None:
        """The choose whose answer `value` reads (through the locals that hold one), or None."""
        return next((self.picks[n.id] for n in value.walk() if isinstance(n, A.Name) and n.id in self.picks), None)

    def _warn(self, pick: A.Choose, message: str) -> None:
        if id(pick) not in self.out:
            self.out[id(pick)] = Finding(pick.span, message, "warning", HINT)


def _reads(pick: A.Choose, name: str) -> bool:
    """Whether a choose's menu (its domain or filter) reads `name`."""
    return any(isinstance(n, A.Name) and n.id == name for e in (pick.domain, pick.cond) if e is not None
               for n in e.walk())


def _variable(target: A.Expr) -> str | None:
    """The variable an assignment writes: `V`, `P.V`, `V[i]`, `P.V[i]` -> V."""
    while isinstance(target, A.Index):
        target = target.obj
    if isinstance(target, A.Name):
        return target.id
    if isinstance(target, A.Attr):
        return target.name
    return None


def _same_player(a: A.Expr | None, b: A.Expr | None) -> bool:
    """Whether two choosers are written alike (no chooser: the acting player, `current`)."""
    return _who(a) == _who(b)


def _who(e: A.Expr | None) -> Any:
    return "current" if e is None or isinstance(e, A.Name) and e.id == "current" else e


__all__ = ["HINT", "secret_pick_findings"]
