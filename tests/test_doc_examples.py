"""Every example of docs/dsl.md and docs/design.md runs as its kind asks (tests/doc_examples.py says how).

A deliberately wrong example carries `<!-- example: fails "TEXT" -->` and must be refused with that text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from doc_examples import ROOT, Example, all_examples, fragment_spec, load_yaml, loose_rules, with_fragment
from test_differential import play_lockstep

from orrery.interpreter.cli.validate import validate_path
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import Finding, SpecError
from orrery.rulespec.loader import load_spec
from orrery.rulespec.parser import parse_block, parse_expr

EXAMPLES = all_examples()
NAMED = {e.marks["name"]: e for e in EXAMPLES if e.marks.get("name")}
GAMES = ROOT / "games"


def _context_text(ex: Example) -> str | None:
    """The text of the spec an example is checked against (an earlier example, or a bundled game)."""
    name = ex.marks.get("context")
    if not name:
        return None
    if name in NAMED:
        return NAMED[name].text
    path = GAMES / name / "rules.yaml"
    assert path.is_file(), f"{ex.where}: context '{name}' is neither a named example nor a bundled game"
    return path.read_text(encoding="utf-8")


def _errors(findings: list[Finding]) -> list[str]:
    return [f.headline() + (f"  (hint: {f.hint})" if f.hint else "") for f in findings if f.severity == "error"]


def _outcome(ex: Example, findings: list[Finding]) -> None:
    """Clean, or refused as the example's `fails` mark says."""
    errors = _errors(findings)
    want = ex.marks.get("fails")
    if want is None:
        assert not errors, f"{ex.where}: the example does not validate:\n" + "\n".join(errors)
    else:
        assert errors, f"{ex.where}: the example is marked as failing ({want!r}) but validates"
        assert any(want.lower() in e.lower() for e in errors), \
            f"{ex.where}: refused, but not with {want!r}:\n" + "\n".join(errors)


def _play(path: Path, variants: list[Path] = ()) -> None:
    """A few seeded random games on both engines in lockstep."""
    spec = load_spec(path, list(variants))
    fast, ref = Game(spec, mode="compiled"), Game(spec, mode="interpreted")
    for seed in range(3):
        play_lockstep(fast, ref, ref.rules.default_players, seed=seed, max_steps=40)


def _spec(ex: Example, tmp: Path) -> None:
    path = tmp / "rules.yaml"
    path.write_text(ex.text, encoding="utf-8")
    findings, _ = validate_path(path)
    _outcome(ex, findings)
    if "fails" not in ex.marks:
        _play(path)


def _variant(ex: Example, tmp: Path) -> None:
    base = _context_text(ex)
    assert base is not None, f"{ex.where}: a variant example needs a context (<!-- example: context=GAME -->)"
    (tmp / "rules.yaml").write_text(base, encoding="utf-8")
    data = ex.data
    if "variant" not in data:
        data = {"variant": {"name": "example"}, **data}
    data["variant"]["base"] = "../rules.yaml"
    vpath = tmp / "variants" / "example.yaml"
    vpath.parent.mkdir()
    vpath.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    findings, _ = validate_path(vpath)
    _outcome(ex, findings)
    if "fails" not in ex.marks:
        _play(tmp / "rules.yaml", [vpath])


def _scenario(ex: Example, tmp: Path) -> None:
    path = tmp / "scenarios.yaml"
    path.write_text(ex.text, encoding="utf-8")
    findings, _ = validate_path(path)
    _outcome(ex, findings)


def _fragment(ex: Example, tmp: Path) -> None:
    path = tmp / "rules.yaml"
    context = _context_text(ex)
    findings: list[Finding] = []
    if context is None:  # structure and rule text only: the fragment's names belong to some other spec
        text = fragment_spec(ex)
        try:
            if text:
                path.write_text(text, encoding="utf-8")
                load_spec(path, check=False)
            for kind, rule in loose_rules(ex):
                (parse_block if kind == "effect" else parse_expr)(rule, file=ex.where)
        except SpecError as err:
            findings = err.findings
    else:
        path.write_text(yaml.safe_dump(with_fragment(load_yaml(context), ex), sort_keys=False),
                        encoding="utf-8")
        findings, _ = validate_path(path)
    _outcome(ex, findings)


def _locals(ex: Example) -> dict[str, str]:
    out = {}
    for item in filter(None, ex.marks.get("locals", "").split(",")):
        name, _, typ = item.partition(":")
        out[name.strip()] = typ.strip() or "any"
    return out


def _rules(ex: Example, tmp: Path) -> None:
    from orrery.rulespec.textcheck import check_rule_text

    findings: list[Finding] = []
    exprs, effects = [], []
    try:
        effects.append(parse_block(ex.text, file=ex.where))
    except SpecError as block_error:
        try:  # one expression per line
            exprs = [(line, parse_expr(line, file=ex.where)) for line in ex.text.splitlines()
                     if line.strip() and not line.strip().startswith("#")]
        except SpecError:
            findings = block_error.findings
    context = _context_text(ex)
    if context is not None and not findings:
        path = tmp / "rules.yaml"
        path.write_text(context, encoding="utf-8")
        spec = load_spec(path)
        findings = [f for f in check_rule_text(spec, [], effects, _locals(ex))]
        for line, _ in exprs:  # expressions are values here, not conditions: check each as `let _ = EXPR`
            findings += check_rule_text(spec, [], [parse_block(f"let example_ = {line}", file=ex.where)],
                                        _locals(ex))
    _outcome(ex, findings)


_RUN = {"spec": _spec, "variant": _variant, "scenario": _scenario, "fragment": _fragment, "rules": _rules}


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: e.where)
def test_example(ex: Example, tmp_path: Path):
    _RUN[ex.kind()](ex, tmp_path)


def test_every_document_has_examples():
    by_doc = {e.doc.name for e in EXAMPLES}
    assert by_doc == {"dsl.md", "design.md"}
    assert len(EXAMPLES) > 50


def test_a_wrong_example_is_caught(tmp_path: Path):
    """The harness itself: an example that breaks the rules fails, one marked as failing passes only when
    it is refused with the marked text."""
    bad = Example(ROOT / "docs" / "dsl.md", 1, "yaml", "tables:\n  t: {values: [1], above: sideways}\n")
    with pytest.raises(AssertionError, match="does not validate"):
        _fragment(bad, tmp_path)
    bad.marks["fails"] = "above"
    _fragment(bad, tmp_path)
    bad.marks["fails"] = "no such words"
    with pytest.raises(AssertionError, match="not with"):
        _fragment(bad, tmp_path)
    wrong_rule = Example(ROOT / "docs" / "dsl.md", 1, "orrery", "say text(curent)\n", {"context": "tic-tac-toe"})
    with pytest.raises(AssertionError, match="unknown name 'curent'"):
        _rules(wrong_rule, tmp_path)
    # a block of expressions, one per line: each line is checked, not the first one again (lang-geo's report)
    later_line = Example(ROOT / "docs" / "dsl.md", 1, "orrery", "round + 1\nlen(players) > curent\n",
                         {"context": "tic-tac-toe"})
    with pytest.raises(AssertionError, match="unknown name 'curent'"):
        _rules(later_line, tmp_path)
