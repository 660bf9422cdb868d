"""Every Python package folder of the checkout is installed: pyproject.toml lists it (a non-editable install,
as the README's commands make, leaves out any package it does not list)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = {"orrery_pkg": "orrery", "grammar": "orrery.grammar", "rulespec": "orrery.rulespec",
       "interpreter": "orrery.interpreter", "games": "orrery.games"}


def test_every_package_folder_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = set()
    for folder, name in TOP.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]))
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
