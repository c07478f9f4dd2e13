"""Broken copies of big-foot: every problem is reported at file:line:col with a useful message.

Each test copies definitions/big-foot into tmp_path, breaks it in a known way and checks
the exact position (computed from the YAML text the test wrote) and the message. The
working folder is tmp_path, so diagnostics name files as e.g. `copy/cards.yaml`.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.load.build import build

ROOT = Path(__file__).resolve().parents[1]

SRC = Path(__file__).resolve().parents[1] / "definitions" / "big-foot"

# The body of the "Snowed in" (lose-turn) card effect in cards.yaml (an entry of the action
# cards' group); effect tests put their statement in place of its first line.
EFFECT = " " * 10                       # the indentation of an effect line there
LOSE_TURN_FIRST = EFFECT + "me.lose_turns += 1\n"
LOSE_TURN_LOG = EFFECT + 'log("{player_name(me)} will lose the next turn")\n'


@pytest.fixture
def work(tmp_path, monkeypatch):
    """Runs the test inside tmp_path so diagnostics carry short relative file names."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def make_copy(name: str, edits=(), files=None) -> Path:
    """Copies big-foot to ./name, applies (file, old, new) edits (old must occur exactly
    once) and writes extra files {relative path: text}."""
    dest = Path(name)
    shutil.copytree(SRC, dest)
    for fname, old, new in edits:
        path = dest / fname
        text = path.read_text("utf-8")
        assert text.count(old) == 1, f"{old!r} is not unique in {fname}"
        path.write_text(text.replace(old, new), "utf-8")
    for rel, text in (files or {}).items():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_text(text, "utf-8")
    return dest


def where(path: Path, needle: str, offset: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the unique `needle` in the file, plus `offset` columns."""
    text = path.read_text("utf-8")
    assert text.count(needle) == 1, f"{needle!r} is not unique in {path}"
    i = text.index(needle)
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col + offset


def at(path: Path, needle: str, message: str, offset: int = 0) -> str:
    line, col = where(path, needle, offset)
    return f"{path.as_posix()}:{line}:{col}: {message}"


def diags_of(folder: Path, variants=()) -> list[str]:
    game, diags = build(folder, list(variants))
    assert game is None, "a broken copy must not compile"
    assert diags, "a broken copy must report at least one problem"
    # validate's lean build (no fast forms, no fused blocks) finds exactly the same
    _lean, checked = build(folder, list(variants), lean=True)
    assert [str(d) for d in checked] == [str(d) for d in diags]
    return [str(d) for d in diags]


def card_path(cards: Path, needle: str) -> str:
    """The schema path of the action card whose entry contains `needle` (the first group)."""
    text = cards.read_text("utf-8")
    group = text[text.index("\ngroups:"):text.index(needle)]
    return f"groups/0/entries/{group.count(chr(10) + '      - ') - 1}"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


# ---- 1. reference, schema and effect errors --------------------------------------

REF_EDIT = ("game.yaml", '    params: [c]\n    do: move(c, "deck", bottom=true)',
            '    params: [c]\n    do: move(c, "dek", bottom=true)')
COUNT_EDIT = ("cards.yaml", "count: 2, props: {destination: mining-town}", "count: two, props: {destination: mining-town}")
NMAE_EDIT = ("cards.yaml", "        name: Snowed in\n", "        nmae: Snowed in\n")
SYNTAX_EDIT = ("cards.yaml", LOSE_TURN_LOG, LOSE_TURN_LOG + EFFECT + "let x = (1 +\n")
SYNTAX_MESSAGE_START = "unexpected end of text; expected "
# the offending effect line and a caret under the column just after the '+'
SYNTAX_CARET = "\n    let x = (1 +\n    " + " " * 12 + "^"


def schema_expected(copy: Path) -> list[str]:
    cards = copy / "cards.yaml"
    i_count = card_path(cards, "count: two")
    i_nmae = card_path(cards, "nmae: Snowed in")
    return [
        at(cards, "count: two", f"{i_count}/count: expected integer, got a string ('two')", offset=7),
        at(cards, "id: lose-turn", f"{i_nmae}: missing required key(s): name"),
        at(cards, "nmae: Snowed in", f"unknown key 'nmae' in {i_nmae} (did you mean 'name'?)"),
    ]


def ref_expected(copy: Path) -> str:
    return at(copy / "game.yaml", '"dek"', "move() argument 'to': no place named 'dek' (did you mean 'deck'?)")


def syntax_position(copy: Path) -> str:
    line, col = where(copy / "cards.yaml", "let x = (1 +", offset=len("let x = (1 +"))
    return f"{(copy / 'cards.yaml').as_posix()}:{line}:{col}: "


NMAE_GOLD_EDIT = ("cards.yaml", "name: Go to the Gold Mine,", "nmae: Go to the Gold Mine,")


def test_all_three_in_one_copy_are_all_reported(work):
    # An entry with a schema problem is left out and the rest is still compiled, so one run
    # names the schema violations, the misspelt reference and the broken effect together.
    copy = make_copy("all3", [REF_EDIT, COUNT_EDIT, NMAE_GOLD_EDIT, SYNTAX_EDIT])
    got = diags_of(copy)
    cards = copy / "cards.yaml"
    i_count = card_path(cards, "count: two")
    i_nmae = card_path(cards, "nmae: Go to the Gold Mine")
    assert at(cards, "count: two", f"{i_count}/count: expected integer, got a string ('two')", offset=7) in got
    assert at(cards, "nmae: Go to the Gold Mine",
              f"unknown key 'nmae' in {i_nmae} (did you mean 'name'?)") in got
    assert ref_expected(copy) in got
    syntax = [d for d in got if d.startswith(syntax_position(copy) + SYNTAX_MESSAGE_START)]
    assert len(syntax) == 1 and syntax[0].endswith(SYNTAX_CARET)
    # nothing spurious: the left-out cards' absence is not reported as a count mismatch
    assert not any("box declares" in d for d in got), got
    assert len(got) == 5, got


def test_all_three_in_one_copy_validate_exits_1(work, capsys):
    copy = make_copy("all3", [REF_EDIT, COUNT_EDIT, NMAE_GOLD_EDIT, SYNTAX_EDIT])
    rc, out, _err = cli(capsys, "validate", "all3")
    assert rc == 1
    assert out.count("\nall3/") + out.startswith("all3/") >= 5, out
    assert ref_expected(copy) in out
    assert "all3/cards.yaml:" in out and "all3/game.yaml:" in out and "no place named 'dek'" in out
    assert "expected integer" in out and "unknown key 'nmae'" in out


def test_reference_and_effect_errors_point_into_the_yaml(work):
    copy = make_copy("effects", [REF_EDIT, SYNTAX_EDIT])
    got = diags_of(copy)
    assert len(got) == 2
    assert got[0] == ref_expected(copy)
    assert got[1].startswith(syntax_position(copy) + SYNTAX_MESSAGE_START)
    assert got[1].endswith(SYNTAX_CARET)
    # the line the position names is the line of the YAML file holding the broken text
    line = int(got[1].split(":")[1])
    assert (copy / "cards.yaml").read_text("utf-8").splitlines()[line - 1] == EFFECT + "let x = (1 +"


def test_validate_reports_each_problem_text_and_json(work, capsys):
    schema = make_copy("schema", [COUNT_EDIT, NMAE_EDIT])
    effects = make_copy("effects", [REF_EDIT, SYNTAX_EDIT])
    expected_schema = schema_expected(schema)
    expected_ref = ref_expected(effects)
    syntax_prefix = syntax_position(effects) + SYNTAX_MESSAGE_START

    rc, out, err = cli(capsys, "validate", "schema", "effects")
    assert rc == 1
    for line in expected_schema + [expected_ref]:
        assert line + "\n" in out
    assert syntax_prefix in out
    assert SYNTAX_CARET in out
    assert "5 problems: checked schema; effects" in err

    rc, out, err = cli(capsys, "validate", "schema", "effects", "--json")
    assert rc == 1
    entries = json.loads(out)
    assert all(set(e) == {"file", "line", "column", "message"} for e in entries)
    as_text = [f"{e['file']}:{e['line']}:{e['column']}: {e['message']}" for e in entries]
    assert as_text[:4] == expected_schema + [expected_ref]
    assert len(as_text) == 5
    assert as_text[4].startswith(syntax_prefix) and as_text[4].endswith(SYNTAX_CARET)
    assert entries[4]["file"] == "effects/cards.yaml"


# ---- 2. effect-language errors ---------------------------------------------------

EFFECT_CASES = [
    # (statement, needle in the statement where the diagnostic points, message)
    ('moev("bigfoot", "cave")', "moev", "unknown function 'moev' (did you mean 'move'?)"),
    ('move("bigfoot")', 'move("bigfoot")', "move() is missing argument 'to'"),
    ("let y = game.frist", "game.frist",
     "no game variable 'frist' (declare it under vars.game) (did you mean 'first'?)"),
    ("let y = thsi", "thsi", "unknown name 'thsi' (did you mean 'this'?)"),
    ("log(undefined_thing)", "undefined_thing", "unknown name 'undefined_thing'"),
    ("let n = 1 + choose([1, 2])", "choose",
     "choose(...) changes the flow of play and must stand as a statement or as 'let x = ...'"),
    ('choose(["a", "b"])', "choose",
     "choose(...) must be the right-hand side of let, e.g. 'let x = choose(...)'"),
    ('shuffle("dekc")', '"dekc"', "shuffle() argument 'place': no place named 'dekc' (did you mean 'deck'?)"),
]


@pytest.mark.parametrize("stmt,needle,message", EFFECT_CASES, ids=[c[0] for c in EFFECT_CASES])
def test_effect_error_at_exact_position(work, stmt, needle, message):
    copy = make_copy("c", [("cards.yaml", LOSE_TURN_FIRST, EFFECT + f"{stmt}\n")])
    line, col = where(copy / "cards.yaml", stmt)
    col += stmt.index(needle)
    assert diags_of(copy) == [f"c/cards.yaml:{line}:{col}: {message}"]


def test_wrong_argument_name(work):
    stmt = 'move("bigfoot", "cave", botom=true)'
    copy = make_copy("c", [("cards.yaml", LOSE_TURN_FIRST, EFFECT + f"{stmt}\n")])
    line, col = where(copy / "cards.yaml", stmt)
    [d] = diags_of(copy)
    loc, message = d.split(": ", 1)
    assert message == "move() has no argument 'botom' (did you mean 'bottom'?)"
    file, dline, dcol = loc.split(":")
    assert (file, int(dline)) == ("c/cards.yaml", line)
    # within `botom=true` (the next test pins the exact column)
    assert col + stmt.index("botom") <= int(dcol) < col + stmt.index("true") + 4


def test_wrong_argument_name_points_at_the_name(work):
    stmt = 'move("bigfoot", "cave", botom=true)'
    copy = make_copy("c", [("cards.yaml", LOSE_TURN_FIRST, EFFECT + f"{stmt}\n")])
    line, col = where(copy / "cards.yaml", stmt, offset=stmt.index("botom"))
    assert diags_of(copy) == [f"c/cards.yaml:{line}:{col}: move() has no argument 'botom' (did you mean 'bottom'?)"]


def test_syntax_error_in_the_middle_of_an_effect(work):
    copy = make_copy("c", [("cards.yaml", LOSE_TURN_FIRST, EFFECT + "let x = (1 + )\n")])
    line, col = where(copy / "cards.yaml", "let x = (1 + )", offset=len("let x = (1 + "))
    [d] = diags_of(copy)
    assert d.startswith(f"c/cards.yaml:{line}:{col}: unexpected ')'; expected ")
    assert d.endswith("\n    let x = (1 + )\n    " + " " * 13 + "^")


def test_error_inside_string_interpolation_points_at_it(work):
    stmt = 'log("turn {game.frist}")'
    copy = make_copy("c", [("cards.yaml", LOSE_TURN_LOG, LOSE_TURN_LOG + EFFECT + f"{stmt}\n")])
    line, col = where(copy / "cards.yaml", stmt, offset=stmt.index("game.frist"))
    [d] = diags_of(copy)
    assert d.endswith(": no game variable 'frist' (declare it under vars.game) (did you mean 'first'?)")
    # the `game.frist` (col) or, like syntax errors in {...}, the '{' just before it
    assert d.split(": ")[0] in (f"c/cards.yaml:{line}:{col}", f"c/cards.yaml:{line}:{col - 1}")


def test_bad_string_escape_is_a_diagnostic(work):
    stmt = r'log("bad \x escape")'
    copy = make_copy("c", [("cards.yaml", LOSE_TURN_FIRST, EFFECT + f"{stmt}\n")])
    line, col = where(copy / "cards.yaml", stmt, offset=stmt.index("\\"))
    got = diags_of(copy)
    assert len(got) == 1 and got[0].startswith(f"c/cards.yaml:{line}:{col}: ")
    assert "escape" in got[0]


def test_bad_string_escape_validate_exit_1(work, capsys):
    stmt = r'log("bad \x escape")'
    copy = make_copy("c", [("cards.yaml", LOSE_TURN_FIRST, EFFECT + f"{stmt}\n")])
    line, _ = where(copy / "cards.yaml", stmt)
    rc, out, _err = cli(capsys, "validate", "c")
    assert rc == 1
    assert f"c/cards.yaml:{line}:" in out


# ---- 3. YAML-level problems in game.yaml -----------------------------------------

def test_duplicate_key(work):
    copy = make_copy("c", [("game.yaml", "  name: Big Foot\n", "  name: Big Foot\n  name: Big Foot Again\n")])
    first, _ = where(copy / "game.yaml", "  name: Big Foot\n")
    assert diags_of(copy) == [at(copy / "game.yaml", "name: Big Foot Again",
                                 f"duplicate key 'name' (first defined at line {first})")]


def test_anchor_and_alias(work):
    copy = make_copy("c", [("game.yaml", "box: {token", "box: &a {token"),
                           ("game.yaml", "  rulebook: shared/rulebooks/big-foot.en.txt\n", "  rulebook: *a\n")])
    g = copy / "game.yaml"
    assert diags_of(copy) == [
        at(g, "*a", "aliases (*a) are not allowed; write the value out (1 more anchors or aliases follow)"),
    ]


def test_tag(work):
    copy = make_copy("c", [("game.yaml", "  rulebook: shared", "  rulebook: !!python/object:os.system shared")])
    assert diags_of(copy) == [at(copy / "game.yaml", "!!python",
                                 "tags (!!python/object:os.system) are not allowed; use plain YAML values")]


def test_yaml_syntax_error(work):
    copy = make_copy("c", [("game.yaml", "  player_names: [Player 1, Player 2, Player 3, Player 4]\n",
                            "  player_names: [Player 1, Player 2\n")])
    g = copy / "game.yaml"
    open_line, open_col = where(g, "[Player 1, Player 2\n")
    # pyyaml notices the problem at the ':' of the next key, inside the unclosed list
    line, col = where(g, "  provenance: {kind: rulebook", offset=len("  provenance"))
    assert diags_of(copy) == [
        f"c/game.yaml:{line}:{col}: YAML syntax error: did not find expected ',' or ']' "
        f"(while parsing a flow sequence started at line {open_line}, column {open_col})"]


# ---- 4. semantic checks ----------------------------------------------------------

def test_card_start_zone_missing(work):
    copy = make_copy("c", [("cards.yaml", "    count: 4\n    start: deck\n    props: {type: protection}",
                            "    count: 4\n    start: decks\n    props: {type: protection}")])
    assert diags_of(copy) == [at(copy / "cards.yaml", "decks",
                                 "start 'decks' is neither a zone nor a board space (did you mean 'deck'?)")]


def test_edge_to_missing_space(work):
    copy = make_copy("c", [("board.yaml", "    - [k4, d4]\n", "    - [k4, d4]\n    - [k4, d44]\n")])
    assert diags_of(copy) == [at(copy / "board.yaml", "d44", "edge end 'd44' is not a space (did you mean 'd4'?)")]


def test_edge_between_two_missing_spaces_is_not_a_connectivity_error(work):
    copy = make_copy("c", [("board.yaml", "    - [k4, d4]\n", "    - [k4, d4]\n    - [zz1, zz2]\n")])
    b = copy / "board.yaml"
    assert diags_of(copy) == [at(b, "zz1", "edge end 'zz1' is not a space"),
                              at(b, "zz2", "edge end 'zz2' is not a space")]


def test_disconnected_board(work):
    copy = make_copy("c", [("board.yaml", "  spaces: []\n", "  spaces:\n    - {id: island, kind: blue, at: [0, 0]}\n")])
    assert diags_of(copy) == [at(copy / "board.yaml", "{id: island",
                                 "the board is not connected: 2 separate parts; "
                                 "e.g. island cannot be reached from the rest")]


def test_box_count_mismatch(work):
    copy = make_copy("c", [("game.yaml", "card: 24", "card: 25")])
    assert diags_of(copy) == [at(copy / "game.yaml", "card: 25", "box declares 25 'card' but the definitions hold 24",
                                 offset=len("card: "))]


# ---- 5. variant overlays ---------------------------------------------------------

VARIANT_X = """\
variant:
  id: x
  name: Fair weather
  description: Adds a card and lets seat 1 begin.
  provenance: {kind: reconstructed, note: "test overlay"}
replace:
  box: {card: 25}
  procedures:
    choose_first:
      doc: Seat 1 always begins.
      rule: to-play-2-roll
      do: |
        game.first = 0
        log("{player_name(0)} goes first")
add:
  cards:
    - id: fair-weather
      name: Fair weather
      start: deck
      props: {type: action}
      text: Nothing happens.
      effect: |
        log("{player_name(me)} enjoys the weather")
      provenance: {kind: reconstructed, note: "test card"}
"""

VARIANT_DUP = """\
variant:
  id: dup
  name: Duplicate
  description: Adds a card id that already exists.
add:
  cards:
    - id: lose-turn
      name: Snowed in again
      start: deck
      provenance: {kind: reconstructed}
"""

VARIANT_RM = """\
variant:
  id: rm
  name: Remove
  description: Removes a card that does not exist.
remove:
  cards: [lose-trun]
"""

VARIANT_REQ = """\
variant:
  id: req
  name: Requires
  description: Needs a variant that does not exist.
  requires: [dupe]
"""

DUP_MSG = ("var/variants/dup.yaml:7:11: card 'lose-turn' is already defined at var/cards.yaml:{line}; "
           "an overlay changes it with 'replace'")
RM_MSG = "var/variants/rm.yaml:6:11: remove: no card 'lose-trun' (did you mean 'lose-turn'?)"
REQ_MSG = ("var/variants/req.yaml:5:14: requires unknown variant 'dupe' (did you mean 'dup'?); "
           "an expansion kept outside the game is given by its file (--variant FILE)")


def test_valid_overlay_adds_card_and_replaces_procedure(work, capsys):
    copy = make_copy("x", files={"variants/x.yaml": VARIANT_X})
    game, diags = build(copy, ["x"])
    assert diags == []
    assert game is not None
    assert game.variants == ("x",)
    assert game.manifest() == {"token": 8, "card": 25, "monster": 1, "disc": 10}
    assert game.props["fair-weather"]["name"] == "Fair weather"
    assert ("fair-weather", "card", "deck") in game.components
    assert game.effects["fair-weather"] == "effect:fair-weather"
    assert game.programs["proc:choose_first"].file == "x/variants/x.yaml"
    base, _ = build(copy, [])
    assert base.manifest()["card"] == 24
    assert base.programs["proc:choose_first"].file == "x/game.yaml"
    # validate checks the base and each variant alone
    rc, out, err = cli(capsys, "validate", "x")
    assert (rc, out) == (0, "")
    assert "valid: checked x; x --variant cabin-stores; x --variant deep-snow; x --variant x" in err
    # and the overlay plays: seat 1 always begins
    rc, out, _ = cli(capsys, "simulate", "x", "--variant", "x", "--players", "2", "--games", "2",
                     "--seed", "1", "--json", "--quiet")
    assert rc == 0
    assert json.loads(out)["finished"] == 2


def test_broken_overlays(work, capsys):
    copy = make_copy("var", files={"variants/dup.yaml": VARIANT_DUP, "variants/rm.yaml": VARIANT_RM,
                                   "variants/req.yaml": VARIANT_REQ})
    lose_turn_line, _ = where(copy / "cards.yaml", "id: lose-turn")
    dup = DUP_MSG.format(line=lose_turn_line)
    assert build(copy, [])[1] == []  # overlays only fail when applied
    assert diags_of(copy, ["dup"]) == [dup]
    assert diags_of(copy, ["rm"]) == [RM_MSG]
    assert diags_of(copy, ["req"]) == [REQ_MSG]
    assert diags_of(copy, ["nope"]) == ["var:1:1: no variant 'nope'; known: cabin-stores, deep-snow, dup, req, rm"]

    rc, out, err = cli(capsys, "validate", "var")
    assert rc == 1
    assert out.splitlines() == [dup, REQ_MSG, RM_MSG]
    assert "3 problems" in err
    rc, out, _ = cli(capsys, "validate", "var", "--json")
    assert rc == 1
    assert [f"{e['file']}:{e['line']}:{e['column']}: {e['message']}" for e in json.loads(out)] == [dup, REQ_MSG, RM_MSG]


def test_overlay_add_of_a_box_count_adds_to_it_and_a_wrong_total_shows_every_part(work):
    copy = make_copy("c", files={"variants/y.yaml": (
        "variant:\n  id: y\n  name: Y\n  description: adds 24 cards to the box but none to the deck\n"
        "add:\n  box: {card: 24}\n")})
    line, col = where(copy / "game.yaml", "card: 24", offset=len("card: "))
    got = diags_of(copy, ["y"])
    assert got == [f"c/variants/y.yaml:6:15: box declares 48 'card' (24 at c/game.yaml:{line}:{col}, "
                   "+24 at c/variants/y.yaml:6:15) but the definitions hold 24"]


# ---- 6. no traceback, ever -------------------------------------------------------

BROKEN = {
    "schema": dict(edits=[COUNT_EDIT, NMAE_EDIT]),
    "all3": dict(edits=[REF_EDIT, COUNT_EDIT, NMAE_EDIT, SYNTAX_EDIT]),
    "effects": dict(edits=[REF_EDIT, SYNTAX_EDIT]),
    **{f"effect{i}": dict(edits=[("cards.yaml", LOSE_TURN_FIRST, EFFECT + f"{c[0]}\n")])
       for i, c in enumerate(EFFECT_CASES)},
    "dupkey": dict(edits=[("game.yaml", "  name: Big Foot\n", "  name: Big Foot\n  name: Big Foot Again\n")]),
    "alias": dict(edits=[("game.yaml", "box: {token", "box: &a {token"),
                         ("game.yaml", "  rulebook: shared/rulebooks/big-foot.en.txt\n", "  rulebook: *a\n")]),
    "tag": dict(edits=[("game.yaml", "  rulebook: shared", "  rulebook: !!python/object:os.system shared")]),
    "yamlsyntax": dict(edits=[("game.yaml", "  player_names: [Player 1, Player 2, Player 3, Player 4]\n",
                               "  player_names: [Player 1, Player 2\n")]),
    "start": dict(edits=[("cards.yaml", "    count: 4\n    start: deck\n    props: {type: protection}",
                          "    count: 4\n    start: decks\n    props: {type: protection}")]),
    "edge": dict(edits=[("board.yaml", "    - [k4, d4]\n", "    - [k4, d4]\n    - [k4, d44]\n")]),
    "island": dict(edits=[("board.yaml", "  spaces: []\n", "  spaces:\n    - {id: island, kind: blue, at: [0, 0]}\n")]),
    "box": dict(edits=[("game.yaml", "card: 24", "card: 25")]),
    "variants": dict(files={"variants/dup.yaml": VARIANT_DUP, "variants/rm.yaml": VARIANT_RM,
                            "variants/req.yaml": VARIANT_REQ}),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_copy_never_prints_a_traceback(work, capsys, name):
    copy = make_copy(name, **BROKEN[name])
    rc, out, err = cli(capsys, "validate", name)
    assert rc == 1
    assert out.count(f"{name}/") >= 1          # at least one file:line:col line
    rc, out, _ = cli(capsys, "validate", name, "--json")
    assert rc == 1
    assert all(e["file"].startswith(f"{name}/") for e in json.loads(out))
    variant = ["--variant", "dup"] if name == "variants" else []
    rc, out, err = cli(capsys, "manifest", str(copy), *variant, "--json")
    assert rc == 1
    assert out == ""                           # diagnostics go to stderr
    assert f"{name}/" in err


def test_a_broken_game_header_with_its_variants_is_one_error_not_a_traceback(tmp_path, capsys):
    """A syntax error in game.yaml, validated with every variant applied on top: one
    error at its file:line:col (before, applying an overlay's `players:` raised KeyError)."""
    copy = tmp_path / "fantastic-trails"
    shutil.copytree(ROOT / "definitions" / "fantastic-trails", copy)
    game = copy / "game.yaml"
    text = game.read_text("utf-8")
    assert "  players: {min: 1, max: 4}\n" in text
    game.write_text(text.replace("  players: {min: 1, max: 4}\n", "  players: {min: 1, max: 4]\n"), "utf-8")
    assert main(["validate", str(copy)]) == 1
    out = capsys.readouterr()
    lines = [l for l in (out.out + out.err).splitlines() if "error" in l.lower() or ".yaml:" in l]
    assert "Traceback" not in out.out + out.err
    assert any("game.yaml:" in l and "YAML syntax error" in l for l in lines)
    assert not any("variants/" in l for l in lines), lines
