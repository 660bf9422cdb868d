"""Finding games and variants: bundled names or paths, for the CLI, logs and scenarios."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from orrery.rulespec.errors import InputError
from orrery.rulespec.paths import real_path, relative_to_file


def games_root() -> Path:
    """The folder holding the bundled games (package data)."""
    return Path(str(resources.files("orrery.games")))


def bundled_games() -> list[str]:
    """Names of the bundled games."""
    root = games_root()
    return sorted(p.name for p in root.iterdir() if (p / "rules.yaml").is_file())


def bundled_variants(game: str) -> list[str]:
    """Names of a bundled game's variants."""
    vdir = games_root() / game / "variants"
    return sorted(p.stem for p in vdir.glob("*.yaml")) if vdir.is_dir() else []


def _names_a_file(p: Path) -> bool:
    """Whether `p` names something that is not a folder: a file, or a pipe, a device, a link (even a broken one
    or a loop) that the reader then refuses with the reason (bounded.open_regular), rather than "no such game"."""
    return os.path.lexists(p) and not p.is_dir()


def resolve_game(game: str) -> Path:
    """A bundled game's name, a rules.yaml path, or a folder holding rules.yaml -> the rules.yaml path."""
    p = Path(game)
    if _names_a_file(p):
        return p
    if p.is_dir():
        if _names_a_file(p / "rules.yaml"):
            return p / "rules.yaml"
        raise InputError(f"{game}: folder has no rules.yaml")
    bundled = games_root() / game / "rules.yaml"
    if "/" not in game and bundled.is_file():
        return bundled
    known = bundled_games()
    raise InputError(f"{game}: no such game or file{close_to(game, known)} (bundled games: {', '.join(known)})")


def _written_path(written: str) -> bool:
    """Whether a name written in a file is a path (it has a folder part or a YAML suffix), not a bare name."""
    return "/" in written or "\\" in written or written.endswith((".yaml", ".yml"))


def game_named_in(written: str, file: str | Path) -> Path:
    """The game a file names (a scenario's `game:`): a path relative to that file, else a bundled game's
    name; never a path relative to the current folder (docs/dsl.md 10)."""
    if _written_path(written) or _names_a_file(relative_to_file(written, file)) \
            or relative_to_file(written, file).is_dir():
        return resolve_game(str(relative_to_file(written, file)))
    bundled = games_root() / written / "rules.yaml"
    if bundled.is_file():
        return bundled
    raise InputError(f"{written}: no such game next to {file} nor bundled (bundled games: "
                     f"{', '.join(bundled_games())})")


def variant_named_in(game_path: Path, written: str, file: str | Path) -> Path:
    """A variant a file names (a scenario's `variants:`): a path relative to that file, else the name of one
    of the game's variants (its variants/ folder); never a path relative to the current folder."""
    if _written_path(written):
        return resolve_variant(game_path, str(relative_to_file(written, file)))
    return resolve_variant(game_path, written, by_name_only=True)


def resolve_variant(game_path: Path, variant: str, by_name_only: bool = False) -> Path:
    """A variant path, or the name of a variant next to the game's rules.yaml."""
    p = Path(variant)
    if not by_name_only and _names_a_file(p):
        return p
    local = game_path.parent / "variants" / f"{variant}.yaml"
    if "/" not in variant and local.is_file():
        return local
    known = sorted(q.stem for q in (game_path.parent / "variants").glob("*.yaml"))
    hint = f" (this game's variants: {', '.join(known)})" if known else " (this game has no bundled variants)"
    raise InputError(f"{variant}: no such variant file{close_to(variant, known)}{hint}")


def close_to(word: str, known: list[str]) -> str:
    """' (did you mean 'x'?)' for the known name closest to a mistyped one (a name one letter off), or ''."""
    from orrery.rulespec.suggest import did_you_mean  # (only when a name was mistyped)

    return did_you_mean(word, known) or did_you_mean(word.lower().replace("_", "-"), known)


def game_ref(path: Path) -> str:
    """How to name a game in a log: its bundled name when it is bundled, else its path."""
    try:
        rel = real_path(path).relative_to(real_path(games_root()))
        if rel.name == "rules.yaml" and len(rel.parts) == 2:
            return rel.parts[0]
    except ValueError:
        pass
    return str(path)
