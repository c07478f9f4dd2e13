"""Cairn's cache cannot be turned against its user (interpreter/load/cache.py, cache_trust.py).

An attacker who can write the cache folder could otherwise plant a pickle that runs as the
user, or an entry that plays other rules. So: a folder others could write is refused (and
play goes on without a cache), every entry is sealed to its name with an HMAC under a
secret only the user can read, and an entry that fails the check is dropped and built
again. Each probe has a negative control: with the guard turned off by monkeypatch, the
same hostile entry runs or is used, so the probes are not vacuous.
"""
from __future__ import annotations

import io
import json
import marshal
import os
import pickle
import random
import shutil
import stat
import sys
import tracemalloc
from contextlib import redirect_stdout
from pathlib import Path
from types import CodeType

import pytest

from interpreter.lang import memo, parser
from interpreter.load import cache, cache_trust, code_cache, files, root, seed, trees

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
# the hostile corpus's own ways to spoil an entry, and the uid that is no one's
from cache_hostile import AS_ROOT, OTHER_UID, UNPRIVATE, unprivate  # noqa: E402
sys.path.pop(0)
KINDS = ("yaml", "trees", "code", "board", "validate")
TAMPERS = ("replaced", "swapped", "bitflip", "foreign", "truncated")


class Planted:
    """What an attacker plants: unpickling it writes the marker file (as any code could)."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('ran')",))


def _forget(monkeypatch) -> None:
    """Drops what this process keeps in memory, as a fresh process would start."""
    files._READ.clear()
    parser._PARSED.clear()
    trees._KEPT.clear()
    memo._KEPT.clear()
    monkeypatch.setattr(code_cache, "_STORES", {})
    cache.cache_dir.cache_clear()


def _use(monkeypatch, folder: Path) -> None:
    monkeypatch.setenv("CAIRN_CACHE", str(folder))
    _forget(monkeypatch)


def _play(folder: Path) -> str:
    """Returns what a fresh process's game gives: the final-state digest of a seeded random
    game (or the build's problems), with the process's compiled code saved at its end."""
    from interpreter.load.build import build
    from interpreter.records import make_record
    game, diags = build(folder, [])
    if diags:
        return "problems: " + "; ".join(str(d) for d in diags)
    rnd = random.Random(7)
    state = game.new_initial_state(2, 7)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])
    for store in list(code_cache._STORES.values()):
        store.save()
    return make_record(state)["final_state_sha256"]


def _validate(folder: Path) -> str:
    from interpreter.cli.main import main
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["validate", str(folder)])
    return f"{code}: {out.getvalue()}"


def _names(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Tic-tac-toe and connect-four (each has a board, effects and code), a broken copy of
    tic-tac-toe, and a clean cache holding what playing and validating them keeps, with
    which entry is whose and what a clean cache gives."""
    mp = pytest.MonkeyPatch()
    where = tmp_path_factory.mktemp("cache-security")
    mp.chdir(where)
    for game in ("tic-tac-toe", "connect-four"):
        shutil.copytree(ROOT / "definitions" / game, where / game)
    shutil.copytree(ROOT / "definitions" / "tic-tac-toe", where / "broken")
    text = (where / "broken" / "game.yaml").read_text("utf-8")
    (where / "broken" / "game.yaml").write_text(text.replace("\n  name: ", "\n  nmae: ", 1), "utf-8")
    clean = where / "clean"
    _use(mp, clean)
    entries, outcome = {}, {}
    try:
        for game in ("tic-tac-toe", "connect-four"):
            before = _names(clean) if clean.exists() else set()
            outcome[game] = _play(where / game)
            for name in _names(clean) - before:
                entries.setdefault((game, name.split("-")[0]), []).append(name)
        for game in ("tic-tac-toe", "broken"):
            before = _names(clean)
            outcome["validate " + game] = _validate(where / game)
            for name in _names(clean) - before:
                entries.setdefault((game, name.split("-")[0]), []).append(name)
        _key, yaml_game = files.cached_yaml(where / "tic-tac-toe" / "game.yaml", "g")
        _key, yaml_other = files.cached_yaml(where / "tic-tac-toe" / "components.yaml", "c")
        entries[("tic-tac-toe", "yaml")] = [f"yaml-{yaml_game}.pkl", f"yaml-{yaml_other}.pkl"]
        assert outcome["validate broken"].startswith("1: ") and outcome["validate tic-tac-toe"].startswith("0: ")
        assert not outcome["tic-tac-toe"].startswith("problems")
        yield {"where": where, "clean": clean, "entries": entries, "outcome": outcome}
    finally:
        _forget(mp)
        mp.undo()


def _target(world: dict, kind: str) -> tuple[str, str, str]:
    """Returns (entry name, the name of another entry of its kind, what a run gives)."""
    e = world["entries"]
    if kind == "yaml":
        return e[("tic-tac-toe", "yaml")][0], e[("tic-tac-toe", "yaml")][1], "tic-tac-toe"
    if kind == "validate":
        return e[("broken", "validate")][0], e[("tic-tac-toe", "validate")][0], "validate broken"
    return e[("tic-tac-toe", kind)][0], e[("connect-four", kind)][0], "tic-tac-toe"


def _run(world: dict, what: str) -> str:
    if what.startswith("validate "):
        return _validate(world["where"] / what.split()[1])
    return _play(world["where"] / what)


def _planted(kind: str, name: str, cache_folder: Path, marker: Path) -> bytes:
    """Returns a payload that does harm if it is used: a pickle that runs code (YAML,
    trees), code objects with every number changed (code), a board said to fall apart, and
    a verdict that finds nothing wrong."""
    if kind in ("yaml", "trees"):
        return pickle.dumps(Planted(marker))
    payload = cache.read_bytes(name, cache_folder)
    if kind == "code":
        codes = marshal.loads(payload)
        return marshal.dumps({k: _bumped(c) for k, c in codes.items()})
    if kind == "board":
        kept = json.loads(payload)
        return json.dumps({"next": kept["next"], "apart": [2, [next(iter(kept["next"]))]]}).encode()
    kept = json.loads(payload)
    return json.dumps({"problems": [], "checked": kept["checked"]}).encode()


def _bumped(code: CodeType) -> CodeType:
    consts = tuple(c + 1 if type(c) is int else _bumped(c) if isinstance(c, CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_consts=consts)


def _tamper(tamper: str, kind: str, folder: Path, name: str, other: str, marker: Path) -> bytes:
    """Writes a hostile entry at `name` in the cache `folder` and returns its bytes."""
    path = folder / name
    good = path.read_bytes()
    if tamper == "replaced":          # other bytes under the old seal
        bad = good[:cache.HEADER] + _planted(kind, name, folder, marker)
    elif tamper == "foreign":         # sealed, but with another cache's secret
        payload = _planted(kind, name, folder, marker)
        bad = cache.MARK + cache.seal(b"another user's secret, 32 bytes", name, payload) + payload
    elif tamper == "swapped":         # a good entry of the same kind, of another name
        bad = (folder / other).read_bytes()
    elif tamper == "bitflip":         # 16 bits flipped, header and payload alike
        data = bytearray(good)
        rnd = random.Random(name)
        for _ in range(16):
            at = rnd.randrange(len(data))
            data[at] ^= 1 << rnd.randrange(8)
        bad = bytes(data)
    else:
        bad = good[:len(good) // 2]
    assert bad != good
    path.write_bytes(bad)
    return bad


def _copy_clean(world: dict, dest: Path) -> Path:
    shutil.copytree(world["clean"], dest)
    return dest


@pytest.mark.parametrize("tamper", TAMPERS)
@pytest.mark.parametrize("kind", KINDS)
def test_a_hostile_entry_is_dropped_and_rebuilt(world, kind, tamper, tmp_path, monkeypatch):
    folder = _copy_clean(world, tmp_path / "cache")
    marker = tmp_path / "marker"
    name, other, what = _target(world, kind)
    bad = _tamper(tamper, kind, folder, name, other, marker)
    _use(monkeypatch, folder)
    assert _run(world, what) == world["outcome"][what]
    assert not marker.exists()
    rebuilt = (folder / name).read_bytes()
    assert rebuilt != bad and cache.read_bytes(name, folder) is not None     # sealed anew


@pytest.mark.parametrize("tamper", ("replaced", "foreign", "swapped"))
@pytest.mark.parametrize("kind", KINDS)
def test_without_the_seal_the_hostile_entry_is_used(world, kind, tamper, tmp_path, monkeypatch):
    # The negative control of the test above: the check bypassed, the same entry runs code,
    # plays other rules, breaks the build or passes a broken game.
    if tamper == "swapped" and kind not in ("yaml", "validate"):
        pytest.skip("another game's trees, code or board are only misses here (named by their texts)")
    folder = _copy_clean(world, tmp_path / "cache")
    marker = tmp_path / "marker"
    name, other, what = _target(world, kind)
    _tamper(tamper, kind, folder, name, other, marker)
    monkeypatch.setattr(cache, "unseal", lambda data, _name, _key: data[cache.HEADER:])
    _use(monkeypatch, folder)
    try:
        got = _run(world, what)
    except Exception as err:             # a game that plays other rules may well crash
        got = f"raised {type(err).__name__}"
    assert marker.exists() or got != world["outcome"][what]
    if kind == "validate":
        assert got.startswith("0: ")                      # the broken game "validates"


@pytest.mark.parametrize("how", ["0777", "1777", "0775", "other user", "link to 0777", "in a 0777 parent"])
def test_a_pickle_planted_in_a_folder_others_can_write_never_runs(world, how, tmp_path, monkeypatch, capsys):
    if how == "other user" and not AS_ROOT:
        pytest.skip("giving a folder to another user needs root")
    marker = tmp_path / "marker"
    outer = tmp_path / "parent"
    outer.mkdir()
    hostile = outer / "cache"
    _plant_everything(world, hostile, marker)
    folder = hostile
    if how in ("0777", "1777", "0775"):
        os.chmod(hostile, int(how, 8))
    elif how == "other user":
        os.chown(hostile, OTHER_UID, OTHER_UID)
    elif how == "link to 0777":
        os.chmod(hostile, 0o777)
        folder = tmp_path / "link"
        folder.symlink_to(hostile)
    else:
        os.chmod(outer, 0o777)
    _use(monkeypatch, folder)
    assert cache.cache_dir() is None
    assert _play(world["where"] / "tic-tac-toe") == world["outcome"]["tic-tac-toe"]
    assert not marker.exists()
    err = capsys.readouterr().err
    assert err.count("cairn: not using the cache folder") == 1 and str(folder) in err
    assert "chmod 700" in err and "CAIRN_CACHE" in err
    cache.cache_dir.cache_clear()
    cache.cache_dir()
    assert capsys.readouterr().err == ""                 # said once a process
    # the negative control: the folder check bypassed, the planted pickle runs
    monkeypatch.setattr(cache, "folder_problem", lambda *_a: None)
    _use(monkeypatch, folder)
    _play(world["where"] / "tic-tac-toe")
    assert marker.exists()


def _plant_everything(world: dict, hostile: Path, marker: Path) -> None:
    """Fills a folder as an attacker who owns it would: the clean cache's names, each
    holding the planted pickle sealed with the attacker's own secret (its file 0600)."""
    hostile.mkdir(mode=0o700)
    key = os.urandom(32)
    fd = os.open(hostile / cache_trust.SECRET, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, key)
    os.close(fd)
    payload = pickle.dumps(Planted(marker))
    for name in _names(world["clean"]) - {cache_trust.SECRET}:
        (hostile / name).write_bytes(cache.MARK + cache.seal(key, name, payload) + payload)


def test_a_private_folder_in_a_sticky_world_writable_one_is_used(tmp_path, monkeypatch):
    sticky = tmp_path / "tmp"
    sticky.mkdir()
    os.chmod(sticky, 0o1777)
    _use(monkeypatch, sticky / "mine")
    assert cache.cache_dir() == sticky / "mine"


def test_a_fresh_cache_folder_is_0700_and_its_entries_0600(world, tmp_path, monkeypatch):
    folder = tmp_path / "new" / "cache"
    _use(monkeypatch, folder)
    old = os.umask(0o022)
    try:
        assert _play(world["where"] / "tic-tac-toe") == world["outcome"]["tic-tac-toe"]
        assert _validate(world["where"] / "tic-tac-toe") == world["outcome"]["validate tic-tac-toe"]
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    modes = {p.name.split("-")[0]: stat.S_IMODE(p.lstat().st_mode) for p in folder.iterdir()}
    assert {"yaml", "trees", "code", "board", "validate", "valid", cache_trust.SECRET} <= set(modes)
    assert set(modes.values()) == {0o600}


def test_the_parser_tables_are_a_sealed_entry_too(world, tmp_path, monkeypatch):
    # lark's own cache would unpickle its file unchecked: the tables go through the cache.
    folder = _copy_clean(world, tmp_path / "cache")
    marker = tmp_path / "marker"
    name = seed.GRAMMAR
    _use(monkeypatch, folder)
    try:
        parser._parser.cache_clear()
        parser._parser()                          # the tables, kept in this cache (if not there yet)
        good = (folder / name).read_bytes()
        key_line = good[cache.HEADER:].split(b"\n", 1)[0]
        payload = key_line + b"\n" + pickle.dumps(Planted(marker))
        (folder / name).write_bytes(good[:cache.HEADER] + payload)
        parser._parser.cache_clear()
        built = parser._parser()
        assert not marker.exists() and cache.read_bytes(name, folder).startswith(key_line + b"\n")
        builds = []

        class Counted(parser.Lark):
            def __init__(self, *a, **k):
                builds.append(1)
                super().__init__(*a, **k)
        monkeypatch.setattr(parser, "Lark", Counted)
        parser._parser.cache_clear()
        assert parser._parser() is not built and builds == []     # read back from the entry, sealed anew
        monkeypatch.setattr(parser, "Lark", Counted.__bases__[0])
        _forget(monkeypatch)
        assert _play(world["where"] / "tic-tac-toe") == world["outcome"]["tic-tac-toe"]
        (folder / name).write_bytes(good[:cache.HEADER] + payload)
        monkeypatch.setattr(cache, "unseal", lambda data, _name, _key: data[cache.HEADER:])
        parser._parser.cache_clear()
        parser._parser()                     # the planted pickle runs (then, no parser, lark builds)
        assert marker.exists()
    finally:
        parser._parser.cache_clear()


@pytest.mark.parametrize("how", UNPRIVATE)
def test_an_entry_that_is_not_a_private_regular_file_is_not_read(world, how, tmp_path, monkeypatch):
    if how == "other user" and not AS_ROOT:
        pytest.skip("giving a file to another user needs root")
    folder = _copy_clean(world, tmp_path / "cache")
    name = _target(world, "board")[0]
    path = folder / name
    unprivate(path, how, tmp_path / "elsewhere")
    _use(monkeypatch, folder)
    assert cache.read_bytes(name) is None                 # a link, even to a good entry, is not read
    assert _play(world["where"] / "tic-tac-toe") == world["outcome"]["tic-tac-toe"]
    if how != "folder":
        assert stat.S_ISREG(path.lstat().st_mode) and cache.read_bytes(name) is not None   # rebuilt


@pytest.mark.parametrize("how", ["missing", "0644", "short", "other user", "link"])
def test_a_secret_that_cannot_be_trusted_is_made_anew(world, how, tmp_path, monkeypatch):
    if how == "other user" and not AS_ROOT:
        pytest.skip("giving a file to another user needs root")
    folder = _copy_clean(world, tmp_path / "cache")
    secret = folder / cache_trust.SECRET
    old = secret.read_bytes()
    name = _target(world, "yaml")[0]
    if how == "missing":
        secret.unlink()
    elif how == "0644":
        os.chmod(secret, 0o644)
    elif how == "short":
        secret.write_bytes(old[:16])
    elif how == "other user":
        os.chown(secret, OTHER_UID, OTHER_UID)
    else:
        (tmp_path / "secret").write_bytes(old)
        secret.unlink()
        secret.symlink_to(tmp_path / "secret")
    _use(monkeypatch, folder)
    assert cache.cache_dir() == folder
    new = secret.read_bytes()
    assert new != old and len(new) == 32 and stat.S_IMODE(secret.lstat().st_mode) == 0o600
    assert cache.read_bytes(name) is None                 # sealed with the old secret: a miss
    assert _play(world["where"] / "tic-tac-toe") == world["outcome"]["tic-tac-toe"]
    assert cache.read_bytes(name) is not None


def test_a_copied_verdict_does_not_make_a_broken_game_validate(world, tmp_path, monkeypatch):
    folder = _copy_clean(world, tmp_path / "cache")
    good, broken = world["entries"][("tic-tac-toe", "validate")][0], world["entries"][("broken", "validate")][0]
    shutil.copyfile(folder / good, folder / broken)
    _use(monkeypatch, folder)
    got = _validate(world["where"] / "broken")
    assert got == world["outcome"]["validate broken"] and got.startswith("1: ")
    monkeypatch.setattr(cache, "unseal", lambda data, _name, _key: data[cache.HEADER:])   # the control
    shutil.copyfile(folder / good, folder / broken)
    _use(monkeypatch, folder)
    assert _validate(world["where"] / "broken").startswith("0: ")


def test_the_seed_serves_only_what_its_manifest_names(world, tmp_path, monkeypatch):
    # seed.py: no user's secret can vouch for a seed; its manifest, made at build time,
    # binds each name to the digest of its bytes.
    seed_folder = _copy_clean(world, tmp_path / "seed")
    name, other, _what = _target(world, "board")
    seed.write_manifest(seed_folder, [name, other])
    monkeypatch.setattr(seed, "seed_dir", lambda: seed_folder)
    _use(monkeypatch, tmp_path / "user")
    try:
        served = seed.seeded(name)
        assert served is not None and served == cache.read_bytes(name)     # a cache miss, from the seed
        shutil.copyfile(seed_folder / other, seed_folder / name)            # swapped
        assert seed.seeded(name) is None and cache.read_bytes(name) is None
        (seed_folder / name).write_bytes((seed_folder / other).read_bytes()[:-1])   # truncated
        assert seed.seeded(name) is None
        seed.write_manifest(seed_folder, [name, other])                    # the control: as built
        assert seed.seeded(name) is not None
    finally:
        seed.manifest.cache_clear()


def test_a_seed_folder_others_can_write_is_refused(tmp_path, monkeypatch, capsys):
    data = tmp_path / "data"
    (data / seed.SEED).mkdir(parents=True)
    monkeypatch.delenv("CAIRN_SEED", raising=False)
    monkeypatch.setattr(root, "data_root", lambda: data)
    seed.seed_dir.cache_clear()
    try:
        assert seed.seed_dir() == data / seed.SEED                  # the control: a private one is used
        os.chmod(data / seed.SEED, 0o777)
        seed.seed_dir.cache_clear()
        assert seed.seed_dir() is None
        assert "cairn: not using the seed folder" in capsys.readouterr().err
    finally:
        seed.seed_dir.cache_clear()


def test_the_folder_digest_opens_no_fifo_or_device_and_reads_no_more_than_the_cap(tmp_path, monkeypatch):
    game = tmp_path / "game"
    shutil.copytree(ROOT / "definitions" / "pig", game)
    os.mkfifo(game / "fifo.yaml")                         # opened, it would wait for a writer forever
    (game / "zero.yaml").symlink_to("/dev/zero")          # read, it would never end
    (game / "loop").symlink_to(game)                      # walked, it would never end
    big = game / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(4 * 2**30)                             # 4 GB (sparse): past the cap, never read
    over = game / "over.yaml"
    over.write_bytes(b"x" * (files.MAX_FILE_BYTES + 1))
    tracemalloc.start()
    try:
        first = cache.folder_digest(game)
        peak = tracemalloc.get_traced_memory()[1]
        with open(big, "ab") as f:
            f.write(b"x")                                 # an edit past the cap is still an edit
        assert cache.folder_digest(game) != first
        assert peak < files.MAX_FILE_BYTES // 2, peak
        tracemalloc.reset_peak()
        monkeypatch.setattr(cache, "MAX_FILE_BYTES", 2 * files.MAX_FILE_BYTES)   # the control: now read
        cache.folder_digest(game)
        assert tracemalloc.get_traced_memory()[1] > files.MAX_FILE_BYTES // 2
    finally:
        tracemalloc.stop()
    assert cache.file_digest(Path("/dev/zero")) != cache.file_digest(game / "fifo.yaml")


def test_a_flipped_bit_that_leaves_an_entry_well_formed_is_caught(world, tmp_path, monkeypatch):
    # Most flips break an entry's format; one that does not (a digit of a line number in a
    # verdict) would give a wrong answer without a word, but for the seal.
    folder = _copy_clean(world, tmp_path / "cache")
    name = world["entries"][("broken", "validate")][0]
    data = bytearray((folder / name).read_bytes())
    at = data.index(b'",', cache.HEADER) + 2           # the first problem's line number
    assert chr(data[at]).isdigit()
    data[at] ^= 1
    for check in (True, False):
        (folder / name).write_bytes(bytes(data))
        if not check:                                  # the control: without the seal, a wrong line
            monkeypatch.setattr(cache, "unseal", lambda data, _name, _key: data[cache.HEADER:])
        _use(monkeypatch, folder)
        got = _validate(world["where"] / "broken")
        assert (got == world["outcome"]["validate broken"]) is check
