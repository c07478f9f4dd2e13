"""Rulebook anchors (anchors/*.yaml): each clause tied to the lines of a rulebook text file.

Checked on a small test game (tests/fixtures/anchored: Pig's rules under another name)
with a rulebook text invented for it (tests/fixtures/rulebooks/pebbles.en.txt), then, for
every shipped game with anchors, against the real rulebook files (the user's, outside the
repository: $CAIRN_RULEBOOKS, set by conftest.py to ../shared/rulebooks when it is there).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from interpreter.anchors import parse_lines
from interpreter.anchors_text import digest, read_rulebook
from interpreter.cli.main import main
from needs import in_ci

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "anchored"
BOOK = ROOT / "tests" / "fixtures" / "rulebooks" / "pebbles.en.txt"
ANCHORS = "anchors/pebbles.en.yaml"


@pytest.fixture
def game(tmp_path, monkeypatch):
    """A copy of the test game and of its rulebook, found through $CAIRN_RULEBOOKS."""
    shutil.copytree(FIXTURE, tmp_path / "game")
    (tmp_path / "books").mkdir()
    shutil.copy(BOOK, tmp_path / "books" / BOOK.name)
    monkeypatch.setenv("CAIRN_RULEBOOKS", str(tmp_path / "books"))
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


# ---------------------------------------------------------------- the format on its own

def test_spans_are_parsed_and_malformed_ones_refused():
    assert parse_lines("7") == [(7, 7)] and parse_lines("40-41, 45") == [(40, 41), (45, 45)]
    assert parse_lines(12) == [(12, 12)]
    assert "backwards" in parse_lines("14-12")
    assert "ascending" in parse_lines("12-14, 13")
    assert "ascending" in parse_lines("20, 7")
    assert "lines count from 1" in parse_lines("0")
    assert "neither a line number nor a range" in parse_lines("12 to 14")


def test_the_digest_is_the_one_the_format_defines(tmp_path):
    book = tmp_path / "b.txt"
    book.write_text("Title\n\n  Two   spaces\there\n\nlast line  \n", "utf-8")
    lines = book.read_text("utf-8").splitlines()
    want = hashlib.sha256("Two spaces here\nlast line".encode("utf-8")).hexdigest()[:8]
    assert digest(read_rulebook(book), [(2, 5)]) == want == digest(lines, [(3, 3), (5, 5)])


def test_the_test_game_and_its_rulebook_agree(game, capsys):
    code, out, err = run(capsys, "validate", str(game / "game"))
    assert code == 0, out + err
    code, out, err = run(capsys, "anchors", str(game / "game"), "--json")
    assert code == 0, out + err
    book = json.loads(out)["rulebooks"][0]
    assert book["unaccounted"] == [] and book["unanchored"] == [] and book["digest_mismatches"] == []
    assert book["counts"] == {"clause": 7, "title": 1, "contents": 1, "heading": 3, "example": 1, "advice": 1}
    assert book["clauses_anchored"] == 6 and book["ok"] is True


def test_anchors_file_problems_are_reported_by_validate_at_their_place(game, capsys):
    f = game / "game" / ANCHORS
    edit(f, 'turn-hold: {lines: "9"', 'turn-hodl: {lines: "9"')           # line 7: no such clause
    edit(f, 'turn-bust: {lines: "10"', 'turn-bust: {lines: "10-9"')        # line 8: backwards
    edit(f, 'kind: contents', 'kind: index')                               # not a mark kind (schema)
    code, out, err = run(capsys, "validate", str(game / "game"))
    assert code == 1
    assert "index" in out and "is not one of 'title', 'contents'" in out
    edit(f, 'kind: index', 'kind: contents')
    edit(f, "short-target: {", "lucky-six: {")                             # line 10: an invented clause
    edit(f, "clause: turn-bust}", "clause: turn-bust-x}")
    code, out, err = run(capsys, "validate", str(game / "game"))
    assert code == 1
    where = str(f)
    assert f"{where}:7:3: no clause 'turn-hodl' in rules.yaml or an overlay's clauses (did you mean 'turn-hold'?)" in out
    assert f"{where}:8:" in out and "the range 10-9 runs backwards" in out
    assert f"{where}:10:3: clause 'lucky-six' is not the rulebook's (invented: lucky)" in out
    assert "no clause 'turn-bust-x'" in out and "Traceback" not in out + err


def test_a_clause_an_overlay_of_the_rulebook_adds_may_be_anchored(game, capsys):
    assert run(capsys, "validate", str(game / "game"))[0] == 0
    (game / "game" / "variants" / "short.yaml").unlink()      # short-target is then nobody's clause
    code, out, _err = run(capsys, "validate", str(game / "game"))
    assert code == 1 and "no clause 'short-target'" in out


def test_the_anchors_file_is_named_after_its_rulebook(game, capsys):
    edit(game / "game" / ANCHORS, "rulebook: pebbles.en.txt", "rulebook: ../books/pebbles.en.txt")
    code, out, _err = run(capsys, "validate", str(game / "game"))
    assert code == 1 and "is not the bare name of a text file" in out
    edit(game / "game" / ANCHORS, "rulebook: ../books/pebbles.en.txt", "rulebook: pebbles.fr.txt")
    code, out, _err = run(capsys, "validate", str(game / "game"))
    assert code == 1 and "the anchors of pebbles.fr.txt belong in anchors/pebbles.fr.yaml" in out


def test_a_game_without_anchors_stays_valid(capsys):
    code, out, err = run(capsys, "validate", "pig")
    assert code == 0 and out == "", out + err
    code, _out, err = run(capsys, "anchors", "pig")
    assert code == 2 and "pig has no anchors files" in err


# ---------------------------------------------------------------- finding and reading the rulebook

def test_the_rulebook_is_found_by_option_or_folder(game, capsys, monkeypatch):
    monkeypatch.delenv("CAIRN_RULEBOOKS")
    code, _out, err = run(capsys, "anchors", str(game / "game"))
    assert code == 2 and "pebbles.en.txt: not found ($CAIRN_RULEBOOKS is not set; give --rulebook FILE" in err
    assert run(capsys, "anchors", str(game / "game"), "--rulebook", str(BOOK))[0] == 0
    monkeypatch.setenv("CAIRN_RULEBOOKS", str(BOOK.parent))
    assert run(capsys, "anchors", str(game / "game"))[0] == 0


def test_a_rulebook_file_is_input_bounded_and_checked(game, capsys):
    bad = game / "bad.txt"
    bad.write_bytes(b"fine\n\xff\xfe broken\n")
    for given, says in ((bad, "line 2, column 1: not valid UTF-8 (byte 0xff)"), (game / "books", "not a regular file"),
                        (game / "nothing.txt", "cannot read file")):
        code, out, err = run(capsys, "anchors", str(game / "game"), "--rulebook", str(given))
        assert code == 2 and says in err and "Traceback" not in err, err
        code, out, err = run(capsys, "validate", str(game / "game"), "--rulebook", str(given))
        assert code == 2 and says in err, err
    if hasattr(os, "mkfifo"):
        os.mkfifo(game / "fifo.txt")
        code, _out, err = run(capsys, "anchors", str(game / "game"), "--rulebook", str(game / "fifo.txt"))
        assert code == 2 and "not a regular file (a FIFO)" in err
    big = game / "big.txt"
    big.write_bytes(b"x" * 1_000_001)
    code, _out, err = run(capsys, "anchors", str(game / "game"), "--rulebook", str(big))
    assert code == 2 and "is over the 1 MB limit" in err


# ---------------------------------------------------------------- digests

def test_validate_finds_an_edited_line_of_the_rulebook(game, capsys):
    assert run(capsys, "validate", str(game / "game"))[0] == 0
    edit(game / "books" / BOOK.name, "keeps 100 wins", "keeps 120 wins")       # line 14
    code, out, _err = run(capsys, "validate", str(game / "game"))
    assert code == 1
    problems = out.strip().splitlines()
    assert len(problems) == 1
    assert problems[0].startswith(f"{game / 'game' / ANCHORS}:9:")             # the anchor's line
    assert "clause 'win-target': digest 0c006441 does not match line 14 of " in problems[0]
    assert "the rulebook file was edited or is another one" in problems[0]


def test_validate_finds_a_different_rulebook_given_in_its_place(game, capsys, monkeypatch):
    (game / "other.txt").write_text(BOOK.read_text("utf-8").replace("youngest", "oldest"), "utf-8")
    monkeypatch.chdir(game)      # a short path: a message cuts another file's long path
    code, out, _err = run(capsys, "validate", str(game / "game"), "--rulebook", "other.txt")
    assert code == 1 and "does not match line 6 of other.txt" in out and out.count("\n") == 1


def test_anchors_reports_an_unaccounted_line_with_its_text_only_on_a_terminal(game, capsys, monkeypatch):
    with (game / "books" / BOOK.name).open("a", encoding="utf-8") as f:
        f.write("\nA late rule that nobody anchored.\n")                        # line 20
    code, out, _err = run(capsys, "anchors", str(game / "game"), "--json")
    assert code == 1
    book = json.loads(out)["rulebooks"][0]
    assert book["unaccounted"] == [20] and book["ok"] is False and "nobody" not in out
    code, out, _err = run(capsys, "anchors", str(game / "game"))
    assert code == 1 and "unaccounted lines: 1\n    20\n" in out and "nobody" not in out
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    code, out, _err = run(capsys, "anchors", str(game / "game"))
    assert "    20: A late rule that nobody anchored." in out


def test_anchors_reports_a_clause_with_no_anchor(game, capsys):
    edit(game / "game" / ANCHORS, '  turn-hold: {lines: "9", digest: "c1504605"}\n', "")
    edit(game / "game" / ANCHORS, '  - {lines: "3", kind: contents', '  - {lines: "3, 9", kind: contents')
    code, out, _err = run(capsys, "anchors", str(game / "game"), "--json")
    book = json.loads(out)["rulebooks"][0]
    assert code == 1 and book["unanchored"] == ["turn-hold"] and book["unaccounted"] == []


def test_fix_digests_rewrites_only_the_digests(game, capsys):
    f = game / "game" / ANCHORS
    before = f.read_text("utf-8")
    edit(game / "books" / BOOK.name, "keeps 100 wins", "keeps 120 wins")
    edit(game / "books" / BOOK.name, "Stop when you like", "Stop  when you like")   # the same digest
    assert run(capsys, "anchors", str(game / "game"))[0] == 1
    code, out, err = run(capsys, "anchors", str(game / "game"), "--fix-digests")
    assert code == 0 and "1 digest rewritten" in err, out + err
    after = f.read_text("utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    new = digest(read_rulebook(game / "books" / BOOK.name), [(14, 14)])
    assert changed == [("  win-target: {lines: \"14\", digest: 0c006441}",
                        f"  win-target: {{lines: \"14\", digest: {new}}}")]
    assert len(before.splitlines()) == len(after.splitlines()) and "# one sentence over two lines" in after
    assert run(capsys, "validate", str(game / "game"))[0] == 0


def test_a_digest_yaml_reads_as_a_number_is_read_as_written(game, capsys):
    # unquoted, 12345678 is an integer and 0e466652 the float 0.0 to YAML: the digest is what was typed
    f = game / "game" / ANCHORS
    edit(f, "turn-order: {lines: \"6\", digest: 3650a5e7}", "turn-order: {lines: \"6\", digest: 12345678}")
    edit(f, "turn-bust: {lines: \"10\", digest: 2fcd44e8}", "turn-bust: {lines: \"10\", digest: 0e466652}")
    code, out, _err = run(capsys, "validate", str(game / "game"))
    assert code == 1 and "clause 'turn-order': digest 12345678 does not match line 6" in out
    assert "clause 'turn-bust': digest 0e466652 does not match line 10" in out and out.count("\n") == 2
    code, _out, err = run(capsys, "anchors", str(game / "game"), "--fix-digests")
    assert code == 0 and "2 digests rewritten" in err
    assert "turn-order: {lines: \"6\", digest: 3650a5e7}" in f.read_text("utf-8")


def test_fix_digests_quotes_a_digest_that_would_read_as_a_number():
    from interpreter.anchors_text import _yaml_digest
    assert _yaml_digest("12345678") == '"12345678"' and _yaml_digest("1234e567") == '"1234e567"'
    assert _yaml_digest("0badc0de") == "0badc0de" and _yaml_digest("01234567") == "01234567"


# ---------------------------------------------------------------- coverage and the rules beside the rulebook

def test_coverage_shows_each_clause_anchor(game, capsys):
    code, out, _err = run(capsys, "coverage", str(game / "game"), "--games", "0")
    assert code == 0
    assert "turn-roll" in out and "at pebbles.en.txt 7-8" in out
    assert "5 of 5 clauses anchored to rulebook lines" in out
    code, out, _err = run(capsys, "coverage", str(game / "game"), "--games", "0", "--json")
    rows = {c["id"]: c for c in json.loads(out)["clauses"]}
    assert rows["turn-roll"]["anchors"][0]["lines"] == "7-8" and rows["turn-roll"]["anchors"][0]["digest_ok"] is True
    code, out, _err = run(capsys, "coverage", "pig", "--games", "0", "--json")
    assert all(c["anchors"] is None for c in json.loads(out)["clauses"])     # a game without anchors


def test_rules_by_clause_follow_the_rulebook_lines(game, capsys):
    # the index put in another order: the clauses still come in the rulebook's order, and a
    # clause with no anchor keeps its place after the one before it in the index
    rules = game / "game" / "rules.yaml"
    lines = rules.read_text("utf-8").splitlines()
    order = [lines[i] for i in (0, 1, 2, 7, 3, 6, 4, 5)]        # win-target, turn-order, turn-bust, ...
    rules.write_text("\n".join(order) + "\n", "utf-8")
    edit(game / "game" / ANCHORS, '  turn-bust: {lines: "10", digest: 2fcd44e8}\n', "")
    code, out, _err = run(capsys, "rules", str(game / "game"), "--by", "clause")
    assert code == 0
    shown = [line[4:] for line in out.splitlines() if line.startswith("### ")]
    assert shown == ["turn-order", "turn-bust", "turn-roll", "turn-hold", "win-target"]     # then what cites none
    section = out[out.index("### turn-roll"):out.index("### turn-hold")]
    assert "rulebook: pebbles.en.txt lines 7-8 (" in section
    assert "> 7: On your turn throw the die" in section and "> 8: adding up what you throw." in section
    assert "rulebook: **no anchor**" in out[out.index("### turn-bust"):out.index("### turn-roll")]


def test_rules_by_clause_without_the_rulebook_file_show_the_lines_only(game, capsys, monkeypatch):
    monkeypatch.delenv("CAIRN_RULEBOOKS")
    code, out, _err = run(capsys, "rules", str(game / "game"), "--by", "clause")
    assert code == 0 and "rulebook: pebbles.en.txt lines 7-8 (" in out and "throw the die" not in out
    code, _out, err = run(capsys, "rules", str(game / "game"), "--by", "clause", "--format", "html", "--side-by-side")
    assert code == 2 and "--side-by-side needs the rulebook file" in err


def side_by_side_page(game: Path, capsys) -> str:
    out = game / "side.html"
    code, _o, err = run(capsys, "rules", str(game / "game"), "--by", "clause", "--format", "html", "--side-by-side",
                        "-o", str(out))
    assert code == 0, err
    return out.read_text("utf-8")


def test_side_by_side_page_rows_and_links(game, capsys):
    import re
    page = side_by_side_page(game, capsys)
    row = page[page.index('<tr class="clause" id="row-turn-roll">'):]
    row = row[:row.index("</tr>")]
    left, right = row.split("</td><td>", 1)
    assert "On your turn throw the die" in left and "adding up what you throw." in left
    assert 'id="clause-turn-roll"' in right and "play_turn(p)" in right
    ids = set(re.findall(r'id="([^"]+)"', page))
    links = set(re.findall(r'href="#([^"]+)"', page))
    assert links <= ids                                       # every link lands
    assert "code-step-play" in links and "clause-turn-hold" in links   # clause -> code and code -> clause
    assert '<tr class="mark">' in page and "heading" in page and "…" not in page
    assert page.index("row-turn-order") < page.index("row-turn-roll") < page.index("row-win-target")


@pytest.mark.needs("chromium")
def test_side_by_side_page_in_a_headless_browser(game, capsys, monkeypatch):
    import sys
    from playwright.sync_api import sync_playwright
    sys.path.insert(0, str(ROOT / "tools"))
    import web_screenshots as W
    sys.path.pop(0)
    monkeypatch.chdir(ROOT)
    page_file = game / "side.html"         # the test game where it is: its files named as in the repository
    code, _o, err = run(capsys, "rules", str(FIXTURE.relative_to(ROOT)), "--by", "clause", "--format", "html",
                        "--side-by-side", "--rulebook", str(BOOK), "-o", str(page_file))
    assert code == 0, err
    shot = ROOT / "docs" / "screenshots" / "rules-side-by-side.png"
    with sync_playwright() as p:
        browser = W.launch(p)
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(page_file.as_uri())
        row = page.locator("tr#row-turn-roll")
        assert "throw the die" in row.locator("td.book").inner_text()
        assert "play_turn(p)" in row.locator("td").nth(1).inner_text()
        assert row.locator("td.book").bounding_box()["x"] < row.locator("td").nth(1).bounding_box()["x"]
        page.locator('a[href="#code-step-play"]').first.click()
        assert page.evaluate("location.hash") == "#code-step-play"
        page.goto(page_file.as_uri())
        page.screenshot(path=str(shot), full_page=True)
        browser.close()
    assert shot.stat().st_size > 10_000


# ---------------------------------------------------------------- every shipped game with a printed rulebook

def printed_rulebook_games() -> list[str]:
    """The games whose rules.yaml indexes a rulebook text file (the others have none)."""
    import yaml
    out = []
    for rules in sorted((ROOT / "definitions").glob("*/rules.yaml")):
        name = yaml.safe_load(rules.read_text("utf-8")).get("rulebook", "")
        if str(name).endswith(".txt"):
            out.append(rules.parent.name)
    return out


def test_the_shipped_games_with_printed_rulebooks_are_known():
    assert printed_rulebook_games() == ["big-foot", "fantastic-trails", "footprints", "stonefire"]


@pytest.mark.parametrize("gid", printed_rulebook_games())
def test_every_rulebook_line_is_accounted_for(gid, capsys):
    folder = os.environ.get("CAIRN_RULEBOOKS", "")
    if not folder or not Path(folder).is_dir():
        message = ("the rulebook text files are not here: set CAIRN_RULEBOOKS to their folder "
                   "(or keep them in ../shared/rulebooks beside the checkout)")
        if in_ci():
            pytest.fail(f"CI is set but {message}", pytrace=False)
        pytest.skip(message)
    anchors = sorted((ROOT / "definitions" / gid / "anchors").glob("*.yaml"))
    assert anchors, f"{gid} has no anchors files (definitions/{gid}/anchors/*.yaml)"
    code, out, err = run(capsys, "anchors", gid, "--json")
    assert code in (0, 1), err
    report = json.loads(out)
    assert report["not_found"] == []
    assert len(report["rulebooks"]) == len(anchors)
    for book in report["rulebooks"]:
        assert book["unaccounted"] == [], (book["rulebook"], "unaccounted lines", book["unaccounted"])
        if book["reference"]:
            assert book["unanchored"] == [], (book["rulebook"], "clauses with no anchor", book["unanchored"])
        assert book["digest_mismatches"] == [], (book["rulebook"], book["digest_mismatches"])
    assert code == 0
