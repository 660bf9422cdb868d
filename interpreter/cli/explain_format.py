"""`orrery explain --format`: the summary (written as Markdown) as plain text, Markdown or a standalone HTML page.

explain.py writes Markdown: `#` headers, lists, inline code in backticks, effects
as indented code blocks.  Plain text turns the headers into underlined titles and
drops the backticks; HTML renders the Markdown with markdown-it (raw HTML in spec
text is escaped, never passed through: a spec cannot inject markup into the page).
"""

from __future__ import annotations

import html
import re

FORMATS = ("text", "markdown", "html")
_HEADER = re.compile(r"^(#{1,6}) (.*)$")
_INLINE_CODE = re.compile(r"`([^`\n]*)`")
_UNDERLINE = {1: "=", 2: "-"}

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


def as_text(markdown: str) -> str:
    """Plain text: underlined titles for `#` and `##`, bare titles below, inline code without backticks."""
    out: list[str] = []
    in_code = False
    for line in markdown.splitlines():
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
        is_code = in_code or line.startswith("        ")  # an indented block is an effect, quoted as written
        out.append(line if is_code else _INLINE_CODE.sub(r"\1", line))
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
