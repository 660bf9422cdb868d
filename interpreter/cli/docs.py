"""`orrery docs [TOPIC] [SECTION]`: the documentation that ships with the package, read in the terminal.

The Markdown files of docs/ install as package data (`orrery.docs`, pyproject.toml), so a pip install has the
language reference that `orrery new` and the error messages point to.  `orrery docs` lists the topics (a
file's name without `.md`, and its title); `orrery docs dsl` shows the language reference, on a terminal
rendered and wrapped to its width through a pager (as the table's `rules`), elsewhere as plain Markdown;
`orrery docs dsl 2.10.2` (or words of a heading: `orrery docs dsl costs`) shows one section and the ones
under it; `--path` prints where the file is (to open it in an editor).
"""

from __future__ import annotations

import argparse
import re
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from orrery.rulespec.errors import InputError, printable

from ..engine.gamefiles import close_to

if TYPE_CHECKING:  # rich is imported when a page is shown, not when the parser is built
    from rich.console import Console

CHECKOUT_DOCS = Path(__file__).resolve().parents[2] / "docs"  # a checkout installed before docs were package data
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def add_command(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The `docs` subcommand."""
    sp = add("docs", cmd_docs, "Read the documentation that comes with Orrery (the language reference: orrery docs "
                               "dsl); without TOPIC, list the topics.", limits=False)
    sp.add_argument("topic", metavar="TOPIC", nargs="?", help="a topic, e.g. dsl (the rule-spec language)")
    sp.add_argument("section", metavar="SECTION", nargs="*", help="one section only: its number (2.10.2) or words "
                    "of its heading (costs)")
    sp.add_argument("--path", action="store_true", help="print the file's path instead (to open it in an editor)")


def docs_dir() -> Path:
    """The folder of the shipped docs: the installed package data, else the checkout's docs/."""
    try:
        folder = Path(str(resources.files("orrery.docs")))
    except ModuleNotFoundError:  # an editable install made before docs/ was package data
        return CHECKOUT_DOCS
    return folder if (folder / "dsl.md").is_file() else CHECKOUT_DOCS


def topics() -> dict[str, str]:
    """Each topic and its title (the file's first heading)."""
    out = {}
    for path in sorted(docs_dir().glob("*.md")):
        first = next((m.group(2) for m in map(HEADING.match, path.read_text(encoding="utf-8").splitlines()) if m),
                     path.stem)
        out[path.stem] = first
    return out


def topic_path(topic: str) -> Path:
    """The file of a topic; a located InputError (with a did-you-mean) when there is none."""
    known = topics()
    if topic not in known:
        raise InputError(f"docs: no topic '{topic}'{close_to(topic, list(known))} (topics: {', '.join(known)})")
    return docs_dir() / f"{topic}.md"


def headings(text: str) -> list[tuple[int, int, str]]:
    """(line index, level, title) of each Markdown heading outside code blocks."""
    out, fenced = [], False
    for i, line in enumerate(text.splitlines()):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := HEADING.match(line)):
            out.append((i, len(m.group(1)), m.group(2)))
    return out


def section(text: str, which: str, topic: str) -> str:
    """The section whose number is `which` (`2.10.2`) or whose heading holds its words, with its subsections."""
    found = headings(text)
    words = which.lower().split()
    number = re.fullmatch(r"§?(\d+(?:\.\d+)*)\.?", which.strip())
    if number:
        pick = [h for h in found if re.match(rf"{re.escape(number.group(1))}\.?(\s|$)", h[2])]
    else:
        pick = [h for h in found if all(w in h[2].lower() for w in words)]
    if not pick:
        tops = [t for _, lv, t in found if lv == min((lv for _, lv, _ in found[1:]), default=1)]
        raise InputError(f"docs {topic}: no section '{which}' (its chapters: {'; '.join(tops)})")
    start, level, _ = pick[0]
    lines = text.splitlines()
    end = next((i for i, lv, _ in found if i > start and lv <= level), len(lines))
    return "\n".join(lines[start:end]).rstrip() + "\n"


def cmd_docs(args: argparse.Namespace) -> int:
    """List the topics, or show one (one section of it) through the pager."""
    if not args.topic:
        known = topics()
        width = max(map(len, known), default=0)
        for name, title in known.items():
            print(printable(f"{name:{width}}  {title}"))
        print("orrery docs TOPIC shows one (orrery docs dsl: the rule-spec language); orrery docs TOPIC SECTION "
              "one section of it (orrery docs dsl 2.10.2)")
        return 0
    path = topic_path(args.topic)
    if args.path:
        print(path)
        return 0
    text = path.read_text(encoding="utf-8")
    if args.section:
        text = section(text, " ".join(args.section), args.topic)
    from rich.console import Console

    show_markdown(Console(highlight=False), text)
    return 0


def show_markdown(console: Console, text: str) -> None:
    """Markdown: on a terminal rendered, wrapped to its width and shown through a pager (a reference or the
    rules of a big game run to hundreds of lines); elsewhere printed as it is, whole lines."""
    from rich.markup import escape

    if not console.is_terminal:
        console.print(escape(text), soft_wrap=True, end="")
        return
    from rich.markdown import Markdown

    with console.pager(styles=True):
        console.print(Markdown(text))


__all__ = ["add_command", "cmd_docs", "docs_dir", "topics", "topic_path", "section", "headings", "show_markdown"]
