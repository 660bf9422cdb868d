"""Scenario tests for rule authors: a position, some decisions, expectations.

A scenario file (`games/<game>/scenarios/*.yaml`) lists scenarios; each starts a
game (players, seed, variants), optionally adds or replaces setup, plays the
listed decisions by label, and checks expectations written as expressions.  A
failing expectation reports the values of both sides of a comparison.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from orrery.rulespec import ast as A
from orrery.rulespec.errors import Diagnostics, Finding, InputError, OrreryError, SpecError
from orrery.rulespec.loader import nesting_finding
from orrery.rulespec.filemodels import ScenarioDecl, ScenarioFile, ScenarioStep
from orrery.rulespec.parser import parse_block, parse_expr
from orrery.rulespec.paths import real_path
from orrery.rulespec.pydantic_errors import findings_from_validation
from orrery.rulespec.source import SourceDoc, YamlLimits, load_yaml

from ..reference.evaluator import Interp
from ..engine.game import Game, GameState, IllegalMove
from ..engine.gamefiles import variant_named_in
from ..core.values import Player


@dataclass
class ParsedScenario:
    """A scenario with its rule text parsed."""

    decl: ScenarioDecl
    index: int
    setup: A.Block | None
    expects: list[tuple[str, A.Expr]]
    where: str
    doc: SourceDoc
    ylimits: YamlLimits | None = None  # for the variants the scenario loads


@dataclass
class ScenarioResult:
    """The outcome of one scenario."""

    name: str
    where: str
    passed: bool
    failures: list[str] = field(default_factory=list)


def load_scenarios(path: str | Path, limits: YamlLimits | None = None,
                   doc: SourceDoc | None = None) -> list[ParsedScenario]:
    """Parse a scenario file (`doc`: the file already read); raise SpecError with every located problem."""
    doc = doc or load_yaml(path, limits=limits)
    diags = Diagnostics()
    try:
        model = ScenarioFile.model_validate(doc.data)
    except ValidationError as exc:
        diags.extend(findings_from_validation(exc, doc.data, doc.span, doc.key_span, ScenarioFile))
        diags.raise_if_errors()
        raise  # pragma: no cover
    out = []
    for i, sc in enumerate(model.scenarios):
        base = ("scenarios", i)
        setup = _parse(doc, base + ("setup",), sc.setup, "effect", diags) if sc.setup is not None else None
        expects = []
        for j, text in enumerate(sc.expect):
            node = _parse(doc, base + ("expect", j), text, "expr", diags)
            if node is not None:
                expects.append((text, node))
        out.append(ParsedScenario(sc, i, setup, expects, str(doc.span(base)), doc, limits))
    diags.raise_if_errors()
    return out


EXPECT_NAMES = {"winners": "list:player", "ended": "any"}  # the names an expectation may use besides the spec's


def check_scenarios(game: Game, scenarios: list[ParsedScenario], game_path: Path | None = None) -> list[Finding]:
    """Static problems of scenarios against their game, located in the scenario file: a player count the
    game does not take, an unknown end condition, steps naming a seat that does not exist, and the
    rule text of `setup` and `expect` (unknown names, wrong types, an expectation that is not true/false).
    A scenario with variants is checked against the game with its variants."""
    from orrery.rulespec.textcheck import check_rule_text
    from orrery.rulespec.typing_rules import did_you_mean

    out: list[Finding] = []
    games: dict[tuple, Game] = {(): game}
    for sc in scenarios:
        d, base = sc.decl, ("scenarios", sc.index)
        g = games.get(tuple(d.variants))
        if g is None:
            try:
                g = games[tuple(d.variants)] = _with_variants(game, sc, game_path)
            except OrreryError as err:
                out.extend(err.findings)
                continue
        r = g.rules
        if d.players is not None and not r.min_players <= d.players <= r.max_players:
            out.append(Finding(sc.doc.span(base + ("players",)),
                               f"{g.name} takes {r.player_count_text()}, not {d.players}"))
        most = d.players if d.players is not None else r.max_players
        for k, step in enumerate(d.steps):
            if isinstance(step, ScenarioStep) and step.player is not None and not 0 <= step.player < most:
                out.append(Finding(sc.doc.span(base + ("steps", k, "player")),
                                   f"there is no player {step.player}: seats are numbered 0 to {most - 1}"))
        if d.expect_end is not None and d.expect_end not in g.spec.model.end:
            out.append(Finding(sc.doc.span(base + ("expect_end",)), f"unknown end condition '{d.expect_end}'"
                               + did_you_mean(d.expect_end, g.spec.model.end)))
        out.extend(check_rule_text(g.spec, [node for _, node in sc.expects], [sc.setup] if sc.setup else [],
                                   EXPECT_NAMES, what="an expectation"))
    return out


def _with_variants(game: Game, sc: ParsedScenario, game_path: Path | None) -> Game:
    """The game with the scenario's variants applied (errors located at the scenario's `variants`)."""
    from .gamecache import game_for

    d = sc.decl
    if game_path is None:
        raise OrreryError(f"{sc.where}: scenario '{d.name}' uses variants but the game has no file path")
    paths = []
    for i, v in enumerate(d.variants):
        try:
            paths.append(variant_named_in(game_path, v, sc.doc.path))  # (a path is relative to the file)
        except OrreryError as err:  # say which line of the scenario file names it
            raise InputError(Finding(sc.doc.span(("scenarios", sc.index, "variants", i)),
                                     err.findings[0].message)) from None
    return game_for(game_path, paths, sc.ylimits, game.limits, game.mode)  # (the same engine; built once a run)


def _parse(doc: SourceDoc, path: tuple, text: Any, kind: str, diags: Diagnostics) -> Any:
    items = text if isinstance(text, list) else [text]
    what = "expectation" if kind == "expr" else "effect"
    nodes = []
    for k, item in enumerate(items):
        p = path + (k,) if isinstance(text, list) else path

        def mapper(line: int, col: int, end_line: int | None = None, end_col: int | None = None, _p: tuple = p):
            return doc.text_span(_p, line, col, end_line, end_col)

        try:
            node = parse_block(str(item), mapper) if kind == "effect" else parse_expr(str(item), mapper)
        except SpecError as err:
            diags.extend(err.findings)
            continue
        except RecursionError:  # as loader._parse_one: Lark's tree transformer recurses
            diags.error(doc.span(p), f"this {what} nests too deeply to read; split it")
            continue
        deep = nesting_finding(node, what)
        if deep is not None:
            diags.extend([deep])
            continue
        nodes.append(node)
    if not nodes:
        return None
    if kind == "expr":
        return nodes[0]
    body = tuple(s for n in nodes for s in n.body)
    return A.Block(span=doc.span(path), body=body)


def _trace(trace: list | None, gs: Any) -> None:
    if trace is not None:
        trace.append((gs.current_player(), [o.label for o in gs.legal_options()], gs.digest(), list(gs.narration)))


def run_scenario(game: Game, sc: ParsedScenario, game_path: Path | None = None,
                 trace: list | None = None) -> ScenarioResult:
    """Play one scenario and check its expectations; `trace`, if given, gets one entry per position reached
    (the decider, the offered labels, the digest and the narration so far) for comparing two engines."""
    d = sc.decl
    if d.variants:
        game = _with_variants(game, sc, game_path)
    result = ScenarioResult(d.name, sc.where, True)
    try:
        gs = game.new_initial_state(players=d.players, seed=d.seed, setup=sc.setup, replace_setup=d.replace_setup)
    except IllegalMove as exc:
        return _fail(result, f"cannot start: {exc.reason}")
    for k, step in enumerate(d.steps, start=1):
        _trace(trace, gs)
        label, player = _step(step)
        last = k == len(d.steps)
        if gs.is_terminal():
            return _fail(result, f"step {k} ({label}): the game is already over ({gs.outcome().end})")
        if player is not None and gs.current_player() != player:
            return _fail(result, f"step {k} ({label}): expected player {player} to decide, "
                                 f"but it is player {gs.current_player()} ({gs.decision.prompt})")
        try:
            gs.apply_label(label)
        except IllegalMove as exc:
            if last and d.expect_error is not None:
                if d.expect_error.lower() not in exc.reason.lower():
                    return _fail(result, f"step {k} ({label}) was refused, but with: {exc.reason}")
                break
            return _fail(result, f"step {k} ({label}) was refused: {exc.reason}")
        else:
            if last and d.expect_error is not None:
                return _fail(result, f"step {k} ({label}) was accepted, but should be refused "
                                     f"('{d.expect_error}')")
    _trace(trace, gs)
    if d.expect_end is not None:
        o = gs.outcome()
        if o is None or o.end != d.expect_end:
            result.failures.append(f"expected the game to end by '{d.expect_end}', "
                                   f"got {o.end if o else 'no end (still playing: ' + gs.decision.prompt + ')'}")
    for text, node in sc.expects:
        msg = check_expectation(gs, text, node)
        if msg:
            result.failures.append(msg)
    result.passed = not result.failures
    return result


def _step(step: ScenarioStep | str | int) -> tuple[str, int | None]:
    if isinstance(step, ScenarioStep):
        return str(step.choose), step.player
    return str(step), None


def _fail(result: ScenarioResult, msg: str) -> ScenarioResult:
    result.passed = False
    result.failures.append(msg)
    return result


def expectation_env(gs: GameState) -> dict[str, Any]:
    """Extra names an expectation may use: `winners` and `ended`."""
    o = gs.outcome()
    return {"winners": [Player(w) for w in o.winners] if o else [], "ended": o.end if o else None}


def check_expectation(gs: GameState, text: str, node: A.Expr) -> str | None:
    """None if the expectation holds, else a message with the values involved."""
    it = Interp(gs.state.clone(), gs.game.limits)
    env = expectation_env(gs)
    try:
        value = it.ev(node, env)
    except OrreryError as exc:
        return f"{node.span}: `{text}` could not be evaluated: {exc.findings[0].message}"
    except Exception as exc:  # the expectation itself is broken; say so plainly
        return f"{node.span}: `{text}` could not be evaluated: {exc}"
    if value is True:
        return None
    detail = ""
    if isinstance(node, A.Binary) and node.op not in ("and", "or"):
        try:
            left, right = it.ev(node.left, env), it.ev(node.right, env)
            detail = f" (left: {it.label(left)}, right: {it.label(right)})"
        except Exception:  # sides that cannot be evaluated alone are simply not shown
            detail = ""
    return f"{node.span}: expected `{text}`, got {it.label(value)}{detail}"


def scenario_files(game_path: Path) -> list[Path]:
    """The scenario files bundled next to a game's rules.yaml."""
    sdir = game_path.parent / "scenarios"
    return sorted(sdir.glob("*.yaml")) if sdir.is_dir() else []


def scenario_game(path: Path, scenarios: list[ParsedScenario]) -> Path | None:
    """The game a scenario file tests, for `orrery validate`: the rules.yaml of the game folder it sits in
    (`GAME/scenarios/FILE.yaml`), else the game its `game:` key names (a path relative to the file, or a
    bundled game); None when the file names no game (its structure is all there is to check). A `game:`
    that names no game is an error at that key, not a file that passes unchecked."""
    from ..engine.gamefiles import game_named_in

    here = real_path(path).parent
    if here.name == "scenarios" and (here.parent / "rules.yaml").is_file():
        return here.parent / "rules.yaml"
    doc = scenarios[0].doc if scenarios else None
    name = doc.data.get("game") if doc is not None and isinstance(doc.data, dict) else None
    if not isinstance(name, str):
        return None
    try:
        return game_named_in(name, path)  # relative to the scenario file, else a bundled game's name
    except OrreryError as err:
        raise SpecError([Finding(doc.span(("game",)), f.message) for f in err.findings]) from None
