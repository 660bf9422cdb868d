"""The report's figures, drawn with matplotlib (Agg: no display needed), each titled with the games it rests on.

Every function takes the trials (and the game for names) and returns a matplotlib Figure; `save` writes it as a
PNG and returns the bytes, which the HTML page embeds (the page needs no network and no file beside it).
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path
from typing import Any, Sequence

from .metrics import decisiveness, end_names, first_player_advantage, margin, outcome, win_shares
from .stats import mean_interval, wilson
from .trials import Trial

BINS = 10  # the course of a game, in tenths


class MissingPlotting(RuntimeError):
    """matplotlib is not installed (the optional extra `orrery[workbench]`)."""


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, or MissingPlotting with what to install."""
    try:
        import matplotlib
    except ImportError:
        raise MissingPlotting("the report's plots need matplotlib: pip install 'orrery[workbench]'") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _figure(title: str, n: int) -> tuple[Any, Any]:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    n_text = f"(n = {n} games)"
    ax.set_title(f"{title}\n{n_text}" if len(title) + len(n_text) > 62 else f"{title} {n_text}", fontsize=11)
    ax.grid(axis="y", alpha=0.3)
    return fig, ax


def win_rates(game: Any, trials: Sequence[Trial]) -> Any:
    """Each seat's win rate with its 95 % interval, and the draws (each game counted once), fair share dashed."""
    n, players = len(trials), trials[0].players
    names = [game.rules.seat_name(s) for s in range(players)] + ["draw"]
    rates = [wilson(sum(win_shares(t)[s] for t in trials), n) for s in range(players)]
    rates.append(wilson(sum(1 for t in trials if outcome(t) == "draw"), n))
    fig, ax = _figure("Win rate per seat, 95% Wilson intervals", n)
    ax.bar(names, [r.value for r in rates], color=["#4878a8"] * players + ["#a0a0a0"],
           yerr=[[max(0.0, r.value - r.low) for r in rates], [max(0.0, r.high - r.value) for r in rates]], capsize=4)
    ax.axhline(1 / players, ls="--", color="#c04040", label=f"fair share 1/{players}")
    adv = first_player_advantage(trials)
    if adv is not None:
        ax.text(0.99, 0.97, f"first player advantage {adv.value:+.3f} [{adv.low:+.3f}, {adv.high:+.3f}]",
                transform=ax.transAxes, ha="right", va="top", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.legend(loc="upper left", fontsize=8)
    return fig


def solo_scores(game: Any, trials: Sequence[Trial]) -> Any:
    """A solo game's final scores, with the win rate in the title."""
    scores = [float(t.scores[0]) for t in trials if t.scores and _num(t.scores[0])]
    won = wilson(sum(1 for t in trials if outcome(t) == "win"), len(trials))
    fig, ax = _figure(f"Final score; won {won.value:.0%} [{won.low:.0%}, {won.high:.0%}]", len(scores))
    ax.hist(scores, bins=min(30, max(5, len(set(scores)))), color="#4878a8")
    ax.set_xlabel("score")
    ax.set_ylabel("games")
    return fig


def lengths(game: Any, trials: Sequence[Trial]) -> Any:
    """How long games are: decisions answered, with the mean and its interval."""
    xs = [t.steps for t in trials]
    m = mean_interval([float(x) for x in xs])
    fig, ax = _figure(f"Game length: mean {m.value:.1f} [{m.low:.1f}, {m.high:.1f}] decisions", len(xs))
    ax.hist(xs, bins=min(30, max(5, len(set(xs)))), color="#4878a8")
    ax.set_xlabel("decisions in the game")
    ax.set_ylabel("games")
    return fig


def margins(game: Any, trials: Sequence[Trial]) -> Any | None:
    """First place's score minus second place's (None when scores are not numbers)."""
    xs = [m for m in (margin(t) for t in trials) if m is not None]
    if not xs:
        return None
    fig, ax = _figure("Score margin, first minus second place", len(xs))
    ax.hist(xs, bins=min(30, max(5, len(set(xs)))), color="#4878a8")
    ax.set_xlabel("points")
    ax.set_ylabel("games")
    return fig


def ends(game: Any, trials: Sequence[Trial]) -> Any:
    """How often each end condition ended the game (the step limit as 'step_limit')."""
    counts = Counter(t.end for t in trials)
    names = end_names(game, trials)
    fig, ax = _figure("How games ended", len(trials))
    ax.barh(names, [counts.get(e, 0) for e in names], color="#4878a8")
    ax.invert_yaxis()
    ax.set_xlabel("games")
    ax.grid(axis="x", alpha=0.3)
    return fig


def branching(game: Any, trials: Sequence[Trial]) -> Any:
    """The menu's size over the course of a game: the mean per tenth of the game, with its interval."""
    per_bin: list[list[float]] = [[] for _ in range(BINS)]
    for t in trials:
        k = len(t.branching)
        for i, size in enumerate(t.branching):
            per_bin[min(BINS - 1, i * BINS // k)].append(float(size))
    est = [mean_interval(b) for b in per_bin]
    xs = [(i + 0.5) / BINS for i in range(BINS)]
    fig, ax = _figure("Branching factor over the game (options per decision)", len(trials))
    ax.plot(xs, [e.value for e in est], marker="o", color="#4878a8")
    ax.fill_between(xs, [e.low for e in est], [e.high for e in est], alpha=0.25, color="#4878a8")
    ax.set_xlabel("fraction of the game played")
    ax.set_ylabel("options")
    ax.set_xlim(0, 1)
    return fig


def decisive(game: Any, trials: Sequence[Trial]) -> Any | None:
    """From when on the eventual winner led: the share of games already decided at each point of the game."""
    xs = sorted(d for d in (decisiveness(t) for t in trials) if d is not None)
    if not xs:
        return None
    grid = [i / 50 for i in range(51)]
    decided = [sum(1 for x in xs if x <= g) / len(xs) for g in grid]
    m = mean_interval(xs)
    fig, ax = _figure(f"Decisiveness: the winner leads for good from {m.value:.0%} of the game on (mean)", len(xs))
    ax.plot(grid, decided, color="#4878a8")
    ax.set_xlabel("fraction of the game played")
    ax.set_ylabel("share of games decided")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    return fig


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def save(fig: Any, path: Path) -> bytes:
    """Write the figure as a PNG and return its bytes."""
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png")
    pyplot().close(fig)
    data = buf.getvalue()
    path.write_bytes(data)
    return data


def figures(game: Any, trials: Sequence[Trial]) -> list[tuple[str, str, Any]]:
    """(file stem, heading, figure) of every figure that applies to these trials."""
    solo = trials[0].players == 1
    made = [("wins", "Who wins" if not solo else "Scores", (solo_scores if solo else win_rates)(game, trials)),
            ("length", "Game length", lengths(game, trials)),
            ("margin", "Score margin", None if solo else margins(game, trials)),
            ("ends", "End conditions", ends(game, trials)),
            ("branching", "Branching factor", branching(game, trials)),
            ("decisiveness", "Decisiveness", None if solo else decisive(game, trials))]
    return [m for m in made if m[2] is not None]
