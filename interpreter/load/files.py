"""Finds games and reads their definition files, checked against the JSON Schemas.

A game is a folder: game.yaml (identity, variables, flow, procedures, scoring),
components.yaml, cards.yaml, board.yaml, and variants/*.yaml overlays. Every problem is
a Diagnostic at the file:line:col where it was written.
"""
from __future__ import annotations

import codecs
from collections import Counter
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..diagnostics import Diagnostic, DefinitionError, excerpt, suggest
from . import formats
from .reader import MAX_FILE_BYTES, FileRefused, read_capped, read_text_capped  # the reader, for all
from .root import data_root, definitions_root
from .yaml_safe import Loaded, load_yaml

if TYPE_CHECKING:   # jsonschema is imported only to explain an invalid file (it is slow to import)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

PART_FILES = {"game.yaml": "game", "components.yaml": "components", "cards.yaml": "cards",
              "board.yaml": "board", "rules.yaml": "rules"}


def game_ids() -> list[str]:
    """Returns the ids of the games shipped with Cairn (folders with a game.yaml)."""
    root = definitions_root()
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file()) if root.is_dir() else []


def resolve_game(spec: str | Path) -> Path | None:
    """Returns a game folder from an id (a folder name under definitions/) or a path, or None."""
    p = Path(spec)
    if (p / "game.yaml").is_file():
        return p
    if p.name == "game.yaml" and p.is_file():
        return p.parent
    q = definitions_root() / str(spec)
    if (q / "game.yaml").is_file():
        return q
    return None


def _schema(kind: str) -> dict:
    return json.loads(read_text_capped(data_root() / "schemas" / f"{kind}.schema.json"))


@lru_cache(maxsize=1)
def _registry() -> Registry:
    """Returns the registry holding the shared definitions every file schema refers to."""
    from referencing import Registry, Resource
    defs = _schema("defs")
    return Registry().with_resource(defs["$id"], Resource.from_contents(defs))


@lru_cache(maxsize=None)
def validator(kind: str) -> Draft202012Validator:
    """Returns the schema validator for one kind of file, built once."""
    from jsonschema import Draft202012Validator
    return Draft202012Validator(_schema(kind), registry=_registry())


def _schema_props(schema: dict) -> list[str]:
    return sorted(schema.get("properties", {}))


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, (int, float)):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ('{excerpt(value, 40)}')"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "null"


def _shown(value: Any) -> str:
    """A value as a message quotes it: text in quotes, anything else as written; cut short."""
    return f"'{excerpt(value)}'" if isinstance(value, str) else excerpt(value)


@lru_cache(maxsize=None)
def fast_check(kind: str) -> Callable[[Any], Any] | None:
    """Returns a compiled check of one kind of file (fastjsonschema: the schema turned into
    Python code, kept in Cairn's cache), or None without that library. It only decides
    whether a file is valid; the diagnostics of an invalid one come from jsonschema. The
    schemas use only keywords that mean the same in draft 7, which it implements; a test
    checks that it accepts nothing jsonschema refuses."""
    try:
        import fastjsonschema
    except ImportError:  # pragma: no cover
        return None
    from . import cache
    text = read_text_capped(data_root() / "schemas" / f"{kind}.schema.json")

    def source() -> str:
        from .schema_share import shared
        schema = shared(json.loads(text))
        schema["$schema"] = "http://json-schema.org/draft-07/schema#"
        schema.pop("$id", None)     # so the check is named `validate`; refs are all local
        return fastjsonschema.compile_to_code(schema)
    code = cache.compiled(f"schema-{kind}-{cache.digest(text, fastjsonschema.VERSION, 'shared')}", source)
    scope: dict[str, Any] = {}
    exec(code, scope)
    return scope["validate"]


def schema_diagnostics(loaded: Loaded, kind: str) -> list[Diagnostic]:
    """Returns one diagnostic per schema violation, each at the offending key or value."""
    fast = fast_check(kind)
    if fast is not None:
        try:
            fast(loaded.data)
            return []
        except Exception:  # invalid (or a value the fast check cannot read): ask jsonschema
            pass
    out: list[Diagnostic] = []
    for err in validator(kind).iter_errors(loaded.data):
        out.extend(_explain(loaded, err))
    return sorted(set(out))


def _explain(loaded: Loaded, err: ValidationError) -> Iterator[Diagnostic]:
    path = tuple(err.absolute_path)
    v = err.validator
    where = "/".join(str(x) for x in path) or "the top level"
    if v == "additionalProperties" and isinstance(err.instance, dict):
        known = _schema_props(err.schema)
        for key in err.instance:
            if key not in err.schema.get("properties", {}):
                yield loaded.diag(path + (key,), f"unknown key '{key}' in {where}" + suggest(key, known)
                                  + (f"; known keys: {', '.join(known)}" if not suggest(key, known) else ""),
                                  at_key=True)
        return
    if v == "required":
        missing = [k for k in err.validator_value if k not in err.instance]
        yield loaded.diag(path, f"{where}: missing required key(s): {', '.join(missing)}")
        return
    if v == "type":
        yield loaded.diag(path, f"{where}: expected {err.validator_value}, got {_describe(err.instance)}")
        return
    if v == "enum":
        opts = ", ".join(repr(x) for x in err.validator_value)
        yield loaded.diag(path, f"{where}: {_shown(err.instance)} is not one of {opts}"
                          + (suggest(str(err.instance), [str(x) for x in err.validator_value])
                             if isinstance(err.instance, (str, int)) else ""))
        return
    if v == "pattern":
        yield loaded.diag(path, f"{where}: {_shown(err.instance)} is not a valid id or name "
                          f"(expected to match {err.validator_value})")
        return
    if v in ("maxLength", "maxItems", "maxProperties") and isinstance(err.instance, (str, list, dict)):
        unit = {"maxLength": "characters", "maxItems": "items", "maxProperties": "keys"}[v]
        shown = f" ('{excerpt(err.instance[:40])}…')" if isinstance(err.instance, str) else ""
        yield loaded.diag(path, f"{where}: {len(err.instance):,} {unit}{shown} is over the limit of "
                          f"{err.validator_value}")
        return
    if v == "propertyNames":
        yield loaded.diag(path, f"{where}: {err.message}")
        return
    if v in ("anyOf", "oneOf") and err.context:
        from jsonschema.exceptions import best_match
        yield from _explain(loaded, best_match(err.context))
        return
    yield loaded.diag(path, f"{where}: {err.message}")


# Sections whose entries stand alone: a schema problem inside one entry drops only that
# entry, so the rest of the file is still checked (and every problem reported in one run).
_SEPARABLE = {("cards",), ("components",), ("zones",), ("dice",), ("procedures",), ("functions",),
              ("clauses",), ("readings",),
              ("triggers",), ("board", "spaces"), ("board", "edges"), ("scenarios",)}


_READ: dict[tuple, tuple[Loaded | None, list[Diagnostic]]] = {}


def read_part(path: Path, display: str, kind: str, *, partial: bool = False
              ) -> tuple[Loaded | None, list[Diagnostic]]:
    """Returns a loaded, schema-checked file and its problems. Without `partial`, a file
    with problems comes back as None; with it, entries with problems are left out and the
    file comes back unless a problem lies outside every separable entry. A file read once
    is not read again while it is unchanged (a game is built once per variant); the
    loader only reads what it gets."""
    try:
        st = Path(path).stat()
        key = (str(Path(path).resolve()), st.st_mtime_ns, st.st_size, display, kind, partial)
    except OSError:
        key = None
    if key is not None and key in _READ:
        return _READ[key]
    out = _read_part(path, display, kind, partial)
    if key is not None:
        if len(_READ) > 500:
            _READ.clear()
        _READ[key] = out
    return out


def cached_yaml(path: Path, display: str) -> tuple[Loaded, str | None]:
    """Returns load_yaml's result for a file, kept in Cairn's cache under a digest of the
    file's bytes and the loader's own source (reading YAML with positions is the costliest
    step of loading a game), and that digest. The entry is the same whatever the file is
    called (the name it is shown by is set on what is read back), so a wheel's seed cache
    (seed.py) serves its games wherever they are installed. A file the loader refuses (not
    UTF-8, too large, not a regular file, unreadable, broken YAML) is read the usual way
    and never kept; its digest is None. Either way the file is read once, through the
    capped reader (reader.py)."""
    from . import cache
    try:
        raw = read_capped(path, MAX_FILE_BYTES)
        if raw.startswith(codecs.BOM_UTF8):
            raise ValueError("read the usual way")
        text = raw.decode("utf-8")
    except ValueError:          # refused, or not UTF-8: load_yaml says why, at its place
        return load_yaml(path, display=display), None
    import yaml
    key = cache.digest(hashlib.sha256(raw).hexdigest(), yaml.__version__,
                       str(getattr(yaml, "__with_libyaml__", "")),
                       cache.source_digest("load.yaml_safe", "lang.runtime", "diagnostics"))
    hit = cache.load(f"yaml-{key}.pkl")
    if isinstance(hit, Loaded):
        hit.file = display
        return hit, key
    loaded = load_yaml(path, display=display, text=text)
    cache.store(f"yaml-{key}.pkl", loaded)
    return loaded, key


def _valid_mark(key: str | None, kind: str) -> str | None:
    """Returns the name of the cache entry that says a file (by its YAML digest) is valid as
    `kind`: a function of its text, the schema and this module (groups are merged here, and
    older formats upgraded)."""
    if key is None:
        return None
    from . import cache
    return "valid-" + cache.digest(key, kind, _schema_digest(kind), cache.source_digest("load.files", "load.formats")) + ".ok"


@lru_cache(maxsize=None)
def _schema_digest(kind: str) -> str:
    """Returns a digest of a schema with the shared definitions it refers to."""
    h = hashlib.sha256()
    for name in (kind, "defs"):
        path = data_root() / "schemas" / f"{name}.schema.json"
        h.update(read_capped(path) if path.is_file() else b"-")
    return h.hexdigest()


def _read_part(path: Path, display: str, kind: str, partial: bool) -> tuple[Loaded | None, list[Diagnostic]]:
    from . import cache
    try:
        loaded, key = cached_yaml(Path(path), display)
    except DefinitionError as err:
        return None, err.diagnostics
    if loaded.data is None:
        loaded.data = {}
    bad = formats.problems(loaded, kind)
    if bad:
        return None, bad
    formats.upgrade(loaded, kind)      # an older format's file, read as the current one
    if kind in ("cards", "components"):
        _merge_groups(loaded.data)
    elif kind == "board" and isinstance(loaded.data, dict):
        _merge_groups(loaded.data.get("board"))
    elif kind == "variant" and isinstance(loaded.data, dict):
        _merge_overlay_groups(loaded.data)
    mark = _valid_mark(key, kind)
    if mark is not None and cache.read_bytes(mark) is not None:
        return loaded, []           # checked valid before: the same text against the same schema
    problems = schema_diagnostics(loaded, kind)
    if not problems:
        if mark is not None:
            cache.write_bytes(mark, b"")
        return loaded, problems
    if not partial:
        return None, problems
    drop: dict[tuple, set] = {}
    for err in validator(kind).iter_errors(loaded.data):
        path_ = tuple(err.absolute_path)
        at = 1 if path_[:1] == ("board",) else 0
        if len(path_) >= at + 4 and path_[at] == "groups" and path_[at + 2] == "entries":
            drop.setdefault(path_[:at + 3], set()).add(path_[at + 3])
            continue
        for section in _SEPARABLE:
            n = len(section)
            if path_[:n] == section and len(path_) > n:
                drop.setdefault(section, set()).add(path_[n])
                break
        else:
            return None, problems
    for section, keys in drop.items():
        holder = loaded.data
        for key in section[:-1]:
            holder = holder[key]
        value = holder[section[-1]]
        if isinstance(value, list):
            # None keeps every other entry at its index, so positions stay right.
            holder[section[-1]] = [None if i in keys else x for i, x in enumerate(value)]
        else:
            holder[section[-1]] = {k: v for k, v in value.items() if k not in keys}
    return loaded, problems


def merge_entry(defaults: dict, entry: dict) -> dict:
    """Returns a group entry on top of its group's defaults: the entry's keys win, props are
    merged, and the entry's own abilities come before the shared ones."""
    out = {**defaults, **entry}
    if isinstance(defaults.get("props"), dict) and isinstance(entry.get("props"), dict):
        out["props"] = {**defaults["props"], **entry["props"]}
    if isinstance(defaults.get("abilities"), list) and isinstance(entry.get("abilities"), list):
        out["abilities"] = entry["abilities"] + defaults["abilities"]
    return out


def _merge_groups(data: Any) -> None:
    """Expands `groups:` in place: each entry becomes a whole entry (checked as such)."""
    if not isinstance(data, dict) or not isinstance(data.get("groups"), list):
        return
    for group in data["groups"]:
        if isinstance(group, dict) and isinstance(group.get("defaults"), dict) and isinstance(group.get("entries"), list):
            group["entries"] = [merge_entry(group["defaults"], e) if isinstance(e, dict) else e
                                for e in group["entries"]]


def _merge_overlay_groups(data: dict) -> None:
    """Expands the groups among an overlay's new cards, components and spaces in place
    (an item with `defaults:` and `entries:`), as `groups:` of a base file are."""
    for part in ("add", "replace"):
        for kind in ("cards", "components", "spaces"):
            items = data.get(part, {}).get(kind) if isinstance(data.get(part), dict) else None
            if isinstance(items, list):
                _merge_groups({"groups": [x for x in items if isinstance(x, dict) and "entries" in x]})


def given_once(variants: list[str], known: dict[str, tuple[Loaded, Path]]) -> tuple[list[str], list[Diagnostic]]:
    """Returns the variants (ids) each kept once, and one diagnostic per variant given more
    than once (by id, by file or both), at its id in its file: one overlay applied twice is
    one mistake, not the dozen clashes of it with itself that applying it again would give."""
    counts = Counter(variants)
    problems = [known[v][0].diag(("variant", "id"), f"variant '{v}' is given {n} times; give it once")
                for v, n in counts.items() if n > 1 and v in known]
    return list(counts), problems


def display_path(path: Path) -> str:
    """Returns a path as the user would type it: relative to the working folder if possible;
    a built-in game's files as definitions/<game>/..., never the installed package's path."""
    resolved = path.resolve()
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:
        pass
    try:
        return str(Path("definitions") / resolved.relative_to(definitions_root().resolve()))
    except ValueError:
        return str(path)
