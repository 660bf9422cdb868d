"""The disk cache of validated specs, generated modules and compiled code (rulespec/diskcache.py, speccache.py,
compiler/modcache.py, compiler/link.py): a spec seen before comes back without reading its YAML or parsing its
rules, equal to a fresh load, and its fast path without a type pass or a generator, the same module; an entry
that is damaged, made for another key, or that names anything a spec is not made of is ignored and rebuilt;
another engine's entries are never read; the cache can be turned off."""

from __future__ import annotations

import marshal
import pickle
import shutil

import pytest

from orrery.interpreter.compiler import codegen, modcache
from orrery.interpreter.compiler import link as L
from orrery.interpreter.compiler.recipe import SiteOf
from orrery.interpreter.engine.game import Game
from orrery.rulespec import diskcache, loader, speccache
from orrery.rulespec.errors import SpecError

from conftest import REPO

CONNECT_FOUR = REPO / "games" / "connect-four" / "rules.yaml"
VARIANT = REPO / "games" / "tic-tac-toe" / "variants"
TIC_TAC_TOE = REPO / "games" / "tic-tac-toe" / "rules.yaml"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of the test's own."""
    monkeypatch.setenv("ORRERY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def builds(monkeypatch):
    """Counts the loads that were not served by the cache."""
    made = []
    real = loader.load_spec_uncached

    def counting(*args, **kwargs):
        made.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(loader, "load_spec_uncached", counting)
    return made


def entries(cache, kind: str) -> list:
    return sorted(cache.glob(f"*/{kind}-*"))


def same_spec(a, b) -> bool:
    return (a.digest == b.digest and a.exprs == b.exprs and a.effects == b.effects and a.model == b.model
            and a.warnings == b.warnings and a.span("actions") == b.span("actions"))


def test_a_spec_seen_before_comes_back_from_the_cache_equal_to_a_fresh_load(cache, builds):
    first = loader.load_spec(CONNECT_FOUR)
    again = loader.load_spec(CONNECT_FOUR)
    assert builds == [CONNECT_FOUR]  # the second load read no YAML and parsed nothing
    assert len(entries(cache, "spec")) == 1
    assert same_spec(first, again) and again is not first
    assert same_spec(again, loader.load_spec_uncached(CONNECT_FOUR))


def test_the_key_holds_the_files_the_variants_the_limits_and_the_checks(cache, builds, tmp_path):
    spec = tmp_path / "rules.yaml"
    spec.write_text(CONNECT_FOUR.read_text(encoding="utf-8"), encoding="utf-8")
    loader.load_spec(spec, check=False)
    loader.load_spec(spec)  # (a checked load is never served by an unchecked entry)
    spec.write_text(spec.read_text(encoding="utf-8").replace("title: Connect Four", "title: Connect 4"),
                    encoding="utf-8")
    changed = loader.load_spec(spec)
    assert changed.model.game.title == "Connect 4"
    ttt = REPO / "games" / "tic-tac-toe" / "rules.yaml"
    variant = sorted(VARIANT.glob("*.yaml"))[0]
    plain, varied = loader.load_spec(ttt), loader.load_spec(ttt, [variant])
    assert plain.digest != varied.digest
    assert len(builds) == 5 and len(entries(cache, "spec")) == 5
    loader.load_spec(ttt, [variant])
    assert len(builds) == 5


def test_an_unchecked_load_is_served_by_a_checked_entry_of_the_same_files(cache, builds):
    """The checker only adds findings, so a checked spec is the unchecked one (with the checker's warnings)."""
    variant = sorted(VARIANT.glob("*.yaml"))[0]
    checked = loader.load_spec(TIC_TAC_TOE, [variant])
    unchecked = loader.load_spec(TIC_TAC_TOE, [variant], check=False)
    assert builds == [TIC_TAC_TOE] and len(entries(cache, "spec")) == 1
    assert same_spec(checked, unchecked)
    assert same_spec(unchecked, loader.load_spec_uncached(TIC_TAC_TOE, [variant], check=False))


def test_no_limits_and_the_default_limits_share_an_entry(cache, builds):
    """A load through the API (no limits) and one through the CLI (the default limits, given) are the same load;
    other limits are another."""
    from orrery.rulespec.source import YamlLimits

    loader.load_spec(CONNECT_FOUR)
    loader.load_spec(CONNECT_FOUR, limits=YamlLimits())
    assert builds == [CONNECT_FOUR]
    loader.load_spec(CONNECT_FOUR, limits=YamlLimits(max_depth=50))
    assert builds == [CONNECT_FOUR, CONNECT_FOUR] and len(entries(cache, "spec")) == 2


@pytest.mark.parametrize("damage", ["truncated", "flipped", "empty", "garbage"])
def test_a_damaged_entry_is_ignored_and_rebuilt(cache, builds, damage):
    fresh = loader.load_spec(CONNECT_FOUR)
    (path,) = entries(cache, "spec")
    blob = path.read_bytes()
    path.write_bytes({"truncated": blob[: len(blob) // 2], "flipped": blob[:-100] + bytes([blob[-100] ^ 0xFF])
                      + blob[-99:], "empty": b"", "garbage": b"\x00" * 64}[damage])
    again = loader.load_spec(CONNECT_FOUR)
    assert len(builds) == 2 and same_spec(fresh, again)
    assert path.read_bytes() == blob  # rewritten whole
    loader.load_spec(CONNECT_FOUR)
    assert len(builds) == 2


def test_a_foreign_entry_under_the_same_name_is_ignored(cache, builds):
    """Another spec's entry copied over this one's (its header names another key) is not read."""
    ttt = REPO / "games" / "tic-tac-toe" / "rules.yaml"
    loader.load_spec(ttt)
    (other,) = entries(cache, "spec")
    key = speccache.spec_key(CONNECT_FOUR, [], None, True)
    target = diskcache.folder() / f"spec-{key[:32]}"
    shutil.copyfile(other, target)
    got = loader.load_spec(CONNECT_FOUR)
    assert got.name == "connect-four" and builds == [ttt, CONNECT_FOUR]


def test_an_entry_naming_anything_but_a_spec_class_is_refused_and_nothing_it_names_runs(cache, builds, tmp_path):
    """A planted pickle that would call a function (here: write a file) is refused by the unpickler."""
    witness = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (open, (str(witness), "w"))

    key = speccache.spec_key(CONNECT_FOUR, [], None, True)
    assert diskcache.write("spec", key, pickle.dumps(Evil()))
    got = loader.load_spec(CONNECT_FOUR)
    assert got.name == "connect-four" and builds == [CONNECT_FOUR]
    assert not witness.exists()


def _container_paths(value, path=()):
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, sub in items:
        if isinstance(sub, (dict, list)):
            yield path + (key,)
            yield from _container_paths(sub, path + (key,))


def test_a_cached_spec_reads_its_yaml_documents_only_when_a_place_is_asked_for(cache, builds):
    """A warm start plays without unpickling the YAML documents (`merged`, most of an entry): the spans of the
    declarations come with the entry, and `merged` is read back, equal to a fresh load's, when first used."""
    variant = sorted(VARIANT.glob("*.yaml"))[0]
    fresh = loader.load_spec_uncached(TIC_TAC_TOE, [variant])
    loader.load_spec(TIC_TAC_TOE, [variant])
    again = loader.load_spec(TIC_TAC_TOE, [variant])
    assert "merged" not in again.__dict__
    Game(again).new_initial_state(seed=1).legal_actions()
    assert "merged" not in again.__dict__  # (the rules' spans came from the entry)
    paths = list(_container_paths(fresh.merged.data))
    assert len(paths) > 10 and [again.span(*p) for p in paths] == [fresh.span(*p) for p in paths]
    assert "merged" not in again.__dict__
    assert again.span("game", "name") == fresh.span("game", "name")  # a value's place: the documents are read
    merged = again.__dict__["merged"]
    assert merged.data == fresh.merged.data and merged.variant_names == fresh.merged.variant_names
    assert [d.text for d in [merged.base, *merged.variants]] == [d.text for d in [fresh.merged.base,
                                                                                  *fresh.merged.variants]]
    assert merged.key_span(("actions",)) == fresh.merged.key_span(("actions",))
    assert builds == [TIC_TAC_TOE, TIC_TAC_TOE]  # (the fresh load, the first load; never the documents again)


def test_a_cached_spec_pickles_and_copies_with_its_documents(cache, builds):
    import copy

    loader.load_spec(CONNECT_FOUR)
    again = loader.load_spec(CONNECT_FOUR)
    for other in (pickle.loads(pickle.dumps(again)), copy.deepcopy(again)):
        assert "merged" in other.__dict__ and "_load_merged" not in other.__dict__
        assert same_spec(other, again) and other.merged.data == again.merged.data


def test_documents_that_do_not_read_back_are_loaded_from_the_files_and_nothing_they_name_runs(cache, builds,
                                                                                             tmp_path):
    witness = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (open, (str(witness), "w"))

    fresh = loader.load_spec(CONNECT_FOUR)
    key = speccache.spec_key(CONNECT_FOUR, [], None, True)
    head = loader.load_spec(CONNECT_FOUR)
    head.__dict__.pop("_load_merged")
    spans = head.__dict__.pop("_spans")
    assert diskcache.write("spec", key, pickle.dumps((head, pickle.dumps(Evil()), [], spans)))
    got = loader.load_spec(CONNECT_FOUR)
    assert builds == [CONNECT_FOUR] and "merged" not in got.__dict__
    assert got.merged.data == fresh.merged.data and len(builds) == 2  # read from the files instead
    assert not witness.exists()


def test_another_engines_entries_are_never_read(cache, builds, monkeypatch):
    loader.load_spec(CONNECT_FOUR)
    monkeypatch.setattr(diskcache, "_engine_digest", "0" * 64)  # the same files, another engine's source
    loader.load_spec(CONNECT_FOUR)
    assert len(builds) == 2 and len({p.parent for p in entries(cache, "spec")}) == 2


def test_the_engine_digest_is_the_engines_source():
    d = diskcache.engine_digest()
    assert len(d) == 64 and diskcache.folder().name.startswith(d[:20])


def test_off_turns_the_cache_off(monkeypatch, builds, tmp_path):
    monkeypatch.setenv("ORRERY_CACHE_DIR", "off")
    monkeypatch.setenv("HOME", str(tmp_path))
    loader.load_spec(CONNECT_FOUR)
    loader.load_spec(CONNECT_FOUR)
    assert len(builds) == 2 and diskcache.folder() is None and not list(tmp_path.rglob("spec-*"))


def test_the_default_folder_is_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("ORRERY_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert diskcache.cache_root() == tmp_path / "xdg" / "orrery"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert diskcache.cache_root() == tmp_path / ".cache" / "orrery"


def test_a_spec_that_does_not_load_is_not_cached(cache, tmp_path):
    bad = tmp_path / "rules.yaml"
    bad.write_text("orrery: 1\ngame: {name: x}\nflow: 3\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(SpecError):
            loader.load_spec(bad)
    assert not entries(cache, "spec")


def test_an_unwritable_cache_costs_only_the_work(tmp_path, monkeypatch, builds):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("ORRERY_CACHE_DIR", str(blocker))
    assert loader.load_spec(CONNECT_FOUR).name == "connect-four"


def played(game: Game) -> str:
    gs = game.new_initial_state(seed=3)
    while not gs.is_terminal():
        gs.apply(gs.legal_actions()[len(gs.legal_actions()) // 2])
    return gs.digest()


def test_compiled_code_is_kept_and_a_damaged_or_foreign_entry_recompiled(cache):
    L._CODE_CACHE.clear()  # (compiled by an earlier test of this process: the disk is read only on a miss)
    game = Game(loader.load_spec(CONNECT_FOUR), mode="compiled")
    code = entries(cache, "code")
    assert code, "the generated module's code is on disk"
    source, result = game.rules.compiled.source, played(game)
    L._CODE_CACHE.clear()
    for p in code:
        p.write_bytes(p.read_bytes()[:-10] + b"0123456789")  # checksums no longer match
    again = Game(loader.load_spec(CONNECT_FOUR), mode="compiled")
    assert again.rules.compiled.source == source and played(again) == result
    assert all(diskcache.read("code", p.read_bytes().split(b"\n")[2].decode()) for p in entries(cache, "code"))
    L._CODE_CACHE.clear()
    payload = marshal.dumps(compile("x = 1", "<elsewhere>", "exec"))  # another source's code, under this key
    for p in entries(cache, "code"):
        diskcache.write("code", p.read_bytes().split(b"\n")[2].decode(), payload)
    third = Game(loader.load_spec(CONNECT_FOUR), mode="compiled")
    assert "x" not in third.rules.compiled.namespace and played(third) == result


def test_a_warm_start_imports_no_yaml_reader_parser_checker_or_jsonschema(cache):
    """What a warm `orrery.load_game` (and the table's first screen) must not wait for: nor pydantic's validators
    and serializers of the spec's models (built when first used: models.py; flatmodule reads the keys a spec sets
    off the models), nor its plugin loader (importlib.metadata)."""
    import subprocess
    import sys

    code = ("import sys, orrery; orrery.load_game('connect-four').new_initial_state().legal_actions(); "
            "from orrery.rulespec.models import Spec; "
            "print(sorted(m for m in ('orrery.rulespec.parser', 'orrery.rulespec.checker', 'orrery.rulespec.loader', "
            "'lark', 'jsonschema', 'prompt_toolkit', 'importlib.metadata', 'ruamel.yaml') if m in sys.modules), "
            "Spec.__pydantic_complete__)")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
            for _ in range(2)]
    assert runs[0] != "[] False"  # cold: the loader did the work
    assert runs[1] == "[] False"


@pytest.fixture
def generations(monkeypatch):
    """Counts the typed fast paths generated (not read from the cache)."""
    made = []
    real = codegen.generate

    def counting(rules, generator=None):
        made.append(rules.name)
        return real(rules, generator)

    monkeypatch.setattr(codegen, "generate", counting)
    monkeypatch.setattr("orrery.interpreter.compiler.typedgen.generate", counting)
    return made


def _nodes(game: Game) -> set[int]:
    return {id(n) for table in (game.spec.exprs, game.spec.effects) for root in table.values() for n in root.walk()}


@pytest.mark.parametrize("spec", [CONNECT_FOUR, REPO / "tests" / "specs" / "matching-pennies.yaml"])
def test_a_warm_start_reads_the_generated_module_and_plays_the_same(cache, generations, spec):
    """The second load generates nothing: the same source, its tables keyed by the new spec's own nodes (the
    node a choice's site names too), the same game."""
    cold = Game(loader.load_spec(spec), mode="compiled")
    assert len(generations) == 1 and entries(cache, "typedmod")
    warm = Game(loader.load_spec(spec), mode="compiled")
    assert len(generations) == 1
    assert warm.spec is not cold.spec and warm.rules.compiled.source == cold.rules.compiled.source
    live = _nodes(warm)
    assert set(warm.rules.compiled.fns) <= live and len(warm.rules.compiled.fns) == len(cold.rules.compiled.fns)
    assert set(warm.rules.compiled.block_steps) <= live
    sites = [c.node for c in modcache.load(warm.rules).consts if isinstance(c, SiteOf)]
    assert all(id(n) in live for n in sites)
    assert played(warm) == played(cold)


class _Evil:
    def __reduce__(self):
        return (shutil.rmtree, ("/nonexistent-orrery-witness",))


@pytest.mark.parametrize("damage", ["truncated", "garbage", "foreign", "evil"])
def test_a_damaged_or_foreign_module_entry_is_ignored_and_rebuilt(cache, generations, damage):
    first = Game(loader.load_spec(CONNECT_FOUR), mode="compiled")
    (path,) = entries(cache, "typedmod")
    blob, key = path.read_bytes(), path.read_bytes().split(b"\n")[2].decode()
    if damage == "foreign":  # another spec's recipe under this spec's key: its digest is not this spec's
        Game(loader.load_spec(REPO / "games" / "tic-tac-toe" / "rules.yaml"), mode="compiled")
        other = next(p for p in entries(cache, "typedmod") if p != path)
        diskcache.write(modcache.KIND, key, diskcache.read(modcache.KIND, other.read_bytes().split(b"\n")[2].decode()))
    elif damage == "evil":  # a pickle that would call something else: refused before anything runs
        diskcache.write(modcache.KIND, key, pickle.dumps(({}, _Evil())))
    else:
        path.write_bytes(blob[: len(blob) // 2] if damage == "truncated" else b"\x00" * 64)
    made = len(generations)
    again = Game(loader.load_spec(CONNECT_FOUR), mode="compiled")
    assert len(generations) == made + 1
    assert modcache.load(again.rules) is not None  # rewritten whole
    Game(loader.load_spec(CONNECT_FOUR), mode="compiled")
    assert len(generations) == made + 1 and played(again) == played(first)


def test_the_same_rules_in_another_file_or_layout_get_their_own_module_entry(cache, generations, tmp_path):
    """The spec's digest is its data's: the generated module's spans name files and lines, so a copy elsewhere
    (here one line lower) is generated for itself and its errors name the copy."""
    Game(loader.load_spec(CONNECT_FOUR), mode="compiled")
    copy = tmp_path / "rules.yaml"
    copy.write_text("# moved\n" + CONNECT_FOUR.read_text(encoding="utf-8"), encoding="utf-8")
    moved = Game(loader.load_spec(copy), mode="compiled")
    assert len(generations) == 2 and len(entries(cache, "typedmod")) == 2
    assert all(str(tmp_path) in sp.file for sp in moved.rules.compiled.line_spans.values())
