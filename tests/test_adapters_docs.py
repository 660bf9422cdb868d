"""Every Python example of docs/adapters.md runs (skipped where the framework it imports is not installed)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "adapters.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
NEEDS = {"pyspiel": "pyspiel", "pettingzoo": "pettingzoo", "gymnasium": "gymnasium", "ray": "ray"}
ADAPTER_NEEDS = {"openspiel": "pyspiel"}  # orrery.adapters.NAME -> the module it imports (else NAME)


def test_the_guide_has_examples():
    assert len(EXAMPLES) >= 1


@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example-{i + 1}" for i in range(len(EXAMPLES))])
def test_example_runs(code):
    for word, module in NEEDS.items():
        if re.search(rf"^\s*(import|from)\s+{word}\b", code, re.M) and importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module}")
    for name in re.findall(r"orrery\.adapters(?:\.|\s+import\s+)(\w+)", code):  # an adapter needs its framework
        for module in ("numpy", ADAPTER_NEEDS.get(name, name)):
            if importlib.util.find_spec(module) is None:
                pytest.skip(f"needs {module} (pip install orrery[adapters])")
    exec(compile(code, str(DOC), "exec"), {"__name__": "__adapters_doc__"})
