"""The balance report: one self-contained HTML page (figures embedded, no network) plus the PNG files.

Sections: what was played (and the command line that plays it again), the outcomes with each game counted once,
every metric with its 95 % interval and the games it rests on, the figures, and, when asked for, the rule
coverage and a variant comparison.  Everything the spec says is escaped: the page shows rules, it runs none.
"""

from __future__ import annotations

import base64
import html
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from . import plots
from .compare import ALPHA, TEST_NAME, MetricDiff
from .metrics import outcome_counts, summary
from .stats import Estimate
from .trials import Trial

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1340px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.6em;margin-bottom:.2em} h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0;font-size:.92em} td,th{border:1px solid #ddd;padding:.25em .6em;text-align:right}
th{background:#f3f3f3} td:first-child,th:first-child{text-align:left}
.meta{color:#555;font-size:.92em} code{background:#f5f5f5;padding:.1em .3em;border-radius:3px}
.figs{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,560px),1fr));gap:0 1.2em}
figure{margin:1em 0} figcaption{font-size:.85em;color:#555} img{max-width:100%;border:1px solid #eee}
.sig{font-weight:bold;color:#a02020} .dead{color:#a02020}
"""


@dataclass
class Report:
    """What the page shows."""

    game: Any
    trials: Sequence[Trial]
    command: str
    variants: list[str]
    bots: list[str]
    seed: int
    coverage_html: str = ""
    comparison: tuple[str, str, list[MetricDiff]] | None = None
    notes: list[str] = field(default_factory=list)


def write_report(report: Report, out: Path) -> Path:
    """Draw the figures into `out`, write `out/index.html`, and return the page's path."""
    out.mkdir(parents=True, exist_ok=True)
    figs = []
    for stem, heading, fig in plots.figures(report.game, report.trials):
        png = plots.save(fig, out / f"{stem}.png")
        figs.append((stem, heading, png))
    page = out / "index.html"
    page.write_text(render(report, figs), encoding="utf-8")
    return page


def render(report: Report, figs: list[tuple[str, str, bytes]]) -> str:
    """The HTML page."""
    g, e = report.game, html.escape
    title = g.spec.model.game.title or g.name
    n = len(report.trials)
    players = report.trials[0].players if report.trials else g.num_players()
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{e(title)}: balance report</title>"
             f"<style>{CSS}</style></head><body>",
             f"<h1>{e(title)}: balance report</h1>",
             f"<p class='meta'>{n} games, {players} players, bots {e(', '.join(report.bots))}, seeds {report.seed} to "
             f"{report.seed + n - 1}; variants: {e(', '.join(report.variants) or 'none')}.<br>"
             f"Played again by <code>{e(report.command)}</code></p>"]
    parts += [f"<p class='meta'>{e(note)}</p>" for note in report.notes]
    parts.append(_outcomes(report.trials))
    parts.append(_metrics(summary(g, report.trials)))
    parts.append("<h2>Figures</h2><div class='figs'>")
    for stem, heading, png in figs:
        data = base64.b64encode(png).decode("ascii")
        parts.append(f"<figure id='{stem}'><img alt='{e(heading)}' src='data:image/png;base64,{data}'>"
                     f"<figcaption>{e(heading)} (also <a href='{stem}.png'>{stem}.png</a>)</figcaption></figure>")
    parts.append("</div>")
    if report.comparison is not None:
        parts.append(comparison_html(*report.comparison))
    if report.coverage_html:
        parts.append(report.coverage_html)
    parts.append("</body></html>")
    return "\n".join(parts)


def _outcomes(trials: Sequence[Trial]) -> str:
    counts = outcome_counts(trials)
    rows = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in counts.items())
    return ("<h2>Outcomes</h2><p class='meta'>Each game counted once: a tie several players share is one shared win, "
            "nobody or everybody winning is a draw, a game stopped by the step limit is a runaway.</p>"
            f"<table><tr><th>outcome</th><th>games</th></tr>{rows}</table>")


def _fmt(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.3f}" if abs(x) < 1000 else f"{x:.0f}"


def _metrics(est: dict[str, Estimate]) -> str:
    rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{_fmt(v.value)}</td><td>[{_fmt(v.low)}, {_fmt(v.high)}]</td>"
                   f"<td>{v.n}</td></tr>" for k, v in est.items())
    return ("<h2>Metrics</h2><p class='meta'>Rates with Wilson's 95 % interval, means with Student's t interval; "
            "n is the number of games a metric rests on (decisiveness: games with a sole winner).</p>"
            f"<table><tr><th>metric</th><th>value</th><th>95 % interval</th><th>n</th></tr>{rows}</table>")


def comparison_html(label_a: str, label_b: str, diffs: Sequence[MetricDiff]) -> str:
    """The variant A/B section."""
    e = html.escape
    rows = "".join(
        f"<tr{' class=sig' if d.significant else ''}><td>{e(d.metric)}</td><td>{_fmt(d.a)}</td><td>{_fmt(d.b)}</td>"
        f"<td>{d.diff:+.3f}</td><td>[{d.low:+.3f}, {d.high:+.3f}]</td><td>{d.p_holm:.3g}</td><td>{d.n}</td></tr>"
        for d in diffs)
    return (f"<h2>Variant comparison</h2><p class='meta'>A = {e(label_a)}, B = {e(label_b)}, on the same seeds. "
            f"{e(TEST_NAME)}; bold rows differ significantly at {ALPHA:g}.</p>"
            "<table><tr><th>metric</th><th>A</th><th>B</th><th>B - A</th><th>95 % interval</th><th>p (Holm)</th>"
            f"<th>pairs</th></tr>{rows}</table>")


def coverage_html(uses: Sequence[Any], games: int) -> str:
    """The rule coverage section: per kind how many fired, the unused rules with FILE:LINE, then every count."""
    from .coverage import KINDS, PLURAL, never_fired, never_fired_listing, never_legal

    e = html.escape
    summary_rows = "".join(
        f"<tr><td>{PLURAL[k]}</td><td>{sum(1 for u in uses if u.kind == k and u.fired)}</td>"
        f"<td>{sum(1 for u in uses if u.kind == k)}</td></tr>" for k in KINDS if any(u.kind == k for u in uses))
    dead = never_fired(uses)
    unreachable = never_legal(uses)
    listing = "".join(f"<li class=dead><code>{e(where)}</code> {e(kind)} {e(name)}</li>"
                      for where, kind, name in never_fired_listing(uses))
    legal = "".join(f"<li class=dead><code>{e(u.where)}</code> {e(u.name)}</li>" for u in unreachable)
    rows = "".join(f"<tr><td>{e(u.kind)}</td><td>{e(u.name)}</td><td>{u.fired}</td>"
                   f"<td>{'' if u.legal is None else u.legal}</td><td><code>{e(u.where)}</code></td></tr>"
                   for u in uses)
    return (f"<h2>Rule coverage</h2><p class='meta'>Counted over the same {games} games, replayed on the reference "
            "interpreter: an action fired when performed and was legal when a menu (a step's or a window's) "
            "offered it; a trigger, procedure or effect branch when its block ran; a table row when looked up; "
            "a card when chosen.</p>"
            f"<table><tr><th>kind</th><th>fired</th><th>of</th></tr>{summary_rows}</table>"
            + (f"<h3>Never fired ({len(dead)})</h3><ul>{listing}</ul>" if dead else "<p>Every rule fired.</p>")
            + (f"<h3>Never legal ({len(unreachable)})</h3><ul>{legal}</ul>" if unreachable else "")
            + "<details><summary>Every rule with its counts</summary><table><tr><th>kind</th><th>rule</th>"
            f"<th>fired</th><th>legal</th><th>where</th></tr>{rows}</table></details>")
