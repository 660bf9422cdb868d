"""What a move did, told in the game's words: each change of a piece or a number becomes a sentence.

The table tells a move by the rules' own narration (`say`) when they printed some; otherwise by what the move
changed, read from the state before and after it, piece by piece (so every statement that changes the game tells
itself, on either engine):

- a `swap` of two pieces: `South swaps the red stone at c1 with the blue stone at c2`;
- a `move` between cells: `South moves the white pawn from b2 to b3`; from a zone to a cell: `South places the
  red stone from the bag at tray e1`; anywhere else: `South moves the Crown from the market to South's hand`;
- a piece made (`create`): `South puts a new marker at c3`; sent out of the game (`destroy`): `South removes
  the black disc at d4`;
- a piece's attributes (a `set` of `PIECE.attr`): `the black discs at d4 and e4 turn into white discs` when its
  name changed, else `the strength of the scout at b2 goes from 2 to 3`;
- numbers: `South's score goes from 0 to 3`, `pot goes from 1 to 4`.

A piece the readers could not see before the move nor after it (a card from the deck into a bot's hand) is
never named: `South moves 2 cards from the deck to North's hand` (its kind and where it went are public).  Names
are the spec's: zones by their `label:` (without a note in brackets at its end), variables by `title:`, else their words (rulespec/wording.py); a
grid's cells by their labels, with the board's name when the game has more than one.  A move that changes many
pieces tells the first few of each sort (`and 4 more`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from orrery.rulespec.wording import spoken, state_name

from ..core.values import BOX, Cell, ZoneRef
from ..core.view import state_view
from ..reference.evaluator import Interp

if TYPE_CHECKING:
    from ..engine.game import GameState

MOST = 6  # pieces named in one sentence before "and N more"


@dataclass(frozen=True)
class Moment:
    """The game just before a move: the public view (numbers), and where each piece was and what it held."""

    view: dict[str, Any]
    loc: tuple
    attrs: tuple

    @classmethod
    def of(cls, gs: "GameState") -> "Moment":
        """The moment `gs` is at now (attributes are replaced, never changed in place: keeping them is safe)."""
        s = gs.state
        return cls(state_view(s, None, True), tuple(s.loc), tuple(s.attrs))

    @property
    def seen(self) -> set[int]:
        """The pieces everyone sees."""
        return shown_pieces(self.view)


def shown_pieces(view: dict[str, Any]) -> set[int]:
    """The ids of the pieces a view shows."""
    ids: set[int] = set()
    for zone in view["zones"].values():
        ids.update(piece["id"] for piece in zone.get("pieces", ()))
        for content in zone.get("cells", {}).values():
            if isinstance(content, list):
                ids.update(piece["id"] for piece in content)
    return ids


def _article(words: str) -> str:
    return f"an {words}" if words[:1].lower() in "aeiou" else f"a {words}"


def _and(items: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`; at most MOST items, then `and N more`."""
    if len(items) > MOST:
        items = items[:MOST] + [f"{len(items) - MOST} more"]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


class Teller:
    """Sentences about one move of `actor` in `gs`, naming no piece in `hidden`."""

    def __init__(self, gs: "GameState", actor: int, hidden: frozenset[int] | None):
        self.gs, self.rules, self.hidden = gs, gs.game.rules, hidden or frozenset()
        self.seat, self.actor = actor, self.rules.seat_name(actor)
        self.it = Interp(gs.state.clone())
        self.boards = sum(1 for z in self.rules.zones.values() if z.is_board)

    # -- names
    def owner(self, owner: Any, title: str) -> str:
        """A zone's title with its owner's name (a player's zone) or key (a keyed zone)."""
        if owner is None:
            return title
        return f"{self.rules.seat_name(owner)}'s {title}" if isinstance(owner, int) else f"{title} {owner}"

    def zone(self, name: str, owner: Any) -> str:
        """A zone as players read it."""
        base, _, key = name.partition("[")
        decl = self.rules.zones.get(name) or self.rules.zones.get(base)
        label = decl.decl.label if decl is not None else None
        title = spoken(base, label.split(" (")[0] if label else None)  # (a label's note in brackets is the panel's)
        return self.owner(owner if owner is not None or not key else key[:-1], title)

    def place(self, place: Any) -> str:
        """Where a piece is: a cell (`e1`, or `tray e1` when there are several boards) or a zone (`the bag`)."""
        if isinstance(place, Cell):
            return place.label if self.boards == 1 and place.owner is None else \
                f"{self.zone(place.zone, place.owner)} {place.label}"
        if isinstance(place, ZoneRef):
            text = self.zone(place.name, place.owner)
            return text if place.owner is not None else f"the {text}"
        return "nowhere"

    def piece(self, pid: int, attrs: dict | None = None) -> str:
        """A piece's name (its label), with the attributes it had then when given."""
        kind = self.gs.state.kinds[pid]
        if pid in self.hidden:
            return spoken(kind)
        saved = self.it.s.attrs[pid]
        if attrs is not None:
            self.it.s.attrs[pid] = attrs
        try:
            label = self.it.piece_label(pid)
        except Exception:  # a label that cannot be worked out names the kind
            label = kind
        finally:
            self.it.s.attrs[pid] = saved
        return spoken(label) if label == kind else label

    def others(self, *places: Any) -> bool:
        """Whether one of `places` belongs to another seat than the mover's (then the move is told without
        saying who made it: the rules moved another player's pieces)."""
        return any(isinstance(getattr(p, "owner", None), int) and p.owner != self.seat for p in places)

    # -- sentences
    def tell(self, before: Moment) -> list[str]:
        """Every sentence about the move since `before`."""
        s = self.gs.state
        moved = {pid: (before.loc[pid] if pid < len(before.loc) else None, s.loc[pid])
                 for pid in range(len(s.loc)) if pid >= len(before.loc) or before.loc[pid] is not s.loc[pid]}
        out = self._swaps(moved) + self._moves(moved) + self._turned(before, moved)
        return out + numbers(self.gs, before.view, self.gs.state)

    def _swaps(self, moved: dict[int, tuple]) -> list[str]:
        """Pairs of visible pieces on cells that took each other's place (taken out of `moved`)."""
        out = []
        for a, (src, dst) in list(moved.items()):
            if a not in moved or a in self.hidden or not (isinstance(src, Cell) and isinstance(dst, Cell)):
                continue
            b = next((b for b, (s2, d2) in moved.items() if b != a and s2 is dst and d2 is src and
                      b not in self.hidden), None)
            if b is not None:
                out.append(f"{self.actor} swaps the {self.piece(a)} at {self.place(src)} with the {self.piece(b)} "
                           f"at {self.place(dst)}")
                del moved[a], moved[b]
        return out

    def _moves(self, moved: dict[int, tuple]) -> list[str]:
        """One sentence for each sort of move (made, removed, placed, moved), visible pieces named, hidden ones
        counted by kind."""
        sorts: dict[str, list[str]] = {"moves": [], "places": [], "puts": [], "removes": [], "goes": []}  # (the order told)
        unseen: dict[tuple, int] = {}
        for pid, (src, dst) in moved.items():
            if src is None and dst is BOX:  # made and sent away within the move: nothing to tell
                continue
            if pid in self.hidden:
                kind = spoken(self.gs.state.kinds[pid])
                key = (kind, self.place(src) if src is not None else None, None if dst is BOX else self.place(dst),
                       self.others(src, dst))
                unseen[key] = unseen.get(key, 0) + 1
                continue
            name = self.piece(pid)
            if src is None:
                sorts["puts"].append(f"{_article('new ' + name)} at {self.place(dst)}"
                                                    if dst is not BOX else _article("new " + name))
            elif dst is BOX:
                sorts["removes"].append(f"the {name} at {self.place(src)}"
                                                       if isinstance(src, Cell) else f"the {name} from {self.place(src)}")
            elif isinstance(dst, Cell) and not isinstance(src, Cell):
                sorts["places"].append(f"{_article(name)} from {self.place(src)} at {self.place(dst)}")
            else:
                the = f"the {name}" if isinstance(src, Cell) else _article(name)  # (one of a zone's pieces)
                verb = "goes" if self.others(src, dst) else "moves"
                sorts[verb].append(f"{the} {'goes ' if verb == 'goes' else ''}from {self.place(src)} to "
                                   f"{self.place(dst)}")
        out = [f"{self.actor} {verb} {_and(items)}" for verb, items in sorts.items() if items and verb != "goes"]
        out += [_and(sorts["goes"])] if sorts["goes"] else []
        for (kind, src, dst, foreign), n in unseen.items():
            what = _article(kind) if n == 1 else f"{n} {plural(kind)}"
            if dst is None:
                out.append(f"{self.actor} removes {what} from {src}")
            elif src is None:
                out.append(f"{self.actor} puts {_article('new ' + kind) if n == 1 else f'{n} new {plural(kind)}'} "
                           f"in {dst}")
            elif foreign:
                out.append(f"{what} go{'es' if n == 1 else ''} from {src} to {dst}")
            else:
                out.append(f"{self.actor} moves {what} from {src} to {dst}")
        return out

    def _turned(self, before: Moment, moved: dict[int, tuple]) -> list[str]:
        """Pieces that stayed where they were but whose attributes changed, told by their name's change when it
        changed (`the black discs at d4 and e4 turn into white discs`), else attribute by attribute."""
        s = self.gs.state
        turned: dict[tuple[str, str], list[str]] = {}
        out = []
        for pid in range(min(len(before.attrs), len(s.attrs))):
            old, new = before.attrs[pid], s.attrs[pid]
            if old is new or old == new or pid in moved or pid in self.hidden or s.loc[pid] in (None, BOX):
                continue
            was, now = self.piece(pid, old), self.piece(pid)
            where = self.place(s.loc[pid])
            if was != now:
                turned.setdefault((was, now), []).append(where)
                continue
            for k in sorted(set(old) | set(new)):
                if old.get(k) != new.get(k) and _plain(new.get(k)):
                    out.append(f"the {spoken(k)} of the {now} at {where} goes from {_shown(old.get(k))} to "
                               f"{_shown(new.get(k))}")
        lines = [f"the {was} at {_and(places)} turns into {_article(now)}" if len(places) == 1 else
                 f"the {plural(was)} at {_and(places)} turn into {plural(now)}" for (was, now), places in turned.items()]
        return lines + out


def plural(words: str) -> str:
    """The plural of a kind's name, by English's regular rules (`card` cards, `city` cities, `box` boxes)."""
    if words.endswith("y") and words[-2:-1] not in tuple("aeiou"):
        return words[:-1] + "ies"
    return words + ("es" if words.endswith(("s", "x", "z", "ch", "sh")) else "s")


def _plain(v: Any) -> bool:
    return v is None or isinstance(v, (int, float, str, bool))


def _shown(v: Any) -> str:
    return "none" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def numbers(gs: "GameState", before: dict[str, Any], state: Any) -> list[str]:
    """Sentences for the public numbers (and words) a move changed: players' variables and tracks, then the
    game's; not the rules' bookkeeping (`internal: true`, which the play screen leaves out too)."""
    after = state_view(state, None, True)
    model = gs.game.spec.model
    internal = {"seat", "name"} | {n for n, v in gs.game.rules.variables.items() if v.internal}
    out = []
    for a, b in zip(before["players"], after["players"]):
        for k, v in b.items():
            if k not in internal and a.get(k) != v and _plain(v):
                out.append(f"{b['name']}'s {state_name(model, k)} goes from {_shown(a.get(k))} to {_shown(v)}")
    for k, v in after["vars"].items():
        if k not in internal and before["vars"].get(k) != v and _plain(v):
            out.append(f"{state_name(model, k)} goes from {_shown(before['vars'].get(k))} to {_shown(v)}")
    return out


def told_move(gs: "GameState", actor: int, before: Moment, hidden: Iterable[int] | None = None) -> list[str]:
    """The sentences that tell what `actor`'s move changed since `before`, naming no piece in `hidden` (None:
    every piece that everyone could see neither before nor after the move)."""
    if hidden is None:
        seen = before.seen | shown_pieces(state_view(gs.state, None, True))
        hidden = (pid for pid in range(len(gs.state.kinds)) if pid not in seen)
    return Teller(gs, actor, frozenset(hidden)).tell(before)


__all__ = ["Moment", "Teller", "told_move", "numbers", "plural", "shown_pieces", "MOST"]
