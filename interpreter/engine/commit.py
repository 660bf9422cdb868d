"""`commit`: secret simultaneous choices, answered one player at a time and revealed together (dsl.md 4.24).

`commit bid from DOMAIN where COND by PLAYERS prompt TEXT` asks every player of PLAYERS (default: every
player), in the order of that list, one sealed question.  Each player's menu is worked out when the commit
starts, with `p` bound to that player, so it depends on the state as it is then and never on another
player's answer (nothing runs between two answers).  The answers are kept in the frame, outside the state:
views are built from the state, so no view shows them; `GameState.view` says who has committed and shows a
player their own answer (`commit_view`).  After the last answer the frame binds NAME to a list with one
entry per seat (the seat's answer, `none` for seats that did not commit), pops itself and emits
`revealed(name, values, players)`.

Answers are final: a sealed menu is never filtered by look-ahead (that would run the reveal with the
others' real answers and tell the asker which options they make fail), so a rule such as "no two players
may take the same" is settled by the rules after the reveal.  A search bot re-deals the answers sealed from
it (`resample`): each answer of another player is drawn again from that player's menu, worked out again in
the bot's world.

Both engines run the same frame: the fast path's generated steps start a commit as the reference does
(compiler/effectgen.py, `STARTED`); the domains and filters are compiled expressions there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orrery.rulespec import ast as A
from orrery.rulespec.wording import commit_prompt

from ..core.decisions import Decision, RequireFailed, RuleError
from ..core.values import Player, Record
from ..reference.effects import _filter, message_text
from .frames import START, WindowFrame, copy_env, emit

if TYPE_CHECKING:
    from .position import Position

REVEALED = "revealed"  # the event a commit emits after its reveal


class CommitFrame:
    """A commit whose players are answering: the menus worked out at its start, the answers so far."""

    __slots__ = ("node", "env", "seats", "menus", "k", "answers")

    def step(self, pos: "Position") -> Decision | None:
        """Ask the next player (the driver answers a one-option menu by itself), or reveal."""
        k = self.k
        if k < len(self.seats):
            node, it = self.node, pos.it
            values, rejected, prompt = self.menus[k]
            opts = it.options_for(values, node.optional)
            return Decision(self.seats[k], prompt, opts, "choose", node.span, node.var, action=it.top_action,
                            rejected=list(rejected), site=id(node), sealed=True)
        self._reveal(pos)
        return None

    def resume(self, pos: "Position", value: Any) -> None:
        """The asked player's answer, sealed until the last one."""
        self.answers = self.answers + [value]  # (a new list: clones share the old one)
        self.k += 1

    def _reveal(self, pos: "Position") -> None:
        node, s = self.node, pos.s
        values: list[Any] = [None] * s.n
        for seat, answer in zip(self.seats, self.answers):
            values[seat] = answer
        self.env[node.var] = values
        pos.stack.pop()
        if pos.it.r.event_triggers.get(REVEALED):
            emit(pos, REVEALED, Record(name=node.var, values=list(values), players=[Player(x) for x in self.seats]),
                 node.span)

    def copy(self, envs: dict) -> "CommitFrame":
        f = CommitFrame.__new__(CommitFrame)
        f.node, f.env, f.seats, f.menus = self.node, copy_env(self.env, envs), self.seats, self.menus
        f.k, f.answers = self.k, self.answers
        return f


def committers(it: Any, node: A.Commit, env: dict) -> list[int]:
    """The seats a commit asks, in the order of its `by` list (every seat without one)."""
    if node.players is None:
        return list(range(it.s.n))
    who = it.ev(node.players, env)
    span = node.players.span
    if not isinstance(who, list):
        raise RuleError(f"the `by` of a commit needs a list of players, got {it.describe(who)}", span)
    seats: list[int] = []
    for x in who:
        if not (x.__class__ is Player or (x.__class__ is int and 0 <= x < it.s.n)):
            raise RuleError(f"the `by` of a commit needs a list of players, but it holds {it.describe(x)}", span)
        if int(x) in seats:
            raise RuleError(f"{it.label(Player(x))} is listed twice in the `by` of a commit: each player "
                            f"answers once", span)
        seats.append(int(x))
    return seats


def menu_of(it: Any, node: A.Commit, env: dict, seat: int) -> tuple[list, list, str]:
    """One player's sealed menu: (values, rejected values with why, prompt), `p` bound to that player.

    An empty menu (not optional) fails the rule, as an empty `choose` does."""
    local = dict(env)
    local["p"] = Player(seat)
    domain = it.iterate(it.ev(node.domain, local), node.domain.span)
    values, rejected = _filter(it, node.var, domain, node.cond, local, node.reason)
    prompt = commit_prompt(node.var) if node.prompt is None else message_text(it, node.prompt, local)
    if not values and not node.optional:
        fixed = node.reason.value if isinstance(node.reason, A.Literal) and not domain else None
        why = fixed or (rejected[0][1] if rejected else f"there is no legal choice for '{node.var}'")
        raise RequireFailed(f"{why} (for {it.label(Player(seat))})", node.span)
    return values, rejected, prompt or ""


def start_commit(pos: "Position", node: A.Commit, env: dict) -> None:
    """Work out every player's menu now (the state cannot change before the reveal), then push the frame."""
    it = pos.it
    if any(f.__class__ is WindowFrame for f in pos.stack):  # (the checker refuses those it can see: dsl.md 4.24)
        raise RuleError(f"`commit {node.var}` ran while a reaction window was open: a commit asks every player at "
                        f"once and cannot run inside one player's reaction", node.span)
    seats = committers(it, node, env)
    f = CommitFrame.__new__(CommitFrame)
    f.node, f.env, f.seats, f.k, f.answers = node, env, seats, 0, []
    f.menus = [menu_of(it, node, env, seat) for seat in seats]
    pos.stack.append(f)
    return None


START[A.Commit] = start_commit  # (frames.py cannot import this module: its table gets the starter here)


# ------------------------------------------------------------------ what a player may know


def pending(pos: "Position") -> list[CommitFrame]:
    """The commits whose answers are still sealed (at most one: nothing else runs while players commit)."""
    return [f for f in pos.stack if f.__class__ is CommitFrame]


def commit_view(pos: "Position", viewer: int | None) -> dict[str, Any] | None:
    """What `viewer` (None: everything) may see of a pending commit: who answers, who has, their own answer."""
    frames = pending(pos)
    if not frames:
        return None
    f = frames[-1]
    it = pos.it
    done = f.seats[:f.k]
    out: dict[str, Any] = {"name": f.node.var, "players": list(f.seats), "committed": list(done)}
    if viewer is None:
        out["answers"] = {str(seat): it.label(a) for seat, a in zip(done, f.answers)}
    elif viewer in done:
        out["yours"] = it.label(f.answers[done.index(viewer)])
    return out


def sealed_from(pos: "Position", viewer: int) -> list[tuple[int, int]]:
    """(frame index in the stack, answer index) of every pending answer given by a player other than `viewer`."""
    out = []
    for i, f in enumerate(pos.stack):
        if f.__class__ is CommitFrame:
            out += [(i, k) for k in range(f.k) if f.seats[k] != viewer]
    return out


def resample(pos: "Position", sealed: list[tuple[int, int]], rng: Any) -> None:
    """Draw each sealed answer again, uniformly from its player's menu worked out in this position (a world
    whose hidden pieces may have been re-dealt), in place: the position must be a private copy.  A menu that
    is empty in this world fails the rule (RequireFailed): the world cannot be the real one."""
    for i, k in sealed:
        f = pos.stack[i]
        it = pos.it
        values = menu_of(it, f.node, f.env, f.seats[k])[0]
        choices = [o.value for o in it.options_for(values, f.node.optional, labelled=False)]  # (pieces merged)
        answers = list(f.answers)
        answers[k] = choices[rng.below(len(choices))]
        f.answers = answers


__all__ = ["CommitFrame", "start_commit", "committers", "menu_of", "pending", "commit_view", "sealed_from",
           "resample", "REVEALED"]
