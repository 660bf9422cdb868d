"""The generated flow of a spec (compiler/flowgen.py), linked to the engine and run as the flow frame.

`compiled_flow_frame(rules)` returns a subclass of FlowFrame whose `step` is the spec's generated FLOW
loop; everything else (`resume`, `copy`, the rare stages of a round) is the reference frame's.  The class
keeps the name FlowFrame: the continuation is the same data on both engines (Position.frames_view and
the digest name a frame by its class name).
"""

from __future__ import annotations

from typing import Any

from ..compiler.flowgen import RUNTIME, FlowSource, flow_source
from ..compiler.link import link
from ..core.piecestate import reset_state
from ..core.decisions import Decision, GameEnded, Option, RequireFailed, RuleError, RunawayError
from ..core.values import Player, Record
from .flow import DONE, ENDS_FALSE, TIMINGS, ends_of, only_anytime, parameter_menus, turn_order
from .flowframe import _STAGES, FlowFrame, _next_turn
from .frames import emit, run_block, settle
from ..reference.costs import step_note
from ..reference.effects import action_refusal, check_action

def _flow_runaway(pos: Any) -> None:
    """The reference frame's message (FlowFrame.step) when the flow never asks anybody anything."""
    limit = pos.it.limits.flow
    raise RunawayError(f"the flow went through {limit} stages without asking any player anything "
                       f"(limit flow); is an end condition missing? Raise it with --limit flow=N",
                       pos.it.r.spec.span("flow"))


def _not_bool(it: Any, v: Any, node: Any) -> None:
    """Interp.truth's error for a condition that is neither true nor false."""
    raise RuleError(f"condition must be true or false, got {it.describe(v)}", node.span)


_HELPERS: dict[str, Any] = {
    "RUN_BLOCK": run_block, "EMIT": emit, "SETTLE": settle, "CHECK_ACTION": check_action,
    "PARAMETER_MENUS": parameter_menus, "NEXT_TURN": _next_turn, "TURN_ORDER": turn_order, "OPTION": Option,
    "DECISION": Decision, "RECORD": Record, "PLAYER": Player, "REQUIRE_FAILED": RequireFailed, "DONE": DONE,
    "FLOW_RUNAWAY": _flow_runaway, "GENERIC": _STAGES, "LEN": len, "SET": set, "GAME_ENDED": GameEnded,
    "ENDS_FALSE": ENDS_FALSE, "TUPLE": tuple, "SORTED": sorted, "NOT_BOOL": _not_bool, "RESET_STATE": reset_state,
    "ONLY_ANYTIME": only_anytime,
    "STEP_NOTE": step_note, "ACTION_REFUSAL": action_refusal,
}
if set(_HELPERS) != set(RUNTIME):  # (a generator naming a helper the engine does not link: a bug, found at import)
    raise RuntimeError(f"the generated flow's runtime names and the linked helpers differ: "
                       f"{sorted(set(_HELPERS) ^ set(RUNTIME))}")


def link_flow(fs: FlowSource, fns: dict[int, Any] | None = None) -> dict[str, Any]:
    """Run the generated source (compiler/link.py) in a namespace of the helpers, its constants and its
    conditions' compiled functions (`fns`: the spec module's, by node; a condition without one is
    evaluated as Interp.ev would)."""
    ns: dict[str, Any] = {"__builtins__": {}}
    ns.update(_HELPERS)
    for i, value in enumerate(fs.consts):
        ns[f"K{i}"] = value
    for i, node in enumerate(fs.conds):
        ns[f"C{i}"] = (fns or {}).get(id(node)) or _evaluated(node)
    return link(fs.source, "flow", ns)


def _evaluated(node: Any) -> Any:
    """A condition's function `(it, env)` through the engine's evaluator (no compiled function for it)."""
    return lambda it, env: it.ev(node, env)


def compiled_flow_frame(rules: Any) -> tuple[type, FlowSource]:
    """The flow frame class running this spec's generated flow, and the generated source."""
    fs = flow_source(rules, {timing: ends_of(rules, timing) for timing in TIMINGS})
    compiled = getattr(rules, "compiled", None)  # (Game sets it before asking for the flow)
    ns = link_flow(fs, compiled.fns if compiled is not None else None)
    cls = type("FlowFrame", (FlowFrame,), {"__slots__": (), "step": ns["FLOW"],
                                           "__doc__": "The spec's generated flow (engine/flowcompiled.py)."})
    return cls, fs


__all__ = ["compiled_flow_frame", "link_flow"]
