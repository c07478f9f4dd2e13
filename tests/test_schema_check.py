"""The fast schema check (fastjsonschema, files.fast_check) decides alone that a file is
valid, so it must never accept what jsonschema, which gives the diagnostics, refuses:
checked on every shipped definition file and on random damage to their data."""
from __future__ import annotations

import copy
import random
import time
from pathlib import Path

import pytest

from interpreter.load.files import _merge_groups, _merge_overlay_groups, fast_check, validator
from interpreter.load.yaml_safe import load_yaml

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"game.yaml": "game", "cards.yaml": "cards", "components.yaml": "components",
         "board.yaml": "board", "rules.yaml": "rules"}
ODD = [True, False, None, 0, 1.0, 1.5, -1, 10**19, "", "x" * 300, "bad id!", "a", [], [1, "a"], {},
       {"unknown_key": 1}, {"id": "x"}, [[0, 0]], "{", 2**63]


def _files() -> list[tuple[Path, str]]:
    out = []
    for game in sorted((ROOT / "definitions").iterdir()):
        for name, kind in KINDS.items():
            if (game / name).is_file():
                out.append((game / name, kind))
        out.extend((v, "variant") for v in sorted((game / "variants").glob("*.yaml")))
    # overlays kept outside a game (the tutorial's, the fixtures'), groups among them
    for folder in (ROOT / "docs" / "modding", ROOT / "tests" / "fixtures" / "overlays"):
        out.extend((v, "variant") for v in sorted(folder.glob("*.yaml")) if _is_overlay(v))
    return out


def _is_overlay(path: Path) -> bool:
    data = load_yaml(path).data
    return isinstance(data, dict) and "variant" in data


def _data(path: Path, kind: str):
    data = load_yaml(path).data or {}
    if kind in ("cards", "components"):
        _merge_groups(data)
    elif kind == "board":
        _merge_groups(data.get("board"))
    elif kind == "variant":
        _merge_overlay_groups(data)     # as the loader does (files._read_part): groups merge first
    return data


def _fast_ok(kind: str, data) -> bool:
    try:
        fast_check(kind)(data)
        return True
    except Exception:
        return False


def _nodes(x, path=()):
    yield path, x
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _nodes(v, path + (i,))


def _damaged(data, rnd: random.Random):
    d = copy.deepcopy(data)
    for _ in range(rnd.randint(1, 2)):
        nodes = list(_nodes(d))
        path, node = rnd.choice(nodes)
        if not path:
            continue
        parent = d
        for k in path[:-1]:
            parent = parent[k]
        how = rnd.randrange(4)
        if how == 0:
            parent[path[-1]] = copy.deepcopy(rnd.choice(ODD))
        elif how == 1 and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == 2 and isinstance(node, dict):
            node[rnd.choice(["unknown_key", "id", "rule", "kind", "x y"])] = copy.deepcopy(rnd.choice(ODD))
        elif isinstance(node, list):
            node.append(copy.deepcopy(rnd.choice(ODD)))
    return d


def _shown(x) -> str:
    return str(x).split("definitions/")[-1].split("tests/fixtures/")[-1].split("docs/")[-1]


@pytest.mark.parametrize("path,kind", _files(), ids=_shown)
def test_fast_check_agrees_on_shipped_files(path, kind):
    data = _data(path, kind)
    assert _fast_ok(kind, data), "a shipped file fails the fast check"
    assert not list(validator(kind).iter_errors(data))


def test_fast_check_never_accepts_what_jsonschema_refuses():
    rnd = random.Random(7)
    files = [(p, k, _data(p, k)) for p, k in _files()]
    checked = refused = 0
    deadline = time.monotonic() + 8
    while checked < 1500 and time.monotonic() < deadline:
        path, kind, data = rnd.choice(files)
        bad = _damaged(data, rnd)
        js_ok = next(iter(validator(kind).iter_errors(bad)), None) is None
        if _fast_ok(kind, bad):
            assert js_ok, f"{path}: the fast check accepts a file jsonschema refuses"
        refused += not js_ok
        checked += 1
    print(f"\nschema check: {checked} damaged files, {refused} refused by jsonschema, none accepted by the fast check")
    assert checked >= 100 and refused >= checked // 4


def test_shared_parts_are_written_once_and_accept_the_same():
    # The fast check is generated from the schema with its repeated parts written once
    # (schema_share.py): the variant schema shrinks by more than half, and jsonschema run
    # on the shared form agrees with the written-out form on every shipped and damaged file.
    import json
    import re

    from jsonschema import Draft202012Validator

    from interpreter.load.files import _registry, _schema
    from interpreter.load.schema_share import shared
    variant = json.loads((ROOT / "schemas" / "variant.schema.json").read_text("utf-8"))
    small = shared(variant)
    refs = set(re.findall(r'"#/\$defs/(_shared\d+)"', json.dumps(small)))
    assert refs and refs == {k for k in small["$defs"] if k.startswith("_shared")}
    assert len(json.dumps(small)) * 2 < len(json.dumps(variant))
    rnd = random.Random(11)
    forms = {}
    for path, kind in _files():
        if kind not in forms:
            full = _schema(kind)
            forms[kind] = (validator(kind), Draft202012Validator(shared(full), registry=_registry()))
        data = _data(path, kind)
        for sample in (data, _damaged(data, rnd)):
            written, once = forms[kind]
            assert written.is_valid(sample) == once.is_valid(sample), path


def test_an_overlay_whose_new_cards_are_a_group_passes_both_checks():
    # the entries of tests/fixtures/overlays/grouped-cards.yaml lack start and provenance,
    # which their group's defaults give: checked as written, they would be refused
    path = ROOT / "tests" / "fixtures" / "overlays" / "grouped-cards.yaml"
    raw = load_yaml(path).data
    assert not _fast_ok("variant", raw) and list(validator("variant").iter_errors(raw))
    data = _data(path, "variant")
    assert _fast_ok("variant", data)
    assert not list(validator("variant").iter_errors(data))
