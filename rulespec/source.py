"""Load one YAML file into plain data while remembering where every value came from.

Specs are read with YAML 1.2 semantics (ruamel.yaml): a key or value `on`, `yes` or `no` stays text, as
every YAML 1.2 tool (editors' language servers, `jsonschema` checks) reads it. ruamel's `compose` step
yields a node graph with start/end marks and never builds Python objects, so it is safe against
`!!python/...` tags; we build the plain data from the nodes ourselves, refusing unknown tags, duplicate
keys and anchors, several documents and alias bombs, and keep the nodes so that later stages can point at
any value. ruamel locates nodes; positions *inside* a scalar (a rule text's tokens) are mapped here.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.composer import Composer
from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.cyaml import CParser
from ruamel.yaml.error import MarkedYAMLError, StreamMark, YAMLError
from ruamel.yaml.events import AliasEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent
from ruamel.yaml.loader import SafeLoader
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.resolver import VersionedResolver

from .bounded import NotAFile, TooLarge, YamlLimits, read_bounded, size_text
from .errors import Finding, LimitError, SpecError, Span, remember_text

_P = "tag:yaml.org,2002:"
_ALLOWED_TAGS = frozenset(_P + t for t in ("str", "int", "float", "bool", "null", "map", "seq"))
_MERGE = _P + "merge"
_KINDS = {  # which explicit tags fit which kind of node
    ScalarEvent: ("a single value", _ALLOWED_TAGS - {_P + "map", _P + "seq"}),
    SequenceStartEvent: ("a list", {_P + "seq"}),
    MappingStartEvent: ("a mapping", {_P + "map"}),
}
# Scalar conversions only (the loader's SafeConstructor methods, which read node.value and the YAML version).
_CONVERT = {_P + "int": "construct_yaml_int", _P + "float": "construct_yaml_float",
            _P + "bool": "construct_yaml_bool", _P + "null": "construct_yaml_null"}
# YAML's line breaks (the reader counts exactly these when it computes marks).
_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")
_SPACE = " \t\r\n\x85\u2028\u2029"


@dataclass
class SourceDoc:
    """A parsed YAML file: its text, its plain data and the node graph behind the data."""

    path: str
    text: str
    data: Any
    root: Node | None = field(default=None, repr=False, compare=False)
    # id(mapping node) -> {key: (key node, value node)}, merges already applied.
    _maps: dict[int, dict[str, tuple[Node, Node]]] = field(default_factory=dict, repr=False, compare=False)
    _starts: list[int] | None = field(default=None, repr=False, compare=False)
    # id(scalar node) -> what _locate needs, computed once per node (checking maps every AST node of a
    # rule text, so recomputing per call would be quadratic in the size of the text)
    _located: dict[int, tuple] = field(default_factory=dict, repr=False, compare=False)
    _walks: dict[tuple, tuple] = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> dict:
        # (pickled by the disk cache, speccache.py) the caches keyed by a node's id() would name other objects
        # in another process: the mapping entries travel with their nodes, the per-node caches are dropped
        state = dict(self.__dict__)
        by_id = {id(n): n for n in _all_nodes(self.root)}
        state["_maps"] = [(by_id[k], v) for k, v in self._maps.items() if k in by_id]
        state["_located"], state["_walks"] = {}, {}
        return state

    def __setstate__(self, state: dict) -> None:
        state["_maps"] = {id(node): entries for node, entries in state["_maps"]}
        self.__dict__.update(state)

    def span(self, path: tuple = ()) -> Span:
        """Span of the value at `path`, or of its nearest known ancestor."""
        node, _, _ = self._walk(path)
        return self._node_span(node) if node is not None else Span(self.path, 1, 1)

    def key_span(self, path: tuple) -> Span | None:
        """Span of the mapping key of the entry at `path`, None if it is not a mapping entry."""
        node, key, complete = self._walk(path)
        return self._node_span(key) if complete and key is not None else None

    def text_span(self, path: tuple, line: int, col: int,
                  end_line: int | None = None, end_col: int | None = None) -> Span:
        """Map a 1-based (line, col) inside the string value at `path` to a span in the file."""
        walked = self._walks.get(path)
        if walked is None:  # a rule text maps one position per AST node: walk to its scalar once
            walked = self._walks[path] = self._walk(path)
        node, _, complete = walked
        if not complete or not isinstance(node, ScalarNode):
            return self.span(path)
        start = self._locate(node, line, col)
        end: tuple[int | None, int | None] = (None, None)
        if end_col is not None:
            el = line if end_line is None else end_line
            if end_col > 1:  # map the last character, then step past it (end is exclusive)
                last_line, last_col = self._locate(node, el, end_col - 1)
                end = (last_line, last_col + 1)
            else:
                end = self._locate(node, el, end_col)
        return Span(self.path, start[0], start[1], *end)

    def _walk(self, path: tuple) -> tuple[Node | None, Node | None, bool]:
        """Deepest node along `path`, the key node of the last step, and whether all of it matched."""
        node, key = self.root, None
        for step in path:
            if isinstance(node, MappingNode) and isinstance(step, str):
                entry = self._maps.get(id(node), {}).get(step)
                if entry is None:
                    return node, None, False
                key, node = entry
            elif (isinstance(node, SequenceNode) and isinstance(step, int) and not isinstance(step, bool)
                  and -len(node.value) <= step < len(node.value)):
                key, node = None, node.value[step]
            else:
                return node, None, False
        return node, key, node is not None

    def _node_span(self, node: Node) -> Span:
        s, e = node.start_mark, node.end_mark
        return Span(self.path, s.line + 1, s.column + 1, e.line + 1, e.column + 1)

    def _locate(self, node: ScalarNode, line: int, col: int) -> tuple[int, int]:
        """File (line, col) of position (line, col) inside the scalar's parsed value."""
        starts = self._starts = self._starts or _line_starts(self.text)
        known = self._located.get(id(node))
        if known is None:
            known = self._located[id(node)] = self._layout(node, starts)
        if node.style == "|":
            # Literal block: value line N is file line header+N, shifted by the block indent.
            header, indent = known
            return header + 1 + max(line, 1), indent + max(col, 1)
        line_offsets, offsets, fallback = known
        line = min(max(line, 1), len(line_offsets))
        target = line_offsets[line - 1] + max(col, 1) - 1
        return _pos(starts, offsets[target] if 0 <= target < len(offsets) else fallback)

    def _layout(self, node: ScalarNode, starts: list[int]) -> tuple:
        """(header line, indent) of a literal block; else (value line offsets, source offset of each
        value character, offset for positions past the end)."""
        p0 = _content_start(self.text, node.start_mark.index)
        header = bisect.bisect_right(starts, p0) - 1
        value = node.value
        if node.style == "|":
            return header, _block_indent(self.text, starts, header, value)
        if node.style == ">":
            begin = starts[header + 1] if header + 1 < len(starts) else node.end_mark.index
        else:
            begin = p0 + 1 if node.style in ("'", '"') else p0
        line_offsets = [0]
        for i, ch in enumerate(value):
            if ch == "\n":
                line_offsets.append(i + 1)
        offsets, fallback = _match_all(self.text, begin, node.end_mark.index, value)
        return line_offsets, offsets, fallback

def load_yaml(source: str | Path, *, text: str | None = None, limits: YamlLimits | None = None) -> SourceDoc:
    """Read and safely parse one YAML file whose top level must be a mapping."""
    limits = limits or YamlLimits()
    name = str(source)
    if text is None:
        text = _read(Path(source), name, limits)
    elif len(text.encode("utf-8", "replace")) > limits.max_bytes:
        raise LimitError(_too_big(name, limits))
    text = text.removeprefix("\ufeff")  # the reader skips a BOM without counting it as a column
    remember_text(name, text)
    if not _OTHER_BREAKS.search(text):
        fast = _FastComposer(text, name, limits.max_depth)
        try:
            doc = _load(fast, name, text, limits)
            _python_marks(doc.root)
            return doc
        except (SpecError, LimitError, YAMLError):  # read again below: the reference's messages are the ones said
            pass
        finally:
            fast.dispose()
    try:
        loader = _Composer(text, name, limits.max_depth)  # (the reader checks every character here)
    except YAMLError as exc:
        raise SpecError(_syntax_finding(name, text, exc)) from exc
    try:
        return _load(loader, name, text, limits)
    finally:
        loader.dispose()


def _load(loader: _Checks, name: str, text: str, limits: YamlLimits) -> SourceDoc:
    """Compose, measure and build the one document `loader` reads."""
    try:
        root, findings = _compose(loader, name)
    except _TooDeep as exc:
        raise LimitError(Finding(_mark_span(name, exc.args[0]), _depth_message(limits))) from None
    except RecursionError:
        raise LimitError(Finding(Span(name, 1, 1), _depth_message(limits))) from None
    except YAMLError as exc:
        raise SpecError(_syntax_finding(name, text, exc)) from exc
    if not isinstance(root, MappingNode):
        found = ("nothing" if root is None or root.tag == _P + "null"
                 else "a list" if isinstance(root, SequenceNode) else "a single value")
        where = _mark_span(name, root.start_mark) if root is not None else Span(name, 1, 1)
        raise SpecError([*findings, Finding(where, f"expected a mapping at the top of the file, found {found}")])
    size, height = _measure(root, name)
    if height[id(root)] > limits.max_depth:
        deep = _deepest(root, height, limits.max_depth)
        raise LimitError(Finding(_mark_span(name, deep.start_mark), _depth_message(limits)))
    if size > limits.max_nodes:
        raise LimitError(Finding(_mark_span(name, root.start_mark), f"YAML document expands to more than "
                                 f"{limits.max_nodes} nodes (limit yaml_nodes); raise it with --limit yaml_nodes=N"))
    builder = _Builder(name, loader)
    try:
        data = builder.value(root)
    except RecursionError:  # only when max_depth was raised beyond what Python's stack allows
        raise LimitError(Finding(_mark_span(name, root.start_mark), _depth_message(limits))) from None
    findings = list(dict.fromkeys(findings + builder.findings))  # aliases can repeat a finding
    if findings:
        raise SpecError(sorted(findings, key=lambda f: (f.span.line, f.span.col) if f.span else (0, 0)))
    return SourceDoc(name, text, data, root, builder.maps)


def _all_nodes(root: Node | None) -> list[Node]:
    """Every node of a composed graph once (aliases make it a graph), without recursion."""
    out: list[Node] = []
    seen: set[int] = set()
    todo = [root] if root is not None else []
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        out.append(node)
        todo.extend(_children(node))
    return out


class _TooDeep(Exception):
    """Nesting passed max_depth while composing; args[0] is the offending mark."""


class _Checks(Composer):
    """ruamel's composer, recording refused tags and reused anchors and stopping runaway nesting; it reads
    the events of whichever YAML 1.2 parser it is mixed with."""

    def _setup(self, name: str, max_depth: int) -> None:
        self.max_depth = None  # ruamel's own depth limit counts scalars too: ours (depth_limit) counts nesting
        self.name, self.depth_limit, self.level = name, max_depth, 0
        self.findings: list[Finding] = []

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            return super().compose_node(parent, index)
        if event.anchor is not None and event.anchor in self.anchors:
            # YAML 1.2 lets a later anchor shadow an earlier one; in a spec that is a slip that silently
            # changes what the aliases after it mean.
            first = self.anchors[event.anchor].start_mark
            raise _DuplicateAnchor(f"found duplicate anchor '{event.anchor}'", event.start_mark, first)
        tag = None if event.ctag is None else str(event.ctag)
        if tag not in (None, "!"):
            kind, fits = _KINDS[type(event)]
            if tag not in _ALLOWED_TAGS:
                self._refuse(event, f"tag '{_short(tag)}' is not allowed: specs are data, not code")
            elif tag not in fits:
                self._refuse(event, f"tag '{_short(tag)}' cannot be used on {kind}")
        return super().compose_node(parent, index)

    def compose_sequence_node(self, anchor: str | None) -> Node:
        return self._nested(super().compose_sequence_node, anchor)

    def compose_mapping_node(self, anchor: str | None) -> Node:
        return self._nested(super().compose_mapping_node, anchor)

    def _nested(self, compose: Any, anchor: str | None) -> Node:
        # ruamel composes recursively; stop before Python's recursion limit does.
        self.level += 1
        try:
            if self.level > self.depth_limit:
                raise _TooDeep(self.peek_event().start_mark)
            return compose(anchor)
        finally:
            self.level -= 1

    def _refuse(self, event: Any, message: str) -> None:
        self.findings.append(Finding(_mark_span(self.name, event.start_mark), message,
                                     hint="remove the tag; specs use plain YAML values only"))


class _Composer(_Checks, SafeLoader):
    """The reference reader: ruamel's reader, scanner and parser in Python, with our composer and the
    SafeLoader's scalar conversions. Its messages are the ones a user sees."""

    def __init__(self, text: str, name: str, max_depth: int):
        SafeLoader.__init__(self, text)
        self._setup(name, max_depth)


class _FastComposer(_Checks, CParser, SafeConstructor, VersionedResolver):
    """The same composer over libyaml's scanner and parser (ruamel.yaml.clib): the same nodes and marks as
    _Composer for every text it accepts (tests/test_source_fast.py compares them), at a fraction of the cost.
    A text it refuses is read again by _Composer; a text with line breaks other than CR and LF (NEL, LS, PS,
    which the two count differently) goes to _Composer directly."""

    def __init__(self, text: str, name: str, max_depth: int):
        CParser.__init__(self, text)
        self._parser = self  # (ruamel's composer reads its events from loader._parser)
        Composer.__init__(self, loader=self)
        SafeConstructor.__init__(self, loader=self)
        VersionedResolver.__init__(self, loader=self)
        self._setup(name, max_depth)


def _python_marks(root: Node | None) -> None:
    """libyaml's marks are objects of its C module, which the spec cache's unpickler does not make
    (rulespec/speccache.py): the same positions as ruamel's own marks."""
    for node in _all_nodes(root):
        for attr in ("start_mark", "end_mark"):
            m = getattr(node, attr)
            setattr(node, attr, StreamMark(m.name, m.index, m.line, m.column))


_OTHER_BREAKS = re.compile("[\x85\u2028\u2029]")


class _DuplicateAnchor(YAMLError):
    """An anchor defined twice: args are (message, mark of the second, mark of the first)."""


def _compose(loader: _Checks, name: str) -> tuple[Node | None, list[Finding]]:
    """Compose the single document the loader reads (None when there is none)."""
    root = loader.get_node() if loader.check_node() else None
    if root is not None and loader.check_node():
        where = _mark_span(name, loader.peek_event().start_mark)
        raise SpecError(Finding(where, "only one YAML document per file",
                                hint="split the documents into separate files"))
    return root, loader.findings


class _Builder:
    """Turns a composed node graph into plain Python data, collecting findings."""

    def __init__(self, name: str, loader: SafeLoader):
        self.name, self.loader = name, loader
        self.maps: dict[int, dict[str, tuple[Node, Node]]] = {}
        self.findings: list[Finding] = []

    def value(self, node: Node) -> Any:
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        if isinstance(node, SequenceNode):
            return [self.value(item) for item in node.value]
        return {key: self.value(v) for key, (_, v) in self.entries(node).items()}

    def scalar(self, node: ScalarNode) -> Any:
        convert = _CONVERT.get(node.tag)
        if convert is None:  # str, and implicit timestamps/`=`: kept as the text written
            return node.value
        try:
            return getattr(self.loader, convert)(node)
        except (ValueError, KeyError, IndexError, TypeError):
            self.error(node, f"cannot read {node.value!r} as {_short(node.tag)}")
            return node.value

    def entries(self, node: MappingNode) -> dict[str, tuple[Node, Node]]:
        """Key -> (key node, value node) with `<<` merges applied; cached per node."""
        if id(node) in self.maps:
            return self.maps[id(node)]
        own: dict[str, tuple[Node, Node]] = {}
        merged: dict[str, tuple[Node, Node]] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and key_node.tag == _MERGE:
                sources = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
                for src in sources:
                    if not isinstance(src, MappingNode):
                        self.error(src, "'<<' (merge key) needs a mapping or a list of mappings")
                        continue
                    for k, entry in self.entries(src).items():
                        merged.setdefault(k, entry)  # earlier merge sources win (YAML's merge key)
                continue
            if not isinstance(key_node, ScalarNode):
                self.error(key_node, "mapping keys must be plain text, not a list or mapping")
                continue
            key = key_node.value  # the key's own text: `on:` stays "on", `1:` becomes "1"
            if key in own:
                first = own[key][0].start_mark
                self.error(key_node, f"duplicate key '{key}' (first defined at {first.line + 1}:{first.column + 1})")
                continue
            own[key] = (key_node, value_node)
        result = {k: e for k, e in merged.items() if k not in own}  # explicit keys override merged ones
        result.update(own)
        self.maps[id(node)] = result
        return result

    def error(self, node: Node, message: str) -> None:
        self.findings.append(Finding(_mark_span(self.name, node.start_mark), message))


def _measure(root: Node, name: str) -> tuple[int, dict[int, int]]:
    """Expanded node count and collection height per node, without recursion (aliases share nodes)."""
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        kids = _children(node)
        if done:
            on_path.discard(id(node))
            size[id(node)] = 1 + sum(size[id(k)] for k in kids)
            base = 0 if isinstance(node, ScalarNode) else 1
            height[id(node)] = base + max((height[id(k)] for k in kids), default=0)
        elif id(node) not in size:
            if id(node) in on_path:
                raise SpecError(Finding(_mark_span(name, node.start_mark),
                                        "recursive alias: a node cannot contain itself"))
            on_path.add(id(node))
            stack.append((node, True))
            stack.extend((k, False) for k in kids if id(k) not in size)
    return size[id(root)], height


def _deepest(root: Node, height: dict[int, int], max_depth: int) -> Node:
    """The first collection nested more than `max_depth` levels deep."""
    node = root
    for _ in range(max_depth):
        node = max((k for k in _children(node) if not isinstance(k, ScalarNode)), key=lambda k: height[id(k)])
    return node


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return node.value
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _read(path: Path, name: str, limits: YamlLimits) -> str:
    """The file's text, or a located SpecError/LimitError explaining why it cannot be read."""
    where = Span(name, 1, 1)
    try:
        if path.is_dir():
            raise SpecError(Finding(where, "is a directory, not a file"))
        data = read_bounded(path, limits.max_bytes)  # bounded before and while reading: /dev/zero, sparse files
    except TooLarge:
        raise LimitError(_too_big(name, limits)) from None
    except FileNotFoundError:
        raise SpecError(Finding(where, "file not found")) from None
    except NotAFile as exc:  # a named pipe, a device, a link loop: refused before it is opened
        raise SpecError(Finding(where, str(exc))) from None
    except OSError as exc:
        raise SpecError(Finding(where, f"cannot read file: {exc.strerror or exc}")) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        col = len(data[line_start:exc.start].decode("utf-8", "replace")) + 1
        remember_text(name, data.decode("utf-8", "replace"))
        raise SpecError(Finding(Span(name, line, col),
                                f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})",
                                hint="save the file with UTF-8 encoding")) from None


def _syntax_finding(name: str, text: str, exc: YAMLError) -> Finding:
    """A located finding for a YAML scanner/parser/composer/reader error."""
    if isinstance(exc, _DuplicateAnchor):
        message, second, first = exc.args
        return Finding(_mark_span(name, second), f"YAML syntax error: {message}",
                       hint=f"first defined at {first.line + 1}:{first.column + 1}")
    if isinstance(exc, ReaderError):
        line, col = _pos(_line_starts(text), exc.position)
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        return Finding(Span(name, line, col), f"YAML syntax error: character #x{char:04x} is not allowed in YAML")
    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        where = _mark_span(name, mark) if mark else Span(name, 1, 1)
        hint = None
        if exc.problem and exc.context:
            cm = exc.context_mark
            hint = exc.context + (f" (line {cm.line + 1}, column {cm.column + 1})" if cm else "")
        return Finding(where, f"YAML syntax error: {exc.problem or exc.context or 'invalid YAML'}", hint=hint)
    return Finding(Span(name, 1, 1), f"YAML syntax error: {exc}")


def _mark_span(name: str, mark: StreamMark) -> Span:
    return Span(name, mark.line + 1, mark.column + 1)


def _short(tag: str) -> str:
    return "!!" + tag[len(_P):] if tag.startswith(_P) else tag  # as the author wrote it


def _depth_message(limits: YamlLimits) -> str:
    return f"nesting deeper than {limits.max_depth} levels (limit yaml_depth); raise it with --limit yaml_depth=N"


def _too_big(name: str, limits: YamlLimits) -> Finding:
    return Finding(Span(name, 1, 1), f"file is larger than {size_text(limits.max_bytes)} (limit yaml_bytes); "
                                     "raise it with --limit yaml_bytes=N")


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _BREAK.finditer(text)]


def _pos(starts: list[int], offset: int) -> tuple[int, int]:
    """1-based (line, col) of a character offset."""
    i = bisect.bisect_right(starts, offset) - 1
    return i + 1, offset - starts[i] + 1


def _content_start(text: str, i: int) -> int:
    """Skip a node's anchor/tag properties (and comments) to where its content begins."""
    while i < len(text):
        c = text[i]
        if c in "&!":
            while i < len(text) and text[i] not in _SPACE:
                i += 1
        elif c in _SPACE:
            i += 1
        elif c == "#":
            while i < len(text) and text[i] not in "\r\n\x85\u2028\u2029":
                i += 1
        else:
            break
    return i


def _block_indent(text: str, starts: list[int], header: int, value: str) -> int:
    """Indentation of a literal block, read off its first non-blank content line."""
    for n, vline in enumerate(value.split("\n"), start=1):
        if vline.strip() and header + n < len(starts):
            a = starts[header + n]
            b = starts[header + n + 1] if header + n + 1 < len(starts) else len(text)
            src = text[a:b].rstrip("\r\n\x85\u2028\u2029")
            return len(src) - len(vline) if src.endswith(vline) else len(src) - len(src.lstrip(" "))
    return 0


def _match_all(text: str, p: int, end: int, value: str) -> tuple[list[int], int]:
    """Source offset of every value character, pairing value characters with source characters in
    order, and the offset for positions past the end of the value.

    Exact when the value is a verbatim copy of the source; folding (line break ->
    space) and escapes only cost accuracy near the altered characters.  A character
    is looked for at most _MATCH_WINDOW source characters ahead, so that a value the
    source spells very differently (many escapes) stays linear to map.
    """
    out: list[int] = []
    for ch in value:
        q, stop = p, min(end, p + _MATCH_WINDOW)
        while q < stop and not (text[q] == ch or (ch in " \t\n" and text[q] in _SPACE)):
            q += 1
        if q < stop:
            out.append(q)
            p = q + 1
        else:
            out.append(p)
    return out, p


_MATCH_WINDOW = 1000  # more than any escape or folded indentation spans
