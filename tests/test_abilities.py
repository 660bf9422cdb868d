"""Effects carried by pieces (docs/dsl.md, "Effects carried by pieces"): the effect catalogue and `on:`,
`modify:` and `play:` abilities.  The made-up game tests/games/chorus pins the order abilities resolve in,
the owner's choice, liveness, `max_fires` per piece, modifiers from pieces and `use` with its empowered
part, through its scenarios on both engines; random games agree on both engines; each misuse is a located
finding."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from conftest import make_game, scenarios_on_both_engines, spec_findings
from orrery.interpreter.bots.factory import RandomBot
from orrery.interpreter.core.abilities import _live_modifiers, live_modifiers
from orrery.interpreter.engine.game import Game
from orrery.interpreter.reference.evaluator import Interp
from orrery.rulespec.loader import load_spec
from test_differential import play_lockstep

CHORUS = Path(__file__).resolve().parent / "games" / "chorus" / "rules.yaml"
DECLARED = CHORUS.parent / "variants" / "declared.yaml"


def test_an_event_only_abilities_listen_to_may_let_their_owners_choose():
    assert load_spec(CHORUS).warnings == []  # (no "no trigger listens", no "nobody is ever asked")


def test_the_chorus_scenarios_pass_on_both_engines_alike():
    scenarios_on_both_engines(CHORUS)


@pytest.mark.parametrize("variants", [[], [DECLARED]], ids=["owner-chooses", "declared"])
def test_random_chorus_games_are_the_same_on_both_engines(variants):
    spec = load_spec(CHORUS, variants)
    fast, ref = Game(spec, mode="compiled"), Game(spec, mode="interpreted")
    steps = sum(play_lockstep(fast, ref, 2 + seed % 2, seed) for seed in range(1, 9))
    assert steps > 100


def test_the_owner_is_asked_only_between_different_pending_abilities():
    gs = Game(load_spec(CHORUS), mode="interpreted").new_initial_state(seed=1)
    gs.apply_label("recruit")
    gs.apply_label("Alto")
    gs.apply_label("recruit")
    gs.apply_label("Boy")
    gs.apply_label("recruit")
    gs.apply_label("Bass")
    gs.apply_label("ring")  # Bo rings: his Boy sings first, then Ann's Alto and Bass are pending: she is asked
    d = gs.decision
    assert (d.player, d.prompt, [o.label for o in d.options]) == (0, "Who sings first?", ["Alto", "Bass"])
    gs.apply_label("Bass")
    assert gs.state.vars["heard"] == ["Boy", "Bass", "Alto"]


BADGES = """\
orrery: 1
game: {name: badges, players: {min: 3, max: 3}}
components:
  pieces:
    badge:
      attributes: {n: int}
      active_in: [shelf]
      abilities:
        - {modify: price, set: self.n}
        - {modify: price, when: "p == owner", scale: 1/2}
      instances: [{n: 3}, {n: 5}, {n: 8}, {n: 9, count: 2}]
      start: pool
  zones:
    pool: {}
    shelf: {type: hand, per_player: true, visibility: public}
quantities:
  price: {params: [p], base: 6}
flow:
  phases:
    - name: play
      steps: [{actions: [take, drop, look]}]
actions:
  take:
    params: {b: {from: pieces(pool)}}
    effect: move b to current.shelf
  drop:
    params: {b: {from: current.shelf}}
    effect: move b to pool
  look: {effect: 'say text([price(p) for p in players])'}
end:
  late: {when: "round > 8"}
"""


def test_remembered_live_modifiers_are_what_a_fresh_look_finds(tmp_path):
    """live_modifiers remembers its answer by the pieces in the active_in places and the acting player (the
    last `set` collected wins, so the order matters): at every step of random games, on both engines, for
    every acting player, the remembered answer is the one a fresh scan of the live pieces gives."""
    spec = make_game(tmp_path, BADGES).spec
    said = set()
    for mode in ("compiled", "interpreted"):
        game = Game(spec, mode=mode)
        for seed in range(1, 4):
            gs, bot = game.new_initial_state(seed=seed), RandomBot(seed)
            while not gs.is_terminal():
                for seat in range(3):
                    s = gs.state.clone()
                    s.cursor.current = seat
                    it = Interp(s)
                    assert live_modifiers(it, "price") == _live_modifiers(it, "price")
                gs.apply(bot.choose(gs))
                said.update(gs.narration)
    assert game.rules.abilities.memo and len(said) > 10  # (remembered answers were used; prices varied)


HEAD = """\
orrery: 1
game: {name: t, players: {min: 2, max: 2}}
flow:
  phases:
    - name: play
      steps: [{actions: [ring]}]
actions:
  ring: {effect: emit bell()}
end:
  done: {when: "round > 3"}
"""
ZONES = """\
components:
  zones:
    table: {type: hand, per_player: true}
    pool: {}
  tracks:
    score: {start: 0}
"""


def problems(tmp_path: Path, body: str) -> list[tuple[str, str, str, str | None]]:
    """(severity, line:col, message, hint) of every finding for HEAD + body (the body starts on line 11)."""
    return spec_findings(tmp_path, HEAD + dedent(body))


CARD = ZONES + """\
  pieces:
    card:
      attributes: {power: int}
      active_in: [table]
      instances: [{power: 1}]
      abilities:
"""
GAIN = """\
effects:
  gain: {params: {who: player, n: int}, effect: who.score += n}
"""

CASES = [
    pytest.param(CARD + "        - {on: bell, play: [\"gain(owner, 1)\"]}\n" + GAIN,
                 ("error", "23:11", "an ability is exactly one of on, modify, activate, play (got on, play)"), id="two-kinds"),
    pytest.param(CARD + "        - {when: \"true\"}\n" + GAIN,
                 ("error", "23:11", "an ability is exactly one of on, modify, activate, play (got none)"), id="no-kind"),
    pytest.param(CARD + "        - {on: bell, do: \"gain(owner, 1)\", then: destroy self}\n" + GAIN,
                 ("error", "23:11", "`then` does not belong to an `on:` ability"), id="then-on-trigger"),
    pytest.param(CARD + "        - {on: bell, empowered: {do: \"gain(owner, 1)\"}, do: \"gain(owner, 1)\"}\n" + GAIN,
                 ("error", "23:11", "`empowered` does not belong to an `on:` ability"), id="empowered-without-play"),
    pytest.param(CARD + "        - {on: bel, do: \"gain(owner, 1)\"}\n" + GAIN,
                 ("error", "23:16", "no rule emits 'bel' and it is not a built-in event: this ability would never "
                                    "run (did you mean 'bell'?)"), id="event-nobody-emits"),
    pytest.param(CARD + "        - {on: bell, do: \"gian(owner, 1)\"}\n" + GAIN,
                 ("error", "23:27", "unknown procedure 'gian' (did you mean 'gain'?)"), id="unknown-template"),
    pytest.param(CARD + "        - {on: bell, do: \"gain(owner)\"}\n" + GAIN,
                 ("error", "23:27", "effect 'gain' is missing argument 'n'"), id="missing-argument"),
    pytest.param(CARD + "        - {on: bell, do: \"gain(owner, 1, 2)\"}\n" + GAIN,
                 ("error", "23:27", "effect 'gain' takes 2 arguments, got 3"), id="extra-argument"),
    pytest.param(CARD + "        - {on: bell, do: \"gain(owner, \\\"two\\\")\"}\n" + GAIN,
                 ("error", "23:40", "type error: effect 'gain': parameter 'n' is a number, but this is text"),
                 id="mistyped-argument"),
    pytest.param(CARD + "        - {on: bell, do: \"gain(self, 1)\"}\n" + GAIN,
                 ("error", "23:32", "type error: effect 'gain': parameter 'who' is a player, but this is a piece"),
                 id="piece-for-player"),
    pytest.param(CARD + "        - {on: bell, do: \"owner.score += 1\"}\n" + GAIN,
                 ("error", "23:26", "a `do:` item calls an effect template: write `NAME(arguments)`"),
                 id="statement-in-do"),
    pytest.param(CARD + "        - {on: bell, do: \"tally(owner)\"}\n" + GAIN
                 + "procedures:\n  tally: {params: [p], effect: p.score += 1}\n",
                 ("error", "23:27", "'tally' is a procedure, not an effect template: a `do:` calls templates only"),
                 id="procedure-in-do"),
    pytest.param(CARD + "        - {modify: prise, add: 1}\n" + GAIN,
                 ("error", "23:20", "unknown quantity 'prise'"), id="unknown-quantity"),
    pytest.param(CARD + "        - {modify: price, add: 1, scale: 1/2}\n" + GAIN
                 + "quantities:\n  price: {base: 3}\n",
                 ("error", "23:11", "a `modify:` ability needs exactly one of set, add, scale (got add, scale)"),
                 id="two-changes"),
    pytest.param(CARD.replace("      active_in: [table]\n", "") + "        - {on: bell, do: \"gain(owner, 1)\"}\n" + GAIN,
                 ("error", "18:5", "piece kind 'card' carries abilities but no `active_in`: they would never be live"),
                 id="no-active-in"),
    pytest.param(CARD.replace("[table]", "[pool]") + "        - {on: bell, do: \"gain(owner, 1)\"}\n" + GAIN,
                 ("error", "20:7", "'pool' is shared: say whose a live 'card' is with `owner:` (`self` bound)"),
                 id="shared-zone-without-owner"),
    pytest.param(CARD.replace("[table]", "[tabel]") + "        - {on: bell, do: \"gain(owner, 1)\"}\n" + GAIN,
                 ("error", "20:19", "unknown zone 'tabel' (did you mean 'table'?)"), id="unknown-zone"),
    pytest.param(ZONES + GAIN.replace("who.score += n", "who.score += n + self"),
                 ("error", "18:66", "unknown name 'self'"), id="self-outside-a-piece"),
    pytest.param("effects:\n  a: {params: {n: int}, effect: call b(n)}\n  b: {params: {n: int}, effect: call a(n)}\n",
                 ("error", "12:3", "effect template 'a' is recursive (a -> b -> a)"), id="recursive-templates"),
    pytest.param("effects:\n  a: {params: {n: integer}, effect: say text(n)}\n",
                 ("error", "12:19", "unknown type 'integer'"), id="unknown-parameter-type"),
]


@pytest.mark.parametrize("body, want", CASES)
def test_misuse_is_a_located_finding(tmp_path, body, want):
    severity, where, message = want
    found = problems(tmp_path, body)
    hits = [f for f in found if message in f[2] and f[0] == severity and (not where or f[1] == where)]
    assert hits, found


def test_use_needs_a_piece_dot_play(tmp_path):
    body = CARD.replace("      active_in: [table]\n", "") + "        - {play: [\"gain(owner, 1)\"]}\n" + GAIN
    body += "procedures:\n  p: {effect: \"use 3\"}\n"
    found = problems(tmp_path, body)
    assert ("error", "26:16", "`use` runs a piece's play: write `use PIECE.play`", None) in found, found
