"""Pieces' abilities in generated specs (docs/dsl.md 2.23), added by specgen.specs(): the counted `chip`s are
live in their owner's `hand` and carry `on:` abilities (on `ping` when some effect emits it, else on the
built-in `action` event; sometimes with `max_fires`, a `when`, an order the owner chooses), a `modify:` of
the quantity `fee(k)` when the spec has one, and a `play:` with an empowered part that an action runs with
`use`.  The templates only change variables, so they cannot refuse a move nor loop."""

from __future__ import annotations

from typing import Any


def add_abilities(g: Any, spec: dict[str, Any]) -> None:
    """Give the chips abilities (and the spec its effect catalogue), sometimes."""
    if not g.on("abilities") or not g.chance(0.4):
        return
    event = "ping" if g.emits else "action"
    spec["effects"] = {
        "bump": {"params": {"who": "player", "n": "int"}, "effect": "who.score += n\ng += 1"},
        "note": {"params": {"what": "str"}, "effect": "log += [what]"},
    }
    chip = spec["components"]["pieces"]["chip"]
    chip["active_in"] = ["hand"]
    ability: dict[str, Any] = {"on": event, "do": g.pick(["bump(owner, self.power)", "note(\"chip\")",
                                                         ["note(\"a\")", "bump(current, 1)"]])}
    if g.chance(0.3):
        ability["when"] = g.pick(["self.power > 1", "owner == current", "g % 2 == 0"])
    if g.chance(0.3):
        ability["max_fires"] = {"times": 1, "per": g.pick(["turn", "round", "game"])}
    abilities: list[dict[str, Any]] = [ability]
    if g.has_quantity and g.chance(0.5):
        abilities.append({"modify": "fee", "when": g.pick(["k % 2 == 1", "true", "owner == players[0]"]),
                          g.pick(["add", "set"]): str(g.num(0, 2))})
    chip["abilities"] = abilities
    if g.chance(0.5):  # one row adds its own, after the kind's
        chip["instances"][1]["abilities"] = [{"on": event, "do": "note(\"two\")"}]
    if g.chance(0.4):  # a play the owner may empower, run by an action
        chip["instances"][2]["abilities"] = [{"play": ["bump(owner, 2)"],
                                              "empowered": {"if": "owner.score > 3", "do": ["note(\"more\")"]}}]
        spec["actions"]["play_chip"] = {"params": {"c": {"from": 'pieces(current.hand, kind: "chip")',
                                                         "where": "c.power == 3"}},
                                        "effect": "move c to pile\nuse c.play"}
        for phase in spec["flow"]["phases"]:
            for step in phase.get("steps", []):
                step["actions"] = list(step["actions"]) + ["play_chip"]
                break
            break
    if event == "ping" and "events" not in spec and g.chance(0.5):
        spec["events"] = {"ping": {"order": g.pick(["declared", "owner_chooses"])}}


__all__ = ["add_abilities"]
