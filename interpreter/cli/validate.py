"""`orrery validate`: check any Orrery file (spec, variant or scenario file) and collect findings."""

from __future__ import annotations

import multiprocessing
import os
from functools import partial
from pathlib import Path
from typing import Iterator

from orrery.rulespec.bounded import NotAFile, regular_stat
from orrery.rulespec.errors import Finding, OrreryError, Span
from orrery.rulespec.loader import build_spec, load_spec
from orrery.rulespec.source import SourceDoc, YamlLimits, load_yaml
from orrery.rulespec.variants import load_variant, merge_all, variant_base_path


GAME_FOLDERS = ("variants", "scenarios")  # beside a rules.yaml: the folders `orrery validate DIR` also checks


def files_under(folder: Path) -> list[Path]:
    """The Orrery files under a folder: every rules.yaml, and the YAML files in its variants/ and scenarios/."""
    found = []
    for path in sorted(folder.rglob("*.yaml")):  # (links to folders are not followed: no loop walks for ever)
        # a pipe, a device or a link loop named *.yaml stays in the list: the reader says what it is
        if not path.is_dir() and (path.name == "rules.yaml" or path.parent.name in GAME_FOLDERS):
            found.append(path)
    return found


def expand_paths(paths: list[Path]) -> list[Path]:
    """Files to validate: files as given, folders replaced by the Orrery files under them (a folder without
    any stays, so that it is reported)."""
    out: list[Path] = []
    for p in paths:
        out.extend((files_under(p) or [p]) if p.is_dir() else [p])
    return out


def file_kind(path: Path, limits: YamlLimits) -> tuple[str, SourceDoc]:
    """spec, variant or scenario, judged by the top-level keys; and the file as read (read once: composing
    YAML is most of the cost of validating a small file)."""
    doc = load_yaml(path, limits=limits)
    if isinstance(doc.data, dict) and "variant" in doc.data:
        return "variant", doc
    if isinstance(doc.data, dict) and "scenarios" in doc.data:
        return "scenario", doc
    return "spec", doc


def _not_a_file(path: Path) -> str:
    """Why `path` is not a readable file ('' when it is); a name the OS refuses is an answer, not a crash."""
    try:
        regular_stat(path)
    except FileNotFoundError:
        return "does not exist"
    except NotAFile as exc:  # a folder, a pipe, a device, a link loop
        return str(exc)
    except (OSError, ValueError) as exc:  # e.g. a name too long for the file system (found by the fuzz test)
        return f"cannot be opened: {getattr(exc, 'strerror', None) or exc}"
    return ""


def validate_path(path: Path, limits: YamlLimits | None = None) -> tuple[list[Finding], str]:
    """All findings for one file (errors and warnings) and its kind; never raises for bad input."""
    limits = limits or YamlLimits()
    kind = "file"
    if path.is_dir():  # only a folder without any Orrery file gets here (see expand_paths)
        return [Finding(Span(str(path), 1, 1), "is a directory with no rules.yaml, variants/*.yaml or "
                        "scenarios/*.yaml under it")], "folder"
    try:
        kind, doc = file_kind(path, limits)
        if kind == "variant":
            vdoc = load_variant(path, limits, doc)
            base_path = variant_base_path(vdoc)
            what = _not_a_file(base_path)
            if what:  # say it in the variant, where the base is named
                where = vdoc.span(("variant", "base")) if "base" in vdoc.data.get("variant", {}) else vdoc.span()
                return [Finding(where, f"the variant's base spec {base_path} {what}")], kind
            base = load_yaml(base_path, limits=limits)
            merged, bad_changes = merge_all(base, [vdoc])
            spec = build_spec(merged, str(base_path), earlier=bad_changes)
        elif kind == "scenario":
            from ..files.gamecache import game_for
            from ..files.scenarios import check_scenarios, load_scenarios, scenario_game

            scenarios = load_scenarios(path, limits, doc)
            game_path = scenario_game(path, scenarios)
            if game_path is None:  # no game to check the scenarios against: their structure is all we know
                return [], kind
            return check_scenarios(game_for(game_path, ylimits=limits), scenarios, game_path), kind  # (once a run)
        else:
            spec = load_spec(path, limits=limits)
        from ..engine.constants import worked_out_at_load

        if worked_out_at_load(spec.model):
            from ..engine.game import Game

            Game(spec, mode="interpreted")  # expressions worked out at load (constants...): as a game would
        return list(spec.warnings), kind
    except OrreryError as err:
        return err.findings, kind
    except RecursionError:
        return [Finding(Span(str(path), 1, 1), "the file nests too deeply to check")], kind


PARALLEL_FROM = 64  # files: below this a second process costs more than it saves (forking, building the game)


def default_jobs(files: int) -> int:
    """Processes for `orrery validate` without --jobs: one per core the process may use (up to four) for
    PARALLEL_FROM files or more, else one."""
    if files < PARALLEL_FROM:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, 4))


def validate_paths(paths: list[Path], limits: YamlLimits | None, jobs: int) -> Iterator[tuple[Path, list, str]]:
    """(path, findings, kind) for each path, in the order given, checked by `jobs` forked processes (each
    builds a game once: files/gamecache.py); one process where the system cannot fork."""
    if jobs <= 1 or len(paths) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for p in paths:
            yield (p, *validate_path(p, limits))
        return
    chunk = max(1, min(64, len(paths) // (jobs * 4)))  # a few chunks per process: balanced, few messages
    with multiprocessing.get_context("fork").Pool(min(jobs, len(paths))) as pool:
        yield from pool.imap(partial(_checked, limits=limits), paths, chunksize=chunk)


def _checked(path: Path, limits: YamlLimits | None) -> tuple[Path, list, str]:
    return (path, *validate_path(path, limits))
