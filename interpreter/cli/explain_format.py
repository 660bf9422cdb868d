"""`orrery explain --format`: the summary (written as Markdown) as plain text, Markdown or a standalone HTML page.

explain.py writes Markdown: `#` headers, paragraphs, lists, tables, inline code in
backticks.  Plain text turns the headers into underlined titles, tables into aligned
columns and drops the backticks; HTML renders the Markdown with markdown-it (raw HTML in spec
text is escaped, never passed through: a spec cannot inject markup into the page).
"""

from __future__ import annotations

import html
import re

FORMATS = ("text", "markdown", "html")
_HEADER = re.compile(r"^(#{1,6}) (.*)$")
_INLINE_CODE = re.compile(r"`([^`\n]*)`")
_UNDERLINE = {1: "=", 2: "-"}
_BOLD = re.compile(r"\*\*([^*\n]+)\*\*")
_RULE_ROW = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")



def md_table(header: list[str], rows: list[list[object]]) -> list[str]:
    """A Markdown table as explain writes it: one line per row, each cell on one line with its pipes escaped."""
    def cell(text: object) -> str:
        return " ".join(str(text).split()).replace("|", "\\|")

    out = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    return out + ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]


_PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: Georgia, serif; max-width: 46em; margin: 2em auto; padding: 0 1em; line-height: 1.45; }}
code, pre {{ font-family: Menlo, Consolas, monospace; font-size: 0.9em; background: #f4f1ea; }}
pre {{ padding: 0.5em; overflow-x: auto; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #bbb; padding: 0.2em 0.5em; }}
</style>
</head>
<body>
{body}</body>
</html>
"""


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row (`\\|` is a pipe inside a cell)."""
    inner = line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def _text_table(rows: list[str]) -> list[str]:
    """A Markdown table as aligned columns: the header, a rule of dashes, the rows (inline code unmarked)."""
    table = [[_INLINE_CODE.sub(r"\1", c) for c in _cells(r)] for r in rows if not _RULE_ROW.match(r)]
    widths = [max(len(r[i]) if i < len(r) else 0 for r in table) for i in range(len(table[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in table]
    return lines[:1] + ["  ".join("-" * w for w in widths)] + lines[1:]


def as_text(markdown: str) -> str:
    """Plain text: underlined titles for `#` and `##`, bare titles below, tables as columns, code unmarked."""
    out: list[str] = []
    in_code = False
    table: list[str] = []
    for line in markdown.splitlines():
        if not in_code and line.startswith("|"):
            table.append(line)
            continue
        if table:
            out += _text_table(table)
            table = []
        if line.startswith("```"):  # fenced code stays as it is, fences dropped
            in_code = not in_code
            continue
        m = None if in_code or line.startswith(" ") else _HEADER.match(line)
        if m:
            level, title = len(m.group(1)), m.group(2).strip()
            out.append(title)
            if level in _UNDERLINE:
                out.append(_UNDERLINE[level] * len(title))
            continue
        is_code = in_code or line.startswith("        ") and not line.lstrip().startswith(("- ", "> "))
        out.append(line if is_code else _BOLD.sub(r"\1", _INLINE_CODE.sub(r"\1", line)))  # indented: as written
    if table:
        out += _text_table(table)
    return "\n".join(out) + "\n"


def as_html(markdown: str, title: str) -> str:
    """A standalone HTML page of the Markdown (tables on, raw HTML off)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    return _PAGE.format(title=html.escape(title), body=md.render(markdown))


def render(markdown: str, fmt: str, title: str) -> str:
    """The summary in one of FORMATS."""
    if fmt == "markdown":
        return markdown
    if fmt == "html":
        return as_html(markdown, title)
    return as_text(markdown)


__all__ = ["FORMATS", "render", "as_text", "as_html"]
