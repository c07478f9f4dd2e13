"""docs/MODDING.md's "Overlay reference" shows every overlay key with an example, and every
example is an overlay the variant schema accepts (groups merged first, as the loader does):
a key added to the schema without an example, or an example the schema refuses, fails here."""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path

from interpreter.load.files import _merge_overlay_groups, validator
from interpreter.load.yaml_safe import load_yaml

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "MODDING.md").read_text("utf-8")
SCHEMA = json.loads((ROOT / "schemas" / "variant.schema.json").read_text("utf-8"))
REFUSED_IN_ADD = {"structure", "scoring", "steps"}     # the base has them: insert or replace instead
HEADER = {"id": "example", "name": "Example", "description": "an example of the reference"}


def _section() -> str:
    start = DOC.index("## Overlay reference")
    return DOC[start:DOC.index("\n## ", start + 1)]


def _examples() -> list[dict]:
    out = []
    for block in re.findall(r"```yaml\n(.*?)```", _section(), re.S):
        data = load_yaml(ROOT / "docs" / "MODDING.md", display="MODDING.md", text=block).data   # as Cairn reads YAML
        assert isinstance(data, dict) and set(data) <= set(SCHEMA["properties"]), block
        out.append(data)
    return out


def test_every_example_is_an_overlay_the_schema_accepts():
    examples = _examples()
    assert len(examples) >= 10
    for data in examples:
        full = copy.deepcopy(data)
        full.setdefault("variant", HEADER)
        _merge_overlay_groups(full)
        problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator("variant").iter_errors(full)]
        assert not problems, (problems, data)


def test_every_key_of_every_part_has_an_example():
    examples = _examples()
    missing = []
    for part, shape in SCHEMA["properties"].items():
        if part == "insert":
            keys = set(shape["items"]["properties"])
            shown = {k for d in examples for item in d.get("insert", []) for k in item}
        else:
            keys = set(shape["properties"]) - (REFUSED_IN_ADD if part == "add" else set())
            shown = {k for d in examples for k in (d.get(part) or {})}
        missing += [f"{part}: {k}" for k in sorted(keys - shown)]
    assert not missing, f"keys of the overlay schema with no example in the Overlay reference: {missing}"
    assert all(f"`{k}`" in _section() for k in REFUSED_IN_ADD)


def test_the_reference_says_what_replace_takes():
    text = _section()
    assert "**lists** of whole entries" in text and "components: {score-card: ...}" in text
    replaced = next(d["replace"] for d in _examples() if "replace" in d and "components" in d["replace"])
    assert isinstance(replaced["components"], list)
