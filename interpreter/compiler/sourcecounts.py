"""What a game's generated source still does generically: class checks, general helper calls, env lookups.

`orrery compile GAME` and `orrery bench --report` count them in the module and the flow, typed (typedgen.py)
and untyped (codegen.py alone), and tests/test_typedgen.py holds the classic games to a recorded budget.
Counted:

- class checks: `.__class__ is`, `.__class__ in`, `isinstance(`;
- general helper calls: the fastlib helpers that find out what their values are (`ADD`, `EQ`, `GA`, `TB`, ...)
  and the statement helpers that do (`SETG`, `CREATE`, ...), and calls of helpers bound as constants
  (`K12(it, ...)`: a fast built-in or a geometry table's miss handler);
- env lookups: `env[...]`.

Not counted: the rare paths the typed code takes only past a limit, for an error or for a value the tables
do not hold (`XADD`, `XGA`, `XCELL`, `XCB`, ...: an `X` before the helper's name), an unknown name's error
(`UNK`), and the loop limit's charges (`TK`, `SPENT`, `T_SPEND`, ...).
"""

from __future__ import annotations

import re
from typing import Any

GENERAL = ("ADD", "SUB", "LT", "LE", "GT", "GE", "AR", "EQ", "IN", "NOT", "NEG", "TB", "GA", "IX", "IT", "CB",
           "CF", "NEST", "NESTF", "SETG", "CMB", "CREATE", "ASSIGNA", "MOVETO", "DESTROY", "CALLW", "PIECES",
           "RPT")
_HELPER = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(GENERAL) + r")\(|(?<![A-Za-z0-9_])K[0-9]+\(it,")
_CLASS = re.compile(r"\.__class__ (?:is|in)\b|(?<![A-Za-z0-9_])isinstance\(")
_ENV = re.compile(r"(?<![A-Za-z0-9_])env\[")


def counts(source: str) -> dict[str, int]:
    """{class_checks, helper_calls, env_lookups} of generated source."""
    return {"class_checks": len(_CLASS.findall(source)), "helper_calls": len(_HELPER.findall(source)),
            "env_lookups": len(_ENV.findall(source))}


__all__ = ["GENERAL", "counts"]
