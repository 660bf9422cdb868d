"""The public API's inputs, typed (issue 39.6): a wrong type or an impossible value given to `load_game`,
`Game.new_initial_state`, `Game.state_from_json`, `GameState.apply`, `apply_label` or `view` is an
`OrreryError` (exit 2 from the CLI) that names the argument, never an AttributeError, OverflowError or
TypeError from deep inside.  An answer of the right type that the rules do not allow stays an IllegalMove
(docs/api.md).  The checks run once per call and cost `apply` two identity tests on its success path.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.errors import Finding, InputError, printable

SEED_MAX = 2**64 - 1  # as `--seed` (core/options.py)


def api_error(call: str, message: str) -> InputError:
    """The error of one bad argument: `call` names the function and the argument."""
    return InputError(Finding(None, f"{call}: {printable(message)}"))


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def whole_number(call: str, v: Any, lo: int, hi: int) -> int:
    """`v` if it is a whole number (not a bool) from lo to hi, else the argument's error."""
    if v.__class__ is bool or not isinstance(v, int):
        raise api_error(call, f"must be a whole number, got {_shown(v)}")
    if not lo <= v <= hi:
        raise api_error(call, f"must be from {lo} to {hi}, got {v}")
    return v


def player_count(n: Any, call: str) -> int:
    """`n` if it is a whole number (the game's range is checked by the caller: game.PlayerCountError)."""
    if n.__class__ is bool or not isinstance(n, int):
        raise api_error(call, f"the number of players must be a whole number, got {_shown(n)}")
    return n


def new_state_args(seed: Any, setup: Any) -> None:
    """Check `new_initial_state`'s seed and setup."""
    whole_number("new_initial_state(seed)", seed, -SEED_MAX, SEED_MAX)
    if setup is not None and not isinstance(setup, A.Block):
        raise api_error("new_initial_state(setup)", f"must be a parsed effect block (rulespec.parser.parse_block), "
                                                    f"got {_shown(setup)}")


def variant_list(variants: Any) -> list[Any]:
    """`load_game`'s variants: a list (or tuple) of names or paths; one text would be read letter by letter."""
    if isinstance(variants, (str, bytes)) or not isinstance(variants, (list, tuple)):
        raise api_error("load_game(variants)", f"must be a list of variant names or paths, got {_shown(variants)}")
    for v in variants:
        if not isinstance(v, str) and not hasattr(v, "__fspath__"):
            raise api_error("load_game(variants)", f"each variant is a name or a path, got {_shown(v)}")
    return list(variants)


def answer_index(index: Any) -> None:
    """Why an index that matched no option is bad input rather than an illegal move (wrong type)."""
    if index.__class__ is bool or not isinstance(index, int):
        raise api_error("apply(index)", f"an option's index is a whole number (legal_actions()), got "
                                        f"{_shown(index)}; to answer by label use apply_label")


def answer_label(text: Any) -> None:
    """apply_label takes a text (a label, or a 1-based menu number written as text)."""
    if not isinstance(text, str):
        raise api_error("apply_label(text)", f"must be a text (an option's label or menu number), got "
                                             f"{_shown(text)}; to answer by index use apply")


def viewer(state: Any, player: Any) -> None:
    """`view(player)`: None, or a seat of this game."""
    if player is not None:
        whole_number("view(player)", player, 0, state.num_players - 1)


__all__ = ["api_error", "whole_number", "player_count", "new_state_args", "variant_list",
           "answer_index", "answer_label", "viewer"]
