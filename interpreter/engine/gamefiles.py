"""Finding games and variants: bundled names or paths, for the CLI, logs and scenarios."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from orrery.rulespec.errors import InputError


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


def resolve_game(game: str) -> Path:
    """A bundled game's name, a rules.yaml path, or a folder holding rules.yaml -> the rules.yaml path."""
    p = Path(game)
    if p.is_file():
        return p
    if p.is_dir():
        if (p / "rules.yaml").is_file():
            return p / "rules.yaml"
        raise InputError(f"{game}: folder has no rules.yaml")
    bundled = games_root() / game / "rules.yaml"
    if "/" not in game and bundled.is_file():
        return bundled
    known = bundled_games()
    raise InputError(f"{game}: no such game or file{close_to(game, known)} (bundled games: {', '.join(known)})")


def resolve_variant(game_path: Path, variant: str) -> Path:
    """A variant path, or the name of a variant next to the game's rules.yaml."""
    p = Path(variant)
    if p.is_file():
        return p
    local = game_path.parent / "variants" / f"{variant}.yaml"
    if "/" not in variant and local.is_file():
        return local
    known = sorted(q.stem for q in (game_path.parent / "variants").glob("*.yaml"))
    hint = f" (this game's variants: {', '.join(known)})" if known else " (this game has no bundled variants)"
    raise InputError(f"{variant}: no such variant file{close_to(variant, known)}{hint}")


def close_to(word: str, known: list[str]) -> str:
    """' (did you mean 'x'?)' for the known name closest to a mistyped one (`tictactoe`, `misre`), or ''."""
    from orrery.rulespec.suggest import did_you_mean  # (only when a name was mistyped)

    return did_you_mean(word, known) or did_you_mean(word.lower().replace("_", "-"), known)


def game_ref(path: Path) -> str:
    """How to name a game in a log: its bundled name when it is bundled, else its path."""
    try:
        rel = path.resolve().relative_to(games_root().resolve())
        if rel.name == "rules.yaml" and len(rel.parts) == 2:
            return rel.parts[0]
    except ValueError:
        pass
    return str(path)
