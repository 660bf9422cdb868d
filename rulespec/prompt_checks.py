"""Decisions without a question of their own: the checker's warnings (docs/dsl.md 5.1).

Every decision a player answers shows a question.  A `choose`, a `for ... chosen by`, a `commit` or an
action's parameter written without a `prompt` asks in words made from its variable's name
(rulespec/wording.py: `choose to cell`, `which col next?`): the spec's identifier, not a question a player
understands.  Each is warned once, located at its statement (or its parameter), with the question it
would ask.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .wording import choice_prompt, commit_prompt, loop_prompt, param_prompt, spoken

HINT = 'give it a question in the players\' words: `prompt "Which card do you keep?"` (a text, or an expression giving one)'


def prompt_findings(ch: Any) -> None:
    """Warn, with the checker `ch`, about every decision that would ask in its variable's name."""
    seen: set[int] = set()
    for block in ch.spec.effects.values():
        for node in block.walk():
            fallback = _fallback(node)
            if fallback is None or id(node) in seen:
                continue
            seen.add(id(node))
            what, asked = fallback
            ch.warning(node.span, f"this {what} has no prompt: players would be asked '{asked}'", HINT)
    for name, action in ch.m.actions.items():
        label = action.label or spoken(name)
        for pname, param in action.params.items():
            if param.prompt is None:
                ch.warning(ch.key("actions", name, "params", pname),
                           f"the parameter '{pname}' of action '{name}' has no prompt: players would be asked "
                           f"'{param_prompt(label, pname)}'", HINT)


def _fallback(node: A.Node) -> tuple[str, str] | None:
    """(what the decision is, the question it would ask) for a decision written without a prompt, else None."""
    if isinstance(node, A.Choose) and node.prompt is None:
        return f"`choose {node.var}`", choice_prompt(node.var)
    if isinstance(node, A.Commit) and node.prompt is None:
        return f"`commit {node.var}`", commit_prompt(node.var)
    if isinstance(node, A.For) and node.chooser is not None and node.prompt is None:
        return f"`for {node.var} ... chosen by`", loop_prompt(node.var)
    return None


__all__ = ["prompt_findings", "HINT"]
