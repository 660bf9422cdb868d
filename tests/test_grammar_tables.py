"""The grammar's LALR tables shipped as JSON (rulespec/grammar_tables.py): current, equivalent, and optional.

A parser loaded from `grammar/tables.json` must parse every bundled spec to the same AST and word every
syntax error the same as one built from the grammar; tables built from another grammar, or a damaged file,
must be ignored (the parser is then built as before).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from orrery.rulespec import grammar_tables, parser
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

GAMES = sorted((Path(__file__).resolve().parents[1] / "games").glob("*/rules.yaml"))
BAD = ["a +", "(x", "if x then", "count(p for p in)", "a == == b", "x.", "[1, 2", "3 +* 4", "not", "a b"]
BAD_EFFECTS = ["if x { y = 1", "choose from [1]", "let = 3", "move a to", "for x in { }", "say", "x += "]


@pytest.fixture()
def built(monkeypatch):
    """The parsers built from the grammar, as if no tables were shipped."""
    parser._parser.cache_clear()
    monkeypatch.setattr(grammar_tables, "load", lambda start, wanted, postlex: None)
    yield
    parser._parser.cache_clear()


def _asts() -> dict:
    out = {}
    for rules in GAMES:
        spec = load_spec(rules, check=False)
        out[rules.parent.name] = (dict(spec.exprs), dict(spec.effects))
    return out


def _errors() -> list[str]:
    out = []
    for text in BAD:
        with pytest.raises(SpecError) as err:
            parser.parse_expr(text)
        out.append(str(err.value))
    for text in BAD_EFFECTS:
        with pytest.raises(SpecError) as err:
            parser.parse_block(text)
        out.append(str(err.value))
    return out


def test_the_shipped_tables_were_built_from_this_grammar():
    for start in parser.STARTS:
        entry = grammar_tables._shipped().get(start)
        assert entry is not None and entry["key"] == grammar_tables.key(parser.grammar_text(), start,
                                                                         parser._OPTIONS), (
            f"grammar/tables.json is stale for {start}: run `python -m orrery.rulespec.parser`")


def test_the_parsers_in_use_are_the_shipped_ones():
    parser._parser.cache_clear()
    assert all(parser._parser(s).source_path == "<deserialized>" for s in parser.STARTS)


def test_loaded_and_built_parsers_give_the_same_asts_and_the_same_errors(request):
    parser._parser.cache_clear()
    loaded_asts, loaded_errors = _asts(), _errors()
    request.getfixturevalue("built")
    assert all(parser._parser(s).source_path != "<deserialized>" for s in parser.STARTS)
    assert _asts() == loaded_asts
    assert _errors() == loaded_errors
    assert sum(len(e) + len(x) for e, x in loaded_asts.values()) > 250  # the corpus: every expression and effect of every bundled spec


@pytest.mark.parametrize("damage", ["stale key", "damaged tables", "missing start"])
def test_tables_that_do_not_fit_are_ignored(monkeypatch, damage):
    start = "expr_start"
    wanted = grammar_tables.key(parser.grammar_text(), start, parser._OPTIONS)
    entry = dict(grammar_tables._shipped()[start])
    if damage == "stale key":
        entry["key"] = grammar_tables.key(parser.grammar_text() + "\n// edited", start, parser._OPTIONS)
    elif damage == "damaged tables":
        entry["tables"] = {"d": [["data", {"d": []}]]}
    shipped = {} if damage == "missing start" else {start: entry}
    monkeypatch.setattr(grammar_tables, "_shipped", lambda: shipped)
    assert grammar_tables.load(start, wanted, parser._PostLex()) is None
    parser._parser.cache_clear()
    try:
        assert parser.parse_expr("1 + 2 * x") == parser.parse_expr("1 + (2 * x)")  # built: still parses
        assert parser._parser(start).source_path != "<deserialized>"
    finally:
        parser._parser.cache_clear()


def test_a_write_is_the_same_bytes_as_the_shipped_file(tmp_path):
    """The tables are numbered by content (grammar_tables.canonical): writing them again changes nothing."""
    fresh = tmp_path / grammar_tables.FILE
    grammar_tables.write(parser.build_parser, parser.STARTS, fresh)
    shipped = Path(parser.__file__).resolve().parents[1] / "grammar" / grammar_tables.FILE
    assert fresh.read_bytes() == shipped.read_bytes()
