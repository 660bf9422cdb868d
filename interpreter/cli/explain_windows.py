"""The "Reaction windows" section of `orrery explain`: who may answer what, when, in which order, until when.

Kept apart from explain.py (near its size limit); it uses the same context (`_Ctx`: the spec and a phraser).
"""

from __future__ import annotations

from typing import Any

from .explain_prose import words

_POLL = {"turn_order": "in turn order from the player after the one who opened it",
         "as_listed": "in the order listed"}
_CLOSES = {"all_passed": "until everyone has passed since the last action taken in it",
           "first_taken": "until one of them takes an action (or all pass)",
           "each_once": "once each"}


def windows_section(c: Any, said: Any, stop: Any) -> list[str]:
    """Each window: when it opens, who is asked and how, what they may do; `said`/`stop` format the author's
    passage and description as the other sections do."""
    m = c.model
    if not m.windows:
        return []
    out = ["## Reaction windows", "While a move is being made, other players may answer it; `pass` is always "
                                  "an answer."]
    for name, w in m.windows.items():
        out += ["", f"### {words(name).capitalize()}"]
        out += [stop(w.description)] if w.description else []
        out += [f"> {said(w.rule)}"] if w.rule else []
        opens = f"after the event “{words(w.after)}”" if w.after else f"when a rule opens “{words(name)}”"
        when = c.cond("windows", name, "when", current="the current player")
        opens += f", if {when}" if when else ""
        who = c.value("windows", name, "who", current="the current player") or "every other player"
        labels = [m.actions[a].label or words(a) for a in w.actions if a in m.actions]
        out.append(f"- Opens {opens}.")
        out.append(f"- Asks {who}, {_POLL[w.poll]}, {_CLOSES[w.closes]}: “{w.prompt or words(name)}”.")
        out.append(f"- Answers: {', '.join(labels + ['pass'])}; the one answering acts (“you” in the action).")
        out.append("- Everyone is asked, even with nothing to do but pass." if w.ask == "always"
                   else "- A player who could only pass is not asked.")
    return out


__all__ = ["windows_section"]
