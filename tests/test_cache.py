"""Cairn's cache of derived code: a broken or foreign entry is ignored and rewritten, and
without a usable folder Cairn derives everything again instead of failing."""
from __future__ import annotations

import marshal

from interpreter.load import cache


def _fresh(monkeypatch, value: str) -> None:
    monkeypatch.setenv("CAIRN_CACHE", value)
    cache.cache_dir.cache_clear()


def test_a_broken_entry_is_rebuilt(monkeypatch, tmp_path):
    _fresh(monkeypatch, str(tmp_path))
    try:
        calls = []
        src = lambda: calls.append(1) or "x = 6 * 7"  # noqa: E731
        code = cache.compiled("probe", src)
        entry = next(tmp_path.glob("probe-*.bin"))
        assert calls == [1] and marshal.loads(entry.read_bytes()[cache.HEADER:]) == code   # after the seal
        cache.compiled("probe", src)
        assert calls == [1]                                  # read back, not derived again
        entry.write_bytes(b"\x00garbage")
        scope: dict = {}
        exec(cache.compiled("probe", src), scope)
        assert calls == [1, 1] and scope["x"] == 42
    finally:
        cache.cache_dir.cache_clear()


def test_no_cache_folder_still_works(monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    for value in ("off", str(blocked / "sub")):
        _fresh(monkeypatch, value)
        try:
            assert cache.cache_dir() is None
            scope: dict = {}
            exec(cache.compiled("probe", lambda: "y = 1"), scope)
            assert scope["y"] == 1
        finally:
            cache.cache_dir.cache_clear()


def test_an_entry_the_cache_lacks_comes_from_the_seed_a_wheel_ships(monkeypatch, tmp_path):
    # interpreter/load/seed.py: the wheel carries the grammar's tables and the compiled
    # schema checks, built with the wheel, and a MANIFEST of their digests; the first run
    # reads them instead of building them.
    from interpreter.load import seed
    seed_folder, user = tmp_path / "seed", tmp_path / "user"
    seed_folder.mkdir()
    monkeypatch.setattr(seed, "seed_dir", lambda: seed_folder)
    monkeypatch.setenv("CAIRN_CACHE", str(seed_folder))
    cache.cache_dir.cache_clear()
    seed.manifest.cache_clear()
    try:
        cache.compiled("probe", lambda: "x = 6 * 7")            # as the wheel's build writes it
        seed.write_manifest(seed_folder, [p.name for p in seed_folder.glob("probe-*")])
        _fresh(monkeypatch, str(user))
        scope: dict = {}
        exec(cache.compiled("probe", lambda: (_ for _ in ()).throw(AssertionError("built again"))), scope)
        assert scope["x"] == 42 and not list(user.glob("probe-*"))
        _fresh(monkeypatch, "off")                            # off means off: nothing kept is read
        exec(cache.compiled("probe", lambda: "x = 1"), scope)
        assert scope["x"] == 1
    finally:
        cache.cache_dir.cache_clear()
        seed.manifest.cache_clear()


def test_entries_of_shipped_games_are_named_by_content_not_by_place(monkeypatch, tmp_path):
    # What a wheel's seed holds must serve its games wherever they are installed: a YAML
    # entry is named by the bytes (the name a file is shown by is set on what is read
    # back), a shipped folder's trees by its place among Cairn's data.
    from pathlib import Path

    from interpreter.load import files, trees
    _fresh(monkeypatch, str(tmp_path / "cache"))
    try:
        game = Path(files.definitions_root()) / "pig" / "game.yaml"
        for where in ("a", "b"):
            (tmp_path / where).mkdir()
            (tmp_path / where / "game.yaml").write_bytes(game.read_bytes())
        first, key_a = files.cached_yaml(tmp_path / "a" / "game.yaml", "a/game.yaml")
        second, key_b = files.cached_yaml(tmp_path / "b" / "game.yaml", "b/game.yaml")
        assert key_a == key_b and first.file == "a/game.yaml" and second.file == "b/game.yaml"
        assert len(list((tmp_path / "cache").glob("yaml-*"))) == 1
        here = trees._entry.__wrapped__(str(files.data_root().resolve() / "definitions" / "pig"))
        monkeypatch.setattr(files, "data_root", lambda: tmp_path / "installed")
        there = trees._entry.__wrapped__(str(tmp_path / "installed" / "definitions" / "pig"))
        assert here == there != trees._entry.__wrapped__(str(tmp_path / "elsewhere" / "pig"))
    finally:
        cache.cache_dir.cache_clear()


def test_a_games_compiled_code_serves_the_next_process(monkeypatch, tmp_path):
    # load/code_cache.py: the Python a game's rules become is compiled once, kept at the
    # end of the process, and read by the next one instead of compiled again; the same game
    # plays the same; a broken entry is a miss.
    from pathlib import Path

    from interpreter.lang import expressions
    from interpreter.load import code_cache
    from interpreter.load.build import build
    from interpreter.records import make_record
    folder = Path(__file__).resolve().parents[1] / "definitions" / "tic-tac-toe"
    _fresh(monkeypatch, str(tmp_path))
    compiles = []
    real = compile
    monkeypatch.setattr(expressions, "compile", lambda *a: compiles.append(a[1]) or real(*a), raising=False)

    def a_process() -> str:
        monkeypatch.setattr(code_cache, "_STORES", {})         # what a new process holds
        game, diags = build(folder, [])
        assert not diags
        state = game.new_initial_state(2, 3)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[-1])
        for store in code_cache._STORES.values():
            store.save()                                     # as it would at its end
        return make_record(state)["final_state_sha256"]

    try:
        first = a_process()
        assert compiles and list(tmp_path.glob("code-*.bin"))
        compiles.clear()
        assert a_process() == first and compiles == []
        for entry in tmp_path.glob("code-*.bin"):
            entry.write_bytes(b"\x00garbage")
        assert a_process() == first and compiles
    finally:
        cache.cache_dir.cache_clear()


def test_a_code_entry_keeps_what_was_used_when_it_is_full(monkeypatch, tmp_path):
    # Each edit of a rule adds a code object; past MAX_CODES the save drops first what the
    # process did not use (old versions of edited rules), so the entry stays bounded.
    from interpreter.load import code_cache
    _fresh(monkeypatch, str(tmp_path))
    monkeypatch.setattr(code_cache, "_STORES", {})
    monkeypatch.setattr(code_cache, "MAX_CODES", 3)
    try:
        code = compile("x = 1", "<t>", "exec")
        old = code_cache.store_for(tmp_path)
        for i in range(3):
            old.put("<t>", f"old {i}", code)
        old.save()
        monkeypatch.setattr(code_cache, "_STORES", {})        # a later process uses one of them
        new = code_cache.store_for(tmp_path)
        assert new.get("<t>", "old 2") is not None
        new.put("<t>", "new", code)
        new.save()
        monkeypatch.setattr(code_cache, "_STORES", {})
        kept = code_cache.store_for(tmp_path)
        assert kept.get("<t>", "new") is not None and kept.get("<t>", "old 2") is not None
        assert len(kept.codes) == 3 and kept.get("<t>", "old 1") is None
    finally:
        cache.cache_dir.cache_clear()
