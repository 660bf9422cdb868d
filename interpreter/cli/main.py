"""The `orrery` command: list, validate, schema, explain, play, simulate, replay, test.

Every user mistake (bad spec, variant, log, argument) is printed as located,
plain findings on stderr with exit code 2; a traceback means a bug in Orrery.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn

from orrery import __version__
from orrery.rulespec.errors import Finding, InputError, OrreryError, Span, printable
from orrery.rulespec.wording import titled

# The game-loading helpers live in .loading (cli_perf and play use them too); the old private names stay.
from .loading import LIMIT_NAMES, collector_held
from .safeout import escaped_output
from .tableargs import add_table_args
from .loading import load_game_from_args as _load_game
from .loading import parse_bots
from .loading import parse_limits as _limits
from .progress import progress as _progress
from ..core.options import DELAY, GAMES, JOBS, PLAYERS, SEED

EXIT_OK, EXIT_FAIL, EXIT_INPUT = 0, 1, 2


# ------------------------------------------------------------------ commands


def cmd_list(args: argparse.Namespace) -> int:
    """Bundled games and their variants."""
    from orrery.rulespec.loader import load_spec

    from ..engine.gamefiles import bundled_games, bundled_variants, resolve_game

    for name in bundled_games():
        try:
            meta = load_spec(resolve_game(name), check=False).model.game
            count = (f"{meta.players.min}" if meta.players.min == meta.players.max
                     else f"{meta.players.min}-{meta.players.max}")
            desc = f"{meta.title or name} ({count} player{'s' if meta.players.max > 1 else ''})"
        except OrreryError:
            desc = "(does not load: run orrery validate)"
        print(f"{name:24} {desc}")
        for v in bundled_variants(name):
            print(f"  --variant {v}")
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    """Validate specs, variants and scenario files; all findings at once."""
    from .validate import default_jobs, expand_paths, validate_paths

    _, ylimits, _ = _limits(args)
    worst = EXIT_OK
    paths = expand_paths([Path(a) for a in args.paths])  # a folder stands for the Orrery files under it
    jobs = args.jobs if args.jobs is not None else default_jobs(len(paths))
    for p, findings, kind in validate_paths(paths, ylimits, jobs):  # (in the order given, whatever --jobs)
        errors = [f for f in findings if f.severity == "error"]
        for f in findings:
            print(f.format(), file=sys.stderr)
        if errors:
            worst = EXIT_INPUT
            print(f"{p}: {len(errors)} error(s)", file=sys.stderr)
        else:
            warn = sum(1 for f in findings if f.severity == "warning")
            print(f"ok: {p} ({kind}{', ' + str(warn) + ' warning(s)' if warn else ''})")
    return worst


def cmd_new(args: argparse.Namespace) -> int:
    """Scaffold a new game folder that validates and passes its scenarios."""
    from .scaffold import scaffold

    folder = scaffold(args.name, Path(args.dir))
    rules = folder / "rules.yaml"
    print(f"created {folder}/: rules.yaml, variants/sprint.yaml, scenarios/basics.yaml, NOTES.md")
    print(f"next: orrery validate {folder}; orrery test {rules}; orrery play {rules}")
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of specs (or variants, scenarios)."""
    from orrery.rulespec.schema import schema_for

    print(json.dumps(schema_for(args.kind), indent=2, sort_keys=True))
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    """A readable summary of a game's rules, or what variants change."""
    from .explain import explain_diff, explain_text
    from .explain_format import render

    if args.assumptions:
        from ..engine.gamefiles import resolve_game
        from .assumptions import assumptions_markdown

        _, ylimits, _ = _limits(args)
        print(printable(assumptions_markdown(resolve_game(args.game), ylimits)), end="")
        return EXIT_OK
    args.mode_override = "interpreted"  # the summary reads the spec only: no code to generate (a third of a second)
    game, _, _ = _load_game(args)
    text = explain_diff(game.spec) if args.diff else explain_text(game.spec)
    title = game.spec.model.game.title or game.name
    print(printable(render(text, args.format, title)), end="")  # spec text is data
    return EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    """Play in the terminal: humans and bots at one table (GAME is optional with --resume)."""
    from .play import command

    return command(args)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Bots play many games; print a summary or JSON."""
    from ..bots.simulate import simulate
    from .table import new_seed

    game, path, variants = _load_game(args)
    _, _, steps = _limits(args)
    if args.games < 0:
        raise InputError(f"--games {args.games}: the number of games cannot be negative")
    if args.jobs < 1:
        raise InputError(f"--jobs {args.jobs}: at least one process must play the games")
    players = game.rules.default_players if args.players is None else args.players
    _check_players(game, players)
    bots = parse_bots(args.bots, players)
    progress = _progress(args.games, quiet=args.json and not sys.stderr.isatty())
    with progress as tick:
        seed = new_seed() if args.seed is None else args.seed
        result = simulate(game, args.games, players, seed, bots, max_steps=steps, check=args.check,
                          variants=variants, progress=tick, jobs=args.jobs, backend=args.backend,
                          address=args.address, batch=args.batch)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        _print_summary(result)
    if result["interrupted"]:  # Ctrl-C: the games played so far were summarised above
        print(f"interrupted after {len(result['results'])} of {args.games} games", file=sys.stderr)
        return 130
    if args.check and result["violations"]:
        for v in result["violations"][:20]:
            print(f"{v['where']}: invariant '{v['invariant']}' failed in game seed {v['seed']} at step {v['step']} "
                  f"(value: {v['value']})", file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def _check_players(game: Any, n: int) -> None:
    r = game.rules
    if not r.min_players <= n <= r.max_players:
        raise InputError(f"{game.name} takes {r.player_count_text()}, not {n}")


def _print_summary(result: dict[str, Any]) -> None:
    s = result["summary"]
    print(f"{result['game']}: {s['games']} games, {result['players']} players, seed {result['seed']}, "
          f"bots {','.join(result['bots'])}")
    print("  ends: " + ", ".join(f"{k} {v}" for k, v in s["ends"].items()))
    print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in s["outcomes"].items() if v or k == "win"))
    print("  wins: " + (", ".join(f"{k} {v}" for k, v in s["wins"].items()) or "none")
          + (f"; shared wins: {', '.join(f'{k} {v}' for k, v in s['shared_wins'].items())}" if s["shared_wins"]
             else "") + f"; draws {s['draws']}" + (f"; losses {s['losses']}" if s["losses"] else ""))
    print(f"  steps: average {s['avg_steps']}, longest {s['max_steps']}; runaway games {s['failures']}")
    if s["cascades"]:
        print("  cascades by length: " + ", ".join(f"{k}: {v}" for k, v in s["cascades"].items()))
    if s["invariant_violations"]:
        print(f"  invariant violations: {s['invariant_violations']}")


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a log, verifying the state after every step."""
    from ..files.log import open_log, replay

    if args.html:
        from orrery.rulespec.paths import refuse_overwrite

        refuse_overwrite([("--html", args.html)], [("the log", args.log)])
    log = open_log(args.log)  # the steps are read, checked and replayed one line at a time
    game_arg = args.game or log.header["game"]
    ns = argparse.Namespace(variant=log.header["variants"], limit=args.limit)
    try:
        game, _, _ = _load_game(ns, game_arg)
    except InputError as err:  # the log's header names a game or variant that is not here: point at it
        if args.game is None and all(f.span is None for f in err.findings):
            raise InputError(Finding(Span(args.log, 1, 1), f"the log's header names {err.findings[0].message}")) \
                from None
        raise
    report = replay(log, game, verify=not args.no_verify)
    if report.divergence:  # labels and prompts from the log are data: their control characters are escaped
        print(printable(f"replay diverged: {report.divergence}"), file=sys.stderr)
        return EXIT_FAIL
    o = report.final.outcome()
    status = f"game over ({titled(game.spec.model, 'end', o.end)}), winners: {_winner_names(game, o.winners)}" \
        if o else f"game in progress: {report.final.decision.prompt}"
    print(printable(f"replayed {report.steps} step(s) of {args.log}: every state matches; {status}"))
    if args.html:
        from ..serve.replay import write_replay

        h = log.header
        try:
            moments = write_replay(Path(args.html), game, h["players"], h["seed"], report.final.history(),
                                   h.get("seats"))
        except OSError as exc:
            raise InputError(f"cannot write --html {args.html}: {exc.strerror or exc}") from None
        print(printable(f"wrote {args.html}: {moments} moments, each as every seat and the spectators saw it"))
    if report.result_matches is False:
        r = log.result or {}
        got = f"end {o.end}, winners {_winner_names(game, o.winners)}" if o else "no end (the game is not over)"
        print(printable(f"{args.log}:{log.result_line}: the result recorded in the log differs from the replay: "
                        f"the log says end {r.get('end')}, winners {_winner_names(game, r.get('winners'))}; the "
                        f"replay gives {got}"), file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def _winner_names(game: Any, winners: Any) -> str:
    """Seat names of winners (seat numbers); anything else as written."""
    if not isinstance(winners, list):
        return str(winners)
    names = [game.rules.seat_name(w) if isinstance(w, int) and not isinstance(w, bool) and 0 <= w < 16 else str(w)
             for w in winners]
    return ", ".join(names) or "nobody"


def cmd_test(args: argparse.Namespace) -> int:
    """Run scenario files for a game."""
    from orrery.rulespec.errors import SpecError

    from ..files.scenarios import check_scenarios, load_scenarios, run_scenario, scenario_files

    game, path, _ = _load_game(args)
    _, ylimits, _ = _limits(args)
    files = [Path(f) for f in args.scenarios] or scenario_files(path)
    if not files:
        raise InputError(f"{args.game}: no scenario files (looked in {path.parent / 'scenarios'})")
    loaded = [(f, load_scenarios(f, ylimits)) for f in files]
    problems = [p for _, scenarios in loaded for p in check_scenarios(game, scenarios, path)]
    if any(p.severity == "error" for p in problems):  # a mistake in a scenario is bad input: nothing runs
        raise SpecError(problems)
    passed = failed = 0
    for f, scenarios in loaded:
        for sc in scenarios:
            r = run_scenario(game, sc, path)
            if r.passed:
                passed += 1
                print(printable(f"PASS {f.name}: {r.name}"))
            else:
                failed += 1
                print(printable(f"FAIL {f.name}: {r.name}  [{r.where}]"))
                for msg in r.failures:
                    print(printable(f"     {msg}"))
    print(f"{passed} passed, {failed} failed ({game.mode} engine)")
    return EXIT_OK if failed == 0 else EXIT_FAIL


# ------------------------------------------------------------------ parser


class _Parser(argparse.ArgumentParser):
    """argparse's parser, with a did-you-mean for a mistyped command (`orrery plya`: did you mean 'play'?)."""

    def error(self, message: str) -> NoReturn:
        bad = _BAD_COMMAND.match(message)
        if bad:  # (a unique start of a command's name, `orrery sim`, or a name a letter off)
            from ..engine.gamefiles import close_to

            word, names = bad.group(1), _commands(self)
            starts = [n for n in names if word and n.startswith(word)]
            message += f" (did you mean '{starts[0]}'?)" if len(starts) == 1 else close_to(word, names)
        super().error(message)


_BAD_COMMAND = re.compile(r"argument COMMAND: invalid choice: '([^']*)'")


def _commands(p: argparse.ArgumentParser) -> list[str]:
    return [name for a in p._actions if isinstance(a, argparse._SubParsersAction) for name in a.choices]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand documented.  A command's own module is imported when it runs,
    not here (`orrery --help` and a mistyped command load no engine, no pydantic and no rich)."""
    p = _Parser(prog="orrery", description="Orrery: play, check and simulate tabletop games "
                                "written as rule specs.")
    p.add_argument("--version", action="version", version=f"orrery {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    limit_help = "raise or lower a limit, e.g. --limit cascade=50000 (names: " + ", ".join(LIMIT_NAMES) + ")"

    def add(name: str, fn: Callable, help_: str, limits: bool = True) -> argparse.ArgumentParser:
        # (a help string is %-formatted by argparse, a description is printed as written: a % is doubled in help_)
        sp = sub.add_parser(name, help=help_, description=help_.replace("%%", "%"))
        sp.set_defaults(fn=fn)
        if limits:  # list and schema run no rules and read no file of the user's: no limit applies
            sp.add_argument("--limit", action="append", metavar="NAME=N", help=limit_help)
        return sp

    add("list", cmd_list, "List the bundled games and their variants.", limits=False)
    sp = add("validate", cmd_validate, "Check specs, variants and scenario files; print every problem as "
                                       "FILE:LINE:COL; exit 2 if any is an error.")
    sp.add_argument("paths", nargs="+", metavar="PATH")
    sp.add_argument("--jobs", type=JOBS, help="processes checking files side by side (default: one per core, up "
                    "to four, for 64 files or more; else one); the output is the same for any number")
    sp = add("new", cmd_new, "Create a folder NAME with a small working game to edit: rules.yaml, a variant, "
                             "a scenario file and NOTES.md.", limits=False)
    sp.add_argument("name", metavar="NAME", help="the game's name (lower-case letters, digits and dashes)")
    sp.add_argument("--dir", default=".", help="where to create the folder (default: here)")
    sp = add("schema", cmd_schema, "Print the JSON Schema of rule specs (or of variants or scenario files).",
             limits=False)
    sp.add_argument("--kind", choices=["spec", "variant", "scenario"], default="spec")
    sp = add("explain", cmd_explain, "Print a readable summary of a game's rules, generated from its spec.")
    _game_args(sp)
    sp.add_argument("--diff", action="store_true", help="show what the variants change, rule by rule (complete)")
    sp.add_argument("--assumptions", action="store_true", help="list every assumption in full, the spec's and each "
                    "bundled variant's, as Markdown (the generated block of a game's NOTES.md)")
    sp.add_argument("--format", choices=["text", "markdown", "html"], default="text", help="plain text for the "
                    "terminal (default), Markdown, or a standalone HTML page")
    sp = add("play", cmd_play, "Play in the terminal: humans and bots at the same table.")
    add_table_args(sp, "leave it out with --resume: the save names its game",
                   "default: human, then mcts bots that think --think seconds a turn",
                   "the save and the log keep it, and a game with hidden information shows it only at the end",
                   "in one whole turn, however many decisions it holds")
    sp.add_argument("--log", metavar="FILE", help="save the game log (JSON Lines) to FILE")
    sp.add_argument("--delay", type=DELAY, default=0.0, help="seconds to pause after each bot move")
    sp.add_argument("--quiet-board", action="store_true", help="do not redraw the board after bot moves")
    sp.add_argument("--no-color", action="store_true", help="no colours (as with the NO_COLOR environment "
                    "variable); symbols and the legend tell every piece apart")
    sp.add_argument("--debug", action="store_true", help="also show the rules' internal variables (and, to a "
                    "spectator of a bots-only game, the hidden zones); never what the rules hide from a player")
    sp.add_argument("--save", metavar="FILE", help="save the game to FILE after every decision (default: "
                    "<game>.orrery-save.json in the current folder when a human plays)")
    sp.add_argument("--no-save", action="store_true", help="do not save the game")
    sp.add_argument("--resume", metavar="FILE", help="continue the saved game in FILE at the decision where it "
                    "stopped (its game, variants, seed and seats come from the save)")

    sp = add("simulate", cmd_simulate, "Let bots play many games and summarise the results.")
    _game_args(sp)
    sp.add_argument("--games", type=GAMES, default=100, help="how many games (default 100)")
    sp.add_argument("--players", type=PLAYERS, help="number of players (default: the game's default)")
    sp.add_argument("--bots", default="random", help="bot for every seat, or one per seat (comma-separated): "
                    "random, first, greedy, mcts or mcts:BUDGET (mcts:200 iterations, mcts:2s)")
    sp.add_argument("--seed", type=SEED, help="seed of the first game (game i uses seed+i; default: drawn from the "
                    "operating system and printed with the results)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument("--check", action="store_true", help="check the spec's invariants after every step; exit 1 "
                                                         "if any fails")
    sp.add_argument("--jobs", type=JOBS, default=1, help="processes playing games side by side (default 1); the "
                    "results are the same for any number")
    sp.add_argument("--mode", choices=["compiled", "interpreted"], help="engine: the compiled fast path "
                    "(default) or the tree-walking reference interpreter; both give identical games")
    sp.add_argument("--backend", choices=["local", "ray"], default="local", help="where the games are played: "
                    "here (with --jobs processes) or as Ray tasks (needs orrery[ray]); the same results either way")
    sp.add_argument("--address", help="with --backend ray: the Ray cluster to use (default: a new local Ray "
                    "instance of --jobs workers; 'auto': the cluster this machine belongs to)")
    sp.add_argument("--batch", type=GAMES, help="with --backend ray: games per Ray task (default: about four tasks "
                    "per worker)")
    sp = add("replay", cmd_replay, "Replay a game log, verifying the state after every step.")
    sp.add_argument("log", metavar="LOG")
    sp.add_argument("--game", help="the game's spec, if the log's game cannot be found")
    sp.add_argument("--no-verify", action="store_true", help="do not compare state digests")
    sp.add_argument("--html", metavar="OUT", help="also write OUT, one self-contained HTML page that steps through "
                    "the game as each seat saw it (docs/serve.md)")
    sp = add("test", cmd_test, "Run scenario tests of a game (default: all files in its scenarios/ folder).")
    sp.add_argument("game", metavar="GAME", help="a bundled game's name or a path to its rules.yaml")
    sp.add_argument("scenarios", nargs="*", metavar="SCENARIO")
    sp.add_argument("--mode", choices=["compiled", "interpreted"], help="engine: the compiled fast path "
                    "(default) or the tree-walking reference interpreter; a scenario must pass on both")
    from .docs import add_command as add_docs
    from .perf import add_commands
    from .serve import add_command as add_serve
    from .workbench import add_commands as add_workbench

    add_commands(add, _game_args)
    add_workbench(add, _game_args)
    add_serve(add)
    add_docs(add)
    return p


def _game_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", metavar="GAME", help="a bundled game's name (see orrery list) or a path to rules.yaml")
    sp.add_argument("--variant", action="append", metavar="V", help="a variant name or file (repeatable; stacks)")


@functools.lru_cache(maxsize=None)
def the_parser() -> argparse.ArgumentParser:
    """`build_parser()`, built once per process: parsing leaves it as it was, and a process that runs `main` many
    times (the tests, a fork server's children) would build it each time (about 5 ms: argparse's formatters and
    translations for every option)."""
    return build_parser()


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `orrery` command."""
    parser = the_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or an option refused (exit 2): a code, as for every command
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    try:  # (`orrery play` starts with the collector off until its table is set: loading.collector_held)
        with escaped_output(), collector_held(argv is None and args.fn is cmd_play):
            return args.fn(args)
    except OrreryError as err:
        print(err.render(), file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except RecursionError as exc:  # rules nested past Python's stack (only with a raised emit_depth)
        from ..core.valueops import stack_overflow

        located = stack_overflow(exc, _limits(args)[0])
        if located is None or os.environ.get("ORRERY_DEBUG"):
            return _internal_error(exc)
        print(located.render(), file=sys.stderr)
        return located.exit_code
    except OSError as exc:  # a path the OS refuses (too long, no permission…) that no reader caught first
        if exc.filename is None or os.environ.get("ORRERY_DEBUG"):
            return _internal_error(exc)
        print(f"{exc.filename}: cannot be used: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT
    except Exception as exc:  # a bug in Orrery, not in the user's input
        return _internal_error(exc)


def _internal_error(exc: Exception) -> int:
    """Report a bug in Orrery (not in the user's input): no traceback unless ORRERY_DEBUG is set."""
    if os.environ.get("ORRERY_DEBUG"):
        raise exc
    print(f"orrery: internal error: {type(exc).__name__}: {printable(str(exc))}\n"
          f"This is a bug in Orrery; run again with ORRERY_DEBUG=1 for details.", file=sys.stderr)
    return 3


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
