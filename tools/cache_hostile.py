"""Tries Cairn's cache as an attacker and a careless user would, each case a fresh process,
and prints the table the security review asks for: cases tried, cases whose result differed
from a clean cache's (or that ran planted code), tracebacks, the slowest case's CPU and the
largest peak memory of any case.

    python3 tools/cache_hostile.py            # about 70 s CPU on a shared 2-core machine
    python3 tools/cache_hostile.py --control  # the same with the checks turned off: the probes bite
    python3 tools/cache_hostile.py --rows     # every case's row, not only the failures

Cases: a cache folder others can write (0777, 1777, 0775, 0770, 0757, another user's, a
link to a 0777 one, below a 0777 or another user's parent), each filled with a planted
pickle sealed with the attacker's own secret; every kind of entry (YAML, parse trees,
compiled rules, board, validate verdict, schema check, schema mark, parser tables)
replaced, sealed with another secret, swapped with another of its kind, bit-flipped,
truncated, emptied, cut to its header, grown past the entry cap (sparse), a link, a FIFO,
a folder, 0666, another user's; a schema mark planted for a file that fails its schema;
the secret missing, 0644, short, long, a link, a folder, a FIFO, another user's; and a
game folder holding a FIFO, a link to /dev/zero, a 4 GB sparse file and a link to itself
(validate's digest of the folder).
"""
from __future__ import annotations

import json
import marshal
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import CodeType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.load import cache, cache_trust, files, seed  # noqa: E402

OTHER_UID = 54321
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
UNPRIVATE = ("link", "fifo", "folder", "0666", "other user")


def unprivate(path: Path, how: str, elsewhere: Path) -> None:
    """Makes a cache entry something the cache must not read (one of UNPRIVATE): a link to
    the entry moved `elsewhere`, a FIFO, a folder, a file others can write, another user's."""
    if how == "link":
        path.rename(elsewhere)
        path.symlink_to(elsewhere)
    elif how == "fifo":
        path.unlink()
        os.mkfifo(path)
    elif how == "folder":
        path.unlink()
        path.mkdir()
    elif how == "0666":
        os.chmod(path, 0o666)
    elif how == "other user":
        os.chown(path, OTHER_UID, OTHER_UID)
    else:
        raise ValueError(f"expected one of {', '.join(UNPRIVATE)}, got {how!r}")


class Planted:
    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('ran')",))


def run(cmd: list[str], env: dict, cwd: Path) -> tuple[int, str, str, float, int]:
    """Returns (exit code, stdout, stderr, CPU seconds, peak RSS in KB) of one process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (proc.returncode, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


def bumped(code: CodeType) -> CodeType:
    consts = tuple(c + 1 if type(c) is int else bumped(c) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_consts=consts)


def planted(kind: str, payload: bytes, marker: str) -> bytes:
    """Returns a payload that does harm if used, for an entry of that kind."""
    if kind in ("yaml", "trees"):
        return pickle.dumps(Planted(marker))
    if kind == "effect":                       # the parser tables: their key line, then a pickle
        return payload.split(b"\n", 1)[0] + b"\n" + pickle.dumps(Planted(marker))
    if kind == "code":
        return marshal.dumps({k: bumped(c) for k, c in marshal.loads(payload).items()})
    if kind == "schema":
        return marshal.dumps(compile(f"open({marker!r}, 'w').write('ran')", "planted", "exec"))
    if kind == "board":
        kept = json.loads(payload)
        return json.dumps({"next": kept["next"], "apart": [2, [next(iter(kept["next"]))]]}).encode()
    if kind == "validate":
        return json.dumps({"problems": [], "checked": json.loads(payload)["checked"]}).encode()
    return b"planted"                           # a schema mark


# --control: each process runs Cairn with the folder check and the seal check turned off
# (what Cairn did before them), so the corpus shows that its probes can fail.
UNGUARDED = ("import runpy, sys; from interpreter.load import cache, seed; "
             "cache.folder_problem = lambda *a: None; "
             "cache.unseal = lambda data, name, key: data[cache.HEADER:] if data.startswith(cache.MARK) else data; "
             "sys.argv = ['cairn'] + sys.argv[1:]; runpy.run_module('interpreter', run_name='__main__')")
CONTROL = "--control" in sys.argv


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="cairn-hostile-"))
    try:
        table = corpus(work)
    finally:
        subprocess.run(["chmod", "-R", "u+rwX", str(work)], check=False)
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(table, indent=2))


def corpus(work: Path) -> dict:
    for game in ("tic-tac-toe", "connect-four"):
        shutil.copytree(ROOT / "definitions" / game, work / game)
    shutil.copytree(ROOT / "definitions" / "tic-tac-toe", work / "broken")
    text = (work / "broken" / "game.yaml").read_text("utf-8")
    (work / "broken" / "game.yaml").write_text(text.replace("\n  name: ", "\n  nmae: ", 1), "utf-8")
    base_env = {k: v for k, v in os.environ.items() if k not in ("CAIRN_CACHE", "CAIRN_SEED")}
    base_env.update(PYTHONPATH=str(ROOT), CAIRN_SEED="off")
    play = [sys.executable, "-m", "interpreter", "play", "tic-tac-toe", "--seats", "random,random", "--seed", "3"]
    play4 = [sys.executable, "-m", "interpreter", "play", "connect-four", "--seats", "random,random", "--seed", "3"]
    validate = [sys.executable, "-m", "interpreter", "validate", "broken"]
    clean = work / "clean"
    env = dict(base_env, CAIRN_CACHE=str(clean))
    names: dict[str, set[str]] = {}
    expected = {}
    for label, cmd in (("play", play), ("play4", play4), ("validate", validate)):
        before = {p.name for p in clean.iterdir()} if clean.exists() else set()
        rc, out, err, _cpu, _rss = run(cmd, env, work)
        expected[label] = (rc, out)
        names[label] = {p.name for p in clean.iterdir()} - before
    run(validate, env, work)                     # the kept verdict too
    rows: list[dict] = []

    def case(label: str, prepare, cmd_label: str = "play", folder_env: str | None = None) -> None:
        cache_copy = work / f"case-{len(rows)}"
        shutil.copytree(clean, cache_copy)
        marker = work / f"marker-{len(rows)}"
        extra = prepare(cache_copy, str(marker)) or {}
        env = dict(base_env, CAIRN_CACHE=folder_env or str(extra.pop("cache", cache_copy)), **extra)
        cmd = {"play": play, "validate": validate, "digest": extra_cmd(work)}[cmd_label]
        if CONTROL:
            cmd = [sys.executable, "-c", UNGUARDED] + cmd[3:]
        rc, out, err, cpu, rss = run(cmd, env, work)
        want = expected.setdefault(cmd_label, (rc, out))      # the first digest case sets its own
        same = (rc, out) == want
        rows.append({"case": label, "same result": same, "planted code ran": marker.exists(),
                     "traceback": "Traceback" in err, "refusals told": err.count("cairn: not using"),
                     "cpu s": round(cpu, 3), "peak rss MB": round(rss / 1024, 1),
                     "exit": rc})

    entry_cases(case, names, work)
    folder_cases(case, clean)
    secret_cases(case)
    digest_cases(case, work)
    bad = [r for r in rows if not r["same result"] or r["planted code ran"] or r["traceback"]]
    return {"cases": len(rows), "wrong results or planted code run": len(bad),
            "tracebacks": sum(r["traceback"] for r in rows),
            "slowest case": max(rows, key=lambda r: r["cpu s"]),
            "largest peak memory": max(rows, key=lambda r: r["peak rss MB"]),
            "refused with a message": sum(1 for r in rows if r["refusals told"] == 1),
            "failures": bad, **({"rows": rows} if "--rows" in sys.argv else {})}


def extra_cmd(work: Path) -> list[str]:
    return [sys.executable, "-m", "interpreter", "validate", "hostile-game"]


def entry_cases(case, names: dict[str, set[str]], work: Path) -> None:
    def of(kind: str, label: str = "play") -> list[str]:
        return sorted(n for n in names[label] if n.split("-")[0] == kind)
    targets = {"yaml": ("play", of("yaml")[0], of("yaml")[1]), "trees": ("play", of("trees")[0], of("trees", "play4")[0]),
               "code": ("play", of("code")[0], of("code", "play4")[0]),
               "board": ("play", of("board")[0], of("board", "play4")[0]),
               "validate": ("validate", of("validate", "validate")[0], of("validate", "validate")[0]),
               "schema": ("play", of("schema")[0], of("schema")[1]),
               "valid": ("play", of("valid")[0], of("valid")[1]),
               "effect": ("play", seed.GRAMMAR, of("yaml")[0])}
    for kind, (label, name, other) in targets.items():
        def tamper(how: str, kind=kind, name=name, other=other):
            def prepare(folder: Path, marker: str) -> None:
                if kind in ("effect", "schema"):         # read only when no trees (marks) are kept
                    for p in [*folder.glob("trees-*"), *(folder.glob("valid-*") if kind == "schema" else ())]:
                        p.unlink()
                path = folder / name
                good = path.read_bytes()
                payload = cache.read_bytes(name, folder) or b""
                if how == "replaced":
                    path.write_bytes(good[:cache.HEADER] + planted(kind, payload, marker))
                elif how == "foreign":
                    bad = planted(kind, payload, marker)
                    path.write_bytes(cache.MARK + cache.seal(os.urandom(32), name, bad) + bad)
                elif how == "swapped":
                    path.write_bytes((folder / other).read_bytes())
                elif how == "bitflip":
                    data = bytearray(good)
                    for i in range(16):
                        data[(i * 7919) % len(data)] ^= 1 << (i % 8)
                    path.write_bytes(bytes(data))
                elif how == "truncated":
                    path.write_bytes(good[:len(good) // 2])
                elif how == "empty":
                    path.write_bytes(b"")
                elif how == "header only":
                    path.write_bytes(good[:cache.HEADER])
                elif how == "past the cap":
                    with open(path, "ab") as f:
                        f.truncate(cache.MAX_ENTRY + 1)
                elif how in UNPRIVATE:
                    unprivate(path, how, folder / "elsewhere")
            return prepare
        for how in ("replaced", "foreign", "swapped", "bitflip", "truncated", "empty", "header only",
                    "past the cap", "link", "fifo", "folder", "0666", "other user"):
            if how == "other user" and not AS_ROOT:
                continue
            if how == "swapped" and kind == "validate":
                continue                          # below: the good game's verdict on the broken one's name
            case(f"{kind} entry {how}", tamper(how), label)

    def good_verdict(folder: Path, marker: str) -> None:
        other = work / "other-verdict"
        env = dict(os.environ, CAIRN_CACHE=str(other), CAIRN_SEED="off", PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, "-m", "interpreter", "validate", "tic-tac-toe"], env=env, cwd=work,
                       capture_output=True)
        good = next(other.glob("validate-*")).read_bytes()
        (folder / of("validate", "validate")[0]).write_bytes(good)
    case("validate entry of a good game copied onto a broken game's name", good_verdict, "validate")
    mark_cases(case, of("valid"), work)


def mark_cases(case, marks: list[str], work: Path) -> None:
    """A schema mark (this file passed its schema) planted for the broken game's game.yaml,
    which fails its schema: sealed with another secret, with no seal, another mark's bytes, a
    link to another mark. If used, the schema check would be skipped."""
    os.environ["CAIRN_CACHE"] = "off"              # the mark's name only: nothing is kept here
    _loaded, key = files.cached_yaml(work / "broken" / "game.yaml", "broken/game.yaml")
    name = files._valid_mark(key, "game")

    def plant(how: str):
        def prepare(folder: Path, marker: str) -> None:
            for kept in folder.glob("validate-*"):     # no kept verdict: the files are read
                kept.unlink()
            path = folder / name
            if how == "foreign":
                path.write_bytes(cache.MARK + cache.seal(os.urandom(32), name, b""))
            elif how == "unsealed":
                path.write_bytes(b"")
            elif how == "swapped":
                path.write_bytes((folder / marks[0]).read_bytes())
            else:
                path.symlink_to(folder / marks[0])
        return prepare
    for how in ("foreign", "unsealed", "swapped", "link"):
        case(f"schema mark {how}, for a file that fails its schema", plant(how), "validate")


def folder_cases(case, clean: Path) -> None:
    def hostile(mode: int | None = None, owner: bool = False, link: bool = False, parent: str = ""):
        def prepare(folder: Path, marker: str) -> dict:
            key = os.urandom(32)
            (folder / cache_trust.SECRET).write_bytes(key)
            payload = pickle.dumps(Planted(marker))
            for p in folder.iterdir():
                if p.name != cache_trust.SECRET:
                    p.write_bytes(cache.MARK + cache.seal(key, p.name, payload) + payload)
            where = folder
            if parent:
                outer = folder.parent / (folder.name + "-parent")
                outer.mkdir()
                where = outer / "cache"
                folder.rename(where)
                if parent == "0777":
                    os.chmod(outer, 0o777)
                else:
                    os.chown(outer, OTHER_UID, OTHER_UID)
            if mode is not None:
                os.chmod(where, mode)
            if owner:
                os.chown(where, OTHER_UID, OTHER_UID)
            if link:
                target = where
                where = folder.parent / (folder.name + "-link")
                where.symlink_to(target)
            return {"cache": where}
        return prepare
    for label, prep in (("0777", hostile(0o777)), ("1777", hostile(0o1777)), ("0775", hostile(0o775)),
                        ("0770", hostile(0o770)), ("0757", hostile(0o757)),
                        ("a link to a 0777 folder", hostile(0o777, link=True)),
                        ("a 0700 folder in a 0777 parent", hostile(parent="0777"))):
        case(f"cache folder {label}, planted pickles", prep)
    if AS_ROOT:
        case("cache folder of another user, planted pickles", hostile(owner=True))
        case("cache folder in another user's parent, planted pickles", hostile(parent="other"))


def secret_cases(case) -> None:
    def broken(how: str):
        def prepare(folder: Path, marker: str) -> None:
            path = folder / cache_trust.SECRET
            if how == "missing":
                path.unlink()
            elif how == "0644":
                os.chmod(path, 0o644)
            elif how == "short":
                path.write_bytes(b"x" * 8)
            elif how == "long":
                path.write_bytes(b"x" * 4096)
            elif how == "link":
                path.unlink()
                path.symlink_to("/dev/zero")
            elif how == "folder":
                path.unlink()
                path.mkdir()
            elif how == "fifo":
                path.unlink()
                os.mkfifo(path)
            elif how == "other user":
                os.chown(path, OTHER_UID, OTHER_UID)
        return prepare
    for how in ("missing", "0644", "short", "long", "link", "folder", "fifo", "other user"):
        if how == "other user" and not AS_ROOT:
            continue
        case(f"secret {how}", broken(how))


def digest_cases(case, work: Path) -> None:
    game = work / "hostile-game"
    shutil.copytree(ROOT / "definitions" / "tic-tac-toe", game)
    os.mkfifo(game / "waiting.fifo")
    (game / "zero").symlink_to("/dev/zero")
    with open(game / "huge.bin", "wb") as f:
        f.truncate(4 * 2**30)
    (game / "loop").symlink_to(game)
    case("validate a game folder with a FIFO, /dev/zero, a 4 GB file and a loop", lambda f, m: None, "digest")
    case("the same again", lambda f, m: None, "digest")


if __name__ == "__main__":
    main()
