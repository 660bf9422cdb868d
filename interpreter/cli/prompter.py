"""The human's side of `orrery play`: reading answers, the table's commands, and moves told in the game's words.

On a terminal an answer is read with prompt_toolkit: line editing, a history per seat (up-arrow
recalls the seat's own earlier answers, never another seat's) and Tab completion of the menu's
option labels and of the commands.  When standard input is not a terminal (a pipe, a test's
StringIO) it is read line by line with `input()`.

Commands (an exact option label wins over a command of the same name; `/COMMAND` is always the
command): `help`, `board`, `more` (the next page of a menu too long for the screen), `rules` (the game's rules, as `orrery explain` prints them), `why OPTION`
(what an option does, or the rule that forbids it), `undo` (when the rules of undo allow it), `save`
(write the save now and say where) and `quit`.  Anything else that is not an option is refused with
the rule that forbids it, or with the options and a pointer to `help`.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Iterable

from rich.console import Console
from rich.markup import escape

from ..engine.game import GameState, IllegalMove
from .safeout import raw
from ..core.values import PieceRef

UNDO, QUIT, EOF = "undo", "quit", "eof"
COMMANDS = ("help", "board", "more", "rules", "why", "undo", "save", "quit")
_ALIASES = {"?": "help", "exit": "quit", "q": "quit"}
HELP = ("Type an option's number or its label (Tab completes labels, up-arrow recalls your earlier answers). "
        "Commands: 'why OPTION' says what an option does or which rule forbids it, 'rules' prints the game's "
        "rules, 'board' redraws the board, 'more' shows the next options of a menu too long for the screen, "
        "'undo' takes back your last decision and the bots' answers since (when nothing random or hidden was "
        "shown), 'save' saves now, 'help' shows this, 'quit' stops (the game stays saved). An option whose label "
        "is a command wins; type '/undo' (etc.) for the command.")


# ------------------------------------------------------------------ reading a line


class LineReader:
    """Reads one answer: prompt_toolkit (history, completion) on a terminal or when given its input, else input()."""

    def __init__(self, words: Callable[[], list[str]], pt_input: Any = None, pt_output: Any = None,
                 terminal: bool | None = None):
        self.words = words
        if terminal is None:
            terminal = pt_input is not None or (_isatty(sys.stdin) and _isatty(sys.stdout))
        self.terminal = terminal
        self._io = (pt_input, pt_output)
        self.session: Any = None  # made at the first read: the table's first screen does not wait for it

    def read(self, prompt: str = "> ") -> str:
        """One line, without its newline; EOFError at the end of input (Ctrl-D)."""
        if not self.terminal:
            return input(prompt)
        if self.session is None:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.history import InMemoryHistory

            completer = answer_completer(self.words)
            output = self._io[1]
            if output is None:  # prompt_toolkit writes its own controls: under the escaping stream (safeout.py)
                from prompt_toolkit.output import create_output

                output = create_output(stdout=raw(sys.stdout))
            self.session = PromptSession(history=InMemoryHistory(), completer=completer, input=self._io[0],
                                         output=output, key_bindings=_tab_bindings(completer),
                                         complete_while_typing=False)
        return self.session.prompt(prompt)


def _tab_bindings(completer: Any) -> Any:
    """Tab completes at once (no wait for a background completion): the only match, else the common part
    of the matches and a menu of them; Tab again walks the menu."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.key_binding import KeyBindings

    kb = KeyBindings()

    @kb.add("tab")
    def _complete(event: Any) -> None:
        buf = event.current_buffer
        if buf.complete_state:
            buf.complete_next()
            return
        found = list(completer.get_completions(buf.document, CompleteEvent(completion_requested=True)))
        if len(found) == 1:
            buf.apply_completion(found[0])
            return
        if found:
            typed = buf.document.text_before_cursor
            common = _common_prefix([c.text for c in found])
            if len(common) > len(typed.lstrip()):
                buf.delete_before_cursor(len(typed))
                buf.insert_text(common)
            buf.start_completion(select_first=False)

    return kb


def _common_prefix(words: list[str]) -> str:
    """The longest case-insensitive common start of `words`, spelled as the first of them."""
    first = words[0]
    n = len(first)
    for w in words[1:]:
        n = min(n, len(w))
        for i in range(n):
            if w[i].lower() != first[i].lower():
                n = i
                break
    return first[:n]


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


_COMPLETER: list[type] = []  # the completer class, made with prompt_toolkit's base class when first needed


def answer_completer(words: Callable[[], list[str]]) -> Any:
    """A prompt_toolkit completer of the whole line to an option label or a command (labels may hold spaces:
    `take card`); prompt_toolkit is imported only when a terminal reads its first answer."""
    if not _COMPLETER:
        from prompt_toolkit.completion import Completer, Completion

        class AnswerCompleter(Completer):
            """Completes the whole line to an option label or a command."""

            def __init__(self, words: Callable[[], list[str]]):
                self.words = words

            def get_completions(self, document: Any, complete_event: Any) -> Iterable[Any]:
                """The words that start with what is typed so far (case-insensitive)."""
                typed = document.text_before_cursor
                low = typed.lstrip().lower()
                seen: set[str] = set()
                for word in self.words():
                    if word.lower().startswith(low) and word not in seen:
                        seen.add(word)
                        yield Completion(word, start_position=-len(typed))

        _COMPLETER.append(AnswerCompleter)
    return _COMPLETER[0](words)


def answer_words(gs: GameState) -> list[str]:
    """What Tab may complete now: the menu's labels, the commands, and `why LABEL`."""
    d = gs.decision
    labels = [o.label for o in d.options] if d is not None else []
    return labels + list(COMMANDS) + [f"why {label}" for label in labels]


# ------------------------------------------------------------------ commands


def why_text(gs: GameState, text: str) -> str:
    """What an option does (its action's description and rulebook passage), or the rule that forbids it."""
    d = gs.decision
    if d is None:
        return "the game is over"
    if not text:
        return "why what? Type 'why' and an option's label or number."
    opt = d.find(text)
    if opt is None:
        seen = _seen_piece(gs, text)  # a card on the table: its words, though it is no answer now
        return with_rule(gs, text, gs.why_not_label(text)) + (f"\n  {card_text(gs, seen)}" if seen is not None and
                                                             card_text(gs, seen) else "")
    actions = gs.game.rules.actions
    menu = d.kind in ("action", "window")  # a menu of actions (a step's, or a window's)
    if d.kind == "window" and opt.value is None:
        return f"'{opt.label}' takes no action in answer to '{d.prompt}'."
    name = opt.value if menu and isinstance(opt.value, str) and opt.value in actions else d.action
    if name is None or name not in actions:
        if d.kind == "action":
            return f"'{opt.label}' ends this step of the turn."
        return f"'{opt.label}' is one of the answers to '{d.prompt}'." + _piece_text(gs, opt.value)
    decl = gs.game.spec.model.actions[name]
    label = actions[name].label
    part = f"'{opt.label}' is" if menu and opt.value == name else f"'{opt.label}' is an answer within"
    out = f"{part} the action '{label}'"
    out += f": {decl.description}" if decl.description else "."
    if decl.rule:
        out += f" The rule: \"{decl.rule}\""
    return out + _piece_text(gs, opt.value)


def _piece_text(gs: GameState, value: Any) -> str:
    """For a piece offered in the player's own menu: its kind's description, if the spec gives one, and the
    piece's own text (a card's, as `orrery explain` lists it)."""
    if not isinstance(value, PieceRef) or not 0 <= value.id < len(gs.state.kinds):
        return ""
    kind = gs.state.kinds[value.id]
    decl = gs.game.spec.model.components.pieces.get(kind)
    described = f" ({kind}: {decl.description})" if decl is not None and decl.description else ""
    card = card_text(gs, value.id)
    return described + (f"\n  {card}" if card else "")


TEXT_KEYS = ("text", "description", "effect", "rule")  # attributes that hold a card's words, however short


def card_text(gs: GameState, pid: int) -> str:
    """A piece's own words: `LABEL — key value, ...: TEXT` from its attributes (words: an attribute in
    TEXT_KEYS, or a text of several words over 20 characters); "" for a piece with no attribute to tell."""
    from ..reference.evaluator import Interp

    attrs = gs.state.attrs[pid]
    plain = {k: v for k, v in attrs.items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)
             and k != "name"}
    text = [v for k, v in plain.items() if isinstance(v, str) and (k in TEXT_KEYS or (" " in v and len(v) > 20))]
    facts = [f"{k.replace('_', ' ')} {v}" for k, v in plain.items() if v not in text]
    if not text:
        return ""
    head = Interp(gs.state.clone()).piece_label(pid) + (f" — {', '.join(facts)}" if facts else "")
    return f"{head}: {' '.join(text)}"


def _seen_piece(gs: GameState, text: str) -> int | None:
    """The piece called `text` (its label, in any case) that the player to answer can see, if one is."""
    from ..reference.evaluator import Interp

    d, want = gs.decision, text.strip().lower()
    if d is None or not want:
        return None
    view = gs.view(d.player)
    it = Interp(gs.state.clone())
    for zone in view["zones"].values():
        cells = [p for c in zone.get("cells", {}).values() if isinstance(c, list) for p in c]
        for piece in list(zone.get("pieces", ())) + cells:
            if it.piece_label(piece["id"]).lower() == want:
                return piece["id"]
    return None


def with_rule(gs: GameState, text: str, reason: str) -> str:
    """A refusal with the rulebook passage of the action it concerns, when the reason does not quote it yet."""
    d = gs.decision
    if d is None or "rule:" in reason:
        return reason
    actions = gs.game.spec.model.actions
    name = d.action
    if d.kind in ("action", "window"):
        t = text.strip().lower()
        name = next((n for n, a in gs.game.rules.actions.items() if a.label.lower() == t), None)
    decl = actions.get(name) if name else None
    if decl is None or not decl.rule or not any(why == reason.partition(": ")[2] or why in reason
                                                 for _, why in d.rejected):
        return reason
    return f"{reason}\n  rule: \"{decl.rule}\""


def rules_text(gs: GameState) -> str:
    """The game's rules as `orrery explain` prints them."""
    from .explain import explain_text

    return explain_text(gs.game.spec)


def show_rules(console: Console, text: str) -> None:
    """The rules (Markdown) as `orrery docs` shows a topic: rendered through a pager on a terminal."""
    from .docs import show_markdown

    show_markdown(console, text)


class Table:
    """What a command needs from the table: redraw the board, show the menu's next page, save now."""

    def __init__(self, console: Console, board: Callable[[], None], save: Callable[[], str],
                 more: Callable[[], None] | None = None):
        self.console, self.board, self.save = console, board, save
        self.more = more or (lambda: console.print("The whole menu is shown."))


def ask(table: Table, gs: GameState, reader: LineReader) -> tuple[int, str] | str:
    """Read answers until one is legal: (index, label), or UNDO, QUIT (the player stops) or EOF (input ended)."""
    console = table.console
    while True:
        try:
            text = reader.read("> ").strip()
        except EOFError:
            console.print()
            return EOF
        if not text:
            continue
        forced = text.startswith("/")
        word, _, rest = text.lstrip("/").partition(" ")
        cmd = _ALIASES.get(word.lower(), word.lower())
        d = gs.decision
        is_option = not forced and d is not None and d.find(text) is not None
        if not is_option and cmd in COMMANDS and (cmd == "why" or not rest.strip()):
            result = _command(table, gs, cmd, rest.strip())
            if result is not None:
                return result
            continue
        if forced:
            console.print(f"[red]unknown command[/red] '{escape(text)}'; type 'help' for the commands")
            continue
        try:
            opt = gs.apply_label(text)
        except IllegalMove as exc:
            console.print(f"[red]refused:[/red] {escape(with_rule(gs, text, exc.reason))}", soft_wrap=True)
            console.print("[dim](type 'help' for the commands, 'why OPTION' to ask about an option)[/dim]")
            continue
        return opt.index, opt.label


def _command(table: Table, gs: GameState, cmd: str, rest: str) -> str | None:
    """Run one command; UNDO or QUIT when the play loop must act, else None (ask again)."""
    console = table.console
    if cmd == "quit":
        return QUIT
    if cmd == "undo":
        return UNDO
    if cmd == "help":
        console.print(HELP, soft_wrap=True)
    elif cmd == "board":
        table.board()
    elif cmd == "more":
        table.more()
    elif cmd == "rules":
        show_rules(console, rules_text(gs))
    elif cmd == "why":
        console.print(escape(why_text(gs, rest)), soft_wrap=True)
    elif cmd == "save":
        console.print(escape(table.save()), soft_wrap=True)
    return None


__all__ = ["LineReader", "answer_completer", "answer_words", "why_text", "with_rule", "rules_text", "Table", "ask", "HELP",
           "COMMANDS", "UNDO", "QUIT", "EOF"]
