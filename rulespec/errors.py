"""Source spans, findings and the one error type that carries them.

Every problem Orrery reports about an input file is a `Finding` with a `Span`;
`Finding.format` renders it as ``FILE:LINE:COL: error: message`` followed by the
offending line and a caret, the way compilers do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Literal

Severity = Literal["error", "warning", "note"]


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns are 1-based, end is exclusive."""

    file: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def __reduce__(self) -> tuple:
        # a constructor call: the frozen slots dataclass's own pickling reads `fields()` for every span
        return Span, (self.file, self.line, self.col, self.end_line, self.end_col)

    def shifted(self, line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> "Span":
        """A span at another position in the same file."""
        return Span(self.file, line, col, end_line, end_col)


@dataclass(frozen=True, slots=True)
class Finding:
    """One located problem (or note) about an input."""

    span: Span | None
    message: str
    severity: Severity = "error"
    hint: str | None = None

    def headline(self) -> str:
        """The ``FILE:LINE:COL: severity: message`` line."""
        # (a problem with no place in a file, such as a command-line value, is the command's own)
        where = str(self.span) if self.span else "orrery"
        return printable(f"{where}: {self.severity}: {self.message}")

    def format(self, text: str | None = None) -> str:
        """Headline plus the source line and a caret under the offending column."""
        out = [self.headline()]
        snippet = _snippet(self.span, text)
        if snippet:
            out.append(snippet)
        if self.hint:
            out.append(printable(f"  hint: {self.hint}"))
        return "\n".join(out)


# Characters that must never reach a terminal from a file: C0 controls but tab and newline, DEL, C1
# controls (ESC starts the sequences that clear screens, retitle windows, move the cursor) and the
# bidirectional overrides and isolates, which reorder what is shown.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with every control character written as an escape (ESC as \\x1b): safe to print.

    Text from specs, logs, saves and scenario files is data; it is shown, never obeyed.
    """
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        text)


def one_line(text: str) -> str:
    """`text` on one line and safe to print: newlines and tabs written as `\\n` and `\\t`, controls as
    printable writes them (for names quoted in a message, where a newline would break the FILE:LINE:COL line)."""
    return printable(text.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t"))


def _snippet(span: Span | None, text: str | None) -> str:
    """The source line of `span` and a caret line, or '' when unavailable."""
    if span is None:
        return ""
    line = _source_line(span.file, span.line, text)
    if line is None:
        return ""
    src = _CONTROL.sub("\ufffd", line.expandtabs(1))  # one character each: the caret stays put
    start = max(span.col - 1, 0)
    width = 1
    if span.end_line == span.line and span.end_col and span.end_col > span.col:
        width = span.end_col - span.col
    width = max(1, min(width, max(len(src) - start, 1)))
    if len(src) > _SNIPPET_WIDTH:  # show a window of a very long line around the column
        left = max(0, min(start - 20, len(src) - _SNIPPET_WIDTH))
        cut = src[left:left + _SNIPPET_WIDTH]
        src = ("…" if left else "") + cut + ("…" if left + _SNIPPET_WIDTH < len(src) else "")
        start = start - left + (1 if left else 0)
        width = max(1, min(width, _SNIPPET_WIDTH - (start - (1 if left else 0))))
    gutter = f"{span.line:>5} | "
    return f"{gutter}{src}\n{' ' * (len(gutter) - 2)}| {' ' * start}{'^' * width}"


_SNIPPET_WIDTH = 120


_TEXT_CACHE: dict[str, str | None] = {}
_LINES_CACHE: dict[str, list[str]] = {}  # split once per text: many findings in one file stay linear


def _source_line(path: str, number: int, text: str | None) -> str | None:
    """Line `number` of `text`, of the remembered text of `path`, else read from the file (only up to that line,
    bounded: a snippet of /dev/zero or of a 3 GB file reads at most a few MB)."""
    if text is None and _TEXT_CACHE.get(path) is None:
        from .bounded import read_line

        return read_line(path, number)
    if text is None:
        lines = _LINES_CACHE.get(path)
        if lines is None:
            lines = _LINES_CACHE[path] = (_TEXT_CACHE[path] or "").splitlines()
    else:
        lines = text.splitlines()
    return lines[number - 1] if 1 <= number <= len(lines) else None


def read_text_quietly(path: str) -> str | None:
    """Read a file's text (at most 5 MB) for snippets, never raising."""
    if path in _TEXT_CACHE:
        return _TEXT_CACHE[path]
    from .bounded import TooLarge, read_bounded

    try:
        text: str | None = read_bounded(path, 5_000_000).decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError, TooLarge):
        text = None
    _TEXT_CACHE[path] = text
    return text


def remember_text(path: str, text: str) -> None:
    """Register a file's text so snippets work for in-memory sources too."""
    _TEXT_CACHE[path] = text
    _LINES_CACHE.pop(path, None)


class OrreryError(Exception):
    """Base for every error Orrery reports to a user (exit code 2, no traceback)."""

    exit_code = 2

    def __init__(self, findings: Iterable[Finding] | Finding | str):
        if isinstance(findings, str):
            findings = [Finding(None, findings)]
        elif isinstance(findings, Finding):
            findings = [findings]
        self.findings: list[Finding] = list(findings)
        super().__init__(self.render())

    def render(self) -> str:
        """All findings, formatted with snippets."""
        return "\n".join(f.format() for f in self.findings)


class SpecError(OrreryError):
    """A spec, variant or scenario file is invalid."""


class InputError(OrreryError):
    """Bad command-line input, log or save file."""


class LimitError(OrreryError):
    """A resource limit was hit while loading or running a spec."""


@dataclass
class Diagnostics:
    """Collects findings so that all problems are reported at once."""

    findings: list[Finding] = field(default_factory=list)

    def error(self, span: Span | None, message: str, hint: str | None = None) -> None:
        """Record an error."""
        self.findings.append(Finding(span, message, "error", hint))

    def warning(self, span: Span | None, message: str, hint: str | None = None) -> None:
        """Record a warning (does not fail validation)."""
        self.findings.append(Finding(span, message, "warning", hint))

    def extend(self, findings: Iterable[Finding]) -> None:
        """Add findings from elsewhere."""
        self.findings.extend(findings)

    @property
    def has_errors(self) -> bool:
        """True when any finding is an error."""
        return any(f.severity == "error" for f in self.findings)

    def raise_if_errors(self) -> None:
        """Raise SpecError with every finding (sorted by position) if any is an error."""
        if self.has_errors:
            raise SpecError(sorted(self.findings, key=_sort_key))


def _sort_key(f: Finding) -> tuple:
    s = f.span
    return (s.file, s.line, s.col) if s else ("", 0, 0)
