"""Tests for rulespec.source: safe YAML loading with spans for every value."""

from __future__ import annotations

import pytest

from orrery.rulespec.errors import LimitError, SpecError, Span
from orrery.rulespec.source import SourceDoc, YamlLimits, load_yaml

SPEC = """\
# a comment line
name: demo
players:
  - name: Ann
    score: 3
  - {name: Bob, score: 4}
rules:
  when: x + y
  single: 'a + b'
  double: "p + q"
  anchored: &a c + d
  body: |
    x + y
    z * w
  kept: |+
    k + l

  indented: |2
      m + n
  folded: >
    one two
    three y
"""


@pytest.fixture()
def doc() -> SourceDoc:
    return load_yaml("spec.yaml", text=SPEC)


def test_data_is_plain_python(doc: SourceDoc) -> None:
    assert doc.path == "spec.yaml"
    assert doc.data["players"][1] == {"name": "Bob", "score": 4}
    assert doc.data["rules"]["body"] == "x + y\nz * w\n"
    assert doc.data["rules"]["indented"] == "  m + n\n"
    assert doc.data["rules"]["folded"] == "one two three y\n"


@pytest.mark.parametrize(
    "path, expected",
    [
        ((), (2, 1)),
        (("name",), (2, 7, 2, 11)),
        (("players",), (4, 3)),
        (("players", 0), (4, 5)),
        (("players", 0, "score"), (5, 12, 5, 13)),
        (("players", 1, "name"), (6, 12, 6, 15)),
        (("rules", "double"), (10, 11, 10, 18)),
        # unknown paths fall back to the nearest known ancestor
        (("players", 0, "missing"), (4, 5)),
        (("players", 7, "name"), (4, 3)),
        (("nope", "deeper"), (2, 1)),
    ],
)
def test_span_of_values(doc: SourceDoc, path: tuple, expected: tuple) -> None:
    span = doc.span(path)
    assert span.file == "spec.yaml"
    assert (span.line, span.col, span.end_line, span.end_col)[: len(expected)] == expected


@pytest.mark.parametrize(
    "path, expected",
    [
        (("name",), Span("spec.yaml", 2, 1, 2, 5)),
        (("players", 0, "score"), Span("spec.yaml", 5, 5, 5, 10)),
        (("players", 1, "score"), Span("spec.yaml", 6, 17, 6, 22)),
        (("players", 0), None),  # a list item, not a mapping entry
        (("players", 0, "missing"), None),
        ((), None),
    ],
)
def test_key_span(doc: SourceDoc, path: tuple, expected: Span | None) -> None:
    assert doc.key_span(path) == expected


@pytest.mark.parametrize(
    "key, line, col, file_line, file_col",
    [
        ("when", 1, 5, 8, 13),  # plain scalar: the `y` of `x + y`
        ("single", 1, 5, 9, 16),  # single-quoted: shifted by the quote
        ("double", 1, 5, 10, 16),  # double-quoted
        ("anchored", 1, 5, 11, 20),  # the anchor is skipped
        ("body", 1, 5, 13, 9),  # literal block, first line
        ("body", 2, 5, 14, 9),  # literal block, second line: the `w` of `z * w`
        ("kept", 1, 5, 16, 9),  # `|+`
        ("indented", 1, 5, 19, 9),  # `|2`: explicit indent keeps two extra spaces in the value
        ("folded", 1, 5, 21, 9),  # folded: best effort, first line
        ("folded", 1, 15, 22, 11),  # folded: `y` on the second source line
    ],
)
def test_text_span_maps_into_the_file(doc: SourceDoc, key: str, line: int, col: int,
                                      file_line: int, file_col: int) -> None:
    span = doc.text_span(("rules", key), line, col)
    assert (span.line, span.col) == (file_line, file_col)
    assert SPEC.splitlines()[file_line - 1][file_col - 1] == doc.data["rules"][key].split("\n")[line - 1][col - 1]


def test_text_span_end_and_position_from_lark(doc: SourceDoc) -> None:
    lark = pytest.importorskip("lark")
    parser = lark.Lark(
        r"""
        start: line+
        line: NAME OP NAME
        OP: "+" | "*"
        %import common.CNAME -> NAME
        %import common.WS
        %ignore WS
        """
    )
    tree = parser.parse(doc.data["rules"]["body"])
    tok = tree.children[1].children[2]  # `w` on the block's second line
    assert (tok, tok.line, tok.column) == ("w", 2, 5)
    span = doc.text_span(("rules", "body"), tok.line, tok.column, tok.end_line, tok.end_column)
    assert span == Span("spec.yaml", 14, 9, 14, 10)


def test_text_span_on_non_string_falls_back_to_value_span(doc: SourceDoc) -> None:
    assert doc.text_span(("players", 0), 1, 1) == doc.span(("players", 0))
    assert doc.text_span(("rules", "missing"), 1, 1) == doc.span(("rules",))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("on: 1\nyes: 2\n1: 3\n~: 4\n", {"on": 1, "yes": 2, "1": 3, "~": 4}),
        # YAML 1.2: `yes` is text, `true` a boolean
        ("a: yes\nb: ~\nc: 0x10\nd: 1.5\ne: '3'\nf: !!str 4\ng: 2024-01-01\nh: true\n",
         {"a": "yes", "b": None, "c": 16, "d": 1.5, "e": "3", "f": "4", "g": "2024-01-01", "h": True}),
        ("base: &b {x: 1, y: 2}\nmore:\n  <<: *b\n  y: 3\n", {"base": {"x": 1, "y": 2}, "more": {"x": 1, "y": 3}}),
        ("a: &l [1, 2]\nb: *l\n", {"a": [1, 2], "b": [1, 2]}),
    ],
)
def test_scalars_keys_and_aliases(text: str, expected: dict) -> None:
    assert load_yaml("t.yaml", text=text).data == expected


def test_aliases_are_copied_not_shared() -> None:
    data = load_yaml("t.yaml", text="a: &l [1]\nb: *l\n").data
    data["a"].append(2)
    assert data["b"] == [1]


def test_merged_values_keep_their_source_spans() -> None:
    doc = load_yaml("t.yaml", text="base: &b {x: 1}\nmore:\n  <<: *b\n  y: 2\n")
    assert (doc.span(("more", "x")).line, doc.span(("more", "x")).col) == (1, 14)
    assert doc.key_span(("more", "y")) == Span("t.yaml", 4, 3, 4, 4)


def _bomb(levels: int) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [{', '.join(['*' + prev] * 9)}]")
    return "\n".join(lines) + "\n"


# (text, limits, error type, line, col, message fragment)
ERROR_CASES = [
    pytest.param("", None, SpecError, 1, 1, "expected a mapping at the top of the file", id="empty"),
    pytest.param("# only a comment\n", None, SpecError, 1, 1, "expected a mapping at the top", id="comment-only"),
    pytest.param("- a\n- b\n", None, SpecError, 1, 1, "expected a mapping at the top of the file, found a list",
                 id="list-top"),
    pytest.param("\n  just text\n", None, SpecError, 2, 3, "found a single value", id="scalar-top"),
    pytest.param("a: 1\nb: 2\na: 3\n", None, SpecError, 3, 1, "duplicate key 'a' (first defined at 1:1)",
                 id="duplicate-key"),
    pytest.param("x:\n  k: 1\n  'k': 2\n", None, SpecError, 3, 3, "duplicate key 'k' (first defined at 2:3)",
                 id="duplicate-quoted-key"),
    pytest.param("cmd: !!python/object/apply:os.system [echo hi]\n", None, SpecError, 1, 6,
                 "tag '!!python/object/apply:os.system' is not allowed: specs are data, not code", id="python-tag"),
    pytest.param("a:\n  b: !!set {x: null}\n", None, SpecError, 2, 6, "tag '!!set' is not allowed", id="set-tag"),
    pytest.param("a: !custom 3\n", None, SpecError, 1, 4, "tag '!custom' is not allowed", id="local-tag"),
    pytest.param("a: !!int twelve\n", None, SpecError, 1, 4, "cannot read 'twelve' as !!int", id="bad-int"),
    pytest.param("a: 1\nb: [1, 2\nc: 3\n", None, SpecError, 3, 2, "YAML syntax error:", id="unclosed-flow"),
    pytest.param("a: 1\n b: 2\n", None, SpecError, 2, 3,
                 "YAML syntax error: mapping values are not allowed here", id="bad-indent"),
    pytest.param("a: *nowhere\n", None, SpecError, 1, 4, "found undefined alias", id="undefined-alias"),
    pytest.param("a: &x 1\nb: &x 2\n", None, SpecError, 2, 4, "duplicate anchor 'x'", id="duplicate-anchor"),
    pytest.param("a:\n  <<: 3\n", None, SpecError, 2, 7, "'<<' (merge key) needs a mapping", id="bad-merge"),
    pytest.param("a: !!str {b: 1}\n", None, SpecError, 1, 4, "tag '!!str' cannot be used on a mapping",
                 id="tag-kind-mismatch"),
    pytest.param("a: 1\n---\nb: 2\n", None, SpecError, 2, 1, "only one YAML document per file", id="two-docs"),
    pytest.param("a: &x [1, *x]\n", None, SpecError, 1, 4, "recursive alias", id="recursive-alias"),
    pytest.param("a: 1\nb: \x07\n", None, SpecError, 2, 4, "not allowed in YAML", id="control-char"),
    pytest.param(_bomb(9), None, LimitError, 1, 1,
                 "YAML document expands to more than 1000000 nodes (limit yaml_nodes); "
                 "raise it with --limit yaml_nodes=N", id="billion-laughs"),
    pytest.param("a: [1, [2, [3]]]\n", YamlLimits(max_nodes=6), LimitError, 1, 1, "more than 6 nodes",
                 id="node-limit"),
    # Depth counts collections: the top mapping is level 1, so level 101 is the 100th `[` (column 103).
    pytest.param("a: " + "[" * 120 + "]" * 120 + "\n", None, LimitError, 1, 103,
                 "nesting deeper than 100 levels (limit yaml_depth)", id="deep-text"),
    pytest.param("a:\n  b:\n    c: 1\n", YamlLimits(max_depth=2), LimitError, 3, 5, "nesting deeper than 2 levels",
                 id="deep-block"),
    # l4 -> l3 -> l2 -> l1 expands to 5 levels; the first node past level 3 is l2's list (its anchor at 2:5).
    pytest.param("l1: &l1 [x]\nl2: &l2 [*l1]\nl3: &l3 [*l2]\nl4: [*l3]\n", YamlLimits(max_depth=3), LimitError,
                 2, 5, "nesting deeper than 3 levels", id="deep-through-aliases"),
    pytest.param("a: 12345\n", YamlLimits(max_bytes=5), LimitError, 1, 1, "larger than 5 bytes (limit yaml_bytes)",
                 id="too-big"),
]


@pytest.mark.parametrize("text, limits, error, line, col, fragment", ERROR_CASES)
def test_errors_are_located_findings(text: str, limits: YamlLimits | None, error: type,
                                     line: int, col: int, fragment: str) -> None:
    with pytest.raises(error) as info:
        load_yaml("bad.yaml", text=text, limits=limits)
    assert type(info.value) is error
    first = info.value.findings[0]
    assert first.span is not None and first.span.file == "bad.yaml"
    assert (first.span.line, first.span.col) == (line, col)
    assert fragment in first.message


def test_all_findings_are_reported_at_once() -> None:
    with pytest.raises(SpecError) as info:
        load_yaml("bad.yaml", text="a: 1\na: 2\nb: !!python/name:os.system ''\nc: {x: 1, x: 2}\n")
    where = [(f.span.line, f.span.col) for f in info.value.findings]
    assert where == [(2, 1), (3, 4), (4, 11)]


def test_duplicate_in_aliased_mapping_reported_once() -> None:
    with pytest.raises(SpecError) as info:
        load_yaml("bad.yaml", text="a: &m {k: 1, k: 2}\nb: *m\nc: *m\n")
    assert len(info.value.findings) == 1


def test_render_has_caret_snippet_for_in_memory_text() -> None:
    with pytest.raises(SpecError) as info:
        load_yaml("mem-only.yaml", text="a: 1\na: 2\n")
    assert "mem-only.yaml:2:1: error: duplicate key 'a'" in info.value.render()
    assert "    2 | a: 2" in info.value.render()


def test_reads_files(tmp_path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text("\ufeffname: demo\nx: [1]\n", encoding="utf-8")
    doc = load_yaml(path)
    assert doc.path == str(path)
    assert doc.data == {"name": "demo", "x": [1]}
    assert doc.span(("x", 0)) == Span(str(path), 2, 5, 2, 6)


def test_non_utf8_file(tmp_path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"a: 1\nname: caf\xe9\n")
    with pytest.raises(SpecError) as info:
        load_yaml(path)
    f = info.value.findings[0]
    assert (f.span.line, f.span.col) == (2, 10)
    assert "file is not valid UTF-8 (byte 0xe9 at offset 14)" in f.message


@pytest.mark.parametrize(
    "make, fragment",
    [
        (lambda p: p, "is a directory"),
        (lambda p: p / "missing.yaml", "file not found"),
    ],
    ids=["directory", "missing"],
)
def test_unreadable_paths(tmp_path, make, fragment: str) -> None:
    target = make(tmp_path)
    with pytest.raises(SpecError) as info:
        load_yaml(target)
    f = info.value.findings[0]
    assert f.span == Span(str(target), 1, 1)
    assert fragment in f.message


def test_file_size_limit(tmp_path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 100 + "\n")
    with pytest.raises(LimitError) as info:
        load_yaml(path, limits=YamlLimits(max_bytes=50))
    assert (info.value.findings[0].span.line, info.value.findings[0].span.col) == (1, 1)
