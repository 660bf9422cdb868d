"""The generated steps of a spec's effects and actions (compiler/effectgen.py), linked to the engine.

`link_frames(module)` binds the engine's helpers into the compiled module's namespace and makes, per
block that may ask, loop that may ask, action and event whose triggers may ask, a subclass of the
reference frame (BlockFrame; WhileFrame, RepeatFrame, ForFrame, ChosenOrderFrame; ActionFrame;
EmitFrame) whose `step` is the generated one; everything else (`resume`, `copy`, the slots) is the
reference frame's.  The classes keep the reference's names: the continuation is the same data on both
engines (Position.frames_view and the digest name a frame by its class name).  run_block, perform and
emit (engine/frames.py) push these classes on the fast path; the loops' classes are bound by name for
the block steps that push them.
"""

from __future__ import annotations

from typing import Any

from ..compiler.effectgen import RUNTIME, STARTED
from ..core.uses import count_use, use_of
from ..core.values import Record
from ..core import causes
from ..reference.costs import late_notes, pay
from ..reference.effects import _filter, check_action, enter_call, fires, for_items, in_phase, spent_values
from .abilityframes import UseFrame  # noqa: F401 (imported for its starter: START gets FR_START_Use from it)
from .commit import CommitFrame  # noqa: F401 (imported for its starter: START gets FR_START_Commit from it)
from .frames import (_CALL, START, ActionFrame, BlockFrame, ChooseFrame, ChosenOrderFrame, EmitFrame, ForFrame,
                     RepeatFrame, WhileFrame, ask_value, emit, loop_question, repeat_count, run_block, seat_of)

_HELPERS: dict[str, Any] = {
    "FR_ASK": ask_value, "FR_CHOSEN": ChooseFrame, "FR_FILTER": _filter, "FR_ENTER": enter_call, "FR_CALL": _CALL,
    "FR_PUSH": run_block, "FR_CHECK": check_action, "FR_PAY": pay, "FR_EMIT": emit, "FR_RECORD": Record,
    "FR_MIDRUN": BlockFrame.step, "FR_INT": int, "FR_SEAT": seat_of, "FR_LOOP_Q": loop_question,
    "FR_COUNT": repeat_count, "FR_FOR_ITEMS": for_items, "FR_USE": count_use,
    "FR_FIRES": fires, "FR_NOTES": late_notes, "FR_IN_PHASE": in_phase, "FR_USE_OF": use_of, "FR_SPENT": spent_values,
    "FR_CAUSE_IN": lambda it, record, trig: causes.enter(it, causes.of_event_trigger(it, record, trig)),
    "FR_CAUSE_OUT": lambda it, record: causes.enter(it, record["cause"]),
}
_HELPERS.update({f"FR_START_{name}": fn for stmt, fn in START.items() if (name := stmt.__name__) in STARTED})
if set(_HELPERS) != set(RUNTIME):  # (a generator naming a helper the engine does not link: a bug, found at import)
    raise RuntimeError(f"the generated steps' runtime names and the linked helpers differ: "
                       f"{sorted(set(_HELPERS) ^ set(RUNTIME))}")


_LOOPS = {"While": WhileFrame, "Repeat": RepeatFrame, "For": ForFrame, "ChosenOrder": ChosenOrderFrame}


def link_frames(module: Any) -> None:
    """Bind the helpers into the module's namespace and make its frame classes (once per module)."""
    if "FR_ASK" in module.namespace:
        return  # (linked already)
    module.namespace.update(_HELPERS)
    doc = "A {} whose step is generated per spec (compiler/effectgen.py)."
    for key, step in module.block_steps.items():
        module.block_frames[key] = type("BlockFrame", (BlockFrame,), {
            "__slots__": (), "step": step, "__doc__": doc.format("block that may ask")})
    for kind, step in module.loop_steps.values():  # (bound by name: the block steps push them directly)
        base = _LOOPS[kind]
        module.namespace[f"C_{step.__name__}"] = type(base.__name__, (base,), {
            "__slots__": (), "step": step, "__doc__": doc.format("loop whose body may ask")})
    for event, step in module.event_steps.items():
        module.event_frames[event] = type("EmitFrame", (EmitFrame,), {
            "__slots__": (), "step": step, "__doc__": doc.format("event whose triggers may ask")})
    for name, step in module.action_steps.items():
        module.action_frames[name] = type("ActionFrame", (ActionFrame,), {
            "__slots__": (), "step": step, "__doc__": doc.format("performed action")})


__all__ = ["link_frames"]
