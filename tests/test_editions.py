"""Edition comparisons (`*-differences.yaml`): each entry points at the lines of the two
rulebook files it compares, never copies them; `cairn diff --variant` shows the lines only
when the user's rulebook files are found in $CAIRN_RULEBOOKS and are the text they were
taken from."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from interpreter.cli.main import main
from interpreter.anchors_text import digest as span_digest
from interpreter.editions import parse_spans, problems

ROOT = Path(__file__).resolve().parents[1]
FOOTPRINTS = ROOT / "definitions" / "footprints"

# Two tiny rulebooks of our own (the real ones are the user's, not in the repository).
REFERENCE = "Made-up Rulebook\n\nSolo: add ten to your score per variant.\n\nCredits\n"
OTHER = "Made-up summary\nSolo:\n  each variant raises   the bands by ten.\n"


def _entry(**extra) -> dict:
    ref, other = REFERENCE.splitlines(), OTHER.splitlines()
    return {"id": "solo-bonus", "clause": "solo-variant-bonus",
            "en_lines": "3", "en_digest": span_digest(ref, [(3, 3)]),
            "ja_lines": "2-3", "ja_digest": span_digest(other, [(2, 3)]),
            "ja_reading": "Each variant raises the solo bands by ten.",
            "differs_in_effect": True, "encoded_by": ["parameters/solo_bonus_mode"], **extra}


def _game(tmp_path: Path, *entries: dict) -> Path:
    """A copy of Footprints whose comparison file holds `entries`, and the rulebook folder."""
    game = tmp_path / "footprints"
    shutil.copytree(FOOTPRINTS, game, ignore=shutil.ignore_patterns("scenarios", "NOTES.md", "anchors"))
    doc = {"variant": "ja-edition", "rulebook": "other.ja.txt", "reference": "ref.en.txt",
           "differences": list(entries) or [_entry()]}
    (game / "ja-differences.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True), "utf-8")
    books = tmp_path / "books"
    books.mkdir()
    (books / "ref.en.txt").write_text(REFERENCE, "utf-8")
    (books / "other.ja.txt").write_text(OTHER, "utf-8")
    return game


def _diff(capsys, game: Path, *extra: str) -> str:
    assert main(["diff", str(game), "--variant", "ja-edition", *extra]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return out


def test_diff_shows_the_lines_only_from_the_users_files(capsys, monkeypatch, tmp_path):
    game = _game(tmp_path)
    monkeypatch.delenv("CAIRN_RULEBOOKS", raising=False)
    out = _diff(capsys, game)
    assert "solo-bonus [solo-variant-bonus]: Each variant raises the solo bands by ten." in out
    assert "      ref.en.txt line 3\n      other.ja.txt lines 2-3\n      played: parameters/solo_bonus_mode" in out
    assert "add ten" not in out
    monkeypatch.setenv("CAIRN_RULEBOOKS", str(tmp_path / "books"))
    out = _diff(capsys, game)
    assert ("      ref.en.txt line 3:\n        Solo: add ten to your score per variant.\n"
            "      other.ja.txt lines 2-3:\n        Solo:\n        each variant raises   the bands by ten.\n") in out


def test_diff_says_when_a_rulebook_is_another_text(capsys, monkeypatch, tmp_path):
    game = _game(tmp_path)
    (tmp_path / "books" / "other.ja.txt").write_text(OTHER.replace("ten", "twenty"), "utf-8")
    (tmp_path / "books" / "ref.en.txt").write_text("one line only\n", "utf-8")    # spans past its end
    monkeypatch.setenv("CAIRN_RULEBOOKS", str(tmp_path / "books"))
    out = _diff(capsys, game)
    for name in ("ref.en.txt line 3", "other.ja.txt lines 2-3"):
        assert f"{name} (" + name.split()[0] + " in $CAIRN_RULEBOOKS is not the text these lines were taken from)" in out
    assert "twenty" not in out and "one line only" not in out


def test_diff_json_carries_the_lines(capsys, monkeypatch, tmp_path):
    game = _game(tmp_path)
    monkeypatch.setenv("CAIRN_RULEBOOKS", str(tmp_path / "books"))
    (d,) = json.loads(_diff(capsys, game, "--json"))["edition_differences"]
    assert d["rulebook_lines"] == {"en": {"file": "ref.en.txt", "lines": "3",
                                          "text": ["Solo: add ten to your score per variant."]},
                                   "ja": {"file": "other.ja.txt", "lines": "2-3",
                                          "text": ["Solo:", "each variant raises   the bands by ten."]}}
    monkeypatch.setenv("CAIRN_RULEBOOKS", str(tmp_path / "nowhere"))
    (d,) = json.loads(_diff(capsys, game, "--json"))["edition_differences"]
    assert d["rulebook_lines"]["ja"] == {"file": "other.ja.txt", "lines": "2-3"}


@pytest.mark.parametrize("change, message", [
    ({"en": "Solo: add ten to your score per variant."}, "'en'"),            # a copied sentence is refused
    ({"ja_lines": "3, 2"}, "lines '3, 2': give the spans in ascending order"),
    ({"en_lines": "3-4, 4"}, "lines '3-4, 4': give the spans in ascending order"),
    ({"en_digest": None}, "en_lines needs en_digest beside it"),
    ({"ja_digest": "zz"}, "ja_digest"),
])
def test_a_bad_entry_is_refused_at_its_place(tmp_path, change, message):
    entry = {k: v for k, v in _entry(**change).items() if v is not None}
    got = problems(_game(tmp_path, entry))
    assert got and all("ja-differences.yaml:" in str(d) for d in got)
    assert any(message in d.message for d in got), [str(d) for d in got]


def test_lines_need_the_file_they_are_lines_of(tmp_path):
    game = _game(tmp_path)
    doc = yaml.safe_load((game / "ja-differences.yaml").read_text("utf-8"))
    del doc["reference"]
    (game / "ja-differences.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True), "utf-8")
    assert [d.message for d in problems(game)] == ["en_lines: name the file they are lines of at the top "
                                                   "(reference: FILE)"]


def test_parse_spans():
    assert parse_spans("7") == [(7, 7)]
    assert parse_spans("40-41, 45") == [(40, 41), (45, 45)]
    for bad in ("", "0", "3-2", "4, 4", "2, 1", "1 - 2", "a"):
        assert parse_spans(bad) is None, bad


def _anchors(name: str) -> tuple[dict[str, set[int]], set[int], dict[str, str]]:
    """An anchors file as: each clause's lines, the marked lines, and each span's digest."""
    data = yaml.safe_load((FOOTPRINTS / "anchors" / name).read_text("utf-8"))

    def lines(text: str) -> set[int]:
        return {n for a, b in parse_spans(text) for n in range(a, b + 1)}
    entries = list(data["clauses"].values()) + data["marks"]
    return ({cid: lines(e["lines"]) for cid, e in data["clauses"].items()},
            {n for m in data["marks"] for n in lines(m["lines"])},
            {e["lines"]: e["digest"] for e in entries})


def test_footprints_differences_point_into_anchored_lines():
    """Without the rulebook files: every line an entry compares is anchored to one of the
    entry's clauses or marked (advice, a heading...), or anchored nowhere, i.e. blank (the
    anchors account for every other line); an entry whose lines are exactly an anchored
    span has that span's digest."""
    doc = yaml.safe_load((FOOTPRINTS / "ja-differences.yaml").read_text("utf-8"))
    assert problems(FOOTPRINTS) == []
    assert doc["reference"] == "footprints.en.txt" and doc["rulebook"] == "footprints.ja.txt"
    compared = 0
    for side in ("en", "ja"):
        clauses, marked, digests = _anchors(f"footprints.{side}.yaml")
        anchored = marked.union(*clauses.values())
        for d in doc["differences"]:
            assert not {"en", "ja"} & set(d), d["id"]       # no copied sentence
            if f"{side}_lines" not in d:
                continue
            compared += 1
            cids = [d["clause"]] if isinstance(d["clause"], str) else d["clause"]
            own = marked.union(*(clauses.get(c, set()) for c in cids))
            wanted = {n for a, b in parse_spans(d[f"{side}_lines"]) for n in range(a, b + 1)}
            assert all(n in own or n not in anchored for n in wanted), (d["id"], side)
            if d[f"{side}_lines"] in digests:
                assert digests[d[f"{side}_lines"]] == d[f"{side}_digest"], (d["id"], side)
    assert compared == 100          # 53 entries; 2 have no English lines, 4 no Japanese ones
