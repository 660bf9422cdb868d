"""rulespec/source.py's two readers agree: libyaml's parser (_FastComposer) gives the nodes, marks and data of
ruamel's Python parser (_Composer, the reference) for every text it accepts; what it refuses is read again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode

from orrery.rulespec.errors import LimitError, SpecError
from orrery.rulespec.source import YamlLimits, _Composer, _FastComposer, _load, load_yaml

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for folder in ("games", "tests") for p in (ROOT / folder).rglob("*.yaml"))


def read(cls: type, text: str, name: str = "t.yaml") -> tuple[Any, list[tuple]] | str:
    """The data and every node's kind, tag, marks and style as one reader sees them; or its refusal."""
    loader = cls(text, name, YamlLimits().max_depth)
    try:
        doc = _load(loader, name, text, YamlLimits())
    except (SpecError, LimitError, YAMLError) as err:
        return f"refused: {type(err).__name__}"
    finally:
        loader.dispose()
    return doc.data, shape(doc.root)


def shape(node: Node) -> list[tuple]:
    out: list[tuple] = []
    todo = [node]
    while todo:
        n = todo.pop()
        marks = (n.start_mark.line, n.start_mark.column, n.start_mark.index,
                 n.end_mark.line, n.end_mark.column, n.end_mark.index)
        out.append((type(n).__name__, str(n.tag), marks, getattr(n, "style", None) or None,
                    n.value if isinstance(n, ScalarNode) else None))
        if isinstance(n, MappingNode):
            todo.extend(x for pair in reversed(n.value) for x in reversed(pair))
        elif not isinstance(n, ScalarNode):
            todo.extend(reversed(n.value))
    return out


def agree(text: str) -> None:
    fast = read(_FastComposer, text)
    if isinstance(fast, str):
        return  # (refused: load_yaml reads it again with the reference)
    assert fast == read(_Composer, text)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_yaml_file_of_the_project_reads_the_same(path: Path) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        pytest.skip("not a readable UTF-8 file (a fixture for that)")
    agree(text)


def test_the_bundled_specs_take_the_fast_reader() -> None:
    text = (ROOT / "games" / "tic-tac-toe" / "rules.yaml").read_text(encoding="utf-8")
    assert not isinstance(read(_FastComposer, text), str)
    doc = load_yaml("rules.yaml", text=text)  # marks of ruamel's own class: the spec cache's unpickler makes them
    assert {type(n.start_mark).__module__ for _, n in doc.root.value[:3]} == {"ruamel.yaml.error"}


@pytest.mark.parametrize("text", [
    "a: [1, 2\nb: 3\n",             # an unclosed list
    "a: 1\na: 2\n",                  # a duplicate key (our builder's finding)
    "a: !!python/object:os.system x\n",  # a refused tag
    "a: &x 1\nb: &x 2\n",            # a reused anchor
    "a:\n\t- 1\n",                   # a tab as indentation
    "- 1\n- 2\n",                    # not a mapping
    "a: " + "[" * 120 + "]" * 120 + "\n",  # too deep
])
def test_a_refused_text_says_what_the_reference_says(text: str) -> None:
    with pytest.raises((SpecError, LimitError)) as got:
        load_yaml("t.yaml", text=text)
    with pytest.raises((SpecError, LimitError)) as ref:
        loader = _Composer(text, "t.yaml", YamlLimits().max_depth)
        try:
            _load(loader, "t.yaml", text, YamlLimits())
        finally:
            loader.dispose()
    assert [str(f) for f in got.value.findings] == [str(f) for f in ref.value.findings]


def test_other_line_breaks_are_counted_as_the_reference_counts_them() -> None:
    text = 'a: "x\x85y"\nb: [1,\u2028 2]\nc: x\n'  # NEL and LS: libyaml counts them otherwise
    doc = load_yaml("t.yaml", text=text)
    assert (doc.data, shape(doc.root)) == read(_Composer, text)


SCALARS = st.one_of(
    st.integers(-10**6, 10**6), st.booleans(), st.none(), st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12),
    st.sampled_from(["on", "yes", "no", "0o17", "1_000", "~", "x: y", "- z", "#", "'q'", '"d"', "é😀", "\t"]),
)
DATA = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.text("abcxyz_", min_size=1, max_size=5), kids, max_size=4), max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(data=st.dictionaries(st.text("abc", min_size=1, max_size=3), DATA, min_size=1, max_size=4),
       flow=st.booleans(), crlf=st.booleans(), style=st.sampled_from([None, "'", '"', "|"]))
def test_generated_documents_read_the_same(data: dict, flow: bool, crlf: bool, style: str | None) -> None:
    import io

    from ruamel.yaml import YAML

    out = io.StringIO()
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = flow
    yaml.default_style = style
    yaml.dump(data, out)
    text = out.getvalue().replace("\n", "\r\n") if crlf else out.getvalue()
    agree(text)
