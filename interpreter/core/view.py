"""JSON views of a state, honouring each zone's visibility.

public: everyone sees the pieces; owner: only the owning player does; hidden:
nobody does (only the count).  Others see an owner-only zone as a count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import BOX, serialize
from .values import Cell, ZoneRef

if TYPE_CHECKING:
    from .state import State


def _visible(zone_vis: str, owner: int | None, viewer: int | None, hide: bool) -> bool:
    if not hide:
        return True
    if zone_vis == "public":
        return True
    if zone_vis == "owner":
        return owner is not None and viewer == owner
    return False


def _piece(state: "State", pid: int) -> dict[str, Any]:
    return {"id": pid, "kind": state.kinds[pid], **{k: serialize(v) for k, v in state.attrs[pid].items()}}


def state_view(state: "State", viewer: int | None, hide: bool) -> dict[str, Any]:
    """Zones, cells, tracks and variables as `viewer` may see them."""
    rules = state.rules
    zones: dict[str, Any] = {}
    for name, z in rules.zones.items():
        owners = list(range(state.n)) if z.per_player else [None]
        for owner in owners:
            key = name if owner is None else f"{name}[{owner}]"
            vis = _visible(z.decl.visibility, owner, viewer, hide)
            if z.is_board:
                cells = {}
                for place, pids in state.places.items():
                    if isinstance(place, Cell) and place.zone == name and place.owner == owner and pids:
                        cells[place.label] = [_piece(state, p) for p in pids] if vis else len(pids)
                zones[key] = {"type": z.type, "cells": dict(sorted(cells.items()))}
            else:
                pids = state.contents(ZoneRef(name, owner))
                zones[key] = {"type": z.type, "count": len(pids)}
                if vis:
                    zones[key]["pieces"] = [_piece(state, p) for p in pids]
    players = []
    for p in range(state.n):
        pv = {}
        for k, v in state.pvars[p].items():
            decl = rules.variables.get(k)
            if decl is not None and decl.visibility != "public" and hide and (
                    decl.visibility == "hidden" or viewer != p):
                continue
            pv[k] = serialize(v)
        players.append({"seat": p, "name": rules.seat_name(p), **pv})
    gvars = {k: serialize(v) for k, v in state.vars.items()
             if not (hide and k in rules.variables and rules.variables[k].visibility != "public")}
    c = state.cursor
    out: dict[str, Any] = {
        "game": rules.name, "round": c.round, "turn": c.turn, "current": c.current,
        "phase": rules.phases[c.phase].name if c.phase < len(rules.phases) else None,
        "zones": zones, "players": players, "vars": gvars,
        "removed": len(state.contents(BOX)),
    }
    if viewer is not None:
        out["viewer"] = viewer
    if state.outcome is not None:
        o = state.outcome
        out["outcome"] = {"end": o.end, "winners": o.winners, "scores": serialize(o.scores)}
    return out
