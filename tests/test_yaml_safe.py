"""Tests for the strict YAML loader: positions, locate(), and every rejection rule."""
from __future__ import annotations

import time

import pytest

from interpreter.diagnostics import DefinitionError
from interpreter.load.yaml_safe import Pos, load_yaml


def load(tmp_path, text: str, **kw):
    f = tmp_path / "def.yaml"
    f.write_text(text, encoding="utf-8")
    return load_yaml(f, display="def.yaml", **kw)


def errors(tmp_path, text: str, **kw) -> list[str]:
    with pytest.raises(DefinitionError) as info:
        load(tmp_path, text, **kw)
    return [str(d) for d in info.value.diagnostics]


DOC = """\
name: Cairn
rules:
  - id: move
    cost: 3
    when: "a\\tb c"
    note: 'it''s here'
    script: |
      first line
        second = 1
    fold: >
      folded
      text
    tags: [x, z]
"""


def test_nested_data_and_value_positions(tmp_path):
    doc = load(tmp_path, DOC)
    assert doc.file == "def.yaml"
    assert doc.data["rules"][0]["cost"] == 3
    assert doc.data["rules"][0]["tags"] == ["x", "z"]
    assert doc.value_pos[()] == Pos(1, 1)
    assert doc.value_pos[("name",)] == Pos(1, 7)
    assert doc.value_pos[("rules",)] == Pos(3, 3)
    assert doc.value_pos[("rules", 0)] == Pos(3, 5)
    assert doc.value_pos[("rules", 0, "cost")] == Pos(4, 11)
    assert doc.value_pos[("rules", 0, "tags", 1)] == Pos(13, 15)


def test_key_positions(tmp_path):
    doc = load(tmp_path, DOC)
    assert doc.key_pos[("name",)] == Pos(1, 1)
    assert doc.key_pos[("rules",)] == Pos(2, 1)
    assert doc.key_pos[("rules", 0, "id")] == Pos(3, 5)
    assert doc.key_pos[("rules", 0, "cost")] == Pos(4, 5)


def test_pos_and_diag_fall_back_to_deepest_prefix(tmp_path):
    doc = load(tmp_path, DOC)
    assert doc.pos(("rules", 0, "missing", 4)) == Pos(3, 5)
    assert doc.pos(("nope",)) == Pos(1, 1)
    assert str(doc.diag(("rules", 0, "cost"), "bad cost")) == "def.yaml:4:11: bad cost"
    assert str(doc.diag(("rules", 0, "cost"), "bad key", at_key=True)) == "def.yaml:4:5: bad key"


def test_locate_literal_block(tmp_path):
    doc = load(tmp_path, DOC)
    path = ("rules", 0, "script")
    assert doc.data["rules"][0]["script"] == "first line\n  second = 1\n"
    style, start, indent = doc.scalar_info[path]
    assert (style, start, indent) == ("literal", Pos(7, 13), 6)
    assert doc.locate(path, 1, 1) == Pos(8, 7)    # 'f' of first
    assert doc.locate(path, 2, 3) == Pos(9, 9)    # 's' of second
    assert doc.locate(path, 2, 10) == Pos(9, 16)  # '='


def test_locate_literal_block_with_indent_indicator_and_keep(tmp_path):
    doc = load(tmp_path, "code: |2+\n    indented\n  x\n\n")
    assert doc.data["code"] == "  indented\nx\n\n"
    assert doc.locate(("code",), 1, 3) == Pos(2, 5)
    assert doc.locate(("code",), 2, 1) == Pos(3, 3)


def test_locate_quoted_scalars(tmp_path):
    doc = load(tmp_path, DOC)
    when = ("rules", 0, "when")
    assert doc.scalar_info[when][:2] == ("double", Pos(5, 11))
    assert doc.locate(when, 1, 1) == Pos(5, 12)  # 'a'
    assert doc.locate(when, 1, 3) == Pos(5, 15)  # 'b', after the two-char escape \t
    note = ("rules", 0, "note")
    assert doc.data["rules"][0]["note"] == "it's here"
    assert doc.locate(note, 1, 4) == Pos(6, 16)  # 's', after the doubled ''


def test_locate_plain_folded_and_multiline(tmp_path):
    doc = load(tmp_path, DOC + "long: one\n  two\n")
    assert doc.locate(("rules", 0, "id"), 1, 3) == Pos(3, 11)
    assert doc.locate(("rules", 0, "fold"), 1, 8) == Pos(11, 7)  # approximate: first content line
    assert doc.locate(("long",), 1, 2) == Pos(14, 8)
    assert doc.locate(("long",), 1, 6) == Pos(14, 7)  # on the folded-in part: scalar start
    assert doc.locate(("rules", 0, "cost"), 1, 1) == Pos(4, 11)  # not a string: value pos


def test_empty_file_is_none(tmp_path):
    assert load(tmp_path, "").data is None
    assert load(tmp_path, "# only a comment\n").data is None


def test_syntax_error_has_problem_mark_and_context(tmp_path):
    [msg] = errors(tmp_path, "a: [1, 2\nb: 3\n")
    assert msg.startswith("def.yaml:2:2: YAML syntax error: ")
    assert "while parsing a flow sequence started at line 1, column 4" in msg
    [msg] = errors(tmp_path, "a: b: c\n")
    assert msg.startswith("def.yaml:1:5: YAML syntax error: mapping values are not allowed")


def test_alias_and_anchor_rejected(tmp_path):
    msgs = errors(tmp_path, "base: &b {x: 1}\nother: *b\n")
    assert msgs == ["def.yaml:1:7: anchors (&b) are not allowed; write the value out"
                    " (1 more anchors or aliases follow)"]
    assert errors(tmp_path, "other: *b\n") == ["def.yaml:1:8: aliases (*b) are not allowed; write the value out"]


def test_billion_laughs_rejected_quickly(tmp_path):
    lines = ['a0: &a0 "lol"']
    for i in range(1, 10):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    start = time.perf_counter()
    msgs = errors(tmp_path, "\n".join(lines) + "\n")
    assert time.perf_counter() - start < 1.0
    # one mistake, one error (not one per alias), at the first anchor
    assert msgs == ["def.yaml:1:5: anchors (&a0) are not allowed; write the value out"
                    " (99 more anchors or aliases follow)"]


@pytest.mark.parametrize("text, where, tag", [
    ("a: !!python/object:os.system x\n", "1:4", "!!python/object:os.system"),
    ("a: !foo x\n", "1:4", "!foo"),
    ("a:\n  - !!str 5\n", "2:5", "!!str"),
    ("a: !!map {b: 1}\n", "1:4", "!!map"),
])
def test_explicit_tags_rejected(tmp_path, text, where, tag):
    assert errors(tmp_path, text) == [f"def.yaml:{where}: tags ({tag}) are not allowed; use plain YAML values"]


def test_duplicate_key(tmp_path):
    assert errors(tmp_path, "a: 1\nb:\n  c: 1\n  c: 2\n") == [
        "def.yaml:4:3: duplicate key 'c' (first defined at line 3)"]


@pytest.mark.parametrize("text, where, shown", [
    ("1: x\n", "1:1", "1 is a number"),
    ("ok: 1\nnull: x\n", "2:1", "null is null"),
    ("true: x\n", "1:1", "true is a boolean"),
    ("?\n: x\n", "1:2", "(empty) is null"),
])
def test_non_string_keys_rejected(tmp_path, text, where, shown):
    [msg] = errors(tmp_path, text)
    assert msg.startswith(f"def.yaml:{where}: mapping key {shown}, but keys must be strings")


def test_collection_key_rejected(tmp_path):
    assert errors(tmp_path, "? [a]\n: 1\n") == ["def.yaml:1:3: mapping keys must be strings, not a list"]


def test_yaml11_boolean_words_as_keys_are_literal(tmp_path):
    doc = load(tmp_path, "on: 1\nno: 2\nyes: 3\noff: 4\ny: 5\nn: 6\nYes: 7\n'1': 8\n")
    assert doc.data == {"on": 1, "no": 2, "yes": 3, "off": 4, "y": 5, "n": 6, "Yes": 7, "1": 8}


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "Yes", "NO", "On", "oFF"])
def test_yes_no_values_rejected(tmp_path, word):
    [msg] = errors(tmp_path, f"a: 1\nflag: {word}\n")
    assert msg.startswith(f"def.yaml:2:7: '{word}' is ambiguous")
    assert "true/false" in msg and "quote it" in msg


def test_quoted_yes_and_real_booleans(tmp_path):
    doc = load(tmp_path, "a: 'yes'\nb: \"no\"\nc: true\nd: False\ne: ~\nf: null\ng:\n")
    assert doc.data == {"a": "yes", "b": "no", "c": True, "d": False, "e": None, "f": None, "g": None}


@pytest.mark.parametrize("value", [".nan", ".NaN", ".inf", "-.inf", "+.INF", "1e999"])
def test_non_finite_numbers_rejected(tmp_path, value):
    [msg] = errors(tmp_path, f"x: {value}\n")
    assert msg == f"def.yaml:1:4: '{value}' is not a finite number; quote it ('{value}') if you mean the text"


def test_yaml11_surprises_stay_strings(tmp_path):
    doc = load(tmp_path, "a: 012\nb: 12:30\nc: 2024-01-31\nd: 2001-12-14t21:59:43.10-05:00\n"
                         "e: 0\nf: -7\ng: 1.5\nh: 1e3\ni: 0x1F\nj: '.nan'\nk: -012\n")
    assert doc.data == {"a": "012", "b": "12:30", "c": "2024-01-31", "d": "2001-12-14t21:59:43.10-05:00",
                        "e": 0, "f": -7, "g": 1.5, "h": 1000.0, "i": 31, "j": ".nan", "k": "-012"}
    assert doc.scalar_info[("a",)][0] == "plain"


def test_deep_nesting_rejected(tmp_path):
    [msg] = errors(tmp_path, "[" * 1000 + "]" * 1000 + "\n")
    assert msg == "def.yaml:1:51: nesting is deeper than the limit of 50 levels"
    block = "".join("  " * i + f"k{i}:\n" for i in range(100))
    [msg] = errors(tmp_path, block)
    assert msg == "def.yaml:51:101: nesting is deeper than the limit of 50 levels"
    load(tmp_path, "[" * 50 + "]" * 50)  # exactly at the limit is fine


def test_node_limit(tmp_path):
    assert errors(tmp_path, "[1, 2, 3, 4]\n", max_nodes=4) == [
        "def.yaml:1:11: too many values (more than 4)"]


def test_size_cap(tmp_path):
    assert errors(tmp_path, "a: " + "x" * 100 + "\n", max_bytes=50) == [
        "def.yaml:1:1: 104 bytes is over the 50 bytes limit"]
    with pytest.raises(DefinitionError) as info:
        load_yaml("t.yaml", text="a: " + "\u00e9" * 30, max_bytes=50)  # 63 bytes, 33 characters
    assert [str(d) for d in info.value.diagnostics] == ["t.yaml:1:1: 63 bytes is over the 50 bytes limit"]


def test_undecodable_utf8(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(DefinitionError) as info:
        load_yaml(f)
    assert [str(d) for d in info.value.diagnostics] == [f"{f}:2:7: file is not valid UTF-8 (byte 0xe9)"]


def test_other_bad_input_is_a_diagnostic(tmp_path):
    assert errors(tmp_path, "a: 1\n---\nb: 2\n") == ["def.yaml:2:1: only one YAML document per file is allowed"]
    [msg] = errors(tmp_path, "a: x\x01y\n")
    assert msg.startswith("def.yaml:1:5: YAML error: ")
    with pytest.raises(DefinitionError) as info:
        load_yaml(tmp_path / "missing.yaml", display="missing.yaml")
    assert str(info.value.diagnostics[0]).startswith("missing.yaml:1:1: cannot read file")


def test_text_argument_and_several_errors_reported_together(tmp_path):
    with pytest.raises(DefinitionError) as info:
        load_yaml("virtual.yaml", text="a: yes\nb: !x 1\na: 2\n")
    assert [str(d) for d in info.value.diagnostics] == [
        "virtual.yaml:1:4: 'yes' is ambiguous (YAML 1.1 reads it as a boolean); write true/false, "
        "or quote it ('yes') if you mean the text",
        "virtual.yaml:2:4: tags (!x) are not allowed; use plain YAML values",
        "virtual.yaml:3:1: duplicate key 'a' (first defined at line 1)",
    ]
    assert load_yaml("v.yaml", text="\ufeffa: 1\n").data == {"a": 1}
