"""Pydantic models of a rule spec: the YAML structure, before expressions are parsed.

Fields holding conditions are typed `ExprText`, fields holding effects
`EffectText`; the loader parses both into the AST with file positions.  The JSON
Schema that `orrery schema` prints is exported from these models.
"""

# (No `from __future__ import annotations`: pydantic would compile every annotation from its text when the class
# is made, a third of this module's import; the few forward references are written as text.)
import re
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator, with_config
from typing_extensions import NotRequired, TypedDict

from .wording import TITLE

def _as_expr_text(v: Any) -> Any:
    """YAML turns `when: true` or `order: 0` into bool/int; they are expressions too."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return v


ExprText = Annotated[str, BeforeValidator(_as_expr_text, json_schema_input_type=Union[str, int, bool])]
"""An expression in the rule language, e.g. ``count(c for c in cells(board) where empty(c)) == 0``."""
EffectText = Union[str, list[str]]
"""Statements in the rule language: one string (newline-separated) or a list of strings."""

NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"


class Model(BaseModel):
    """Base: unknown keys are errors, so typos are reported, not ignored.  Validators are built when first used
    (`defer_build`): a spec read back from the disk cache (speccache.py) is never validated again, and building
    them for every model was a large part of a warm start."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


# ------------------------------------------------------------------- metadata


class PlayerCount(Model):
    """How many players the game takes."""

    min: int = Field(1, ge=1, le=16)
    max: int = Field(1, ge=1, le=16)
    default: int | None = Field(None, ge=1, le=16, description="Seats when --players is not given (default: min).")

    @model_validator(mode="after")
    def _ordered(self) -> "PlayerCount":
        if self.min > self.max:
            raise ValueError(f"players.min ({self.min}) is greater than players.max ({self.max})")
        if self.default is not None and not self.min <= self.default <= self.max:
            raise ValueError(f"players.default ({self.default}) is outside {self.min}..{self.max}")
        return self


class GameMeta(Model):
    """Who and what the game is."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="Identifier used on the command line.")
    title: str | None = None
    version: str = "1"
    players: PlayerCount = PlayerCount.model_construct()  # (no validator built at import: see Model)
    source: str | None = Field(None, description="The rulebook this spec encodes.")
    description: str | None = None
    seat_names: list[str] | None = Field(None, description="Names of the seats, e.g. colours (seat i gets name i).")


class Assumption(Model):
    """A reading chosen where the rulebook is silent or contradicts itself."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    passage: str = Field(description="The rulebook text this resolves.")
    choice: str = Field(description="The reading this spec encodes.")
    variant: str | None = Field(None, description="A bundled variant that encodes the other reading.")
    designed: bool = Field(False, description="True when the rulebook does not print this rule at all (assumed by us).")


# ----------------------------------------------------------------- components


AttrType = str
"""A type: int, str, bool, player, dir, list, record, any, or the name of a `names:` set (checked by the checker)."""


class AttrDecl(Model):
    """A type declaration in long form: a type or allowed values (with a default), or a record, list or row type."""

    type: Union[AttrType, "AttrDecl", list[Any]] = Field(
        "any", description="A type name; a structured type or a list of values here is read as if written beside "
                           "`default:` ({type: {list: int}, default: []} is {list: int, default: []}).")
    values: list[Any] | None = None
    default: Any = None
    record: dict[str, "TypeDecl"] | None = Field(None, description="A record with these fields, each with its type.")
    list_: "TypeDecl | None" = Field(None, alias="list", description="A list whose items all have this type.")
    row: str | None = Field(None, description="A row of this table (which declares `row:`), written as its key.")

    @model_validator(mode="before")
    @classmethod
    def _lift_type(cls, data: Any) -> Any:
        """`{type: {list: T}, default: D}` means `{list: T, default: D}` (and `{type: [a, b]}` means `{values:
        [a, b]}`): the long form gives any type a default, whichever way it is spelt."""
        while isinstance(data, dict) and isinstance(data.get("type"), (dict, list)):
            inner = data["type"]
            inner = {"values": inner} if isinstance(inner, list) else inner
            rest = {k: v for k, v in data.items() if k != "type"}
            both = sorted(set(inner) & set(rest))
            if both:
                raise ValueError(f"'{both[0]}' is given both inside `type:` and beside it")
            data = {**rest, **inner}
        return data

    @model_validator(mode="after")
    def _one_shape(self) -> "AttrDecl":
        shapes = [k for k in ("record", "list_", "row") if getattr(self, k) is not None]
        if len(shapes) > 1 or shapes and (self.type != "any" or self.values is not None):
            raise ValueError("a type is one of: a type name (with values), a record, a list or a row")
        return self


TypeDecl = Union[AttrDecl, list[Any], str]
"""A type declaration: a type name (int, str, bool, player, dir, list, record, any, a `names:` set), a list of
allowed values, or the long form (AttrDecl): `{type, values, default}`, `{record: {...}}`, `{list: T}`, `{row: T}`."""


class StateDecl(AttrDecl):
    """A field of a piece's mutable state (face up, rotation, a counter): effects assign it; `reset` puts the
    default back when a turn, phase or round ends."""

    reset: Literal["turn", "phase", "round"] | None = Field(
        None, description="Restore the default on every piece of the kind when each turn, phase or round ends.")


def attr_default(decl: "AttrDecl | list | str") -> Any:
    """The default value of an attribute declaration (only the long form can set one)."""
    return decl.default if isinstance(decl, AttrDecl) else None


def attr_values(decl: "AttrDecl | list | str", names: dict[str, list[str]] | None = None) -> list | None:
    """The enumerated values of an attribute declaration, if any: its listed values, or the words of the
    `names:` set it is typed by (given the spec's `names`)."""
    if isinstance(decl, list):
        return decl
    if isinstance(decl, AttrDecl):
        return decl.values if decl.values is not None else (names or {}).get(decl.type)
    return (names or {}).get(decl)


@with_config(ConfigDict(extra="allow"))
class Instance(TypedDict):
    """One explicit piece: its attribute values (any keys) and an optional number of copies."""

    count: NotRequired[Annotated[int, Field(ge=0, le=100_000, description="Copies of this piece (default: the "
                                                                          "kind's count).")] | str]
    id: NotRequired[Annotated[str, Field(description="The row's key: unique in its kind, named by variant paths "
                                                     "(`instances[ID]`).")]]
    abilities: NotRequired[Annotated[list["AbilityDecl"], Field(description="What this piece carries: triggers, "
                                                                           "modifiers, plays (docs/dsl.md 2.23).")]]


class PieceKind(Model):
    """A kind of piece (token, card, tile, coin...) and how many exist."""

    description: str | None = None
    attributes: dict[str, TypeDecl] = {}
    state: dict[str, StateDecl | AttrType] = Field(
        {}, description="Per-piece mutable state (face up, rotation, counters), assigned by effects: a type, or "
                        "{type, values, default, reset: turn|phase|round}.")
    count: Annotated[int, Field(ge=0, le=100_000)] | str = Field(
        1, description="Copies of each combination of enumerated attribute values (listed, or a `names:` set's "
                       "words), or of each instance (a number, or the name of a whole-number constant).")
    instances: list[Instance] | None = Field(None, description="Explicit pieces: attribute values, optional 'count'.")
    start: str | None = Field(None, description="Zone the pieces start in (an expression, e.g. 'bag'); default: the box.")
    unlimited: bool = Field(False, description="Pieces are made on demand with `create` instead of counted.")
    label: ExprText | None = Field(None, description="Expression naming a piece in menus, with `it` bound to the piece.")
    symbol: ExprText | None = Field(None, description="Expression for the 1-3 character board symbol of a piece (`it`).")
    style: ExprText | None = Field(None, description="Expression giving a colour name for the symbol (`it`).")
    active_in: list[str] | None = Field(None, description="The zones where the pieces' abilities are live (a "
                                        "per-player zone: the zone's player owns them); default: nowhere.")
    owner: ExprText | None = Field(None, description="Who owns a piece in a shared `active_in` zone (`self` bound).")
    abilities: list["AbilityDecl"] = Field([], description="Abilities every piece of the kind carries (docs/dsl.md 2.23).")


ZoneType = Literal["bag", "deck", "pile", "hand", "grid", "graph"]
Size = Union[Annotated[int, Field(ge=1, le=1000)], str]
"""A grid's width or height: a number, or the name of a whole-number constant (rulespec/constants.py)."""


class EdgeDecl(BaseModel):
    """A graph edge written as a record: its two nodes, and values for the graph's `edge_attributes`."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)

    from_: str = Field(alias="from", description="The node the edge starts at.")
    to: str = Field(description="The node the edge leads to.")
    directed: bool | None = Field(None, description="True: a one-way arrow from `from` to `to`; false: both ways "
                                                    "(default: the graph's `directed`).")


class ZoneDecl(Model):
    """A container of pieces: a bag drawn at random, a deck, a pile, a hand, a grid or a graph."""

    type: ZoneType = "pile"
    description: str | None = None
    per_player: bool = False
    visibility: Literal["public", "owner", "hidden"] | None = Field(
        None, description="Who sees the pieces: public, owner (only the owning player), hidden (counts only). "
                          "Default by type: bag and deck hidden, hand owner, others public.")
    # grids
    width: Size | None = Field(None, description="Columns of a bounded grid: a number, or a constant's name.")
    height: Size | None = Field(None, description="Rows of a bounded grid: a number, or a constant's name.")
    unbounded: bool = Field(False, description="Grid without edges: any integer coordinates are cells.")
    adjacency: Literal["orthogonal", "diagonal", "king", "hex"] = "orthogonal"
    wrap: bool = Field(False, description="Grid edges wrap around (torus).")
    cell_attributes: dict[str, TypeDecl] = {}
    cells: dict[str, dict[str, Any]] = Field({}, description="Per-cell attribute values, by label (e.g. 'c3').")
    # graphs
    nodes: list[str] | None = None
    edges: list[list[str] | EdgeDecl] | None = Field(
        None, description="The edges: `[a, b]`, or a record `{from: a, to: b, ATTR: value, directed: bool}`.")
    edge_attributes: dict[str, AttrDecl | list[Any] | AttrType] = Field(
        {}, description="Attributes every edge of a graph carries (static, like cell attributes).")
    directed: bool = False
    per: list[str | int] | str | None = Field(
        None, description="One zone per key, written ZONE[KEY]: a list of texts or numbers, or the name of a "
                          "constant holding one.")
    capacity: Annotated[int, Field(ge=0)] | str | None = Field(
        None, description="Most pieces a zone (or grid cell) may hold: a number, or an expression evaluated at each "
                          "move into it (`p`: the owner of a per-player zone); a constant's name is read when the spec "
                          "loads.")
    label: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> "ZoneDecl":
        if self.visibility is None:  # nobody sees into a bag or a deck; a hand is its owner's
            self.visibility = {"bag": "hidden", "deck": "hidden", "hand": "owner"}.get(self.type, "public")
        if self.type == "grid" and not self.unbounded and (self.width is None or self.height is None):
            raise ValueError("a bounded grid needs width and height")
        if self.type == "graph" and not self.nodes:
            raise ValueError("a graph needs nodes")
        if self.type != "graph" and (self.nodes or self.edges or self.edge_attributes):
            raise ValueError("nodes/edges/edge_attributes are only for type: graph")
        if self.per is not None and self.per_player:
            raise ValueError("a zone is either per_player or per: KEYS, not both (per_player is one per player)")
        return self


class TrackDecl(Model):
    """A bounded counter (score track, resource track), global or per player."""

    title: str | None = Field(None, description=TITLE)
    per_player: bool = True
    start: ExprText | None = Field(None, description="Starting value (default 0); per-player tracks see `p`.")
    min: int | str | None = Field(None, description="Lowest value: a number, or an expression evaluated at each "
                                  "assignment (`p`: the owner of a per-player track).")
    max: int | str | None = Field(None, description="Highest value: a number, or an expression evaluated at each "
                                  "assignment (`p`: the owner of a per-player track).")
    description: str | None = None


class VarDecl(Model):
    """A state variable of any type, global or per player."""

    title: str | None = Field(None, description=TITLE)
    per_player: bool = False
    type: str = Field("any", description="int, bool, str, list, record, player, piece, cell, any, or a `names:` "
                                         "set (the checker checks the values written to it).")
    start: ExprText | None = None
    description: str | None = None
    visibility: Literal["public", "owner", "hidden"] = "public"
    internal: bool = Field(False, description="Bookkeeping of the rules, not part of the game as players know it: "
                                              "the play screen leaves it out unless --debug (views, saves, logs "
                                              "and rules are unchanged).")


class Components(Model):
    """Pieces, zones and tracks."""

    pieces: dict[str, PieceKind] = {}
    zones: dict[str, ZoneDecl] = {}
    tracks: dict[str, TrackDecl] = {}


# ------------------------------------------------------ tables and functions


class TableDecl(Model):
    """A lookup table, e.g. points by chain length."""

    row: dict[str, TypeDecl] | None = Field(None, description="The fields of every entry, each with its type: "
                                                              "every entry is a checked record.")
    values: dict[str, Any] | list[Any]
    default: Any = None
    above: Literal["error", "last", "default"] = Field(
        "error", description="Lookup past the largest integer key: error, use the last entry, or the default."
    )
    description: str | None = None


Param = Union[str, dict[str, TypeDecl]]
"""A parameter: its name, or `{name: TYPE}` to type it (arguments are checked against the type)."""


class _Params(Model):
    """Parameters, each a name or `{name: TYPE}`."""

    params: list[Param] = []

    @property
    def param_names(self) -> list[str]:
        """The parameters' names, in order."""
        return [p if isinstance(p, str) else next(iter(p), "") for p in self.params]

    @property
    def param_types(self) -> dict[str, "TypeDecl"]:
        """The declared types of the typed parameters."""
        return {k: v for p in self.params if isinstance(p, dict) for k, v in p.items()}


class FunctionDecl(_Params):
    """A named expression with parameters, callable from any expression."""

    expr: ExprText
    description: str | None = None


class ProcedureDecl(_Params):
    """A named effect with parameters, run with `call name(args)`."""

    effect: EffectText
    description: str | None = None


# --------------------------------------------------------------- actions


class ParamDecl(Model):
    """An action parameter: chosen by the acting player from a domain."""

    from_: ExprText = Field(alias="from")
    where: ExprText | None = None
    why: str | None = Field(None, description="Shown when a typed option fails `where`.")
    prompt: str | None = None
    optional: bool = False


Scope = Literal["turn", "phase", "round", "game"]


class LimitDecl(Model):
    """How often something may be done: `times` per instance of a scope, counted per player and key."""

    times: int = Field(description="Most uses (or firings) in one instance of the scope, at least 1.",
                       json_schema_extra={"minimum": 1})
    per: Scope = Field("turn", description="The scope: each turn, each entry into a phase, each round, or the game.")
    key: str | None = Field(None, pattern=NAME_PATTERN, description="The counter's name (default: the action's or "
                            "trigger's own); sources with one key share one count, read by `uses(key)`.")
    each: str | None = Field(None, pattern=NAME_PATTERN, description="An action's parameter: each of its values is "
                             "counted apart ('once per round for each card'), read by `uses(key, player, value)`.")

    @field_validator("times")
    @classmethod
    def _at_least_once(cls, v: int) -> int:
        if v < 1:
            raise ValueError(f"times must be at least 1, got {v}: a limit of {v} would forbid it for ever "
                             f"(leave it out of the steps, or give it a `condition`, instead)")
        return v


def _limit_form(v: Any) -> Any:
    """`limit: N` is short for `{times: N, per: turn}`."""
    return {"times": v} if isinstance(v, int) and not isinstance(v, bool) else v


Limit = Annotated[LimitDecl, BeforeValidator(_limit_form, json_schema_input_type=Union[Annotated[int, Field(ge=1)],
                                                                                      LimitDecl])]
"""A limit: `N` (N times per turn) or `{times: N, per: turn | phase | round | game, key: NAME, each: PARAM}`."""


class ActionDecl(Model):
    """Something a player can do at a step of a turn."""

    description: str | None = None
    rule: str | None = Field(None, description="The rulebook passage this action encodes; quoted when a move is refused.")
    label: str | None = Field(None, description="Menu text (default: the action's name).")
    condition: ExprText | None = None
    why: str | None = Field(None, description="Shown when `condition` is false.")
    params: dict[str, ParamDecl] = {}
    cost: dict[str, ExprText] = Field({}, description="Track or variable of the acting player -> amount paid first.")
    pay_to: dict[str, ExprText] = Field({}, description="Cost entry -> where its amount goes when it is paid (a "
                                        "variable, PLAYER.var or PIECE.attr, increased by the amount).")
    applies_when: ExprText | None = Field(None, description="The action exists only while this holds (a house rule's "
                                                            "switch, added to `condition`).")
    effect: EffectText = ""
    limit: Limit | None = Field(None, description="Most uses per scope: N (per turn) or {times, per, key}; "
                                "a `perform` neither checks nor counts it.")
    anytime: Literal["own_turn", "always"] | None = Field(
        None, description="A free action offered at every step menu of its player's turn, in every phase, and in "
                          "the windows of that turn (own_turn), or in other players' windows too (always).")
    then: EffectText | None = Field(None, description="Run after the effect, the parameters bound: what becomes of "
                                                      "what was used (a one-shot card discarded).")


class TriggerDecl(Model):
    """Runs an effect on an event, or whenever a state condition holds (a cascade)."""

    description: str | None = None
    on: str | None = Field(None, description="Event name; without it the trigger is a state trigger.")
    for_: ExprText | None = Field(None, alias="for", description="Binder 'x in collection' for state triggers.")
    when: ExprText | None = None
    order: ExprText | None = Field(None, description="Sort key choosing which match fires first (smallest first).")
    caused_by: ExprText | None = Field(None, description="State triggers: the places (cells, zones, pieces, or a "
                                       "list) whose last change caused a firing (default: the firing that made "
                                       "its condition hold).")
    phase: str | list[str] | None = Field(None, description="Only while one of these phases is the current phase "
                                          "(with `on: phase_end`: at the end of that phase).")
    applies_when: ExprText | None = Field(None, description="The trigger exists only while this holds (a house "
                                                            "rule's switch, added to `when`).")
    owner: ExprText | None = Field(None, description="Event triggers: the player it belongs to (`event` bound); "
                                                     "owned triggers resolve grouped by owner (docs/dsl.md 2.11).")
    effect: EffectText
    rule: str | None = None
    max_fires: Limit | None = Field(None, description="Most firings per scope: N (per turn) or {times, per, key}; "
                                    "past it the trigger does not fire (as if its `when` were false).")


# ------------------------------------------------------------ quantities

_FRACTION = re.compile(r"^\s*(\d+)\s*(?:/\s*(\d+)\s*)?$")


def _fraction_text(v: Any) -> Any:
    """`scale: 1/2` reads as the text "1/2"; a whole number is a fraction too; anything else is refused."""
    if isinstance(v, bool):
        raise ValueError(f"scale must be a fraction N/D or a whole number, got {str(v).lower()}")
    if isinstance(v, int):
        v = str(v)
    if isinstance(v, float):
        raise ValueError(f"scale must be an exact fraction N/D (1/2, 3/2), not the decimal {v}")
    if isinstance(v, str):
        m = _FRACTION.match(v)
        if m is None:
            raise ValueError(f"scale must be a fraction N/D (1/2, 3/2) or a whole number, 0 or more, got {v!r}")
        if m.group(2) is not None and int(m.group(2)) == 0:
            raise ValueError(f"scale {v!r} divides by zero")
    return v


Layer = Literal["set", "add", "scale"]


class QuantityDecl(Model):
    """A named number computed from its parameters, which modifiers change in a fixed order (docs/dsl.md 2.10.3)."""

    params: list[str] = []
    base: ExprText = Field(description="The value before modifiers (the parameters are bound).")
    round: Literal["down", "up", "nearest"] = Field("down", description="The one rounding, after every layer "
                                                    "(nearest: halves go up).")
    min: ExprText | None = Field(None, description="Applied last, after the rounding.")
    max: ExprText | None = Field(None, description="Applied last, after the rounding.")
    layers: list[Layer] = Field(["set", "add", "scale"], description="The order the modifiers apply in: "
                                "each of set, add and scale once.")
    description: str | None = None

    @field_validator("layers")
    @classmethod
    def _each_once(cls, v: list[str]) -> list[str]:
        if sorted(v) != ["add", "scale", "set"]:
            raise ValueError(f"layers must list set, add and scale once each, in the order they apply; got {v}")
        return v


class ModifierDecl(Model):
    """A change of a quantity while `when` holds: exactly one of set, add, scale."""

    modify: str = Field(description="The quantity it changes.")
    when: ExprText | None = Field(None, description="Sees the quantity's parameters; default: always.")
    set: ExprText | None = Field(None, description="The value instead of the base (the last one collected wins).")
    add: ExprText | None = Field(None, description="Added (every add is summed); may be negative.")
    scale: Annotated[str, BeforeValidator(_fraction_text, json_schema_input_type=Union[str, int])] | None = Field(
        None, description="Multiplied, as an exact fraction: 1/2, 3/2, 2 (every scale is multiplied).")
    description: str | None = None
    rule: str | None = None

    @model_validator(mode="after")
    def _one_change(self) -> "ModifierDecl":
        given = [k for k in ("set", "add", "scale") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"a modifier needs exactly one of set, add, scale (got {', '.join(given) or 'none'})")
        return self


class EventDecl(Model):
    """How the triggers of one event resolve when several fire at once."""

    order: Literal["declared", "owner_chooses"] = Field(
        "declared", description="Within one owner's triggers: declaration order, or the owner picks the next "
                                "(asked only when two or more are pending).")
    prompt: str | None = Field(None, min_length=1, description="The owner's question (owner_chooses).")
    description: str | None = None


class WindowDecl(Model):
    """A reaction window: players other than the acting one may respond, one at a time, or pass."""

    description: str | None = None
    rule: str | None = Field(None, description="The rulebook passage this window encodes.")
    after: str | None = Field(None, description="Opens right after this event's triggers have run; without it, "
                                                "only `open NAME(...)` opens the window.")
    when: ExprText | None = Field(None, description="The window opens only if this holds (`event` bound).")
    who: ExprText | None = Field(None, description="The players who may respond, evaluated when it opens (`event` "
                                                   "bound); default: everyone but the player who opened it.")
    actions: list[str] = Field([], description="The actions a responding player may take (besides `pass`).")
    poll: Literal["turn_order", "as_listed"] = Field(
        "turn_order", description="Who is asked first: clockwise from the player after the opener, or `who`'s order.")
    closes: Literal["all_passed", "first_taken", "each_once"] = Field(
        "all_passed", description="all_passed: once everyone has passed since the last action taken in it; "
                                  "first_taken: after one action; each_once: after one answer each.")
    ask: Literal["when_able", "always"] = Field(
        "when_able", description="when_able: a player who could only pass is not asked; always: everyone is "
                                 "asked, so being asked tells nothing of what a player holds.")
    prompt: str | None = Field(None, min_length=1, description="The question (default: the window's name).")


# ------------------------------------------------- effects carried by pieces

CallsText = Union[str, list[str]]
"""Calls of effect templates, `NAME(args)`: one string, or a list of them run in order."""


class EffectDecl(Model):
    """An effect template of the catalogue: typed parameters and an effect that sees only them."""

    params: dict[str, Any] = Field({}, description="Parameter name -> type (int, str, bool, player, piece, list, "
                                                   "any, a `names:` set, {row: TABLE}), in call order.")
    effect: EffectText
    description: str | None = None


class ActivateDecl(Model):
    """What an `activate:` ability offers its owner as an action."""

    label: str | None = Field(None, description="Menu text (default: the piece's label).")
    rule: str | None = None
    condition: ExprText | None = Field(None, description="Offered only while it holds (`self`, `owner` bound).")
    why: str | None = None
    params: dict[str, ParamDecl] = {}
    cost: dict[str, ExprText] = {}
    pay_to: dict[str, ExprText] = Field({}, description="Cost entry -> where its amount goes when it is paid, as "
                                                         "an action's `pay_to` (`self` and `owner` bound).")


class EmpoweredDecl(Model):
    """The optional part of a `play:` the owner may choose when `if` holds."""

    if_: ExprText | None = Field(None, alias="if", description="Offered only when it holds (default: always).")
    do: CallsText
    prompt: str | None = Field(None, min_length=1, description="The owner's question (default: 'use the empowered "
                                                                "effect?').")


class AbilityDecl(Model):
    """One ability carried by a piece: exactly one of on, modify, activate, play."""

    on: str | None = Field(None, description="A trigger: runs `do` when this event is emitted while the piece is live.")
    modify: str | None = Field(None, description="A static modifier of this quantity while the piece is live.")
    activate: ActivateDecl | None = Field(None, description="An action the piece's owner may take while it is live.")
    play: CallsText | None = Field(None, description="Run by `use PIECE.play` (template calls, in order).")
    when: ExprText | None = Field(None, description="on/modify: it applies only when this holds.")
    do: CallsText | None = Field(None, description="on/activate: the template calls it runs, in order.")
    set: ExprText | None = None
    add: ExprText | None = None
    scale: Annotated[str, BeforeValidator(_fraction_text, json_schema_input_type=Union[str, int])] | None = None
    max_fires: Limit | None = Field(None, description="on: most firings per scope, counted for this piece's ability.")
    limit: Limit | None = Field(None, description="activate: most uses per scope, counted for this piece's ability.")
    during: list[str] | None = Field(None, description="activate: only at the step menus of these phases.")
    anytime: Literal["own_turn", "always"] | None = None
    then: EffectText | None = Field(None, description="activate: run after `do` (`self` bound): a one-shot card "
                                                      "discarded, destroyed or moved.")
    empowered: EmpoweredDecl | None = None
    text: str | None = Field(None, description="The card's words (shown by explain and `why`).")
    description: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> "AbilityDecl":
        kinds = [k for k in ("on", "modify", "activate", "play") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"an ability is exactly one of on, modify, activate, play (got {', '.join(kinds) or 'none'})")
        kind, wrong = kinds[0], []
        changes = [k for k in ("set", "add", "scale") if getattr(self, k) is not None]
        if kind == "modify" and len(changes) != 1:
            raise ValueError(f"a `modify:` ability needs exactly one of set, add, scale (got {', '.join(changes) or 'none'})")
        allowed = {"on": {"when", "do", "max_fires"}, "modify": {"when", "set", "add", "scale"},
                   "activate": {"do", "limit", "during", "anytime", "then"}, "play": {"empowered"}}[kind]
        for k in ("when", "do", "set", "add", "scale", "max_fires", "limit", "during", "anytime", "then", "empowered"):
            if getattr(self, k) is not None and k not in allowed:
                wrong.append(k)
        a = "an" if kind in ("on", "activate") else "a"
        if wrong:
            raise ValueError(f"`{wrong[0]}` does not belong to {a} `{kind}:` ability (it takes "
                             f"{', '.join(sorted(allowed))})")
        if kind in ("on", "activate") and self.do is None:
            raise ValueError(f"{a} `{kind}:` ability needs `do:` (the template calls it runs)")
        return self


# ------------------------------------------------------------------ flow


class StepDecl(Model):
    """One decision point of a turn: the player picks one of the listed actions."""

    name: str | None = None
    prompt: str | None = Field(None, min_length=1, description="The question of this step's menu, in the game's words "
                               "(default: the phase name, or PHASE: STEP when the phase has several steps).")
    actions: list[str]
    optional: bool = Field(False, description="The player may skip this step.")
    repeat: bool = Field(False, description="Repeat this step until the player chooses to stop (or nothing is legal).")
    max: int | None = Field(None, ge=1, description="With repeat: at most this many actions.")
    when: ExprText | None = None


TurnOrder = Literal["clockwise", "counterclockwise", "snake", "by"]


class PhaseDecl(Model):
    """A phase of a round: players take turns in an order, or an automatic effect runs."""

    name: str = Field(pattern=NAME_PATTERN)
    title: str | None = Field(None, description=TITLE)
    description: str | None = None
    order: TurnOrder = "clockwise"
    order_by: ExprText | None = Field(None, description="With order: by — sort key per player `p` (smallest first).")
    start: ExprText | None = Field(None, description="First player of the phase (default: the round's first player).")
    turns: Literal["once", "until_pass"] = "once"
    players: ExprText | None = Field(None, description="Only players `p` for which this holds take turns.")
    when: ExprText | None = Field(None, description="The phase is skipped unless this holds.")
    steps: list[StepDecl] = []
    free_actions: list[str] = []
    on_start: EffectText | None = None
    on_end: EffectText | None = None
    turn_start: EffectText | None = None
    turn_end: EffectText | None = None


class FlowDecl(Model):
    """Rounds made of phases."""

    first_player: ExprText | None = Field(None, description="The first player of round 1 (default: seat 0).")
    rotate_first_player: bool = Field(False, description="Pass the first player clockwise after each round.")
    round_start: EffectText | None = None
    round_end: EffectText | None = None
    phases: list[PhaseDecl] = Field(min_length=1)


# ---------------------------------------------------------- end and scoring


class EndDecl(Model):
    """A way the game ends."""

    title: str | None = Field(None, description=TITLE)
    description: str | None = None
    when: ExprText | None = Field(None, description="Without it, only `end_game NAME` ends the game this way.")
    check: Literal["immediate", "end_of_turn", "end_of_phase", "end_of_round"] = "immediate"
    winners: ExprText | None = Field(None, description="List of winning players (default: the ranking).")
    rule: str | None = None


class InvariantDecl(Model):
    """An invariant in long form: a condition that always holds, or a value that never decreases."""

    holds: ExprText | None = Field(None, description="A condition true after every step.")
    never_decreases: ExprText | None = Field(
        None, description="A number, or a list of numbers compared position by position, that never goes down.")
    description: str | None = None

    @model_validator(mode="after")
    def _one(self) -> "InvariantDecl":
        if (self.holds is None) == (self.never_decreases is None):
            raise ValueError("an invariant needs exactly one of holds, never_decreases")
        return self


class RankingDecl(Model):
    """Who wins when an end condition names no winners: compare keys (largest first) per player `p`."""

    by: list[ExprText] | None = Field(None, description="Keys per player `p`; default: p.score if a per-player "
                                      "`score` track or variable exists, else everyone ties.")
    ties: Literal["share", "nobody"] = "share"


class ScoringDecl(Model):
    """What a player's score is, and final scoring at game end."""

    score: ExprText | None = Field(None, description="A player's score (per `p`); default: p.score if a per-player "
                                   "`score` track or variable exists, else 0.")
    final: EffectText | None = None


class DisplayDecl(Model):
    """Optional hints for the terminal renderer."""

    zones: list[str] | None = Field(None, description="Zones to show, in order (default: all); `zone[k]` is seat k's "
                                                      "copy of a per-player zone.")
    upside_down: list[str] | None = Field(None, description="Grids (or `zone[k]` copies) drawn with row 1 at the top, "
                                                            "e.g. the board of the player sitting opposite.")
    player_info: list[str] | None = Field(None, description="Per-player tracks/variables/zones to show.")
    cell_width: int = Field(3, ge=1, le=12)
    legend: dict[str, str] = Field({}, description="Legend entries, symbol -> meaning, listed before the entries "
                                                   "derived from the symbols drawn (which they replace for the same "
                                                   "symbol); a piece kind's name as the key stands for all its "
                                                   "symbols; an empty meaning only hides the derived entries.")


class BotsDecl(Model):
    """Hints for search bots: how to judge a position a playout stops short of the end (not a rule)."""

    heuristic: ExprText | None = Field(
        None, description="How close player `p` is to winning, a whole number from 0 (far) to `heuristic_max` "
                          "(as good as won); search bots score playouts cut short with it instead of a draw.")
    heuristic_max: Annotated[int, Field(ge=1)] | str = Field(
        1, description="The heuristic value that means as good as won (a number, or an expression over constants "
                       "and zone sizes, worked out once); values are clamped to 0..heuristic_max.")
    playout: int | None = Field(None, ge=0, le=100_000, description="Random decisions a search bot plays before it "
                                                                     "scores a playout (default: the bot's own).")
    windows: Literal["pass"] | None = Field(None, description="A search bot's random playouts answer every reaction "
                                                              "window with `pass` (fewer branches; not a rule).")
    iterations: int | None = Field(None, ge=1, le=1_000_000,
                                   description="The search budget of a search bot given none (`mcts` plays as "
                                               "`mcts:N`); a budget written on the bot (`mcts:64`, `mcts:2s`) wins.")


# -------------------------------------------------------------- the spec


class Requirement(Model):
    """A condition the rules need of their own sizes and constants, checked once when they load."""

    holds: ExprText = Field(description="A condition over constants and zone sizes (a per-player zone named alone "
                                        "reads its declared size: tray.width).")
    message: str = Field(description="What the rules need, said when a variant breaks it.")


class Spec(Model):
    """A complete rule spec."""

    orrery: Literal[1] = Field(1, description="Spec format version.")
    game: GameMeta
    names: dict[str, list[str]] = Field({}, description="Closed sets of words: a type for attributes, fields, "
                                                        "variables and parameters; the set's name is the list of its "
                                                        "words.")
    constants: dict[str, Any] = Field({}, description="Named values that never change: a YAML value, or a quoted "
                                                      "expression evaluated once (zones, cells, tables, constants "
                                                      "above).")
    requires: list[Requirement] = Field([], description="Conditions over constants and zone sizes that the rules "
                                                         "need, checked once when they load (docs/dsl.md 2.24).")
    components: Components = Components.model_construct()  # (no validator built at import: see Model)
    variables: dict[str, VarDecl] = {}
    tables: dict[str, TableDecl] = {}
    functions: dict[str, FunctionDecl] = {}
    procedures: dict[str, ProcedureDecl] = {}
    setup: EffectText | None = None
    flow: FlowDecl
    actions: dict[str, ActionDecl] = {}
    triggers: dict[str, TriggerDecl] = {}
    windows: dict[str, WindowDecl] = Field({}, description="Reaction windows (docs/dsl.md 2.19).")
    events: dict[str, EventDecl] = Field({}, description="How an event's owned triggers resolve (docs/dsl.md 2.11).")
    quantities: dict[str, QuantityDecl] = Field({}, description="Named numbers (costs, fees) that `modifiers` change.")
    modifiers: dict[str, ModifierDecl] = Field({}, description="Changes of quantities while a condition holds.")
    effects: dict[str, EffectDecl] = Field({}, description="The effect catalogue: templates with typed parameters "
                                                           "that pieces' abilities call.")
    scoring: ScoringDecl = ScoringDecl.model_construct()  # (no validator built at import: see Model)
    end: dict[str, EndDecl] = Field(min_length=1)
    ranking: RankingDecl = RankingDecl.model_construct()  # (no validator built at import: see Model)
    invariants: dict[str, ExprText | InvariantDecl] = Field(
        {}, description="Checked after every step by `simulate --check`: a condition, or {holds: ...} / "
                        "{never_decreases: ...}.")
    assumptions: list[Assumption] = []
    display: DisplayDecl = DisplayDecl.model_construct()  # (no validator built at import: see Model)
    bots: BotsDecl = BotsDecl.model_construct()  # (no validator built at import: see Model)


# ------------------------------------------------------------- variants
